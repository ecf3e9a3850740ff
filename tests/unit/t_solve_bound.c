/*
 * pf-solve -D's lower bound (solve_bound.c) against an oracle that
 * computes it from its definition by other means (ref_bound.h), on
 * thousands of small random DAGs with random candidate tables, every
 * policy, with the dependences and without: the fast bound must be the
 * floor of the true value, give or take the rounding it documents.  Half
 * the tables come shuffled.  On larger graphs, where the oracle would take
 * too long, what the bound must be there: -1 exactly when no cover
 * exists, never above the sequential optimum (running the candidates one
 * after another is a schedule), and equal to it on a chain.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "solve.h"
#include "ref_bound.h"

#define MAXN	48
#define MAXC	(MAXN * 12)
#define SMALLN	12

static struct cand cs[MAXC];
static size_t ncs;
/* times in units of this many ps plus a random remainder (1: small) */
static long long scale;

static void
add(int64_t first, int64_t last, enum cand_kind k, int gw, int hide)
{
	struct cand *x = &cs[ncs++];

	memset(x, 0, sizeof(*x));
	x->first = first;
	x->last = last;
	x->kind = k;
	x->gwrite = gw;
	x->hiding = hide;
	/*
	 * Small integers tie and dominate often (the packed search drops a
	 * candidate another beats on both devices); large uneven ones round.
	 */
	x->gpu_ps = rnd(0, 60) * scale + (scale > 1 ? rnd(0, 999) : 0);
	x->pim_ps = rnd(0, 60) * scale + (scale > 1 ? rnd(0, 999) : 0);
	x->ps = (x->gpu_ps > x->pim_ps ? x->gpu_ps : x->pim_ps) + rnd(0, 9);
}

/* A random graph of n layers of one of three shapes, and its candidates. */
static void
table(int64_t n, int64_t pv[][MAXN], int64_t **preds, int *npreds, int shuffle)
{
	int shape = (int)rnd(0, 2);	/* chain, branches, random */
	int64_t i, j;

	ncs = 0;
	for (i = 0; i < n; i++) {
		preds[i] = pv[i];
		npreds[i] = 0;
		for (j = 0; j < i; j++) {
			int edge = shape == 0 ? j == i - 1 :
			    shape == 1 ? (j == i - 1 && rnd(0, 3) > 0) ||
			    (j + 2 == i && rnd(0, 2) == 0) :
			    rnd(0, 3) == 0;

			if (edge && npreds[i] < MAXN)
				pv[i][npreds[i]++] = j;
		}
		if (rnd(0, 12) > 0)
			add(i, i, K_BASE, -1, -1);
		if (rnd(0, 6) > 0)
			add(i, i, K_GPU, -1, -1);
		if (rnd(0, 2) > 0)
			add(i, i, K_PIM, (int)rnd(1, 4), (int)rnd(0, 1));
		if (rnd(0, 2) == 0)
			add(i, i, K_SPLIT, 4, 1);
		if (i + 1 < n && rnd(0, 2) == 0)
			add(i, i + 1, K_PIPE, 4, 1);
		if (i + 2 < n && rnd(0, 4) == 0)
			add(i, i + 2, K_PIPE, 4, 1);
	}
	/* the candidates are taken by last layer whatever order they come in */
	if (shuffle)
		for (i = (int64_t)ncs - 1; i > 0; i--) {
			int64_t r = rnd(0, i);
			struct cand tmp = cs[i];

			cs[i] = cs[r];
			cs[r] = tmp;
		}
}

/*
 * The fast bound a against the true one v: its floor, where the 1e-6 the
 * fast one adds to round off its floating-point error may lift a value
 * just below an integer to it (the oracle's own error is far smaller).
 */
static int
agrees(long long a, long double v)
{
	if (v < 0)
		return a == -1;
	return a >= (long long)floorl(v + 1e-7L) &&
	    a <= (long long)floorl(v + 2e-6L);
}

static int bad;

static void
report(const char *what, int iter, int p, int64_t n, long long a,
    long double v)
{
	if (bad++ < 5)
		fprintf(stderr, "iter %d policy %d n %lld %s: %lld, want "
		    "floor(%.7Lf)\n", iter, p, (long long)n, what, a, v);
}

/* Small graphs: the bound is the oracle's, with and without dependences. */
static void
test_small(void)
{
	static int64_t pv[MAXN][MAXN], *preds[MAXN];
	static int npreds[MAXN];
	int iter, p, nonneg = 0;

	for (iter = 0; iter < 1500; iter++) {
		int64_t n = rnd(1, SMALLN);

		scale = iter % 3 == 2 ? 999983 : 1;
		table(n, pv, preds, npreds, iter % 2);
		for (p = 0; p < P_NPOL; p++) {
			long long a = solve_lower_bound(cs, ncs, n, preds,
			    npreds, (enum policy)p);
			long double v = ref_lower_bound(cs, ncs, n, preds,
			    npreds, (enum policy)p);

			if (!agrees(a, v))
				report("", iter, p, n, a, v);
			nonneg += v >= 0;
			a = solve_lower_bound(cs, ncs, n, NULL, NULL,
			    (enum policy)p);
			v = ref_lower_bound(cs, ncs, n, NULL, NULL,
			    (enum policy)p);
			if (!agrees(a, v))
				report("no preds", iter, p, n, a, v);
		}
	}
	CHECK(nonneg > 2500);	/* most tables have a cover */
}

/* Larger graphs: below the sequential optimum, equal to it on a chain. */
static void
test_large(void)
{
	static int64_t pv[MAXN][MAXN], *preds[MAXN], chain[MAXN], *cp[MAXN];
	static int npreds[MAXN], nc1[MAXN];
	int iter, p;
	int64_t k;

	for (k = 0; k < MAXN; k++) {
		chain[k] = k - 1;
		cp[k] = &chain[k];
		nc1[k] = k > 0;
	}
	for (iter = 0; iter < 500; iter++) {
		int64_t n = rnd(SMALLN + 1, MAXN);

		scale = iter % 3 == 2 ? 999983 : 1;
		table(n, pv, preds, npreds, iter % 2);
		for (p = 0; p < P_NPOL; p++) {
			long long s = ref_sequential(cs, ncs, n, (enum policy)p);
			long long a = solve_lower_bound(cs, ncs, n, preds,
			    npreds, (enum policy)p);

			if (s < 0 ? a != -1 : a < 0 || a > s)
				report("above sequential", iter, p, n, a,
				    (long double)s);
			a = solve_lower_bound(cs, ncs, n, cp, nc1,
			    (enum policy)p);
			if (a != s)
				report("chain", iter, p, n, a, (long double)s);
		}
	}
}

int
main(void)
{
	test_small();
	test_large();
	CHECK_EQ_I(bad, 0);
	return CHECK_DONE();
}
