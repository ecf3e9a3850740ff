/*
 * Private to layer emission (onnx_emit.c, onnx_rows.c): the rows being
 * built and the emitter's state, and the builders that fill a row's
 * layers.csv geometry for each kind of layer.  Not for other modules.
 */
#ifndef PF_ONNX_ROWS_H
#define PF_ONNX_ROWS_H

#include <string.h>

#include <stddef.h>

#include "layer.h"
#include "onnx_fuse.h"
#include "onnx_load.h"

struct row {
	struct layer	 l;
	const char	*name, *onnx_op;
	char		*preds;
	char		*ownname;	/* generated name (rnn rows), owned */
};

struct em {
	struct model	*m;
	struct fuse	 f;
	const char	*dtype;
	int		 esz;
	struct row	*rows;
	size_t		 nrows, cap;
	int		 srcset;	/* the node set its outputs' sources */
};


/* A new row of op for node n, at the end of e's rows (its id). */
struct row *rows_new(struct em *e, const struct node *n, enum layer_op op);

/*
 * Geometry every row shares: in_* from the first data tensor of ts (nts
 * of them; chan: a Conv/pool [N, C, L] layout), out_* from n's output,
 * byte counts and preds.  Reports and returns -1 on an overflow.
 */
int rows_generic(struct em *e, const struct node *n, struct row *r,
    const int *ts, size_t nts, int chan);

/* Union of the source layers of tensors ts (n of them) into dst. */
void rows_srcunion(struct model *m, const int *ts, size_t n,
    struct tensor *dst);

/*
 * The rows of node n by kind: Conv/ConvTranspose, pooling (global: the
 * whole plane), a weight product, a product of two activations, Einsum,
 * LSTM/GRU/RNN, Gather from a constant table.  Each reports and returns
 * -1.
 */
int rows_conv(struct em *e, const struct node *n);
int rows_pool(struct em *e, const struct node *n, int global);
int rows_gemm(struct em *e, const struct node *n);
int rows_matmul(struct em *e, const struct node *n);
int rows_einsum(struct em *e, const struct node *n);
int rows_rnn(struct em *e, const struct node *n);
int rows_embed(struct em *e, const struct node *n);

/*
 * snprintf(d, n, "%s", s) without the formatter (emission copies a
 * dtype or an activation into every row): at most n - 1 bytes, ended.
 */
static inline void
rows_strcpy(char *d, size_t n, const char *s)
{
	size_t k = strlen(s);

	if (n == 0)
		return;
	if (k > n - 1)
		k = n - 1;
	memcpy(d, s, k);
	d[k] = '\0';
}

#endif
