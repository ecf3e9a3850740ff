/*
 * Exact segmentation DP over the layer order and the DAG-aware
 * co-scheduling candidates (solve.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve.h"
#include "xalloc.h"

static const char *const kindnames[K_NKIND] = {
	"base", "gpu", "pim", "split", "pipe", "dag"
};
static const char *const polnames[P_NPOL] = {
	"none", "newton+", "newton++", "mddp", "pipeline", "pimflow"
};

const char *
kind_name(enum cand_kind k)
{
	return k < K_NKIND ? kindnames[k] : "?";
}

int
kind_parse(const char *s, enum cand_kind *k)
{
	int i;

	for (i = 0; i < K_DAG; i++)	/* dag is the solver's own */
		if (strcmp(s, kindnames[i]) == 0) {
			*k = (enum cand_kind)i;
			return 0;
		}
	return -1;
}

const char *
policy_name(enum policy p)
{
	return p < P_NPOL ? polnames[p] : "?";
}

int
policy_parse(const char *s, enum policy *p)
{
	int i;

	for (i = 0; i < P_NPOL; i++)
		if (strcmp(s, polnames[i]) == 0) {
			*p = (enum policy)i;
			return 0;
		}
	return -1;
}

int
policy_allows(enum policy p, const struct cand *c)
{
	int opt = c->hiding != 0;	/* published PIM settings (GW, hiding) */

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
	memset(pl, 0, sizeof(*pl));
}

static int
bylast(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 :
	    x[1] < y[1] ? -1 : x[1] > y[1];
}

int
solve_dp(const struct cand *c, size_t nc, int64_t n, enum policy p,
    struct plan *pl, int64_t *bad, int64_t *stuck)
{
	long long *f = xcalloc((size_t)n + 1, sizeof(*f));
	size_t *from = xcalloc((size_t)n + 1, sizeof(*from));
	size_t (*ord)[2] = xcalloc(nc + 1, sizeof(*ord));
	unsigned char *cov = xcalloc((size_t)n + 1, 1);
	size_t i, k, m = 0;
	int64_t j, l;
	int rc = -1;

	memset(pl, 0, sizeof(*pl));
	*bad = *stuck = -1;
	/* allowed candidates by last layer, then input order */
	for (i = 0; i < nc; i++) {
		if (!policy_allows(p, &c[i]) || c[i].first < 0 ||
		    c[i].last >= n || c[i].first > c[i].last)
			continue;
		ord[m][0] = (size_t)c[i].last;
		ord[m][1] = i;
		m++;
		for (l = c[i].first; l <= c[i].last; l++)
			cov[l] = 1;
	}
	for (j = 0; j < n; j++)
		if (!cov[j]) {
			*bad = j;
			goto done;
		}
	qsort(ord, m, sizeof(*ord), bylast);
	f[0] = 0;
	for (j = 1; j <= n; j++)
		f[j] = LLONG_MAX;
	for (k = 0; k < m; k++) {
		const struct cand *x = &c[ord[k][1]];
		long long t;

		if (f[x->first] == LLONG_MAX)
			continue;
		t = f[x->first] + x->ps;
		/* strict: among equal totals the earliest candidate stays */
		if (t < f[x->last + 1]) {
			f[x->last + 1] = t;
			from[x->last + 1] = ord[k][1];
		}
	}
	if (f[n] == LLONG_MAX) {
		for (j = 1; j <= n && f[j] != LLONG_MAX; j++)
			;
		*stuck = j - 1;
		goto done;
	}
	pl->ps = f[n];
	for (j = n; j > 0; j = c[from[j]].first)
		pl->nseg++;
	pl->seg = xcalloc(pl->nseg, sizeof(*pl->seg));
	k = pl->nseg;
	for (j = n; j > 0; j = c[from[j]].first)
		pl->seg[--k] = from[j];
	rc = 0;
done:
	free(f);
	free(from);
	free(ord);
	free(cov);
	return rc;
}

/* Union-find over window positions. */
static int
root(int *u, int x)
{
	while (u[x] != x)
		x = u[x] = u[u[x]];
	return x;
}

/* Best single-layer gpu and pim(hiding) times, -1 when none. */
static void
singles(const struct cand *c, size_t nc, int64_t n, long long *g,
    long long *pm)
{
	size_t i;
	int64_t j;

	for (j = 0; j < n; j++)
		g[j] = pm[j] = -1;
	for (i = 0; i < nc; i++) {
		const struct cand *x = &c[i];
		long long *t;

		if (x->first != x->last || x->first < 0 || x->first >= n)
			continue;
		if (x->kind == K_GPU)
			t = &g[x->first];
		else if (x->kind == K_PIM && x->hiding != 0)
			t = &pm[x->first];
		else
			continue;
		if (*t < 0 || x->ps < *t)
			*t = x->ps;
	}
}

size_t
solve_dag(struct cand **cp, size_t *ncp, int64_t n, int64_t *const *preds,
    const int *npreds, int window)
{
	long long *g = xcalloc((size_t)n + 1, sizeof(*g));
	long long *pm = xcalloc((size_t)n + 1, sizeof(*pm));
	size_t added = 0;
	int64_t i, j;

	if (window > 12)	/* 2^parts masks per window: keep it small */
		window = 12;
	singles(*cp, *ncp, n, g, pm);
	for (i = 0; i < n; i++)
	for (j = i + 1; j < n && j - i < window; j++) {
		int w = (int)(j - i + 1), u[64], comp[64], nc = 0, a, b, q;
		long long best = LLONG_MAX, bg = 0, bp = 0;
		unsigned long mask, bestmask = 0;

		for (a = 0; a < w; a++)
			u[a] = a;
		for (a = 0; a < w; a++)
			for (q = 0; q < npreds[i + a]; q++)
				if (preds[i + a][q] >= i) {
					b = (int)(preds[i + a][q] - i);
					u[root(u, a)] = root(u, b);
				}
		for (a = 0; a < w; a++)
			comp[a] = -1;
		for (a = 0; a < w; a++) {
			int r = root(u, a);

			if (comp[r] < 0)
				comp[r] = nc++;
			comp[a] = comp[r];
		}
		if (nc < 2 || nc > 16)
			continue;
		/* bit k of mask: part k runs on PIM; both devices used */
		for (mask = 1; mask + 1 < 1UL << nc; mask++) {
			long long sg = 0, sp = 0, t;
			int okm = 1;

			for (a = 0; a < w && okm; a++) {
				if (mask >> comp[a] & 1) {
					if (pm[i + a] < 0)
						okm = 0;
					sp += pm[i + a];
				} else {
					if (g[i + a] < 0)
						okm = 0;
					sg += g[i + a];
				}
			}
			t = sg > sp ? sg : sp;
			if (okm && t < best) {
				best = t;
				bestmask = mask;
				bg = sg;
				bp = sp;
			}
		}
		if (best == LLONG_MAX)
			continue;
		{
			struct cand *x;
			char id[64];

			*cp = xreallocarray(*cp, *ncp + 1, sizeof(**cp));
			x = &(*cp)[(*ncp)++];
			memset(x, 0, sizeof(*x));
			snprintf(id, sizeof(id), "%lld-%lld:dag",
			    (long long)i, (long long)j);
			x->id = xstrdup(id);
			x->first = i;
			x->last = j;
			x->kind = K_DAG;
			x->ratio = -1;
			x->gwrite = x->hiding = -1;
			x->gpu_ps = bg;
			x->pim_ps = bp;
			x->ps = best;
			x->dev = xcalloc((size_t)w, 1);
			for (a = 0; a < w; a++)
				x->dev[a] = (unsigned char)(bestmask >> comp[a] & 1);
			added++;
		}
	}
	free(g);
	free(pm);
	return added;
}
