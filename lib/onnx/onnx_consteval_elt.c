/*
 * Elementwise constant folding: each element of the output from the
 * elements of its inputs at their numpy-broadcast positions, by one
 * family of ops (arithmetic, min and max, comparisons, logic, unary
 * functions), the op table naming each op's family.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "onnx_consteval.h"
#include "onnx_consteval_elt.h"

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

/*
 * One element of a unary or binary op: integers x, y (exact, checked) and
 * doubles f, g; isint says which result is meant on entry (both operands
 * integer) and on return (comparisons give integers, Pow and Sqrt
 * doubles), the result in r or h.
 */
struct el {
	int64_t	 x, y, r;
	double	 f, g, h;
	int	 isint;
	int	 fmod;		/* Mod's fmod attribute */
};

/* The ops of one family, by code; 1 overflow, 2 integer division by 0. */
typedef int elfn(int code, struct el *e);

enum { E_ADD, E_SUB, E_MUL, E_DIV, E_MOD, E_POW };
enum { E_MAX, E_MIN };
enum { E_EQ, E_LT, E_GT, E_LE, E_GE };
enum { E_AND, E_OR, E_XOR, E_NOT };
enum { E_NEG, E_ABS, E_SIGN, E_FLOOR, E_CEIL, E_SQRT, E_RECIP, E_RELU };

static int
arith(int code, struct el *e)
{
	int ii = e->isint;

	switch (code) {
	case E_ADD:
		if (ii && ck_add(e->x, e->y, &e->r) < 0)
			return 1;
		e->h = e->f + e->g;
		break;
	case E_SUB:
		if (ii && (e->y == INT64_MIN || ck_add(e->x, -e->y, &e->r) < 0))
			return 1;
		e->h = e->f - e->g;
		break;
	case E_MUL:
		if (ii && ck_mul(e->x, e->y, &e->r) < 0)
			return 1;
		e->h = e->f * e->g;
		break;
	case E_DIV:
	case E_MOD:
		if (ii && (e->y == 0 || (e->x == INT64_MIN && e->y == -1)))
			return 2;
		if (code == E_DIV) {
			e->r = ii ? e->x / e->y : 0;
			e->h = e->f / e->g;
			break;
		}
		e->r = ii ? e->x % e->y : 0;
		if (ii && e->r != 0 && (e->r < 0) != (e->y < 0) && !e->fmod)
			e->r += e->y;
		e->h = fmod(e->f, e->g);
		break;
	default:	/* E_POW */
		e->h = pow(e->f, e->g);
		e->isint = 0;
		break;
	}
	return 0;
}

static int
minmax(int code, struct el *e)
{
	int mx = code == E_MAX;

	e->r = mx ? (e->x > e->y ? e->x : e->y) : (e->x < e->y ? e->x : e->y);
	e->h = mx ? (e->f > e->g ? e->f : e->g) : (e->f < e->g ? e->f : e->g);
	return 0;
}

/* The comparisons, of integers exactly: an integer (bool) result. */
static int
compare(int code, struct el *e)
{
	int64_t x = e->x, y = e->y;
	double f = e->f, g = e->g;
	int ii = e->isint;

	switch (code) {
	case E_EQ:
		e->r = ii ? x == y : f == g;
		break;
	case E_LT:
		e->r = ii ? x < y : f < g;
		break;
	case E_GT:
		e->r = ii ? x > y : f > g;
		break;
	case E_LE:
		e->r = ii ? x <= y : f <= g;
		break;
	default:	/* E_GE */
		e->r = ii ? x >= y : f >= g;
		break;
	}
	e->isint = 1;
	return 0;
}

static int
logic(int code, struct el *e)
{
	e->r = code == E_AND ? e->x && e->y : code == E_OR ? e->x || e->y :
	    code == E_XOR ? !e->x != !e->y : !e->x;
	e->isint = 1;
	return 0;
}

static int
unary(int code, struct el *e)
{
	int64_t x = e->x;
	double f = e->f;

	switch (code) {
	case E_NEG:
	case E_ABS:
		if (e->isint && x == INT64_MIN)
			return 1;
		e->r = code == E_NEG || x < 0 ? -x : x;
		e->h = code == E_NEG ? -f : fabs(f);
		break;
	case E_SIGN:
		e->r = (x > 0) - (x < 0);
		e->h = (f > 0) - (f < 0);
		break;
	case E_FLOOR:
	case E_CEIL:
		e->r = x;
		e->h = code == E_FLOOR ? floor(f) : ceil(f);
		break;
	case E_SQRT:
	case E_RECIP:
		e->h = code == E_SQRT ? sqrt(f) : 1 / f;
		e->isint = 0;
		break;
	default:	/* E_RELU */
		e->r = x > 0 ? x : 0;
		e->h = f > 0 ? f : 0;
		break;
	}
	return 0;
}

/* Identity, Cast, Dropout, Expand: the value itself. */
static int
same(int code, struct el *e)
{
	(void)code;
	e->r = e->x;
	e->h = e->f;
	return 0;
}

/* The elementwise ops folded; Where picks (elementwise() itself). */
static const struct eop {
	const char	*op;
	elfn		*fn;
	int		 code;
} eops[] = {
	{ "Add", arith, E_ADD }, { "Sum", arith, E_ADD },
	{ "Mean", arith, E_ADD }, { "Sub", arith, E_SUB },
	{ "Mul", arith, E_MUL }, { "Div", arith, E_DIV },
	{ "Mod", arith, E_MOD }, { "Pow", arith, E_POW },
	{ "Max", minmax, E_MAX }, { "Min", minmax, E_MIN },
	{ "Equal", compare, E_EQ }, { "Less", compare, E_LT },
	{ "Greater", compare, E_GT }, { "LessOrEqual", compare, E_LE },
	{ "GreaterOrEqual", compare, E_GE },
	{ "And", logic, E_AND }, { "Or", logic, E_OR },
	{ "Xor", logic, E_XOR }, { "Not", logic, E_NOT },
	{ "Neg", unary, E_NEG }, { "Abs", unary, E_ABS },
	{ "Sign", unary, E_SIGN }, { "Floor", unary, E_FLOOR },
	{ "Ceil", unary, E_CEIL }, { "Sqrt", unary, E_SQRT },
	{ "Reciprocal", unary, E_RECIP }, { "Relu", unary, E_RELU },
	{ "Identity", same, 0 }, { "Cast", same, 0 },
	{ "Dropout", same, 0 }, { "Expand", same, 0 },
	{ "Where", same, 0 },
	{ NULL, NULL, 0 }
};

static const struct eop *
eop_find(const char *op)
{
	const struct eop *p;

	for (p = eops; p->op != NULL; p++)
		if (strcmp(p->op, op) == 0)
			return p;
	return NULL;
}

/* Where: each element from the second or third input, as the first says. */
static int
where(struct model *m, const struct node *n, struct tensor *o)
{
	const struct tensor *a = node_in(m, n, 0), *b = node_in(m, n, 1);
	const struct tensor *c = node_in(m, n, 2);
	int64_t i;

	if (c == NULL || b == NULL)
		return 0;
	for (i = 0; i < o->nval; i++) {
		const struct tensor *s = tensor_ival(a, bidx(o->dims,
		    o->rank, i, a)) ? b : c;
		int64_t j = bidx(o->dims, o->rank, i, s);

		consteval_putfrom(o, i, s, j);
	}
	return 0;
}

/*
 * Element i of o: op over inputs 0..nin-1 of n, folded left to right,
 * into e (its result fields keep the last element's where no input is
 * read).
 */
static int
fold_elem(struct model *m, const struct node *n, const struct eop *op,
    size_t nin, struct tensor *o, int64_t i, struct el *e)
{
	const struct tensor *a = node_in(m, n, 0);
	int64_t ka = bidx(o->dims, o->rank, i, a), kb;
	size_t k;
	int rc = 0;

	e->x = tensor_ival(a, ka);
	e->f = tensor_fval(a, ka);
	e->isint = a->iv != NULL;
	if (nin == 1) {
		e->y = e->r = 0;
		e->g = e->h = 0;
		return op->fn(op->code, e);
	}
	for (k = 1; k < nin && rc == 0; k++) {
		const struct tensor *t = node_in(m, n, k);

		if (t == NULL)
			continue;
		kb = bidx(o->dims, o->rank, i, t);
		e->isint = e->isint && t->iv != NULL;
		e->y = tensor_ival(t, kb);
		e->g = tensor_fval(t, kb);
		e->r = 0;
		e->h = 0;
		rc = op->fn(op->code, e);
		e->x = e->isint ? e->r : (int64_t)0;
		e->f = e->isint ? (double)e->r : e->h;
	}
	return rc;
}

/*
 * Elementwise ops with numpy broadcasting: unary, binary, Where, and the
 * variadic Sum, Max, Min and Mean folded left to right over all inputs.
 * Expand broadcasts its first input only (its second is the shape).
 */
int
consteval_elementwise(struct model *m, const struct node *n, struct tensor *o)
{
	const struct eop *op = eop_find(n->op);
	const struct tensor *b = node_in(m, n, 1);
	int variadic = strcmp(n->op, "Sum") == 0 || strcmp(n->op, "Max") == 0 ||
	    strcmp(n->op, "Min") == 0 || strcmp(n->op, "Mean") == 0;
	size_t k, nin = variadic ? n->nin : b != NULL ? 2 : 1;
	struct el e;
	int64_t i;
	int rc;

	if (strcmp(n->op, "Expand") == 0)
		nin = 1;
	for (k = 0; k < (strcmp(n->op, "Where") == 0 ? 3 : nin); k++)
		if (!bcast_ok(o->dims, o->rank, node_in(m, n, k))) {
			pf_err(m->file, "node %s: constant %s operand does not "
			    "match the output shape", n->name, n->op);
			return -1;
		}
	if (strcmp(n->op, "Where") == 0)
		return where(m, n, o);
	memset(&e, 0, sizeof(e));
	e.fmod = (int)attr_int(n, "fmod", 0);
	for (i = 0; i < o->nval; i++) {
		if ((rc = fold_elem(m, n, op, nin, o, i, &e)) == 1)
			return consteval_overflow(m, n);
		if (rc == 2) {
			pf_err(m->file, "node %s: integer division by zero in "
			    "constant %s", n->name, n->op);
			return -1;
		}
		if (strcmp(n->op, "Mean") == 0) {
			e.h = (e.isint ? (double)e.r : e.h) / (double)nin;
			e.isint = 0;
		}
		consteval_put(o, i, e.isint, e.r, e.h);
	}
	return 0;
}

int
consteval_elementwise_op(const char *op)
{
	return eop_find(op) != NULL;
}
