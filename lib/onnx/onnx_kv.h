/*
 * KV-cache recognition for decoder models (onnx2layers): a graph input
 * concatenated with the new token's keys or values is a KV cache; the
 * MatMuls that read it (q.K^T, p.V) get resident = kv, their GEMM view is
 * that of one request (the query heads that share a key head become rows
 * of one GEMV), and the cache's Concat becomes the in-place append of the
 * new token.  onnx2layers(1) documents the rules.
 */
#ifndef PF_ONNX_KV_H
#define PF_ONNX_KV_H

#include "csvio.h"
#include "onnx_load.h"

/*
 * Mark the rows of t (emitted from m) that read a KV cache, adding the
 * resident column (kv on those rows, weights on rows with weight bytes)
 * only when the model has one.  Reports and returns -1 on an overflow.
 */
int onnx_kv_mark(struct model *m, struct table *t);

/*
 * Where the data of tensor ti comes from: ti followed back through the
 * ops that only move, repeat or select it (Transpose, Reshape, Squeeze,
 * Unsqueeze, Expand, Tile, Identity, Cast, and a Gather with a constant
 * index).
 */
int onnx_kv_root(const struct model *m, int ti);
/* Whether tensor ti's data is a past cache: a graph input, not a weight. */
int onnx_kv_is_past(const struct model *m, int ti);
/*
 * Whether Gather n selects from a cache: a scalar constant index (one
 * layer of a stacked cache) or 1-D constant indices that pick every
 * entry of the axis equally often (the heads of a grouped cache).
 */
int onnx_kv_gather_ok(const struct model *m, const struct node *n);
/*
 * The cache updates: a Concat of a past cache and data that is not
 * constant.  Returns an array of m->nt + 1 flags, set at the Concats'
 * outputs; the caller frees it.
 */
char *onnx_kv_updates(const struct model *m);

/*
 * Fold the ops that only lay a resident cache out for its attention
 * matmuls (onnx2layers(1) KV CACHE): a Transpose, Expand, Tile or Gather
 * of heads whose input is a cache and whose output reaches only matmuls,
 * cache updates and other such ops is flagged skip, so that the emitter
 * writes no row for it (the cache is kept in the layout its matmuls
 * read).  Call after graph_infer, before emit_layers.  Returns the
 * number of nodes folded.
 */
size_t onnx_kv_fold(struct model *m);

#endif
