/*
 * KV-cache marking.  A tensor is "from the cache" when it is a graph
 * input (not a weight) seen through ops that only move or select data
 * (Gather with a constant index picks one layer of a stacked cache,
 * Transpose, Reshape, Squeeze, Unsqueeze, Expand, Identity, Cast).  A
 * Concat with an input from the cache and one that is not is the cache
 * update; its output, seen through the same ops, is the cache the
 * attention reads.  A MatMul with such an operand is an attention matmul
 * over a resident KV cache.
 */
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "layer.h"
#include "onnx_kv.h"
#include "xalloc.h"

static int
is_view(const struct node *n)
{
	static const char *const ops[] = { "Transpose", "Reshape", "Squeeze",
	    "Unsqueeze", "Expand", "Identity", "Cast", "Gather", NULL };
	int i;

	if (!n->stdop)
		return 0;
	for (i = 0; ops[i] != NULL; i++)
		if (strcmp(n->op, ops[i]) == 0)
			return 1;
	return 0;
}

/* Follow view ops back from tensor ti to where its data comes from. */
static int
data_root(const struct model *m, int ti)
{
	int guard;

	for (guard = 0; guard < 64 && ti >= 0; guard++) {
		const struct tensor *t = &m->t[ti];
		const struct node *n;

		if (t->producer < 0)
			return ti;
		n = &m->n[t->producer];
		if (!is_view(n) || n->nin < 1)
			return ti;
		/* Gather selects from its data input with a constant index */
		if (strcmp(n->op, "Gather") == 0 && (n->nin < 2 || n->in[1] < 0 ||
		    !m->t[n->in[1]].isconst))
			return ti;
		ti = n->in[0];
	}
	return ti;
}

static int
is_cache_input(const struct model *m, int ti)
{
	int r = data_root(m, ti);

	/* a cache read only through Gather counts as a weight input there */
	return r >= 0 && m->t[r].isinput && !m->t[r].isinit;
}

/* Row of the layer whose direct output tensor ti is, or -1. */
static long
row_of(const struct model *m, const struct table *t, int ti)
{
	int l = m->t[ti].layer;

	return l >= 0 && (size_t)l < t->nrows ? l : -1;
}

/*
 * The context length of a cache update n: its output's size along the
 * axis where it differs from the past input's (0 when unknown).
 */
static int64_t
seq_len(const struct model *m, const struct node *n, int *axis)
{
	const struct tensor *o = &m->t[n->out[0]], *p;
	size_t j;
	int k;

	*axis = -1;
	for (j = 0; j < n->nin; j++) {
		if (n->in[j] < 0 || !is_cache_input(m, n->in[j]))
			continue;
		p = &m->t[n->in[j]];
		if (!p->known || !o->known || p->rank != o->rank)
			return 0;
		for (k = 0; k < o->rank; k++)
			if (p->dims[k] != o->dims[k]) {
				*axis = k;
				return o->dims[k];
			}
	}
	return 0;
}

/*
 * The axis of tensor ti that is the context: follow the view ops from
 * the cache (root, context along axis a) to ti, through Transposes, and
 * through other views that keep the last two dims when a is one of them.
 * -1 when the path loses it.
 */
static int
seq_axis(const struct model *m, int ti, int root, int a)
{
	int path[64], np = 0, t = ti, i, r;
	const struct tensor *x, *y;
	const int64_t *perm;
	size_t nperm, j;

	while (t != root && np < 64) {
		if (t < 0 || m->t[t].producer < 0)
			return -1;
		path[np++] = t;
		t = m->n[m->t[t].producer].in[0];
	}
	if (t != root)
		return -1;
	for (i = np - 1; i >= 0 && a >= 0; i--) {
		const struct node *n = &m->n[m->t[path[i]].producer];

		x = &m->t[n->in[0]];
		y = &m->t[path[i]];
		if (!x->known || !y->known)
			return -1;
		r = x->rank;
		if (strcmp(n->op, "Transpose") == 0) {
			if (attr_ints(n, "perm", &perm, &nperm) < 0) {
				a = r - 1 - a;
				continue;
			}
			for (j = 0; j < nperm && perm[j] != a; j++)
				;
			a = j < nperm ? (int)j : -1;
		} else if (x->rank == y->rank && memcmp(x->dims, y->dims,
		    sizeof(x->dims[0]) * (size_t)r) == 0) {
			continue;
		} else if (a >= r - 2 && r >= 2 && y->rank >= 2 &&
		    x->dims[r - 2] == y->dims[y->rank - 2] &&
		    x->dims[r - 1] == y->dims[y->rank - 1]) {
			a += y->rank - r;
		} else {
			a = -1;
		}
	}
	return a;
}

int
onnx_kv_mark(struct model *m, struct table *t)
{
	struct layer_cols lc;
	struct layer l;
	char *kvcat = NULL;
	int64_t *kvlen = NULL;
	int *kvax = NULL;
	long row, rcol, scol = -1;
	size_t i, j, k, nkv = 0;
	int rc = -1;

	/* the cache updates */
	kvcat = xcalloc(m->nt + 1, 1);
	kvlen = xcalloc(m->nt + 1, sizeof(*kvlen));
	kvax = xcalloc(m->nt + 1, sizeof(*kvax));
	for (i = 0; i < m->nn; i++) {
		const struct node *n = &m->n[i];
		int from = 0, other = 0;

		if (!n->stdop || strcmp(n->op, "Concat") != 0 || n->nout < 1 ||
		    n->out[0] < 0)
			continue;
		for (j = 0; j < n->nin; j++) {
			if (n->in[j] < 0)
				continue;
			if (is_cache_input(m, n->in[j]))
				from = 1;
			else if (!m->t[n->in[j]].isconst)
				other = 1;
		}
		if (from && other) {
			kvcat[n->out[0]] = 1;
			kvlen[n->out[0]] = seq_len(m, n, &kvax[n->out[0]]);
		}
	}
	/* the matmuls reading them */
	if (layer_cols_find(t, &lc) < 0)
		goto out;
	rcol = -1;
	for (i = 0; i < m->nn; i++) {
		const struct node *n = &m->n[i];
		const struct tensor *a, *b;
		int64_t inst = 1, g, L;
		int bi = -1, root, ax;

		if (!n->stdop || strcmp(n->op, "MatMul") != 0 || n->nin < 2 ||
		    n->nout < 1 || n->out[0] < 0)
			continue;
		for (j = 0; j < 2; j++)
			if (n->in[j] >= 0 && kvcat[data_root(m, n->in[j])])
				bi = (int)j;
		if (bi < 0 || (row = row_of(m, t, n->out[0])) < 0)
			continue;
		if (layer_get(t, &lc, (size_t)row, &l) < 0 || l.op != OP_MATMUL)
			goto out;
		a = &m->t[n->in[1 - bi]];
		b = &m->t[n->in[bi]];
		(void)a;
		/* which dimension of the cache operand B (k x n) is the context */
		root = data_root(m, n->in[bi]);
		L = kvlen[root];
		l.kv_seq = 0;
		if (bi == 1 && b->known && b->rank >= 2 && L > 0) {
			ax = seq_axis(m, n->in[bi], root, kvax[root]);
			if (ax == b->rank - 1 || ax == b->rank - 2)
				l.kv_seq = ax == b->rank - 1 ? 'n' : 'k';
			else	/* the path lost it: the dim that is the context */
				l.kv_seq = b->dims[b->rank - 1] == L ? 'n' :
				    b->dims[b->rank - 2] == L ? 'k' : 0;
		}
		/* one instance per cache matrix; broadcast query heads are rows */
		for (k = 0; b->known && k + 2 < (size_t)b->rank; k++)
			if (ck_mul(inst, b->dims[k], &inst) < 0)
				goto toolarge;
		if (inst >= 1 && l.gemm_batch > inst && l.gemm_batch % inst == 0) {
			g = l.gemm_batch / inst;
			if (ck_mul(l.gemm_m, g, &l.gemm_m) < 0)
				goto toolarge;
			l.gemm_batch = inst;
		}
		if (rcol < 0) {
			rcol = (long)csvio_addcol(t, "resident");
			lc.resident = rcol;
			scol = (long)csvio_addcol(t, "kv_seq");
			lc.kv_seq = scol;
		}
		strcpy(l.resident, "kv");
		if (layer_derive(&l) < 0)
			goto toolarge;
		layer_put(t, &lc, (size_t)row, &l);
		nkv++;
	}
	if (nkv == 0) {
		rc = 0;
		goto out;
	}
	/* the appends: only the new token's rows are written, in place */
	for (i = 0; i < m->nn; i++) {
		const struct node *n = &m->n[i];
		int64_t bytes = 0, e, v;

		if (!n->stdop || strcmp(n->op, "Concat") != 0 || n->nout < 1 ||
		    n->out[0] < 0 || !kvcat[n->out[0]] ||
		    (row = row_of(m, t, n->out[0])) < 0)
			continue;
		if (layer_get(t, &lc, (size_t)row, &l) < 0)
			goto out;
		e = layer_dtype_bytes(l.dtype);
		for (j = 0; j < n->nin; j++) {
			if (n->in[j] < 0 || is_cache_input(m, n->in[j]))
				continue;
			if ((v = tensor_numel(&m->t[n->in[j]])) < 0 ||
			    ck_mul(v, e, &v) < 0 || ck_add(bytes, v, &bytes) < 0)
				goto toolarge;
		}
		strcpy(l.resident, "kv");
		l.in_bytes = l.out_bytes = bytes;
		l.weight_bytes = 0;
		layer_put(t, &lc, (size_t)row, &l);
	}
	/*
	 * A Gather picking one layer of a stacked cache moves nothing (an
	 * offset into the cache), though graph_inputs() took the cache for
	 * an embedding table.
	 */
	for (i = 0; i < m->nn; i++) {
		const struct node *n = &m->n[i];

		if (!n->stdop || strcmp(n->op, "Gather") != 0 || n->nout < 1 ||
		    n->out[0] < 0 || n->in[0] < 0 ||
		    !is_cache_input(m, n->in[0]) ||
		    (row = row_of(m, t, n->out[0])) < 0)
			continue;
		if (layer_get(t, &lc, (size_t)row, &l) < 0)
			goto out;
		strcpy(l.resident, "kv");
		l.in_bytes = l.weight_bytes = l.out_bytes = 0;
		layer_put(t, &lc, (size_t)row, &l);
	}
	/* every other row with weights holds them resident */
	for (i = 0; i < t->nrows; i++) {
		if (*csvio_get(t, i, (size_t)rcol) != '\0')
			continue;
		if (layer_get(t, &lc, i, &l) < 0)
			goto out;
		if (l.weight_bytes > 0 && (l.op == OP_CONV || l.op == OP_GEMM))
			csvio_set(t, i, (size_t)rcol, "weights");
	}
	rc = 0;
	goto out;
toolarge:
	pf_err(m->file, "KV cache: a count overflows 64 bits");
out:
	free(kvcat);
	free(kvlen);
	free(kvax);
	return rc;
}
