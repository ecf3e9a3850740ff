/*
 * Shape rules of the ops that move, select or describe data rather than
 * compute on it (Concat, Split, Slice, Gather, Reshape, Flatten,
 * Transpose, Squeeze/Unsqueeze, Shape/Size, Constant, ConstantOfShape,
 * Expand/Tile, Range, Pad, Resize/Upsample, DepthToSpace/SpaceToDepth,
 * ScatterND/ScatterElements), for the op table of onnx_ops.c.
 */
#ifndef PF_ONNX_SHAPE_TENSOR_H
#define PF_ONNX_SHAPE_TENSOR_H

#include "onnx_shape.h"

/* joined, split, cut or picked: Concat, Split, Slice, Gather */
shape_rule shape_tensor_concat, shape_tensor_split, shape_tensor_slice,
    shape_tensor_gather;
/* dims rearranged: Reshape, Flatten, Transpose, Squeeze and Unsqueeze */
shape_rule shape_tensor_reshape, shape_tensor_flatten, shape_tensor_transpose,
    shape_tensor_squeeze;
/* shapes and constants: Shape and Size, Constant, ConstantOfShape, Range */
shape_rule shape_tensor_shapeop, shape_tensor_constant, shape_tensor_cofshape,
    shape_tensor_range;
/* grown or moved: Expand and Tile, Pad, Resize, DepthToSpace, Scatter* */
shape_rule shape_tensor_expand, shape_tensor_pad, shape_tensor_resize,
    shape_tensor_space, shape_tensor_scatter, shape_tensor_nonzero,
    shape_tensor_gathernd;

#endif
