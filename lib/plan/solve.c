/*
 * Exact segmentation DP over the layer order (solve.h); the DAG-aware
 * co-scheduling candidates are solve_dag.c's, the bound solve_bound.c's.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "nametab.h"
#include "solve.h"
#include "task.h"
#include "xalloc.h"

static const char *const polnames[P_NPOL] = {
	"none", "newton+", "newton++", "mddp", "pipeline", "pimflow", "attn-pim"
};

/* The kinds of tasks.csv are task.h's, in its order; dag is the solver's own. */
_Static_assert((int)K_PIPE == (int)TK_PIPE && (int)K_DAG == (int)TK_NKIND,
    "enum cand_kind follows enum task_kind");
const char *
solve_kind_name(enum cand_kind k)
{
	return k == K_DAG ? "dag" : task_kind_name((enum task_kind)k);
}

int
solve_kind_parse(const char *s, enum cand_kind *k)
{
	enum task_kind tk;

	if (task_kind_parse(s, &tk) < 0)
		return -1;
	*k = (enum cand_kind)tk;
	return 0;
}

NAMETAB_PAIR(enum policy, polnames, P_NPOL, policy_name, policy_parse)

int
policy_allows(enum policy p, const struct cand *c)
{
	int opt = c->hiding != 0;	/* published PIM settings (GW, hiding) */

	/* (a KV layer PIM refused, with no pim candidate, stays on the GPU) */
	if (p == P_ATTNPIM)
		return c->kind == K_GPU ? !c->kv || c->kv_gpu : c->kind == K_PIM &&
		    c->kv && opt;
	switch (c->kind) {
	case K_BASE:
		return p == P_NONE;
	case K_GPU:
		return p != P_NONE;
	case K_PIM:
		if (p == P_NEWTONP)
			return c->gwrite == 1 && c->hiding == 0;
		return p != P_NONE && opt;
	case K_SPLIT:
		return (p == P_MDDP || p == P_PIMFLOW) && opt;
	case K_PIPE:
		return (p == P_PIPELINE || p == P_PIMFLOW) && opt;
	case K_DAG:
		return p == P_PIMFLOW;
	default:
		return 0;
	}
}

void
plan_free(struct plan *pl)
{
	free(pl->seg);
	free(pl->hps);
	free(pl->hpj);
	memset(pl, 0, sizeof(*pl));
}

void
plan_reverse(struct plan *pl)
{
	size_t k, n = pl->nseg;

	for (k = 0; k < n / 2; k++) {
		size_t t = pl->seg[k];
		long long u = pl->hps[k], v = pl->hpj[k];

		pl->seg[k] = pl->seg[n - 1 - k];
		pl->hps[k] = pl->hps[n - 1 - k];
		pl->hpj[k] = pl->hpj[n - 1 - k];
		pl->seg[n - 1 - k] = t;
		pl->hps[n - 1 - k] = u;
		pl->hpj[n - 1 - k] = v;
	}
}

static const char *const objnames[O_NOBJ] = { "time", "energy", "edp" };

NAMETAB_PAIR(enum obj_kind, objnames, O_NOBJ, objective_name, objective_parse)

/* a * b of non-negative values as 128 bits (hi, lo), exactly. */
static void
mul128(unsigned long long a, unsigned long long b, unsigned long long *hi,
    unsigned long long *lo)
{
	unsigned long long al = a & 0xffffffffULL, ah = a >> 32;
	unsigned long long bl = b & 0xffffffffULL, bh = b >> 32;
	unsigned long long ll = al * bl, lh = al * bh, hl = ah * bl,
	    hh = ah * bh, mid;

	mid = (ll >> 32) + (lh & 0xffffffffULL) + (hl & 0xffffffffULL);
	*lo = (ll & 0xffffffffULL) | mid << 32;
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

int
objective_less(const struct objective *o, long long ps1, long long pj1,
    long long ps2, long long pj2)
{
	unsigned long long h1, l1, h2, l2;

	switch (o == NULL ? O_TIME : o->kind) {
	case O_ENERGY:
		return pj1 < pj2;
	case O_EDP:
		mul128((unsigned long long)(ps1 < 0 ? 0 : ps1),
		    (unsigned long long)(pj1 < 0 ? 0 : pj1), &h1, &l1);
		mul128((unsigned long long)(ps2 < 0 ? 0 : ps2),
		    (unsigned long long)(pj2 < 0 ? 0 : pj2), &h2, &l2);
		return h1 < h2 || (h1 == h2 && l1 < l2);
	default:
		return ps1 < ps2;
	}
}

/* *r = a + b, or -1 on overflow. */
static int
add_ll(long long a, long long b, long long *r)
{
	if ((b > 0 && a > LLONG_MAX - b) || (b < 0 && a < LLONG_MIN - b))
		return -1;
	*r = a + b;
	return 0;
}

/*
 * One point of a prefix's front: time, energy, the second coordinate
 * (energy, or 1000 * energy - cap * time in fJ under a cap), the
 * candidate that ends it, the layer it starts at and its predecessor in
 * the front of that layer; seq orders points by when they were found.
 */
struct pt {
	long long	t, e, x;
	size_t		cand, prev, seq;
	int64_t		from;
	long long	hps, hpj;	/* hand-offs charged with cand */
	int		pst;		/* state of the prefix before cand */
};

/* What the program reads of a candidate, packed (struct solve_order). */
struct srec {
	int64_t		first, last;
	long long	ps, pj, hin_ps, hout_ps, hin_pj, hout_pj;
};

_Static_assert(P_NPOL <= 8, "a policy mask fits a byte");

struct solve_order {
	int64_t		 n;
	size_t		 m;
	struct srec	*r;	/* by last layer, then input order */
	size_t		*cand;	/* r[k] is candidate cand[k] */
	unsigned char	*pol;	/* bit p: policy p allows it */
	unsigned char	*din, *dout;	/* din 0 read as SD_GPU */
	int64_t		 bad[P_NPOL];	/* first layer policy p leaves
					   uncovered, -1: none */
};

struct solve_order *
solve_order_new(const struct cand *c, size_t nc, int64_t n)
{
	struct solve_order *so = xcalloc(1, sizeof(*so));
	size_t *pos = xcalloc((size_t)n + 2, sizeof(*pos)), i, k;
	unsigned char *cov = xcalloc((size_t)n + 1, 1);
	int64_t j;
	int p;

	so->n = n;
	for (i = 0; i < nc; i++)
		if (c[i].first >= 0 && c[i].last < n &&
		    c[i].first <= c[i].last) {
			pos[c[i].last + 1]++;
			so->m++;
		}
	so->r = xcalloc(so->m + 1, sizeof(*so->r));
	so->cand = xcalloc(so->m + 1, sizeof(*so->cand));
	so->pol = xcalloc(so->m + 1, 1);
	so->din = xcalloc(so->m + 1, 1);
	so->dout = xcalloc(so->m + 1, 1);
	/* a stable counting sort: each at its last layer's next place */
	for (j = 1; j <= n; j++)
		pos[j] += pos[j - 1];
	for (i = 0; i < nc; i++) {
		const struct cand *x = &c[i];
		struct srec *r;

		if (x->first < 0 || x->last >= n || x->first > x->last)
			continue;
		k = pos[x->last]++;
		r = &so->r[k];
		r->first = x->first;
		r->last = x->last;
		r->ps = x->ps;
		r->pj = x->pj;
		r->hin_ps = x->hin_ps;
		r->hout_ps = x->hout_ps;
		r->hin_pj = x->hin_pj;
		r->hout_pj = x->hout_pj;
		so->cand[k] = i;
		so->din[k] = x->din != 0 ? x->din : SD_GPU;
		so->dout[k] = x->dout;
		for (p = 0; p < P_NPOL; p++)
			if (policy_allows((enum policy)p, x))
				so->pol[k] |= (unsigned char)(1 << p);
		for (j = x->first; j <= x->last; j++)
			cov[j] |= so->pol[k];
	}
	for (p = 0; p < P_NPOL; p++)
		for (so->bad[p] = -1, j = 0; j < n && so->bad[p] < 0; j++)
			if (!(cov[j] >> p & 1))
				so->bad[p] = j;
	free(pos);
	free(cov);
	return so;
}

void
solve_order_free(struct solve_order *so)
{
	if (so == NULL)
		return;
	free(so->r);
	free(so->cand);
	free(so->pol);
	free(so->din);
	free(so->dout);
	free(so);
}

struct front {
	struct pt	*p;
	size_t		 n, cap;
	int		 done;
};

static int
bytx(const void *a, const void *b)
{
	const struct pt *u = a, *v = b;

	if (u->t != v->t)
		return u->t < v->t ? -1 : 1;
	if (u->x != v->x)
		return u->x < v->x ? -1 : 1;
	return u->seq < v->seq ? -1 : u->seq > v->seq;
}

/* Sort a front by time and keep its Pareto points (the earliest of equals). */
static void
pareto(struct front *f)
{
	size_t i, k = 0;

	f->done = 1;
	if (f->n == 0)
		return;
	qsort(f->p, f->n, sizeof(*f->p), bytx);
	for (i = 0; i < f->n; i++)
		if (k == 0 || f->p[i].x < f->p[k - 1].x)
			f->p[k++] = f->p[i];
	f->n = k;
}

/* 1000 pj - cap ps (fJ), or -1 on overflow. */
static int
capdx(long long pj, long long ps, long long cap, long long *dx)
{
	if (pj > LLONG_MAX / 1000 || (ps > 0 && cap > LLONG_MAX / ps))
		return -1;
	*dx = pj * 1000 - cap * ps;
	return 0;
}

/*
 * Under a cap, dx of every allowed candidate (fJ) into dxs, and suf[j] =
 * the least sum of dx over any cover of layers j..n-1 (LLONG_MAX: none),
 * the candidates of each first layer taken in order (counted by first
 * layer, as solve_order_new does by last).  0, or -3 on an overflow.
 */
static int
capsuffix(const struct solve_order *so, unsigned char bit, long long cap,
    long long *dxs, long long *suf)
{
	int64_t n = so->n, j;
	size_t *pos = xcalloc((size_t)n + 2, sizeof(*pos));
	size_t *byf = xcalloc(so->m + 1, sizeof(*byf)), k;
	int rc = -3;

	for (k = 0; k < so->m; k++) {
		const struct srec *x = &so->r[k];
		long long hi, ho;

		if (!(so->pol[k] & bit))
			continue;
		if (capdx(x->pj, x->ps, cap, &dxs[k]) < 0 ||
		    capdx(x->hin_pj, x->hin_ps, cap, &hi) < 0 ||
		    capdx(x->hout_pj, x->hout_ps, cap, &ho) < 0)
			goto out;
		/* a lower bound: the hand-offs may or may not come */
		if (add_ll(dxs[k], hi < 0 ? hi : 0, &dxs[k]) < 0 ||
		    add_ll(dxs[k], ho < 0 ? ho : 0, &dxs[k]) < 0)
			goto out;
		pos[x->first + 1]++;
	}
	for (j = 1; j <= n; j++)
		pos[j] += pos[j - 1];
	for (k = 0; k < so->m; k++)
		if (so->pol[k] & bit)
			byf[pos[so->r[k].first]++] = k;
	for (j = 0; j < n; j++)
		suf[j] = LLONG_MAX;
	/* pos[j] now ends first layer j's run; the runs from the last back */
	for (j = n - 1; j >= 0; j--) {
		size_t b = j > 0 ? pos[j - 1] : 0, e = pos[j], q;

		for (q = b; q < e; q++) {
			const struct srec *x = &so->r[byf[q]];
			long long v;

			if (suf[x->last + 1] == LLONG_MAX)
				continue;
			if (add_ll(dxs[byf[q]], suf[x->last + 1], &v) < 0)
				goto out;
			if (v < suf[j])
				suf[j] = v;
		}
	}
	rc = 0;
out:
	free(pos);
	free(byf);
	return rc;
}

/*
 * The program's state for one policy and objective: a front per layer
 * boundary and prefix state (fr), the cap's per-candidate x and suffix
 * bounds (dxs, suf; NULL without a cap), and whether fronts are kept
 * (front) or one best point per prefix state (one, an array for all).
 */
struct dp {
	const struct solve_order *so;
	const struct objective	*o;
	unsigned char		 bit;
	int			 front;
	struct front		*fr;
	struct pt		*one;
	long long		*dxs, *suf;
	size_t			 seq;
};

#define FR(j, s)	d->fr[(size_t)(j) * SOLVE_NST + (size_t)(s)]

/*
 * Under a cap, the suffix bounds: a prefix point whose x plus suf[j] is
 * positive can never end in a plan that keeps the cap, so it is dropped
 * (exact; it keeps the fronts small).  0, -2 when not even the least-x
 * cover keeps the cap, -3 on an overflow.
 */
static int
dp_cap(struct dp *d)
{
	const struct solve_order *so = d->so;

	d->dxs = xcalloc(so->m + 1, sizeof(*d->dxs));
	d->suf = xcalloc((size_t)so->n + 1, sizeof(*d->suf));
	if (capsuffix(so, d->bit, d->o->cap_mw, d->dxs, d->suf) < 0)
		return -3;
	/* no cover at all: no pruning, so the report is the plain one */
	if (d->suf[0] == LLONG_MAX) {
		free(d->suf);
		d->suf = NULL;
	} else if (d->suf[0] > 0)
		return -2;
	return 0;
}

/*
 * The fronts, the empty prefix's point in the first.  An additive
 * objective keeps one point per prefix state: all of them in one array
 * (fronts of capacity 1), not an allocation each.
 */
static void
dp_fronts(struct dp *d)
{
	int64_t j, n = d->so->n;
	int si;

	d->fr = xcalloc(((size_t)n + 1) * SOLVE_NST, sizeof(*d->fr));
	if (!d->front) {
		d->one = xcalloc(((size_t)n + 1) * SOLVE_NST, sizeof(*d->one));
		for (j = 0; j < (n + 1) * SOLVE_NST; j++) {
			d->fr[j].p = &d->one[j];
			d->fr[j].cap = 1;
		}
	} else
		FR(0, SOLVE_ST_G).p = xcalloc(1, sizeof(*d->fr[0].p));
	FR(0, SOLVE_ST_G).n = FR(0, SOLVE_ST_G).cap = 1;
	for (j = 0; j <= n; j++)
		for (si = 0; si < SOLVE_NST; si++)
			FR(j, si).done = j == 0;
}

/* np into front g: the better of the two, or one more point. */
static void
dp_keep(struct dp *d, struct front *g, const struct pt *np)
{
	if (!d->front) {
		/* strict: among equal totals the earliest stays */
		if (g->n == 0 || objective_less(d->o, np->t, np->e, g->p[0].t,
		    g->p[0].e)) {
			g->p[0] = *np;
			g->n = 1;
		}
		return;
	}
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 4;
		g->p = xreallocarray(g->p, g->cap, sizeof(*g->p));
	}
	g->p[g->n++] = *np;
}

/*
 * Candidate k after every point of front f (prefix state si, its
 * hand-in hin) into the front of state tst (hout: its hand-out paid);
 * dx, dhi, dho: its x and its hand-offs'.  0, or -3 on an overflow.
 */
static int
dp_step(struct dp *d, size_t k, const struct front *f, int si, int hin,
    int tst, const long long dxv[3])
{
	const struct srec *x = &d->so->r[k];
	struct front *g = &FR(x->last + 1, tst);
	int hout = tst == SOLVE_ST_PG;
	size_t q;

	for (q = 0; q < f->n; q++) {
		struct pt np;

		np.cand = d->so->cand[k];
		np.from = x->first;
		np.prev = q;
		np.pst = si;
		np.seq = d->seq++;
		np.hps = (hin ? x->hin_ps : 0) + (hout ? x->hout_ps : 0);
		np.hpj = (hin ? x->hin_pj : 0) + (hout ? x->hout_pj : 0);
		if (add_ll(f->p[q].t, x->ps, &np.t) < 0 ||
		    add_ll(np.t, np.hps, &np.t) < 0 ||
		    add_ll(f->p[q].e, x->pj, &np.e) < 0 ||
		    add_ll(np.e, np.hpj, &np.e) < 0 ||
		    add_ll(f->p[q].x, dxv[0], &np.x) < 0 ||
		    add_ll(np.x, hin ? dxv[1] : 0, &np.x) < 0 ||
		    add_ll(np.x, hout ? dxv[2] : 0, &np.x) < 0)
			return -3;
		/* np.x + suf > 0: the cap is out of reach */
		if (d->suf != NULL && np.x > -d->suf[x->last + 1])
			continue;
		dp_keep(d, g, &np);
	}
	return 0;
}

/* Candidate k after every prefix it may follow: 0, or -3 on an overflow. */
static int
dp_cand(struct dp *d, size_t k)
{
	const struct solve_order *so = d->so;
	const struct srec *x = &so->r[k];
	long long cap = d->o->cap_mw, dxv[3];
	int di = so->din[k], si, ti, tst;

	dxv[0] = x->pj;
	dxv[1] = x->hin_pj;
	dxv[2] = x->hout_pj;
	if (cap > 0) {
		/* no cover of the rest: nothing from here can finish */
		if (d->suf != NULL && d->suf[x->last + 1] == LLONG_MAX)
			return 0;
		dxv[0] = x->pj * 1000 - cap * x->ps;
		dxv[1] = x->hin_pj * 1000 - cap * x->hin_ps;
		dxv[2] = x->hout_pj * 1000 - cap * x->hout_ps;
	}
	for (si = 0; si < SOLVE_NST; si++) {
		struct front *f = &FR(x->first, si);
		int hin = solve_step_in(si, di);

		if (hin < 0)
			continue;
		/* every candidate ending before x->first came earlier */
		if (d->front && !f->done)
			pareto(f);
		for (ti = 0; (tst = solve_step_out(so->dout[k], ti)) >= 0; ti++)
			if (dp_step(d, k, f, si, hin, tst, dxv) < 0)
				return -3;
	}
	return 0;
}

/*
 * The best point at the end, in state *bst (the model's output ends on
 * the GPU) at *best; *bst -1 when none.
 */
static void
dp_best(struct dp *d, int *bst, size_t *best)
{
	int64_t n = d->so->n;
	size_t q;
	int si;

	*bst = -1;
	*best = 0;
	for (si = 0; si < SOLVE_NST; si += SOLVE_ST_PG - SOLVE_ST_G) {
		struct front *f = &FR(n, si);

		if (d->front)
			pareto(f);
		for (q = 0; q < f->n; q++) {
			const struct pt *a = &f->p[q];

			if (d->o->cap_mw > 0 && a->x > 0)
				continue;
			if (*bst < 0 || objective_less(d->o, a->t, a->e,
			    FR(n, *bst).p[*best].t, FR(n, *bst).p[*best].e)) {
				*bst = si;
				*best = q;
			}
		}
	}
}

/* The plan ending at point best of state bst, traced back from the end. */
static void
dp_trace(struct dp *d, int bst, size_t best, struct plan *pl)
{
	int64_t j, n = d->so->n;
	size_t q, nseg = 0;
	int si;

	pl->ps = FR(n, bst).p[best].t;
	pl->pj = FR(n, bst).p[best].e;
	/* at most one segment per layer */
	pl->seg = xcalloc((size_t)n + 1, sizeof(*pl->seg));
	pl->hps = xcalloc((size_t)n + 1, sizeof(*pl->hps));
	pl->hpj = xcalloc((size_t)n + 1, sizeof(*pl->hpj));
	for (j = n, q = best, si = bst; j > 0; nseg++) {
		const struct pt *a = &FR(j, si).p[q];

		pl->seg[nseg] = a->cand;
		pl->hps[nseg] = a->hps;
		pl->hpj[nseg] = a->hpj;
		q = a->prev;
		si = a->pst;
		j = a->from;
	}
	pl->nseg = nseg;
	plan_reverse(pl);
}

/*
 * Why nothing reached the end: with the cap's pruning on, a cover exists
 * (suf[0] is finite), so none keeps the cap (-2); with no tiling, the
 * last layer reached (*stuck, return -1); else none keeps the cap (-2).
 */
static int
dp_none(struct dp *d, int64_t *stuck)
{
	int64_t j, n = d->so->n;

	if (d->suf != NULL)
		return -2;
	if (FR(n, SOLVE_ST_G).n + FR(n, SOLVE_ST_PG).n == 0) {
		for (j = 1; j <= n && FR(j, SOLVE_ST_G).n + FR(j, SOLVE_ST_P).n +
		    FR(j, SOLVE_ST_PG).n > 0; j++)
			;
		*stuck = j - 1;
		return -1;
	}
	return -2;
}

int
solve_dp_order(const struct solve_order *so, enum policy p,
    const struct objective *o, struct plan *pl, int64_t *bad,
    int64_t *stuck)
{
	static const struct objective deftime = { O_TIME, 0 };
	struct dp dd, *d = &dd;
	size_t k, best;
	int64_t j;
	int rc = -1, bst;

	memset(d, 0, sizeof(*d));
	d->so = so;
	d->o = o != NULL ? o : &deftime;
	d->bit = (unsigned char)(1 << p);
	/* additive objectives need one best point per prefix */
	d->front = d->o->kind == O_EDP || d->o->cap_mw > 0;
	memset(pl, 0, sizeof(*pl));
	*bad = *stuck = -1;
	if (so->bad[p] >= 0) {
		*bad = so->bad[p];
		goto done;
	}
	if (d->o->cap_mw > 0 && (rc = dp_cap(d)) < 0)
		goto done;
	rc = -1;
	dp_fronts(d);
	for (k = 0; k < so->m; k++)
		if ((so->pol[k] & d->bit) && dp_cand(d, k) < 0) {
			rc = -3;
			goto done;
		}
	dp_best(d, &bst, &best);
	if (bst < 0) {
		rc = dp_none(d, stuck);
		goto done;
	}
	dp_trace(d, bst, best, pl);
	rc = 0;
done:
	for (j = 0; d->fr != NULL && d->one == NULL &&
	    j < (so->n + 1) * SOLVE_NST; j++)
		free(d->fr[j].p);
	free(d->one);
	free(d->fr);
	free(d->dxs);
	free(d->suf);
	return rc;
}

int
solve_dp(const struct cand *c, size_t nc, int64_t n, enum policy p,
    const struct objective *o, struct plan *pl, int64_t *bad,
    int64_t *stuck)
{
	struct solve_order *so = solve_order_new(c, nc, n);
	int rc = solve_dp_order(so, p, o, pl, bad, stuck);

	solve_order_free(so);
	return rc;
}
