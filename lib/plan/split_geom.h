/*
 * Exact piece geometry for the candidates of pf-split: how one layer is
 * divided between GPU and PIM along the conv's rows (axis h, with halo
 * rows and per-piece padding; a transposed conv by its own halo rule),
 * along a 3-D conv's depth (axis d, the same rule as rows), along output channels or GEMM columns
 * (axis n, each device holding only its share of the weights) or along
 * GEMM rows (axis m, tokens), and which layers may be divided at all.
 *
 * Everything here is a pure function of struct layer values: no tables,
 * no I/O, so tests/unit/t_split_conv.c can compute a real convolution
 * whole and as these pieces and compare them element by element.  Piece
 * byte, MAC and GEMM counts are recomputed with layer_derive().
 */
#ifndef PF_SPLIT_GEOM_H
#define PF_SPLIT_GEOM_H

#include <stdint.h>

#include "layer.h"
#include "task.h"

enum split_dev { DEV_GPU, DEV_PIM };

/*
 * Returned instead of -1 when a piece's arithmetic overflows 64 bits (or
 * the 32-bit bound of the row-centre arithmetic): an error, never a
 * candidate that silently does not exist.
 */
#define SPLIT_TOOBIG (-2)

/*
 * One piece of a candidate: its geometry and where it sits in the whole
 * layer.  For axis h/m pieces, rows [row0, row0 + l.out_h) of the layer's
 * output are computed from input rows [in_row0, in_row0 + l.in_h) (axis m
 * on a gemm whose in_h is 1 divides the batch instead: then row0/in_row0
 * count batch entries).  For axis n pieces, output channels [oc0, oc0 +
 * l.out_c) come from input channels [ic0, ic0 + l.in_c) (ic0 is 0 unless
 * the conv is grouped, where whole groups are divided).
 */
struct piece {
	struct layer	l;
	int		chain;		/* index of the layer in a pipeline chain */
	int		step;		/* time step; pieces of a step overlap */
	enum split_dev	dev;
	int64_t		row0, in_row0;
	int64_t		oc0, ic0;
};

/*
 * Which layers may be divided or offloaded.  The defaults
 * (split_rules_published) are the published PIMFlow rules of
 * share/doc/pimflow-method.md §2; each field
 * is one token of pf-split -e (pf-split(1) documents them).
 */
struct split_rules {
	int	pim_dw;		/* depthwise convs have PIM candidates (1) */
	int	pim_grouped;	/* other grouped convs have PIM candidates (1) */
	int	pim_matmul;	/* activation x activation matmuls on PIM (0) */
	int	split_dw;	/* depthwise convs may be split (0) */
	int	split_grouped;	/* other grouped convs may be split (0) */
	int	split_dil;	/* dilated convs may be split along h (0) */
	int	split_stride3;	/* stride > 2 convs may be split along h (1) */
	int	pipe_stride;	/* pipeline strided convs without the published
				   restrictions (0) */
};

extern const struct split_rules split_rules_published;
/*
 * Set a rule from a token: "name" turns it on, "no-name" off.  Returns 0,
 * or -1 for an unknown name (no report).
 */
int split_rules_set(struct split_rules *r, const char *tok);
/* The token names, NULL-terminated, in struct order (for usage texts). */
extern const char *const split_rule_names[];

/* Nonzero if the conv is depthwise: one input and one output channel per group. */
int split_is_depthwise(const struct layer *l);
/* Nonzero if the layer may have whole-layer PIM candidates. */
int split_pim_eligible(const struct layer *l, const struct split_rules *r);
/*
 * Nonzero if the layer may be split along axis h (a conv's rows), n
 * (output channels or groups) or m (a gemm's or matmul's rows); the axis
 * table of task.h names them.
 */
int split_ok_h(const struct layer *l, const struct split_rules *r);
int split_ok_n(const struct layer *l, const struct split_rules *r);
int split_ok_m(const struct layer *l, const struct split_rules *r);
/* ... or along axis d (a forward 3-D conv's depth slices). */
int split_ok_d(const struct layer *l, const struct split_rules *r);

/*
 * Geometry of the piece of a conv computing output rows [o0, o1) (0 <=
 * o0 < o1 <= out_h): the input rows it reads, halo included, and its own
 * top and bottom padding (the part of the layer's padding it touches);
 * stride, dilation, kernel and the width are unchanged.  A transposed
 * conv (transposed = 1) has its own halo rule (split_geom.c, tr_rows):
 * the input rows that scatter into the piece's rows, its pads cropping
 * what they reach outside them.  For a gemm or
 * matmul, rows are tokens (in_h, or the batch when in_h is 1) and there is
 * no halo.  Stores the piece in *p and its first input row in *in0;
 * returns 0, -1 when the piece would read no input row at all (rows
 * lying wholly in padding), or SPLIT_TOOBIG when a count overflows.
 */
int split_rows(const struct layer *l, int64_t o0, int64_t o1,
    struct layer *p, int64_t *in0);

/*
 * The same along depth for a forward 3-D conv (axis d): output slices
 * [o0, o1) of out_d, their input slices from *in0 with the halo, and the
 * piece's own pad_front and pad_back.  Returns 0, -1, or SPLIT_TOOBIG.
 */
int split_depth(const struct layer *l, int64_t o0, int64_t o1,
    struct layer *p, int64_t *in0);

/* Number of output rows along axis h/m (out_h, or batch for 1-row gemm). */
int64_t split_nrows(const struct layer *l);

/*
 * The two pieces of a split at GPU share ratio (1..99 percent) along axis
 * h, n or m: pc[0] on the GPU, pc[1] on PIM, both at step 0.
 * Axis h: the GPU gets h_gpu = ceil(in_h * ratio / 100) input rows as
 * published and computes the output rows whose receptive-field centre
 * lies in them, so the rows equal the published InputSplit wherever that
 * one is exact; a transposed conv's GPU gets ceil(out_h * ratio / 100)
 * output rows.  Axis d (a forward 3-D conv): the rule of axis h along
 * depth (in_d, out_d, pad_front, kernel_d, dil_d, stride_d); row0 and
 * in_row0 then count depth slices.  Axis n: ceil(out_c * ratio / 100) output channels, or
 * whole groups of a grouped conv.  Axis m: ceil(rows * ratio / 100) rows.
 * *units is the GPU's share in rows/channels/groups (to drop ratios that
 * give the same pieces).  Returns 0, -1 if a piece would be empty, or
 * SPLIT_TOOBIG when the arithmetic does not fit (which the caller reports:
 * a candidate is never dropped because its numbers overflow).
 */
int split_by_h(const struct layer *l, int ratio, struct piece pc[2],
    int64_t *units);
int split_by_n(const struct layer *l, int ratio, struct piece pc[2],
    int64_t *units);
int split_by_m(const struct layer *l, int ratio, struct piece pc[2],
    int64_t *units);
int split_by_d(const struct layer *l, int ratio, struct piece pc[2],
    int64_t *units);

/*
 * Per axis of task.h, in enum task_axis order: its letter (as
 * task_axis_letter), which layers it may divide and how.
 */
struct split_axis_def {
	char	letter;
	/* Whether layer l may be split along the axis under rules r. */
	int	(*eligible)(const struct layer *l, const struct split_rules *r);
	/*
	 * The two pieces at GPU share ratio (1..99): 0, -1 when the axis
	 * cannot divide l at that ratio, SPLIT_TOOBIG;
	 * *units gets the GPU's share in rows or channels.
	 */
	int	(*divide)(const struct layer *l, int ratio, struct piece *pc,
		    int64_t *units);
};

extern const struct split_axis_def split_axes[TA_NAXIS];

#endif
