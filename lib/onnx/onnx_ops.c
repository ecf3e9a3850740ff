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
	{ "Abs", shape_ops_unary, K_ELT, NULL },
	{ "Acos", shape_ops_unary, K_ELT, NULL },
	{ "Add", shape_ops_bcast, K_ELT, NULL },
	{ "And", shape_ops_bcast, K_ELT, NULL },
	{ "ArgMax", shape_ops_reduce, K_REDUCE, NULL },
	{ "ArgMin", shape_ops_reduce, K_REDUCE, NULL },
	{ "Asin", shape_ops_unary, K_ELT, NULL },
	{ "Atan", shape_ops_unary, K_ELT, NULL },
	{ "AveragePool", shape_ops_pool, K_POOL, NULL },
	{ "BatchNormalization", shape_ops_unary, K_BN, NULL },
	{ "Cast", shape_ops_unary, K_VIEW, NULL },
	{ "Ceil", shape_ops_unary, K_ELT, NULL },
	{ "Celu", shape_ops_unary, K_ACT, "celu" },
	{ "Clip", shape_ops_unary, K_ACT, "clip" },
	{ "Concat", shape_tensor_concat, K_CONCAT, NULL },
	{ "Constant", shape_tensor_constant, K_ELT, NULL },
	{ "ConstantOfShape", shape_tensor_cofshape, K_ELT, NULL },
	{ "Conv", shape_ops_conv, K_CONV, NULL },
	{ "ConvTranspose", shape_ops_conv, K_CONV, NULL },
	{ "Cos", shape_ops_unary, K_ELT, NULL },
	{ "CumSum", shape_ops_unary, K_OTHER, NULL },
	{ "DepthToSpace", shape_tensor_space, K_TRANSPOSE, NULL },
	{ "DequantizeLinear", shape_ops_unary, K_VIEW, NULL },
	{ "Div", shape_ops_bcast, K_ELT, NULL },
	{ "Dropout", shape_ops_unary, K_VIEW, NULL },
	{ "Einsum", shape_ops_einsum, K_EINSUM, NULL },
	{ "Elu", shape_ops_unary, K_ACT, "elu" },
	{ "Equal", shape_ops_bcast, K_ELT, NULL },
	{ "Erf", shape_ops_unary, K_ACT, "erf" },
	{ "Exp", shape_ops_unary, K_ELT, NULL },
	{ "Expand", shape_tensor_expand, K_OTHER, NULL },
	{ "Flatten", shape_tensor_flatten, K_VIEW, NULL },
	{ "Floor", shape_ops_unary, K_ELT, NULL },
	{ "GRU", shape_ops_rnn, K_RNN, NULL },
	{ "Gather", shape_tensor_gather, K_GATHER, NULL },
	{ "GatherElements", shape_tensor_gather, K_OTHER, NULL },
	{ "GatherND", shape_tensor_gathernd, K_OTHER, NULL },
	{ "Gelu", shape_ops_unary, K_ACT, "gelu" },
	{ "Gemm", shape_ops_gemm, K_GEMM, NULL },
	{ "GlobalAveragePool", shape_ops_gpool, K_GPOOL, NULL },
	{ "GlobalLpPool", shape_ops_gpool, K_GPOOL, NULL },
	{ "GlobalMaxPool", shape_ops_gpool, K_GPOOL, NULL },
	{ "Greater", shape_ops_bcast, K_ELT, NULL },
	{ "GreaterOrEqual", shape_ops_bcast, K_ELT, NULL },
	{ "GroupNormalization", shape_ops_unary, K_NORM, NULL },
	{ "HardSigmoid", shape_ops_unary, K_ACT, "hardsigmoid" },
	{ "HardSwish", shape_ops_unary, K_ACT, "hardswish" },
	{ "Hardmax", shape_ops_unary, K_SOFTMAX, NULL },
	{ "Identity", shape_ops_unary, K_VIEW, NULL },
	{ "InstanceNormalization", shape_ops_unary, K_NORM, NULL },
	{ "IsInf", shape_ops_unary, K_ELT, NULL },
	{ "IsNaN", shape_ops_unary, K_ELT, NULL },
	{ "LRN", shape_ops_unary, K_NORM, NULL },
	{ "LSTM", shape_ops_rnn, K_RNN, NULL },
	{ "LayerNormalization", shape_ops_unary, K_NORM, NULL },
	{ "LeakyRelu", shape_ops_unary, K_ACT, "leakyrelu" },
	{ "Less", shape_ops_bcast, K_ELT, NULL },
	{ "LessOrEqual", shape_ops_bcast, K_ELT, NULL },
	{ "Log", shape_ops_unary, K_ELT, NULL },
	{ "LogSoftmax", shape_ops_unary, K_SOFTMAX, NULL },
	{ "LpNormalization", shape_ops_unary, K_NORM, NULL },
	{ "LpPool", shape_ops_pool, K_POOL, NULL },
	{ "MatMul", shape_ops_matmul, K_GEMM, NULL },
	{ "Max", shape_ops_bcast, K_ELT, NULL },
	{ "MaxPool", shape_ops_pool, K_POOL, NULL },
	{ "Mean", shape_ops_bcast, K_ELT, NULL },
	{ "MeanVarianceNormalization", shape_ops_unary, K_NORM, NULL },
	{ "Min", shape_ops_bcast, K_ELT, NULL },
	{ "Mish", shape_ops_unary, K_ACT, "mish" },
	{ "Mod", shape_ops_bcast, K_ELT, NULL },
	{ "Mul", shape_ops_bcast, K_ELT, NULL },
	{ "Neg", shape_ops_unary, K_ELT, NULL },
	{ "NonZero", shape_tensor_nonzero, K_OTHER, NULL },
	{ "Not", shape_ops_unary, K_ELT, NULL },
	{ "Or", shape_ops_bcast, K_ELT, NULL },
	{ "PRelu", shape_ops_unary, K_ACT, "prelu" },
	{ "Pad", shape_tensor_pad, K_OTHER, NULL },
	{ "Pow", shape_ops_bcast, K_ELT, NULL },
	{ "QuantizeLinear", shape_ops_unary, K_VIEW, NULL },
	{ "RNN", shape_ops_rnn, K_RNN, NULL },
	{ "Range", shape_tensor_range, K_ELT, NULL },
	{ "Reciprocal", shape_ops_unary, K_ELT, NULL },
	{ "ReduceL1", shape_ops_reduce, K_REDUCE, NULL },
	{ "ReduceL2", shape_ops_reduce, K_REDUCE, NULL },
	{ "ReduceLogSum", shape_ops_reduce, K_REDUCE, NULL },
	{ "ReduceLogSumExp", shape_ops_reduce, K_REDUCE, NULL },
	{ "ReduceMax", shape_ops_reduce, K_REDUCE, NULL },
	{ "ReduceMean", shape_ops_reduce, K_REDUCE, NULL },
	{ "ReduceMin", shape_ops_reduce, K_REDUCE, NULL },
	{ "ReduceProd", shape_ops_reduce, K_REDUCE, NULL },
	{ "ReduceSum", shape_ops_reduce, K_REDUCE, NULL },
	{ "ReduceSumSquare", shape_ops_reduce, K_REDUCE, NULL },
	{ "Relu", shape_ops_unary, K_ACT, "relu" },
	{ "Reshape", shape_tensor_reshape, K_VIEW, NULL },
	{ "Resize", shape_tensor_resize, K_RESIZE, NULL },
	{ "Round", shape_ops_unary, K_ELT, NULL },
	{ "ScatterElements", shape_tensor_scatter, K_OTHER, NULL },
	{ "ScatterND", shape_tensor_scatter, K_OTHER, NULL },
	{ "Selu", shape_ops_unary, K_ACT, "selu" },
	{ "Shape", shape_tensor_shapeop, K_ELT, NULL },
	{ "Shrink", shape_ops_unary, K_ELT, NULL },
	{ "Sigmoid", shape_ops_unary, K_ACT, "sigmoid" },
	{ "Sign", shape_ops_unary, K_ELT, NULL },
	{ "Sin", shape_ops_unary, K_ELT, NULL },
	{ "Size", shape_tensor_shapeop, K_ELT, NULL },
	{ "Slice", shape_tensor_slice, K_OTHER, NULL },
	{ "Softmax", shape_ops_unary, K_SOFTMAX, NULL },
	{ "Softplus", shape_ops_unary, K_ACT, "softplus" },
	{ "Softsign", shape_ops_unary, K_ACT, "softsign" },
	{ "SpaceToDepth", shape_tensor_space, K_TRANSPOSE, NULL },
	{ "Split", shape_tensor_split, K_OTHER, NULL },
	{ "Sqrt", shape_ops_unary, K_ELT, NULL },
	{ "Squeeze", shape_tensor_squeeze, K_VIEW, NULL },
	{ "Sub", shape_ops_bcast, K_ELT, NULL },
	{ "Sum", shape_ops_bcast, K_ELT, NULL },
	{ "Tan", shape_ops_unary, K_ELT, NULL },
	{ "Tanh", shape_ops_unary, K_ACT, "tanh" },
	{ "ThresholdedRelu", shape_ops_unary, K_ACT, "thresholdedrelu" },
	{ "Tile", shape_tensor_expand, K_OTHER, NULL },
	{ "TopK", shape_ops_topk, K_REDUCE, NULL },
	{ "Transpose", shape_tensor_transpose, K_TRANSPOSE, NULL },
	{ "Trilu", shape_ops_unary, K_OTHER, NULL },
	{ "Unsqueeze", shape_tensor_squeeze, K_VIEW, NULL },
	{ "Upsample", shape_tensor_resize, K_RESIZE, NULL },
	{ "Where", shape_ops_bcast, K_ELT, NULL },
	{ "Xor", shape_ops_bcast, K_ELT, NULL },
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
