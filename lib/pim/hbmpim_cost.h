/*
 * PIM cost of tasks.csv rows on HBM2-PIM (arch = hbm-pim): maps a piece
 * onto the PIMSimulator kernels (hbmpim_time.h) and fills the cost
 * columns.  GEMM, matmul and conv pieces run as GEMV with the weight (or
 * other resident) operand in the banks: out = gemm_n outputs, in = gemm_k,
 * one kernel iteration per row of the input (gemm_m, the batch); the
 * gemm_batch instances share the channels.  Eltwise pieces run the ADD/MUL
 * kernel, relu activations the ReLU kernel.  pim-cycles(1) documents it.
 */
#ifndef PF_HBMPIM_COST_H
#define PF_HBMPIM_COST_H

#include <stdint.h>

#include "hbmpim_model.h"
#include "layer.h"
#include "pim_engine.h"

/* Engine runs longer than this many clocks are extrapolated. */
#define HBMPIM_EXACT_CLOCKS	4000000

struct hbmpim_cost {
	int64_t			cycles;		/* memory clocks */
	double			ns;
	enum hbmpim_kernel	kernel;
	int64_t			n_ot, n_it;	/* GEMV tiles; n_it 0 eltwise */
	int64_t			iters;		/* GEMV: n_ot x rows; eltwise tiles */
	int64_t			chans;		/* channels of one instance */
	int64_t			rounds;		/* instances one after another */
	int			exact;		/* 0: extrapolated (see above) */
	int64_t			append;		/* KV append clocks (in cycles) */
	double			energy_nj;	/* all channels, hand-off included */
	double			handoff_nj;	/* of which the I/O hand-off */
	double			static_w;	/* static power of the channels */
	struct hbmpim_run	run;		/* one instance, channel 0 */
};

/* Runs already simulated, by (kernel, input tiles, iterations). */
struct hbmpim_memo {
	struct hbmpim_memo_ent {
		enum hbmpim_kernel	k;
		int64_t			n_it, iters;
		int			exact;
		struct hbmpim_run	run;
	}	*v;
	size_t	n, cap;
};

/*
 * Cost of one piece on nch PIM channels; memo (may be NULL; zero it
 * before the first use, free its v after the last) saves repeated runs.  Reports "where: ..." and
 * returns -1 for an op HBM-PIM cannot run or a shape with no tile.
 */
int hbmpim_cost_layer(const struct hbmpim_model *m, const struct layer *l,
    int64_t nch, struct hbmpim_memo *memo, const char *where,
    struct hbmpim_cost *c);

/* The engine (pim_engine.h): arch = hbm-pim. */
extern const struct pim_engine hbmpim_cost_engine;

#endif
