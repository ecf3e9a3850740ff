/*
 * The tables of pf-solve: costs.csv (pf-merge) and layers.csv in, the
 * per-layer plan CSV and the JSON summary out.  The solving itself is
 * solve.h; these modules only convert and validate (costs.csv:
 * solve_costs.c; the rest: solve_io.c).
 */
#ifndef PF_SOLVE_IO_H
#define PF_SOLVE_IO_H

/* Layer indices (first, last) must be below this: 2^20 layers. */
#define SOLVE_MAX_LAYERS ((int64_t)1 << 20)

#include <stdio.h>

#include "capacity.h"
#include "csvio.h"
#include "solve.h"
#include "solve_stream.h"
#include "textpool.h"

struct band_cands;
struct band_result;

struct solve_in {
	struct cand	 *c;
	size_t		  nc;
	int64_t		  nlayers;	/* -1 until known */
	char		**names;	/* per layer (from layers.csv) or NULL */
	char		**ops;
	int64_t		**preds;
	int		 *npreds;
	long long	 *base_ps;	/* per layer, -1 when no base candidate */
	int		 *base_tensor;	/* per layer, its base's tensor (-1 unknown) */
	int		  have_energy;	/* every candidate has energy_nj */
	double		  static_w[2];	/* GPU-only and partitioned machine */
	const char	 *fname;	/* costs file name for diagnostics */
	double		  gpu_mhz;	/* clock of the GPU cycles, 0: unknown */
	unsigned char	 *kv;		/* per layer: resident = kv (layers.csv) */
	int		  have_kv;	/* some layer reads a KV cache */
	int64_t		  tokens;	/* batch of layer 0: tokens per decode step */
	unsigned char	 *bytes_only;	/* per layer: costed = bytes, or NULL
					   (layers.csv has no such column) */
	int64_t		  nbytes_only;	/* layers costed by bytes only */
	/*
	 * Set by the caller before the costs are read: the policies it
	 * solves while they are (solve_stream.h); NULL: none.  Freed with
	 * in.
	 */
	struct solve_stream *ss;
	/* Set by the caller: the layers' bytes are read into it (capacity.h). */
	struct cap_layers *cap;
	/*
	 * Set by the caller before the costs are read, for pf-solve -U:
	 * each candidate's band data is read beside it (solve_band.h);
	 * NULL: none.  The caller frees it.
	 */
	struct band_cands *band;
	/*
	 * The ids of the candidates read (the first nread of c) live in
	 * these chunks, freed together; the ids of any appended after
	 * (pf-solve -D's) are their own allocations.
	 */
	struct textpool	  ids;
	size_t		  nread;
};

/* Per-policy outcome for the summary. */
struct solve_result {
	long long	ps, pj;		/* the plan's time and energy */
	long long	static_pj;	/* of which static */
	long long	fixed_ps, fixed_pj;	/* the policy's own optimum */
	int		chose_none;	/* none beat it: the plan is none's */
	int		over_cap;	/* no plan keeps -W: best without it */
	int64_t		layers[K_NKIND];
	/* decode models: time of KV-cache, weight-gemm and other segments */
	long long	attn_ps, fc_ps, rest_ps;
	/* -U: its error band (the summary's and the table's), or NULL */
	const struct band_result *band;
	/* memory capacity (pf-solve -G): the summary's "memory" object */
	int		have_mem;
	struct cap_need	mem;
};

void solve_io_in_init(struct solve_in *in);
void solve_io_in_free(struct solve_in *in);

/*
 * Layer count, names, ops and producers from a layers.csv table (columns
 * layer, name, op, preds; ids 0..n-1 in order).  Returns 0 or -1 after a
 * report.
 */
int solve_io_read_layers(const struct table *t, struct solve_in *in);

/*
 * Candidates from a costs.csv table.  Without layers, the layer count is
 * one past the highest last layer.  The optional column gpu_clock_mhz
 * (pf-merge carries gpu-cycles' clock) sets in->gpu_mhz; its non-empty
 * values must agree.  With energy_nj on every candidate (pf-merge's
 * energy columns), have_energy is set and each candidate's energy is its
 * own plus the static power of its machine (the GPU-only one for base
 * candidates: gpu_static_w; the partitioned one otherwise: gpu_static_w
 * plus pim_static_w, as the candidates that have such pieces state them)
 * over its wall time.  Reports a missing column, a bad number or kind, a
 * duplicate candidate id, a range outside the layers, two clocks, or
 * candidates of one machine that disagree on a static power, and returns
 * -1.
 */
int solve_io_read_costs(const struct table *t, struct solve_in *in);
/*
 * The same from the file path ("-": stdin), read a block of rows at a
 * time: memory holds the candidates, not the table.  A fault in a row is
 * reported as its block is read, so with faults in several blocks the
 * first block's is named (pf-formats(7), Streaming).  With layers not
 * NULL, that layers.csv is read (solve_io_read_layers) once the last costs
 * row has been, before the checks that need the layer count (a candidate
 * beyond the last layer, still named by its line): so the program that
 * writes layers.csv may run in the same pipe as the one writing the
 * costs, its file complete by the time the costs end (pimflow(1)).
 */
int solve_io_load_costs(const char *path, const char *layers,
    struct solve_in *in);

/*
 * Solve policy p under objective o (NULL: time), reporting an uncovered
 * layer ("policy 'p': no candidate covers layer 3 'name'") or an overflow
 * on failure.  When no plan keeps o's power cap, a warning says so and
 * the best plan without the cap is taken, with r->over_cap set.  Returns
 * 0 or -1.
 */
int solve_io_policy(const struct solve_in *in, enum policy p,
    const struct objective *o, struct plan *pl, struct solve_result *r);

/*
 * The policies a run solves, into want[]: pol; with all (-P all) or
 * summary (a summary or table asked for) every policy, attn-pim only
 * when the costs have a KV layer (in->have_kv).
 */
void solve_io_want(const struct solve_in *in, enum policy pol, int all,
    int summary, unsigned char want[P_NPOL]);
/*
 * The policies whose time plans are solved while costs.csv is read
 * (solve_stream.h), bit p for policy p: none (0) unless the objective
 * is time without a cap; every policy with all or summary, else pol and
 * none; never pimflow with dag (-D: its candidates come after the costs).
 */
unsigned solve_io_stream_pols(enum policy pol, int all, int summary,
    int dag, const struct objective *o);
/*
 * Solve every policy p with want[p] set (plans[] and res[] indexed by
 * policy; the caller frees every plan).  The whole-machine choice: unless
 * fixed is set, a PIM policy whose own optimum (the machine partitioned,
 * as PIMFlow evaluates it) is worse under o than the none plan (all
 * channels to the GPU) takes the none plan, with chose_none set; the own
 * optimum stays in fixed_ps/fixed_pj either way; under a power cap a
 * plan that keeps it beats one that does not.  none is solved for
 * that even when not wanted (quietly: without a none cover there is
 * nothing to fall back to).  Returns 0 or -1 after a report.
 */
int solve_io_policies(const struct solve_in *in, const struct objective *o,
    int fixed, const unsigned char *want, struct plan *plans,
    struct solve_result *res);

/*
 * The plan CSV of a solved policy (out initialised here); its objective
 * column names o (NULL: time), "energy@30W" style under a power cap.
 */
void solve_io_plan_table(const struct solve_in *in, const struct plan *pl,
    const struct objective *o, struct table *out);

/*
 * The summary JSON of all six policies (res in enum policy order).
 * dag_window > 0 records -D and the lower bound of any DAG schedule of
 * the pimflow candidates (solve_lower_bound).  Returns 0 or -1 on a
 * write error.
 */
int solve_io_summary(FILE *fp, const struct solve_in *in, const char *model,
    double gpu_mhz, const struct objective *o, int fixed,
    const struct solve_result *res, int dag_window, long long dag_lb_ps);

#endif
