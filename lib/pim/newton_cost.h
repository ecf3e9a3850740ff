/*
 * The Newton engine of pim-cycles(1) (arch = newton, the default): maps a
 * conv/gemm/matmul piece onto Newton GEMV jobs (pim_gemv_map), generates
 * its schedule (newton_gen.h), times the simulated channel (newton_time.h)
 * and computes its energy and the optional reduction (-r).  The table
 * loop, the row parameters and the columns' writing are pim_cost.h's.
 */
#ifndef PF_NEWTON_COST_H
#define PF_NEWTON_COST_H

#include <stdint.h>
#include <stdio.h>

#include "layer.h"
#include "newton_time.h"
#include "pim_engine.h"
#include "pim_model.h"

/*
 * Bound on one channel's command stream (2^31 commands, repeats
 * included): the simulation's time grows with the stream, so a piece
 * past it is an error naming the row, not hours of work.
 */
#define PIM_MAX_CMDS 2147483648.0

/* The cost of one piece. */
struct newton_cost {
	int64_t		cycles;		/* PIM clocks, extras included */
	double		ns;
	struct nt_stats	st;		/* the simulated channel */
	int64_t		channel;	/* which channel that is (0-based) */
	int64_t		n_gwrite;	/* chosen n_gwrite of the first part */
	int64_t		n_gwrite_rem;	/* of the remainder part, 0 if none */
	int64_t		partials;	/* partial sums per output */
	int64_t		extra;		/* reduction + activation clocks (-r) */
	int64_t		append;		/* KV append clocks (in cycles) */
	double		energy_nj;	/* all channels, hand-off included */
	double		handoff_nj;	/* of which the GPU<->PIM hand-off */
	double		static_w;	/* static power of the piece's channels */
	int64_t		cmds;		/* commands timed (for statistics) */
};

/*
 * Cost of one piece on nch channels with max n_gwrite max_gw and hiding.
 * o->trace (may be NULL) receives the command streams, each after a line
 * "# where channel N".  Reports "where: ..." and returns -1 for an op
 * that cannot run on PIM or a shape too large to schedule.
 */
int newton_cost_layer(const struct pim_model *m, const struct layer *l,
    int64_t nch, int64_t max_gw, int hiding, const struct pim_opts *o,
    const char *where, struct newton_cost *c);

/* The engine (pim_engine.h); its state is a struct pim_model. */
extern const struct pim_engine newton_cost_engine;

#endif
