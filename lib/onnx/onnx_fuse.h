/*
 * Fusion patterns that span several ONNX nodes, marked before emission:
 * Sigmoid(x)*x (silu), HardSigmoid(x)*x with alpha 1/6 (hardswish),
 * x*0.5*(1+erf(x/sqrt2)) in either order (gelu), GELU's tanh form,
 * x*sigmoid(1.702x) (gelu), x*relu6(x+3)/6 (hardswish), the decomposed
 * LayerNorm (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, optional
 * Mul and Add by constants) and a zero constant Pad of spatial axes whose
 * only consumer is a Conv (folded into the Conv's pads).  The last node of
 * a pattern gets pat/patin/patname, the others skip; a folded Pad is
 * recorded in its Conv's padfrom.  Also the consumer lists of tensors.
 */
#ifndef PF_ONNX_FUSE_H
#define PF_ONNX_FUSE_H

#include "onnx_load.h"

enum pat { PAT_NONE, PAT_GELU, PAT_SILU, PAT_HSWISH, PAT_NORM };

struct fuse {
	struct model	*m;
	int		**users;	/* distinct consumer nodes per tensor */
	int		*nusers;
	int		*final;		/* skipped node -> its pattern's last */
};

/* Build the consumer lists and mark the patterns of m (graph_infer done). */
void fuse_init(struct fuse *f, struct model *m);
void fuse_free(struct fuse *f);

/* The only consumer node of tensor ti, or -1 (none, several, output). */
int fuse_only(const struct fuse *f, int ti);
/*
 * Consumers of tensor ti counting a pattern as one node (its last); a
 * graph output counts as more than one, so it is never fused away.
 */
int fuse_users(const struct fuse *f, int ti);

#endif
