/*
 * The solver against brute force: on hundreds of random small candidate
 * tables, for every policy, solve_dp's optimum must equal the minimum
 * over every exact cover enumerated recursively, its plan must be a
 * valid cover of allowed candidates whose times sum to it, and it must
 * fail exactly when no cover exists.  The policies' optima must nest.
 * The same for every objective (energy, energy-delay product) with and
 * without a power cap, on tables whose candidates also carry energies.
 * The DAG-aware candidates are checked against an enumeration of every
 * device assignment of a window's layers that no dependence crosses.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "solve.h"
#include "check.h"

#define MAXC 200

static struct cand cs[MAXC];
static size_t ncs;
static int with_handoff;	/* randtable gives candidates hand-offs */

static void
add(int64_t first, int64_t last, enum cand_kind k, int gw, int hide,
    long long ps)
{
	struct cand *x = &cs[ncs++];
	char id[32];

	memset(x, 0, sizeof(*x));
	snprintf(id, sizeof(id), "c%zu", ncs);
	x->id = strdup(id);
	x->first = first;
	x->last = last;
	x->kind = k;
	x->gwrite = gw;
	x->hiding = hide;
	x->ps = ps;
	x->pj = rnd(0, 60);
	/* the edges as pf-merge writes them for each kind */
	x->din = x->dout = SD_GPU;
	if (k == K_PIM)
		x->din = x->dout = SD_PIM;
	else if (k == K_SPLIT)
		x->din = SD_GPU | SD_PIM;
	else if (k == K_PIPE) {
		x->din = (unsigned char)rnd(1, 3);
		x->dout = (unsigned char)rnd(1, 2);
	}
	if (with_handoff && (x->din & SD_PIM))
		x->hin_ps = rnd(0, 20), x->hin_pj = rnd(0, 10);
	if (with_handoff && x->dout == SD_PIM)
		x->hout_ps = rnd(0, 20), x->hout_pj = rnd(0, 10);
}

/*
 * The hand-offs between a candidate whose output is on device prev
 * (hout: its hand-off to the GPU) and x (NULL: the end, read on the GPU),
 * as pf-solve(1) states the rule: time, and energy in *pj.
 */
static long long
edge(int prev, long long hout, long long hout_pj, const struct cand *x,
    long long *pj)
{
	int din = x != NULL ? x->din : SD_GPU;

	*pj = 0;
	if (prev == SD_PIM && (din & SD_GPU)) {
		*pj = hout_pj;
		return hout;
	}
	if (prev == SD_GPU && (din & SD_PIM)) {
		*pj = x->hin_pj;
		return x->hin_ps;
	}
	return 0;
}

static void
clear(void)
{
	size_t i;

	for (i = 0; i < ncs; i++) {
		free(cs[i].id);
		free(cs[i].dev);
	}
	ncs = 0;
}

/*
 * Minimum over every exact cover of layers pos..n-1 (LLONG_MAX if none),
 * after a candidate whose output is on device prev with hand-off hout.
 */
static long long
brute_from(int64_t pos, int64_t n, enum policy p, int prev, long long hout,
    long long hout_pj)
{
	long long best = LLONG_MAX, t, e, pj;
	size_t i;

	if (pos == n)
		return edge(prev, hout, hout_pj, NULL, &pj);
	for (i = 0; i < ncs; i++) {
		if (cs[i].first != pos || cs[i].last >= n ||
		    !policy_allows(p, &cs[i]))
			continue;
		e = edge(prev, hout, hout_pj, &cs[i], &pj);
		t = brute_from(cs[i].last + 1, n, p, cs[i].dout, cs[i].hout_ps,
		    cs[i].hout_pj);
		if (t != LLONG_MAX && t + cs[i].ps + e < best)
			best = t + cs[i].ps + e;
	}
	return best;
}

static long long
brute(int64_t pos, int64_t n, enum policy p)
{
	return brute_from(pos, n, p, SD_GPU, 0, 0);
}

/*
 * Best objective value over every exact cover of layers pos..n-1 with
 * time t and energy e so far (LLONG_MAX if none keeps the cap).
 */
static long long
brute_obj_from(int64_t pos, int64_t n, enum policy p,
    const struct objective *o, long long t, long long e, int prev,
    long long hout, long long hout_pj)
{
	long long best = LLONG_MAX, v, h, hj;
	size_t i;

	if (pos == n) {
		t += edge(prev, hout, hout_pj, NULL, &hj);
		e += hj;
		if (o->cap_mw > 0 && 1000 * e - o->cap_mw * t > 0)
			return LLONG_MAX;
		return o->kind == O_TIME ? t : o->kind == O_ENERGY ? e : t * e;
	}
	for (i = 0; i < ncs; i++) {
		if (cs[i].first != pos || cs[i].last >= n ||
		    !policy_allows(p, &cs[i]))
			continue;
		h = edge(prev, hout, hout_pj, &cs[i], &hj);
		v = brute_obj_from(cs[i].last + 1, n, p, o, t + cs[i].ps + h,
		    e + cs[i].pj + hj, cs[i].dout, cs[i].hout_ps,
		    cs[i].hout_pj);
		if (v < best)
			best = v;
	}
	return best;
}

static long long
brute_obj(int64_t pos, int64_t n, enum policy p, const struct objective *o,
    long long t, long long e)
{
	return brute_obj_from(pos, n, p, o, t, e, SD_GPU, 0, 0);
}

/* A random table; complete = every layer has base, gpu and both pims. */
static int64_t
randtable(int complete)
{
	int64_t n = rnd(1, 7), i;
	int k;

	clear();
	for (i = 0; i < n; i++) {
		if (complete || rnd(0, 9) > 0)
			add(i, i, K_BASE, -1, -1, rnd(1, 40));
		if (complete || rnd(0, 9) > 0)
			add(i, i, K_GPU, -1, -1, rnd(1, 40));
		if ((complete && rnd(0, 3) > 0) || rnd(0, 1)) {
			add(i, i, K_PIM, 4, 1, rnd(1, 40));
			add(i, i, K_PIM, 1, 0, rnd(1, 50));
		}
		for (k = (int)rnd(0, 3); k > 0; k--)
			add(i, i, K_SPLIT, 4, (int)rnd(0, 4) > 0, rnd(1, 30));
		if (i + 1 < n && rnd(0, 2) == 0)
			add(i, i + 1, K_PIPE, 4, 1, rnd(1, 60));
		if (i + 2 < n && rnd(0, 3) == 0)
			add(i, i + 2, K_PIPE, 4, 1, rnd(1, 80));
		if (!complete && i + 1 < n && rnd(0, 5) == 0)
			add(i, i + 1, (enum cand_kind)rnd(0, 4), 4, 1,
			    rnd(1, 60));
	}
	/* the solver must not rely on the input order of candidates */
	for (i = (int64_t)ncs - 1; i > 0; i--) {
		int64_t j = rnd(0, i);
		struct cand t = cs[i];

		cs[i] = cs[j];
		cs[j] = t;
	}
	return n;
}

/*
 * The policy table of PIMFlow's paper (section 8 of its artifact notes),
 * written out, and attn-pim (the last column): pim with the published
 * settings on KV-cache candidates, gpu on all others.
 */
static void
test_policies(void)
{
	static const struct {
		enum cand_kind	k;
		int		gw, hide, kv;
		const char	*allowed;	/* one char per policy, in order */
	} tab[] = {
		{ K_BASE, -1, -1, 0, "1000000" },
		{ K_GPU, -1, -1, 0, "0111111" },
		{ K_PIM, 4, 1, 0, "0011110" },
		{ K_PIM, 1, 0, 0, "0100000" },
		{ K_PIM, 4, 0, 0, "0000000" },
		{ K_SPLIT, 4, 1, 0, "0001010" },
		{ K_SPLIT, 1, 0, 0, "0000000" },
		{ K_PIPE, 4, 1, 0, "0000110" },
		{ K_DAG, -1, -1, 0, "0000010" },
		{ K_BASE, -1, -1, 1, "1000000" },
		{ K_GPU, -1, -1, 1, "0111110" },
		{ K_PIM, 4, 1, 1, "0011111" },
		{ K_PIM, -1, -1, 1, "0011111" },
		{ K_PIM, 1, 0, 1, "0100000" },
		{ K_SPLIT, 4, 1, 1, "0001010" },
	};
	struct cand c;
	size_t i;
	int p;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		memset(&c, 0, sizeof(c));
		c.kind = tab[i].k;
		c.gwrite = tab[i].gw;
		c.hiding = tab[i].hide;
		c.kv = tab[i].kv;
		CHECK_EQ_I(strlen(tab[i].allowed), P_NPOL);
		for (p = 0; p < P_NPOL; p++)
			CHECK_EQ_I(policy_allows((enum policy)p, &c),
			    tab[i].allowed[p] == '1');
	}
}

static int nsolved, nfailed;

static void
check_policy(int64_t n, enum policy p, long long *out)
{
	struct plan pl;
	long long want = brute(0, n, p), sum = 0;
	int64_t bad, stuck, next = 0;
	size_t k;

	*out = LLONG_MAX;
	if (solve_dp(cs, ncs, n, p, NULL, &pl, &bad, &stuck) < 0) {
		CHECK(want == LLONG_MAX);
		CHECK(bad >= 0 || stuck >= 0);
		nfailed++;
		return;
	}
	nsolved++;
	CHECK_EQ_I(pl.ps, want);
	for (k = 0; k < pl.nseg; k++) {
		const struct cand *x = &cs[pl.seg[k]];

		CHECK_EQ_I(x->first, next);
		CHECK(policy_allows(p, x));
		next = x->last + 1;
		sum += x->ps + pl.hps[k];
	}
	CHECK_EQ_I(next, n);
	CHECK_EQ_I(sum, pl.ps);
	*out = pl.ps;
	plan_free(&pl);
}

static void
test_brute(void)
{
	long long t[P_NPOL];
	int iter, p;
	int64_t n;

	for (iter = 0; iter < 900; iter++) {
		with_handoff = iter % 3 == 2;
		n = randtable(iter % 2);
		for (p = 0; p < P_NPOL; p++)
			check_policy(n, (enum policy)p, &t[p]);
		for (p = 0; p < P_NPOL; p++) {
			long long lb = solve_lower_bound(cs, ncs, n, NULL, NULL,
			    (enum policy)p);
			int64_t chain[8], *cp[8];
			int nc1[8], k;

			/* a sequential plan is one schedule too */
			CHECK(t[p] == LLONG_MAX ? lb == -1 : lb >= 0 && lb <= t[p]);
			/* on a chain nothing overlaps: the bound is the optimum */
			for (k = 0; k < n; k++) {
				chain[k] = k - 1;
				cp[k] = &chain[k];
				nc1[k] = k > 0;
			}
			lb = solve_lower_bound(cs, ncs, n, cp, nc1, (enum policy)p);
			/* the bound leaves the hand-offs out (they are >= 0) */
			if (with_handoff)
				CHECK(t[p] == LLONG_MAX ? lb == -1 :
				    lb >= 0 && lb <= t[p]);
			else
				CHECK_EQ_I(lb, t[p] == LLONG_MAX ? -1 : t[p]);
		}
		if (t[P_NEWTONPP] == LLONG_MAX)
			continue;
		/* nested choice sets, nested optima */
		CHECK(t[P_PIMFLOW] <= t[P_MDDP]);
		CHECK(t[P_MDDP] <= t[P_NEWTONPP]);
		CHECK(t[P_PIMFLOW] <= t[P_PIPELINE]);
		CHECK(t[P_PIPELINE] <= t[P_NEWTONPP]);
	}
}

/* Nonzero if layer b depends on layer a (a < b) through layers in [lo, b]. */
static int
reaches(int64_t a, int64_t b, int64_t lo, int64_t *const *preds,
    const int *np)
{
	int q;

	if (a == b)
		return 1;
	for (q = 0; q < np[b]; q++)
		if (preds[b][q] >= lo && preds[b][q] >= a &&
		    reaches(a, preds[b][q], lo, preds, np))
			return 1;
	return 0;
}

/*
 * The true optimum of any schedule of whole layers on two devices (gpu
 * time g, pim time pm, -1 = not on PIM) under the dependences: every
 * device assignment and every topological order (each device serves its
 * layers in that order, as early as producers allow) for n <= 6.
 */
static long long best_sched;

static void
perm(int64_t *order, int k, int64_t n, unsigned used, int64_t *const *preds,
    const int *np, const long long *g, const long long *pm)
{
	int64_t i, t;
	unsigned m;
	int q;

	if (k == n) {
		for (m = 0; m < 1u << n; m++) {
			long long fin[10], dev[2] = { 0, 0 }, end = 0, st;
			int ok = 1;

			for (t = 0; t < n && ok; t++) {
				int d;

				i = order[t];
				d = m >> i & 1;
				if (d && pm[i] < 0) {
					ok = 0;
					break;
				}
				st = dev[d];
				for (q = 0; q < np[i]; q++)
					if (fin[preds[i][q]] > st)
						st = fin[preds[i][q]];
				fin[i] = st + (d ? pm[i] : g[i]);
				dev[d] = fin[i];
				if (fin[i] > end)
					end = fin[i];
			}
			if (ok && end < best_sched)
				best_sched = end;
		}
		return;
	}
	for (i = 0; i < n; i++) {
		int ready = !(used >> i & 1);

		for (q = 0; ready && q < np[i]; q++)
			ready = used >> preds[i][q] & 1;
		if (!ready)
			continue;
		order[k] = i;
		perm(order, k + 1, n, used | 1u << i, preds, np, g, pm);
	}
}

static void
test_dag(void)
{
	int64_t *preds[10], n, i, j;
	int np[10], iter, q, ndag = 0, ngain = 0, ntight = 0, nexact = 0;
	int nopt = 0;
	long long g[10], pm[10], ge[10], pe[10];

	for (iter = 0; iter < 300; iter++) {
		struct cand *c;
		/* (every other table's PIM layers hand their data over) */
		size_t nc, k, base;
		struct plan a, b;
		int64_t bad, stuck;
		int w = (int)rnd(2, 5);

		n = rnd(2, 9);
		clear();
		with_handoff = iter % 2;
		for (i = 0; i < n; i++) {
			preds[i] = calloc(3, sizeof(int64_t));
			np[i] = 0;
			for (q = 0; q < 2 && i > 0; q++)
				if (rnd(0, 2) > 0) {
					int64_t v = rnd(0, i - 1);

					if (np[i] == 0 || preds[i][0] != v)
						preds[i][np[i]++] = v;
				}
			g[i] = rnd(1, 30);
			add(i, i, K_GPU, -1, -1, g[i]);
			ge[i] = cs[ncs - 1].pj;
			pm[i] = rnd(0, 3) ? rnd(1, 30) : -1;
			if (pm[i] >= 0) {
				add(i, i, K_PIM, 4, 1, pm[i]);
				pe[i] = cs[ncs - 1].pj;
				/* on PIM in a window: with its hand-offs */
				pm[i] += cs[ncs - 1].hin_ps + cs[ncs - 1].hout_ps;
			}
		}
		c = malloc(ncs * sizeof(*c));
		memcpy(c, cs, ncs * sizeof(*c));
		nc = base = ncs;
		solve_dag(&c, &nc, n, preds, np, w, 0.5);
		for (k = base; k < nc; k++) {
			const struct cand *x = &c[k];
			int64_t lo = x->first, hi = x->last, len = hi - lo + 1;
			long long best = LLONG_MAX;
			unsigned m;

			ndag++;
			CHECK(x->kind == K_DAG && len >= 2 && len <= w);
			/* no dependence crosses devices; sums as claimed */
			{
				long long sg = 0, sp = 0;

				for (i = lo; i <= hi; i++) {
					for (j = lo; j < i; j++)
						if (x->dev[i - lo] != x->dev[j - lo])
							CHECK(!reaches(j, i, lo, preds, np));
					if (x->dev[i - lo])
						sp += pm[i];
					else
						sg += g[i];
				}
				CHECK_EQ_I(x->gpu_ps, sg);
				CHECK_EQ_I(x->pim_ps, sp);
				CHECK_EQ_I(x->ps, sg > sp ? sg : sp);
				/* its energy: its layers' own plus 0.5 W x its time */
				{
					long long e = llround(0.5 * (double)x->ps);

					for (i = lo; i <= hi; i++)
						e += x->dev[i - lo] ? pe[i] : ge[i];
					CHECK_EQ_I(x->pj, e);
					CHECK_EQ_I(x->static_pj,
					    llround(0.5 * (double)x->ps));
				}
			}
			/* optimal over every valid assignment of layers */
			for (m = 1; m + 1 < 1u << len; m++) {
				long long sg = 0, sp = 0;
				int ok = 1;

				for (i = lo; i <= hi && ok; i++) {
					int d = m >> (i - lo) & 1;

					for (j = lo; j < i && ok; j++)
						if ((m >> (j - lo) & 1) != (unsigned)d &&
						    reaches(j, i, lo, preds, np))
							ok = 0;
					if (d && pm[i] < 0)
						ok = 0;
					if (d)
						sp += pm[i];
					else
						sg += g[i];
				}
				if (ok && (sg > sp ? sg : sp) < best)
					best = sg > sp ? sg : sp;
			}
			CHECK_EQ_I(x->ps, best);
		}
		/* brute force finds no valid assignment where none was added */
		CHECK(solve_dp(c, base, n, P_PIMFLOW, NULL, &a, &bad, &stuck) == 0);
		CHECK(solve_dp(c, nc, n, P_PIMFLOW, NULL, &b, &bad, &stuck) == 0);
		CHECK(b.ps <= a.ps);
		ngain += b.ps < a.ps;
		/* the -D plan is one schedule: the bound may not exceed it */
		{
			long long lb = solve_lower_bound(c, nc, n, preds, np,
			    P_PIMFLOW);

			CHECK(lb >= 0 && lb <= b.ps);
			ntight += lb == b.ps;
			/* and no schedule at all may beat it */
			if (n <= 6) {
				int64_t order[10];

				best_sched = LLONG_MAX;
				perm(order, 0, n, 0, preds, np, g, pm);
				CHECK(lb <= best_sched);
				/*
				 * (the schedules charge every PIM layer its
				 * hand-offs; a plan's chain of PIM layers does
				 * not: compared only without them)
				 */
				if (!with_handoff) {
					CHECK(best_sched <= b.ps);
					nexact++;
					nopt += best_sched == b.ps;
				}
			}
		}
		plan_free(&a);
		plan_free(&b);
		for (k = base; k < nc; k++) {
			free(c[k].id);
			free(c[k].dev);
		}
		free(c);
		for (i = 0; i < n; i++)
			free(preds[i]);
	}
	CHECK(ndag > 100);
	CHECK(ngain > 10);
	CHECK(ntight > 10);
	CHECK(nexact > 50);
	printf("%d dag candidates, %d tables improved, bound met %d times; "
	    "%d exact schedules, -D optimal in %d\n", ndag, ngain, ntight,
	    nexact, nopt);
}

/*
 * Every objective, with and without a cap, against brute force: the
 * optimum's value, a valid cover whose sums are the plan's, failure (-2)
 * exactly when no cover keeps the cap; the whole Pareto machinery also
 * under time and energy with a cap.
 */
static void
test_objectives(void)
{
	int iter, p, k, ncap = 0, nnocap = 0, nobj = 0;
	int64_t n, bad, stuck, next;
	struct objective o;

	for (iter = 0; iter < 600; iter++) {
		with_handoff = iter % 3 == 2;
		n = randtable(iter % 2);
		for (k = 0; k < 6; k++) {
			o.kind = (enum obj_kind)(k % 3);
			/* average power cap between 0.2 and 3 pJ/ps (= W) */
			o.cap_mw = k < 3 ? 0 : (long long)rnd(200, 3000);
			for (p = 0; p < P_NPOL; p++) {
				long long want = brute_obj(0, n, (enum policy)p,
				    &o, 0, 0), st = 0, se = 0, got;
				struct plan pl;
				size_t q;
				int rc = solve_dp(cs, ncs, n, (enum policy)p, &o,
				    &pl, &bad, &stuck);

				if (rc == -1) {
					CHECK(brute(0, n, (enum policy)p) ==
					    LLONG_MAX);
					continue;
				}
				if (rc == -2) {
					CHECK(o.cap_mw > 0 && want == LLONG_MAX);
					nnocap++;
					continue;
				}
				CHECK_EQ_I(rc, 0);
				next = 0;
				for (q = 0; q < pl.nseg; q++) {
					const struct cand *x = &cs[pl.seg[q]];

					CHECK_EQ_I(x->first, next);
					CHECK(policy_allows((enum policy)p, x));
					next = x->last + 1;
					st += x->ps + pl.hps[q];
					se += x->pj + pl.hpj[q];
				}
				CHECK_EQ_I(next, n);
				CHECK_EQ_I(st, pl.ps);
				CHECK_EQ_I(se, pl.pj);
				got = o.kind == O_TIME ? pl.ps : o.kind ==
				    O_ENERGY ? pl.pj : pl.ps * pl.pj;
				CHECK_EQ_I(got, want);
				if (o.cap_mw > 0) {
					CHECK(1000 * pl.pj - o.cap_mw * pl.ps <= 0);
					ncap++;
				}
				nobj++;
				plan_free(&pl);
			}
		}
	}
	CHECK(nobj > 5000);
	CHECK(ncap > 1000);
	CHECK(nnocap > 100);
	printf("%d objective optima, %d under a cap, %d caps no plan keeps\n",
	    nobj, ncap, nnocap);
}

/* The energy-delay product is compared in 128 bits. */
static void
test_edp_compare(void)
{
	struct objective o = { O_EDP, 0 };
	long long big = 3000000000000LL;	/* 3e12: products past 2^63 */

	CHECK(objective_less(&o, big, big, big, big + 1));
	CHECK(!objective_less(&o, big, big + 1, big, big));
	CHECK(objective_less(&o, big + 1, big - 1, big, big));
	CHECK(!objective_less(&o, big, big, big, big));
}

int
main(int argc, char **argv)
{
	(void)argc;
	pf_setprogname(argv[0]);
	check_rng = 0x9E3779B97F4A7C15ULL;
	test_policies();
	test_brute();
	CHECK(nsolved > 1000);
	CHECK(nfailed > 50);
	printf("%d policies solved, %d without cover\n", nsolved, nfailed);
	test_objectives();
	test_edp_compare();
	test_dag();
	clear();
	return CHECK_DONE();
}
