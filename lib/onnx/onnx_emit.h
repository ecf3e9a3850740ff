/*
 * Layer emission for onnx2layers: turns an inferred ONNX graph into the
 * rows of layers.csv (pf-formats(7)).  Shape-only nodes are resolved,
 * not emitted; BatchNormalization after a Conv is folded into it; a
 * zero-constant Pad before a Conv becomes the Conv's padding; a constant
 * bias Add after a weight MatMul joins the gemm; an activation whose
 * input has no other consumer is fused into its producer's act column,
 * including the Sigmoid*x (silu), HardSigmoid*x (hardswish) and
 * x*0.5*(1+erf(x/sqrt2)) (gelu) patterns, GELU's tanh and sigmoid
 * forms and HardSwish written out (onnx_fuse.h); the decomposed LayerNorm
 * (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div[, Mul, Add]) is one
 * norm row.  onnx2layers(1) documents every rule.
 */
#ifndef PF_ONNX_EMIT_H
#define PF_ONNX_EMIT_H

#include "csvio.h"
#include "onnx_load.h"

/*
 * Emit the layers of m (after graph_infer) into t, a table that gets the
 * layers.csv columns; dtype names the element type of activations and
 * float weights.  Reports and returns -1 (e.g. a count that overflows).
 */
int emit_layers(struct model *m, const char *dtype, struct table *t);

#endif
