/*
 * The layer/piece geometry shared by layers.csv and tasks.csv, and its
 * mapping to and from CSV columns by name.  Five of the six tools read or
 * write these columns; none parses them on its own.
 */
#ifndef PF_LAYER_H
#define PF_LAYER_H

#include <stdint.h>

#include "csvio.h"

enum layer_op {
	OP_CONV, OP_GEMM, OP_MATMUL, OP_POOL, OP_ELTWISE, OP_ACT, OP_SOFTMAX,
	OP_NORM, OP_REDUCE, OP_CONCAT, OP_TRANSPOSE, OP_RESIZE, OP_EMBED,
	OP_OTHER, OP_NOPS
};

/* Geometry of one layer, or of one piece of a layer (pf-split). */
struct layer {
	int64_t		id;		/* "layer" column */
	enum layer_op	op;
	int64_t		batch, in_c, in_h, in_w;
	int64_t		out_c, out_h, out_w;
	int64_t		kernel_h, kernel_w, stride_h, stride_w;
	int64_t		pad_top, pad_left, pad_bottom, pad_right;
	int64_t		dil_h, dil_w, groups;
	int64_t		gemm_m, gemm_n, gemm_k, gemm_batch;
	int64_t		macs, in_bytes, weight_bytes, out_bytes;
	char		act[24];	/* fused activation, "none" if any */
	char		dtype[12];	/* element type, "fp16" by default */
	/*
	 * Optional "resident" column: the operand that stays in memory
	 * ("weights", "kv": a KV cache) or "" (onnx2layers(1)).
	 */
	char		resident[12];
	/*
	 * Optional "kv_seq" column of a kv matmul: which GEMM dimension runs
	 * along the context, 'n' (q.K^T) or 'k' (p.V); 0 when empty.
	 */
	char		kv_seq;
	/*
	 * Optional "transposed" column: 1 on the conv row of a ConvTranspose,
	 * whose GEMM view is col2im's (onnx2layers(1)); 0 or absent else.
	 */
	int		transposed;
	/*
	 * Optional depth columns of 3-D conv and pool rows (in_d, out_d,
	 * kernel_d, stride_d, pad_front, pad_back, dil_d); 2-D rows and
	 * tables without them have D = 1, no depth padding.
	 */
	int64_t		in_d, out_d, kernel_d, stride_d, pad_front, pad_back;
	int64_t		dil_d;
};

/* Column indices of the geometry columns in one table. */
struct layer_cols {
	long	id, op;
	long	batch, in_c, in_h, in_w, out_c, out_h, out_w;
	long	kernel_h, kernel_w, stride_h, stride_w;
	long	pad_top, pad_left, pad_bottom, pad_right;
	long	dil_h, dil_w, groups;
	long	gemm_m, gemm_n, gemm_k, gemm_batch;
	long	act, macs, in_bytes, weight_bytes, out_bytes, dtype;
	long	resident;	/* optional: -1 when the table has none */
	long	kv_seq;		/* optional: -1 when the table has none */
	long	transposed;	/* optional: -1 when the table has none */
	/* optional depth columns, all or none: -1 when absent */
	long	in_d, out_d, kernel_d, stride_d, pad_front, pad_back, dil_d;
};

/* NULL-terminated list of the layers.csv columns in the order of pf-formats(7). */
extern const char *const layer_colnames[];

const char *layer_opname(enum layer_op op);
/* 0 and *op set, or -1 for a name outside the contract. */
int layer_opparse(const char *s, enum layer_op *op);
/* Bytes per element of a dtype name, or 0 if unknown. */
int layer_dtype_bytes(const char *dtype);

/* Defaults for a non-conv layer: 1x1 kernel, stride 1, no pad, act none, fp16. */
void layer_init(struct layer *l);

/* Whether a layer is an attention matmul over a resident KV cache. */
int layer_is_kv(const struct layer *l);

/*
 * Find every geometry column of t (and the optional resident column).  Reports the first missing one
 * ("file:1: missing column 'x'") and returns -1.
 */
int layer_cols_find(const struct table *t, struct layer_cols *lc);
/* Append the geometry columns a table lacks, in contract order. */
void layer_cols_add(struct table *t, struct layer_cols *lc);
/* Add the optional depth columns to t and record them in lc. */
void layer_cols_add_depth(struct table *t, struct layer_cols *lc);

/*
 * Parse and validate the geometry of one row: numbers, positive dims,
 * non-negative pads, known op and dtype, groups dividing the channels.
 * Reports "file:line: column 'c': ..." and returns -1 on the first fault.
 */
int layer_get(const struct table *t, const struct layer_cols *lc, size_t row,
    struct layer *l);
/*
 * What layer_get_seen read last: the layer and the text of each of its
 * cells, so that a row repeating cells of the last one (the pieces of
 * one layer, one after another) takes their values as read and checked
 * instead of parsing them again: the same layer, byte for byte, and the
 * same reports as layer_get.  It holds copies, so it outlives the rows
 * and blocks it was read from; its cells are by name, so any table with
 * the geometry columns may follow.  Zero it before the first row.
 */
#define LAYER_SEEN_CELLS	40	/* the numbers, depth and text cells */
#define LAYER_SEEN_TEXT		24	/* a longer cell is parsed every time */
struct layer_seen {
	struct layer	l;
	unsigned char	text[LAYER_SEEN_CELLS][LAYER_SEEN_TEXT];
	int		have;
};
/* layer_get through s (which may be NULL: layer_get itself). */
int layer_get_seen(const struct table *t, const struct layer_cols *lc,
    size_t row, struct layer *l, struct layer_seen *s);
/*
 * layer_get through a cache of the geometries read before, by the texts
 * of the cells layer_get reads (its id aside, which every row has read):
 * a row whose texts are those of a row taken before gets that row's
 * layer, with its own id, as layer_get would give it (the same bytes;
 * only good rows are kept, so a bad one is read and reported as
 * layer_get does).  For tables whose rows repeat a few geometries under
 * many layers (the pieces of a chain of like layers); its memory is
 * bounded (memo.h).  A cache holds one table layout at a time: a table
 * whose geometry columns lie elsewhere starts it again.
 */
struct layer_cache;
struct layer_cache *layer_cache_new(void);
int layer_get_cached(const struct table *t, const struct layer_cols *lc,
    size_t row, struct layer *l, struct layer_cache *c);
void layer_cache_free(struct layer_cache *c);
/* Write the geometry of l into row (the id column included). */
void layer_put(struct table *t, const struct layer_cols *lc, size_t row,
    const struct layer *l);

/*
 * What layer_put_memo wrote into the last row, so that a writer of many
 * rows of like geometry (pf-split: every piece of a layer) writes only
 * the cells whose values changed: the caller makes each row after the
 * first a copy of the last one (csvio_setsamerow), whose cells stay
 * where the values are the same; a number that is the one before the
 * last (a split's GPU and PIM pieces alternate) shares its row's text.  Zero it before the first row and
 * whenever t drops its rows (csvio_droprows).
 */
#define LAYER_NNUM	27	/* numbers of every table */
#define LAYER_NMEMO	(LAYER_NNUM + 7)	/* and the depth columns */
struct layer_memo {
	int64_t		v[LAYER_NMEMO];		/* the last row's numbers */
	int64_t		v1[LAYER_NMEMO];	/* the ones before, */
	size_t		r1[LAYER_NMEMO];	/* in these rows */
	unsigned char	have1[LAYER_NMEMO];
	struct layer	last;			/* for the text cells */
	int		have;			/* a row was written */
};
/* layer_put, the same cells, through memo m (rows made by csvio_addrow). */
void layer_put_memo(struct table *t, const struct layer_cols *lc,
    size_t row, const struct layer *l, struct layer_memo *m);

/*
 * Recompute the GEMM view, MACs and byte counts of a conv, gemm or matmul
 * from its shape (pf-formats(7) gives the definitions); other ops are left
 * alone.  Returns -1 (no report) if a product overflows 64 bits.
 */
int layer_derive(struct layer *l);

#endif
