/*
 * The dynamic program of solve.c run forward as candidates arrive
 * (solve_stream.h): one best point per prefix state for each streamed
 * policy, the layers each policy covers, and what overflowed.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "solve_stream.h"
#include "xalloc.h"

/* A prefix state's best: its time, the candidate ending it, and how. */
struct spt {
	long long	 t;
	size_t		 cand;
	unsigned char	 has;		/* reached at all */
	unsigned char	 pst;		/* state of the prefix before cand */
	unsigned char	 hin, hout;	/* hand-offs charged with cand */
};

struct solve_stream {
	unsigned	 pols;		/* streamed policies */
	int		 ok;		/* input in order so far */
	int64_t		 lastfirst;	/* first layer of the last candidate */
	int64_t		 maxlast;	/* -1: none yet */
	size_t		 m;		/* candidates added */
	size_t		 cap;		/* prefixes 0..cap-1 allocated */
	struct spt	*fr[P_NPOL];	/* [prefix * SOLVE_NST + state] */
	unsigned char	*cov;		/* [layer]: bit p, p covers it */
	unsigned	 ovf;		/* bit p: a time overflowed */
	int		 efit;		/* energy_fits, -1: not yet known */
};

struct solve_stream *
solve_stream_new(unsigned pols)
{
	struct solve_stream *ss = xcalloc(1, sizeof(*ss));

	ss->pols = pols & ((1u << P_NPOL) - 1) & ~(1u << P_ATTNPIM);
	ss->ok = 1;
	ss->maxlast = -1;
	ss->efit = -1;
	return ss;
}

void
solve_stream_free(struct solve_stream *ss)
{
	int p;

	if (ss == NULL)
		return;
	for (p = 0; p < P_NPOL; p++)
		free(ss->fr[p]);
	free(ss->cov);
	free(ss);
}

/* Room for prefixes 0..need-1 (new ones unreached). */
static void
grow(struct solve_stream *ss, size_t need)
{
	size_t cap = ss->cap ? ss->cap : 1024;
	int p;

	if (need <= ss->cap)
		return;
	while (cap < need)
		cap *= 2;
	for (p = 0; p < P_NPOL; p++) {
		if (!(ss->pols >> p & 1))
			continue;
		ss->fr[p] = xreallocarray(ss->fr[p], cap * SOLVE_NST,
		    sizeof(*ss->fr[p]));
		memset(ss->fr[p] + ss->cap * SOLVE_NST, 0,
		    (cap - ss->cap) * SOLVE_NST * sizeof(*ss->fr[p]));
		if (ss->cap == 0) {
			/* the empty prefix: on the GPU, at time 0 */
			ss->fr[p][SOLVE_ST_G].has = 1;
		}
	}
	ss->cov = xreallocarray(ss->cov, cap, 1);
	memset(ss->cov + ss->cap, 0, cap - ss->cap);
	ss->cap = cap;
}

/* *r = a + b, or -1 on overflow (b >= 0 here: times are not negative). */
static int
add_ll(long long a, long long b, long long *r)
{
	if ((b > 0 && a > LLONG_MAX - b) || (b < 0 && a < LLONG_MIN - b))
		return -1;
	*r = a + b;
	return 0;
}

/* x relaxed into policy p's prefixes: 0, or -1 when a time overflows. */
static int
relax(struct spt *fr, const struct cand *x, size_t i)
{
	int si, ti, tst;

	for (si = 0; si < SOLVE_NST; si++) {
		const struct spt *f = &fr[(size_t)x->first * SOLVE_NST +
		    (size_t)si];
		int hin = solve_step_in(si, x->din);

		if (!f->has || hin < 0)
			continue;
		for (ti = 0; (tst = solve_step_out(x->dout, ti)) >= 0; ti++) {
			int hout = tst == SOLVE_ST_PG;
			struct spt *g = &fr[((size_t)x->last + 1) * SOLVE_NST +
			    (size_t)tst];
			long long t, hps = (hin ? x->hin_ps : 0) +
			    (hout ? x->hout_ps : 0);

			if (add_ll(f->t, x->ps, &t) < 0 ||
			    add_ll(t, hps, &t) < 0)
				return -1;
			/* strict: among equal times the earliest stays */
			if (!g->has || t < g->t) {
				g->t = t;
				g->cand = i;
				g->has = 1;
				g->pst = (unsigned char)si;
				g->hin = (unsigned char)hin;
				g->hout = (unsigned char)hout;
			}
		}
	}
	return 0;
}

void
solve_stream_add(struct solve_stream *ss, const struct cand *x, size_t i)
{
	unsigned mask = 0;
	int64_t j;
	int p;

	if (!ss->ok)
		return;
	/* in order, and the range the solver takes (parse_row checks it) */
	if (x->first < ss->lastfirst || x->first < 0 || x->last < x->first ||
	    x->last >= INT64_MAX / 2 || i != ss->m) {
		ss->ok = 0;
		return;
	}
	ss->lastfirst = x->first;
	ss->m++;
	if (x->last > ss->maxlast)
		ss->maxlast = x->last;
	grow(ss, (size_t)x->last + 2);
	for (p = 0; p < P_NPOL; p++)
		if ((ss->pols >> p & 1) && policy_allows((enum policy)p, x))
			mask |= 1u << p;
	for (j = x->first; j <= x->last; j++)
		ss->cov[j] |= (unsigned char)mask;
	mask &= ~ss->ovf;
	for (p = 0; mask != 0 && p < P_NPOL; p++)
		if ((mask >> p & 1) && relax(ss->fr[p], x, i) < 0)
			ss->ovf |= 1u << p;
}

/*
 * Whether a plan's energy summed along it can overflow: never when the
 * energies of every candidate and hand-off, none negative, sum to a long
 * long (a plan uses each candidate once).
 */
static int
energy_fits(const struct cand *c, size_t m)
{
	long long s = 0;
	size_t k;

	for (k = 0; k < m; k++) {
		const struct cand *x = &c[k];

		if (x->pj < 0 || x->hin_pj < 0 || x->hout_pj < 0 ||
		    add_ll(s, x->pj, &s) < 0 || add_ll(s, x->hin_pj, &s) < 0 ||
		    add_ll(s, x->hout_pj, &s) < 0)
			return 0;
	}
	return 1;
}

void
solve_stream_seal(struct solve_stream *ss, const struct cand *c)
{
	if (ss != NULL && ss->ok && ss->efit < 0)
		ss->efit = energy_fits(c, ss->m);
}

int
solve_stream_plan(struct solve_stream *ss, const struct cand *c,
    size_t nc, int64_t n, enum policy p, const struct objective *o,
    struct plan *pl, int64_t *bad, int64_t *stuck)
{
	const struct spt *fr, *a;
	size_t k, nseg;
	int64_t j;
	int si, bst;

	if (ss == NULL || !ss->ok || p < 0 || p >= P_NPOL ||
	    !(ss->pols >> p & 1) || nc < ss->m || n < 0 ||
	    n <= ss->maxlast ||
	    (o != NULL && (o->kind != O_TIME || o->cap_mw > 0)))
		return SOLVE_STREAM_NONE;
	/* what was appended must be nothing p may use */
	for (k = ss->m; k < nc; k++)
		if (policy_allows(p, &c[k]))
			return SOLVE_STREAM_NONE;
	/* (the energies are final once the candidates are all read) */
	if (ss->efit < 0)
		ss->efit = energy_fits(c, ss->m);
	if (!ss->efit)
		return SOLVE_STREAM_NONE;
	grow(ss, (size_t)n + 1);
	fr = ss->fr[p];
	memset(pl, 0, sizeof(*pl));
	*bad = *stuck = -1;
	for (j = 0; j < n; j++)
		if (!(ss->cov[j] >> p & 1)) {
			*bad = j;
			return -1;
		}
	if (ss->ovf >> p & 1)
		return -3;
	/* the model's output ends on the GPU */
	bst = -1;
	for (si = 0; si < SOLVE_NST; si += SOLVE_ST_PG - SOLVE_ST_G) {
		a = &fr[(size_t)n * SOLVE_NST + (size_t)si];
		if (a->has && (bst < 0 ||
		    a->t < fr[(size_t)n * SOLVE_NST + (size_t)bst].t))
			bst = si;
	}
	if (bst < 0) {
		for (j = 1; j <= n; j++) {
			for (si = 0; si < SOLVE_NST &&
			    !fr[(size_t)j * SOLVE_NST + (size_t)si].has; si++)
				;
			if (si == SOLVE_NST)
				break;
		}
		*stuck = j - 1;
		return -1;
	}
	pl->ps = fr[(size_t)n * SOLVE_NST + (size_t)bst].t;
	/* the back-trace, from the end: at most one segment per layer */
	pl->seg = xcalloc((size_t)n + 1, sizeof(*pl->seg));
	pl->hps = xcalloc((size_t)n + 1, sizeof(*pl->hps));
	pl->hpj = xcalloc((size_t)n + 1, sizeof(*pl->hpj));
	nseg = 0;
	for (j = n, si = bst; j > 0; nseg++) {
		const struct cand *x;

		a = &fr[(size_t)j * SOLVE_NST + (size_t)si];
		x = &c[a->cand];
		pl->seg[nseg] = a->cand;
		pl->hps[nseg] = (a->hin ? x->hin_ps : 0) +
		    (a->hout ? x->hout_ps : 0);
		pl->hpj[nseg] = (a->hin ? x->hin_pj : 0) +
		    (a->hout ? x->hout_pj : 0);
		pl->pj += x->pj + pl->hpj[nseg];
		si = a->pst;
		j = x->first;
	}
	pl->nseg = nseg;
	plan_reverse(pl);
	return 0;
}
