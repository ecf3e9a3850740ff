/*
 * GPU device parameters from config files, the machine at a channel
 * count, and the per-layer estimate of gpu-cycles(1).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "diag.h"
#include "gpu_model.h"

/* R: a decimal, W: a whole number (a count); N: the key is not the field. */
#define RN(name, f, lo, hi, unit, doc) \
	CONF_KEY(name, CONF_REAL, struct gpu_model, f, lo, hi, unit, doc)
#define WN(name, f, lo, hi, unit, doc) \
	CONF_KEY(name, CONF_WHOLE, struct gpu_model, f, lo, hi, unit, doc)
#define R(f, lo, hi, unit, doc)	RN(#f, f, lo, hi, unit, doc)
#define W(f, lo, hi, unit, doc)	WN(#f, f, lo, hi, unit, doc)
#define TINY 1e-9

/* Every numeric config key; gpu-cycles(1) documents them in this order. */
const struct conf_key gpu_model_keys[] = {
	W(sms, 1, 1e4, "count", "streaming multiprocessors"),
	R(clock_mhz, 1, 1e5, "MHz", "core clock; cycles are counted in it"),
	RN("sustained_clock_mhz", sustained_mhz, 1, 1e5, "MHz",
	    "clock the chip holds under sustained load (power or thermal "
	    "limits); the kernels run at it"),
	W(channels, 1, 1e4, "count",
	    "memory channels of the whole machine (default of -C)"),
	R(bw_gbs_per_channel, TINY, 1e5, "GB/s", "DRAM bandwidth per channel"),
	R(l2_kb_per_channel, TINY, 1e7, "KiB", "L2 capacity per channel"),
	R(l2_bytes_per_cycle_per_channel, TINY, 1e5, "B/cycle",
	    "L2 bandwidth per channel"),
	R(sm_l2_bytes_per_cycle, TINY, 1e5, "B/cycle",
	    "bytes one SM can receive from L2 per cycle"),
	RN("tc_flop_per_sm_cycle_fp16", tc_fp16, 0, 1e6, "FLOP/cycle/SM",
	    "tensor cores, fp16/bf16 inputs (0: none)"),
	RN("tc_flop_per_sm_cycle_int8", tc_int8, 0, 1e6, "FLOP/cycle/SM",
	    "tensor cores, int8/fp8 inputs (0: none)"),
	RN("tc_flop_per_sm_cycle_tf32", tc_tf32, 0, 1e6, "FLOP/cycle/SM",
	    "tensor cores for fp32 layers as TF32 (0: fp32 on CUDA cores)"),
	RN("cuda_flop_per_sm_cycle_fp16", cuda_fp16, TINY, 1e6,
	    "FLOP/cycle/SM", "CUDA cores, fp16/bf16"),
	RN("cuda_flop_per_sm_cycle_fp32", cuda_fp32, TINY, 1e6,
	    "FLOP/cycle/SM", "CUDA cores, fp32 (and the element-wise work of "
	    "streaming kernels of other types)"),
	RN("cuda_flop_per_sm_cycle_int8", cuda_int8, 0, 1e6, "ops/cycle/SM",
	    "CUDA cores, int8 dot products (DP4A; 0: none)"),
	WN("tc_align_elems", tc_align, 1, 1024, "elements",
	    "tensor cores need K and N multiples of this"),
	W(min_library_major, 1, 99, "version",
	    "oldest cuBLAS/cuDNN major version that supports the chip: the "
	    "tensor-core rule follows the newer of it and the build's "
	    "library_major"),
	W(max_ctas_per_sm, 1, 1024, "count", "resident CTAs per SM"),
	W(max_threads_per_sm, 32, 1e5, "count", "resident threads per SM"),
	W(regs_per_sm, 1024, 1e7, "count", "32-bit registers per SM"),
	R(smem_kb_per_sm, 1, 1e5, "KiB", "shared memory per SM for CTAs"),
	WN("tile_k", tile_k, 1, 1024, "elements", "K step of every tile"),
	W(tile_stages, 1, 16, "count", "shared-memory pipeline stages"),
	W(tile_regs_overhead, 0, 255, "registers",
	    "registers per thread besides the accumulators"),
	W(splitk_max, 1, 1024, "count",
	    "largest split-K factor (powers of two up to it are tried)"),
	R(eff_math, TINY, 1, "ratio",
	    "share of the peak FLOP rate a busy SM sustains"),
	R(eff_math_cuda, TINY, 1, "ratio",
	    "share of the peak FLOP rate a busy SM sustains in a GEMM on CUDA "
	    "cores (eff_math is the tensor-core and streaming one)"),
	R(eff_dram, TINY, 1, "ratio", "share of peak DRAM bandwidth sustained"),
	R(eff_l2, TINY, 1, "ratio", "share of peak L2 bandwidth sustained"),
	W(fill_cycles, 0, 1e7, "cycles",
	    "pipeline fill: per GEMM wave, once per streaming kernel"),
	W(launch_cycles, 0, 1e9, "cycles", "launch latency of every kernel"),
	R(kernel_fixed_ns, 0, 1e6, "ns",
	    "device time every kernel pays besides its work (start-up, "
	    "drain, the call's share that launches do not hide)"),
	W(kstep_cycles, 0, 1e6, "cycles",
	    "latency floor of one tile_k step of a GEMM CTA: a wave takes at "
	    "least k-steps x this (few resident CTAs cannot hide the load "
	    "latency)"),
	R(conv_fixed_ns, 0, 1e6, "ns",
	    "device time a library convolution kernel (implicit GEMM or "
	    "depthwise) pays besides its work, in place of kernel_fixed_ns: "
	    "the per-call floor of a conv call"),
	W(conv_kstep_cycles, 0, 1e6, "cycles",
	    "latency floor of one tile_k step of an implicit-GEMM convolution "
	    "CTA, in place of kstep_cycles: each k-step also computes the "
	    "input addresses of its filter tap (im2col on the fly) before "
	    "its loads"),
	R(wino_eff_math, TINY, 1, "ratio",
	    "share of the CUDA-core FLOP rate the multiplies of a Winograd "
	    "convolution sustain (its batched GEMMs have K = C and read "
	    "transformed tiles; the fused kernel also transforms in the "
	    "same CTA)"),
	R(l2_input_fraction, 0, 1, "ratio",
	    "an activation tensor written by the previous kernel is read "
	    "from L2 when it is at most this share of L2"),
	R(l2_reuse_fraction, 0, 1, "ratio",
	    "GEMM operands are read from DRAM once when together they are "
	    "at most this share of L2"),
	W(stream_threads, 32, 1024, "count",
	    "threads per CTA of streaming kernels"),
	W(stream_elems_per_thread, 1, 1024, "elements",
	    "output elements per thread of streaming kernels"),
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

int
gpu_tiles_parse(const char *s, struct gpu_model *m, const char **why)
{
	return gpu_tiles_parse_into(s, m->tiles, &m->ntiles, why);
}

int
gpu_tiles_parse_into(const char *s, struct gpu_tile *tiles, int *n,
    const char **why)
{
	const char *p = s;
	char *e;
	long v[3];
	int i;

	*n = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		for (i = 0; i < 3; i++) {
			if (*p < '0' || *p > '9') {
				*why = "expected TMxTN/THREADS";
				return -1;
			}
			v[i] = strtol(p, &e, 10);
			if (v[i] < 1 || v[i] > 4096) {
				*why = "tile dimension out of range [1, 4096]";
				return -1;
			}
			p = e;
			if (i < 2 && *p++ != (i == 0 ? 'x' : '/')) {
				*why = "expected TMxTN/THREADS";
				return -1;
			}
		}
		if (*n == GPU_MAXTILES) {
			*why = "too many tiles";
			return -1;
		}
		tiles[*n].tm = (int)v[0];
		tiles[*n].tn = (int)v[1];
		tiles[*n].threads = (int)v[2];
		(*n)++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			return 0;
		if (*p++ != ',') {
			*why = "expected ',' between tiles";
			return -1;
		}
	}
}

int
gpu_tile_occupancy(const struct gpu_model *m, const struct gpu_tile *t, int esz)
{
	double regs, smem, o, v;

	if (t->threads <= 0 || t->tm <= 0 || t->tn <= 0)
		return 0;
	regs = ceil((double)t->tm * t->tn / t->threads) + m->tile_regs_overhead;
	if (regs > 255)
		return 0;
	smem = (double)(t->tm + t->tn) * m->tile_k * esz * m->tile_stages;
	o = m->max_ctas_per_sm;
	if ((v = floor(m->max_threads_per_sm / t->threads)) < o)
		o = v;
	if ((v = floor(m->regs_per_sm / (t->threads * regs))) < o)
		o = v;
	if ((v = floor(m->smem_kb_per_sm * 1024 / smem)) < o)
		o = v;
	return o < 0 ? 0 : (int)o;
}

/*
 * The string keys tile_menu(_fp32) and default_build, and the tiles' fit
 * (conf_load_model's check); the card's memory_bytes is capacity.c's
 * (pf-solve -G).
 */
static int
load_strings(struct conf *c, const char *path, void *obj)
{
	struct gpu_model *m = obj;
	const char *menu, *why;
	int i, any = 0;

	(void)conf_str(c, "memory_bytes");

	if ((menu = conf_str_req(c, "tile_menu")) == NULL)
		return -1;
	if (gpu_tiles_parse(menu, m, &why) < 0) {
		pf_errl(path, conf_line(c, "tile_menu"), "key 'tile_menu': %s: "
		    "'%s'", why, menu);
		return -1;
	}
	if ((menu = conf_str_req(c, "tile_menu_fp32")) == NULL)
		return -1;
	if (gpu_tiles_parse_into(menu, m->tiles32, &m->ntiles32, &why) < 0) {
		pf_errl(path, conf_line(c, "tile_menu_fp32"), "key "
		    "'tile_menu_fp32': %s: '%s'", why, menu);
		return -1;
	}
	for (i = 0; i < m->ntiles32; i++)
		if (gpu_tile_occupancy(m, &m->tiles32[i], 4) < 1) {
			pf_errl(path, conf_line(c, "tile_menu_fp32"), "key "
			    "'tile_menu_fp32': tile %dx%d/%d cannot be resident "
			    "on an SM with 4-byte elements", m->tiles32[i].tm,
			    m->tiles32[i].tn, m->tiles32[i].threads);
			return -1;
		}
	if ((menu = conf_str_req(c, "default_build")) == NULL)
		return -1;
	if (strlen(menu) >= sizeof(m->default_build) ||
	    strchr(menu, '/') != NULL) {
		pf_errl(path, conf_line(c, "default_build"), "key "
		    "'default_build': not a build name: '%s'", menu);
		return -1;
	}
	strcpy(m->default_build, menu);
	for (i = 0; i < m->ntiles; i++) {
		if (gpu_tile_occupancy(m, &m->tiles[i], 2) < 1) {
			pf_errl(path, conf_line(c, "tile_menu"), "key "
			    "'tile_menu': tile %dx%d/%d cannot be resident on "
			    "an SM", m->tiles[i].tm, m->tiles[i].tn,
			    m->tiles[i].threads);
			return -1;
		}
		if (gpu_tile_occupancy(m, &m->tiles[i], 4) >= 1)
			any = 1;
	}
	if (!any) {
		pf_errl(path, conf_line(c, "tile_menu"), "key 'tile_menu': no "
		    "tile is resident with 4-byte elements");
		return -1;
	}
	return 0;
}

static const struct conf_model loader =
    CONF_MODEL_NONAME(struct gpu_model, gpu_model_keys, load_strings);

int
gpu_model_load(const char *path, struct gpu_model *m)
{
	return conf_load_model(path, &loader, m);
}

void
gpu_mach_init(struct gpu_mach *g, const struct gpu_model *m, double channels)
{
	g->m = m;
	g->channels = channels;
	/* GB/s over MHz: bytes per cycle of the sustained clock. */
	g->dram_bpc = channels * m->bw_gbs_per_channel * 1e3 /
	    m->sustained_mhz;
	g->scale = m->clock_mhz / m->sustained_mhz;
	g->launch = m->launch_cycles / g->scale;
	g->fixed = m->kernel_fixed_ns * m->sustained_mhz / 1e3;
	g->conv_fixed = m->conv_fixed_ns * m->sustained_mhz / 1e3;
	g->l2_bytes = channels * m->l2_kb_per_channel * 1024;
	g->l2_bpc = channels * m->l2_bytes_per_cycle_per_channel;
}

int
gpu_model_open(const char *device, const char *build, struct gpu_model *m)
{
	char *path;
	int rc;

	if ((path = conf_resolve("gpu", device)) == NULL)
		return -1;
	rc = gpu_model_load(path, m);
	free(path);
	if (rc < 0)
		return -1;
	if ((path = conf_resolve("build", build != NULL ? build :
	    m->default_build)) == NULL)
		return -1;
	rc = gpu_build_load(path, &m->build);
	free(path);
	return rc;
}

int
gpu_tc_pads(const struct gpu_model *m)
{
	return fmax(m->min_library_major, m->build.library_major) >= 11;
}

int
gpu_dtype_is_int8(const char *dtype)
{
	return strcmp(dtype, "int8") == 0 || strcmp(dtype, "uint8") == 0;
}

int
gpu_dtype_ok(const struct gpu_model *m, const char *dtype)
{
	if (strcmp(dtype, "fp16") == 0 || strcmp(dtype, "bf16") == 0 ||
	    strcmp(dtype, "fp32") == 0)
		return 1;
	if (gpu_dtype_is_int8(dtype))
		return m->tc_int8 > 0 || m->cuda_int8 > 0;
	if (strcmp(dtype, "fp8") == 0)
		return m->tc_int8 > 0;
	return 0;
}

const char *
gpu_dtype_keys(const char *dtype)
{
	if (gpu_dtype_is_int8(dtype))
		return "tc_flop_per_sm_cycle_int8 and cuda_flop_per_sm_cycle_int8";
	if (strcmp(dtype, "fp8") == 0)
		return "tc_flop_per_sm_cycle_int8";
	return NULL;
}
