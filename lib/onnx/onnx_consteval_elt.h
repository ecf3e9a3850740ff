/*
 * What the sources of the constant folder share (onnx_consteval.c: the
 * node's dispatch and the ops that move or reduce data;
 * onnx_consteval_elt.c: the elementwise ops).
 */
#ifndef PF_ONNX_CONSTEVAL_ELT_H
#define PF_ONNX_CONSTEVAL_ELT_H

#include "onnx_load.h"

/* Store v (integer when isint, else f) as element i of t. */
void consteval_put(struct tensor *t, int64_t i, int isint, int64_t v,
    double f);
/* Element k of a as element i of o. */
void consteval_putfrom(struct tensor *o, int64_t i, const struct tensor *a,
    int64_t k);
/* Report an integer overflow in folding n; returns -1. */
int consteval_overflow(const struct model *m, const struct node *n);

/* Whether op is an elementwise op the folder knows (Where among them). */
int consteval_elementwise_op(const char *op);
/*
 * Fold elementwise node n into o (values allocated): unary, binary,
 * Where, and the variadic Sum, Max, Min and Mean.  Returns 0, or -1
 * reported (an operand that does not broadcast, an integer overflow or
 * division by zero).
 */
int consteval_elementwise(struct model *m, const struct node *n,
    struct tensor *o);

#endif
