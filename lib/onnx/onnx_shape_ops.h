/*
 * Shape rules of the ops that compute rather than move data: elementwise
 * (unary and broadcasting), Conv/ConvTranspose, pooling, Gemm, MatMul,
 * Einsum as a matrix product, LSTM/GRU/RNN,
 * reductions and TopK, for the op table of onnx_ops.c.
 */
#ifndef PF_ONNX_SHAPE_OPS_H
#define PF_ONNX_SHAPE_OPS_H

#include "onnx_shape.h"

/* elementwise: the first input's shape; all inputs broadcast */
shape_rule shape_ops_unary, shape_ops_bcast;
/* windows: Conv and ConvTranspose, pools, global pools */
shape_rule shape_ops_conv, shape_ops_pool, shape_ops_gpool;
/* products: Gemm, MatMul, Einsum; LSTM, GRU and RNN */
shape_rule shape_ops_gemm, shape_ops_matmul, shape_ops_einsum, shape_ops_rnn;
/* reductions (ArgMax and ArgMin among them), TopK */
shape_rule shape_ops_reduce, shape_ops_topk;

#endif
