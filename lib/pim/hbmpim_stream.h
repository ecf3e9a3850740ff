/*
 * Private to the HBM2-PIM engine (hbmpim_time.c, hbmpim_stream.c): the
 * transactions the kernel generator of PIMSimulator (src/tests/PIMKernel.cpp)
 * feeds to the memory controller, and the lazily generated stream that
 * holds them.  Not for other modules.
 */
#ifndef PF_HBMPIM_STREAM_H
#define PF_HBMPIM_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "hbmpim_time.h"


/* The PIM configuration space (src/tests/KernelAddrGen.cpp, PIMRank.cpp). */
#define ROW_SB2HAB	0x17FF	/* ACT banks 0, 1, 8, 9 (column 0x1F): SB->HAB */
#define ROW_HAB2SB	0x1FFF	/* PRE banks 0, 1 (column 0x1F): HAB->SB */
#define ROW_REGS	0x3FFF	/* control (col 0), CRF (4-7), GRF_A (8-15) */
#define ROW_PARK	0x1000	/* park-in/park-out reads */
#define COL_MODE	0x1F

enum { F_WR = 1, F_TAG = 2, F_ON = 4 };

struct tx {
	int32_t	row;
	uint8_t	rank, bank, col, fl;
};

struct txbuf {
	struct tx	*v;
	size_t		 n, cap, pos;
};

/* A lazily generated stream: the kernel (or baseline region) and a step. */
struct stream {
	const struct hbmpim_dram *d;
	enum hbmpim_kernel k;
	int	base;			/* baseline region instead of a kernel */
	int64_t	n_ot, n_it, batch, n_t;	/* kernel tiles */
	int64_t	step;
	/* baseline: local indices first..first+count-1, write or read */
	int64_t	first, count, done;
	int	wr;
	int	ended;			/* the backlog is empty for good */
	struct txbuf b;
};

/*
 * The next transaction of s's backlog, generating the next kernel step
 * (or baseline region) when the buffer is used up; NULL once it is empty
 * for good.
 */
struct tx *hbmpim_stream_next_tx(struct stream *s);

#endif
