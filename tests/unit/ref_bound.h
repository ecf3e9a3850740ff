/*
 * Reference for t_solve_bound: pf-solve -D's lower bound as it was
 * computed before it was made linear (lib/plan/solve_bound.c as of 595892a: an
 * ancestor bitmap of n*n bits and every candidate scanned for every
 * block), kept verbatim but for the name, so that the fast one can be
 * held to giving exactly the same number.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>


/*
 * min over exact covers of layers a..b of sum(lam * gpu + (1 - lam) * pim)
 * with candidates inside the range: a shortest path over the layer order
 * (ord: candidates sorted by last layer); -1 when there is no cover.
 */
static double
weighted(const struct cand *c, const size_t *ord, size_t m, int64_t a,
    int64_t b, double lam)
{
	double *f = calloc((size_t)(b - a) + 2, sizeof(*f)), r;
	int64_t j;
	size_t i;

	for (j = 1; j <= b - a + 1; j++)
		f[j] = INFINITY;
	for (i = 0; i < m; i++) {
		const struct cand *x = &c[ord[i]];
		double t;

		if (x->first < a || x->last > b || isinf(f[x->first - a]))
			continue;
		t = f[x->first - a] + lam * (double)x->gpu_ps +
		    (1 - lam) * (double)x->pim_ps;
		if (t < f[x->last - a + 1])
			f[x->last - a + 1] = t;
	}
	r = isinf(f[b - a + 1]) ? -1 : f[b - a + 1];
	free(f);
	return r;
}

/*
 * Load bound of layers a..b: the makespan is at least each device's busy
 * time, hence at least any convex mix of the two, minimised over covers;
 * that minimum is concave in lam, so a ternary search finds its top.
 */
static double
load(const struct cand *c, const size_t *ord, size_t m, int64_t a, int64_t b)
{
	double lo = 0, hi = 1;
	int it;

	for (it = 0; it < 100; it++) {
		double x = lo + (hi - lo) / 3, y = hi - (hi - lo) / 3;

		if (weighted(c, ord, m, a, b, x) < weighted(c, ord, m, a, b, y))
			lo = x;
		else
			hi = y;
	}
	return weighted(c, ord, m, a, b, (lo + hi) / 2);
}

static const struct cand *sort_c;

static int
bylast(const void *a, const void *b)
{
	const struct cand *x = &sort_c[*(const size_t *)a];
	const struct cand *y = &sort_c[*(const size_t *)b];

	return x->last < y->last ? -1 : x->last > y->last;
}

/* The least sum of candidate times over exact covers of a..b, or -1. */
static long long
sequential(const struct cand *c, const size_t *ord, size_t m, int64_t a,
    int64_t b)
{
	long long *f = calloc((size_t)(b - a) + 2, sizeof(*f)), r;
	int64_t j;
	size_t i;

	for (j = 1; j <= b - a + 1; j++)
		f[j] = -1;
	for (i = 0; i < m; i++) {
		const struct cand *x = &c[ord[i]];

		if (x->first < a || x->last > b || f[x->first - a] < 0)
			continue;
		if (f[x->last - a + 1] < 0 ||
		    f[x->first - a] + x->ps < f[x->last - a + 1])
			f[x->last - a + 1] = f[x->first - a] + x->ps;
	}
	r = f[b - a + 1];
	free(f);
	return r;
}

/*
 * Sequence points: topo[v] when every earlier layer is an ancestor of v
 * and every later one a descendant, so that in any schedule nothing
 * before v overlaps anything after it.
 */
static void
seqpoints(int64_t n, int64_t *const *preds, const int *npreds,
    unsigned char *topo)
{
	size_t words = (size_t)(n + 63) / 64, i;
	uint64_t *anc = calloc((size_t)n * words + 1, sizeof(*anc));
	int64_t *ndesc = calloc((size_t)n + 1, sizeof(*ndesc));
	int64_t v, u, cnt;
	int q;

	for (v = 0; v < n; v++) {
		uint64_t *av = anc + (size_t)v * words;

		for (q = 0; q < npreds[v]; q++) {
			int64_t p = preds[v][q];

			for (i = 0; i < words; i++)
				av[i] |= anc[(size_t)p * words + i];
			av[p / 64] |= 1ULL << (p % 64);
		}
		cnt = 0;
		for (u = 0; u < v; u++)
			if (av[u / 64] >> (u % 64) & 1) {
				cnt++;
				ndesc[u]++;
			}
		topo[v] = cnt == v;
	}
	for (v = 0; v < n; v++)
		if (ndesc[v] != n - 1 - v)
			topo[v] = 0;
	free(anc);
	free(ndesc);
}

struct bctx {
	const struct cand	 *c;
	const size_t		 *ord;
	size_t			  m;
	int64_t *const		 *preds;
	const int		 *npreds;
	const unsigned char	 *topo, *multi;
	const double		 *w;
	double			 *fin;
};

/*
 * Bound of a block a..b that runs after everything before a and before
 * everything after b: the larger of its load bound, its longest producer
 * chain, and, when every layer inside but the last is a sequence point
 * (so its candidates run one after another), its sequential optimum.
 * -1 when no cover of the block exists.
 */
static double
block(const struct bctx *x, int64_t a, int64_t b)
{
	double ld = load(x->c, x->ord, x->m, a, b), cp = 0, r;
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
		if (j < b && !x->topo[j])
			chain = 0;
	}
	r = ld > cp ? ld : cp;
	if (chain && (sq = sequential(x->c, x->ord, x->m, a, b)) >= 0 &&
	    (double)sq > r)
		r = (double)sq;
	return r;
}

static long long
ref_lower_bound(const struct cand *c, size_t nc, int64_t n,
    int64_t *const *preds, const int *npreds, enum policy p)
{
	struct bctx x;
	double *w, *fin, *best, b;
	unsigned char *multi, *topo, *spanned;
	size_t *ord = calloc(nc + 1, sizeof(*ord)), m = 0, k;
	int64_t i, j, s, t;
	long long r;

	/* the policy's own candidates in order of last layer (a valid DP order) */
	for (k = 0; k < nc; k++)
		if (c[k].kind != K_DAG && policy_allows(p, &c[k]) &&
		    c[k].first >= 0 && c[k].first <= c[k].last &&
		    c[k].last < n)
			ord[m++] = k;
	sort_c = c;
	qsort(ord, m, sizeof(*ord), bylast);
	w = calloc((size_t)n + 1, sizeof(*w));
	fin = calloc((size_t)n + 1, sizeof(*fin));
	best = calloc((size_t)n + 2, sizeof(*best));
	multi = calloc((size_t)n + 1, 1);
	topo = calloc((size_t)n + 1, 1);
	spanned = calloc((size_t)n + 1, 1);
	/*
	 * In a producer chain a layer counts at its fastest single-layer
	 * candidate, or 0 when a multi-layer candidate could take it.
	 */
	for (i = 0; i < n; i++)
		w[i] = INFINITY;
	for (k = 0; k < m; k++) {
		const struct cand *y = &c[ord[k]];

		for (j = y->first; j < y->last; j++)
			multi[j] = multi[j + 1] = spanned[j] = 1;
		if (y->first == y->last && (double)y->ps < w[y->first])
			w[y->first] = (double)y->ps;
	}
	if (preds != NULL)
		seqpoints(n, preds, npreds, topo);
	x.c = c; x.ord = ord; x.m = m; x.preds = preds; x.npreds = npreds;
	x.topo = topo; x.multi = multi; x.w = w; x.fin = fin;
	/*
	 * Any schedule falls apart, at the sequence points no chosen
	 * candidate spans, into blocks run one after another, each taking at
	 * least its bound: the least sum of block bounds over such
	 * partitions (best[i + 1]: layers 0..i) bounds every schedule.
	 * A block only extends past a sequence point some candidate spans.
	 */
	for (i = 1; i <= n; i++)
		best[i] = INFINITY;
	for (s = 0; s < n; s++) {
		if (isinf(best[s]) || (s > 0 && !topo[s - 1]))
			continue;
		for (t = s; t < n; t++) {
			if (t == n - 1 || topo[t]) {
				b = block(&x, s, t);
				if (b >= 0 && best[s] + b < best[t + 1])
					best[t + 1] = best[s] + b;
				if (!spanned[t])
					break;
			}
		}
	}
	r = isinf(best[n]) ? -1 : (long long)floor(best[n] + 1e-6);
	free(ord);
	free(w);
	free(fin);
	free(best);
	free(multi);
	free(topo);
	free(spanned);
	/* (the mixes are sums of integers: the 1e-6 rounds off their error) */
	return r;
}
