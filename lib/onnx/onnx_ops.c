/*
 * The op table, sorted by name for bsearch(3).  Ops that only compute
 * shapes (Shape, Size, Constant, ConstantOfShape, Range) have outputs
 * that are constant and never reach the emitter; they are K_ELT like the
 * rest of the arithmetic that constant folding evaluates.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx_ops.h"
#include "onnx_shape_ops.h"
#include "onnx_shape_tensor.h"

static const struct onnx_op ops[] = {
	{ "Abs", rule_unary, K_ELT, NULL },
	{ "Acos", rule_unary, K_ELT, NULL },
	{ "Add", rule_bcast, K_ELT, NULL },
	{ "And", rule_bcast, K_ELT, NULL },
	{ "ArgMax", rule_reduce, K_REDUCE, NULL },
	{ "ArgMin", rule_reduce, K_REDUCE, NULL },
	{ "Asin", rule_unary, K_ELT, NULL },
	{ "Atan", rule_unary, K_ELT, NULL },
	{ "AveragePool", rule_pool, K_POOL, NULL },
	{ "BatchNormalization", rule_unary, K_BN, NULL },
	{ "Cast", rule_unary, K_VIEW, NULL },
	{ "Ceil", rule_unary, K_ELT, NULL },
	{ "Celu", rule_unary, K_ACT, "celu" },
	{ "Clip", rule_unary, K_ACT, "clip" },
	{ "Concat", rule_concat, K_CONCAT, NULL },
	{ "Constant", rule_constant, K_ELT, NULL },
	{ "ConstantOfShape", rule_cofshape, K_ELT, NULL },
	{ "Conv", rule_conv, K_CONV, NULL },
	{ "ConvTranspose", rule_conv, K_CONV, NULL },
	{ "Cos", rule_unary, K_ELT, NULL },
	{ "CumSum", rule_unary, K_OTHER, NULL },
	{ "DepthToSpace", rule_space, K_TRANSPOSE, NULL },
	{ "Div", rule_bcast, K_ELT, NULL },
	{ "Dropout", rule_unary, K_VIEW, NULL },
	{ "Einsum", rule_einsum, K_EINSUM, NULL },
	{ "Elu", rule_unary, K_ACT, "elu" },
	{ "Equal", rule_bcast, K_ELT, NULL },
	{ "Erf", rule_unary, K_ACT, "erf" },
	{ "Exp", rule_unary, K_ELT, NULL },
	{ "Expand", rule_expand, K_OTHER, NULL },
	{ "Flatten", rule_flatten, K_VIEW, NULL },
	{ "Floor", rule_unary, K_ELT, NULL },
	{ "GRU", rule_rnn, K_RNN, NULL },
	{ "Gather", rule_gather, K_GATHER, NULL },
	{ "GatherElements", rule_gather, K_OTHER, NULL },
	{ "Gelu", rule_unary, K_ACT, "gelu" },
	{ "Gemm", rule_gemm, K_GEMM, NULL },
	{ "GlobalAveragePool", rule_gpool, K_GPOOL, NULL },
	{ "GlobalLpPool", rule_gpool, K_GPOOL, NULL },
	{ "GlobalMaxPool", rule_gpool, K_GPOOL, NULL },
	{ "Greater", rule_bcast, K_ELT, NULL },
	{ "GreaterOrEqual", rule_bcast, K_ELT, NULL },
	{ "GroupNormalization", rule_unary, K_NORM, NULL },
	{ "HardSigmoid", rule_unary, K_ACT, "hardsigmoid" },
	{ "HardSwish", rule_unary, K_ACT, "hardswish" },
	{ "Hardmax", rule_unary, K_SOFTMAX, NULL },
	{ "Identity", rule_unary, K_VIEW, NULL },
	{ "InstanceNormalization", rule_unary, K_NORM, NULL },
	{ "IsInf", rule_unary, K_ELT, NULL },
	{ "IsNaN", rule_unary, K_ELT, NULL },
	{ "LRN", rule_unary, K_NORM, NULL },
	{ "LSTM", rule_rnn, K_RNN, NULL },
	{ "LayerNormalization", rule_unary, K_NORM, NULL },
	{ "LeakyRelu", rule_unary, K_ACT, "leakyrelu" },
	{ "Less", rule_bcast, K_ELT, NULL },
	{ "LessOrEqual", rule_bcast, K_ELT, NULL },
	{ "Log", rule_unary, K_ELT, NULL },
	{ "LogSoftmax", rule_unary, K_SOFTMAX, NULL },
	{ "LpNormalization", rule_unary, K_NORM, NULL },
	{ "LpPool", rule_pool, K_POOL, NULL },
	{ "MatMul", rule_matmul, K_GEMM, NULL },
	{ "Max", rule_bcast, K_ELT, NULL },
	{ "MaxPool", rule_pool, K_POOL, NULL },
	{ "Mean", rule_bcast, K_ELT, NULL },
	{ "MeanVarianceNormalization", rule_unary, K_NORM, NULL },
	{ "Min", rule_bcast, K_ELT, NULL },
	{ "Mish", rule_unary, K_ACT, "mish" },
	{ "Mod", rule_bcast, K_ELT, NULL },
	{ "Mul", rule_bcast, K_ELT, NULL },
	{ "Neg", rule_unary, K_ELT, NULL },
	{ "Not", rule_unary, K_ELT, NULL },
	{ "Or", rule_bcast, K_ELT, NULL },
	{ "PRelu", rule_unary, K_ACT, "prelu" },
	{ "Pad", rule_pad, K_OTHER, NULL },
	{ "Pow", rule_bcast, K_ELT, NULL },
	{ "RNN", rule_rnn, K_RNN, NULL },
	{ "Range", rule_range, K_ELT, NULL },
	{ "Reciprocal", rule_unary, K_ELT, NULL },
	{ "ReduceLogSum", rule_reduce, K_REDUCE, NULL },
	{ "ReduceLogSumExp", rule_reduce, K_REDUCE, NULL },
	{ "ReduceMax", rule_reduce, K_REDUCE, NULL },
	{ "ReduceMean", rule_reduce, K_REDUCE, NULL },
	{ "ReduceMin", rule_reduce, K_REDUCE, NULL },
	{ "ReduceProd", rule_reduce, K_REDUCE, NULL },
	{ "ReduceSum", rule_reduce, K_REDUCE, NULL },
	{ "ReduceSumSquare", rule_reduce, K_REDUCE, NULL },
	{ "Relu", rule_unary, K_ACT, "relu" },
	{ "Reshape", rule_reshape, K_VIEW, NULL },
	{ "Resize", rule_resize, K_RESIZE, NULL },
	{ "Round", rule_unary, K_ELT, NULL },
	{ "ScatterElements", rule_scatter, K_OTHER, NULL },
	{ "ScatterND", rule_scatter, K_OTHER, NULL },
	{ "Selu", rule_unary, K_ACT, "selu" },
	{ "Shape", rule_shapeop, K_ELT, NULL },
	{ "Shrink", rule_unary, K_ELT, NULL },
	{ "Sigmoid", rule_unary, K_ACT, "sigmoid" },
	{ "Sign", rule_unary, K_ELT, NULL },
	{ "Sin", rule_unary, K_ELT, NULL },
	{ "Size", rule_shapeop, K_ELT, NULL },
	{ "Slice", rule_slice, K_OTHER, NULL },
	{ "Softmax", rule_unary, K_SOFTMAX, NULL },
	{ "Softplus", rule_unary, K_ACT, "softplus" },
	{ "Softsign", rule_unary, K_ACT, "softsign" },
	{ "SpaceToDepth", rule_space, K_TRANSPOSE, NULL },
	{ "Split", rule_split, K_OTHER, NULL },
	{ "Sqrt", rule_unary, K_ELT, NULL },
	{ "Squeeze", rule_squeeze, K_VIEW, NULL },
	{ "Sub", rule_bcast, K_ELT, NULL },
	{ "Sum", rule_bcast, K_ELT, NULL },
	{ "Tan", rule_unary, K_ELT, NULL },
	{ "Tanh", rule_unary, K_ACT, "tanh" },
	{ "ThresholdedRelu", rule_unary, K_ACT, "thresholdedrelu" },
	{ "Tile", rule_expand, K_OTHER, NULL },
	{ "TopK", rule_topk, K_REDUCE, NULL },
	{ "Transpose", rule_transpose, K_TRANSPOSE, NULL },
	{ "Trilu", rule_unary, K_OTHER, NULL },
	{ "Unsqueeze", rule_squeeze, K_VIEW, NULL },
	{ "Upsample", rule_resize, K_RESIZE, NULL },
	{ "Where", rule_bcast, K_ELT, NULL },
	{ "Xor", rule_bcast, K_ELT, NULL },
};

static int
opcmp(const void *key, const void *e)
{
	return strcmp(key, ((const struct onnx_op *)e)->op);
}

const struct onnx_op *
onnx_op_find(const char *op)
{
	return bsearch(op, ops, sizeof(ops) / sizeof(ops[0]), sizeof(ops[0]),
	    opcmp);
}

const struct onnx_op *
onnx_op_table(size_t *n)
{
	*n = sizeof(ops) / sizeof(ops[0]);
	return ops;
}
