/*
 * Shape rules of the data-movement and shape ops (see onnx_shape_tensor.h),
 * for opsets 9 to 18: arguments that moved from attributes to inputs
 * (Split, Squeeze, Unsqueeze, Pad, Resize/Upsample, Slice) are read from
 * the input when present and from the attribute otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "onnx_shape.h"
#include "onnx_shape_tensor.h"

#define R ONNX_MAXRANK

int
shape_tensor_concat(struct model *m, const struct node *n)
{
	char sa[128], sb[128];
	const struct tensor *x = shape_need(m, n, 0), *t;
	int64_t d[R];
	size_t i;
	int ax, j;

	if (x == NULL || shape_axis(m, n, attr_int(n, "axis", 0), x->rank,
	    &ax) < 0)
		return -1;
	memcpy(d, x->dims, sizeof(d));
	for (i = 1; i < n->nin; i++) {
		if ((t = shape_need(m, n, i)) == NULL)
			return -1;
		for (j = 0; j < x->rank && t->rank == x->rank; j++)
			if (j != ax && t->dims[j] != x->dims[j])
				break;
		if (t->rank != x->rank || j < x->rank) {
			pf_err(m->file, "node %s: Concat inputs %s and %s "
			    "differ outside axis %d", n->name,
			    tensor_shape_str(x, sa, sizeof(sa)),
			    tensor_shape_str(t, sb, sizeof(sb)), ax);
			return -1;
		}
		if (ck_add(d[ax], t->dims[ax], &d[ax]) < 0)
			return -1;
	}
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	return 0;
}

int
shape_tensor_split(struct model *m, const struct node *n)
{
	const struct tensor *x = shape_need(m, n, 0);
	int64_t sz[64], d[R], sum = 0, each;
	int ns, present, ax, i, no = (int)n->nout;

	if (x == NULL || shape_axis(m, n, attr_int(n, "axis", 0), x->rank,
	    &ax) < 0)
		return -1;
	if (shape_node_ints(m, n, "split", 1, sz, 64, &ns, &present) < 0)
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
		if (sz[i] < 0 || ck_add(sum, sz[i], &sum) < 0) {
			sum = -1;
			break;
		}
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
shape_tensor_slice_range(const struct model *m, const struct node *n, int64_t *start,
    int64_t *step, int64_t *len)
{
	const struct tensor *x = node_in(m, n, 0);
	int64_t st[R], en[R], ax[R], sp[R];
	int ns, ne, na, nsp, p, i, a;

	if (shape_node_ints(m, n, "starts", 1, st, R, &ns, &p) < 0 ||
	    shape_node_ints(m, n, "ends", 2, en, R, &ne, &p) < 0 ||
	    shape_node_ints(m, n, "axes", 3, ax, R, &na, &p) < 0 ||
	    shape_node_ints(m, n, "steps", 4, sp, R, &nsp, &p) < 0)
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

int
shape_tensor_slice(struct model *m, const struct node *n)
{
	const struct tensor *x = shape_need(m, n, 0);
	int64_t start[R], step[R], len[R];

	if (x == NULL || shape_tensor_slice_range(m, n, start, step, len) < 0)
		return -1;
	shape_setout(m, n, 0, x->dtype, x->rank, len);
	return 0;
}

int
shape_tensor_gather(struct model *m, const struct node *n)
{
	const struct tensor *x = shape_need(m, n, 0), *ix = shape_need(m, n, 1);
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

int
shape_tensor_reshape(struct model *m, const struct node *n)
{
	char sa[128], sb[128];
	const struct tensor *x = shape_need(m, n, 0);
	int64_t s[R], tot, rest = 1;
	int ns, p, i, neg = -1;
	int allowzero = (int)attr_int(n, "allowzero", 0);

	if (x == NULL || shape_node_ints(m, n, "shape", 1, s, R, &ns, &p) < 0)
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
	    n->name, tensor_shape_str(x, sa, sizeof(sa)), (long long)tot, sb);
	return -1;
}

int
shape_tensor_flatten(struct model *m, const struct node *n)
{
	const struct tensor *x = shape_need(m, n, 0);
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

int
shape_tensor_transpose(struct model *m, const struct node *n)
{
	const struct tensor *x = shape_need(m, n, 0);
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

int
shape_tensor_squeeze(struct model *m, const struct node *n)
{
	char sa[128];
	const struct tensor *x = shape_need(m, n, 0);
	int64_t ax[R], d[R];
	int na, p, i, j, r = 0, mark[R] = { 0 };
	int unsq = strcmp(n->op, "Unsqueeze") == 0;

	if (x == NULL || shape_node_ints(m, n, "axes", 1, ax, R, &na, &p) < 0)
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
			    n->name, j, tensor_shape_str(x, sa, sizeof(sa)));
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

int
shape_tensor_shapeop(struct model *m, const struct node *n)
{
	const struct tensor *x = shape_need(m, n, 0);
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

int
shape_tensor_constant(struct model *m, const struct node *n)
{
	struct tensor *t = node_out(m, n, 0);
	int rc;

	if (t == NULL)
		return 0;
	if ((rc = node_constant(m, n, t)) != 0)
		return rc < 0 ? -1 : 0;
	pf_err(m->file, "node %s: Constant has no value", n->name);
	return -1;
}

int
shape_tensor_cofshape(struct model *m, const struct node *n)
{
	struct tensor v;
	int64_t d[R];
	int32_t dt = DT_FLOAT;
	int nd, p, i, rc;

	if (shape_need(m, n, 0) == NULL ||
	    shape_node_ints(m, n, NULL, 0, d, R, &nd, &p) < 0)
		return -1;
	for (i = 0; i < nd; i++)
		if (d[i] < 0) {
			pf_err(m->file, "node %s: negative dim '%lld'",
			    n->name, (long long)d[i]);
			return -1;
		}
	memset(&v, 0, sizeof(v));
	rc = attr_tensor(m, n, "value", &v);
	if (rc > 0 && v.dtype != DT_UNDEF)
		dt = v.dtype;
	tensor_dropval(&v);
	if (rc < 0)
		return -1;
	shape_setout(m, n, 0, dt, nd, d);
	return 0;
}

int
shape_tensor_expand(struct model *m, const struct node *n)
{
	char sa[128];
	const struct tensor *x = shape_need(m, n, 0);
	int64_t s[R], d[R];
	int ns, p, r;

	if (x == NULL || shape_node_ints(m, n, NULL, 1, s, R, &ns, &p) < 0)
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
	    n->op, tensor_shape_str(x, sa, sizeof(sa)));
	return -1;
}

int
shape_tensor_range(struct model *m, const struct node *n)
{
	const struct tensor *s = shape_need(m, n, 0);
	const struct tensor *l = shape_need(m, n, 1);
	const struct tensor *dl = shape_need(m, n, 2);
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
	if (s->iv != NULL && l->iv != NULL && dl->iv != NULL) {
		/*
		 * Integers exactly: the difference as an unsigned 64-bit
		 * number cannot overflow, where a double loses the low bits
		 * of large operands (and with them the count).
		 */
		int64_t ia = s->iv[0], ib = l->iv[0], ic = dl->iv[0];
		uint64_t diff, uc;

		if (ic == 0)
			len = -1;
		else if ((ic > 0 && ib <= ia) || (ic < 0 && ib >= ia))
			len = 0;
		else {
			diff = ic > 0 ? (uint64_t)ib - (uint64_t)ia :
			    (uint64_t)ia - (uint64_t)ib;
			uc = ic > 0 ? (uint64_t)ic : 0 - (uint64_t)ic;
			len = (double)(diff / uc + (diff % uc != 0));
		}
		c = (double)ic;
	} else if (s->dtype == DT_FLOAT || s->dtype == DT_FLOAT16) {
		/* ONNX computes the count in the input type: single precision */
		float fa = (float)tensor_fval(s, 0), fb = (float)tensor_fval(l, 0);
		float fc = (float)tensor_fval(dl, 0), q;

		c = fc;
		q = fc != 0 ? (fb - fa) / fc : -1;
		len = fc != 0 ? ceil((double)q) : -1;
	} else {
		a = tensor_fval(s, 0);
		b = tensor_fval(l, 0);
		c = tensor_fval(dl, 0);
		len = c != 0 ? ceil((b - a) / c) : -1;
	}
	if (c == 0 || !(len < 1e15)) {
		pf_err(m->file, "node %s: Range length is invalid", n->name);
		return -1;
	}
	d = len > 0 ? (int64_t)len : 0;
	shape_setout(m, n, 0, s->dtype, 1, &d);
	return 0;
}

int
shape_tensor_pad(struct model *m, const struct node *n)
{
	const struct tensor *x = shape_need(m, n, 0);
	int64_t p[2 * R], ax[R], d[R];
	int np, na, pr, i, j;

	if (x == NULL || shape_node_ints(m, n, "pads", 1, p, 2 * R, &np, &pr) < 0 ||
	    shape_node_ints(m, n, NULL, 3, ax, R, &na, &pr) < 0)
		return -1;
	if (np == 0 && shape_node_ints(m, n, "paddings", -1, p, 2 * R, &np,
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

/* Output dim of an input dim scaled by f: floor(in * f). */
static int
scaled(int64_t in, double f, int64_t *out)
{
	double v = floor((double)in * f);

	if (!(v >= 0 && v < 9e18))
		return -1;
	*out = (int64_t)v;
	return 0;
}

int
shape_tensor_resize(struct model *m, const struct node *n)
{
	char sa[128];
	const struct tensor *x = shape_need(m, n, 0), *sc = NULL, *sz = NULL;
	const float *af = NULL;
	const int64_t *ax = NULL;
	size_t naf = 0, nax = 0;
	int64_t d[R];
	int i, nv, a[R];

	if (x == NULL)
		return -1;
	if (strcmp(n->op, "Upsample") == 0 || m->opset < 11)
		sc = node_in(m, n, 1);
	else {
		sc = node_in(m, n, 2);
		sz = node_in(m, n, 3);
	}
	/* Opset 18: scales or sizes may cover only the listed axes. */
	if (attr_ints(n, "axes", &ax, &nax) < 0 || nax == 0)
		nax = 0;
	nv = nax ? (int)nax : x->rank;
	if (nv > x->rank)
		goto bad;
	for (i = 0; i < nv; i++) {
		if (!nax)
			a[i] = i;
		else if (shape_axis(m, n, ax[i], x->rank, &a[i]) < 0)
			return -1;
	}
	memcpy(d, x->dims, sizeof(d));
	if (sz != NULL && sz->nval > 0 && sz->hasval) {
		if (sz->nval != nv)
			goto bad;
		for (i = 0; i < nv; i++)
			d[a[i]] = tensor_ival(sz, i);
	} else if (sc != NULL && sc->hasval && sc->nval > 0) {
		if (sc->nval != nv)
			goto bad;
		for (i = 0; i < nv; i++)
			if (scaled(x->dims[a[i]], tensor_fval(sc, i),
			    &d[a[i]]) < 0)
				goto bad;
	} else if (sc == NULL && attr_floats(n, "scales", &af, &naf) == 0) {
		if ((int)naf != nv)
			goto bad;
		for (i = 0; i < nv; i++)
			if (scaled(x->dims[a[i]], af[i], &d[a[i]]) < 0)
				goto bad;
	} else {
		pf_err(m->file, "node %s: %s needs constant scales or sizes",
		    n->name, n->op);
		return -1;
	}
	for (i = 0; i < x->rank; i++)
		if (d[i] < 1)
			goto bad;
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	return 0;
bad:
	pf_err(m->file, "node %s: %s scales or sizes do not fit %s", n->name,
	    n->op, tensor_shape_str(x, sa, sizeof(sa)));
	return -1;
}

int
shape_tensor_space(struct model *m, const struct node *n)
{
	char sa[128];
	const struct tensor *x = shape_need(m, n, 0);
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
	    n->op, (long long)b, tensor_shape_str(x, sa, sizeof(sa)));
	return -1;
}


int
shape_tensor_scatter(struct model *m, const struct node *n)
{
	const struct tensor *x = shape_need(m, n, 0), *ix = shape_need(m, n, 1);
	const struct tensor *u = shape_need(m, n, 2);
	char sa[128], sb[128], sc[128];
	int64_t k;
	int i, r;

	if (x == NULL || ix == NULL || u == NULL)
		return -1;
	if (strcmp(n->op, "ScatterElements") == 0) {
		if (ix->rank != x->rank || u->rank != ix->rank)
			goto bad;
		for (i = 0; i < ix->rank; i++)
			if (u->dims[i] != ix->dims[i])
				goto bad;
	} else {
		/* updates: indices.shape[:-1] + data.shape[k:]. */
		if (ix->rank < 1 || (k = ix->dims[ix->rank - 1]) > x->rank ||
		    (r = ix->rank - 1 + x->rank - (int)k) != u->rank)
			goto bad;
		for (i = 0; i < u->rank; i++)
			if (u->dims[i] != (i < ix->rank - 1 ? ix->dims[i] :
			    x->dims[k + i - (ix->rank - 1)]))
				goto bad;
	}
	shape_setout(m, n, 0, x->dtype, x->rank, x->dims);
	return 0;
bad:
	pf_err(m->file, "node %s: %s indices %s and updates %s do not fit "
	    "data %s", n->name, n->op, tensor_shape_str(ix, sa, sizeof(sa)),
	    tensor_shape_str(u, sb, sizeof(sb)), tensor_shape_str(x, sc, sizeof(sc)));
	return -1;
}

/*
 * NonZero: [rank, count], the count known only from the data; taken at
 * its bound, every element (a detector's score mask: the boxes it may
 * keep).
 */
int
shape_tensor_nonzero(struct model *m, const struct node *n)
{
	const struct tensor *x = shape_need(m, n, 0);
	int64_t d[2];

	if (x == NULL)
		return -1;
	d[0] = x->rank;
	if ((d[1] = tensor_numel(x)) < 0)
		return -1;
	shape_setout(m, n, 0, DT_INT64, 2, d);
	return 0;
}

/*
 * GatherND: indices [..., k] pick slices of data past batch_dims b:
 * indices' dims but the last, then data's from b + k on.
 */
int
shape_tensor_gathernd(struct model *m, const struct node *n)
{
	const struct tensor *x = shape_need(m, n, 0), *ix = shape_need(m, n, 1);
	int64_t d[ONNX_MAXRANK], b = attr_int(n, "batch_dims", 0), k;
	int r = 0, i;

	if (x == NULL || ix == NULL)
		return -1;
	k = ix->rank >= 1 ? ix->dims[ix->rank - 1] : -1;
	if (ix->rank < 1 || b < 0 || b >= ix->rank || b >= x->rank || k < 1 ||
	    b + k > x->rank || ix->rank - 1 + x->rank - (b + k) > ONNX_MAXRANK) {
		pf_err(m->file, "node %s: GatherND indices of rank %d (last dim "
		    "%lld) do not index data of rank %d past batch_dims %lld",
		    n->name, ix->rank, (long long)k, x->rank, (long long)b);
		return -1;
	}
	for (i = 0; i < ix->rank - 1; i++)
		d[r++] = ix->dims[i];
	for (i = (int)(b + k); i < x->rank; i++)
		d[r++] = x->dims[i];
	shape_setout(m, n, 0, x->dtype, r, d);
	return 0;
}
