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
		/* Cast to bool: any non-zero value is true (0.5 too). */
		if (!isint && t->dtype == DT_BOOL)
			v = f != 0;
		else if (!isint)
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

/*
 * One element of a unary or binary op: integers x, y (exact, checked) and
 * doubles f, g; *isint says which result is meant on entry (both operands
 * integer) and on return (comparisons give integers, Pow and Sqrt
 * doubles).  Returns 1 overflow, 2 integer division by zero, else 0.
 */
static int
elem(const char *op, int fmodattr, int *isint, int64_t x, int64_t y,
    double f, double g, int64_t *pr, double *ph)
{
	int64_t r = 0;
	double h = 0;
	int ii = *isint;

	if (strcmp(op, "Add") == 0 || strcmp(op, "Sum") == 0 ||
	    strcmp(op, "Mean") == 0) {
		if (ii && ck_add(x, y, &r) < 0)
			return 1;
		h = f + g;
	} else if (strcmp(op, "Sub") == 0) {
		if (ii && (y == INT64_MIN || ck_add(x, -y, &r) < 0))
			return 1;
		h = f - g;
	} else if (strcmp(op, "Mul") == 0) {
		if (ii && ck_mul(x, y, &r) < 0)
			return 1;
		h = f * g;
	} else if (strcmp(op, "Div") == 0 || strcmp(op, "Mod") == 0) {
		if (ii && (y == 0 || (x == INT64_MIN && y == -1)))
			return 2;
		if (op[0] == 'D') {
			r = ii ? x / y : 0;
			h = f / g;
		} else {
			r = ii ? x % y : 0;
			if (ii && r != 0 && (r < 0) != (y < 0) && !fmodattr)
				r += y;
			h = fmod(f, g);
		}
	} else if (strcmp(op, "Pow") == 0) {
		h = pow(f, g);
		ii = 0;
	} else if (strcmp(op, "Max") == 0) {
		r = x > y ? x : y;
		h = f > g ? f : g;
	} else if (strcmp(op, "Min") == 0) {
		r = x < y ? x : y;
		h = f < g ? f : g;
	} else if (strcmp(op, "Equal") == 0) {
		r = ii ? x == y : f == g;
		ii = 1;
	} else if (strcmp(op, "Less") == 0) {
		r = ii ? x < y : f < g;
		ii = 1;
	} else if (strcmp(op, "Greater") == 0) {
		r = ii ? x > y : f > g;
		ii = 1;
	} else if (strcmp(op, "LessOrEqual") == 0) {
		r = ii ? x <= y : f <= g;
		ii = 1;
	} else if (strcmp(op, "GreaterOrEqual") == 0) {
		r = ii ? x >= y : f >= g;
		ii = 1;
	} else if (strcmp(op, "And") == 0) {
		r = x && y;
		ii = 1;
	} else if (strcmp(op, "Or") == 0) {
		r = x || y;
		ii = 1;
	} else if (strcmp(op, "Xor") == 0) {
		r = !x != !y;
		ii = 1;
	} else if (strcmp(op, "Not") == 0) {
		r = !x;
		ii = 1;
	} else if (strcmp(op, "Neg") == 0) {
		if (ii && x == INT64_MIN)
			return 1;
		r = -x;
		h = -f;
	} else if (strcmp(op, "Abs") == 0) {
		if (ii && x == INT64_MIN)
			return 1;
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
		ii = 0;
	} else if (strcmp(op, "Reciprocal") == 0) {
		h = 1 / f;
		ii = 0;
	} else if (strcmp(op, "Relu") == 0) {
		r = x > 0 ? x : 0;
		h = f > 0 ? f : 0;
	} else {	/* Identity, Cast, Dropout, Expand: the value itself */
		r = x;
		h = f;
	}
	*isint = ii;
	*pr = r;
	*ph = h;
	return 0;
}

/*
 * Elementwise ops with numpy broadcasting: unary, binary, Where, and the
 * variadic Sum, Max, Min and Mean folded left to right over all inputs.
 * Expand broadcasts its first input only (its second is the shape).
 */
static int
elementwise(struct model *m, const struct node *n, struct tensor *o)
{
	const char *op = n->op;
	const struct tensor *a = node_in(m, n, 0), *b = node_in(m, n, 1);
	int variadic = strcmp(op, "Sum") == 0 || strcmp(op, "Max") == 0 ||
	    strcmp(op, "Min") == 0 || strcmp(op, "Mean") == 0;
	int fm = (int)attr_int(n, "fmod", 0), isint, rc;
	size_t k, nin = variadic ? n->nin : b != NULL ? 2 : 1;
	int64_t i, r;
	double h;

	if (strcmp(op, "Expand") == 0) {
		b = NULL;
		nin = 1;
	}
	for (k = 0; k < (strcmp(op, "Where") == 0 ? 3 : nin); k++)
		if (!bcast_ok(o->dims, o->rank, node_in(m, n, k))) {
			pf_err(m->file, "node %s: constant %s operand does not "
			    "match the output shape", n->name, op);
			return -1;
		}
	if (strcmp(op, "Where") == 0) {
		const struct tensor *c = node_in(m, n, 2);

		if (c == NULL || b == NULL)
			return 0;
		for (i = 0; i < o->nval; i++) {
			const struct tensor *s = tensor_ival(a, bidx(o->dims,
			    o->rank, i, a)) ? b : c;
			int64_t j = bidx(o->dims, o->rank, i, s);

			put(o, i, s->iv != NULL, s->iv ? s->iv[j] : 0,
			    s->fv ? s->fv[j] : 0);
		}
		return 0;
	}
	for (i = 0; i < o->nval; i++) {
		int64_t ka = bidx(o->dims, o->rank, i, a);
		int64_t x = tensor_ival(a, ka);
		double f = tensor_fval(a, ka);

		isint = a->iv != NULL;
		if (nin == 1)
			rc = elem(op, fm, &isint, x, 0, f, 0, &r, &h);
		else
			for (k = 1, rc = 0; k < nin && rc == 0; k++) {
				const struct tensor *t = node_in(m, n, k);
				int64_t kb;

				if (t == NULL)
					continue;
				kb = bidx(o->dims, o->rank, i, t);
				isint = isint && t->iv != NULL;
				rc = elem(op, fm, &isint, x, tensor_ival(t, kb), f,
				    tensor_fval(t, kb), &r, &h);
				x = isint ? r : (int64_t)0;
				f = isint ? (double)r : h;
			}
		if (rc == 1)
			return overflow(m, n);
		if (rc == 2) {
			pf_err(m->file, "node %s: integer division by zero in "
			    "constant %s", n->name, op);
			return -1;
		}
		if (strcmp(op, "Mean") == 0) {
			h = (isint ? (double)r : h) / (double)nin;
			isint = 0;
		}
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

/* Tile: output element c reads input element c mod the input's dims. */
static int
tile(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *a = node_in(m, n, 0);
	int64_t c[R], i;
	int j;

	(void)m;
	if (a->nval != tensor_numel(a) || a->rank != o->rank)
		return 0;
	for (i = 0; i < o->nval; i++) {
		unflat(o->dims, o->rank, i, c);
		for (j = 0; j < a->rank; j++)
			c[j] %= a->dims[j];
		putfrom(o, i, a, flat(a->dims, a->rank, c));
	}
	return 0;
}

/*
 * ScatterND and ScatterElements: the data's values with the updates
 * written at the indices (negative ones counted from the end), replacing
 * them or, with reduction add or mul, combined with them.
 */
static int
scatter(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *a = node_in(m, n, 0), *ix = node_in(m, n, 1);
	const struct tensor *u = node_in(m, n, 2);
	int64_t c[R], i, j, q, nidx, slice = 1, k, dst;
	char buf[8];
	const char *red;
	int el = strcmp(n->op, "ScatterElements") == 0, ax = 0, add, mul;

	red = attr_str(n, "reduction", buf, sizeof(buf), "none");
	add = strcmp(red, "add") == 0;
	mul = strcmp(red, "mul") == 0;
	if ((!add && !mul && strcmp(red, "none") != 0) ||
	    a->nval != tensor_numel(a) || u->nval != tensor_numel(u) ||
	    ix->nval != tensor_numel(ix)) {
		tensor_dropval(o);
		return 0;
	}
	for (i = 0; i < o->nval; i++)
		putfrom(o, i, a, i);
	if (el && shape_axis(m, n, attr_int(n, "axis", 0), a->rank, &ax) < 0)
		return -1;
	k = el ? 1 : ix->dims[ix->rank - 1];
	for (q = (int)k; !el && q < a->rank; q++)
		slice *= a->dims[q];
	nidx = el ? ix->nval : (k > 0 ? ix->nval / k : 1);
	for (i = 0; i < nidx; i++) {
		if (el)
			unflat(ix->dims, ix->rank, i, c);
		for (q = 0; q < k; q++) {
			int d = el ? ax : (int)q;
			int64_t v = tensor_ival(ix, el ? i : i * k + q);

			if (v < 0)
				v += a->dims[d];
			if (v < 0 || v >= a->dims[d]) {
				pf_err(m->file, "node %s: %s index '%lld' is out "
				    "of range for %lld", n->name, n->op,
				    (long long)tensor_ival(ix, el ? i : i * k +
				    q), (long long)a->dims[d]);
				return -1;
			}
			c[d] = v;
		}
		dst = el ? flat(a->dims, a->rank, c) : flat(a->dims, (int)k, c) *
		    slice;
		for (j = 0; j < (el ? 1 : slice); j++) {
			int64_t src = el ? i : i * slice + j, x, y, r = 0;
			double f, g;

			if (!add && !mul) {
				putfrom(o, dst + j, u, src);
				continue;
			}
			x = tensor_ival(o, dst + j);
			y = tensor_ival(u, src);
			f = tensor_fval(o, dst + j);
			g = tensor_fval(u, src);
			if (o->iv != NULL && (add ? ck_add(x, y, &r) :
			    ck_mul(x, y, &r)) < 0)
				return overflow(m, n);
			put(o, dst + j, o->iv != NULL, r, add ? f + g : f * g);
		}
	}
	return 0;
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

	if (shape_tensor_slice_range(m, n, st, sp, len) < 0)
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

/*
 * ReduceSum, ReduceProd, ReduceMax, ReduceMin and ReduceMean: integers
 * exactly (checked), floating-point values in double; no axes reduce
 * everything unless noop_with_empty_axes, which copies.
 */
static int
reduce(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *a = node_in(m, n, 0);
	int64_t ax[R], c[R], i, k, cnt;
	int na, p, j, mark[R] = { 0 }, keep = (int)attr_int(n, "keepdims", 1);
	int sum = strcmp(n->op, "ReduceSum") == 0;
	int prod = strcmp(n->op, "ReduceProd") == 0;
	int mx = strcmp(n->op, "ReduceMax") == 0;
	int mean = strcmp(n->op, "ReduceMean") == 0;
	int isint = a->iv != NULL;

	if (!sum && !prod && !mx && !mean && strcmp(n->op, "ReduceMin") != 0) {
		tensor_dropval(o);
		return 0;
	}
	if (shape_node_ints(m, n, "axes", 1, ax, R, &na, &p) < 0)
		return -1;
	if (na == 0 && attr_int(n, "noop_with_empty_axes", 0))
		return copy(m, n, o);
	for (j = 0; j < na; j++) {
		int q;

		if (shape_axis(m, n, ax[j], a->rank, &q) < 0)
			return -1;
		mark[q] = 1;
	}
	for (j = 0; j < a->rank; j++)
		if (na == 0)
			mark[j] = 1;
	if (a->nval != tensor_numel(a) || tensor_numel(o) != o->nval) {
		tensor_dropval(o);
		return 0;
	}
	cnt = o->nval > 0 ? a->nval / o->nval : 0;
	for (k = 0; k < o->nval; k++)
		put(o, k, isint, sum || mean ? 0 : prod ? 1 : mx ? INT64_MIN :
		    INT64_MAX, sum || mean ? 0 : prod ? 1 : mx ? -INFINITY :
		    INFINITY);
	for (i = 0; i < a->nval; i++) {
		int64_t oc[R], x = tensor_ival(a, i), cur, r2 = 0;
		double f = tensor_fval(a, i), g, h;
		int r = 0;

		unflat(a->dims, a->rank, i, c);
		for (j = 0; j < a->rank; j++)
			if (!mark[j])
				oc[r++] = c[j];
			else if (keep)
				oc[r++] = 0;
		k = flat(o->dims, o->rank, oc);
		cur = tensor_ival(o, k);
		g = tensor_fval(o, k);
		if (sum || mean) {
			if (isint && ck_add(cur, x, &r2) < 0)
				return overflow(m, n);
			h = g + f;
		} else if (prod) {
			if (isint && ck_mul(cur, x, &r2) < 0)
				return overflow(m, n);
			h = g * f;
		} else {
			r2 = mx ? (x > cur ? x : cur) : (x < cur ? x : cur);
			h = mx ? (f > g ? f : g) : (f < g ? f : g);
		}
		put(o, k, isint, r2, h);
	}
	for (k = 0; mean && cnt > 0 && k < o->nval; k++)
		put(o, k, isint, tensor_ival(o, k) / cnt, tensor_fval(o, k) /
		    (double)cnt);
	return 0;
}

int
consteval_node(struct model *m, const struct node *n)
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

		double f = tensor_fval(s, 0);

		tensor_setval(o, cnt);
		for (i = 0; i < cnt; i++) {
			/*
			 * Every value lies between start and limit, so the
			 * unsigned sum wraps back into range: exact, and no
			 * signed overflow on the way.
			 */
			uint64_t u = (uint64_t)tensor_ival(s, 0) +
			    (uint64_t)i * (uint64_t)tensor_ival(d, 0);

			put(o, i, s->iv != NULL, s->iv != NULL ? (int64_t)u : 0,
			    f);
			/* accumulated as ONNX defines it, in the input type */
			f = s->dtype == DT_FLOAT || s->dtype == DT_FLOAT16 ?
			    (double)((float)f + (float)tensor_fval(d, 0)) :
			    f + tensor_fval(d, 0);
		}
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
	if (strcmp(op, "Tile") == 0)
		return tile(m, n, o);
	if (strcmp(op, "ScatterND") == 0 || strcmp(op, "ScatterElements") == 0)
		return scatter(m, n, o);
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
	    strcmp(op, "Where") == 0 || strcmp(op, "Mean") == 0 ||
	    strcmp(op, "Xor") == 0)
		return elementwise(m, n, o);
	/* Not foldable: the output keeps its shape only. */
	tensor_dropval(o);
	return 0;
}
