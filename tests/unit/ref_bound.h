/*
 * An oracle for t_solve_bound: pf-solve -D's lower bound computed from
 * its definition (solve.h) on small instances, by means that share
 * nothing with lib/plan/solve_bound.c but the policy's choice of
 * candidates (policy_allows, tested in t_solve):
 *  - sequence points from the transitive closure of the dependences,
 *    checked against every earlier and every later layer;
 *  - every partition of the layers into blocks cut at sequence points
 *    (at least at those no candidate spans), walked one by one;
 *  - a block's load bound by duality instead of a search over lam: the
 *    max over lam of the least lam*G + (1-lam)*P over its exact covers
 *    equals the least max(G, P) over mixes of covers (a finite zero-sum
 *    game), and that least lies at one cover or at the mix of two that
 *    balances the devices, taken in exact rational form over all covers
 *    (less those another beats or equals on both, which no mix needs);
 *  - its longest producer chain with every path walked;
 *  - its sequential optimum over all its exact covers.
 * The answer is exact but for one rounding of long double per step, so
 * the test can hold the fast bound to the true value's floor.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REF_MAXN	16

/* A cover's busy time on each device. */
struct ref_pt {
	long long	 g, p;
};

#define REF_MAXFRONT	4096

/* The covers no other beats or equals on both devices. */
struct ref_set {
	struct ref_pt	 v[REF_MAXFRONT];
	size_t		 n;
};

struct ref {
	const struct cand	*c;
	size_t			 nc;
	int64_t			 n;
	enum policy		 pol;
	int64_t *const		*preds;
	const int		*npreds;
	unsigned char		 reach[REF_MAXN][REF_MAXN];	/* [u][v]: u feeds v */
	unsigned char		 seqpt[REF_MAXN];
	unsigned char		 spanned[REF_MAXN];	/* a candidate runs j, j + 1 */
	/* the policy's candidates by first layer, each layer's chain weight */
	size_t			 at[REF_MAXN][8];
	int			 nat[REF_MAXN];
	long long		 weight[REF_MAXN];
	/* per block a..b: has a cover, its bound */
	unsigned char		 ok[REF_MAXN][REF_MAXN];
	long double		 bound[REF_MAXN][REF_MAXN];
	long double		 best;
};

/* Whether candidate k is one of the policy's for layers 0..n-1. */
static int
ref_takes(const struct ref *r, const struct cand *x)
{
	return x->kind != K_DAG && policy_allows(r->pol, x) && x->first >= 0 &&
	    x->first <= x->last && x->last < r->n;
}

/*
 * Adds a cover to the front s, unless one there beats or equals it on
 * both devices (no mix needs it then), dropping those it beats.
 */
static void
ref_add(struct ref_set *s, long long g, long long p)
{
	size_t i, k = 0;

	for (i = 0; i < s->n; i++)
		if (s->v[i].g <= g && s->v[i].p <= p)
			return;
	for (i = 0; i < s->n; i++)
		if (g > s->v[i].g || p > s->v[i].p)
			s->v[k++] = s->v[i];
	if (k == REF_MAXFRONT)
		abort();	/* larger than the test's tables make */
	s->v[k].g = g;
	s->v[k].p = p;
	s->n = k + 1;
}

/*
 * The least max(G, P) over mixes of the covers in s: at one
 * cover, or where the segment between a cover heavier on PIM (d < 0) and
 * one heavier on the GPU (d > 0) crosses G = P.
 */
static long double
ref_load(const struct ref_set *s)
{
	long double v = INFINITY;
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		long long m = s->v[i].g > s->v[i].p ? s->v[i].g : s->v[i].p;

		if ((long double)m < v)
			v = (long double)m;
	}
	for (i = 0; i < s->n; i++)
		for (j = 0; j < s->n; j++) {
			long double di = (long double)(s->v[i].g - s->v[i].p);
			long double dj = (long double)(s->v[j].g - s->v[j].p);
			long double x;

			if (!(di < 0 && dj > 0))
				continue;
			/* mu*di + (1-mu)*dj = 0: G = P = mu*gi + (1-mu)*gj */
			x = (dj * (long double)s->v[i].g -
			    di * (long double)s->v[j].g) / (dj - di);
			if (x < v)
				v = x;
		}
	return v;
}

/*
 * Every exact cover of a..b by the policy's candidates inside it, grown
 * from a one candidate at a time: its (G, P) into s, its least sum of
 * candidate times into *seq.
 */
static void
ref_covers(const struct ref *r, int64_t a, int64_t b, int64_t j,
    long long g, long long p, long long ps, struct ref_set *s, long long *seq)
{
	int k;

	if (j == b + 1) {
		ref_add(s, g, p);
		if (*seq < 0 || ps < *seq)
			*seq = ps;
		return;
	}
	for (k = 0; k < r->nat[j]; k++) {
		const struct cand *x = &r->c[r->at[j][k]];

		if (x->last <= b)
			ref_covers(r, a, b, x->last + 1, g + x->gpu_ps,
			    p + x->pim_ps, ps + x->ps, s, seq);
	}
}

/*
 * A layer's weight in a producer chain: its fastest single-layer
 * candidate, or 0 when a multi-layer one could take it or none runs it.
 */
static long long
ref_weight(const struct ref *r, int64_t j)
{
	long long w = -1;
	size_t k;

	for (k = 0; k < r->nc; k++) {
		const struct cand *x = &r->c[k];

		if (!ref_takes(r, x) || x->first > j || x->last < j)
			continue;
		if (x->first < x->last)
			return 0;
		if (w < 0 || x->ps < w)
			w = x->ps;
	}
	return w < 0 ? 0 : w;
}

/* The heaviest producer path inside a..j that ends at j, every one walked. */
static long long
ref_path(const struct ref *r, int64_t a, int64_t j)
{
	long long m = 0, t;
	int q;

	for (q = 0; q < r->npreds[j]; q++)
		if (r->preds[j][q] >= a &&
		    (t = ref_path(r, a, r->preds[j][q])) > m)
			m = t;
	return m + r->weight[j];
}

/* The bound of block a..b into r->ok, r->bound. */
static void
ref_block(struct ref *r, int64_t a, int64_t b)
{
	static struct ref_set s;
	long long seq = -1, cp = 0, t;
	long double v;
	int64_t j;
	int chain = 1;

	s.n = 0;
	ref_covers(r, a, b, a, 0, 0, 0, &s, &seq);
	r->ok[a][b] = s.n > 0;
	if (s.n == 0)
		return;
	v = ref_load(&s);
	for (j = a; r->preds != NULL && j <= b; j++)
		if ((t = ref_path(r, a, j)) > cp)
			cp = t;
	if ((long double)cp > v)
		v = (long double)cp;
	/* a chain: every layer but the last a sequence point */
	for (j = a; j < b; j++)
		if (!r->seqpt[j])
			chain = 0;
	if (chain && (long double)seq > v)
		v = (long double)seq;
	r->bound[a][b] = v;
}

/*
 * Every partition of s..n-1 into blocks cut at sequence points, at least
 * at each one that no candidate spans: a schedule's blocks are cut at
 * every sequence point its own candidates do not span.
 */
static void
ref_part(struct ref *r, int64_t s, long double sum)
{
	int64_t t;

	if (s == r->n) {
		if (sum < r->best)
			r->best = sum;
		return;
	}
	for (t = s; t < r->n; t++) {
		if ((t == r->n - 1 || r->seqpt[t]) && r->ok[s][t])
			ref_part(r, t + 1, sum + r->bound[s][t]);
		/* no schedule runs on past this one */
		if (r->seqpt[t] && !r->spanned[t])
			break;
	}
}

/*
 * The bound of policy p's candidates c[0..nc) over layers 0..n-1 (n at
 * most REF_MAXN) with producers preds (NULL: none known, so no layer is
 * a sequence point), exact; -1 when no cover exists.
 */
static long double
ref_lower_bound(const struct cand *c, size_t nc, int64_t n,
    int64_t *const *preds, const int *npreds, enum policy p)
{
	static struct ref r;
	int64_t u, v, k;
	size_t i;
	int q;

	memset(&r, 0, sizeof(r));
	r.c = c; r.nc = nc; r.n = n; r.pol = p;
	r.preds = preds; r.npreds = npreds;
	for (v = 0; preds != NULL && v < n; v++)
		for (q = 0; q < npreds[v]; q++)
			r.reach[preds[v][q]][v] = 1;
	for (i = 0; i < nc; i++)
		if (ref_takes(&r, &c[i])) {
			if (r.nat[c[i].first] == 8)
				abort();	/* more than the test makes */
			r.at[c[i].first][r.nat[c[i].first]++] = i;
			for (v = c[i].first; v < c[i].last; v++)
				r.spanned[v] = 1;
		}
	for (v = 0; v < n; v++)
		r.weight[v] = ref_weight(&r, v);
	for (k = 0; k < n; k++)
		for (u = 0; u < n; u++)
			for (v = 0; v < n; v++)
				if (r.reach[u][k] && r.reach[k][v])
					r.reach[u][v] = 1;
	for (v = 0; preds != NULL && v < n; v++) {
		r.seqpt[v] = 1;
		for (u = 0; u < n; u++)
			if ((u < v && !r.reach[u][v]) ||
			    (u > v && !r.reach[v][u]))
				r.seqpt[v] = 0;
	}
	for (u = 0; u < n; u++)
		for (v = u; v < n; v++)
			ref_block(&r, u, v);
	r.best = INFINITY;
	ref_part(&r, 0, 0);
	return isinf(r.best) ? -1 : r.best;
}

/* The least sum of candidate times over exact covers of 0..n-1, or -1. */
static long long
ref_sequential(const struct cand *c, size_t nc, int64_t n, enum policy p)
{
	long long *f = calloc((size_t)n + 1, sizeof(*f)), r;
	struct ref x;
	int64_t j;
	size_t k;

	memset(&x, 0, sizeof(x));
	x.pol = p;
	x.n = n;
	for (j = 1; j <= n; j++)
		f[j] = -1;
	/* f[j]: layers 0..j-1, each from the covers of a shorter prefix */
	for (j = 1; j <= n; j++)
		for (k = 0; k < nc; k++)
			if (ref_takes(&x, &c[k]) && c[k].last + 1 == j &&
			    f[c[k].first] >= 0 && (f[j] < 0 ||
			    f[c[k].first] + c[k].ps < f[j]))
				f[j] = f[c[k].first] + c[k].ps;
	r = f[n];
	free(f);
	return r;
}
