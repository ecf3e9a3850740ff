/*
 * PIM costing of tasks.csv, independent of the PIM device: the table loop
 * of pim-cycles(1), the row parameters (pim_channels, pim_gwrite,
 * pim_hiding), the columns, the layer -> GEMV mapping, and the seam the
 * PIM engines plug into.
 *
 * An engine is one struct pim_engine (below) in one file, named by the
 * arch key of a PIM config (share/pimflow/pim/<name>.conf) and listed
 * once in pim_engines[] (pim_cost.c).  Adding a PIM device with another
 * command set is a new file with its model, its schedule and timing, and
 * its engine struct, plus that one table entry; nothing here or in the
 * other engines changes.
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

/*
 * One piece's PIM parameters: its columns, or the defaults when empty;
 * and the host's side of running it, from the config (engine open) or
 * an option, the same on every row.
 */
struct pim_row {
	int64_t	channels;	/* pim_channels: PIM channels N */
	int64_t	max_gwrite;	/* pim_gwrite (engines without GWRITE ignore it) */
	int	hiding;		/* pim_hiding 1/0 */
	double	dispatch_ns;	/* the host issuing the piece's command stream */
	double	sync_ns;	/* one GPU<->PIM hand-off's synchronisation */
	double	link_bpns;	/* bytes/ns of one PIM channel's external bus */
	/* attach: an added device's link to the GPU, bytes/ns (0: none) */
	double	link_cap_bpns;
	int	added;		/* the row's pim_attach is added */
};

/*
 * Options of pim-cycles(1).  The flags are engine options: an engine
 * lists the option letters it takes in pim_engine.opts.
 */
struct pim_opts {
	int	all;		/* -a: simulate every channel, keep the slowest */
	int	per_group;	/* -G: grouped convs as one GEMV per group */
	int	reduce;		/* -r: add partial-sum reduction and activation */
	int	best;		/* -b: n_gwrite by fewest cycles */
	int	exact;		/* -E: issue every command */
	int	no_handoff;	/* -H: hand-off columns 0 */
	int	fill_auto;	/* -n: fills pim_channels = auto too */
	FILE	*trace;		/* -T: command streams, or NULL */
	/* the geometries read before (a run's), NULL: layer_get_seen */
	struct layer_cache *lcache;
};

/*
 * A piece as a GEMV job (the published mapping): C_i inputs and C_o
 * outputs per output pixel, a kh x kw window over input rows h (conv;
 * 1, 1, p otherwise), p output pixels or rows, inst independent
 * instances (gemm_batch of a matmul; the groups of a grouped conv with
 * per_group).
 */
struct pim_gemv {
	int64_t	ci, co, kh, kw, h, p, inst;
};

/*
 * Map conv/gemm/matmul piece l: conv -> im2col, C_i = in_c, C_o = out_c,
 * p = batch*out_h*out_w (with per_group and groups > 1: C_i and C_o per
 * group, inst = groups); gemm/matmul -> C_i = gemm_k, C_o = gemm_n, p = h
 * = gemm_m, inst = gemm_batch.  Reports "where: ..." and returns -1 for
 * any other op or a zero or overflowing dimension.
 */
int pim_gemv_map(const struct layer *l, int per_group, const char *where,
    struct pim_gemv *g);

/*
 * The elements of the new token's key or value that a piece of an
 * attention matmul over a resident KV cache appends per instance: the
 * dimension of the cache operand that is not the context (kv_seq 'n',
 * q.K^T: gemm_k; 'k', p.V: gemm_n).  0 for any other piece, or a kv piece
 * whose kv_seq is empty.
 */
int64_t pim_kv_append(const struct layer *l);

/* How a column value is written. */
enum pim_colkind {
	PC_INT,		/* v.i, decimal */
	PC_F3,		/* v.d, three decimals */
	PC_F6,		/* v.d, six decimals */
	PC_NAME		/* v.i indexes the column's names[] */
};

/* An engine's column, appended after cycles and ns, with its meaning. */
struct pim_col {
	const char		*name;
	const char		*what;
	enum pim_colkind	 kind;
	const char *const	*names;		/* PC_NAME only */
};

#define PIM_MAXCOLS	24

/* The cost of one piece, as the loop stores it until every row is done. */
struct pim_out {
	int64_t	cycles;			/* the engine's own clock */
	double	ns;
	int64_t	cmds;			/* commands timed (statistics) */
	union {
		int64_t	i;
		double	d;
	}	v[PIM_MAXCOLS];		/* in the order of the engine's cols */
};

/*
 * A PIM engine.  open loads the config at path into a new engine state
 * (its model and anything it caches across rows) and sets the defaults
 * of rows that leave a parameter empty; it reports and returns NULL on a
 * bad config.  cost costs piece l with parameters p into out, reporting
 * "where: ..." and returning -1 for a piece the device cannot run.
 * close frees the state.
 */
struct pim_engine {
	const char		*arch;		/* the config's arch value */
	const char		*opts;		/* option letters it takes */
	const struct pim_col	*cols;		/* NULL-terminated */
	void	*(*open)(const char *path, struct pim_row *def);
	int	 (*cost)(void *state, const struct layer *l,
		    const struct pim_row *p, const struct pim_opts *o,
		    const char *where, struct pim_out *out);
	void	 (*close)(void *state);
	/*
	 * NULL, or why piece l is not PIM-eligible on this device (a dtype
	 * its MAC lanes do not take): the row is refused, not costed
	 * (pim_refused), and pf-merge leaves its candidate out.
	 */
	const char *(*refuse)(void *state, const struct layer *l);
};

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
 * pim_cost_start then starts the clock of stats and, with trace_path,
 * the trace (o.trace, a temporary file until pim_cost_done publishes
 * it): 0, or -1 after reporting.  pim_cost_close frees u.
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
int pim_cost_start(struct pim_cost_run *u, const char *trace_path,
    int stats);
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

/* The 16-bit floating-point dtypes Newton's and AiM's MAC lanes take. */
const char *pim_refuse_newton(void *state, const struct layer *l);

#endif
