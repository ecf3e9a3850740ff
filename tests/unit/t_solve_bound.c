/*
 * pf-solve -D's lower bound, computed in linear time (sequence points
 * from a running maximum and minimum, each block over the candidates
 * inside it only), against the quadratic computation it replaced
 * (ref_bound.h): on thousands of random DAGs with random candidate
 * tables, every policy, the numbers must be equal; the fast one also
 * packs each block's candidates, drops those another beats on both
 * devices and ends its search once it stops moving, none of which may
 * change a bit of the answer; half the tables come shuffled.
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

int
main(void)
{
	static int64_t pv[MAXN][MAXN], *preds[MAXN];
	static int npreds[MAXN];
	int iter, p, bad = 0, nonneg = 0;

	for (iter = 0; iter < 1500; iter++) {
		int64_t n = rnd(1, iter < 1000 ? 12 : MAXN), i, j;
		int shape = (int)rnd(0, 2);	/* chain, branches, random */

		ncs = 0;
		scale = iter % 3 == 2 ? 999983 : 1;
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
		/*
		 * Half the tables in shuffled order: the candidates are
		 * taken by last layer whatever order they come in.
		 */
		if (iter % 2 == 1)
			for (i = (int64_t)ncs - 1; i > 0; i--) {
				int64_t r = rnd(0, i);
				struct cand tmp = cs[i];

				cs[i] = cs[r];
				cs[r] = tmp;
			}
		for (p = 0; p < P_NPOL; p++) {
			long long a = solve_lower_bound(cs, ncs, n, preds,
			    npreds, (enum policy)p);
			long long b = ref_lower_bound(cs, ncs, n, preds,
			    npreds, (enum policy)p);

			if (a != b && bad++ < 5)
				fprintf(stderr, "iter %d policy %d n %lld: "
				    "%lld, want %lld\n", iter, p, (long long)n,
				    a, b);
			nonneg += b >= 0;
			/* No dependences known: a bound too. */
			a = solve_lower_bound(cs, ncs, n, NULL, NULL,
			    (enum policy)p);
			b = ref_lower_bound(cs, ncs, n, NULL, NULL,
			    (enum policy)p);
			if (a != b && bad++ < 5)
				fprintf(stderr, "iter %d policy %d no preds: "
				    "%lld, want %lld\n", iter, p, a, b);
		}
	}
	CHECK_EQ_I(bad, 0);
	CHECK(nonneg > 2500);	/* most tables have a cover */
	return CHECK_DONE();
}
