/*
 * GPU costing of tasks.csv for gpu-cycles(1): every device=gpu row gets
 * the GPU's memory channels for its candidate (task.h), the model's
 * estimate (gpu_model.h) or a measured time (gpu_measured.h), the energy
 * (gpu_energy.h, when configured) and the output columns below; every
 * other row is left as it was.  The tool only parses options and files.
 */
#ifndef PF_GPU_COST_H
#define PF_GPU_COST_H

#include <stdint.h>

#include "csvio.h"
#include "gpu_energy.h"
#include "gpu_measured.h"
#include "gpu_model.h"

struct memo;

struct gpu_cost_opts {
	const struct gpu_model	*m;
	struct gpu_measured	*ms;	/* NULL: the model only; hits counted */
	const char		*measured; /* its file name, for warnings */
	const struct gpu_energy	*en;	/* NULL: no energy columns */
	long			 total;	/* the machine's channels */
	const char		*config; /* the config's name, for reports */
	struct memo		*memo;	/* estimates kept across tables (a
					   run's, gpu_cost_block), NULL:
					   one per table */
	/*
	 * The output cells of each estimate, kept with it (gpu_cost_block)
	 * so that a row of a geometry costed before takes their texts
	 * (csvio_keep); NULL: every row's cells formatted.  Kept texts are
	 * the memo's while their generation is keepgen.
	 */
	struct csvio_keep	*keep;
	unsigned long		 keepgen;
	/* the geometries read before (a run's), NULL: layer_get_seen */
	struct layer_cache	*lcache;
};

/*
 * The columns gpu_cost_table appends, in order, NULL-terminated (cycles
 * and ns are reused when present); gpu-cycles(1) documents each.
 */
extern const char *const gpu_cost_cols[];

/*
 * Cost every gpu row of t.  Reports "file:line: ..." (an unknown device, a
 * PIM share that does not fit the machine, a shape the model cannot cost,
 * a time past 9e12 ns) and returns -1; t may then be partly filled.
 */
int gpu_cost_table(struct table *t, const struct gpu_cost_opts *o);

/*
 * What a run of gpu-cycles holds: the model, its energy config, measured
 * times, and the options over them.
 */
struct gpu_cost_run {
	struct gpu_model	m;
	struct gpu_energy	en;
	struct gpu_measured	ms;
	struct gpu_cost_opts	o;
	int			warn;	/* unmatched measurements warn */
};

/*
 * Open run r: GPU config config with build build (NULL: the config's
 * default_build), the energy config gpu_energy_for() takes for energy,
 * total channels (0: the config's).  Returns 0, or -1 after reporting.
 * gpu_cost_measure then loads measured times (measured NULL: none; warn:
 * gpu_cost_done warns of unmatched ones instead of failing), 0 or -1
 * after reporting; gpu_cost_close frees r.
 */
int gpu_cost_open(struct gpu_cost_run *r, const char *config,
    const char *build, const char *energy, long total);
int gpu_cost_measure(struct gpu_cost_run *r, const char *measured, int warn);
void gpu_cost_close(struct gpu_cost_run *r);

/*
 * gpu_cost_table as a block function of csvio_stream (csvio.h): arg is
 * the struct gpu_cost_run, *res the block; the run's memo of the model's
 * estimates spans the blocks (gpu_cost_close frees it).  gpu_cost_done(arg), after the
 * last block, is gpu_cost_unused with the run's warn.
 */
int gpu_cost_block(void *arg, struct table *in, const struct table **res);
int gpu_cost_done(void *arg);

/*
 * After the last row: every measurement of o->ms matched a gpu row.
 * Otherwise reports the first one by line ("measured layer '...' (op
 * ...) matches no gpu row of the input by name and geometry") and
 * returns -1, or with warn names each as a warning and returns 0.
 */
int gpu_cost_unused(const struct gpu_cost_opts *o, int warn);

/* The options of gpu-cycles(1), as its main parses them. */
struct gpu_cost_args {
	const char	*config;	/* -c */
	const char	*build;		/* -b, NULL = the config's default */
	const char	*measured;	/* -m, NULL = none */
	const char	*energy;	/* -e, NULL = the GPU config's name */
	long		 total;		/* -C, 0 = config's channels */
	int		 print;		/* -p: print the machine, cost nothing */
	int		 warn;		/* -w: unmatched measurements warn */
};

/*
 * gpu-cycles once its options a are parsed: the run opened
 * (gpu_cost_open); with a->print the machine ("channels,clock_mhz" and
 * its row) on standard output, else the measured times loaded and the
 * tables of the argc files of argv (none: standard input) costed block by
 * block to standard output.  Returns the exit status: PF_EXIT_OK, or
 * PF_EXIT_DATA after a report.
 */
int gpu_cost_main(const struct gpu_cost_args *a, char **argv, int argc);

#endif
