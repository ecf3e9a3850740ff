/*
 * Constant folding over small tensors: the node's dispatch by op, and the
 * ops that read shapes, move, select or reduce data; integers in int64
 * with checked arithmetic, floats in double.  The elementwise ops, with
 * numpy broadcasting, are onnx_consteval_elt.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "onnx_consteval.h"
#include "onnx_consteval_elt.h"
#include "diag.h"
#include "onnx_shape.h"

#define R ONNX_MAXRANK

void
consteval_put(struct tensor *t, int64_t i, int isint, int64_t v, double f)
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

void
consteval_putfrom(struct tensor *o, int64_t i, const struct tensor *a,
    int64_t k)
{
	consteval_put(o, i, a->iv != NULL, a->iv ? a->iv[k] : 0,
	    a->fv ? a->fv[k] : 0);
}

int
consteval_overflow(const struct model *m, const struct node *n)
{
	pf_err(m->file, "node %s: integer overflow in constant %s", n->name,
	    n->op);
	return -1;
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
		consteval_putfrom(o, i, a, i);
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
		consteval_putfrom(o, i, a, flat(a->dims, a->rank, c));
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
		consteval_putfrom(o, i, a, i);
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
				consteval_putfrom(o, dst + j, u, src);
				continue;
			}
			x = tensor_ival(o, dst + j);
			y = tensor_ival(u, src);
			f = tensor_fval(o, dst + j);
			g = tensor_fval(u, src);
			if (o->iv != NULL && (add ? ck_add(x, y, &r) :
			    ck_mul(x, y, &r)) < 0)
				return consteval_overflow(m, n);
			consteval_put(o, dst + j, o->iv != NULL, r,
			    add ? f + g : f * g);
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
		consteval_putfrom(o, i, a, flat(a->dims, a->rank, ca));
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
		consteval_putfrom(o, i, a, flat(a->dims, a->rank, c));
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
				consteval_putfrom(o, i, t,
				    flat(t->dims, t->rank, c));
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
		consteval_putfrom(o, i, a, flat(a->dims, a->rank, ca));
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
		consteval_put(o, k, isint, sum || mean ? 0 : prod ? 1 :
		    mx ? INT64_MIN : INT64_MAX, sum || mean ? 0 : prod ? 1 :
		    mx ? -INFINITY : INFINITY);
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
				return consteval_overflow(m, n);
			h = g + f;
		} else if (prod) {
			if (isint && ck_mul(cur, x, &r2) < 0)
				return consteval_overflow(m, n);
			h = g * f;
		} else {
			r2 = mx ? (x > cur ? x : cur) : (x < cur ? x : cur);
			h = mx ? (f > g ? f : g) : (f < g ? f : g);
		}
		consteval_put(o, k, isint, r2, h);
	}
	for (k = 0; mean && cnt > 0 && k < o->nval; k++)
		consteval_put(o, k, isint, tensor_ival(o, k) / cnt,
		    tensor_fval(o, k) / (double)cnt);
	return 0;
}

/* Shape and Size: the input's dims (from start) or element count. */
static int
shape_of(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *a = node_in(m, n, 0);
	int64_t s = attr_int(n, "start", 0), cnt = tensor_numel(o), i;

	tensor_setval(o, cnt);
	if (n->op[1] == 'i')
		o->iv[0] = tensor_numel(a);
	else {
		s = s < 0 ? s + a->rank : s;
		s = s < 0 ? 0 : s;
		for (i = 0; i < cnt; i++)
			o->iv[i] = a->dims[s + i];
	}
	return 0;
}

/* ConstantOfShape: the value attribute repeated (zeros without one). */
static int
const_of_shape(struct model *m, const struct node *n, struct tensor *o)
{
	struct tensor v;
	int64_t cnt = tensor_numel(o), i;
	int rc;

	memset(&v, 0, sizeof(v));
	tensor_setval(o, cnt);
	if ((rc = attr_tensor(m, n, "value", &v)) > 0)
		for (i = 0; i < cnt && v.hasval && v.nval > 0; i++)
			consteval_putfrom(o, i, &v, 0);
	tensor_dropval(&v);
	return rc < 0 ? -1 : 0;
}

static int
range(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *s = node_in(m, n, 0), *d = node_in(m, n, 2);
	int64_t cnt = tensor_numel(o), i;
	double f = tensor_fval(s, 0);

	tensor_setval(o, cnt);
	for (i = 0; i < cnt; i++) {
		/*
		 * Every value lies between start and limit, so the unsigned
		 * sum wraps back into range: exact, and no signed overflow on
		 * the way.
		 */
		uint64_t u = (uint64_t)tensor_ival(s, 0) +
		    (uint64_t)i * (uint64_t)tensor_ival(d, 0);

		consteval_put(o, i, s->iv != NULL, s->iv != NULL ? (int64_t)u : 0,
		    f);
		/* accumulated as ONNX defines it, in the input type */
		f = s->dtype == DT_FLOAT || s->dtype == DT_FLOAT16 ?
		    (double)((float)f + (float)tensor_fval(d, 0)) :
		    f + tensor_fval(d, 0);
	}
	return 0;
}

typedef int foldfn(struct model *m, const struct node *n, struct tensor *o);

struct fold {
	const char	*op;
	foldfn		*fn;
};

/* The ops folded from their inputs' shapes (values not needed). */
static const struct fold shape_folds[] = {
	{ "Shape", shape_of }, { "Size", shape_of },
	{ "ConstantOfShape", const_of_shape }, { "Range", range },
	{ NULL, NULL }
};

/* The ops folded from their inputs' values (the elementwise ones aside). */
static const struct fold value_folds[] = {
	{ "Reshape", copy }, { "Flatten", copy }, { "Squeeze", copy },
	{ "Unsqueeze", copy }, { "Gather", gather }, { "Slice", slice },
	{ "Concat", concat }, { "Transpose", transpose }, { "Tile", tile },
	{ "ScatterND", scatter }, { "ScatterElements", scatter },
	{ NULL, NULL }
};

static foldfn *
fold_find(const struct fold *f, const char *op)
{
	for (; f->op != NULL; f++)
		if (strcmp(f->op, op) == 0)
			return f->fn;
	return NULL;
}

int
consteval_node(struct model *m, const struct node *n)
{
	struct tensor *o = node_out(m, n, 0);
	foldfn *fn;
	int64_t cnt;
	size_t k;

	if (o == NULL || !o->isconst || o->hasval)
		return 0;
	if ((cnt = tensor_numel(o)) < 0 || !onnx_keepval(o->dtype, cnt))
		return 0;
	if ((fn = fold_find(shape_folds, n->op)) != NULL)
		return fn(m, n, o);
	for (k = 0; k < n->nin; k++) {
		const struct tensor *t = node_in(m, n, k);

		if (t != NULL && !t->hasval)
			return 0;
	}
	if (n->nin == 0 || node_in(m, n, 0) == NULL)
		return 0;
	tensor_setval(o, cnt);
	if (strncmp(n->op, "Reduce", 6) == 0)
		return reduce(m, n, o);
	if ((fn = fold_find(value_folds, n->op)) != NULL)
		return fn(m, n, o);
	if (consteval_elementwise_op(n->op))
		return consteval_elementwise(m, n, o);
	/* Not foldable: the output keeps its shape only. */
	tensor_dropval(o);
	return 0;
}
