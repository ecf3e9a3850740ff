/*
 * The exact solver of pf-solve: given candidates (each covers a range of
 * consecutive layers at a known wall time), choose for a policy the
 * sequence of candidates that covers every layer exactly once with the
 * least total time.  A dynamic program over the layer order, f[j] = the
 * best time of layers 0..j-1, f[j+1] = min over candidates c ending at j
 * of f[c.first] + c.time; the plan is its own back-trace.  Times are
 * integer picoseconds, so equal totals are exactly equal and ties go to
 * the candidate that comes first in the input.
 *
 * Policies (share/doc/pimflow-method.md §8, DESIGN.md) only restrict which
 * candidates the program may use.  The objective (struct objective) is a
 * parameter of the same program: time and energy are additive, so one
 * best value per prefix is exact; energy-delay product and a power cap
 * are not, and the program then keeps per prefix the Pareto front of
 * (time, energy) (of (time, energy - cap * time) under a cap), on which
 * the optimum of any objective that grows with both lies.  Pure
 * functions over arrays: no I/O.
 */
#ifndef PF_SOLVE_H
#define PF_SOLVE_H

#include <stddef.h>
#include <stdint.h>

/* The kinds of task.h (same order and values), then the solver's own dag. */
enum cand_kind { K_BASE, K_GPU, K_PIM, K_SPLIT, K_PIPE, K_DAG, K_NKIND };

enum policy { P_NONE, P_NEWTONP, P_NEWTONPP, P_MDDP, P_PIPELINE, P_PIMFLOW,
	P_ATTNPIM, P_NPOL };

struct cand {
	/*
	 * (Eight-byte fields first, then ints, then bytes: no padding in a
	 * struct that pf-solve holds a million of.)
	 */
	char		*id;		/* owned */
	int64_t		 first, last;
	long long	 gpu_ps, pim_ps, ps;
	long long	 pj;		/* energy, static share included (pJ) */
	long long	 static_pj;	/* of which static power x ps */
	long		 line;		/* input line, for diagnostics */
	unsigned char	*dev;		/* K_DAG: device of each layer (0 gpu, 1 pim) */
	/*
	 * Its edges (pf-merge's dev_in, dev_out): who reads its input
	 * (SD_GPU, SD_PIM or both), where its output is (SD_GPU or SD_PIM);
	 * 0 is SD_GPU.  hin_ps is charged when the plan's output so far is
	 * on the GPU and it reads on PIM, hout_ps when its output is on PIM
	 * and what comes next reads on the GPU; *_pj their energy.
	 */
	long long	 hin_ps, hout_ps, hin_pj, hout_pj;
	enum cand_kind	 kind;
	int		 ratio;
	int		 gwrite, hiding;	/* -1 when empty */
	int		 kv;		/* covers an attention matmul over a KV cache */
	int		 kv_gpu;	/* K_GPU on KV layers no pim candidate covers */
	int		 tensor;	/* its GPU pieces on tensor cores: 1, 0, -1 unknown */
	char		 axis;		/* 'h', 'n', 'm' or 0 */
	unsigned char	 din, dout;
};

enum { SD_GPU = 1, SD_PIM = 2 };

/*
 * The program's prefix states and its one transition rule, which the
 * whole-table DP (solve_dp_order) and the forward one of solve_stream.c
 * both follow.  A prefix's output is on the GPU (SOLVE_ST_G); on PIM, the
 * next candidate reading on PIM (SOLVE_ST_P); or on PIM with the hand-off
 * to the GPU already paid (SOLVE_ST_PG), the next reading on the GPU.  A
 * plan ends with the model's output on the GPU: SOLVE_ST_G or SOLVE_ST_PG.
 */
enum solve_state { SOLVE_ST_G, SOLVE_ST_P, SOLVE_ST_PG, SOLVE_NST };

/*
 * Whether a candidate reading on din (struct cand: SD_GPU, SD_PIM or both,
 * 0 is SD_GPU) may follow a prefix in state s: -1 when not; else 1 when
 * it pays its hand-in (hin_ps), 0 when not.
 */
static inline int
solve_step_in(int s, int din)
{
	if (din == 0)
		din = SD_GPU;
	if (s == SOLVE_ST_G)
		return (din & SD_PIM) != 0;
	if (s == SOLVE_ST_P ? din == SD_PIM : (din & SD_GPU) != 0)
		return 0;
	return -1;
}

/*
 * The t-th state (t = 0, 1, ...) a candidate whose output is on dout may
 * leave the prefix it ends in, -1 past the last: SOLVE_ST_G for an output
 * on the GPU; SOLVE_ST_P, then SOLVE_ST_PG (its hand-out, hout_ps, paid)
 * for one on PIM.
 */
static inline int
solve_step_out(int dout, int t)
{
	if (dout != SD_PIM)
		return t == 0 ? SOLVE_ST_G : -1;
	return t == 0 ? SOLVE_ST_P : t == 1 ? SOLVE_ST_PG : -1;
}

/* What a plan minimises, and an optional power cap. */
enum obj_kind { O_TIME, O_ENERGY, O_EDP, O_NOBJ };

struct objective {
	enum obj_kind	 kind;
	long long	 cap_mw;	/* > 0: average power at most this (mW) */
};

struct plan {
	long long	 ps;		/* total */
	long long	 pj;		/* total energy */
	size_t		 nseg;
	size_t		*seg;		/* candidate indices in layer order (owned) */
	long long	*hps, *hpj;	/* per segment: the hand-offs charged at its
					   edges, included in ps and pj (owned) */
};

const char *solve_kind_name(enum cand_kind k);
int solve_kind_parse(const char *s, enum cand_kind *k);
const char *policy_name(enum policy p);
int policy_parse(const char *s, enum policy *p);
const char *objective_name(enum obj_kind o);
int objective_parse(const char *s, enum obj_kind *o);

/*
 * Nonzero if a plan of time ps1 and energy pj1 is strictly better under
 * o->kind than one of ps2, pj2 (the energy-delay product compared
 * exactly, in 128 bits).  The cap is not looked at.
 */
int objective_less(const struct objective *o, long long ps1, long long pj1,
    long long ps2, long long pj2);

/*
 * Nonzero if policy p may use candidate c: none: base; newton+: gpu and
 * pim at one GWRITE group without hiding (pim_gwrite 1, pim_hiding 0);
 * newton++: gpu and pim whose hiding is not 0; mddp: newton++ and split;
 * pipeline: newton++ and pipe; pimflow: all of those and dag; attn-pim
 * (the reference of decoder models, as AttAcc runs): pim (published
 * settings) on the KV-cache layers, gpu on every other.  Split,
 * pipe and dag candidates also need a hiding that is not 0.
 */
int policy_allows(enum policy p, const struct cand *c);

/*
 * Solve policy p over layers 0..nlayers-1 under objective o (NULL: time).
 * A plan's time is its candidates' plus the hand-offs at their edges: the
 * model's input is on the GPU and its output must end there; a candidate
 * that reads on PIM (din) after one whose output is on the GPU pays its
 * hin_ps, one whose output is on PIM (dout) followed by one that reads on
 * the GPU (or the end) pays its hout_ps.  The program keeps three states
 * per prefix (output on the GPU; on PIM for a PIM reader; on PIM, its
 * hand-off to the GPU paid), so it stays exact.
 * Returns 0 with *pl filled (free with plan_free), or -1 when no exact
 * cover exists: then *bad is the first layer no allowed candidate covers,
 * or -1 when every layer is covered but the ranges do not tile (*stuck =
 * the first layer no sequence of candidates can reach past).  Returns -2
 * when covers exist but none keeps the power cap, and -3 when a sum
 * would overflow 64 bits.  Among equally good plans the one whose
 * candidates come first in the input wins.
 */
int solve_dp(const struct cand *c, size_t nc, int64_t nlayers, enum policy p,
    const struct objective *o, struct plan *pl, int64_t *bad,
    int64_t *stuck);
void plan_free(struct plan *pl);
/* The segments put in layer order: a back-trace finds them last first. */
void plan_reverse(struct plan *pl);

/*
 * The candidates of c[0..nc-1] inside layers 0..nlayers-1, sorted once
 * by last layer, then input order, with what the program reads of each
 * and the policies that allow it, so that solving several policies
 * reads the (large) candidates once.  Free with solve_order_free.
 */
struct solve_order;
struct solve_order *solve_order_new(const struct cand *c, size_t nc,
    int64_t nlayers);
void solve_order_free(struct solve_order *so);
/* solve_dp over the candidates of so: the same plan, the same returns. */
int solve_dp_order(const struct solve_order *so, enum policy p,
    const struct objective *o, struct plan *pl, int64_t *bad,
    int64_t *stuck);

/*
 * DAG-aware candidates (pf-solve -D): for every window of 2..window
 * consecutive layers whose dependence graph inside the window (preds[i],
 * npreds[i]) falls apart into independent parts, the best assignment of
 * whole parts to the GPU (each layer at its single-layer gpu time) and
 * to PIM (at its pim time, hiding on, plus its hand-offs in and out: a
 * window reads and leaves its data on the GPU) running at the same time: the
 * window takes max(GPU sum, PIM sum).  Windows with more than 16 parts
 * are skipped.  A window's energy is its layers' candidates' own (pj less
 * static_pj) plus static_w (the partitioned machine's static power, W)
 * over the window's time; the assignment itself is chosen by time.
 * Appends to *c (reallocated; *nc updated) and returns the number added.
 */
size_t solve_dag(struct cand **c, size_t *nc, int64_t nlayers,
    int64_t *const *preds, const int *npreds, int window, double static_w);

/*
 * A lower bound on the time of any schedule of policy p's candidates (dag
 * ones aside) in which every layer runs as one candidate and work that no
 * dependence orders (preds/npreds; NULL: none known) overlaps freely.
 * Sequence points (layers every earlier layer feeds and every later one
 * needs) cut any schedule into blocks run one after another; the bound is
 * the least sum of block bounds over such cuts, a block's bound being its
 * sequential optimum when it is a chain, otherwise the larger of a load
 * bound (max over lam of the least lam*gpu + (1-lam)*pim over exact
 * covers) and its longest producer chain.  In picoseconds, or -1 when
 * there is no cover.
 */
long long solve_lower_bound(const struct cand *c, size_t nc, int64_t n,
    int64_t *const *preds, const int *npreds, enum policy p);

#endif
