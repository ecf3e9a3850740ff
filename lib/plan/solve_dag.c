/*
 * The DAG-aware co-scheduling candidates (solve.h, solve_dag): windows
 * of layers whose independent parts run on the GPU and on PIM at once.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve.h"
#include "xalloc.h"

/* Union-find over window positions. */
static int
root(int *u, int x)
{
	while (u[x] != x)
		x = u[x] = u[u[x]];
	return x;
}

/*
 * Best single-layer gpu and pim(hiding) times, -1 when none, and the
 * chosen candidates' own energies (ge, pe: pj less the static share).
 */
static void
singles(const struct cand *c, size_t nc, int64_t n, long long *g,
    long long *pm, long long *ge, long long *pe)
{
	size_t i;
	int64_t j;

	for (j = 0; j < n; j++)
		g[j] = pm[j] = -1;
	for (i = 0; i < nc; i++) {
		const struct cand *x = &c[i];
		long long *t, *e, v;

		if (x->first != x->last || x->first < 0 || x->first >= n)
			continue;
		if (x->kind == K_GPU) {
			t = &g[x->first];
			e = &ge[x->first];
		} else if (x->kind == K_PIM && x->hiding != 0) {
			t = &pm[x->first];
			e = &pe[x->first];
		} else
			continue;
		/* a PIM layer of a window hands its input and output over */
		v = x->kind == K_PIM ? x->ps + x->hin_ps + x->hout_ps : x->ps;
		if (*t < 0 || v < *t) {
			*t = v;
			*e = x->pj - x->static_pj;
		}
	}
}

/*
 * The parts of window i..i+w-1: comp[a] is layer i+a's, layers joined
 * by an edge inside the window in one part.  The number of parts.
 */
static int
dag_parts(int64_t i, int w, int64_t *const *preds, const int *npreds,
    int *comp)
{
	int u[64], nc = 0, a, b, q;

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
	return nc;
}

/* The best way found to run a window's parts on both devices at once. */
struct dag_pick {
	long long	 best, bg, bp;	/* time; its GPU and PIM sums */
	unsigned long	 mask;		/* bit k: part k runs on PIM */
};

/*
 * Of every split of window i..i+w-1's nc parts that uses both devices,
 * the fastest (the slower device's sum; the first of equals) by the
 * single-layer times g and pm; best LLONG_MAX when none runs.
 */
static void
dag_pick(int64_t i, int w, const int *comp, int nc, const long long *g,
    const long long *pm, struct dag_pick *k)
{
	unsigned long mask;
	int a;

	k->best = LLONG_MAX;
	k->bg = k->bp = 0;
	k->mask = 0;
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
		if (okm && t < k->best) {
			k->best = t;
			k->mask = mask;
			k->bg = sg;
			k->bp = sp;
		}
	}
}

/*
 * Window i..j's candidate appended to *cp (*ncp of room *cap): k's
 * split, the energies ge and pe of its layers, the static share.
 */
static void
dag_add(struct cand **cp, size_t *ncp, size_t *cap, int64_t i, int64_t j,
    const int *comp, const struct dag_pick *k, const long long *ge,
    const long long *pe, double static_w)
{
	int a, w = (int)(j - i + 1);
	struct cand *x;
	char id[64];

	/* (room grows by halves: one move per many added) */
	if (*ncp == *cap) {
		*cap += *cap / 2 + 16;
		*cp = xreallocarray(*cp, *cap, sizeof(**cp));
	}
	x = &(*cp)[(*ncp)++];
	memset(x, 0, sizeof(*x));
	snprintf(id, sizeof(id), "%lld-%lld:dag", (long long)i, (long long)j);
	x->id = xstrdup(id);
	x->first = i;
	x->last = j;
	x->kind = K_DAG;
	x->ratio = -1;
	x->gwrite = x->hiding = -1;
	x->gpu_ps = k->bg;
	x->pim_ps = k->bp;
	x->ps = k->best;
	x->dev = xcalloc((size_t)w, 1);
	for (a = 0; a < w; a++) {
		x->dev[a] = (unsigned char)(k->mask >> comp[a] & 1);
		x->pj += x->dev[a] ? pe[i + a] : ge[i + a];
	}
	x->static_pj = llround(static_w * (double)k->best);
	x->pj += x->static_pj;
}

size_t
solve_dag(struct cand **cp, size_t *ncp, int64_t n, int64_t *const *preds,
    const int *npreds, int window, double static_w)
{
	long long *g = xcalloc((size_t)n + 1, sizeof(*g));
	long long *pm = xcalloc((size_t)n + 1, sizeof(*pm));
	long long *ge = xcalloc((size_t)n + 1, sizeof(*ge));
	long long *pe = xcalloc((size_t)n + 1, sizeof(*pe));
	size_t added = 0, cap = *ncp;
	int64_t i, j;

	if (window > 12)	/* 2^parts masks per window: keep it small */
		window = 12;
	singles(*cp, *ncp, n, g, pm, ge, pe);
	for (i = 0; i < n; i++)
	for (j = i + 1; j < n && j - i < window; j++) {
		int w = (int)(j - i + 1), comp[64], nc;
		struct dag_pick k;

		nc = dag_parts(i, w, preds, npreds, comp);
		if (nc < 2 || nc > 16)
			continue;
		dag_pick(i, w, comp, nc, g, pm, &k);
		if (k.best == LLONG_MAX)
			continue;
		dag_add(cp, ncp, &cap, i, j, comp, &k, ge, pe, static_w);
		added++;
	}
	free(g);
	free(pm);
	free(ge);
	free(pe);
	return added;
}
