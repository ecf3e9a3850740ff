/*
 * Per-op shape rules, one function per family of ONNX ops, for opsets 9
 * to 18: arguments that moved from attributes to inputs (Split, Squeeze,
 * Unsqueeze, Pad, Clip, Resize/Upsample, Reduce* axes, Slice) are read
 * from the input when present and from the attribute otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "shape.h"

#define R ONNX_MAXRANK

typedef int (*rulefn)(struct model *, const struct node *);

static char sa[128], sb[128];

/* Input i, which must be present. */
static const struct tensor *
in(const struct model *m, const struct node *n, size_t i)
{
	const struct tensor *t = node_in(m, n, i);

	if (t == NULL)
		pf_err(m->file, "node %s: %s needs input %zu", n->name, n->op,
		    i + 1);
	return t;
}

static int
unary(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int32_t dt;
	int64_t d[R];
	int i;

	if (x == NULL)
		return -1;
	dt = x->dtype;
	if (strcmp(n->op, "Cast") == 0)
		dt = (int32_t)attr_int(n, "to", DT_FLOAT);
	else if (strcmp(n->op, "Not") == 0 || strcmp(n->op, "IsNaN") == 0 ||
	    strcmp(n->op, "IsInf") == 0)
		dt = DT_BOOL;
	shape_setout(m, n, 0, dt, x->rank, x->dims);
	if (strcmp(n->op, "Dropout") == 0)
		shape_setout(m, n, 1, DT_BOOL, x->rank, x->dims);
	else if (strcmp(n->op, "BatchNormalization") == 0) {
		d[0] = x->rank > 1 ? x->dims[1] : 1;
		for (i = 1; i < 5; i++)
			shape_setout(m, n, (size_t)i, x->dtype, 1, d);
	} else if (strcmp(n->op, "LayerNormalization") == 0) {
		int ax;

		if (shape_axis(m, n, attr_int(n, "axis", -1), x->rank, &ax) < 0)
			return -1;
		for (i = 0; i < x->rank; i++)
			d[i] = i < ax ? x->dims[i] : 1;
		shape_setout(m, n, 1, DT_FLOAT, x->rank, d);
		shape_setout(m, n, 2, DT_FLOAT, x->rank, d);
	}
	return 0;
}

static int
bcast(struct model *m, const struct node *n)
{
	const struct tensor *t;
	int64_t d[R];
	int32_t dt;
	int r = 0, i;

	if (n->nin == 0 || in(m, n, 0) == NULL)
		return -1;
	for (i = 0; i < (int)n->nin; i++) {
		if ((t = in(m, n, (size_t)i)) == NULL)
			return -1;
		if (i == 0) {
			r = t->rank;
			memcpy(d, t->dims, sizeof(d));
		} else if (shape_broadcast(d, r, t->dims, t->rank, d, &r) < 0) {
			struct tensor tmp = *t;

			tmp.rank = r;
			memcpy(tmp.dims, d, sizeof(d));
			pf_err(m->file, "node %s: %s operands do not broadcast: "
			    "%s and %s", n->name, n->op,
			    shape_str(&tmp, sa, sizeof(sa)),
			    shape_str(t, sb, sizeof(sb)));
			return -1;
		}
	}
	dt = node_in(m, n, 0)->dtype;
	if (strcmp(n->op, "Where") == 0)
		dt = node_in(m, n, 1)->dtype;
	else if (strcmp(n->op, "Equal") == 0 || strcmp(n->op, "Less") == 0 ||
	    strcmp(n->op, "Greater") == 0 || strcmp(n->op, "And") == 0 ||
	    strcmp(n->op, "Or") == 0 || strcmp(n->op, "Xor") == 0 ||
	    strcmp(n->op, "LessOrEqual") == 0 ||
	    strcmp(n->op, "GreaterOrEqual") == 0)
		dt = DT_BOOL;
	shape_setout(m, n, 0, dt, r, d);
	return 0;
}

static int
conv(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0), *w = in(m, n, 1);
	int transposed = strcmp(n->op, "ConvTranspose") == 0;
	int64_t g = attr_int(n, "group", 1), d[R], cin, cout;
	struct window win;
	int i;

	if (x == NULL || w == NULL)
		return -1;
	if (w->rank != x->rank || x->rank < 3) {
		pf_err(m->file, "node %s: %s input %s and weight %s ranks "
		    "differ", n->name, n->op, shape_str(x, sa, sizeof(sa)),
		    shape_str(w, sb, sizeof(sb)));
		return -1;
	}
	if (g < 1) {
		pf_err(m->file, "node %s: group '%lld' is not positive",
		    n->name, (long long)g);
		return -1;
	}
	/* Conv weight: M x C/g x k; ConvTranspose: C x M/g x k. */
	if (transposed) {
		cin = w->dims[0];
		if (ck_mul(w->dims[1], g, &cout) < 0)
			return -1;
	} else {
		cout = w->dims[0];
		if (ck_mul(w->dims[1], g, &cin) < 0)
			return -1;
	}
	if (x->dims[1] != cin) {
		pf_err(m->file, "node %s: %s input has %lld channels, weight "
		    "expects %lld", n->name, n->op, (long long)x->dims[1],
		    (long long)cin);
		return -1;
	}
	if (cout % g != 0 || cin % g != 0) {
		pf_err(m->file, "node %s: group %lld does not divide the "
		    "channels %lld -> %lld", n->name, (long long)g,
		    (long long)cin, (long long)cout);
		return -1;
	}
	if (window_geom(m, n, x, w->dims + 2, &win) < 0)
		return -1;
	d[0] = x->dims[0];
	d[1] = cout;
	for (i = 0; i < win.nsp; i++)
		d[2 + i] = win.out[i];
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	return 0;
}

static int
pool(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	struct window win;
	int64_t d[R];
	int i;

	if (x == NULL || window_geom(m, n, x, NULL, &win) < 0)
		return -1;
	d[0] = x->dims[0];
	d[1] = x->dims[1];
	for (i = 0; i < win.nsp; i++)
		d[2 + i] = win.out[i];
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	shape_setout(m, n, 1, DT_INT64, x->rank, d);
	return 0;
}

static int
gpool(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t d[R];
	int i;

	if (x == NULL)
		return -1;
	if (x->rank < 3) {
		pf_err(m->file, "node %s: %s input has rank %d, want 3 or "
		    "more", n->name, n->op, x->rank);
		return -1;
	}
	for (i = 0; i < x->rank; i++)
		d[i] = i < 2 ? x->dims[i] : 1;
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	return 0;
}

static int
gemm(struct model *m, const struct node *n)
{
	const struct tensor *a = in(m, n, 0), *b = in(m, n, 1);
	int ta = (int)attr_int(n, "transA", 0), tb = (int)attr_int(n,
	    "transB", 0);
	int64_t d[2], k, kb;

	if (a == NULL || b == NULL)
		return -1;
	if (a->rank != 2 || b->rank != 2) {
		pf_err(m->file, "node %s: Gemm operands %s and %s are not "
		    "matrices", n->name, shape_str(a, sa, sizeof(sa)),
		    shape_str(b, sb, sizeof(sb)));
		return -1;
	}
	d[0] = a->dims[ta ? 1 : 0];
	k = a->dims[ta ? 0 : 1];
	kb = b->dims[tb ? 1 : 0];
	d[1] = b->dims[tb ? 0 : 1];
	if (k != kb) {
		pf_err(m->file, "node %s: Gemm input has %lld features, "
		    "weight expects %lld", n->name, (long long)k,
		    (long long)kb);
		return -1;
	}
	shape_setout(m, n, 0, a->dtype, 2, d);
	return 0;
}

static int
matmul(struct model *m, const struct node *n)
{
	const struct tensor *a = in(m, n, 0), *b = in(m, n, 1);
	int64_t da[R], db[R], d[R];
	int ra, rb, r, i;

	if (a == NULL || b == NULL)
		return -1;
	if (a->rank < 1 || b->rank < 1) {
		pf_err(m->file, "node %s: MatMul of a scalar", n->name);
		return -1;
	}
	ra = a->rank;
	rb = b->rank;
	memcpy(da, a->dims, sizeof(da));
	memcpy(db, b->dims, sizeof(db));
	if (ra == 1) {
		da[1] = da[0];
		da[0] = 1;
		ra = 2;
	}
	if (rb == 1) {
		db[1] = 1;
		rb = 2;
	}
	if (da[ra - 1] != db[rb - 2]) {
		if (b->isconst)
			pf_err(m->file, "node %s: MatMul input has %lld "
			    "features, weight expects %lld", n->name,
			    (long long)da[ra - 1], (long long)db[rb - 2]);
		else
			pf_err(m->file, "node %s: MatMul operands %s and %s "
			    "do not match", n->name,
			    shape_str(a, sa, sizeof(sa)),
			    shape_str(b, sb, sizeof(sb)));
		return -1;
	}
	if (shape_broadcast(da, ra - 2, db, rb - 2, d, &r) < 0) {
		pf_err(m->file, "node %s: MatMul batch dims of %s and %s do "
		    "not broadcast", n->name, shape_str(a, sa, sizeof(sa)),
		    shape_str(b, sb, sizeof(sb)));
		return -1;
	}
	if (a->rank > 1)
		d[r++] = da[ra - 2];
	if (b->rank > 1)
		d[r++] = db[rb - 1];
	(void)i;
	shape_setout(m, n, 0, a->dtype, r, d);
	return 0;
}

static int
reduce(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t ax[R], d[R];
	int na, present, i, j, r = 0, mark[R] = { 0 };
	int keep = (int)attr_int(n, "keepdims", 1);
	int32_t dt;

	if (x == NULL)
		return -1;
	dt = x->dtype;
	if (strcmp(n->op, "ArgMax") == 0 || strcmp(n->op, "ArgMin") == 0) {
		ax[0] = attr_int(n, "axis", 0);
		na = 1;
		dt = DT_INT64;
	} else if (node_ints(m, n, "axes", 1, ax, R, &na, &present) < 0)
		return -1;
	if (na == 0 && attr_int(n, "noop_with_empty_axes", 0)) {
		shape_setout(m, n, 0, dt, x->rank, x->dims);
		return 0;
	}
	for (i = 0; i < na; i++) {
		if (shape_axis(m, n, ax[i], x->rank, &j) < 0)
			return -1;
		mark[j] = 1;
	}
	for (i = 0; i < x->rank; i++) {
		if (!mark[i] && na > 0)
			d[r++] = x->dims[i];
		else if (keep)
			d[r++] = 1;
	}
	shape_setout(m, n, 0, dt, r, d);
	return 0;
}

static int
concat(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0), *t;
	int64_t d[R];
	size_t i;
	int ax, j;

	if (x == NULL || shape_axis(m, n, attr_int(n, "axis", 0), x->rank,
	    &ax) < 0)
		return -1;
	memcpy(d, x->dims, sizeof(d));
	for (i = 1; i < n->nin; i++) {
		if ((t = in(m, n, i)) == NULL)
			return -1;
		for (j = 0; j < x->rank && t->rank == x->rank; j++)
			if (j != ax && t->dims[j] != x->dims[j])
				break;
		if (t->rank != x->rank || j < x->rank) {
			pf_err(m->file, "node %s: Concat inputs %s and %s "
			    "differ outside axis %d", n->name,
			    shape_str(x, sa, sizeof(sa)),
			    shape_str(t, sb, sizeof(sb)), ax);
			return -1;
		}
		if (ck_add(d[ax], t->dims[ax], &d[ax]) < 0)
			return -1;
	}
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	return 0;
}

static int
split(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t sz[64], d[R], sum = 0, each;
	int ns, present, ax, i, no = (int)n->nout;

	if (x == NULL || shape_axis(m, n, attr_int(n, "axis", 0), x->rank,
	    &ax) < 0)
		return -1;
	if (node_ints(m, n, "split", 1, sz, 64, &ns, &present) < 0)
		return -1;
	if (no < 1 || no > 64) {
		pf_err(m->file, "node %s: Split has %d outputs, want 1 to 64",
		    n->name, no);
		return -1;
	}
	if (ns == 0) {
		each = ceil_div(x->dims[ax], no);
		for (i = 0; i < no; i++) {
			sz[i] = x->dims[ax] - each * i < each ?
			    x->dims[ax] - each * i : each;
		}
		ns = no;
	}
	for (i = 0; i < ns; i++)
		sum += sz[i] < 0 ? -1 : sz[i];
	if (ns != no || sum != x->dims[ax]) {
		pf_err(m->file, "node %s: Split of %lld into %d outputs does "
		    "not add up", n->name, (long long)x->dims[ax], no);
		return -1;
	}
	memcpy(d, x->dims, sizeof(d));
	for (i = 0; i < ns; i++) {
		d[ax] = sz[i];
		shape_setout(m, n, (size_t)i, x->dtype, x->rank, d);
	}
	return 0;
}

/* Clamp one Slice axis the ONNX way: *len elements from *start by step. */
static void
slice_axis(int64_t dim, int64_t s, int64_t e, int64_t step, int64_t *start,
    int64_t *len)
{
	if (s < 0)
		s = s < -dim ? -1 : s + dim;
	if (e < 0)
		e = e < -dim ? -1 : e + dim;
	if (step > 0) {
		s = s < 0 ? 0 : s > dim ? dim : s;
		e = e < 0 ? 0 : e > dim ? dim : e;
		*len = e > s ? ceil_div(e - s, step) : 0;
	} else {
		s = s < 0 ? -1 : s > dim - 1 ? dim - 1 : s;
		e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
		*len = s > e ? ceil_div(s - e, -step) : 0;
	}
	*start = s;
}

int
shape_slice(const struct model *m, const struct node *n, int64_t *start,
    int64_t *step, int64_t *len)
{
	const struct tensor *x = node_in(m, n, 0);
	int64_t st[R], en[R], ax[R], sp[R];
	int ns, ne, na, nsp, p, i, a;

	if (node_ints(m, n, "starts", 1, st, R, &ns, &p) < 0 ||
	    node_ints(m, n, "ends", 2, en, R, &ne, &p) < 0 ||
	    node_ints(m, n, "axes", 3, ax, R, &na, &p) < 0 ||
	    node_ints(m, n, "steps", 4, sp, R, &nsp, &p) < 0)
		return -1;
	if (ns != ne || (na && na != ns) || (nsp && nsp != ns)) {
		pf_err(m->file, "node %s: Slice starts, ends, axes and steps "
		    "differ in length", n->name);
		return -1;
	}
	for (i = 0; i < x->rank; i++) {
		start[i] = 0;
		step[i] = 1;
		len[i] = x->dims[i];
	}
	for (i = 0; i < ns; i++) {
		if (shape_axis(m, n, na ? ax[i] : i, x->rank, &a) < 0)
			return -1;
		step[a] = nsp ? sp[i] : 1;
		if (step[a] == 0 || step[a] == INT64_MIN) {
			pf_err(m->file, "node %s: Slice step '%lld' is invalid",
			    n->name, (long long)step[a]);
			return -1;
		}
		slice_axis(x->dims[a], st[i], en[i], step[a], &start[a],
		    &len[a]);
	}
	return 0;
}

static int
slice(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t start[R], step[R], len[R];

	if (x == NULL || shape_slice(m, n, start, step, len) < 0)
		return -1;
	shape_setout(m, n, 0, x->dtype, x->rank, len);
	return 0;
}

static int
gather(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0), *ix = in(m, n, 1);
	int64_t d[R];
	int ax, r = 0, i;

	if (x == NULL || ix == NULL)
		return -1;
	if (strcmp(n->op, "GatherElements") == 0) {
		shape_setout(m, n, 0, x->dtype, ix->rank, ix->dims);
		return 0;
	}
	if (shape_axis(m, n, attr_int(n, "axis", 0), x->rank, &ax) < 0)
		return -1;
	if (x->rank - 1 + ix->rank > R) {
		pf_err(m->file, "node %s: Gather result rank is above %d",
		    n->name, R);
		return -1;
	}
	for (i = 0; i < ax; i++)
		d[r++] = x->dims[i];
	for (i = 0; i < ix->rank; i++)
		d[r++] = ix->dims[i];
	for (i = ax + 1; i < x->rank; i++)
		d[r++] = x->dims[i];
	shape_setout(m, n, 0, x->dtype, r, d);
	return 0;
}

static int
reshape(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t s[R], tot, rest = 1;
	int ns, p, i, neg = -1;
	int allowzero = (int)attr_int(n, "allowzero", 0);

	if (x == NULL || node_ints(m, n, "shape", 1, s, R, &ns, &p) < 0)
		return -1;
	if (!p) {
		pf_err(m->file, "node %s: Reshape has no shape", n->name);
		return -1;
	}
	tot = tensor_numel(x);
	for (i = 0; i < ns; i++) {
		if (s[i] == 0 && !allowzero) {
			if (i >= x->rank)
				goto bad;
			s[i] = x->dims[i];
		}
		if (s[i] == -1) {
			if (neg >= 0)
				goto bad;
			neg = i;
			continue;
		}
		if (s[i] < 0 || ck_mul(rest, s[i], &rest) < 0)
			goto bad;
	}
	if (neg >= 0) {
		if (rest == 0 || tot % rest != 0)
			goto bad;
		s[neg] = tot / rest;
	} else if (rest != tot)
		goto bad;
	shape_setout(m, n, 0, x->dtype, ns, s);
	return 0;
bad:
	{
		size_t off = 0;

		sb[0] = '\0';
		for (i = 0; i < ns && off < sizeof(sb); i++)
			off += (size_t)snprintf(sb + off, sizeof(sb) - off,
			    "%s%lld", i ? "x" : "", (long long)s[i]);
	}
	pf_err(m->file, "node %s: cannot reshape %s (%lld elements) to %s",
	    n->name, shape_str(x, sa, sizeof(sa)), (long long)tot, sb);
	return -1;
}

static int
flatten(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t d[2];
	int64_t a = attr_int(n, "axis", 1);
	int ax;

	if (x == NULL)
		return -1;
	if (a == x->rank)
		ax = x->rank;
	else if (shape_axis(m, n, a, x->rank, &ax) < 0)
		return -1;
	if (ck_prod(x->dims, ax, &d[0]) < 0 ||
	    ck_prod(x->dims + ax, x->rank - ax, &d[1]) < 0)
		return -1;
	shape_setout(m, n, 0, x->dtype, 2, d);
	return 0;
}

static int
transpose(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	const int64_t *p;
	size_t np;
	int64_t d[R];
	int i, seen[R] = { 0 };

	if (x == NULL)
		return -1;
	if (attr_ints(n, "perm", &p, &np) < 0 || np == 0) {
		for (i = 0; i < x->rank; i++)
			d[i] = x->dims[x->rank - 1 - i];
	} else {
		if ((int)np != x->rank)
			goto bad;
		for (i = 0; i < x->rank; i++) {
			if (p[i] < 0 || p[i] >= x->rank || seen[p[i]]++)
				goto bad;
			d[i] = x->dims[p[i]];
		}
	}
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	return 0;
bad:
	pf_err(m->file, "node %s: perm is not a permutation of %d axes",
	    n->name, x->rank);
	return -1;
}

static int
squeeze(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t ax[R], d[R];
	int na, p, i, j, r = 0, mark[R] = { 0 };
	int unsq = strcmp(n->op, "Unsqueeze") == 0;

	if (x == NULL || node_ints(m, n, "axes", 1, ax, R, &na, &p) < 0)
		return -1;
	if (unsq) {
		r = x->rank + na;
		if (r > R) {
			pf_err(m->file, "node %s: rank above %d", n->name, R);
			return -1;
		}
		for (i = 0; i < na; i++) {
			if (shape_axis(m, n, ax[i], r, &j) < 0)
				return -1;
			if (mark[j]++) {
				pf_err(m->file, "node %s: axis %d repeated",
				    n->name, j);
				return -1;
			}
		}
		for (i = 0, j = 0; i < r; i++)
			d[i] = mark[i] ? 1 : x->dims[j++];
		shape_setout(m, n, 0, x->dtype, r, d);
		return 0;
	}
	for (i = 0; i < na; i++) {
		if (shape_axis(m, n, ax[i], x->rank, &j) < 0)
			return -1;
		if (x->dims[j] != 1) {
			pf_err(m->file, "node %s: cannot squeeze axis %d of %s",
			    n->name, j, shape_str(x, sa, sizeof(sa)));
			return -1;
		}
		mark[j] = 1;
	}
	for (i = 0; i < x->rank; i++)
		if (!(na ? mark[i] : x->dims[i] == 1))
			d[r++] = x->dims[i];
	shape_setout(m, n, 0, x->dtype, r, d);
	return 0;
}

static int
shapeop(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t d, s, e;

	if (x == NULL)
		return -1;
	if (strcmp(n->op, "Size") == 0) {
		shape_setout(m, n, 0, DT_INT64, 0, NULL);
		return 0;
	}
	s = attr_int(n, "start", 0);
	e = attr_int(n, "end", x->rank);
	s = s < 0 ? s + x->rank : s;
	e = e < 0 ? e + x->rank : e;
	s = s < 0 ? 0 : s > x->rank ? x->rank : s;
	e = e < 0 ? 0 : e > x->rank ? x->rank : e;
	d = e > s ? e - s : 0;
	shape_setout(m, n, 0, DT_INT64, 1, &d);
	return 0;
}

static int
constant(struct model *m, const struct node *n)
{
	const Onnx__AttributeProto *a;
	struct tensor *t = node_out(m, n, 0);
	size_t i;

	if (t == NULL)
		return 0;
	if ((a = node_attr(n, "value")) != NULL && a->t != NULL) {
		char where[80];

		snprintf(where, sizeof(where), "node %.60s", n->name);
		return tensor_from_proto(t, a->t, m->file, where);
	}
	if ((a = node_attr(n, "value_float")) != NULL ||
	    (a = node_attr(n, "value_int")) != NULL) {
		t->dtype = a->has_i ? DT_INT64 : DT_FLOAT;
		t->rank = 0;
		t->known = 1;
		tensor_setval(t, 1);
		if (t->iv != NULL)
			t->iv[0] = a->i;
		else
			t->fv[0] = a->f;
		return 0;
	}
	if ((a = node_attr(n, "value_floats")) != NULL ||
	    (a = node_attr(n, "value_ints")) != NULL) {
		int isint = strcmp(a->name, "value_ints") == 0;
		int64_t cnt = isint ? (int64_t)a->n_ints : (int64_t)a->n_floats;

		t->dtype = isint ? DT_INT64 : DT_FLOAT;
		t->rank = 1;
		t->dims[0] = cnt;
		t->known = 1;
		tensor_setval(t, cnt);
		for (i = 0; i < (size_t)cnt; i++) {
			if (isint)
				t->iv[i] = a->ints[i];
			else
				t->fv[i] = a->floats[i];
		}
		return 0;
	}
	pf_err(m->file, "node %s: Constant has no value", n->name);
	return -1;
}

static int
cofshape(struct model *m, const struct node *n)
{
	const Onnx__AttributeProto *a = node_attr(n, "value");
	int64_t d[R];
	int nd, p, i;

	if (in(m, n, 0) == NULL ||
	    node_ints(m, n, NULL, 0, d, R, &nd, &p) < 0)
		return -1;
	for (i = 0; i < nd; i++)
		if (d[i] < 0) {
			pf_err(m->file, "node %s: negative dim '%lld'",
			    n->name, (long long)d[i]);
			return -1;
		}
	shape_setout(m, n, 0, a != NULL && a->t != NULL &&
	    a->t->has_data_type ? a->t->data_type : DT_FLOAT, nd, d);
	return 0;
}

static int
expand(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t s[R], d[R];
	int ns, p, r;

	if (x == NULL || node_ints(m, n, NULL, 1, s, R, &ns, &p) < 0)
		return -1;
	if (strcmp(n->op, "Tile") == 0) {
		if (ns != x->rank)
			goto bad;
		for (r = 0; r < ns; r++)
			if (s[r] < 0 || ck_mul(x->dims[r], s[r], &d[r]) < 0)
				goto bad;
		shape_setout(m, n, 0, x->dtype, ns, d);
		return 0;
	}
	if (shape_broadcast(x->dims, x->rank, s, ns, d, &r) < 0)
		goto bad;
	shape_setout(m, n, 0, x->dtype, r, d);
	return 0;
bad:
	pf_err(m->file, "node %s: cannot %s %s to the given shape", n->name,
	    n->op, shape_str(x, sa, sizeof(sa)));
	return -1;
}

static int
range(struct model *m, const struct node *n)
{
	const struct tensor *s = in(m, n, 0), *l = in(m, n, 1), *dl = in(m,
	    n, 2);
	double a, b, c, len;
	int64_t d;

	if (s == NULL || l == NULL || dl == NULL)
		return -1;
	if (!s->hasval || !l->hasval || !dl->hasval || s->nval < 1 ||
	    l->nval < 1 || dl->nval < 1) {
		pf_err(m->file, "node %s: Range needs constant start, limit "
		    "and delta", n->name);
		return -1;
	}
	a = tensor_fval(s, 0);
	b = tensor_fval(l, 0);
	c = tensor_fval(dl, 0);
	len = c != 0 ? ceil((b - a) / c) : -1;
	if (c == 0 || !(len < 1e15)) {
		pf_err(m->file, "node %s: Range length is invalid", n->name);
		return -1;
	}
	d = len > 0 ? (int64_t)len : 0;
	shape_setout(m, n, 0, s->dtype, 1, &d);
	return 0;
}

static int
pad(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t p[2 * R], ax[R], d[R];
	int np, na, pr, i, j;

	if (x == NULL || node_ints(m, n, "pads", 1, p, 2 * R, &np, &pr) < 0 ||
	    node_ints(m, n, NULL, 3, ax, R, &na, &pr) < 0)
		return -1;
	if (np == 0 && node_ints(m, n, "paddings", -1, p, 2 * R, &np,
	    &pr) < 0)
		return -1;
	if (!na)
		for (na = 0; na < x->rank; na++)
			ax[na] = na;
	if (np != 2 * na) {
		pf_err(m->file, "node %s: Pad has %d pads for %d axes",
		    n->name, np, na);
		return -1;
	}
	memcpy(d, x->dims, sizeof(d));
	for (i = 0; i < na; i++) {
		if (shape_axis(m, n, ax[i], x->rank, &j) < 0)
			return -1;
		if (ck_add(d[j], p[i], &d[j]) < 0 ||
		    ck_add(d[j], p[na + i], &d[j]) < 0)
			return -1;
	}
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	return 0;
}

static int
resize(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0), *sc = NULL, *sz = NULL;
	const float *af;
	size_t naf;
	int64_t d[R];
	int i;

	if (x == NULL)
		return -1;
	if (strcmp(n->op, "Upsample") == 0 || m->opset < 11)
		sc = node_in(m, n, 1);
	else {
		sc = node_in(m, n, 2);
		sz = node_in(m, n, 3);
	}
	memcpy(d, x->dims, sizeof(d));
	if (sz != NULL && sz->nval > 0 && sz->hasval) {
		if (sz->nval != x->rank)
			goto bad;
		for (i = 0; i < x->rank; i++)
			d[i] = tensor_ival(sz, i);
	} else if (sc != NULL && sc->hasval && sc->nval > 0) {
		if (sc->nval != x->rank)
			goto bad;
		for (i = 0; i < x->rank; i++) {
			double v = floor((double)x->dims[i] *
			    tensor_fval(sc, i));

			if (!(v >= 0 && v < 9e18))
				goto bad;
			d[i] = (int64_t)v;
		}
	} else if (sc == NULL && attr_floats(n, "scales", &af, &naf) == 0) {
		if ((int)naf != x->rank)
			goto bad;
		for (i = 0; i < x->rank; i++) {
			double v = floor((double)x->dims[i] * af[i]);

			if (!(v >= 0 && v < 9e18))
				goto bad;
			d[i] = (int64_t)v;
		}
	} else {
		pf_err(m->file, "node %s: %s needs constant scales or sizes",
		    n->name, n->op);
		return -1;
	}
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	return 0;
bad:
	pf_err(m->file, "node %s: %s scales or sizes do not fit %s", n->name,
	    n->op, shape_str(x, sa, sizeof(sa)));
	return -1;
}

static int
space(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t b = attr_int(n, "blocksize", 0), bb, d[4];

	if (x == NULL)
		return -1;
	if (x->rank != 4 || b < 1 || ck_mul(b, b, &bb) < 0)
		goto bad;
	d[0] = x->dims[0];
	if (strcmp(n->op, "DepthToSpace") == 0) {
		if (x->dims[1] % bb != 0)
			goto bad;
		d[1] = x->dims[1] / bb;
		if (ck_mul(x->dims[2], b, &d[2]) < 0 ||
		    ck_mul(x->dims[3], b, &d[3]) < 0)
			goto bad;
	} else {
		if (x->dims[2] % b != 0 || x->dims[3] % b != 0 ||
		    ck_mul(x->dims[1], bb, &d[1]) < 0)
			goto bad;
		d[2] = x->dims[2] / b;
		d[3] = x->dims[3] / b;
	}
	shape_setout(m, n, 0, x->dtype, 4, d);
	return 0;
bad:
	pf_err(m->file, "node %s: %s blocksize %lld does not fit %s", n->name,
	    n->op, (long long)b, shape_str(x, sa, sizeof(sa)));
	return -1;
}

static int
topk(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t k[1], d[R];
	int nk, p, ax;

	if (x == NULL || node_ints(m, n, NULL, 1, k, 1, &nk, &p) < 0 ||
	    shape_axis(m, n, attr_int(n, "axis", -1), x->rank, &ax) < 0)
		return -1;
	if (nk == 0)
		k[0] = attr_int(n, "k", 1);
	memcpy(d, x->dims, sizeof(d));
	if (k[0] < 1 || k[0] > d[ax]) {
		pf_err(m->file, "node %s: TopK k '%lld' is out of range",
		    n->name, (long long)k[0]);
		return -1;
	}
	d[ax] = k[0];
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	shape_setout(m, n, 1, DT_INT64, x->rank, d);
	return 0;
}

static const struct rule {
	const char	*op;
	rulefn		 fn;
} rules[] = {
	{ "Abs", unary }, { "Acos", unary }, { "Add", bcast },
	{ "And", bcast }, { "ArgMax", reduce }, { "ArgMin", reduce },
	{ "Asin", unary }, { "Atan", unary }, { "AveragePool", pool },
	{ "BatchNormalization", unary }, { "Cast", unary },
	{ "Ceil", unary }, { "Celu", unary }, { "Clip", unary },
	{ "Concat", concat }, { "Constant", constant },
	{ "ConstantOfShape", cofshape }, { "Conv", conv },
	{ "ConvTranspose", conv }, { "Cos", unary }, { "CumSum", unary },
	{ "DepthToSpace", space }, { "Div", bcast }, { "Dropout", unary },
	{ "Elu", unary }, { "Equal", bcast }, { "Erf", unary },
	{ "Exp", unary }, { "Expand", expand }, { "Flatten", flatten },
	{ "Floor", unary }, { "Gather", gather },
	{ "GatherElements", gather }, { "Gelu", unary }, { "Gemm", gemm },
	{ "GlobalAveragePool", gpool }, { "GlobalLpPool", gpool },
	{ "GlobalMaxPool", gpool }, { "Greater", bcast },
	{ "GreaterOrEqual", bcast }, { "GroupNormalization", unary },
	{ "HardSigmoid", unary }, { "HardSwish", unary },
	{ "Hardmax", unary }, { "Identity", unary },
	{ "InstanceNormalization", unary }, { "IsInf", unary },
	{ "IsNaN", unary }, { "LRN", unary },
	{ "LayerNormalization", unary }, { "LeakyRelu", unary },
	{ "Less", bcast }, { "LessOrEqual", bcast }, { "Log", unary },
	{ "LogSoftmax", unary }, { "LpNormalization", unary },
	{ "LpPool", pool }, { "MatMul", matmul }, { "Max", bcast },
	{ "MaxPool", pool }, { "Mean", bcast },
	{ "MeanVarianceNormalization", unary }, { "Min", bcast },
	{ "Mish", unary }, { "Mod", bcast }, { "Mul", bcast },
	{ "Neg", unary }, { "Not", unary }, { "Or", bcast },
	{ "PRelu", unary }, { "Pad", pad }, { "Pow", bcast },
	{ "Range", range }, { "Reciprocal", unary },
	{ "ReduceL1", reduce }, { "ReduceL2", reduce },
	{ "ReduceLogSum", reduce }, { "ReduceLogSumExp", reduce },
	{ "ReduceMax", reduce }, { "ReduceMean", reduce },
	{ "ReduceMin", reduce }, { "ReduceProd", reduce },
	{ "ReduceSum", reduce }, { "ReduceSumSquare", reduce },
	{ "Relu", unary }, { "Reshape", reshape }, { "Resize", resize },
	{ "Round", unary }, { "Selu", unary }, { "Shape", shapeop },
	{ "Shrink", unary }, { "Sigmoid", unary }, { "Sign", unary },
	{ "Sin", unary }, { "Size", shapeop }, { "Slice", slice },
	{ "Softmax", unary }, { "Softplus", unary }, { "Softsign", unary },
	{ "SpaceToDepth", space }, { "Split", split }, { "Sqrt", unary },
	{ "Squeeze", squeeze }, { "Sub", bcast }, { "Sum", bcast },
	{ "Tan", unary }, { "Tanh", unary }, { "ThresholdedRelu", unary },
	{ "Tile", expand }, { "TopK", topk }, { "Transpose", transpose },
	{ "Trilu", unary }, { "Unsqueeze", squeeze }, { "Upsample", resize },
	{ "Where", bcast }, { "Xor", bcast },
};

int
shape_rule(struct model *m, const struct node *n, int *found)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (strcmp(n->op, rules[i].op) == 0) {
			*found = 1;
			return rules[i].fn(m, n);
		}
	*found = 0;
	return 0;
}

int
shape_has_rule(const char *op)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (strcmp(op, rules[i].op) == 0)
			return 1;
	return 0;
}
