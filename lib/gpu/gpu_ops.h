/*
 * Streaming kernels of the GPU model: memory-bound layers (eltwise, act,
 * pool, softmax, norm, reduce, concat, transpose, resize, embed, other),
 * direct depthwise/grouped convolutions on CUDA cores, and the auxiliary
 * kernels of a layer (layout transforms, epilogues, split-K reductions).
 *
 * A streaming kernel has no data reuse worth modelling: its time is the
 * largest of its arithmetic on the busiest SM, its DRAM traffic, its L2
 * traffic and what the busiest SM can pull from L2, plus one fill (the
 * first request's round trip; later waves overlap with earlier ones).
 * CTAs are quantised over SMs, so a small grid leaves SMs idle and is
 * limited by per-SM bandwidth rather than by DRAM.  Constant inputs
 * (weights) are read once from DRAM but by every active SM, so they
 * count whole in each SM's ingest instead of being spread over CTAs.
 */
#ifndef PF_GPU_OPS_H
#define PF_GPU_OPS_H

#include "gpu_model.h"
#include "layer.h"

/*
 * A kernel's shape: how its grid fills the machine and the compute and
 * memory terms its time is the larger of.  A layer's estimate reports its
 * main kernel's (gpu_layer.h).
 */
struct gpu_shape {
	struct gpu_tile	tile;		/* tm = 0 for stream kernels */
	int		occ;		/* CTAs per SM */
	int		splitk;		/* 1 unless split-K */
	double		ctas, waves;
	double		math, mem;	/* summed compute / memory cycles */
};

/* Device time and breakdown of one kernel (no launch latency). */
struct gpu_kern {
	double		cycles;		/* device cycles */
	struct gpu_shape shape;
	double		dram_bytes, l2_bytes;
	int		kernels;	/* kernels launched (2 with a reduction) */
	double		aux_cycles;	/* part of cycles in a reduction kernel */
};

/* Work of one streaming kernel. */
struct gpu_stream {
	double	flops;		/* arithmetic */
	double	rate;		/* FLOP/cycle/SM of the unit used */
	double	dram_rd;	/* bytes read from DRAM */
	double	l2_rd;		/* bytes read from L2 only */
	double	dram_wr;	/* bytes written (write-through: reach DRAM) */
	double	shared_rd;	/* part of dram_rd every active SM reads (weights) */
	double	elems;		/* output elements, one per thread-element */
};

/* CTAs per SM of a streaming kernel (thread and CTA limits). */
int gpu_ops_stream_occupancy(const struct gpu_model *m);

/* Cost of a streaming kernel on machine g. */
void gpu_ops_stream_cost(const struct gpu_mach *g, const struct gpu_stream *s,
    struct gpu_kern *k);

/*
 * The streaming work of a memory-bound layer: input from L2 when in_l2,
 * else DRAM; constant inputs from DRAM (an embed reads only the gathered
 * rows, i.e. out_bytes of its table); output written.
 */
void gpu_ops_memop_stream(const struct gpu_model *m, const struct layer *l,
    int in_l2, struct gpu_stream *s);

/*
 * A direct (depthwise or grouped) convolution on CUDA cores, as library
 * depthwise kernels run it: each CTA computes an 8 x 8 block of output
 * pixels for 32 output channels, staging the input block with its halo
 * and the channels' filters in shared memory.  Time = max(its 2 x MACs
 * FLOPs on the busiest SM at eff_math_cuda, DRAM (input unless in_l2,
 * weights and output once), L2 and the busiest SM's staged bytes) + one
 * fill + conv_fixed_ns (the per-call floor of a library convolution).
 */
void gpu_ops_direct_conv_cost(const struct gpu_mach *g, const struct layer *l,
    int in_l2, struct gpu_kern *k);

/*
 * Bytes of a conv's input that its output touches: a strided conv whose
 * filter is narrower than its stride (a stride-2 1x1, say) skips input
 * rows and columns, which no kernel reads.  Per spatial axis, with
 * dilation 1, (out - 1) x stride + kernel positions when the windows
 * overlap or abut, out x kernel when they leave gaps; with dilation,
 * out - 1 + the dilated extent at stride 1, else out x kernel (an upper
 * bound); never more than the axis.  A transposed conv reads all of its
 * input.  Returns in_bytes scaled by the touched share.
 */
double gpu_ops_conv_input_touched(const struct layer *l);

/*
 * A layout-transform or epilogue kernel moving a tensor of the given bytes
 * and element size once: read (from L2 when in_l2) and write.
 */
void gpu_ops_copy_stream(double bytes, int esz, int in_l2, struct gpu_stream *s);

/* CUDA-core FLOP/cycle/SM for a dtype (fp32 rate for non-16-bit types). */
double gpu_ops_cuda_rate(const struct gpu_model *m, const char *dtype);

#endif
