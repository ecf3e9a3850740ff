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
	    "Unsqueeze", "Expand", "Tile", "Identity", "Cast", "Gather", NULL };
	int i;

	if (!n->stdop)
		return 0;
	for (i = 0; ops[i] != NULL; i++)
		if (strcmp(n->op, ops[i]) == 0)
			return 1;
	return 0;
}

int
onnx_kv_gather_ok(const struct model *m, const struct node *n)
{
	const struct tensor *x, *ix;
	int64_t cnt[64], i, a, h;

	if (n->nin < 2 || n->in[0] < 0 || n->in[1] < 0 ||
	    !m->t[n->in[1]].isconst)
		return 0;
	ix = &m->t[n->in[1]];
	if (ix->rank == 0)
		return 1;	/* one layer of a stacked cache */
	x = &m->t[n->in[0]];
	a = attr_int(n, "axis", 0);
	if (a < 0)
		a += x->rank;
	/* a gather of heads: every head picked equally often */
	if (!ix->hasval || ix->iv == NULL || ix->rank != 1 || !x->known ||
	    a < 0 || a >= x->rank || (h = x->dims[a]) < 1 || h > 64)
		return 0;
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < ix->nval; i++) {
		int64_t v = ix->iv[i] < 0 ? ix->iv[i] + h : ix->iv[i];

		if (v < 0 || v >= h)
			return 0;
		cnt[v]++;
	}
	for (i = 1; i < h; i++)
		if (cnt[i] != cnt[0])
			return 0;
	return cnt[0] > 0;
}

int
onnx_kv_root(const struct model *m, int ti)
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
		/* a constant index: a layer of a stacked cache, or heads */
		if (strcmp(n->op, "Gather") == 0 && (n->nin < 2 ||
		    n->in[1] < 0 || !m->t[n->in[1]].isconst))
			return ti;
		ti = n->in[0];
	}
	return ti;
}

int
onnx_kv_is_past(const struct model *m, int ti)
{
	int r = onnx_kv_root(m, ti);

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
		if (n->in[j] < 0 || !onnx_kv_is_past(m, n->in[j]))
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

char *
onnx_kv_updates(const struct model *m)
{
	char *kvcat = xcalloc(m->nt + 1, 1);
	size_t i, j;

	for (i = 0; i < m->nn; i++) {
		const struct node *n = &m->n[i];
		int from = 0, other = 0;

		if (!n->stdop || strcmp(n->op, "Concat") != 0 || n->nout < 1 ||
		    n->out[0] < 0)
			continue;
		for (j = 0; j < n->nin; j++) {
			if (n->in[j] < 0)
				continue;
			if (onnx_kv_is_past(m, n->in[j]))
				from = 1;
			else if (!m->t[n->in[j]].isconst)
				other = 1;
		}
		if (from && other)
			kvcat[n->out[0]] = 1;
	}
	return kvcat;
}

/* Whether node n is a cache update flagged in kvcat. */
static int
is_update(const struct model *m, const char *kvcat, const struct node *n)
{
	(void)m;
	return n->stdop && strcmp(n->op, "Concat") == 0 && n->nout >= 1 &&
	    n->out[0] >= 0 && kvcat[n->out[0]];
}

/*
 * Instances of the cache a matmul of reduction k and output n reads: the
 * cache update root holds them, k x n elements each (the key/value heads
 * of every request).  With the cache repeated to the query heads (GQA,
 * MQA) the matmul's own operand holds more; 0 when root does not divide.
 */
static int64_t
cache_inst(const struct model *m, int root, int64_t k, int64_t n)
{
	int64_t e = tensor_numel(&m->t[root]), kn;

	if (e < 1 || ck_mul(k, n, &kn) < 0 || kn < 1 || e % kn != 0)
		return 0;
	return e / kn;
}

/* What the marking passes share: the model, its rows, the cache updates. */
struct kvmark {
	struct model	*m;
	struct table	*t;
	struct layer_cols lc;
	char		*kvcat;		/* cache update outputs (onnx_kv_updates) */
	int64_t		*kvlen;		/* their context lengths, 0 unknown */
	int		*kvax;		/* their context axes, -1 unknown */
	long		 rcol;		/* the resident column, -1 not yet */
};

static int
toolarge(const struct kvmark *k)
{
	pf_err(k->m->file, "KV cache: a count overflows 64 bits");
	return -1;
}

/* The cache updates with the length and axis of their contexts. */
static void
find_updates(struct kvmark *k)
{
	const struct model *m = k->m;
	size_t i;

	k->kvcat = onnx_kv_updates(m);
	k->kvlen = xcalloc(m->nt + 1, sizeof(*k->kvlen));
	k->kvax = xcalloc(m->nt + 1, sizeof(*k->kvax));
	for (i = 0; i < m->nn; i++) {
		const struct node *n = &m->n[i];

		if (is_update(m, k->kvcat, n))
			k->kvlen[n->out[0]] = seq_len(m, n, &k->kvax[n->out[0]]);
	}
}

/*
 * Which dimension of the cache operand B (k x n) of a matmul is the
 * context: 'n', 'k', or 0 when not known.
 */
static char
kv_seq_dim(const struct kvmark *k, const struct node *n, int bi, int root)
{
	const struct tensor *b = &k->m->t[n->in[bi]];
	int64_t L = k->kvlen[root];
	int ax;

	if (bi != 1 || !b->known || b->rank < 2 || L <= 0)
		return 0;
	ax = seq_axis(k->m, n->in[bi], root, k->kvax[root]);
	if (ax == b->rank - 1 || ax == b->rank - 2)
		return ax == b->rank - 1 ? 'n' : 'k';
	/* the path lost it: the dim that is the context */
	return b->dims[b->rank - 1] == L ? 'n' :
	    b->dims[b->rank - 2] == L ? 'k' : 0;
}

/*
 * One instance per cache matrix as stored; the query heads that share it
 * (broadcast, or the cache repeated to them) become rows of l's GEMM.
 */
static int
fold_heads(const struct kvmark *k, const struct tensor *b, int root,
    struct layer *l)
{
	int64_t inst = 1, g;
	size_t d;

	for (d = 0; b->known && d + 2 < (size_t)b->rank; d++)
		if (ck_mul(inst, b->dims[d], &inst) < 0)
			return -1;
	if ((g = cache_inst(k->m, root, l->gemm_k, l->gemm_n)) >= 1 &&
	    g < inst)
		inst = g;
	if (inst >= 1 && l->gemm_batch > inst && l->gemm_batch % inst == 0) {
		g = l->gemm_batch / inst;
		if (ck_mul(l->gemm_m, g, &l->gemm_m) < 0)
			return -1;
		l->gemm_batch = inst;
	}
	return 0;
}

/* The operand of MatMul n that reads a cache (0 or 1), or -1. */
static int
cache_operand(const struct kvmark *k, const struct node *n)
{
	int bi = -1;
	size_t j;

	if (!n->stdop || strcmp(n->op, "MatMul") != 0 || n->nin < 2 ||
	    n->nout < 1 || n->out[0] < 0)
		return -1;
	for (j = 0; j < 2; j++)
		if (n->in[j] >= 0 && k->kvcat[onnx_kv_root(k->m, n->in[j])])
			bi = (int)j;
	return bi;
}

/* The matmuls reading a cache marked resident kv; *nkv counts them. */
static int
mark_matmuls(struct kvmark *k, size_t *nkv)
{
	const struct model *m = k->m;
	struct layer l;
	long row;
	size_t i;
	int bi, root;

	for (i = 0; i < m->nn; i++) {
		const struct node *n = &m->n[i];

		if ((bi = cache_operand(k, n)) < 0 ||
		    (row = row_of(m, k->t, n->out[0])) < 0)
			continue;
		if (layer_get(k->t, &k->lc, (size_t)row, &l) < 0 ||
		    l.op != OP_MATMUL)
			return -1;
		root = onnx_kv_root(m, n->in[bi]);
		l.kv_seq = kv_seq_dim(k, n, bi, root);
		if (fold_heads(k, &m->t[n->in[bi]], root, &l) < 0)
			return toolarge(k);
		if (k->rcol < 0) {
			k->rcol = (long)csvio_addcol(k->t, "resident");
			k->lc.resident = k->rcol;
			k->lc.kv_seq = (long)csvio_addcol(k->t, "kv_seq");
		}
		strcpy(l.resident, "kv");
		if (layer_derive(&l) < 0)
			return toolarge(k);
		layer_put(k->t, &k->lc, (size_t)row, &l);
		(*nkv)++;
	}
	return 0;
}

/* The new token's bytes: update n's inputs that are not the past cache. */
static int
new_bytes(const struct model *m, const struct node *n, int64_t e,
    int64_t *bytes)
{
	int64_t v;
	size_t j;

	*bytes = 0;
	for (j = 0; j < n->nin; j++) {
		if (n->in[j] < 0 || onnx_kv_is_past(m, n->in[j]))
			continue;
		if ((v = tensor_numel(&m->t[n->in[j]])) < 0 ||
		    ck_mul(v, e, &v) < 0 || ck_add(*bytes, v, bytes) < 0)
			return -1;
	}
	return 0;
}

/* Whether n is a Gather from a past cache. */
static int
cache_gather(const struct model *m, const struct node *n)
{
	return n->stdop && strcmp(n->op, "Gather") == 0 && n->nout >= 1 &&
	    n->out[0] >= 0 && n->in[0] >= 0 && onnx_kv_is_past(m, n->in[0]);
}

/*
 * The ops that move a cache: an append writes only the new token's rows,
 * in place; a Gather picking one layer of a stacked cache moves nothing
 * (an offset into the cache), though graph_inputs() took the cache for an
 * embedding table.
 */
static int
mark_moves(struct kvmark *k)
{
	const struct model *m = k->m;
	struct layer l;
	int64_t bytes;
	long row;
	size_t i;
	int app;

	for (i = 0; i < m->nn; i++) {
		const struct node *n = &m->n[i];

		app = is_update(m, k->kvcat, n);
		if ((!app && !cache_gather(m, n)) ||
		    (row = row_of(m, k->t, n->out[0])) < 0)
			continue;
		if (layer_get(k->t, &k->lc, (size_t)row, &l) < 0)
			return -1;
		bytes = 0;
		if (app && new_bytes(m, n, layer_dtype_bytes(l.dtype),
		    &bytes) < 0)
			return toolarge(k);
		strcpy(l.resident, "kv");
		l.in_bytes = l.out_bytes = bytes;
		l.weight_bytes = 0;
		layer_put(k->t, &k->lc, (size_t)row, &l);
	}
	return 0;
}

/* Every other row with weights holds them resident. */
static int
mark_weights(struct kvmark *k)
{
	struct layer l;
	size_t i;

	for (i = 0; i < k->t->nrows; i++) {
		if (*csvio_get(k->t, i, (size_t)k->rcol) != '\0')
			continue;
		if (layer_get(k->t, &k->lc, i, &l) < 0)
			return -1;
		if (l.weight_bytes > 0 && (l.op == OP_CONV || l.op == OP_GEMM))
			csvio_set(k->t, i, (size_t)k->rcol, "weights");
	}
	return 0;
}

int
onnx_kv_mark(struct model *m, struct table *t)
{
	struct kvmark k;
	size_t nkv = 0;
	int rc = -1;

	memset(&k, 0, sizeof(k));
	k.m = m;
	k.t = t;
	k.rcol = -1;
	find_updates(&k);
	if (layer_cols_find(t, &k.lc) < 0 || mark_matmuls(&k, &nkv) < 0)
		goto out;
	if (nkv == 0 || (mark_moves(&k) == 0 && mark_weights(&k) == 0))
		rc = 0;
out:
	free(k.kvcat);
	free(k.kvlen);
	free(k.kvax);
	return rc;
}
