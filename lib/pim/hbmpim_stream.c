/*
 * HBM2-PIM engine, stream generation: the transactions of one kernel
 * (GEMV, eltwise) or baseline region as PIMSimulator's kernel generator
 * and benchmark harness issue them (src/tests/PIMKernel.cpp,
 * PIMBenchTestCases.cpp at SAITPublic/PIMSimulator@b464dde), one kernel
 * step at a time.  The controller that clocks them is hbmpim_time.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hbmpim_stream.h"
#include "hbmpim_time.h"
#include "xalloc.h"

/* ---- stream generation (src/tests/PIMKernel.cpp) ---- */

static void
emit(struct stream *s, int bank, int64_t row, int64_t col, int fl)
{
	struct txbuf *b = &s->b;
	struct tx *x;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 1024;
		b->v = xreallocarray(b->v, b->cap, sizeof(*b->v));
	}
	x = &b->v[b->n++];
	/* a column past the row continues in the next row */
	x->row = (int32_t)(row + col / s->d->columns);
	x->col = (uint8_t)(col % s->d->columns);
	x->bank = (uint8_t)bank;
	x->rank = 0;
	x->fl = (uint8_t)fl;
}

/* A barrier tags the transaction added last; with none, it is dropped. */
static void
barrier(struct stream *s)
{
	if (s->b.n > 0)
		s->b.v[s->b.n - 1].fl |= F_TAG;
}

static void
group(struct stream *s, int bank, int64_t row, int64_t col, int fl)
{
	int i;

	for (i = 0; i < 8; i++)
		emit(s, bank, row, col + i, fl);
	barrier(s);
}

static const int park_order[16] = {
	0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15
};

static void
park(struct stream *s, int leading)
{
	int i;

	if (leading)
		barrier(s);
	for (i = 0; i < 16; i++)
		emit(s, park_order[i], ROW_PARK, 0, 0);
	barrier(s);
}

static void
prologue(struct stream *s, int crf_writes)
{
	static const int sb2hab[4] = { 0, 1, 8, 9 };
	int i;

	park(s, 1);
	for (i = 0; i < 4; i++)
		emit(s, sb2hab[i], ROW_SB2HAB, COL_MODE, F_WR);
	barrier(s);
	for (i = 0; i < crf_writes; i++)
		emit(s, 1, ROW_REGS, 4 + i, F_WR);
	barrier(s);
}

static void
pim_onoff(struct stream *s, int on)
{
	emit(s, 0, ROW_REGS, 0, F_WR | (on ? F_ON : 0));
	barrier(s);
}

static void
epilogue(struct stream *s)
{
	emit(s, 0, ROW_HAB2SB, COL_MODE, F_WR);
	emit(s, 1, ROW_HAB2SB, COL_MODE, F_WR);
	barrier(s);
	park(s, 0);
}

static void
tile(struct stream *s, int64_t i, int bank, int64_t j)
{
	int64_t c0 = 64 * (i / 2 + j * s->n_it / 2), c;

	group(s, 1, ROW_REGS, 8, F_WR);
	for (c = 0; c < 64; c += 8)
		group(s, bank, 0, c0 + c, 0);
}

/* Fill the next step of a kernel stream; 0 when the stream has ended. */
static int
gen_kernel(struct stream *s)
{
	int64_t n = s->step++, N = s->n_ot * s->batch, i, j, b, c;

	s->b.n = s->b.pos = 0;
	switch (s->k) {
	case HP_GEMV:
	case HP_GEMV_TREE:
		if (n == 0) {
			if (s->k == HP_GEMV_TREE)
				for (b = 0; b < 16; b++)
					for (c = 0; c < 8; c++)
						emit(s, (int)b, 1000, c, F_WR);
			prologue(s, s->k == HP_GEMV_TREE ? 2 : 1);
		} else if (n <= N) {
			j = (n - 1) / s->batch;
			b = (n - 1) % s->batch;
			c = 64 * (s->n_ot * s->n_it / 2) + 8 * (j + b);
			pim_onoff(s, 1);
			if (s->k == HP_GEMV) {
				for (i = 0; i < s->n_it; i += 2)
					tile(s, i, 0, j);
				for (i = 1; i < s->n_it; i += 2)
					tile(s, i, 1, j);
				group(s, 1, 0, c, F_WR);
			} else {
				for (i = 0; i < s->n_it; i++) {
					tile(s, i, (int)(i % 2), j);
					group(s, 1, 0, c + 8 * i, F_WR);
					group(s, 0, 1000, 0, 0);
				}
			}
			pim_onoff(s, 0);
		} else if (n == N + 1) {
			epilogue(s);
		}
		break;
	case HP_ADD:
	case HP_MUL:
	case HP_RELU:
		if (n == 0) {
			prologue(s, 1);
			pim_onoff(s, 1);
		} else if (n <= s->n_t) {
			c = 8 * (n - 1);
			for (b = 0; b < 2; b++) {
				group(s, (int)b, 0, c, 0);
				if (s->k != HP_RELU)
					group(s, (int)b, 128, c, 0);
				group(s, (int)b, 256, c, F_WR);
			}
		} else if (n == s->n_t + 1) {
			pim_onoff(s, 0);
			epilogue(s);
		}
		break;
	}
	return s->b.n > 0;
}

/* Baseline: local burst indices of one channel, decoded by Scheme8. */
static int
gen_base(struct stream *s)
{
	const struct hbmpim_dram *d = s->d;
	int64_t nb = d->bankgroups * d->banks_per_group, a, k;

	s->b.n = s->b.pos = 0;
	for (k = 0; k < 4096 && s->done < s->count; k++, s->done++) {
		a = s->first + s->done;
		emit(s, (int)(a % nb), (a / nb / d->columns) % d->rows,
		    (a / nb) % d->columns, s->wr ? F_WR : 0);
		s->b.v[s->b.n - 1].rank =
		    (uint8_t)((a / nb / d->columns / d->rows) % d->ranks);
	}
	return s->b.n > 0;
}

/* The next transaction of the backlog, or NULL. */
struct tx *
hbmpim_stream_next_tx(struct stream *s)
{
	if (s->ended)
		return NULL;
	if (s->b.pos == s->b.n && !(s->base ? gen_base(s) : gen_kernel(s))) {
		s->ended = 1;
		return NULL;
	}
	return &s->b.v[s->b.pos++];
}
