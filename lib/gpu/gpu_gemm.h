/*
 * The tiled-GEMM kernel model of gpu-cycles(1): convs (implicit GEMM),
 * gemm and matmul layers run as a grid of CTA tiles from a tile menu.
 * For each tile (and split-K factor) the model counts occupancy, waves,
 * and per wave max(math on the busiest SM, L2 traffic, DRAM traffic) plus
 * a fill; the fastest option is kept, as library heuristics do.  DRAM
 * traffic is compulsory when both operands fit in a share of L2, else each
 * wave fetches the operand panels its near-square block of tiles touches
 * (the L2 reuse across a wave).
 */
#ifndef PF_GPU_GEMM_H
#define PF_GPU_GEMM_H

#include "gpu_model.h"
#include "gpu_ops.h"

/* One GEMM problem: g independent (m x k) * (k x n) products. */
struct gpu_gemm {
	double	g, m, n, k;	/* k already padded where tensor cores pad */
	/*
	 * Filter taps of an NHWC implicit-GEMM conv on tensor cores (0 or
	 * 1: a plain GEMM).  The K loop then runs tap by tap over the
	 * k / taps channels of each, so every tap's channel slice is padded
	 * to whole tile_k steps (small C pays the padding once per tap).
	 */
	double	taps;
	/*
	 * 1: the forward implicit-GEMM kernel of a convolution.  Such a
	 * kernel never splits K across CTAs (each CTA walks all of K, tap
	 * by tap), its tile comes from the library's heuristic
	 * (gpu_gemm_conv_tile), and its k-steps and call floor are
	 * conv_kstep_cycles and conv_fixed_ns.
	 */
	int	conv;
	int	esz;		/* operand element bytes */
	double	rate;		/* FLOP/cycle/SM of the unit used */
	double	eff;		/* share of rate sustained (0: eff_math) */
	double	a_bytes;	/* activation operand(s) as stored */
	int	a_in_l2;	/* a_bytes read from L2, not DRAM */
	double	b_bytes;	/* constant operand (weights) */
	double	c_bytes;	/* output */
	/* The tile menu chosen from (NULL: the config's tile_menu). */
	const struct gpu_tile *tiles;
	int	ntiles;
};

/* Waves of ctas CTAs over slots concurrent CTAs: ceil(ctas / slots). */
double gpu_gemm_waves(double ctas, double slots);

/*
 * Cost of the problem with tile t and split-K factor s (s > 1 adds a
 * reduction kernel, counted in k->aux_cycles and k->kernels).  Returns
 * the device cycles and the launches of its kernels composed as the
 * build launches them (what the selection compares), or a negative value
 * when the tile cannot be resident.
 */
double gpu_gemm_option(const struct gpu_mach *g, const struct gpu_gemm *p,
    const struct gpu_tile *t, int s, struct gpu_kern *k);

/*
 * The fastest option over the tile menu and, when the grid has fewer
 * tiles than SMs, split-K factors 2, 4, ... up to splitk_max.  For an
 * implicit-GEMM conv (p->conv): split-K 1 and the tile
 * gpu_gemm_conv_tile picks (the cheapest resident tile when it picks
 * none).
 */
void gpu_gemm_cost(const struct gpu_mach *g, const struct gpu_gemm *p,
    struct gpu_kern *k);

/*
 * The tile a library's heuristic gives an implicit-GEMM conv: the
 * largest CTA tile (tm x tn, at least 64 rows: the 16- and 32-row tiles
 * are the GEMV-like GEMM kernels) whose grid still puts a CTA on every
 * SM; when no tile fills the SMs (a small grid, batch 1), the smallest
 * such tile.  Among tiles of the chosen size the one of least cost.
 * Returns its index in menu, or -1 when none is resident.
 */
int gpu_gemm_conv_tile(const struct gpu_mach *g, const struct gpu_gemm *p,
    const struct gpu_tile *menu, int n);

#endif
