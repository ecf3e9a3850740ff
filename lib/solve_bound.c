/*
 * A lower bound for pf-solve -D: no schedule that runs every layer as one
 * of a policy's candidates, overlapping independent work in any way the
 * dependences allow, can beat it (solve.h).  It tells how much a fuller
 * DAG scheduler could still gain over the co-scheduled windows.
 */
#include <math.h>
#include <stdlib.h>

#include "solve.h"
#include "xalloc.h"

/*
 * min over exact covers of sum(lam * gpu + (1 - lam) * pim): a shortest
 * path over the layer order; -1 when there is no cover.
 */
static double
weighted(const struct cand *c, const size_t *ord, size_t m, int64_t n,
    double lam)
{
	double *f = xcalloc((size_t)n + 1, sizeof(*f)), r;
	int64_t j;
	size_t i;

	for (j = 1; j <= n; j++)
		f[j] = INFINITY;
	for (i = 0; i < m; i++) {
		const struct cand *x = &c[ord[i]];
		double t;

		if (isinf(f[x->first]))
			continue;
		t = f[x->first] + lam * (double)x->gpu_ps +
		    (1 - lam) * (double)x->pim_ps;
		if (t < f[x->last + 1])
			f[x->last + 1] = t;
	}
	r = isinf(f[n]) ? -1 : f[n];
	free(f);
	return r;
}

static const struct cand *sort_c;

static int
bylast(const void *a, const void *b)
{
	const struct cand *x = &sort_c[*(const size_t *)a];
	const struct cand *y = &sort_c[*(const size_t *)b];

	return x->last < y->last ? -1 : x->last > y->last;
}

long long
solve_lower_bound(const struct cand *c, size_t nc, int64_t n,
    int64_t *const *preds, const int *npreds, enum policy p)
{
	double lo = 0, hi = 1, load, *w, *fin, cp = 0;
	unsigned char *multi;
	size_t *ord = xcalloc(nc + 1, sizeof(*ord)), m = 0, k;
	int64_t i, j;
	int it, q;

	/* the policy's own candidates in order of last layer (a valid DP order) */
	for (k = 0; k < nc; k++)
		if (c[k].kind != K_DAG && policy_allows(p, &c[k]) &&
		    c[k].first >= 0 && c[k].first <= c[k].last &&
		    c[k].last < n)
			ord[m++] = k;
	sort_c = c;
	qsort(ord, m, sizeof(*ord), bylast);

	/*
	 * Load: the makespan is at least each device's busy time, hence at
	 * least any convex mix of the two, minimised over covers; the
	 * minimum is concave in lam, so a ternary search finds its top.
	 */
	for (it = 0; it < 100; it++) {
		double a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3;

		if (weighted(c, ord, m, n, a) < weighted(c, ord, m, n, b))
			lo = a;
		else
			hi = b;
	}
	load = weighted(c, ord, m, n, (lo + hi) / 2);
	free(ord);
	if (load < 0)
		return -1;
	/*
	 * Dependence: a chain of producers runs one after another; a layer
	 * counts at its fastest single-layer candidate, or 0 when a
	 * multi-layer candidate could take it.
	 */
	w = xcalloc((size_t)n + 1, sizeof(*w));
	fin = xcalloc((size_t)n + 1, sizeof(*fin));
	multi = xcalloc((size_t)n + 1, 1);
	for (i = 0; i < n; i++)
		w[i] = INFINITY;
	for (k = 0; k < nc; k++) {
		const struct cand *x = &c[k];

		if (x->kind == K_DAG || !policy_allows(p, x) || x->first < 0 ||
		    x->last >= n)
			continue;
		if (x->first != x->last)
			for (j = x->first; j <= x->last; j++)
				multi[j] = 1;
		else if ((double)x->ps < w[x->first])
			w[x->first] = (double)x->ps;
	}
	for (i = 0; preds != NULL && i < n; i++) {
		double start = 0;

		for (q = 0; q < npreds[i]; q++)
			if (fin[preds[i][q]] > start)
				start = fin[preds[i][q]];
		fin[i] = start + (multi[i] || isinf(w[i]) ? 0 : w[i]);
		if (fin[i] > cp)
			cp = fin[i];
	}
	free(w);
	free(fin);
	free(multi);
	/* the mixes are sums of integers: round off the last bits of error */
	return (long long)floor((load > cp ? load : cp) + 1e-6);
}
