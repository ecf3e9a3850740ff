/*
 * The error band of pf-solve -U (share/doc/uncertainty.md): the costs
 * drawn N times from the models' error distributions, in process, and
 * for every policy two answers: the plan chosen on the nominal costs
 * timed under each draw, and the plan solved again under each draw.
 *
 * A draw: for each kernel class (gemm, conv, depthwise, elementwise) and
 * precision of the GPU, one systematic normal Z (shared by every kernel
 * of the class: the model's error on a class of kernels of one machine
 * goes one way), and for each layer one independent normal z; a
 * candidate's class-c GPU time is scaled by exp(mu_c + sys_c Z_c +
 * ind_c zbar), zbar the mean z of its layers (the spread of a sum of
 * independent kernels), mu = -bias of the error file.  PIM engines are
 * exact against their simulators; the dispatch and the hand-off rest on
 * stated values, each drawn once per sample, uniform in its documented
 * range.  The pseudo-random numbers are splitmix64's, so a seed gives
 * the same draws everywhere.
 */
#ifndef PF_SOLVE_BAND_H
#define PF_SOLVE_BAND_H

#include <stddef.h>
#include <stdint.h>

#include "csvio.h"
#include "solve.h"

enum band_class { BC_GEMM, BC_CONV, BC_DW, BC_ELT, BC_N };
#define BAND_MAXDT	8	/* precisions of GPU pieces in one costs table */
#define BAND_NDEV	5	/* gpu (base, gpu), pim, split, pipe, dag */

/* costs.csv's columns pf-merge adds for the band, in order (NULL-ended). */
extern const char *const solve_band_cost_cols[];
enum { BCC_GPU0, BCC_DISPATCH = BCC_GPU0 + BC_N, BCC_DTYPE, BCC_N };

const char *solve_band_class_name(enum band_class c);
/*
 * The class of a GPU piece from its op, groups and in_c (empty: not
 * known): gemm and matmul are gemm; a conv whose groups equal its input
 * channels (and are more than 1) is depthwise, another conv is conv;
 * every other op is elementwise.
 */
enum band_class solve_band_class_of(const char *op, const char *groups,
    const char *in_c);

/* ln(true / predicted) = mu + sys Z + ind z of one class and precision. */
struct band_err {
	double	mu, sys, ind;
	int	known;
};

/* What a sample draws from, loaded once. */
struct band_model {
	char		  gpu[64];	/* error.csv's gpu (a config name) */
	struct table	  err;		/* error.csv */
	long		  ec[6];	/* its gpu,dtype,class,bias,sys_sd,ind_sd */
	int		  ndt;
	char		  dt[BAND_MAXDT][16];
	struct band_err	  e[BAND_MAXDT][BC_N];
	double		  disp[2], hand[2];	/* factor ranges (lo, hi) */
};

/* Per candidate: its GPU time by class, its PIM dispatch and inner hand-off. */
struct band_cand {
	long long	g[BC_N];
	long long	disp, inner;
	unsigned char	dt;
};

struct band_cands {
	struct band_model	*m;
	struct band_cand	*v;
	size_t			 n, cap;
	long			 col[BCC_N], inner;
	const char		*fname;
	/*
	 * Set by the caller: more candidates than limit (0: no limit) are
	 * not kept; over is then set and v freed (pf-solve -U auto).
	 */
	size_t			 limit;
	int			 over;
};

/*
 * Load the model: errpath (error.csv), gpu its gpu to use (a config name
 * or path: its base name without .conf; rows of that gpu first, then
 * '*'), rangepath (the PIM range table) and pim its config (base name as
 * for gpu).  Returns 0 or -1 after a report (a missing column, a bad
 * number, a negative sd, no dispatch or hand-off range for pim).
 */
int solve_band_model_load(struct band_model *m, const char *errpath,
    const char *gpu, const char *rangepath, const char *pim);
void solve_band_model_free(struct band_model *m);

/* Columns of costs table t (at its first block); -1 after a report. */
int solve_band_cands_begin(struct band_cands *b, struct band_model *m,
    const struct table *t);
/* Row r of t as candidate index i (in read order); -1 after a report. */
int solve_band_cands_row(struct band_cands *b, const struct table *t, size_t r,
    size_t i);
void solve_band_cands_free(struct band_cands *b);

/* One policy's answers. */
struct band_stat {
	double	p05, p50, p95, beats;	/* speedup percentiles, share > 1 */
};
struct band_result {
	int		 done, samples;
	uint64_t	 seed;
	struct band_stat nominal, resolved;
	uint32_t	*count;		/* nlayers x BAND_NDEV: re-solved choices */
	unsigned char	*nomdev;	/* nlayers: the nominal plan's device */
};

struct band_run {
	int			 samples;
	uint64_t		 seed;
	int			 fixed;
	const struct objective	*obj;
};

/*
 * Draw r->samples samples of the costs of in's candidates c[0..nc-1]
 * (bc: their band data, bc->n == nc) and answer for every policy p with
 * want[p] set, plans[p] its nominal plan (plans[P_NONE] solved): res[p]
 * filled (free with solve_band_result_free).  Returns 0 or -1 after a report.
 */
int solve_band_sample_all(const struct cand *c, size_t nc, int64_t nlayers,
    const struct band_cands *bc, const struct band_run *r,
    const unsigned char *want, const struct plan *plans,
    struct band_result *res);
void solve_band_result_free(struct band_result *res);

/*
 * The outputs (solve_band_out.c).  solve_band_json: r as the summary's "band"
 * object of a policy (samples, seed, nominal and resolved percentiles,
 * the re-solved layers' devices as shares); solve_band_cell: "1.03
 * [0.97-1.10] 78%" (the nominal plan's p50, p05-p95 and share of
 * samples it beats the GPU alone) into buf of n bytes; solve_band_stability:
 * column "stability" appended to a plan table of nominal plan pl over
 * candidates c: per layer the share of re-solved samples that chose the
 * nominal plan's device for it.
 */
struct jsonw;
void solve_band_json(struct jsonw *w, const struct band_result *r, int64_t nlayers);
void solve_band_cell(char *buf, size_t n, const struct band_stat *st);
void solve_band_stability(struct table *out, const struct band_result *r);

/* The device index (0..BAND_NDEV-1) of a candidate kind. */
int solve_band_dev(enum cand_kind k);
extern const char *const solve_band_dev_names[BAND_NDEV];

/* The same draws as solve_band_sample_all, exposed for tests: splitmix64. */
uint64_t solve_band_rng_next(uint64_t *state);
double solve_band_rng_normal(uint64_t *state);

#endif
