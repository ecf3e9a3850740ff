/*
 * Shape rules of the ops that move, select or describe data rather than
 * compute on it (Concat, Split, Slice, Gather, Reshape, Flatten,
 * Transpose, Squeeze/Unsqueeze, Shape/Size, Constant, ConstantOfShape,
 * Expand/Tile, Range, Pad, Resize/Upsample, DepthToSpace/SpaceToDepth,
 * ScatterND/ScatterElements),
 * for the op table of onnx_ops.c.  Each sets the outputs of node n
 * from its inputs, or reports and returns -1.
 */
#ifndef PF_ONNX_SHAPE_TENSOR_H
#define PF_ONNX_SHAPE_TENSOR_H

#include "onnx_load.h"

int rule_concat(struct model *m, const struct node *n);
int rule_split(struct model *m, const struct node *n);
int rule_slice(struct model *m, const struct node *n);
int rule_gather(struct model *m, const struct node *n);
int rule_reshape(struct model *m, const struct node *n);
int rule_flatten(struct model *m, const struct node *n);
int rule_transpose(struct model *m, const struct node *n);
int rule_squeeze(struct model *m, const struct node *n);
int rule_shapeop(struct model *m, const struct node *n);
int rule_constant(struct model *m, const struct node *n);
int rule_cofshape(struct model *m, const struct node *n);
int rule_expand(struct model *m, const struct node *n);
int rule_range(struct model *m, const struct node *n);
int rule_pad(struct model *m, const struct node *n);
int rule_resize(struct model *m, const struct node *n);
int rule_space(struct model *m, const struct node *n);
int rule_scatter(struct model *m, const struct node *n);

#endif
