/*
 * pf-solve -U: the samples of the costs and the two answers per policy
 * (solve_band.h).  A sample rescales each candidate's parts and nothing
 * else: its GPU time by class, its PIM dispatch and its hand-offs; the
 * PIM engines' own time is exact.  Within a candidate the devices run at
 * once, so its time moves with the busier side:
 *   T' = T + max(G', P' + H') - max(G, P + H)
 * (G the GPU work, P the PIM work with its dispatch, H the hand-offs
 * inside it), exact for a candidate of one step (gpu, pim, split) and,
 * for a pipeline, the change of its busier device's total; at the
 * nominal draw T' = T, so a model without error gives a band of width 0.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "solve_band.h"
#include "xalloc.h"

/* One sample's draws. */
struct draw {
	double	f[BAND_MAXDT][BC_N];	/* systematic factor (mu, sys Z) */
	double	ind[BAND_MAXDT][BC_N];	/* ind sd of each class */
	double	fd, fh;			/* dispatch, hand-off factors */
	double	*zsum;			/* prefix sums of the layers' z */
};

/* The draws of sample s (its own stream: seed and s). */
static void
draw(const struct band_model *m, uint64_t seed, int s, int64_t nlayers,
    struct draw *d)
{
	uint64_t st = seed ^ ((uint64_t)s + 1) * 0xd1342543de82ef95ULL;
	int64_t l;
	int i, c;

	(void)solve_band_rng_next(&st);
	for (i = 0; i < BAND_MAXDT; i++)
		for (c = 0; c < BC_N; c++) {
			const struct band_err *e = &m->e[i][c];
			double z = solve_band_rng_normal(&st);

			d->f[i][c] = e->known ? exp(e->mu + e->sys * z) : 1.0;
			d->ind[i][c] = e->known ? e->ind : 0.0;
		}
	d->fd = m->disp[0] + (m->disp[1] - m->disp[0]) *
	    ((double)(solve_band_rng_next(&st) >> 11) * 0x1p-53);
	d->fh = m->hand[0] + (m->hand[1] - m->hand[0]) *
	    ((double)(solve_band_rng_next(&st) >> 11) * 0x1p-53);
	d->zsum[0] = 0;
	for (l = 0; l < nlayers; l++)
		d->zsum[l + 1] = d->zsum[l] + solve_band_rng_normal(&st);
}

static long long
scale(long long ps, double f)
{
	return llround((double)ps * f);
}

/* Candidate x's sampled times into y (a copy of x). */
static void
sample_cand(const struct cand *x, const struct band_cand *b,
    const struct draw *d, struct cand *y)
{
	double zbar = (d->zsum[x->last + 1] - d->zsum[x->first]) /
	    (double)(x->last - x->first + 1);
	long long g = x->gpu_ps, g2, p2, h2, t;
	int c;

	g2 = g;
	for (c = 0; c < BC_N; c++) {
		/* the independent part's spread falls as 1/sqrt(layers) */
		double f = d->f[b->dt][c] * exp(d->ind[b->dt][c] * zbar);

		g2 += scale(b->g[c], f) - b->g[c];
	}
	p2 = x->pim_ps + scale(b->disp, d->fd) - b->disp;
	h2 = scale(b->inner, d->fh);
	t = x->ps + (g2 > p2 + h2 ? g2 : p2 + h2) -
	    (g > x->pim_ps + b->inner ? g : x->pim_ps + b->inner);
	y->ps = t > 0 ? t : 0;
	y->gpu_ps = g2;
	y->pim_ps = p2;
	y->hin_ps = scale(x->hin_ps, d->fh);
	y->hout_ps = scale(x->hout_ps, d->fh);
}

/* A nominal plan's time under a sample (its hand-offs scaled). */
static double
plan_time(const struct plan *pl, const struct cand *sc, double fh)
{
	double t = 0;
	size_t k;

	for (k = 0; k < pl->nseg; k++)
		t += (double)sc[pl->seg[k]].ps + (double)pl->hps[k] * fh;
	return t;
}

/* Solve p on the sampled candidates, with the whole-machine choice. */
static int
resolve(const struct cand *sc, size_t nc, int64_t nl, enum policy p,
    const struct band_run *r, const struct plan *none, struct plan *pl)
{
	struct objective u = *r->obj;
	int64_t bad, stuck;
	int rc;

	memset(pl, 0, sizeof(*pl));
	rc = solve_dp(sc, nc, nl, p, r->obj, pl, &bad, &stuck);
	if (rc == -2) {
		u.cap_mw = 0;
		rc = solve_dp(sc, nc, nl, p, &u, pl, &bad, &stuck);
	}
	if (rc < 0)
		return -1;
	if (none != NULL && !r->fixed && p != P_ATTNPIM &&
	    objective_less(r->obj, none->ps, none->pj, pl->ps, pl->pj))
		return 1;	/* the none plan */
	return 0;
}

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Percentile q of sorted v[0..n-1], linear between order statistics. */
static double
pct(const double *v, int n, double q)
{
	double h = (n - 1) * q;
	int i = (int)floor(h);

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - i) * (v[i + 1] - v[i]);
}

static void
stat_of(double *v, int n, struct band_stat *st)
{
	int k, w = 0;

	for (k = 0; k < n; k++)
		w += v[k] > 1.0;
	qsort(v, (size_t)n, sizeof(*v), cmpd);
	st->p05 = pct(v, n, 0.05);
	st->p50 = pct(v, n, 0.50);
	st->p95 = pct(v, n, 0.95);
	st->beats = (double)w / n;
}

/* The re-solved plan's device of each layer counted. */
static void
count_plan(const struct cand *c, const struct plan *pl, uint32_t *count)
{
	size_t k;
	int64_t l;

	for (k = 0; k < pl->nseg; k++) {
		const struct cand *x = &c[pl->seg[k]];

		for (l = x->first; l <= x->last; l++)
			count[l * BAND_NDEV + solve_band_dev(x->kind)]++;
	}
}

/* Sample s: the nominal plans timed (sp) and every policy re-solved (sr). */
static int
one_sample(const struct cand *c, size_t nc, int64_t nl, struct cand *sc,
    const struct band_cands *bc, const struct band_run *r,
    const unsigned char *want, const struct plan *plans, struct draw *d,
    int s, double *sp, double *sr, struct band_result *res)
{
	struct plan none, pl;
	double tn;
	size_t i;
	int p, k;

	draw(bc->m, r->seed, s, nl, d);
	for (i = 0; i < nc; i++)
		sample_cand(&c[i], &bc->v[i], d, &sc[i]);
	tn = plan_time(&plans[P_NONE], sc, d->fh);
	for (p = 0; p < P_NPOL; p++)
		if (want[p])
			sp[p * r->samples + s] = tn / plan_time(&plans[p], sc,
			    d->fh);
	if (resolve(sc, nc, nl, P_NONE, r, NULL, &none) < 0)
		return -1;
	for (p = 0; p < P_NPOL; p++) {
		if (!want[p])
			continue;
		if (p == P_NONE)
			k = 1;
		else if ((k = resolve(sc, nc, nl, (enum policy)p, r, &none,
		    &pl)) < 0) {
			plan_free(&none);
			return -1;
		}
		sr[p * r->samples + s] = (double)none.ps /
		    (double)(k ? none.ps : pl.ps);
		count_plan(sc, k ? &none : &pl, res[p].count);
		if (p != P_NONE)
			plan_free(&pl);
	}
	plan_free(&none);
	return 0;
}

int
solve_band_sample_all(const struct cand *c, size_t nc, int64_t nl,
    const struct band_cands *bc, const struct band_run *r,
    const unsigned char *want, const struct plan *plans,
    struct band_result *res)
{
	struct draw d;
	struct cand *sc;
	double *sp, *sr;
	int p, s, n = r->samples, rc = -1;
	size_t k;
	int64_t l;

	if (bc->n != nc) {
		pf_err(bc->fname, "-U: %zu candidates without their classes "
		    "(-D's windows have none)", nc - bc->n);
		return -1;
	}
	d.zsum = xcalloc((size_t)nl + 1, sizeof(*d.zsum));
	sc = xcalloc(nc + 1, sizeof(*sc));
	memcpy(sc, c, nc * sizeof(*sc));
	sp = xcalloc((size_t)P_NPOL * (size_t)n, sizeof(*sp));
	sr = xcalloc((size_t)P_NPOL * (size_t)n, sizeof(*sr));
	for (p = 0; p < P_NPOL; p++) {
		memset(&res[p], 0, sizeof(res[p]));
		if (!want[p])
			continue;
		res[p].count = xcalloc((size_t)nl * BAND_NDEV,
		    sizeof(*res[p].count));
		res[p].nomdev = xcalloc((size_t)nl + 1, 1);
		for (k = 0; k < plans[p].nseg; k++) {
			const struct cand *x = &c[plans[p].seg[k]];

			for (l = x->first; l <= x->last; l++)
				res[p].nomdev[l] = (unsigned char)solve_band_dev(x->kind);
		}
	}
	for (s = 0; s < n; s++)
		if (one_sample(c, nc, nl, sc, bc, r, want, plans, &d, s, sp, sr,
		    res) < 0) {
			pf_err(bc->fname, "-U: sample %d has no plan", s);
			goto out;
		}
	for (p = 0; p < P_NPOL; p++) {
		if (!want[p])
			continue;
		stat_of(sp + (size_t)p * n, n, &res[p].nominal);
		stat_of(sr + (size_t)p * n, n, &res[p].resolved);
		res[p].done = 1;
		res[p].samples = n;
		res[p].seed = r->seed;
	}
	rc = 0;
out:
	free(d.zsum);
	free(sc);
	free(sp);
	free(sr);
	return rc;
}

void
solve_band_result_free(struct band_result *res)
{
	free(res->count);
	free(res->nomdev);
	memset(res, 0, sizeof(*res));
}
