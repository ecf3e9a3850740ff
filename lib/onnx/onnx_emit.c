/*
 * Layer emission: one pass in topological order that resolves, folds,
 * fuses or emits each node; the rows' geometry is onnx_rows.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "onnx_emit.h"
#include "onnx_fuse.h"
#include "onnx_ops.h"
#include "onnx_rows.h"
#include "layer.h"
#include "onnx_shape.h"
#include "xalloc.h"

static enum onnx_kind
kindof(const struct node *n, const char **act)
{
	const struct onnx_op *op;

	*act = NULL;
	if (!n->stdop || (op = onnx_op_find(n->op)) == NULL)
		return K_OTHER;
	if (n->pat == PAT_NORM)
		return K_NORM;
	if (n->pat != PAT_NONE) {
		*act = n->pat == PAT_GELU ? "gelu" : n->pat == PAT_SILU ?
		    "silu" : "hardswish";
		return K_ACT;
	}
	*act = op->act;
	return op->kind;
}

/* The row of layer L as the direct producer of outputs of n. */
static void
setsrc(struct model *m, const struct node *n, int L)
{
	size_t i;

	for (i = 0; i < n->nout; i++) {
		struct tensor *t = node_out(m, n, i);

		if (t == NULL)
			continue;
		free(t->src);
		t->src = xmalloc(sizeof(int));
		t->src[0] = L;
		t->nsrc = 1;
		t->layer = L;
	}
}

static void
view(struct model *m, const struct node *n)
{
	size_t i;

	for (i = 0; i < n->nout; i++)
		if (n->out[i] >= 0)
			rows_srcunion(m, n->in, n->nin, &m->t[n->out[i]]);
}

/* Fusable producer row of tensor ti for a following act/bias, or NULL. */
static struct row *
producer(struct em *e, int ti)
{
	struct row *r;

	const struct node *pn;
	size_t i;

	if (ti < 0 || e->m->t[ti].layer < 0 || fuse_users(&e->f, ti) != 1)
		return NULL;
	/* A row with other outputs in use (Split) applies no act to them. */
	if (e->m->t[ti].producer >= 0) {
		pn = &e->m->n[e->m->t[ti].producer];
		for (i = 0; i < pn->nout; i++)
			if (pn->out[i] >= 0 && pn->out[i] != ti &&
			    e->m->t[pn->out[i]].nuse > 0)
				return NULL;
	}
	r = &e->rows[e->m->t[ti].layer];
	if (strcmp(r->l.act, "none") != 0)
		return NULL;
	return r;
}

/* act column value of a Clip: relu6, relu or clip. */
static const char *
clipname(const struct model *m, const struct node *n)
{
	const struct tensor *lo = node_in(m, n, 1), *hi = node_in(m, n, 2);
	double a = attr_float(n, "min", -INFINITY);
	double b = attr_float(n, "max", INFINITY);

	if (lo != NULL)
		a = lo->hasval && lo->nval == 1 ? tensor_fval(lo, 0) : NAN;
	if (hi != NULL)
		b = hi->hasval && hi->nval == 1 ? tensor_fval(hi, 0) : NAN;
	if (a == 0 && b == 6)
		return "relu6";
	if (a == 0 && b == INFINITY)
		return "relu";
	return "clip";
}

/* Whether a Transpose moves data (not only dims of size 1). */
static int
moves(const struct model *m, const struct node *n)
{
	const struct tensor *x = node_in(m, n, 0);
	const int64_t *p;
	size_t np, i;
	int64_t last = -1;

	if (attr_ints(n, "perm", &p, &np) < 0 || np == 0)
		return 1;
	for (i = 0; i < np; i++) {
		if (x->dims[p[i]] == 1)
			continue;
		if (p[i] < last)
			return 1;
		last = p[i];
	}
	return 0;
}

/*
 * ReduceMean over exactly the spatial axes of a rank >= 4 tensor (rank 3
 * is [N, S, D]: its last axis holds the channels, RMSNorm reduces it).
 */
static int
spatialmean(const struct model *m, const struct node *n)
{
	const struct tensor *x = node_in(m, n, 0);
	int64_t ax[ONNX_MAXRANK];
	int na, pr, i, seen = 0;

	if (strcmp(n->op, "ReduceMean") != 0 || x->rank < 4 ||
	    (n->nin > 1 && n->in[1] >= 0 && !m->t[n->in[1]].hasval) ||
	    shape_node_ints(m, n, "axes", 1, ax, ONNX_MAXRANK, &na, &pr) < 0 ||
	    na != x->rank - 2)
		return 0;
	for (i = 0; i < na; i++) {
		int64_t a = ax[i] < 0 ? ax[i] + x->rank : ax[i];

		if (a < 2 || a >= x->rank || (seen & (1 << a)))
			return 0;
		seen |= 1 << a;
	}
	return 1;
}

/* A row of op over all of n's inputs. */
static int
generic(struct em *e, const struct node *n, enum layer_op op)
{
	return rows_generic(e, n, rows_new(e, n, op), n->in, n->nin, 0);
}

/* A Transpose that moves only dims of size 1 is a view. */
static int
transpose(struct em *e, const struct node *n)
{
	if (strcmp(n->op, "Transpose") == 0 && !moves(e->m, n)) {
		view(e->m, n);
		return 0;
	}
	return rows_generic(e, n, rows_new(e, n, OP_TRANSPOSE), n->in, 1, 0);
}

/* A BatchNormalization after a Conv folds into it. */
static int
batchnorm(struct em *e, const struct node *n)
{
	struct row *r;

	if ((r = producer(e, n->in[0])) != NULL && r->l.op == OP_CONV) {
		setsrc(e->m, n, (int)r->l.id);
		return 0;
	}
	return generic(e, n, OP_NORM);
}

/* An activation (or the pattern of one) folds into its producer's row. */
static int
activation(struct em *e, const struct node *n, const char *act)
{
	struct row *r;
	int x = n->pat ? n->patin : n->in[0];

	if (strcmp(n->op, "Clip") == 0 && !n->pat)
		act = clipname(e->m, n);
	if ((r = producer(e, x)) != NULL) {
		rows_strcpy(r->l.act, sizeof(r->l.act), act);
		setsrc(e->m, n, (int)r->l.id);
		return 0;
	}
	r = rows_new(e, n, OP_ACT);
	rows_strcpy(r->l.act, sizeof(r->l.act), act);
	if (n->pat)
		return rows_generic(e, n, r, &x, 1, 0);
	return rows_generic(e, n, r, n->in, n->nin, 0);
}

/* An Add of a bias (N values along the last axis) folds into a GEMM. */
static int
eltwise(struct em *e, const struct node *n)
{
	const struct model *m = e->m;
	struct row *r;
	int x;

	if (strcmp(n->op, "Add") == 0 && n->nin == 2)
		for (x = 0; x < 2; x++) {
			const struct tensor *c = node_in(m, n, 1 - x);

			if ((r = producer(e, n->in[x])) != NULL &&
			    r->l.op == OP_GEMM && c != NULL &&
			    c->isconst && c->rank >= 1 &&
			    c->dims[c->rank - 1] == r->l.out_c &&
			    tensor_numel(c) == r->l.out_c &&
			    node_out(m, n, 0)->rank == m->t[n->in[x]].rank) {
				setsrc(e->m, n, (int)r->l.id);
				return 0;
			}
		}
	return generic(e, n, OP_ELTWISE);
}

/* A normalization, or the pattern of one over its input and weights. */
static int
norm(struct em *e, const struct node *n)
{
	int ts[3], nts = 0;

	if (!n->pat)
		return generic(e, n, OP_NORM);
	ts[nts++] = n->patin;
	if (n->patw[0] >= 0)
		ts[nts++] = n->patw[0];
	if (n->patw[1] >= 0)
		ts[nts++] = n->patw[1];
	return rows_generic(e, n, rows_new(e, n, OP_NORM), ts, (size_t)nts, 0);
}

/*
 * Empty tensors (a zero dim) hold no data: a node whose outputs are all
 * empty does no work and makes no row; one that makes something of
 * nothing (Concat, Pad) moves only its other operands' bytes.  A row
 * whose geometry is an operand's (a conv, a product, a pool, a
 * normalization) cannot be costed on an empty one: -1 reported.
 */
static int
empty_ok(const struct model *m, const struct node *n, enum onnx_kind k,
    int *none)
{
	const struct tensor *t;
	char buf[160];
	size_t i;

	*none = 1;
	for (i = 0; i < n->nout && *none; i++)
		if ((t = node_out(m, n, i)) != NULL && !tensor_empty(t))
			*none = 0;
	if (*none || k == K_ELT || k == K_ACT || k == K_CONCAT ||
	    k == K_TRANSPOSE || k == K_RESIZE || k == K_OTHER || k == K_VIEW)
		return 0;
	for (i = 0; i < n->nin; i++)
		if ((t = node_in(m, n, i)) != NULL && !t->isconst &&
		    tensor_empty(t)) {
			pf_err(m->file, "node %s: %s input '%s' is empty (shape "
			    "%s), so the layer has no geometry to cost", n->name,
			    n->op, t->name, tensor_shape_str(t, buf,
			    sizeof(buf)));
			return -1;
		}
	return 0;
}

static int
node1(struct em *e, int ni)
{
	struct model *m = e->m;
	struct node *n = &m->n[ni];
	enum onnx_kind k;
	const char *act;
	int none;

	k = kindof(n, &act);
	if (empty_ok(m, n, k, &none) < 0)
		return -1;
	if (none) {
		view(m, n);
		return 0;
	}
	switch (k) {
	case K_VIEW:
		view(m, n);
		return 0;
	case K_TRANSPOSE:
		return transpose(e, n);
	case K_BN:
		return batchnorm(e, n);
	case K_ACT:
		return activation(e, n, act);
	case K_ELT:
		return eltwise(e, n);
	case K_GATHER:
		if (m->t[n->in[0]].isconst)
			return rows_embed(e, n);
		return generic(e, n, OP_OTHER);
	case K_GEMM:
		if (m->t[n->in[1]].isconst && m->t[n->in[1]].rank == 2 &&
		    !m->t[n->in[0]].isconst)
			return rows_gemm(e, n);
		return rows_matmul(e, n);
	case K_EINSUM:
		return rows_einsum(e, n);
	case K_RNN:
		return rows_rnn(e, n);
	case K_CONV:
		return rows_conv(e, n);
	case K_POOL:
		return rows_pool(e, n, 0);
	case K_GPOOL:
		return rows_pool(e, n, 1);
	case K_REDUCE:
		if (spatialmean(m, n))
			return rows_pool(e, n, 1);
		return generic(e, n, OP_REDUCE);
	case K_NORM:
		return norm(e, n);
	case K_SOFTMAX:
		return generic(e, n, OP_SOFTMAX);
	case K_CONCAT:
		return generic(e, n, OP_CONCAT);
	case K_RESIZE:
		return generic(e, n, OP_RESIZE);
	default:
		return generic(e, n, OP_OTHER);
	}
}

int
emit_layers(struct model *m, const char *dtype, struct table *t)
{
	struct em e;
	struct layer_cols lc;
	size_t i;
	int rc = 0;

	memset(&e, 0, sizeof(e));
	e.m = m;
	e.dtype = dtype;
	e.esz = layer_dtype_bytes(dtype);
	fuse_init(&e.f, m);
	for (i = 0; i < m->nn && rc == 0; i++) {
		int ni = m->order[i];
		struct node *n = &m->n[ni];
		const struct tensor *o = node_out(m, n, 0);
		size_t before = e.nrows;

		if (n->skip) {
			view(m, n);
			continue;
		}
		if (o == NULL || o->isconst)
			continue;
		e.srcset = 0;
		rc = node1(&e, ni);
		if (rc == 0 && e.nrows > before && !e.srcset)
			setsrc(m, n, (int)before);
	}
	if (rc == 0) {
		long cn = -1, co = -1, cp = -1, cc = -1;

		layer_cols_add(t, &lc);
		/* The optional column, only in a table that has such a row. */
		for (i = 0; i < e.nrows; i++)
			if (e.rows[i].l.transposed)
				break;
		if (i < e.nrows)
			lc.transposed = (long)csvio_addcol(t, "transposed");
		for (i = 0; i < e.nrows; i++)
			if (e.rows[i].l.in_d > 1 || e.rows[i].l.out_d > 1 ||
			    e.rows[i].l.kernel_d > 1)
				break;
		if (i < e.nrows)
			layer_cols_add_depth(t, &lc);
		/*
		 * An op the tool does not know (-k) is known by its bytes only:
		 * the column says which rows are costed that way.
		 */
		for (i = 0; i < e.nrows; i++)
			if (e.rows[i].l.op == OP_OTHER)
				break;
		if (i < e.nrows)
			cc = (long)csvio_addcol(t, "costed");
		cn = csvio_col(t, "name");
		co = csvio_col(t, "onnx_op");
		cp = csvio_col(t, "preds");
		for (i = 0; i < e.nrows; i++) {
			size_t row = csvio_addrow(t);

			layer_put(t, &lc, row, &e.rows[i].l);
			csvio_set(t, row, (size_t)cn, e.rows[i].name);
			csvio_set(t, row, (size_t)co, e.rows[i].onnx_op);
			csvio_set(t, row, (size_t)cp, e.rows[i].preds);
			if (cc >= 0)
				csvio_set(t, row, (size_t)cc, e.rows[i].l.op ==
				    OP_OTHER ? "bytes" : "model");
		}
	}
	for (i = 0; i < e.nrows; i++) {
		free(e.rows[i].preds);
		free(e.rows[i].ownname);
	}
	free(e.rows);
	fuse_free(&e.f);
	return rc;
}
