/*
 * PIM cost of tasks.csv rows: maps a conv/gemm/matmul piece onto Newton
 * GEMV jobs (pim-timing.md §5), generates its schedule (newton_gen.h),
 * times the simulated channel (newton_time.h) and fills the cost columns.
 * This is pim-cycles(1) without its option parsing and I/O.
 */
#ifndef PF_NEWTON_COST_H
#define PF_NEWTON_COST_H

#include <stdint.h>
#include <stdio.h>

#include "csvio.h"
#include "layer.h"
#include "newton_time.h"
#include "pim_model.h"

/* Options of pim-cycles; channels/max_gwrite/hiding fill empty row fields. */
struct pim_opts {
	int64_t	channels;	/* -n */
	int64_t	max_gwrite;	/* -g */
	int	hiding;		/* -x clears it */
	int	all;		/* -a: simulate every channel, keep the slowest */
	int	per_group;	/* -G: grouped convs as one GEMV per group */
	int	reduce;		/* -r: add partial-sum reduction and activation */
	int	best;		/* -b: n_gwrite by fewest cycles, not by G_ACT0 */
	int	exact;		/* issue every command (tests, -E) */
};

/* The cost of one piece. */
struct pim_cost {
	int64_t		cycles;		/* PIM clocks, extras included */
	double		ns;
	struct nt_stats	st;		/* the simulated channel */
	int64_t		channel;	/* which channel that is (0-based) */
	int64_t		n_gwrite;	/* chosen n_gwrite of the first part */
	int64_t		n_gwrite_rem;	/* of the remainder part, 0 if none */
	int64_t		partials;	/* partial sums per output */
	int64_t		extra;		/* reduction + activation clocks (-r) */
	double		energy_nj;	/* all channels, hand-off included */
	double		handoff_nj;	/* of which the GPU<->PIM hand-off */
	double		static_w;	/* static power of the piece's channels */
	int64_t		cmds;		/* commands timed (for statistics) */
};

/* The columns pim-cycles appends, in order, with their meaning. */
struct pim_col {
	const char	*name;
	const char	*what;
};
extern const struct pim_col pim_cols[];

/*
 * Cost of one piece with its own channels, max n_gwrite and hiding.  trace
 * (may be NULL) receives the command streams, each after a line "# tag
 * channel N".  Reports "where: ..." and returns -1 for an op that cannot
 * run on PIM or a shape too large to schedule.
 */
int pim_cost_layer(const struct pim_model *m, const struct layer *l,
    int64_t nch, int64_t max_gw, int hiding, const struct pim_opts *o,
    FILE *trace, const char *where, struct pim_cost *c);

/*
 * Fill every device=pim row of t (cycles, ns and the pim_cols columns),
 * leaving other rows untouched.  Validates every row first; on a fault
 * reports "file:line: column 'c': ..." and returns -1 with t unchanged
 * in its cells.  *rows and *cmds (may be NULL) count PIM rows and timed
 * commands.
 */
int pim_cost_table(const struct pim_model *m, struct table *t,
    const struct pim_opts *o, FILE *trace, int64_t *rows, int64_t *cmds);

#endif
