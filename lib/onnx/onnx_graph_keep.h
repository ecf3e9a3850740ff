/*
 * The -k rule of shape inference (onnx_graph_keep.c), for the inference
 * driver of onnx_graph.c.
 */
#ifndef PF_ONNX_GRAPH_KEEP_H
#define PF_ONNX_GRAPH_KEEP_H

#include "onnx_load.h"

/*
 * Output shapes of unknown op n kept with -k: the declared ones where the
 * model has them; an output nothing reads is taken as a scalar; one that
 * says it reduces by the ONNX Reduce rule; the others by what their
 * consumers fix or like n's one data input.  A warning says what was
 * assumed.  Returns 0, or -1 reported.
 */
int graph_keepshape(struct model *m, const struct node *n);

#endif
