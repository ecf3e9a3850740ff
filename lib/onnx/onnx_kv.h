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

#endif
