/*
 * Tiles, occupancy, waves and split-K of the GEMM kernel model; see
 * gpu_gemm.h.
 */
#include <math.h>
#include <string.h>

#include "gpu_gemm.h"

double
gpu_gemm_waves(double ctas, double slots)
{
	return ceil(ctas / slots);
}

/*
 * DRAM bytes read by a wave of t tiles.  gt = tiles of one (group, split)
 * grid, mt x nt of them; ag/bg = operand bytes of one group from DRAM.
 */
static double
wave_reads(double t, double mt, double nt, double ag, double bg, int s)
{
	double gt = mt * nt, wm, wn;

	if (t >= gt)
		return t / gt * (ag + bg) / s;
	/* A near-square block of tiles: distinct row and column panels. */
	wm = ceil(sqrt(t));
	if (wm > mt)
		wm = mt;
	wn = ceil(t / wm);
	if (wn > nt) {
		wn = nt;
		wm = ceil(t / wn);
	}
	return (ag * wm / mt + bg * wn / nt) / s;
}

/* Cost of one wave of t tiles; adds its parts to k. */
static double
wave_cost(const struct gpu_mach *g, const struct gpu_gemm *p,
    const struct gpu_tile *tl, double ks, int s, double t, double total,
    double mt, double nt, int fits, struct gpu_kern *k)
{
	const struct gpu_model *m = g->m;
	double per_sm = ceil(t / m->sms), ag, bg, rd, wr, l2b, math, l2, dram;
	double tile_in = (double)(tl->tm + tl->tn) * ks * p->esz;

	math = per_sm * 2.0 * tl->tm * tl->tn * ks / (p->rate *
	    (p->eff > 0 ? p->eff : m->eff_math));
	ag = p->a_in_l2 ? 0 : p->a_bytes / p->g;
	bg = p->b_bytes / p->g;
	if (fits)
		rd = (ag + bg) * p->g * t / total;
	else
		rd = wave_reads(t, mt, nt, ag, bg, s);
	/* Split-K writes fp32 partial tiles; otherwise the output share. */
	wr = s > 1 ? t * tl->tm * tl->tn * 4.0 : p->c_bytes * t / total;
	l2b = t * tile_in + wr;
	l2 = fmax(l2b / (g->l2_bpc * m->eff_l2),
	    per_sm * tile_in / m->sm_l2_bytes_per_cycle);
	dram = (rd + wr) / (g->dram_bpc * m->eff_dram);
	k->shape.math += math;
	k->shape.mem += fmax(l2, dram);
	k->dram_bytes += rd + wr;
	k->l2_bytes += l2b;
	/* Each k-step waits for its loads when too few CTAs hide them. */
	return fmax(fmax(math, fmax(l2, dram)), ks / m->tile_k *
	    (p->conv ? m->conv_kstep_cycles : m->kstep_cycles)) +
	    m->fill_cycles;
}

double
gpu_gemm_option(const struct gpu_mach *g, const struct gpu_gemm *p,
    const struct gpu_tile *t, int s, struct gpu_kern *k)
{
	const struct gpu_model *m = g->m;
	double mt, nt, total, slots, waves, last, ks, cyc, full;
	int occ, fits;
	struct gpu_kern one;
	struct gpu_stream red;
	struct gpu_kern rk;

	memset(k, 0, sizeof(*k));
	if ((occ = gpu_tile_occupancy(m, t, p->esz)) <= 0)
		return -1;
	mt = ceil(p->m / t->tm);
	nt = ceil(p->n / t->tn);
	total = p->g * s * mt * nt;
	slots = m->sms * occ;
	waves = gpu_gemm_waves(total, slots);
	/* K per split, whole k-steps of tile_k (per tap for a conv). */
	if (p->taps > 1)
		ks = ceil(p->taps * ceil(p->k / p->taps / m->tile_k) / s) *
		    m->tile_k;
	else
		ks = ceil(ceil(p->k / s) / m->tile_k) * m->tile_k;
	fits = (p->a_in_l2 ? 0 : p->a_bytes) + p->b_bytes <=
	    m->l2_reuse_fraction * g->l2_bytes;
	k->shape.tile = *t;
	k->shape.occ = occ;
	k->shape.splitk = s;
	k->shape.ctas = total;
	k->shape.waves = waves;
	k->kernels = 1;
	/* Full waves are identical: cost one and scale; then the last. */
	last = total - (waves - 1) * slots;
	cyc = 0;
	if (waves > 1) {
		memset(&one, 0, sizeof(one));
		full = wave_cost(g, p, t, ks, s, slots, total, mt, nt, fits,
		    &one);
		cyc += full * (waves - 1);
		k->shape.math += one.shape.math * (waves - 1);
		k->shape.mem += one.shape.mem * (waves - 1);
		k->dram_bytes += one.dram_bytes * (waves - 1);
		k->l2_bytes += one.l2_bytes * (waves - 1);
	}
	cyc += wave_cost(g, p, t, ks, s, last, total, mt, nt, fits, k);
	if (s > 1) {
		/* Reduction: read the partials, write the output. */
		double part = p->g * s * p->m * p->n * 4.0;

		gpu_ops_copy_stream(p->c_bytes, p->esz,
		    part <= m->l2_input_fraction * g->l2_bytes, &red);
		red.dram_rd = red.dram_rd > 0 ? part : 0;
		red.l2_rd = red.l2_rd > 0 ? part : 0;
		/* One thread-element per (padded) output element. */
		red.elems = p->g * p->m * p->n;
		red.flops = s * red.elems;
		red.rate = m->cuda_fp32;
		gpu_ops_stream_cost(g, &red, &rk);
		k->aux_cycles = rk.cycles;
		k->dram_bytes += rk.dram_bytes;
		k->l2_bytes += rk.l2_bytes;
		k->kernels = 2;
	}
	cyc += p->conv ? g->conv_fixed : g->fixed;
	k->cycles = cyc + k->aux_cycles;
	/* What the layer pays for it, launches composed as the build says. */
	return gpu_build_compose(m->build.launch, k->cycles,
	    k->kernels * g->launch);
}

void
gpu_gemm_cost(const struct gpu_mach *g, const struct gpu_gemm *p,
    struct gpu_kern *k)
{
	const struct gpu_model *m = g->m;
	int own = p->tiles != NULL && p->ntiles > 0;
	const struct gpu_tile *menu = own ? p->tiles : m->tiles;
	int n = own ? p->ntiles : m->ntiles;
	struct gpu_kern cur;
	double best = -1, c, tiles;
	int i, s, smax;

	memset(k, 0, sizeof(*k));
	if (p->conv && (i = gpu_gemm_conv_tile(g, p, menu, n)) >= 0) {
		gpu_gemm_option(g, p, &menu[i], 1, k);
		return;
	}
	/* (a conv no heuristic tile fits: the cheapest, still no split-K) */
	for (i = 0; i < n; i++) {
		tiles = p->g * ceil(p->m / menu[i].tm) *
		    ceil(p->n / menu[i].tn);
		smax = tiles < m->sms && !p->conv ? (int)m->splitk_max : 1;
		for (s = 1; s <= smax; s *= 2) {
			c = gpu_gemm_option(g, p, &menu[i], s, &cur);
			if (c >= 0 && (best < 0 || c < best)) {
				best = c;
				*k = cur;
			}
		}
	}
}

/* A tile the conv heuristic considers: tn at most the channels' width. */
static int
conv_tile_ok(const struct gpu_model *m, const struct gpu_gemm *p,
    const struct gpu_tile *t, double tn)
{
	return t->tm >= 64 && t->tn <= tn && gpu_tile_occupancy(m, t, p->esz) >= 1;
}

int
gpu_gemm_conv_tile(const struct gpu_mach *g, const struct gpu_gemm *p,
    const struct gpu_tile *menu, int n)
{
	const struct gpu_model *m = g->m;
	struct gpu_kern k;
	double area, fill = -1, small = -1, want, c, best = -1, tn = 0;
	int i, pick = -1;

	/* No tile wider than the output channels need (narrow layers). */
	for (i = 0; i < n; i++)
		if (menu[i].tm >= 64 && (tn == 0 || menu[i].tn < tn))
			tn = menu[i].tn;
	if (tn <= 0)
		return -1;
	while (tn < p->n)
		tn *= 2;
	/* The largest tile whose grid fills the SMs, else the smallest. */
	for (i = 0; i < n; i++) {
		if (!conv_tile_ok(m, p, &menu[i], tn))
			continue;
		area = (double)menu[i].tm * menu[i].tn;
		if (p->g * ceil(p->m / menu[i].tm) * ceil(p->n / menu[i].tn) >=
		    m->sms && area > fill)
			fill = area;
		if (small < 0 || area < small)
			small = area;
	}
	want = fill > 0 ? fill : small;
	for (i = 0; i < n && want > 0; i++) {
		if (!conv_tile_ok(m, p, &menu[i], tn) ||
		    (double)menu[i].tm * menu[i].tn != want)
			continue;
		c = gpu_gemm_option(g, p, &menu[i], 1, &k);
		if (c >= 0 && (best < 0 || c < best)) {
			best = c;
			pick = i;
		}
	}
	return pick;
}
