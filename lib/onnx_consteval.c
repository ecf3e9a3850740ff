/*
 * Constant folding over small tensors, element by element with numpy
 * broadcasting; integers in int64 with checked arithmetic, floats in
 * double.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "onnx_consteval.h"
#include "diag.h"
#include "onnx_shape.h"

#define R ONNX_MAXRANK

/* Flat index into t of output element o of shape od (rank or). */
static int64_t
bidx(const int64_t *od, int or, int64_t o, const struct tensor *t)
{
	int64_t idx = 0, mul = 1, c;
	int i, j;

	for (i = or - 1, j = t->rank - 1; i >= 0; i--, j--) {
		c = o % od[i];
		o /= od[i];
		if (j < 0)
			continue;
		if (t->dims[j] != 1)
			idx += c * mul;
		mul *= t->dims[j];
	}
	return idx;
}

/*
 * Whether t's values can be read at bidx() positions of an output shaped
 * od: t broadcasts to it and holds as many values as its dims say.  A
 * malformed model can break either; reading on would leave the buffer.
 */
static int
bcast_ok(const int64_t *od, int or, const struct tensor *t)
{
	int i, j;

	if (t == NULL)
		return 1;
	if (t->rank > or || !t->hasval || t->nval != tensor_numel(t))
		return 0;
	for (i = or - 1, j = t->rank - 1; j >= 0; i--, j--)
		if (t->dims[j] != 1 && t->dims[j] != od[i])
			return 0;
	return 1;
}

/* Store v (integer when isint, else f) as element i of t. */
static void
put(struct tensor *t, int64_t i, int isint, int64_t v, double f)
{
	if (t->iv != NULL) {
		if (!isint)
			v = f != f ? 0 : f >= 9.2e18 ? INT64_MAX :
			    f <= -9.2e18 ? INT64_MIN : (int64_t)f;
		t->iv[i] = t->dtype == DT_BOOL ? v != 0 : v;
	} else
		t->fv[i] = isint ? (double)v : f;
}

static int
overflow(const struct model *m, const struct node *n)
{
	pf_err(m->file, "node %s: integer overflow in constant %s", n->name,
	    n->op);
	return -1;
}

/* Elementwise ops of one, two or three inputs. */
static int
elementwise(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *a = node_in(m, n, 0), *b = node_in(m, n, 1);
	const char *op = n->op;
	int64_t i, x, y, r;
	int isint = a->iv != NULL && (b == NULL || b->iv != NULL);
	double f, g, h;

	if (!bcast_ok(o->dims, o->rank, a) || !bcast_ok(o->dims, o->rank, b) ||
	    (strcmp(op, "Where") == 0 &&
	    !bcast_ok(o->dims, o->rank, node_in(m, n, 2)))) {
		pf_err(m->file, "node %s: constant %s operand does not match "
		    "the output shape", n->name, op);
		return -1;
	}
	if (strcmp(op, "Where") == 0) {
		const struct tensor *c = node_in(m, n, 2);

		if (c == NULL)
			return 0;
		for (i = 0; i < o->nval; i++) {
			const struct tensor *s = tensor_ival(a, bidx(o->dims,
			    o->rank, i, a)) ? b : c;
			int64_t k = bidx(o->dims, o->rank, i, s);

			put(o, i, s->iv != NULL, s->iv ? s->iv[k] : 0,
			    s->fv ? s->fv[k] : 0);
		}
		return 0;
	}
	for (i = 0; i < o->nval; i++) {
		int64_t ka = bidx(o->dims, o->rank, i, a);
		int64_t kb = b != NULL ? bidx(o->dims, o->rank, i, b) : 0;

		x = tensor_ival(a, ka);
		f = tensor_fval(a, ka);
		y = b != NULL ? tensor_ival(b, kb) : 0;
		g = b != NULL ? tensor_fval(b, kb) : 0;
		r = 0;
		h = 0;
		if (strcmp(op, "Add") == 0 || strcmp(op, "Sum") == 0) {
			if (isint && ck_add(x, y, &r) < 0)
				return overflow(m, n);
			h = f + g;
		} else if (strcmp(op, "Sub") == 0) {
			if (isint && (y == INT64_MIN || ck_add(x, -y, &r) < 0))
				return overflow(m, n);
			h = f - g;
		} else if (strcmp(op, "Mul") == 0) {
			if (isint && ck_mul(x, y, &r) < 0)
				return overflow(m, n);
			h = f * g;
		} else if (strcmp(op, "Div") == 0 || strcmp(op, "Mod") == 0) {
			if (isint && (y == 0 || (x == INT64_MIN && y == -1))) {
				pf_err(m->file, "node %s: integer division by "
				    "zero in constant %s", n->name, op);
				return -1;
			}
			if (op[0] == 'D') {
				r = isint ? x / y : 0;
				h = f / g;
			} else {
				r = isint ? x % y : 0;
				if (isint && r != 0 && (r < 0) != (y < 0) &&
				    !attr_int(n, "fmod", 0))
					r += y;
				h = fmod(f, g);
			}
		} else if (strcmp(op, "Pow") == 0) {
			h = pow(f, g);
			isint = 0;
		} else if (strcmp(op, "Max") == 0) {
			r = x > y ? x : y;
			h = f > g ? f : g;
		} else if (strcmp(op, "Min") == 0) {
			r = x < y ? x : y;
			h = f < g ? f : g;
		} else if (strcmp(op, "Equal") == 0) {
			r = isint ? x == y : f == g;
			isint = 1;
		} else if (strcmp(op, "Less") == 0) {
			r = isint ? x < y : f < g;
			isint = 1;
		} else if (strcmp(op, "Greater") == 0) {
			r = isint ? x > y : f > g;
			isint = 1;
		} else if (strcmp(op, "LessOrEqual") == 0) {
			r = isint ? x <= y : f <= g;
			isint = 1;
		} else if (strcmp(op, "GreaterOrEqual") == 0) {
			r = isint ? x >= y : f >= g;
			isint = 1;
		} else if (strcmp(op, "And") == 0) {
			r = x && y;
		} else if (strcmp(op, "Or") == 0) {
			r = x || y;
		} else if (strcmp(op, "Not") == 0) {
			r = !x;
		} else if (strcmp(op, "Neg") == 0) {
			if (isint && x == INT64_MIN)
				return overflow(m, n);
			r = -x;
			h = -f;
		} else if (strcmp(op, "Abs") == 0) {
			if (isint && x == INT64_MIN)
				return overflow(m, n);
			r = x < 0 ? -x : x;
			h = fabs(f);
		} else if (strcmp(op, "Sign") == 0) {
			r = (x > 0) - (x < 0);
			h = (f > 0) - (f < 0);
		} else if (strcmp(op, "Floor") == 0) {
			r = x;
			h = floor(f);
		} else if (strcmp(op, "Ceil") == 0) {
			r = x;
			h = ceil(f);
		} else if (strcmp(op, "Sqrt") == 0) {
			h = sqrt(f);
			isint = 0;
		} else if (strcmp(op, "Reciprocal") == 0) {
			h = 1 / f;
			isint = 0;
		} else if (strcmp(op, "Relu") == 0) {
			r = x > 0 ? x : 0;
			h = f > 0 ? f : 0;
		} else	/* Identity, Cast, Dropout, Expand, shape-only ops */
			r = x, h = f, isint = a->iv != NULL;
		put(o, i, isint, r, h);
	}
	return 0;
}

/* Copy the input's values in order (Reshape, Squeeze, ...). */
static int
copy(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *a = node_in(m, n, 0);
	int64_t i;

	(void)m;
	(void)n;
	for (i = 0; i < o->nval && i < a->nval; i++)
		put(o, i, a->iv != NULL, a->iv ? a->iv[i] : 0,
		    a->fv ? a->fv[i] : 0);
	return 0;
}

/* Multi-index of flat index i in shape d of rank r. */
static void
unflat(const int64_t *d, int r, int64_t i, int64_t *c)
{
	int k;

	for (k = r - 1; k >= 0; k--) {
		c[k] = d[k] ? i % d[k] : 0;
		i = d[k] ? i / d[k] : 0;
	}
}

static int64_t
flat(const int64_t *d, int r, const int64_t *c)
{
	int64_t f = 0;
	int k;

	for (k = 0; k < r; k++)
		f = f * d[k] + c[k];
	return f;
}

static void
putfrom(struct tensor *o, int64_t i, const struct tensor *a, int64_t k)
{
	put(o, i, a->iv != NULL, a->iv ? a->iv[k] : 0, a->fv ? a->fv[k] : 0);
}

static int
gather(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *a = node_in(m, n, 0), *ix = node_in(m, n, 1);
	int64_t c[R], ca[R], i, k;
	int ax, j;

	if (shape_axis(m, n, attr_int(n, "axis", 0), a->rank, &ax) < 0)
		return -1;
	for (i = 0; i < o->nval; i++) {
		unflat(o->dims, o->rank, i, c);
		for (j = 0; j < ax; j++)
			ca[j] = c[j];
		k = tensor_ival(ix, flat(ix->dims, ix->rank, c + ax));
		if (k < 0)
			k += a->dims[ax];
		if (k < 0 || k >= a->dims[ax]) {
			pf_err(m->file, "node %s: Gather index '%lld' is out of "
			    "range for %lld", n->name,
			    (long long)tensor_ival(ix, flat(ix->dims, ix->rank,
			    c + ax)), (long long)a->dims[ax]);
			return -1;
		}
		ca[ax] = k;
		for (j = ax + 1; j < a->rank; j++)
			ca[j] = c[j - 1 + ix->rank];
		putfrom(o, i, a, flat(a->dims, a->rank, ca));
	}
	return 0;
}

static int
slice(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *a = node_in(m, n, 0);
	int64_t st[R], sp[R], len[R], c[R], i;
	int j;

	if (shape_slice(m, n, st, sp, len) < 0)
		return -1;
	for (i = 0; i < o->nval; i++) {
		unflat(o->dims, o->rank, i, c);
		for (j = 0; j < a->rank; j++)
			c[j] = st[j] + c[j] * sp[j];
		putfrom(o, i, a, flat(a->dims, a->rank, c));
	}
	return 0;
}

static int
concat(struct model *m, const struct node *n, struct tensor *o)
{
	int64_t c[R], i;
	size_t k;
	int ax;

	if (shape_axis(m, n, attr_int(n, "axis", 0), o->rank, &ax) < 0)
		return -1;
	for (i = 0; i < o->nval; i++) {
		unflat(o->dims, o->rank, i, c);
		for (k = 0; k < n->nin; k++) {
			const struct tensor *t = node_in(m, n, k);

			if (c[ax] < t->dims[ax]) {
				putfrom(o, i, t, flat(t->dims, t->rank, c));
				break;
			}
			c[ax] -= t->dims[ax];
		}
	}
	return 0;
}

static int
transpose(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *a = node_in(m, n, 0);
	const int64_t *p = NULL;
	size_t np = 0;
	int64_t c[R], ca[R], i;
	int j;

	(void)m;
	(void)attr_ints(n, "perm", &p, &np);
	for (i = 0; i < o->nval; i++) {
		unflat(o->dims, o->rank, i, c);
		for (j = 0; j < a->rank; j++)
			ca[np ? p[j] : a->rank - 1 - j] = c[j];
		putfrom(o, i, a, flat(a->dims, a->rank, ca));
	}
	return 0;
}

static int
reduce(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *a = node_in(m, n, 0);
	int64_t ax[R], c[R], i, k;
	int na, p, j, mark[R] = { 0 }, keep = (int)attr_int(n, "keepdims", 1);
	int sum = strcmp(n->op, "ReduceSum") == 0;
	int prod = strcmp(n->op, "ReduceProd") == 0;
	int mx = strcmp(n->op, "ReduceMax") == 0;

	if (!sum && !prod && !mx && strcmp(n->op, "ReduceMin") != 0)
		return 0;
	if (node_ints(m, n, "axes", 1, ax, R, &na, &p) < 0)
		return -1;
	for (j = 0; j < na; j++) {
		int q;

		if (shape_axis(m, n, ax[j], a->rank, &q) < 0)
			return -1;
		mark[q] = 1;
	}
	for (j = 0; j < a->rank; j++)
		if (na == 0)
			mark[j] = 1;
	for (k = 0; k < o->nval; k++)
		put(o, k, 1, sum ? 0 : prod ? 1 : mx ? INT64_MIN : INT64_MAX, 0);
	for (i = 0; i < a->nval; i++) {
		int64_t oc[R], x = tensor_ival(a, i), cur, r2;
		int r = 0;

		unflat(a->dims, a->rank, i, c);
		for (j = 0; j < a->rank; j++)
			if (!mark[j])
				oc[r++] = c[j];
			else if (keep)
				oc[r++] = 0;
		k = flat(o->dims, o->rank, oc);
		cur = tensor_ival(o, k);
		if (sum) {
			if (ck_add(cur, x, &r2) < 0)
				return overflow(m, n);
		} else if (prod) {
			if (ck_mul(cur, x, &r2) < 0)
				return overflow(m, n);
		} else
			r2 = mx ? (x > cur ? x : cur) : (x < cur ? x : cur);
		put(o, k, 1, r2, 0);
	}
	return 0;
}

int
ceval_node(struct model *m, const struct node *n)
{
	struct tensor *o = node_out(m, n, 0);
	const char *op = n->op;
	int64_t cnt, i;
	size_t k;

	if (o == NULL || !o->isconst || o->hasval)
		return 0;
	if ((cnt = tensor_numel(o)) < 0 || !onnx_keepval(o->dtype, cnt))
		return 0;
	if (strcmp(op, "Shape") == 0 || strcmp(op, "Size") == 0) {
		const struct tensor *a = node_in(m, n, 0);
		int64_t s = attr_int(n, "start", 0);

		tensor_setval(o, cnt);
		if (op[1] == 'i')
			o->iv[0] = tensor_numel(a);
		else {
			s = s < 0 ? s + a->rank : s;
			s = s < 0 ? 0 : s;
			for (i = 0; i < cnt; i++)
				o->iv[i] = a->dims[s + i];
		}
		return 0;
	}
	if (strcmp(op, "ConstantOfShape") == 0) {
		struct tensor v;
		int rc;

		memset(&v, 0, sizeof(v));
		tensor_setval(o, cnt);
		if ((rc = attr_tensor(m, n, "value", &v)) > 0)
			for (i = 0; i < cnt && v.hasval && v.nval > 0; i++)
				putfrom(o, i, &v, 0);
		tensor_dropval(&v);
		return rc < 0 ? -1 : 0;
	}
	if (strcmp(op, "Range") == 0) {
		const struct tensor *s = node_in(m, n, 0), *d = node_in(m, n, 2);

		tensor_setval(o, cnt);
		for (i = 0; i < cnt; i++)
			put(o, i, s->iv != NULL, tensor_ival(s, 0) + i *
			    tensor_ival(d, 0), tensor_fval(s, 0) + (double)i *
			    tensor_fval(d, 0));
		return 0;
	}
	for (k = 0; k < n->nin; k++) {
		const struct tensor *t = node_in(m, n, k);

		if (t != NULL && !t->hasval)
			return 0;
	}
	if (n->nin == 0 || node_in(m, n, 0) == NULL)
		return 0;
	tensor_setval(o, cnt);
	if (strcmp(op, "Reshape") == 0 || strcmp(op, "Flatten") == 0 ||
	    strcmp(op, "Squeeze") == 0 || strcmp(op, "Unsqueeze") == 0)
		return copy(m, n, o);
	if (strcmp(op, "Gather") == 0)
		return gather(m, n, o);
	if (strcmp(op, "Slice") == 0)
		return slice(m, n, o);
	if (strcmp(op, "Concat") == 0)
		return concat(m, n, o);
	if (strcmp(op, "Transpose") == 0)
		return transpose(m, n, o);
	if (strncmp(op, "Reduce", 6) == 0)
		return reduce(m, n, o);
	if (strcmp(op, "Identity") == 0 || strcmp(op, "Cast") == 0 ||
	    strcmp(op, "Dropout") == 0 || strcmp(op, "Expand") == 0 ||
	    strcmp(op, "Add") == 0 || strcmp(op, "Sub") == 0 ||
	    strcmp(op, "Mul") == 0 || strcmp(op, "Div") == 0 ||
	    strcmp(op, "Mod") == 0 || strcmp(op, "Pow") == 0 ||
	    strcmp(op, "Max") == 0 || strcmp(op, "Min") == 0 ||
	    strcmp(op, "Sum") == 0 || strcmp(op, "Equal") == 0 ||
	    strcmp(op, "Less") == 0 || strcmp(op, "Greater") == 0 ||
	    strcmp(op, "LessOrEqual") == 0 ||
	    strcmp(op, "GreaterOrEqual") == 0 || strcmp(op, "And") == 0 ||
	    strcmp(op, "Or") == 0 || strcmp(op, "Not") == 0 ||
	    strcmp(op, "Neg") == 0 || strcmp(op, "Abs") == 0 ||
	    strcmp(op, "Sign") == 0 || strcmp(op, "Floor") == 0 ||
	    strcmp(op, "Ceil") == 0 || strcmp(op, "Sqrt") == 0 ||
	    strcmp(op, "Reciprocal") == 0 || strcmp(op, "Relu") == 0 ||
	    strcmp(op, "Where") == 0)
		return elementwise(m, n, o);
	/* Not foldable: the output keeps its shape only. */
	tensor_dropval(o);
	return 0;
}
