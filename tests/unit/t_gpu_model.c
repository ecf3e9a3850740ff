/*
 * Unit tests of the GPU model: tile occupancy, waves, one GEMM option and
 * one streaming kernel on a small machine whose figures are worked out by
 * hand below, tile-menu parsing, and config loading errors.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "csvio.h"
#include "gpu_gemm.h"
#include "gpu_measured.h"
#include "gpu_layer.h"
#include "gpu_model.h"
#include "gpu_ops.h"
#include "gpu_wino.h"
#include "check.h"
#include "check_csv.h"

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) < 1e-6 * (fabs((double)(b)) + 1))

/* The SM75 limits of rtx2060-sim: 16 CTAs, 1024 threads, 64 Ki regs, 64 KiB. */
#define SM75_LIMITS \
	.max_threads_per_sm = 1024, .regs_per_sm = 65536, \
	.smem_kb_per_sm = 64, .tile_k = 32, .tile_stages = 2, \
	.tile_regs_overhead = 64

static const struct gpu_model sm75 = { SM75_LIMITS, .max_ctas_per_sm = 16 };

static void
occupancy(void)
{
	struct gpu_model m;
	struct gpu_tile t;

	m = sm75;
	/* regs 128+64 = 192: 65536/(256*192) = 1.33; smem 384*32*2*2 = 48 KiB. */
	t = (struct gpu_tile){ 256, 128, 256 };
	CHECK_EQ_I(gpu_tile_occupancy(&m, &t, 2), 1);
	/* fp32 staging: 96 KiB of shared memory does not fit in 64. */
	CHECK_EQ_I(gpu_tile_occupancy(&m, &t, 4), 0);
	/* regs 192: 65536/(128*192) = 2.67; smem 256*32*4 = 32 KiB -> 2. */
	t = (struct gpu_tile){ 128, 128, 128 };
	CHECK_EQ_I(gpu_tile_occupancy(&m, &t, 2), 2);
	/* regs 96 -> 5; smem 16 KiB -> 4; threads 8; CTAs 16 -> 4. */
	t = (struct gpu_tile){ 64, 64, 128 };
	CHECK_EQ_I(gpu_tile_occupancy(&m, &t, 2), 4);
	/* regs 80 -> 6; smem 144*32*4 = 18 KiB -> 3. */
	t = (struct gpu_tile){ 16, 128, 128 };
	CHECK_EQ_I(gpu_tile_occupancy(&m, &t, 2), 3);
	/* 64x64 with 32 threads: 128+64 regs -> 10; threads 32; smem -> 4. */
	t = (struct gpu_tile){ 64, 64, 32 };
	CHECK_EQ_I(gpu_tile_occupancy(&m, &t, 2), 4);
	/* 256 accumulators + 64 > 255 registers: never resident. */
	t = (struct gpu_tile){ 128, 128, 64 };
	CHECK_EQ_I(gpu_tile_occupancy(&m, &t, 2), 0);
	/* The CTA limit binds: a tiny tile, 16 CTAs. */
	m.smem_kb_per_sm = 1024;
	t = (struct gpu_tile){ 16, 16, 32 };
	CHECK_EQ_I(gpu_tile_occupancy(&m, &t, 2), 16);

	CHECK(gpu_gemm_waves(25, 60) == 1);
	CHECK(gpu_gemm_waves(60, 60) == 1);
	CHECK(gpu_gemm_waves(61, 60) == 2);
	CHECK(gpu_gemm_waves(3136, 60) == 53);
}

/*
 * A toy machine: 2 SMs at 1000 MHz, one channel of 32 GB/s (32 B/cycle),
 * 64 B/cycle of L2, 256 KiB of L2, 32 B/cycle into an SM, 512 FLOP/cycle,
 * every efficiency 1, fill 100, one CTA per SM.
 */
static const struct gpu_model toy = {
	SM75_LIMITS,
	.max_ctas_per_sm = 1,
	.sms = 2,
	.clock_mhz = 1000, .sustained_mhz = 1000,
	.channels = 1, .bw_gbs_per_channel = 32,
	.l2_kb_per_channel = 256, .l2_bytes_per_cycle_per_channel = 64,
	.sm_l2_bytes_per_cycle = 32,
	.tc_fp16 = 512, .cuda_fp16 = 128, .cuda_fp32 = 64,
	.eff_math = 1, .eff_dram = 1, .eff_l2 = 1,
	.fill_cycles = 100, .launch_cycles = 1000,
	.l2_input_fraction = 0.5, .l2_reuse_fraction = 0.5,
	.splitk_max = 4,
	.stream_threads = 256, .stream_elems_per_thread = 4,
	.tc_align = 8,
};

static void
gemm_by_hand(void)
{
	struct gpu_model m;
	struct gpu_mach g;
	struct gpu_gemm p;
	struct gpu_kern k;
	struct gpu_tile t = { 64, 64, 128 };
	double c;

	m = toy;
	gpu_mach_init(&g, &m, 1);
	CHECK(NEAR(g.dram_bpc, 32));
	CHECK(NEAR(g.l2_bytes, 262144));
	/* 128x128x64 fp16: 4 tiles of 64x64 on 2 SMs x 1 CTA = 2 waves. */
	p = (struct gpu_gemm){ .g = 1, .m = 128, .n = 128, .k = 64,
	    .esz = 2, .rate = 512,
	    .a_bytes = 128 * 64 * 2,	/* 16384 */
	    .b_bytes = 64 * 128 * 2,	/* 16384 */
	    .c_bytes = 128 * 128 * 2 };	/* 32768 */
	c = gpu_gemm_option(&g, &p, &t, 1, &k);
	/*
	 * Per wave (2 tiles, one per SM):
	 *  math = 2*64*64*64 / 512 = 1024 cycles;
	 *  L2 = 2 tiles x (64+64)*64*2 B in + 16384 B out = 49152 B / 64 = 768,
	 *       one SM's 16384 B / 32 = 512 -> 768;
	 *  DRAM: operands (32 KiB) fit in half of L2, so each wave reads half
	 *       of them once (16384 B) and writes half the output (16384 B):
	 *       32768 / 32 = 1024;
	 *  wave = max(1024, 768, 1024) + 100 = 1124; two waves = 2248.
	 * Compared with its launch (serial: 1000 cycles added).
	 */
	CHECK(NEAR(c, 2248 + 1000));
	CHECK(NEAR(k.cycles, 2248));
	CHECK(k.shape.waves == 2);
	CHECK(k.shape.ctas == 4);
	CHECK_EQ_I(k.shape.occ, 1);
	CHECK(NEAR(k.dram_bytes, 65536));
	CHECK(NEAR(k.l2_bytes, 98304));
	CHECK(NEAR(k.shape.math, 2048));

	/*
	 * The same with split-K 2: 8 tiles of K 32 in 4 waves.  Per wave
	 * math 512, L2 in 2*128*32*2 = 16384 + fp32 partials 2*64*64*4 =
	 * 32768 -> 49152/64 = 768 (one SM: 8192/32 = 256), DRAM reads
	 * 32768*2/8 = 8192 + partials 32768 -> 40960/32 = 1280: wave 1380,
	 * four 5520.  Reduction: 2*128*128*4 = 128 KiB of partials fit in
	 * half of L2, so it reads them from L2 and writes 32 KiB: 16 CTAs of
	 * 1024 elements, 8 per SM: DRAM 32768/32 = 1024, L2 163840/64 =
	 * 2560, SM 8*1024*(163840/16384)/32 = 2560; math 8*1024*2/64 = 256:
	 * 2560 + 100 = 2660.  Compared: 5520 + 2660 + two 1000 launches.
	 */
	c = gpu_gemm_option(&g, &p, &t, 2, &k);
	CHECK(NEAR(k.aux_cycles, 2660));
	CHECK(NEAR(k.cycles, 5520 + 2660));
	CHECK(NEAR(c, 5520 + 2660 + 2000));
	/* Overlapped launches: the larger of device time and launches. */
	m.build.launch = GPU_LAUNCH_OVERLAP;
	c = gpu_gemm_option(&g, &p, &t, 2, &k);
	CHECK(NEAR(c, 5520 + 2660));
	m.launch_cycles = 5000;
	gpu_mach_init(&g, &m, 1);
	c = gpu_gemm_option(&g, &p, &t, 2, &k);
	CHECK(NEAR(c, 10000));
	m.build.launch = GPU_LAUNCH_GRAPH;
	c = gpu_gemm_option(&g, &p, &t, 2, &k);
	CHECK(NEAR(c, 5520 + 2660));
	m.build.launch = GPU_LAUNCH_SERIAL;
	m.launch_cycles = 1000;
	gpu_mach_init(&g, &m, 1);
	CHECK_EQ_I(k.kernels, 2);
	CHECK_EQ_I(k.shape.splitk, 2);

	/*
	 * An NHWC conv with 8 channels and a 3x3 filter: K = 72 is 3 k-steps
	 * as one GEMM, but stepped per tap each tap's 8 channels fill a whole
	 * 32-wide k-step: 9 steps, K 288.  Per wave math 2*64*64*288/512 =
	 * 4608 cycles; 4 tiles on 2 SMs, two waves.
	 */
	p.k = 72;
	c = gpu_gemm_option(&g, &p, &t, 1, &k);
	CHECK(NEAR(k.shape.math, 2 * 2.0 * 64 * 64 * 96 / 512));
	p.taps = 9;
	c = gpu_gemm_option(&g, &p, &t, 1, &k);
	CHECK(NEAR(k.shape.math, 2 * 4608));
	/* Split-K 2 halves the 9 k-steps: 5 per split. */
	c = gpu_gemm_option(&g, &p, &t, 2, &k);
	CHECK(NEAR(k.shape.math, 4 * 2.0 * 64 * 64 * 160 / 512));
	p.taps = 0;
	p.k = 64;

	/* The menu choice is the cheapest option: here no split. */
	m.tiles[0] = t;
	m.ntiles = 1;
	gpu_gemm_cost(&g, &p, &k);
	CHECK_EQ_I(k.shape.splitk, 1);
	CHECK(NEAR(k.cycles, 2248));
}

static void
stream_by_hand(void)
{
	struct gpu_model m;
	struct gpu_mach g;
	struct gpu_stream s;
	struct gpu_kern k;

	m = toy;
	m.max_ctas_per_sm = 16;
	gpu_mach_init(&g, &m, 1);
	/* 1024 elements: one CTA of 256 x 4, on one SM. */
	s = (struct gpu_stream){ .elems = 1024, .dram_rd = 2048,
	    .dram_wr = 2048, .flops = 1024, .rate = 128 };
	gpu_ops_stream_cost(&g, &s, &k);
	/*
	 * DRAM 4096/32 = 128; L2 4096/64 = 64; SM 1024*(4096/1024)/32 =
	 * 128; math 1024*1/128 = 8: 128 + fill 100.
	 */
	CHECK(NEAR(k.cycles, 228));
	CHECK(k.shape.ctas == 1 && k.shape.waves == 1);
	CHECK_EQ_I(k.shape.occ, 4);	/* 1024 threads / 256 */
	/* 1025 elements: a second CTA, on the other SM: no slower per SM. */
	s.elems = 1025;
	gpu_ops_stream_cost(&g, &s, &k);
	CHECK(k.shape.ctas == 2);
	CHECK(k.cycles >= 228);
}

static void
tiles(void)
{
	struct gpu_model m;
	const char *why;

	memset(&m, 0, sizeof(m));
	CHECK(gpu_tiles_parse("256x128/256, 64x64/128", &m, &why) == 0);
	CHECK_EQ_I(m.ntiles, 2);
	CHECK_EQ_I(m.tiles[1].tm, 64);
	CHECK_EQ_I(m.tiles[1].threads, 128);
	CHECK(gpu_tiles_parse("256x128", &m, &why) < 0);
	CHECK(gpu_tiles_parse("256x128/256;", &m, &why) < 0);
	CHECK(gpu_tiles_parse("0x128/256", &m, &why) < 0);
	CHECK(gpu_tiles_parse("", &m, &why) < 0);
}

/* Kernels, launches and the L2 rule of whole layers on the toy machine. */
static void
layers(void)
{
	struct gpu_model m;
	struct gpu_cost c;
	struct layer l;

	m = toy;
	m.max_ctas_per_sm = 16;
	m.tiles[0] = (struct gpu_tile){ 64, 64, 128 };
	m.ntiles = 1;
	m.build.conv_pre_kernels = 1;
	m.build.conv_post_kernels = 1;
	m.build.gemm_post_kernels = 1;

	/* conv 1x16x8x8 -> 16, 1x1: layout, GEMM, epilogue = 3 launches. */
	layer_init(&l);
	l.op = OP_CONV;
	l.in_c = l.out_c = 16;
	l.in_h = l.in_w = l.out_h = l.out_w = 8;
	CHECK(layer_derive(&l) == 0);
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK_EQ_I(c.kernels, 3);
	CHECK(NEAR(c.launch_cycles, 3000));
	CHECK(NEAR(c.cycles, c.launch_cycles + c.main_cycles + c.aux_cycles));
	CHECK(NEAR(c.device_cycles, c.main_cycles + c.aux_cycles));
	CHECK(c.path == GPU_TENSOR);
	CHECK(c.bound == GPU_LAUNCH);
	/* Back-to-back launches hide under the work, or bound it. */
	m.build.launch = GPU_LAUNCH_OVERLAP;
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK(NEAR(c.cycles, fmax(c.device_cycles, 3000)));
	CHECK(c.bound == GPU_LAUNCH);
	m.build.launch = GPU_LAUNCH_GRAPH;
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK(NEAR(c.cycles, c.device_cycles));
	CHECK(NEAR(c.launch_cycles, 3000));
	CHECK(c.bound != GPU_LAUNCH);
	m.build.launch = GPU_LAUNCH_SERIAL;
	/* The GEMM reads the layout kernel's output from L2 ... */
	CHECK_EQ_I(c.input_l2, 0);	/* ... but the layer input is cold */
	m.build.l2_warm_input = 1;
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK_EQ_I(c.input_l2, 1);	/* 2 KiB <= half of 256 KiB */
	m.l2_input_fraction = 0.001;	/* 262 B: no longer fits */
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK_EQ_I(c.input_l2, 0);
	m.l2_input_fraction = 0.5;
	/* 12 channels per group are not aligned: direct conv, CUDA cores. */
	l.in_c = l.out_c = l.groups = 12;
	CHECK(layer_derive(&l) == 0);
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK(c.path == GPU_STREAM);
	CHECK_EQ_I(c.kernels, 1);	/* dwconv_pre/post are 0 here */
	/* Unaligned K on a machine that does not pad: CUDA cores. */
	layer_init(&l);
	l.op = OP_GEMM;
	l.batch = 4; l.in_c = 12; l.out_c = 16;
	CHECK(layer_derive(&l) == 0);
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK(c.path == GPU_CUDA);
	CHECK_EQ_I(c.kernels, 2);	/* GEMM + bias epilogue */
	m.build.library_major = 11;
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK(c.path == GPU_TENSOR);
	/*
	 * A strided conv reads the input it touches: a stride-2 1x1 conv of
	 * 8x8 reads 4x4 of its pixels, a stride-2 3x3 every one (the
	 * windows overlap), a dilated stride-1 3x3 every one too.
	 */
	layer_init(&l);
	l.op = OP_CONV;
	l.in_c = l.out_c = 16;
	l.in_h = l.in_w = 8;
	l.out_h = l.out_w = 4;
	l.stride_h = l.stride_w = 2;
	CHECK(layer_derive(&l) == 0);
	CHECK(NEAR(gpu_ops_conv_input_touched(&l), (double)l.in_bytes / 4));
	m.build.conv_pre_kernels = m.build.conv_post_kernels = 0;
	m.build.l2_warm_input = 0;
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK(c.path == GPU_TENSOR);
	/* the 512 bytes touched, the weights and the output: 1536 */
	CHECK(NEAR(c.dram_bytes, 512 + 512 + 512));
	l.kernel_h = l.kernel_w = 3;
	l.pad_top = l.pad_left = l.pad_bottom = l.pad_right = 1;
	CHECK(layer_derive(&l) == 0);
	CHECK(NEAR(gpu_ops_conv_input_touched(&l), (double)l.in_bytes));
	l.stride_h = l.stride_w = 1;
	l.dil_h = l.dil_w = 2;
	l.out_h = l.out_w = 6;
	CHECK(layer_derive(&l) == 0);
	CHECK(NEAR(gpu_ops_conv_input_touched(&l), (double)l.in_bytes));
	/* A memory-bound op is one kernel; fused act is free on a conv. */
	layer_init(&l);
	l.op = OP_ELTWISE;
	l.in_bytes = 4096; l.out_bytes = 2048;
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK_EQ_I(c.kernels, 1);
	CHECK(c.path == GPU_STREAM);
	/* A GEMM view with a zero dimension cannot be costed. */
	layer_init(&l);
	l.op = OP_MATMUL;
	CHECK(gpu_layer_cost(&m, &l, 1, &c) < 0);
}

/* Winograd convs: which layers may use it, and one costed by hand. */
/* A 16-channel 8x8 fp32 conv, 3x3 with the padding that keeps its size. */
static void
conv3_fp32(struct layer *l)
{
	layer_init(l);
	l->op = OP_CONV;
	l->in_c = l->out_c = 16;
	l->in_h = l->in_w = l->out_h = l->out_w = 8;
	l->kernel_h = l->kernel_w = 3;
	l->pad_top = l->pad_left = l->pad_bottom = l->pad_right = 1;
	snprintf(l->dtype, sizeof(l->dtype), "fp32");
}

static void
winograd(void)
{
	struct gpu_model m;
	struct gpu_mach g;
	struct gpu_kern k;
	struct gpu_cost c, d;
	struct layer l;

	m = toy;
	m.eff_math_cuda = m.wino_eff_math = 1;
	m.tiles[0] = m.tiles32[0] = (struct gpu_tile){ 64, 64, 128 };
	m.ntiles = m.ntiles32 = 1;
	m.splitk_max = 1;
	m.build.winograd = 1;
	gpu_mach_init(&g, &m, 1);
	conv3_fp32(&l);
	CHECK(layer_derive(&l) == 0);
	CHECK(gpu_wino_ok(&m, &l, GPU_WINO_FUSED));
	CHECK(gpu_wino_ok(&m, &l, GPU_WINO_NONFUSED));
	/*
	 * Fused F(2x2,3x3): 16 tiles of 2x2 outputs, 16 GEMMs of 16 x 16 x
	 * 16, one 64x64 tile each (K 32): 16 CTAs on 2 SMs, 8 waves of
	 * 2*64*64*32/64 = 4096 cycles of math.  Transforms: 16 tiles x 16
	 * channels x 32 + 16 x 16 filters x 28 + 16 tiles x 16 x 24 = 21504
	 * operations over 2 SMs x 64 = 168 cycles.
	 */
	gpu_wino_cost(&g, &l, GPU_WINO_FUSED, 0, &k);
	CHECK(NEAR(k.shape.math, 8 * 4096 + 168));
	CHECK_EQ_I(k.kernels, 1);
	CHECK(NEAR(k.aux_cycles, 0));
	/* Non-fused F(4x4,3x3): filter and input transforms, GEMMs, output. */
	gpu_wino_cost(&g, &l, GPU_WINO_NONFUSED, 0, &k);
	CHECK_EQ_I(k.kernels, 4);
	CHECK(k.aux_cycles > 0 && k.aux_cycles < k.cycles);
	/*
	 * 16 channels, C N P Q = 1024: the heuristic runs the fused kernel
	 * whatever the implicit GEMM costs; 256 channels the non-fused one.
	 */
	CHECK_EQ_I(gpu_wino_forced(&m, &l), GPU_WINO_FUSED);
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK_EQ_I(c.winograd, GPU_WINO_FUSED);
	l.in_c = 256;
	CHECK(layer_derive(&l) == 0);
	CHECK_EQ_I(gpu_wino_forced(&m, &l), GPU_WINO_NONFUSED);
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK_EQ_I(c.winograd, GPU_WINO_NONFUSED);
	/* 4 channels (a first layer): the cheapest, never worse than the GEMM. */
	l.in_c = 4;
	CHECK(layer_derive(&l) == 0);
	CHECK(!gpu_wino_forced(&m, &l));
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	m.build.winograd = 0;
	CHECK(gpu_layer_cost(&m, &l, 1, &d) == 0);
	CHECK_EQ_I(d.winograd, GPU_WINO_NONE);
	CHECK(c.cycles <= d.cycles);
	CHECK(!gpu_wino_ok(&m, &l, GPU_WINO_FUSED));
	CHECK(!gpu_wino_forced(&m, &l));
	m.build.winograd = 1;
	conv3_fp32(&l);
	CHECK(layer_derive(&l) == 0);
	/*
	 * An fp32 GEMM on CUDA cores chooses from tile_menu_fp32: with a
	 * narrow-N 64x32 tile there, 32 output columns fill it.
	 */
	m.tiles32[1] = (struct gpu_tile){ 64, 32, 64 };
	m.ntiles32 = 2;
	layer_init(&l);
	l.op = OP_GEMM;
	l.batch = 64; l.in_c = 64; l.out_c = 32;
	snprintf(l.dtype, sizeof(l.dtype), "fp32");
	CHECK(layer_derive(&l) == 0);
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK(c.path == GPU_CUDA);
	CHECK_EQ_I(c.shape.tile.tn, 32);
	/* fp16 on tensor cores keeps tile_menu (64x64 only here) */
	snprintf(l.dtype, sizeof(l.dtype), "fp16");
	CHECK(gpu_layer_cost(&m, &l, 1, &c) == 0);
	CHECK_EQ_I(c.shape.tile.tn, 64);
	m.ntiles32 = 1;
	conv3_fp32(&l);
	/* 5x5: non-fused only; strided, fp16 or TF32 layers: never. */
	l.kernel_h = l.kernel_w = 5;
	l.pad_top = l.pad_left = l.pad_bottom = l.pad_right = 2;
	CHECK(layer_derive(&l) == 0);
	CHECK(!gpu_wino_ok(&m, &l, GPU_WINO_FUSED));
	CHECK(gpu_wino_ok(&m, &l, GPU_WINO_NONFUSED));
	l.stride_h = l.stride_w = 2;
	l.out_h = l.out_w = 4;
	CHECK(layer_derive(&l) == 0);
	CHECK(!gpu_wino_ok(&m, &l, GPU_WINO_NONFUSED));
	l.stride_h = l.stride_w = 1;
	l.out_h = l.out_w = 8;
	snprintf(l.dtype, sizeof(l.dtype), "fp16");
	CHECK(layer_derive(&l) == 0);
	CHECK(!gpu_wino_ok(&m, &l, GPU_WINO_NONFUSED));
	snprintf(l.dtype, sizeof(l.dtype), "fp32");
	m.build.tf32 = 1;
	m.tc_tf32 = 256;
	CHECK(!gpu_wino_ok(&m, &l, GPU_WINO_NONFUSED));
}

static void
measured(void)
{
	static const char *hdr = "name,op,batch,in_c,in_h,in_w,out_c,out_h,"
	    "out_w,kernel_h,kernel_w,stride_h,stride_w,groups,dtype,ns\n";
	char buf[1024];
	struct table t;
	struct gpu_measured ms;
	const struct gpu_meas *g;
	struct layer l;

	snprintf(buf, sizeof(buf), "%s%s%s%s", hdr,
	    "c1,conv,1,16,8,8,16,8,8,3,3,1,1,1,,100\n",
	    "c1,conv,1,16,8,8,16,8,8,3,3,1,1,1,fp16,50\n",
	    "c1,conv,1,16,4,8,16,4,8,3,3,1,1,1,,30\n");
	CHECK(check_readmem(buf, strlen(buf), "m.csv", &t) == 0);
	CHECK(gpu_measured_from_table(&t, &ms) == 0);
	csvio_free(&t);
	layer_init(&l);
	l.op = OP_CONV;
	l.in_c = l.out_c = 16;
	l.in_h = l.in_w = l.out_h = l.out_w = 8;
	l.kernel_h = l.kernel_w = 3;
	/* The entry for the row's own dtype wins over the any-dtype one. */
	CHECK((g = gpu_measured_find(&ms, "c1", &l)) != NULL && g->ns == 50);
	snprintf(l.dtype, sizeof(l.dtype), "fp32");
	CHECK((g = gpu_measured_find(&ms, "c1", &l)) != NULL && g->ns == 100);
	/* Another geometry under the same name: the piece's own entry. */
	l.in_h = l.out_h = 4;
	CHECK((g = gpu_measured_find(&ms, "c1", &l)) != NULL && g->ns == 30);
	l.in_h = l.out_h = 5;
	CHECK(gpu_measured_find(&ms, "c1", &l) == NULL);
	l.in_h = l.out_h = 8;
	CHECK(gpu_measured_find(&ms, "c2", &l) == NULL);
	gpu_measured_free(&ms);
	/* A duplicate (same name, geometry and dtype) is an error. */
	snprintf(buf, sizeof(buf), "%s%s%s", hdr,
	    "c1,conv,1,16,8,8,16,8,8,3,3,1,1,1,,100\n",
	    "c1,conv,1,16,8,8,16,8,8,3,3,1,1,1,,90\n");
	CHECK(check_readmem(buf, strlen(buf), "m.csv", &t) == 0);
	CHECK(gpu_measured_from_table(&t, &ms) < 0);
	csvio_free(&t);
}

/*
 * The implicit-GEMM conv kernel: K is never split across CTAs, the tile
 * is the largest that still fills the SMs (else the smallest), never
 * wider than the output channels, and the call floor is conv_fixed_ns.
 */
static void
conv_igemm(void)
{
	struct gpu_model m;
	struct gpu_mach g;
	struct gpu_gemm p;
	struct gpu_kern k;

	m = toy;
	m.max_ctas_per_sm = 4;
	m.tiles[0] = (struct gpu_tile){ 128, 128, 128 };
	m.tiles[1] = (struct gpu_tile){ 128, 64, 128 };
	m.tiles[2] = (struct gpu_tile){ 64, 64, 128 };
	m.tiles[3] = (struct gpu_tile){ 16, 128, 128 };
	m.ntiles = 4;
	m.kernel_fixed_ns = 1000;
	m.conv_fixed_ns = 5000;
	m.kstep_cycles = 0;
	m.conv_kstep_cycles = 0;
	gpu_mach_init(&g, &m, 1);
	/* One 64-row, 128-channel block, K = 4096: a GEMM splits K... */
	p = (struct gpu_gemm){ .g = 1, .m = 64, .n = 128, .k = 4096,
	    .esz = 2, .rate = 512, .a_bytes = 64 * 4096 * 2,
	    .b_bytes = 4096 * 128 * 2, .c_bytes = 64 * 128 * 2 };
	m.ntiles = 1;
	gpu_gemm_cost(&g, &p, &k);
	CHECK(k.shape.splitk > 1);
	CHECK_EQ_I(k.kernels, 2);
	/*
	 * ...a conv does not: 128x64 is the largest tile whose grid (2
	 * CTAs) fills the 2 SMs; each CTA walks all of K.
	 */
	m.ntiles = 4;
	p.conv = 1;
	gpu_gemm_cost(&g, &p, &k);
	CHECK_EQ_I(k.shape.splitk, 1);
	CHECK_EQ_I(k.kernels, 1);
	CHECK_EQ_I(k.shape.tile.tm, 128);
	CHECK_EQ_I(k.shape.tile.tn, 64);
	/* One CTA per SM, 128 k-steps of 2*128*64*32/512 = 1024 cycles. */
	CHECK(NEAR(k.shape.math, 128 * 1024));
	/* The floor: conv_fixed_ns (5000 ns at 1 GHz), not kernel_fixed_ns. */
	CHECK(NEAR(k.cycles, 128 * 1024 + 100 + 5000));
	/* Many pixels: the largest tile filling the SMs, 128 x 128. */
	p.m = 4096;
	gpu_gemm_cost(&g, &p, &k);
	CHECK_EQ_I(k.shape.tile.tm, 128);
	CHECK_EQ_I(k.shape.tile.tn, 128);
	/* 32 output channels: no tile wider than 64 (the narrowest). */
	p.n = 32;
	gpu_gemm_cost(&g, &p, &k);
	CHECK_EQ_I(k.shape.tile.tn, 64);
	CHECK_EQ_I(k.shape.tile.tm, 128);
	/* A grid too small for any tile to fill the SMs: the smallest. */
	p.m = 16;
	gpu_gemm_cost(&g, &p, &k);
	CHECK_EQ_I(k.shape.tile.tm, 64);
	CHECK_EQ_I(k.shape.tile.tn, 64);
	/* A menu of GEMV-like tiles only: the cheapest of them, never 0. */
	m.tiles[0] = m.tiles[3];
	m.ntiles = 1;
	CHECK_EQ_I(gpu_gemm_conv_tile(&g, &p, m.tiles, m.ntiles), -1);
	gpu_gemm_cost(&g, &p, &k);
	CHECK_EQ_I(k.shape.tile.tm, 16);
	CHECK_EQ_I(k.shape.splitk, 1);
	CHECK(k.cycles > 5000);
}

int
main(int argc, char **argv)
{
	(void)argc;
	pf_setprogname(argv[0]);
	occupancy();
	gemm_by_hand();
	stream_by_hand();
	tiles();
	layers();
	winograd();
	conv_igemm();
	measured();
	return CHECK_DONE();
}
