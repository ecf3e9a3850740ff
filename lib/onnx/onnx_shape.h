/*
 * The arithmetic the per-op shape rules (onnx_shape_ops.c,
 * onnx_shape_tensor.c) share: numpy broadcasting, convolution and pooling
 * window geometry, axis normalisation, and reading integer arguments that
 * are attributes in one opset and inputs in another.  A leaf module: it
 * calls no rule.
 *
 * Every dim product goes through lib/base/arith.h; every failure is reported
 * as "file: node NAME: what" and returned as -1.
 */
#ifndef PF_ONNX_SHAPE_H
#define PF_ONNX_SHAPE_H

#include <stdint.h>

#include "onnx_load.h"

/*
 * A shape rule (the op table's, onnx_ops.h): sets every output of node n
 * from its inputs, or reports and returns -1.
 */
typedef int shape_rule(struct model *m, const struct node *n);

enum autopad { AP_NOTSET, AP_SAME_UPPER, AP_SAME_LOWER, AP_VALID };

/* Window geometry of a conv or pool over its spatial axes. */
struct window {
	int	nsp;			/* spatial axes (1..3) */
	int64_t	k[3], s[3], d[3];	/* kernel, stride, dilation */
	int64_t	pb[3], pe[3];		/* padding at begin and end */
	int64_t	out[3];			/* output size */
};

/*
 * numpy broadcasting of shapes a (rank ra) and b (rank rb) into out
 * (rank *ro).  Returns -1 (no report) when a dim pair is neither equal
 * nor 1.
 */
int shape_broadcast(const int64_t *a, int ra, const int64_t *b, int rb,
    int64_t *out, int *ro);

/*
 * One axis of a conv or pool: output size for input size in, kernel k,
 * stride s, dilation d, pads *pb and *pe (rewritten for auto_pad), ceil_mode
 * ceil; transposed for ConvTranspose (outpad = output_padding, want =
 * requested output size or -1).  Returns -1 (no report) when the window
 * does not fit or a value is out of range.
 */
int window_axis(int64_t in, int64_t k, int64_t s, int64_t d, int64_t *pb,
    int64_t *pe, enum autopad ap, int ceil, int transposed, int64_t outpad,
    int64_t want, int64_t *out);

/*
 * Window geometry of Conv, ConvTranspose, MaxPool, AveragePool or LpPool
 * node n over input x, the kernel given by the weight's trailing dims
 * (kdims, NULL for pools: kernel_shape).  Reports and returns -1.
 */
int window_geom(const struct model *m, const struct node *n,
    const struct tensor *x, const int64_t *kdims, struct window *w);

/* Normalise axis a of a rank-r tensor; -1 (reported) if out of range. */
int shape_axis(const struct model *m, const struct node *n, int64_t a,
    int r, int *ax);

/*
 * An integer list argument: input number in (when present; its values
 * must be known) or else the attribute attr (NULL: none).  Stores up to
 * max values in v and their count in *nv; *present says whether either
 * was given.  Reports and returns -1 when the input's values are unknown
 * or too many.
 */
int shape_node_ints(const struct model *m, const struct node *n, const char *attr,
    int in, int64_t *v, int max, int *nv, int *present);

/*
 * Per-axis start, step and length of Slice node n over its input (rank
 * entries each; shared with the constant folder).  Returns -1 reported.
 */
int shape_tensor_slice_range(const struct model *m, const struct node *n, int64_t *start,
    int64_t *step, int64_t *len);

/* Input i of n, which must be present: NULL (reported) if it is not. */
const struct tensor *shape_need(const struct model *m, const struct node *n,
    size_t i);

/* Set output i of n to the given type and shape (for the rules). */
void shape_setout(struct model *m, const struct node *n, size_t i,
    int32_t dtype, int rank, const int64_t *dims);

#endif
