/*
 * The per-layer estimate of the GPU (gpu_layer.h).
 */
#include <math.h>
#include <string.h>

#include "gpu_gemm.h"
#include "gpu_layer.h"
#include "gpu_model.h"
#include "gpu_ops.h"
#include "gpu_wino.h"

const char *
gpu_bound_name(enum gpu_bound b)
{
	return b == GPU_COMPUTE ? "compute" : b == GPU_MEMORY ? "memory" :
	    "launch";
}

/*
 * Whether the rule of gpu-cycles(1) puts the layer's activation input in
 * L2: the build's l2_warm_input is set and in_bytes <= l2_input_fraction x L2.
 */
static int
input_in_l2(const struct gpu_mach *g, double in_bytes)
{
	return g->m->build.l2_warm_input != 0 &&
	    in_bytes <= g->m->l2_input_fraction * g->l2_bytes;
}

static double
tc_rate(const struct gpu_model *m, const char *dtype)
{
	if (strcmp(dtype, "fp16") == 0 || strcmp(dtype, "bf16") == 0)
		return m->tc_fp16;
	if (gpu_dtype_is_int8(dtype))
		return m->build.int8_tensor != 0 ? m->tc_int8 : 0;
	if (strcmp(dtype, "fp8") == 0)
		return m->tc_int8;
	if (strcmp(dtype, "fp32") == 0)
		return m->build.tf32 != 0 ? m->tc_tf32 : 0;
	return 0;
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
	c->shape = k->shape;
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
		p.rate = gpu_dtype_is_int8(l->dtype) && m->cuda_int8 > 0 ? m->cuda_int8 :
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
	in_l2 = c->input_l2 = input_in_l2(&g, in);
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
	c->shape.math *= g.scale;
	c->shape.mem *= g.scale;
	c->launch_cycles = c->kernels * m->launch_cycles;
	c->device_cycles = c->main_cycles + c->aux_cycles;
	c->cycles = gpu_build_compose(m->build.launch, c->device_cycles,
	    c->launch_cycles);
	if (c->cycles > c->device_cycles &&
	    c->launch_cycles >= c->device_cycles)
		c->bound = GPU_LAUNCH;
	else if (c->aux_cycles > c->main_cycles ||
	    c->shape.math < c->shape.mem)
		c->bound = GPU_MEMORY;
	else
		c->bound = GPU_COMPUTE;
	return 0;
}
