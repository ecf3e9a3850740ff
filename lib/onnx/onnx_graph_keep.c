/*
 * The output shapes of an op the tool does not know, kept with -k: as
 * declared, or by what its consumers fix (a Conv's channels, a MatMul's
 * K, a Reshape's element count), by the Reduce rule for what says it
 * reduces, or like its one data input; each assumption is warned about.
 */
#include <stdio.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "onnx_graph.h"
#include "onnx_graph_keep.h"
#include "onnx_ops.h"
#include "onnx_shape.h"

/*
 * What the consumers of tensor ti (an output of an unknown op) fix about
 * its shape: a Conv or ConvTranspose its rank and channels (dim 1) by its
 * weights, a Gemm its rank (2) and K, a MatMul its last dim K by the
 * other operand, a Reshape to a constant shape (no 0, no -1) its element
 * count.  The first consumer that fixes something is taken (its own
 * shape rule later checks the shape against the rest).
 */
struct fix {
	const struct node *by;		/* NULL: no consumer fixes anything */
	int	 rank;			/* -1: not fixed (MatMul) */
	int	 dim;			/* index of the fixed dim, -1 last */
	int64_t	 val;			/* its value */
	int	 numel;			/* Reshape: only the count, as tgt */
	int	 tgtrank;
	int64_t	 tgt[ONNX_MAXRANK];
};

static int
fixdim(const struct model *m, const struct node *c, size_t slot,
    struct fix *f)
{
	const struct tensor *b = node_in(m, c, slot == 0 ? 1 : 0);
	int64_t v;
	int i;

	if (!c->stdop || slot != 0 || b == NULL || !b->known)
		return 0;
	if ((strcmp(c->op, "Conv") == 0 || strcmp(c->op, "ConvTranspose") ==
	    0) && b->rank >= 3) {
		f->rank = b->rank;
		f->dim = 1;
		if (c->op[4] == '\0') {
			if (ck_mul(b->dims[1], attr_int(c, "group", 1), &v) < 0)
				return 0;
			f->val = v;
		} else
			f->val = b->dims[0];
	} else if (strcmp(c->op, "Gemm") == 0 && b->rank == 2) {
		f->rank = 2;
		f->dim = attr_int(c, "transA", 0) ? 0 : 1;
		f->val = b->dims[attr_int(c, "transB", 0) ? 1 : 0];
	} else if (strcmp(c->op, "MatMul") == 0 && b->rank >= 1) {
		f->rank = -1;
		f->dim = -1;
		f->val = b->dims[b->rank > 1 ? b->rank - 2 : 0];
	} else if (strcmp(c->op, "Reshape") == 0 && b->hasval &&
	    b->rank == 1 && b->nval >= 1 && b->nval <= ONNX_MAXRANK) {
		for (i = 0; i < (int)b->nval; i++)
			if ((f->tgt[i] = tensor_ival(b, i)) < 1)
				return 0;
		f->tgtrank = (int)b->nval;
		f->numel = 1;
	} else
		return 0;
	f->by = c;
	return 1;
}

static void
fixof(const struct model *m, int ti, struct fix *f)
{
	size_t i, j;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < m->nn; i++)
		for (j = 0; j < m->n[i].nin; j++)
			if (m->n[i].in[j] == ti && fixdim(m, &m->n[i], j, f))
				return;
}

/*
 * Output i of unknown op n by the element count a Reshape consumer fixes
 * (f): x's shape when x has that count, else the Reshape's target.
 */
static int
keep_numel(struct model *m, const struct node *n, size_t i,
    const struct tensor *x, const struct fix *f)
{
	const struct tensor *t = node_out(m, n, i);
	struct tensor tmp;
	char buf[160];
	int64_t cnt;

	memset(&tmp, 0, sizeof(tmp));
	tmp.known = 1;
	tmp.rank = f->tgtrank;
	memcpy(tmp.dims, f->tgt, sizeof(tmp.dims));
	cnt = tensor_numel(&tmp);
	if (cnt < 0) {
		pf_err(m->file, "node %s: the shape Reshape '%s' gives output "
		    "'%s' of unknown op '%s' overflows 64 bits", n->name,
		    f->by->name, t->name, n->op);
		return -1;
	}
	if (x != NULL && tensor_numel(x) == cnt) {
		shape_setout(m, n, i, x->dtype, x->rank, x->dims);
		pf_warn(m->file, "node %s: unknown op '%s': output '%s' taken "
		    "as %s like input '%s', whose element count Reshape '%s' "
		    "fixes; the model declares no output shape", n->name,
		    n->op, t->name, tensor_shape_str(x, buf, sizeof(buf)),
		    x->name, f->by->name);
		return 0;
	}
	shape_setout(m, n, i, x != NULL ? x->dtype : DT_FLOAT, tmp.rank,
	    tmp.dims);
	pf_warn(m->file, "node %s: unknown op '%s': output '%s' taken as %s, "
	    "the element count Reshape '%s' fixes; the model declares no "
	    "output shape", n->name, n->op, t->name,
	    tensor_shape_str(&tmp, buf, sizeof(buf)), f->by->name);
	return 0;
}

/* What f fixes, in words: "its rank (4) and dim 1 (64), not dims 0, 2, 3". */
static void
fix_words(const struct fix *f, char *what, size_t size)
{
	size_t off;
	int j;

	if (f->rank < 0) {
		snprintf(what, size, "its last dim (%lld), not its rank",
		    (long long)f->val);
		return;
	}
	off = (size_t)snprintf(what, size, "its rank (%d) and dim %d (%lld), "
	    "not dims", f->rank, f->dim, (long long)f->val);
	for (j = 0; j < f->rank && off < size; j++)
		if (j != f->dim)
			off += (size_t)snprintf(what + off, size - off, "%s %d",
			    j == 0 || (j == 1 && f->dim == 0) ? "" : ",", j);
}

/*
 * Output i of unknown op n by the dim a consumer fixes (f), the others
 * like its data input x, which must have the rank f fixes.
 */
static int
keep_fixed(struct model *m, const struct node *n, size_t i,
    const struct tensor *x, int ndata, const struct fix *f)
{
	const struct tensor *t = node_out(m, n, i);
	int64_t d[ONNX_MAXRANK];
	char buf[160], what[128], why[128];
	int r = f->rank >= 0 ? f->rank : x != NULL ? x->rank : -1, j;

	if (x == NULL || x->rank != r || r < 1) {
		fix_words(f, what, sizeof(what));
		if (x != NULL)
			snprintf(why, sizeof(why), "input '%s' has rank %d",
			    x->name, x->rank);
		else
			snprintf(why, sizeof(why), "%d inputs are not constant",
			    ndata);
		pf_err(m->file, "node %s: unsupported op '%s': output '%s' has "
		    "no declared shape; %s '%s' fixes %s (%s): declare it in "
		    "value_info", n->name, n->op, t->name, f->by->op,
		    f->by->name, what, why);
		return -1;
	}
	memcpy(d, x->dims, sizeof(d));
	j = f->dim >= 0 ? f->dim : r - 1;
	d[j] = f->val;
	shape_setout(m, n, i, x->dtype, r, d);
	pf_warn(m->file, "node %s: unknown op '%s': output '%s' taken as %s "
	    "(dim %d from %s '%s', the others like input '%s'); the model "
	    "declares no output shape", n->name, n->op, t->name,
	    tensor_shape_str(node_out(m, n, i), buf, sizeof(buf)), j,
	    f->by->op, f->by->name, x->name);
	return 0;
}

/*
 * Output i of unknown op n, which has no declared shape, by what its
 * consumers fix (fixof) and, for the rest, its data input x (NULL unless
 * n has exactly one input that is not constant); with nothing fixed, x's
 * shape when it is n's only output in use (the op taken as
 * shape-preserving).  A warning says what was assumed; what cannot be
 * inferred is reported, naming the output and what is missing.
 */
static int
keepout(struct model *m, const struct node *n, size_t i,
    const struct tensor *x, int ndata, int nused)
{
	const struct tensor *t = node_out(m, n, i);
	struct fix f;
	char buf[160];

	fixof(m, n->out[i], &f);
	if (f.by != NULL && f.numel)
		return keep_numel(m, n, i, x, &f);
	if (f.by != NULL)
		return keep_fixed(m, n, i, x, ndata, &f);
	if (x != NULL && nused == 1) {
		shape_setout(m, n, i, x->dtype, x->rank, x->dims);
		pf_warn(m->file, "node %s: unknown op '%s' taken as "
		    "shape-preserving (output %s like input '%s'); the model "
		    "declares no output shape", n->name, n->op,
		    tensor_shape_str(x, buf, sizeof(buf)), x->name);
		return 0;
	}
	if (x == NULL)
		pf_err(m->file, "node %s: unsupported op '%s': output '%s' has "
		    "no declared shape, no consumer fixes it and %d inputs "
		    "are not constant (so it is not taken as shape-preserving): "
		    "declare it in value_info", n->name, n->op, t->name, ndata);
	else
		pf_err(m->file, "node %s: unsupported op '%s': output '%s' has "
		    "no declared shape, no consumer fixes it and %d outputs "
		    "are in use (so it is not taken as shape-preserving): "
		    "declare it in value_info", n->name, n->op, t->name, nused);
	return -1;
}

/*
 * An unknown op that says it reduces: named Reduce* (a newer or a custom
 * domain's reduction) or with a keepdims attribute, one data input, and
 * axes as an attribute, a constant second input or absent (all axes).
 * Its output by the ONNX Reduce rule (ReduceSum's in the op table), with
 * a warning:
 * 1 done, 0 not such an op, -1 reported.
 */
static int
keepreduce(struct model *m, const struct node *n, const struct tensor *x)
{
	const struct tensor *ax = node_in(m, n, 1);
	char buf[160];

	if ((strncmp(n->op, "Reduce", 6) != 0 && !attr_has(n, "keepdims")) ||
	    x == NULL || x != node_in(m, n, 0) || n->nin > 2 ||
	    (ax != NULL && (!ax->hasval || !onnx_dtype_isint(ax->dtype))))
		return 0;
	if (onnx_op_find("ReduceSum")->shape(m, n) < 0)
		return -1;
	pf_warn(m->file, "node %s: unknown op '%s' taken as a reduction "
	    "(output %s by its axes and keepdims); the model declares no "
	    "output shape", n->name, n->op,
	    tensor_shape_str(node_out(m, n, 0), buf, sizeof(buf)));
	return 1;
}

int
graph_keepshape(struct model *m, const struct node *n)
{
	const struct tensor *x = NULL;
	size_t i;
	int j, ndata = 0, nused = 0;

	for (i = 0; i < n->nin; i++) {
		const struct tensor *t = node_in(m, n, i);

		if (t != NULL && !t->isconst) {
			ndata++;
			x = t;
		}
	}
	if (ndata != 1)
		x = NULL;
	for (i = 0; i < n->nout; i++) {
		const struct tensor *t = node_out(m, n, i);

		if (t != NULL && (t->nuse > 0 || t->isout))
			nused++;
	}
	for (i = 0; i < n->nout; i++) {
		struct tensor *t = node_out(m, n, i);

		if (t == NULL)
			continue;
		for (j = 0; j < t->declrank; j++)
			if (t->decl[j] < 1)
				break;
		if (t->declrank >= 0 && j == t->declrank)
			shape_setout(m, n, i, t->dtype ? t->dtype : DT_FLOAT,
			    t->declrank, t->decl);
		else if (t->nuse == 0 && !t->isout)
			shape_setout(m, n, i, x != NULL ? x->dtype : DT_FLOAT,
			    0, NULL);
		else if (i == 0 && n->nout == 1 &&
		    (j = keepreduce(m, n, x)) != 0) {
			if (j < 0)
				return -1;
		} else if (keepout(m, n, i, x, ndata, nused) < 0)
			return -1;
	}
	return 0;
}
