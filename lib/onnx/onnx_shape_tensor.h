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

int shape_tensor_concat(struct model *m, const struct node *n);
int shape_tensor_split(struct model *m, const struct node *n);
int shape_tensor_slice(struct model *m, const struct node *n);
int shape_tensor_gather(struct model *m, const struct node *n);
int shape_tensor_reshape(struct model *m, const struct node *n);
int shape_tensor_flatten(struct model *m, const struct node *n);
int shape_tensor_transpose(struct model *m, const struct node *n);
int shape_tensor_squeeze(struct model *m, const struct node *n);
int shape_tensor_shapeop(struct model *m, const struct node *n);
int shape_tensor_constant(struct model *m, const struct node *n);
int shape_tensor_cofshape(struct model *m, const struct node *n);
int shape_tensor_expand(struct model *m, const struct node *n);
int shape_tensor_range(struct model *m, const struct node *n);
int shape_tensor_pad(struct model *m, const struct node *n);
int shape_tensor_resize(struct model *m, const struct node *n);
int shape_tensor_space(struct model *m, const struct node *n);
int shape_tensor_scatter(struct model *m, const struct node *n);

#endif
