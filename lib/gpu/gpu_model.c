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
#include "gpu_gemm.h"
#include "gpu_model.h"
#include "gpu_ops.h"
#include "gpu_wino.h"

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
		if (gpu_gemm_occupancy(m, &m->tiles32[i], 4) < 1) {
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
		if (gpu_gemm_occupancy(m, &m->tiles[i], 2) < 1) {
			pf_errl(path, conf_line(c, "tile_menu"), "key "
			    "'tile_menu': tile %dx%d/%d cannot be resident on "
			    "an SM", m->tiles[i].tm, m->tiles[i].tn,
			    m->tiles[i].threads);
			return -1;
		}
		if (gpu_gemm_occupancy(m, &m->tiles[i], 4) >= 1)
			any = 1;
	}
	if (!any) {
		pf_errl(path, conf_line(c, "tile_menu"), "key 'tile_menu': no "
		    "tile is resident with 4-byte elements");
		return -1;
	}
	return 0;
}

int
gpu_model_load(const char *path, struct gpu_model *m)
{
	memset(m, 0, sizeof(*m));
	return conf_load_model(path, gpu_model_keys, m, load_strings);
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
gpu_input_in_l2(const struct gpu_mach *g, double in_bytes)
{
	return g->m->build.l2_warm_input != 0 &&
	    in_bytes <= g->m->l2_input_fraction * g->l2_bytes;
}

static double
tc_rate(const struct gpu_model *m, const char *dtype)
{
	if (strcmp(dtype, "fp16") == 0 || strcmp(dtype, "bf16") == 0)
		return m->tc_fp16;
	if (strcmp(dtype, "int8") == 0 || strcmp(dtype, "uint8") == 0)
		return m->build.int8_tensor != 0 ? m->tc_int8 : 0;
	if (strcmp(dtype, "fp8") == 0)
		return m->tc_int8;
	if (strcmp(dtype, "fp32") == 0)
		return m->build.tf32 != 0 ? m->tc_tf32 : 0;
	return 0;
}

static int
is_int8(const char *dtype)
{
	return strcmp(dtype, "int8") == 0 || strcmp(dtype, "uint8") == 0;
}

int
gpu_dtype_ok(const struct gpu_model *m, const char *dtype)
{
	if (strcmp(dtype, "fp16") == 0 || strcmp(dtype, "bf16") == 0 ||
	    strcmp(dtype, "fp32") == 0)
		return 1;
	if (is_int8(dtype))
		return m->tc_int8 > 0 || m->cuda_int8 > 0;
	if (strcmp(dtype, "fp8") == 0)
		return m->tc_int8 > 0;
	return 0;
}

const char *
gpu_dtype_keys(const char *dtype)
{
	if (is_int8(dtype))
		return "tc_flop_per_sm_cycle_int8 and cuda_flop_per_sm_cycle_int8";
	if (strcmp(dtype, "fp8") == 0)
		return "tc_flop_per_sm_cycle_int8";
	return NULL;
}

double
gpu_peak_rate(const struct gpu_model *m, const char *dtype)
{
	return fmax(tc_rate(m, dtype), gpu_ops_cuda_rate(m, dtype));
}

const char *
gpu_bound_name(enum gpu_bound b)
{
	return b == GPU_COMPUTE ? "compute" : b == GPU_MEMORY ? "memory" :
	    "launch";
}

const char *
gpu_path_name(enum gpu_path p)
{
	return p == GPU_TENSOR ? "tensor" : p == GPU_CUDA ? "cuda" : "stream";
}

static double
roundup(double v, double a)
{
	return ceil(v / a) * a;
}

/* Run n copy kernels over a tensor of b bytes; returns their cycles. */
static double
copies(const struct gpu_mach *g, double n, double b, int esz, int *in_l2,
    struct gpu_cost *c)
{
	struct gpu_stream s;
	struct gpu_kern k;
	double cyc = 0;
	int i;

	for (i = 0; i < (int)n; i++) {
		gpu_ops_copy_stream(b, esz, *in_l2, &s);
		gpu_ops_stream_cost(g, &s, &k);
		cyc += k.cycles;
		c->dram_bytes += k.dram_bytes;
		c->l2_bytes += k.l2_bytes;
		c->kernels++;
		/* The next kernel reads what this one just wrote. */
		*in_l2 = b <= g->m->l2_input_fraction * g->l2_bytes;
	}
	return cyc;
}

/*
 * The GEMM-like kernels' figures into the layer's cost: bytes, kernels and
 * extra cycles add up; the main kernel's shape replaces what was there.
 */
static void
take_kern(const struct gpu_kern *k, struct gpu_cost *c)
{
	c->tile = k->tile;
	c->occupancy = k->occ;
	c->splitk = k->splitk;
	c->ctas = k->ctas;
	c->waves = k->waves;
	c->math_cycles = k->math;
	c->mem_cycles = k->mem;
	c->dram_bytes += k->dram_bytes;
	c->l2_bytes += k->l2_bytes;
	c->kernels += k->kernels;
	c->aux_cycles += k->aux_cycles;
}

/* A conv, gemm or matmul as a tiled GEMM; returns main kernel cycles. */
static double
gemm_layer(const struct gpu_mach *g, const struct layer *l, int esz,
    int in_l2, struct gpu_cost *c)
{
	const struct gpu_model *m = g->m;
	struct gpu_gemm p;
	struct gpu_kern k;
	double tc = tc_rate(m, l->dtype), a = m->tc_align, cpg;
	int aligned;

	memset(&p, 0, sizeof(p));
	p.g = (double)l->gemm_batch;
	p.m = (double)l->gemm_m;
	p.n = (double)l->gemm_n;
	p.k = (double)l->gemm_k;
	p.esz = esz;
	/* A strided conv reads only the input pixels it touches. */
	p.a_bytes = gpu_ops_conv_input_touched(l);
	p.a_in_l2 = in_l2;
	p.b_bytes = (double)l->weight_bytes;
	p.c_bytes = (double)l->out_bytes;
	p.conv = l->op == OP_CONV;
	/*
	 * For a conv the K loop runs channel-innermost (NHWC), so alignment
	 * is a property of the channels per group, not of C*R*S.
	 */
	cpg = l->op == OP_CONV ? (double)(l->in_c / l->groups) : p.k;
	/* a transposed conv's K is the channels alone (col2im) */
	aligned = fmod(cpg, a) == 0 && fmod(p.n, a) == 0;
	if (tc > 0 && (aligned || gpu_tc_pads(m))) {
		p.rate = tc;
		c->path = GPU_TENSOR;
		/*
		 * NHWC implicit GEMM steps K filter tap by filter tap, each
		 * tap's channels padded to the alignment and to tile_k.
		 */
		if (l->op == OP_CONV && !l->transposed)
			p.taps = (double)l->kernel_d * (double)l->kernel_h *
			    (double)l->kernel_w;
		if (!aligned) {
			p.n = roundup(p.n, a);
			p.k = p.taps > 0 ? roundup(cpg, a) * p.taps :
			    roundup(p.k, a);
		}
	} else {
		/* int8 dot products on CUDA cores are DP4A where there is one. */
		p.rate = is_int8(l->dtype) && m->cuda_int8 > 0 ? m->cuda_int8 :
		    gpu_ops_cuda_rate(m, l->dtype);
		p.eff = m->eff_math_cuda;
		c->path = GPU_CUDA;
		/* An SGEMM chooses from the fp32 menu (narrow-N tiles). */
		if (strcmp(l->dtype, "fp32") == 0) {
			p.tiles = m->tiles32;
			p.ntiles = m->ntiles32;
		}
	}
	gpu_gemm_cost(g, &p, &k);
	take_kern(&k, c);
	return k.cycles - k.aux_cycles;
}

/*
 * A streaming main kernel (memory-bound op or direct conv) into c: one
 * kernel, no split-K, no tile, no reduction (gpu_ops_stream_cost).
 */
static double
stream_main(const struct gpu_kern *k, struct gpu_cost *c)
{
	c->path = GPU_STREAM;
	take_kern(k, c);
	return k->cycles;
}

/*
 * A conv the build lets run as Winograd: keep the algorithm whose kernels
 * cost the layer least (as cuDNN's heuristics pick the fastest), the
 * implicit GEMM already in c (before: c as it was before the GEMM).
 */
static void
winograd(const struct gpu_mach *g, const struct layer *l, int in_l2,
    const struct gpu_cost *before, struct gpu_cost *c)
{
	const struct gpu_model *m = g->m;
	static const enum gpu_wino algs[] = { GPU_WINO_FUSED,
	    GPU_WINO_NONFUSED };
	struct gpu_kern k;
	double best;
	size_t i;
	enum gpu_wino forced = gpu_wino_forced(m, l);

	/* The heuristic's Winograd layers leave the implicit GEMM aside. */
	best = forced != GPU_WINO_NONE ? -1 : gpu_build_compose(
	    m->build.launch, c->main_cycles + c->aux_cycles -
	    before->aux_cycles, (c->kernels - before->kernels) * g->launch);
	for (i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
		if (!gpu_wino_ok(m, l, algs[i]) ||
		    (forced != GPU_WINO_NONE && algs[i] != forced))
			continue;
		gpu_wino_cost(g, l, algs[i], in_l2, &k);
		if (best >= 0 && gpu_build_compose(m->build.launch, k.cycles,
		    k.kernels * g->launch) >= best)
			continue;
		best = gpu_build_compose(m->build.launch, k.cycles, k.kernels *
		    g->launch);
		*c = *before;
		c->winograd = (int)algs[i];
		c->path = GPU_CUDA;
		c->main_cycles = k.cycles - k.aux_cycles;
		take_kern(&k, c);
	}
}

static double
stream_layer(const struct gpu_mach *g, const struct gpu_stream *s,
    struct gpu_cost *c)
{
	struct gpu_kern k;

	gpu_ops_stream_cost(g, s, &k);
	return stream_main(&k, c);
}

int
gpu_layer_cost(const struct gpu_model *m, const struct layer *l,
    double channels, struct gpu_cost *c)
{
	struct gpu_mach g;
	struct gpu_stream s;
	double pre = 0, post = 0, in = (double)l->in_bytes;
	double out = (double)l->out_bytes;
	int esz = layer_dtype_bytes(l->dtype), in_l2, out_l2, direct = 0;

	memset(c, 0, sizeof(*c));
	if (!gpu_dtype_ok(m, l->dtype))
		return -2;
	if (esz <= 0)
		esz = 2;
	gpu_mach_init(&g, m, channels);
	in_l2 = c->input_l2 = gpu_input_in_l2(&g, in);
	switch (l->op) {
	case OP_CONV:
		direct = l->groups > 1 &&
		    (fmod((double)(l->in_c / l->groups), m->tc_align) != 0 ||
		    fmod((double)(l->out_c / l->groups), m->tc_align) != 0);
		pre = direct ? m->build.dwconv_pre_kernels :
		    m->build.conv_pre_kernels;
		post = direct ? m->build.dwconv_post_kernels :
		    m->build.conv_post_kernels;
		break;
	case OP_GEMM:
		post = m->build.gemm_post_kernels;
		break;
	case OP_MATMUL:
		post = m->build.matmul_post_kernels;
		break;
	default:
		break;
	}
	if ((l->op == OP_CONV || l->op == OP_GEMM || l->op == OP_MATMUL) &&
	    (l->gemm_batch <= 0 || l->gemm_m <= 0 || l->gemm_n <= 0 ||
	    l->gemm_k <= 0))
		return -1;
	c->aux_cycles = copies(&g, pre, in, esz, &in_l2, c);
	if (direct) {
		struct gpu_kern k;

		gpu_ops_direct_conv_cost(&g, l, in_l2, &k);
		c->main_cycles = stream_main(&k, c);
	} else if (l->op == OP_CONV || l->op == OP_GEMM ||
	    l->op == OP_MATMUL) {
		struct gpu_cost before = *c;

		c->main_cycles = gemm_layer(&g, l, esz, in_l2, c);
		if (l->op == OP_CONV && m->build.winograd != 0)
			winograd(&g, l, in_l2, &before, c);
	} else {
		gpu_ops_memop_stream(m, l, in_l2, &s);
		c->main_cycles = stream_layer(&g, &s, c);
	}
	out_l2 = out <= m->l2_input_fraction * g.l2_bytes;
	c->aux_cycles += copies(&g, post, out, esz, &out_l2, c);
	if (l->op == OP_CONV || l->op == OP_GEMM || l->op == OP_MATMUL)
		c->flops = 2.0 * (double)l->macs;
	/* From cycles of the sustained clock to cycles of clock_mhz. */
	c->main_cycles *= g.scale;
	c->aux_cycles *= g.scale;
	c->math_cycles *= g.scale;
	c->mem_cycles *= g.scale;
	c->launch_cycles = c->kernels * m->launch_cycles;
	c->device_cycles = c->main_cycles + c->aux_cycles;
	c->cycles = gpu_build_compose(m->build.launch, c->device_cycles,
	    c->launch_cycles);
	if (c->cycles > c->device_cycles &&
	    c->launch_cycles >= c->device_cycles)
		c->bound = GPU_LAUNCH;
	else if (c->aux_cycles > c->main_cycles ||
	    c->math_cycles < c->mem_cycles)
		c->bound = GPU_MEMORY;
	else
		c->bound = GPU_COMPUTE;
	return 0;
}
