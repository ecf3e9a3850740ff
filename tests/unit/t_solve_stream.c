/*
 * The plans solved as the candidates stream in (solve_stream.h) against
 * solve_dp on the same candidates: on thousands of random tables sorted
 * by first layer (times from a narrow range, so that ties are common;
 * random edges and hand-offs; layers nothing covers, ranges that do not
 * tile, times that overflow), for every streamed policy, the same return,
 * bad and stuck layer, time, energy, segments and hand-offs.  Input out
 * of order, another objective, a policy not streamed, an energy sum that
 * could overflow or a candidate appended that the policy may use: no
 * answer (SOLVE_STREAM_NONE), never a different one.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve_stream.h"
#include "check.h"

#define MAXC 400

static struct cand cs[MAXC];
static size_t ncs;

static void
add(int64_t first, int64_t last, enum cand_kind k, long long ps)
{
	struct cand *x = &cs[ncs++];

	memset(x, 0, sizeof(*x));
	x->first = first;
	x->last = last;
	x->kind = k;
	x->gwrite = (int)rnd(-1, 4);
	x->hiding = (int)rnd(-1, 1);
	x->ps = ps;
	x->pj = rnd(0, 9);
	x->din = (unsigned char)rnd(0, 3);
	x->dout = (unsigned char)rnd(0, 2);
	if (rnd(0, 1)) {
		x->hin_ps = rnd(0, 3), x->hin_pj = rnd(0, 3);
		x->hout_ps = rnd(0, 3), x->hout_pj = rnd(0, 3);
	}
}

static int
byfirst(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	/* the shuffle before decides among equal firsts */
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* A random table of n layers sorted by first layer (unless shuffled). */
static int64_t
randtable(int sorted)
{
	int64_t n = rnd(1, 12), i;
	size_t k;

	ncs = 0;
	for (i = 0; i < n; i++) {
		int c = (int)rnd(0, 6);

		/* most layers get a GPU-alone way, so that many plans exist */
		if (rnd(0, 5) > 0)
			add(i, i, rnd(0, 1) ? K_BASE : K_GPU, rnd(1, 4));
		if (rnd(0, 5) > 0)
			add(i, i, K_GPU, rnd(1, 4));

		while (c-- > 0 && ncs + 4 < MAXC) {
			int64_t len = rnd(0, 3) == 0 ? rnd(1, 3) : 0;

			add(i, i + len < n ? i + len : n - 1,
			    (enum cand_kind)rnd(0, K_PIPE), rnd(1, 4));
		}
	}
	/* a shuffle, then a stable sort by first: any order within a layer */
	for (k = 0; k < ncs; k++)
		cs[k].line = (long)rnd(0, 1000000);
	if (sorted)
		qsort(cs, ncs, sizeof(*cs), byfirst);
	else
		for (k = ncs; k > 1; k--) {
			size_t j = (size_t)rnd(0, (int64_t)k - 1);
			struct cand t = cs[k - 1];

			cs[k - 1] = cs[j];
			cs[j] = t;
		}
	return n;
}

static struct solve_stream *
streamed(unsigned pols)
{
	struct solve_stream *ss = solve_stream_new(pols);
	size_t k;

	for (k = 0; k < ncs; k++)
		solve_stream_add(ss, &cs[k], k);
	return ss;
}

static int nsame, nfail, nplan;

/* Policy p from the stream equals solve_dp over cs (n layers). */
static void
same(struct solve_stream *ss, int64_t n, enum policy p)
{
	struct plan a, b;
	int64_t bad1, stuck1, bad2, stuck2;
	int r1 = solve_dp(cs, ncs, n, p, NULL, &a, &bad1, &stuck1);
	int r2 = solve_stream_plan(ss, cs, ncs, n, p, NULL, &b, &bad2, &stuck2);
	size_t k;

	CHECK_EQ_I(r2, r1);
	if (r2 == SOLVE_STREAM_NONE) {
		plan_free(&a);
		return;
	}
	nsame++;
	if (r1 == 0 && r2 == 0) {
		nplan++;
		CHECK_EQ_I(b.ps, a.ps);
		CHECK_EQ_I(b.pj, a.pj);
		CHECK_EQ_I(b.nseg, a.nseg);
		for (k = 0; k < a.nseg && k < b.nseg; k++) {
			CHECK_EQ_I(b.seg[k], a.seg[k]);
			CHECK_EQ_I(b.hps[k], a.hps[k]);
			CHECK_EQ_I(b.hpj[k], a.hpj[k]);
		}
		plan_free(&b);
	} else {
		nfail++;
		CHECK_EQ_I(bad2, bad1);
		CHECK_EQ_I(stuck2, stuck1);
	}
	plan_free(&a);
}

static void
test_random(void)
{
	int iter, p;

	for (iter = 0; iter < 4000; iter++) {
		int64_t n = randtable(1), extra = iter % 5 == 4 ? 2 : 0;
		struct solve_stream *ss;

		/* times that overflow, now and then */
		if (iter % 7 == 3 && ncs > 0)
			cs[rnd(0, (int64_t)ncs - 1)].ps = LLONG_MAX - rnd(0, 3);
		ss = streamed(~0u);
		for (p = 0; p < P_NPOL; p++)
			if (p != P_ATTNPIM)
				same(ss, n + extra, (enum policy)p);
		solve_stream_free(ss);
	}
	CHECK(nplan > 3000);
	CHECK(nfail > 3000);
	printf("%d streamed answers as solve_dp's: %d plans, %d failures\n",
	    nsame, nplan, nfail);
}

/* Where the stream has no answer, it says so. */
static void
test_none(void)
{
	struct objective en = { O_ENERGY, 0 }, cap = { O_TIME, 1000 };
	struct solve_stream *ss;
	struct plan pl;
	int64_t n, bad, stuck;
	size_t k;
	int iter, none = 0;

	for (iter = 0; iter < 300; iter++) {
		n = randtable(0);
		for (k = 1; k < ncs && cs[k].first >= cs[k - 1].first; k++)
			;
		ss = streamed(~0u);
		if (k < ncs) {
			/* out of order: nothing */
			CHECK_EQ_I(solve_stream_plan(ss, cs, ncs, n, P_PIMFLOW,
			    NULL, &pl, &bad, &stuck), SOLVE_STREAM_NONE);
			none++;
		}
		solve_stream_free(ss);
	}
	CHECK(none > 100);
	n = randtable(1);
	ss = streamed(1u << P_NONE | 1u << P_MDDP | 1u << P_ATTNPIM);
	CHECK_EQ_I(solve_stream_plan(ss, cs, ncs, n, P_PIMFLOW, NULL, &pl,
	    &bad, &stuck), SOLVE_STREAM_NONE);
	CHECK_EQ_I(solve_stream_plan(ss, cs, ncs, n, P_ATTNPIM, NULL, &pl,
	    &bad, &stuck), SOLVE_STREAM_NONE);
	CHECK_EQ_I(solve_stream_plan(ss, cs, ncs, n, P_MDDP, &en, &pl,
	    &bad, &stuck), SOLVE_STREAM_NONE);
	CHECK_EQ_I(solve_stream_plan(ss, cs, ncs, n, P_MDDP, &cap, &pl,
	    &bad, &stuck), SOLVE_STREAM_NONE);
	/* layers before the last candidate's end: not the stream's table */
	if (n > 1)
		CHECK_EQ_I(solve_stream_plan(ss, cs, ncs, n - 1, P_MDDP, NULL,
		    &pl, &bad, &stuck), SOLVE_STREAM_NONE);
	same(ss, n, P_MDDP);
	same(ss, n, P_NONE);
	/* an appended candidate: for the policies that may use it, nothing */
	add(0, n - 1, K_DAG, 1);
	same(ss, n, P_MDDP);
	CHECK_EQ_I(solve_stream_plan(ss, cs, ncs, n, P_PIMFLOW, NULL, &pl,
	    &bad, &stuck), SOLVE_STREAM_NONE);
	solve_stream_free(ss);
	/* energies whose sum could overflow: nothing (solve_dp decides) */
	n = randtable(1);
	if (ncs > 1) {
		cs[0].pj = LLONG_MAX / 2 + 1;
		cs[1].pj = LLONG_MAX / 2 + 1;
	}
	ss = streamed(~0u);
	if (ncs > 1)
		CHECK_EQ_I(solve_stream_plan(ss, cs, ncs, n, P_NONE, NULL,
		    &pl, &bad, &stuck), SOLVE_STREAM_NONE);
	solve_stream_free(ss);
}

int
main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_random();
	test_none();
	return CHECK_DONE();
}
