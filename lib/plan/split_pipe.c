/*
 * Pipeline chain geometry (see split_pipe.h): stage rows propagated backwards
 * from the chain's last layer with the same exact row arithmetic as a
 * split (split_rows).
 */
#include <string.h>

#include "arith.h"
#include "split_pipe.h"

static int
is1x1(const struct layer *l)
{
	return l->op == OP_CONV && l->kernel_h == 1 && l->kernel_w == 1;
}

static int
isgemm(const struct layer *l)
{
	return l->op == OP_GEMM || l->op == OP_MATMUL;
}

/* Rows a layer consumes along the pipelined axis. */
static int64_t
inrows(const struct layer *l)
{
	if (l->op != OP_CONV && l->in_h == 1)
		return l->batch;
	return l->in_h;
}

int
split_pipe_link_ok(const struct layer *a, const struct layer *b,
    const int64_t *b_preds, int nb_preds, const struct split_rules *r)
{
	int conv = a->op == OP_CONV;

	if (nb_preds != 1 || b_preds[0] != a->id || b->id != a->id + 1)
		return 0;
	if (!conv && !(isgemm(a) && isgemm(b)))
		return 0;
	if (conv && b->op != OP_CONV)
		return 0;
	/* Row pipelines need the forward conv's row arithmetic. */
	if (a->transposed || b->transposed || a->out_d > 1 || b->out_d > 1 ||
	    a->kernel_d > 1 || b->kernel_d > 1)
		return 0;
	if (b->batch != a->batch || b->in_c != a->out_c ||
	    b->in_w != a->out_w || inrows(b) != split_nrows(a))
		return 0;
	if (conv) {
		if ((a->dil_h > 1 || b->dil_h > 1) && !r->split_dil)
			return 0;
		if (!r->pipe_stride && (b->stride_h > 1 ||
		    (a->stride_h > 1 && a->in_h % 4 != 0)))
			return 0;
	}
	return 1;
}

int
split_pipe_type(const struct layer *c, int n)
{
	if (n == 2 && is1x1(&c[0]) && split_is_depthwise(&c[1]))
		return 1;
	if (n == 2 && c[0].op == OP_CONV && !is1x1(&c[0]) && is1x1(&c[1]))
		return 2;
	if (n == 3 && split_pipe_type(c, 2) == 1 && split_pipe_type(c + 1, 2) == 2)
		return 3;
	if (n == 2 && c[0].op == OP_GEMM && c[1].op == OP_GEMM)
		return PIPE_FC;
	return 0;
}

int
split_pipe_chain(const struct layer *chain, int L, int S, enum split_dev dev0,
    struct piece *pc)
{
	int64_t lo[PIPE_MAXLEN][PIPE_MAXSTAGE], hi[PIPE_MAXLEN][PIPE_MAXSTAGE];
	int64_t rows, prev, in0;
	struct layer p;
	int i, s, n;

	if (L < 1 || L > PIPE_MAXLEN || S < 2 || S > PIPE_MAXSTAGE)
		return -1;
	for (i = 1; i < L; i++)
		if (inrows(&chain[i]) != split_nrows(&chain[i - 1]))
			return -1;
	/* Last layer: S equal parts of its rows, stage 0 the bottom one. */
	rows = split_nrows(&chain[L - 1]);
	if (rows < S)
		return -1;
	for (s = 0; s < S; s++) {
		if (ck_mul(rows, S - s, &hi[L - 1][s]) < 0)
			return SPLIT_TOOBIG;
		lo[L - 1][s] = rows * (S - 1 - s) / S;
		hi[L - 1][s] /= S;
	}
	for (i = L - 1; i > 0; i--) {
		prev = split_nrows(&chain[i - 1]);
		for (s = 0; s < S; s++) {
			if ((n = split_rows(&chain[i], lo[i][s], hi[i][s], &p,
			    &in0)) < 0)
				return n;
			lo[i - 1][s] = s == S - 1 ? 0 : in0;
			hi[i - 1][s] = prev;
			if (lo[i - 1][s] >= prev)
				return -1;
			prev = lo[i - 1][s];
		}
	}
	n = 0;
	for (s = 0; s < L + S - 1; s++)
		for (i = 0; i < L; i++) {
			int st = s - i;

			if (st < 0 || st >= S)
				continue;
			memset(&pc[n], 0, sizeof(pc[n]));
			int e = split_rows(&chain[i], lo[i][st], hi[i][st],
			    &pc[n].l, &pc[n].in_row0);

			if (e < 0)
				return e;
			pc[n].row0 = lo[i][st];
			pc[n].chain = i;
			pc[n].step = s;
			pc[n].dev = i % 2 == 0 ? dev0 :
			    dev0 == DEV_GPU ? DEV_PIM : DEV_GPU;
			n++;
		}
	return n;
}
