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

int rule_unary(struct model *m, const struct node *n);
int rule_bcast(struct model *m, const struct node *n);
int rule_conv(struct model *m, const struct node *n);
int rule_pool(struct model *m, const struct node *n);
int rule_gpool(struct model *m, const struct node *n);
int rule_gemm(struct model *m, const struct node *n);
int rule_matmul(struct model *m, const struct node *n);
int rule_reduce(struct model *m, const struct node *n);
int rule_topk(struct model *m, const struct node *n);
int rule_einsum(struct model *m, const struct node *n);
int rule_rnn(struct model *m, const struct node *n);

#endif
