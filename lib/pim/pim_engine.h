/*
 * The seam the PIM engines plug into, below the costing loop of
 * pim-cycles (pim_cost.h) and the engines alike: a piece's PIM
 * parameters and the tool's options as an engine receives them, the
 * layer -> GEMV mapping, the columns an engine adds, and the engine
 * struct itself.
 *
 * An engine is one struct pim_engine (below) in one file, named by the
 * arch key of a PIM config (share/pimflow/pim/<name>.conf) and listed
 * once in pim_engines[] (pim_cost.c).  Adding a PIM device with another
 * command set is a new file with its model, its schedule and timing, and
 * its engine struct, plus that one table entry; nothing here or in the
 * other engines changes.
 */
#ifndef PF_PIM_ENGINE_H
#define PF_PIM_ENGINE_H

#include <stdint.h>
#include <stdio.h>

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

#endif
