/*
 * PIM costing of tasks.csv, independent of the PIM device: the table loop
 * of pim-cycles(1), the row parameters (pim_channels, pim_gwrite,
 * pim_hiding), the columns, and the table of the engines that plug into
 * the seam (pim_engine.h), listed once in pim_engines[] (pim_cost.c).
 *
 * The loop validates every pim row and costs it before it writes any
 * cell, so on an error the table is left as it was.
 */
#ifndef PF_PIM_COST_H
#define PF_PIM_COST_H

#include <stdint.h>
#include <stdio.h>

#include "csvio.h"
#include "layer.h"
#include "pim_engine.h"

/* The engines, NULL-terminated; the first is the default of a config. */
extern const struct pim_engine *const pim_engines[];

/*
 * The hand-off of bytes over nch channels (pim_cost_table); on an added
 * machine (p->added) no faster than the link, p->link_cap_bpns, when set.
 */
double pim_handoff_ns(const struct pim_row *p, int64_t nch, double bytes);

/*
 * The engine a PIM config names in its arch key ("newton" when absent).
 * Reports "path: key 'arch': unknown engine '...'" (or a load error) and
 * returns NULL.
 */
const struct pim_engine *pim_engine_of(const char *path);

/*
 * Fill every device=pim row of t with engine e (state from e->open):
 * cycles, ns and e's columns, then dispatch_ns (def->dispatch_ns, part
 * of ns: ns = the engine's time + dispatch_ns) and the piece's hand-off
 * times, not part of ns (pf-merge and pf-solve charge them where the
 * data crosses between the devices): handoff_in_ns = sync_ns + in_bytes
 * / (channels x link_bpns), handoff_out_ns the same with out_bytes (0
 * with o->no_handoff); other rows untouched.  A row that e->refuse
 * refuses keeps cycles, ns and the other columns empty and says why in
 * pim_refused ("dtype 'fp32': ..."; empty on every other row).  def fills
 * empty row parameters.  On a fault reports "file:line: ..." and returns -1
 * with t's cells unchanged.  *rows and *cmds (may be NULL) count the PIM
 * rows and the timed commands.
 */
int pim_cost_table(const struct pim_engine *e, void *state, struct table *t,
    const struct pim_row *def, const struct pim_opts *o, int64_t *rows,
    int64_t *cmds);

/*
 * What a run of pim-cycles holds: the engine of its config and the
 * engine's state, the row defaults and options, the counts of the PIM
 * rows and timed commands, and with stats the CPU clock at the start.
 */
struct pim_cost_run {
	const struct pim_engine	*e;
	void			*state;
	struct pim_row		 def;
	struct pim_opts		 o;
	int64_t			 rows, cmds;
	const char		*trace_path;	/* -T, NULL: none */
	int			 stats;		/* -s */
	double			 t0;
};

/*
 * Open run u on PIM config config (a name or a path): its engine (the
 * arch key) and the engine's state with the config's row defaults.  An
 * option letter opt (0: none) that the engine does not take is reported
 * ("-X: not an option of arch A") and -2 returned; a bad config -1.
 * pim_cost_start(arg), the start of the run as a stage of
 * csvio_stream_stage (csvio.h), then starts the clock of u->stats and,
 * with u->trace_path, the trace (o.trace, a temporary file until
 * pim_cost_done publishes it): 0, or -1 after reporting.
 * pim_cost_close frees u.
 */
int pim_cost_open(struct pim_cost_run *u, const char *config, int opt);
/*
 * The tool's options over the row parameters a row leaves empty (the
 * config's defaults): n channels (0: the config's; n > 0 also fills
 * pim_channels = auto), g the GWRITE maximum (0: the config's), nohide:
 * no latency hiding, dispatch ns (< 0: the config's).
 */
void pim_cost_defaults(struct pim_cost_run *u, int64_t n, int64_t g,
    int nohide, double dispatch);
int pim_cost_start(void *arg);
void pim_cost_close(struct pim_cost_run *u);

/*
 * pim_cost_table as a block function of csvio_stream (csvio.h): arg is a
 * struct pim_cost_run, whose rows and cmds add up; *res is the block.
 * pim_cost_done(arg), after the last block, prints the stats line
 * ("prog: N pim rows, N commands timed, S s cpu, R rows/s, C commands/s")
 * on stderr with stats and publishes the trace (pim_trace_publish): 0, or
 * -1 after reporting.
 */
int pim_cost_block(void *arg, struct table *in, const struct table **res);
int pim_cost_done(void *arg);

/*
 * Copy the finished trace from the temporary file tmp to path (-T): the
 * trace goes to an anonymous file first and reaches path only once every
 * row is costed, so a failure never truncates or removes a file the run
 * did not create (nor a device node).  0, or -1 after reporting.
 */
int pim_trace_publish(FILE *tmp, const char *path);

/* The options of pim-cycles(1), as its main parses them. */
struct pim_cost_args {
	const char	*config;	/* -c */
	const char	*trace;		/* -T, NULL: none */
	int		 engine_opt;	/* the last engine option given, 0: none */
	int64_t		 channels;	/* -n, 0: the config's */
	int64_t		 max_gwrite;	/* -g, 0: the config's */
	int		 nohide;	/* -x */
	double		 dispatch;	/* -d, < 0: the config's */
	int		 print;		/* -p: print the machine, cost nothing */
	int		 stats;		/* -s */
	struct pim_opts	 o;		/* the engine's options */
};

/*
 * pim-cycles once its options a are parsed: the run opened on a->config
 * (pim_cost_open, a->engine_opt checked against its engine), the row
 * defaults set (pim_cost_defaults); with a->print the machine
 * ("arch,channels,max_gwrite,hiding" and its row) on standard output,
 * else the tables of the argc files of argv (none: standard input)
 * costed block by block to standard output, the trace and stats after.
 * Returns the exit status: PF_EXIT_OK; PF_EXIT_DATA after a report;
 * PF_EXIT_USAGE after reporting an option the engine does not take (the
 * tool then shows its usage).
 */
int pim_cost_main(const struct pim_cost_args *a, char **argv, int argc);

#endif
