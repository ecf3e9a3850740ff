/*
 * The GPU device model of gpu-cycles(1): the parameters of one GPU as
 * loaded from a share/pimflow/gpu/<name>.conf file and the machine it
 * becomes at a given number of memory channels; the kernel models
 * (gpu_gemm.h, gpu_ops.h, gpu_wino.h) stand on it, and the per-layer
 * estimate (gpu_layer.h) on them.
 *
 * Everything here is a pure function of these structs: no file is read
 * except by gpu_model_load(), so the unit tests build models in memory.
 * Cycles are core-clock cycles (double); bytes and FLOPs are doubles too,
 * since they only ever feed divisions.
 */
#ifndef PF_GPU_MODEL_H
#define PF_GPU_MODEL_H

#include <stddef.h>

#include "conf.h"
#include "gpu_build.h"
#include "layer.h"

#define GPU_MAXTILES	16

/* One CTA tile of the tile menu: output block tm x tn, threads per CTA. */
struct gpu_tile {
	int	tm, tn, threads;
};

/*
 * Device parameters; the key of every field is in gpu_model_keys[] with
 * its unit and meaning (that table is what gpu-cycles(1) documents).
 */
struct gpu_model {
	double	sms;			/* streaming multiprocessors */
	double	clock_mhz;		/* core clock of reported cycles */
	double	sustained_mhz;		/* clock the chip holds under load */
	double	channels;		/* memory channels of the whole machine */
	double	bw_gbs_per_channel;	/* DRAM GB/s per channel */
	double	l2_kb_per_channel;	/* L2 KiB per channel */
	double	l2_bytes_per_cycle_per_channel;	/* L2 bandwidth */
	double	sm_l2_bytes_per_cycle;	/* what one SM can take from L2 */
	double	tc_fp16, tc_int8, tc_tf32;	/* tensor FLOP/cycle/SM */
	double	cuda_fp16, cuda_fp32;		/* CUDA-core FLOP/cycle/SM */
	double	cuda_int8;			/* DP4A ops/cycle/SM (0: none) */
	double	tc_align;		/* K, N multiple for tensor cores */
	double	min_library_major;	/* oldest library generation it runs */
	double	max_ctas_per_sm, max_threads_per_sm, regs_per_sm;
	double	smem_kb_per_sm;
	double	tile_k, tile_stages, tile_regs_overhead;
	double	splitk_max;
	double	eff_math, eff_dram, eff_l2;
	double	eff_math_cuda;		/* eff_math of CUDA-core GEMMs */
	double	fill_cycles;		/* per GEMM wave, once per stream kernel */
	double	launch_cycles;		/* per kernel */
	double	kernel_fixed_ns;	/* device time every kernel pays */
	double	kstep_cycles;		/* latency floor of one GEMM k-step */
	double	conv_fixed_ns;		/* kernel_fixed_ns of an implicit-GEMM conv */
	double	conv_kstep_cycles;	/* kstep_cycles of an implicit-GEMM conv */
	double	wino_eff_math;		/* eff_math_cuda of Winograd's multiplies */
	double	l2_input_fraction;	/* input in L2 if <= this share of L2 */
	double	l2_reuse_fraction;	/* GEMM operands read once if they fit */
	double	stream_threads, stream_elems_per_thread;
	struct gpu_tile	tiles[GPU_MAXTILES];
	int	ntiles;
	/* tile_menu_fp32: the tiles of fp32 GEMMs on CUDA cores (SGEMM) */
	struct gpu_tile	tiles32[GPU_MAXTILES];
	int	ntiles32;
	char	default_build[64];	/* build used when none is named */
	struct gpu_build build;		/* the software build costed */
};

/*
 * The numeric keys of a GPU config (conf.h), NULL-terminated; the string
 * keys tile_menu and default_build are read apart.
 */
extern const struct conf_key gpu_model_keys[];

/*
 * Load and validate a config file (path already resolved).  Every key of
 * gpu_model_keys[] and tile_menu is required; an unknown key, a value out
 * of range or a tile that cannot be resident on an SM is reported as
 * "file:line: ..." (a missing key as "file: missing key 'k'") and -1 is
 * returned.
 */
int gpu_model_load(const char *path, struct gpu_model *m);

/*
 * Resolve and load device config `device` and build `build` (NULL: the
 * device's default_build) into m.  Returns 0, or -1 after reporting.
 */
int gpu_model_open(const char *device, const char *build,
    struct gpu_model *m);

/* Whether the layer's library pads unaligned dims onto tensor cores. */
int gpu_tc_pads(const struct gpu_model *m);

/*
 * Parse a tile menu "256x128/256, 128x128/256, ..." (tm x tn / threads)
 * into m->tiles.  Returns 0, or -1 with *why set to a static message.
 */
int gpu_tiles_parse(const char *s, struct gpu_model *m, const char **why);

/* The same into tiles[GPU_MAXTILES], *n set to their count. */
int gpu_tiles_parse_into(const char *s, struct gpu_tile *tiles, int *n,
    const char **why);

/*
 * CTAs of tile t resident per SM for element size esz (0 when the tile
 * cannot be resident: too many registers, threads or shared memory).
 * Shared memory per CTA = (tm + tn) x tile_k x esz x tile_stages;
 * registers per thread = tm x tn / threads (fp32 accumulators) +
 * tile_regs_overhead, at most 255.
 */
int gpu_tile_occupancy(const struct gpu_model *m, const struct gpu_tile *t,
    int esz);

/*
 * The machine at a channel count.  Its cycles are cycles of the sustained
 * clock (rates in bytes per such cycle); scale converts them to cycles of
 * clock_mhz, in which every gpu_cost field is reported.
 */
struct gpu_mach {
	const struct gpu_model *m;
	double	channels;
	double	dram_bpc;	/* peak DRAM bytes per cycle */
	double	l2_bytes;	/* L2 capacity */
	double	l2_bpc;		/* L2 bytes per cycle */
	double	launch;		/* launch latency of a kernel, cycles */
	double	fixed;		/* fixed device cycles of every kernel */
	double	conv_fixed;	/* the same of an implicit-GEMM conv kernel */
	double	scale;		/* clock_mhz / sustained_mhz */
};

void gpu_mach_init(struct gpu_mach *g, const struct gpu_model *m,
    double channels);

/* Whether dtype is one of the 8-bit integer types (int8, uint8). */
int gpu_dtype_is_int8(const char *dtype);

/*
 * Whether the config has a rate for dtype: fp16, bf16 and fp32 always,
 * int8/uint8 with a tensor or DP4A rate, fp8 with a tensor rate; nothing
 * else (fp64, int16, int32, ...).
 */
int gpu_dtype_ok(const struct gpu_model *m, const char *dtype);

/*
 * The config keys whose rates a dtype may use ("tc_flop_per_sm_cycle_int8
 * and cuda_flop_per_sm_cycle_int8" for int8), or NULL when no key rates
 * it (fp64, int16, ...): the words of gpu-cycles' diagnostic for a dtype
 * gpu_dtype_ok() refuses.
 */
const char *gpu_dtype_keys(const char *dtype);

#endif
