/*
 * A lower bound for pf-solve -D: no schedule that runs every layer as one
 * of a policy's candidates, overlapping independent work in any way the
 * dependences allow, can beat it (solve.h).  It tells how much a fuller
 * DAG scheduler could still gain over the co-scheduled windows.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "solve.h"
#include "xalloc.h"

/*
 * A block's candidates as the load bound reads them: layers relative to
 * the block, times as doubles, packed so that the hundreds of passes of
 * the search run over a small array.
 */
struct wc {
	int64_t	 first, last;
	double	 g, p;
};

/*
 * min over exact covers of the block's layers 0..nb-1 of sum(lam * gpu +
 * (1 - lam) * pim): a shortest path over the layer order (w: sorted by
 * last layer; f: nb + 1 slots of scratch); -1 when there is no cover.
 */
static double
weighted(const struct wc *w, size_t k, int64_t nb, double lam, double *f)
{
	int64_t j;
	size_t i;

	f[0] = 0;
	for (j = 1; j <= nb; j++)
		f[j] = INFINITY;
	for (i = 0; i < k; i++) {
		const struct wc *x = &w[i];
		double t;

		if (isinf(f[x->first]))
			continue;
		t = f[x->first] + lam * x->g + (1 - lam) * x->p;
		if (t < f[x->last + 1])
			f[x->last + 1] = t;
	}
	return isinf(f[nb]) ? -1 : f[nb];
}

/*
 * Load bound of a block: the makespan is at least each device's busy
 * time, hence at least any convex mix of the two, minimised over covers;
 * that minimum is concave in lam, so a ternary search finds its top.
 * Once an iteration leaves both ends where they were, every later one
 * would too, so the search stops there with the same answer.
 */
static double
load(const struct wc *w, size_t k, int64_t nb, double *f)
{
	double lo = 0, hi = 1;
	int it;

	for (it = 0; it < 100; it++) {
		double x = lo + (hi - lo) / 3, y = hi - (hi - lo) / 3;
		double olo = lo, ohi = hi;

		if (weighted(w, k, nb, x, f) < weighted(w, k, nb, y, f))
			lo = x;
		else
			hi = y;
		if (lo == olo && hi == ohi)
			break;
	}
	return weighted(w, k, nb, (lo + hi) / 2, f);
}

/*
 * The least sum of candidate times over exact covers of a..b, or -1 (f:
 * b - a + 2 slots of scratch).
 */
static long long
sequential(const struct cand *c, const size_t *ord, size_t m0, size_t m,
    int64_t a, int64_t b, long long *f)
{
	int64_t j;
	size_t i;

	f[0] = 0;
	for (j = 1; j <= b - a + 1; j++)
		f[j] = -1;
	for (i = m0; i < m; i++) {
		const struct cand *x = &c[ord[i]];

		if (x->first < a || x->last > b || f[x->first - a] < 0)
			continue;
		if (f[x->last - a + 1] < 0 ||
		    f[x->first - a] + x->ps < f[x->last - a + 1])
			f[x->last - a + 1] = f[x->first - a] + x->ps;
	}
	return f[b - a + 1];
}

/*
 * Sequence points: topo[v] when every earlier layer is an ancestor of v
 * and every later one a descendant, so that in any schedule nothing
 * before v overlaps anything after it.  With producers always earlier
 * layers, every u < v reaches v exactly when v is the only layer of
 * 0..v without a consumer in 0..v (follow consumers up from any u: they
 * stop at such a layer), i.e. when no u < v has its first consumer after
 * v; likewise every u > v descends from v when no u > v has its last
 * producer before v.  A running maximum and minimum: linear.
 */
static void
seqpoints(int64_t n, int64_t *const *preds, const int *npreds,
    unsigned char *topo)
{
	int64_t *first = xcalloc((size_t)n + 1, sizeof(*first));
	int64_t *lastp = xcalloc((size_t)n + 1, sizeof(*lastp));
	int64_t v, hi, lo;
	int q;

	for (v = 0; v < n; v++)
		first[v] = n;
	for (v = 0; v < n; v++) {
		lastp[v] = -1;
		for (q = 0; q < npreds[v]; q++) {
			int64_t p = preds[v][q];

			if (v < first[p])
				first[p] = v;
			if (p > lastp[v])
				lastp[v] = p;
		}
	}
	for (v = 0, hi = -1; v < n; v++) {	/* hi: max first of u < v */
		topo[v] = hi <= v;
		if (first[v] > hi)
			hi = first[v];
	}
	for (v = n - 1, lo = n; v >= 0; v--) {	/* lo: min lastp of u > v */
		if (lo < v)
			topo[v] = 0;
		if (lastp[v] < lo)
			lo = lastp[v];
	}
	free(first);
	free(lastp);
}

struct bctx {
	const struct cand	 *c;
	const size_t		 *ord;
	size_t			  m;
	const size_t		 *from;	/* from[j]: first of ord with last >= j */
	int64_t *const		 *preds;
	const int		 *npreds;
	const unsigned char	 *topo, *multi;
	const double		 *w;
	double			 *fin;
	/* scratch: a block's packed candidates, its shortest paths */
	struct wc		 *wc;
	size_t			  wcap;
	double			 *f;
	long long		 *sf;
};

/*
 * The candidates of block a..b (those of ord[m0..m1) that start inside)
 * packed into x->wc in the same order, less those another candidate of
 * the same layers beats or equals on both devices: rounding is monotone,
 * so such a one's mix is never below the other's at any lam, and the
 * minimum (hence the bound) is the same without it.  Returns the count.
 */
static size_t
gather(struct bctx *x, size_t m0, size_t m1, int64_t a)
{
	size_t i, q, r, k = 0, run = 0;
	int64_t cur = -1;

	if (m1 - m0 > x->wcap) {
		x->wcap = m1 - m0;
		x->wc = xreallocarray(x->wc, x->wcap, sizeof(*x->wc));
	}
	for (i = m0; i < m1; i++) {
		const struct cand *y = &x->c[x->ord[i]];
		struct wc e;

		if (y->first < a)
			continue;
		e.first = y->first - a;
		e.last = y->last - a;
		e.g = (double)y->gpu_ps;
		e.p = (double)y->pim_ps;
		/* ord is sorted by last: compare within the run of e's last */
		if (e.last != cur) {
			cur = e.last;
			run = k;
		}
		for (q = run; q < k; q++)
			if (x->wc[q].first == e.first && x->wc[q].g <= e.g &&
			    x->wc[q].p <= e.p)
				break;
		if (q < k)
			continue;
		for (q = r = run; q < k; q++)
			if (x->wc[q].first != e.first || x->wc[q].g < e.g ||
			    x->wc[q].p < e.p)
				x->wc[r++] = x->wc[q];
		k = r;
		x->wc[k++] = e;
	}
	return k;
}

/*
 * Bound of a block a..b that runs after everything before a and before
 * everything after b: the larger of its load bound, its longest producer
 * chain, and, when every layer inside but the last is a sequence point
 * (so its candidates run one after another), its sequential optimum.
 * -1 when no cover of the block exists.
 */
static double
block(struct bctx *x, int64_t a, int64_t b)
{
	/* Only the candidates ending inside, in the same order. */
	size_t m0 = x->from[a], m1 = x->from[b + 1];
	size_t k = gather(x, m0, m1, a);
	double ld = load(x->wc, k, b - a + 1, x->f), cp = 0, r;
	long long sq;
	int64_t j;
	int q, chain = 1;

	if (ld < 0)
		return -1;
	for (j = a; x->preds != NULL && j <= b; j++) {
		double start = 0;

		for (q = 0; q < x->npreds[j]; q++)
			if (x->preds[j][q] >= a && x->fin[x->preds[j][q]] > start)
				start = x->fin[x->preds[j][q]];
		x->fin[j] = start + (x->multi[j] || isinf(x->w[j]) ? 0 :
		    x->w[j]);
		if (x->fin[j] > cp)
			cp = x->fin[j];
	}
	/* (with no dependences known no layer is a sequence point) */
	for (j = a; j < b && chain; j++)
		chain = x->topo[j];
	r = ld > cp ? ld : cp;
	if (chain && (sq = sequential(x->c, x->ord, m0, m1, a, b,
	    x->sf)) >= 0 && (double)sq > r)
		r = (double)sq;
	return r;
}

/* Candidate k counts for policy p's bound over layers 0..n-1. */
static int
bound_takes(const struct cand *c, int64_t n, enum policy p)
{
	return c->kind != K_DAG && policy_allows(p, c) && c->first >= 0 &&
	    c->first <= c->last && c->last < n;
}

/*
 * The policy's own candidates in order of last layer (a valid DP
 * order) into ord: counted by last layer, then each put at the next
 * place of its own (from[j] ends as the first place of last layer j).
 * Their number.
 */
static size_t
bound_order(const struct cand *c, size_t nc, int64_t n, enum policy p,
    size_t *ord, size_t *from)
{
	size_t k, m = 0;
	int64_t i;

	for (k = 0; k < nc; k++)
		if (bound_takes(&c[k], n, p)) {
			from[c[k].last + 2]++;
			m++;
		}
	for (i = 2; i <= n + 1; i++)
		from[i] += from[i - 1];
	for (k = 0; k < nc; k++)
		if (bound_takes(&c[k], n, p))
			ord[from[c[k].last + 1]++] = k;
	return m;
}

/*
 * In a producer chain a layer counts at its fastest single-layer
 * candidate (w), or 0 when a multi-layer candidate could take it
 * (multi); spanned[j]: a candidate spans layers j and j + 1.
 */
static void
bound_weights(const struct cand *c, const size_t *ord, size_t m, int64_t n,
    double *w, unsigned char *multi, unsigned char *spanned)
{
	size_t k;
	int64_t i, j;

	for (i = 0; i < n; i++)
		w[i] = INFINITY;
	for (k = 0; k < m; k++) {
		const struct cand *y = &c[ord[k]];

		for (j = y->first; j < y->last; j++)
			multi[j] = multi[j + 1] = spanned[j] = 1;
		if (y->first == y->last && (double)y->ps < w[y->first])
			w[y->first] = (double)y->ps;
	}
}

/*
 * Any schedule falls apart, at the sequence points no chosen candidate
 * spans, into blocks run one after another, each taking at least its
 * bound: the least sum of block bounds over such partitions (best[i +
 * 1]: layers 0..i) bounds every schedule.  A block only extends past a
 * sequence point some candidate spans.  best[n], INFINITY when none.
 */
static double
bound_partition(struct bctx *x, int64_t n, const unsigned char *spanned)
{
	double *best = xcalloc((size_t)n + 2, sizeof(*best)), b, r;
	int64_t i, s, t;

	for (i = 1; i <= n; i++)
		best[i] = INFINITY;
	for (s = 0; s < n; s++) {
		if (isinf(best[s]) || (s > 0 && !x->topo[s - 1]))
			continue;
		for (t = s; t < n; t++) {
			if (t == n - 1 || x->topo[t]) {
				b = block(x, s, t);
				if (b >= 0 && best[s] + b < best[t + 1])
					best[t + 1] = best[s] + b;
				if (!spanned[t])
					break;
			}
		}
	}
	r = best[n];
	free(best);
	return r;
}

long long
solve_lower_bound(const struct cand *c, size_t nc, int64_t n,
    int64_t *const *preds, const int *npreds, enum policy p)
{
	struct bctx x = { 0 };
	double *w, *fin, b;
	unsigned char *multi, *topo, *spanned;
	size_t *ord = xcalloc(nc + 1, sizeof(*ord)), *from;

	from = xcalloc((size_t)n + 2, sizeof(*from));
	x.m = bound_order(c, nc, n, p, ord, from);
	w = xcalloc((size_t)n + 1, sizeof(*w));
	fin = xcalloc((size_t)n + 1, sizeof(*fin));
	multi = xcalloc((size_t)n + 1, 1);
	topo = xcalloc((size_t)n + 1, 1);
	spanned = xcalloc((size_t)n + 1, 1);
	bound_weights(c, ord, x.m, n, w, multi, spanned);
	if (preds != NULL)
		seqpoints(n, preds, npreds, topo);
	x.c = c; x.ord = ord; x.from = from;
	x.preds = preds; x.npreds = npreds;
	x.topo = topo; x.multi = multi; x.w = w; x.fin = fin;
	x.f = xcalloc((size_t)n + 2, sizeof(*x.f));
	x.sf = xcalloc((size_t)n + 2, sizeof(*x.sf));
	b = bound_partition(&x, n, spanned);
	free(ord);
	free(from);
	free(w);
	free(fin);
	free(multi);
	free(topo);
	free(spanned);
	free(x.wc);
	free(x.f);
	free(x.sf);
	/* (the mixes are sums of integers: the 1e-6 rounds off their error) */
	return isinf(b) ? -1 : (long long)floor(b + 1e-6);
}
