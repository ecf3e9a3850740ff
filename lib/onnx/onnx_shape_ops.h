/*
 * Shape rules of the ops that compute rather than move data: elementwise
 * (unary and broadcasting), Conv/ConvTranspose, pooling, Gemm, MatMul,
 * Einsum as a matrix product, LSTM/GRU/RNN,
 * reductions and TopK, for the op table of onnx_ops.c.  Each sets the
 * outputs of node n from its inputs, or reports and returns -1.
 */
#ifndef PF_ONNX_SHAPE_OPS_H
#define PF_ONNX_SHAPE_OPS_H

#include "onnx_load.h"

int shape_ops_unary(struct model *m, const struct node *n);
int shape_ops_bcast(struct model *m, const struct node *n);
int shape_ops_conv(struct model *m, const struct node *n);
int shape_ops_pool(struct model *m, const struct node *n);
int shape_ops_gpool(struct model *m, const struct node *n);
int shape_ops_gemm(struct model *m, const struct node *n);
int shape_ops_matmul(struct model *m, const struct node *n);
int shape_ops_reduce(struct model *m, const struct node *n);
int shape_ops_topk(struct model *m, const struct node *n);
int shape_ops_einsum(struct model *m, const struct node *n);
int shape_ops_rnn(struct model *m, const struct node *n);

#endif
