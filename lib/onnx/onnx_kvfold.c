/*
 * The cache in its own layout (onnx2layers(1) KV CACHE).  A decoder
 * export moves its resident KV cache every step only to present it to
 * the attention matmuls in the order they read: K transposed, the key
 * and value heads repeated to the query heads (transformers' repeat_kv:
 * Unsqueeze, Expand, Reshape; or Tile, or a Gather of heads), a past
 * cache stored [B, L, H, D] transposed to [B, H, L, D].  A serving
 * system keeps the cache in the layout its kernel reads and reads each
 * key/value head once for the query heads that share it, so these ops
 * are folded: no row, no bytes; the matmuls are costed on the cache as
 * stored (onnx_kv_mark), and the new token is appended in that layout
 * at the cost of its own bytes (the Concat's row).
 */
#include <stdlib.h>
#include <string.h>

#include "onnx_kv.h"
#include "xalloc.h"

/* Ops that only move, repeat or select a cache's data. */
static int
movesop(const struct model *m, const struct node *n)
{
	if (!n->stdop || n->nin < 1 || n->in[0] < 0)
		return 0;
	if (strcmp(n->op, "Gather") == 0)
		return n->nin >= 2 && n->in[1] >= 0 &&
		    m->t[n->in[1]].rank == 1 && onnx_kv_gather_ok(m, n);
	return strcmp(n->op, "Transpose") == 0 ||
	    strcmp(n->op, "Expand") == 0 || strcmp(n->op, "Tile") == 0;
}

/* Views that write no row whatever their input (K_VIEW ops). */
static int
passop(const struct node *n)
{
	static const char *const ops[] = { "Reshape", "Squeeze", "Unsqueeze",
	    "Identity", "Cast", "Flatten", NULL };
	int i;

	if (!n->stdop || n->nin < 1 || n->in[0] < 0)
		return 0;
	for (i = 0; ops[i] != NULL; i++)
		if (strcmp(n->op, ops[i]) == 0)
			return 1;
	return 0;
}

/* Whether tensor ti holds a cache: past, or a cache update's output. */
static int
is_cache(const struct model *m, const char *kvcat, int ti)
{
	int r;

	if (ti < 0)
		return 0;
	r = onnx_kv_root(m, ti);
	return r >= 0 && (kvcat[r] || (m->t[r].isinput && !m->t[r].isinit));
}

size_t
onnx_kv_fold(struct model *m)
{
	char *kvcat, *other;
	size_t i, j, nf = 0;
	int any = 0;

	kvcat = onnx_kv_updates(m);
	for (i = 0; i < m->nt && !any; i++)
		any = kvcat[i];
	if (!any) {
		free(kvcat);
		return 0;
	}
	/*
	 * other[t]: t is read by a node that needs it as it is.  In reverse
	 * topological order every consumer of a tensor is seen before its
	 * producer.  A transposed or repeated cache that is also a graph
	 * output, or read by another op, is made: its op keeps its row.
	 */
	other = xcalloc(m->nt + 1, 1);
	for (i = 0; i < m->nt; i++)	/* a graph output is written as it is */
		other[i] = (char)m->t[i].isout;
	for (i = m->nn; i-- > 0;) {
		struct node *n = &m->n[m->order[i]];
		int ok = 0, keep = 0;

		if ((movesop(m, n) || passop(n)) && is_cache(m, kvcat, n->in[0])) {
			ok = 1;
			for (j = 0; j < n->nout; j++)
				if (n->out[j] >= 0 && other[n->out[j]])
					ok = 0;
			if (ok && movesop(m, n) && !n->skip) {
				n->skip = 1;
				nf++;
			}
		} else if (n->stdop && (strcmp(n->op, "MatMul") == 0 ||
		    (strcmp(n->op, "Concat") == 0 && n->nout >= 1 &&
		    n->out[0] >= 0 && kvcat[n->out[0]])))
			keep = 1;
		for (j = 0; j < n->nin; j++)
			if (n->in[j] >= 0 && (!(ok || keep) || (ok && j > 0)))
				other[n->in[j]] = 1;
	}
	free(kvcat);
	free(other);
	return nf;
}
