/*
 * Whole-graph passes of onnx2layers before emission: the topological
 * order of the nodes, the shapes of the graph inputs (declared, or given
 * with -i), and the inference pass that runs every node's shape rule and
 * constant folding in that order.
 */
#ifndef PF_ONNX_GRAPH_H
#define PF_ONNX_GRAPH_H

#include "onnx_load.h"

/* One -i option: a graph input (name NULL: the only data input) and dims. */
struct input_shape {
	const char	*name;
	int		 rank;
	int64_t		 dims[ONNX_MAXRANK];
};

/*
 * Parse "name=1x3x224x224" or "1x3x224x224" into *is; on success the '='
 * of s becomes a NUL and is->name points into s, which must outlive it.
 * Returns -1 (no report, s unchanged) when malformed or a dim is not
 * positive.
 */
int graph_parse_shape(char *s, struct input_shape *is);

/*
 * Order the nodes topologically into m->order: file order when it already
 * is one, else Kahn's algorithm with ties broken by file order.  A cycle
 * is reported naming a node on it; returns -1.
 */
int graph_order(struct model *m);

/*
 * Decide which graph inputs are weights (export_params=False: used only
 * as a Conv/Gemm/MatMul/normalisation weight or an embedding table), apply
 * the -i shapes and check that every used input has a known, positive
 * shape.  Reports and returns -1.
 */
int graph_inputs(struct model *m, const struct input_shape *is, int nis);

/*
 * Infer every node's output shapes and fold constant sub-graphs, in
 * topological order (graph_order first).  keep: unknown ops use their
 * declared output shape (-k).  Reports and returns -1.
 */
int graph_infer(struct model *m, int keep);

#endif
