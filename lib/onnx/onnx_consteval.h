/*
 * Constant folding of the small sub-graphs exporters leave to compute
 * shapes: Shape, Gather, Slice, Concat, Cast, Reshape, Squeeze/Unsqueeze,
 * arithmetic, comparisons, Where, Range, ConstantOfShape, Expand and
 * friends, evaluated on integer (int64) or floating (double) values.  A
 * PyTorch asymmetric F.pad, for one, reaches its Pad through about fifteen
 * such nodes.  Only small tensors get values (onnx_keepval);
 * large constants (weights) keep their dims only.
 */
#ifndef PF_ONNX_CONSTEVAL_H
#define PF_ONNX_CONSTEVAL_H

#include "onnx_load.h"

/*
 * Compute the values of the outputs of node n, whose shapes shape_infer
 * has set and which are constant.  Nothing is done when an input lacks
 * values, the op is not foldable or an output is too large: later rules
 * that need the values report it.  Returns 0, or -1 reported (an index
 * out of range, a division by zero, integer overflow).
 */
int consteval_node(struct model *m, const struct node *n);

#endif
