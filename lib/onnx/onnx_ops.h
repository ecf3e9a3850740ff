/*
 * The one table of the ONNX ops onnx2layers knows (default domain): for
 * each, its shape rule, the kind of layer it emits and, for activations,
 * the act column's value.  An op not in the table is unknown: refused, or
 * with -k kept as an "other" row.
 */
#ifndef PF_ONNX_OPS_H
#define PF_ONNX_OPS_H

#include "onnx_shape.h"

/* What the emitter makes of a node (onnx_emit.c). */
enum onnx_kind {
	K_VIEW,		/* no data moves: the output aliases the input */
	K_CONV, K_GEMM, K_POOL, K_GPOOL, K_REDUCE,
	K_EINSUM,	/* a matrix product (onnx_einsum.h) */
	K_RNN,		/* LSTM, GRU, RNN: gate GEMMs and recurrence */
	K_ELT,		/* elementwise math (a constant bias Add may fuse) */
	K_ACT,		/* activation, fused into its producer when alone */
	K_SOFTMAX, K_NORM, K_BN, K_CONCAT, K_TRANSPOSE, K_RESIZE, K_GATHER,
	K_OTHER		/* data movement costed by bytes */
};

struct onnx_op {
	const char	*op;
	shape_rule	*shape;
	enum onnx_kind	 kind;
	const char	*act;		/* K_ACT: the act column's value */
};

/* The table entry of op (default domain), or NULL when unknown. */
const struct onnx_op *onnx_op_find(const char *op);

/* The whole table, sorted by op name (for tests). */
const struct onnx_op *onnx_op_table(size_t *n);

#endif
