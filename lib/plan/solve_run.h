/*
 * pf-solve's run once its options are parsed: the error model of -U
 * loaded, costs.csv (and layers.csv) read, the policies solved (as the
 * costs come where they can), the plans placed in memory (-G), the band
 * sampled, the summary, the table and the plan written.  The tool only
 * parses its options into struct solve_run_opts.  See pf-solve(1).
 */
#ifndef PF_SOLVE_RUN_H
#define PF_SOLVE_RUN_H

#include <stdint.h>

#include "solve.h"

struct solve_run_opts {
	int		 all, dag, fixed, window;
	enum policy	 pol;
	struct objective obj;
	double		 mhz;
	const char	*json, *layers, *model, *text;
	/* -U: the error band (solve_band.h) */
	int		 samples;
	uint64_t	 seed;
	const char	*errf, *gpu, *rangef, *pim;
	/* -G (a config, not "*"): the memory check (capacity.h); -A, -n */
	int		 allow;
	int64_t		 npim;
};

/*
 * The run of o on the costs at path ("-": standard input).  samples < 0
 * is -U auto (set here from the candidates; with dag, none, with a
 * warning).  Returns 0, or -1 after a report.
 */
int solve_run(struct solve_run_opts *o, const char *path);

#endif
