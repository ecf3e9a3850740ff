/*
 * The per-layer estimate of gpu-cycles(1): a layer (or piece) on the
 * machine a GPU model becomes at a channel count, by the GEMM
 * (gpu_gemm.h), Winograd (gpu_wino.h) and streaming-kernel (gpu_ops.h)
 * models, composed with the kernels-per-layer structure of the build.
 * Above the kernels, which stand on the device model (gpu_model.h).
 */
#ifndef PF_GPU_LAYER_H
#define PF_GPU_LAYER_H

#include "gpu_model.h"
#include "gpu_ops.h"
#include "layer.h"

enum gpu_bound { GPU_COMPUTE, GPU_MEMORY, GPU_LAUNCH };
enum gpu_path { GPU_TENSOR, GPU_CUDA, GPU_STREAM };

const char *gpu_bound_name(enum gpu_bound b);

/* Estimate of one layer (or piece) on one machine. */
struct gpu_cost {
	double		cycles;		/* in the flow, composed by the build */
	double		device_cycles;	/* main + aux, launches excluded */
	double		launch_cycles;	/* kernels x launch latency */
	double		main_cycles;	/* main kernel on the device */
	double		aux_cycles;	/* layout/epilogue/reduction kernels */
	struct gpu_shape shape;		/* the main kernel's */
	int		kernels;
	enum gpu_bound	bound;
	enum gpu_path	path;
	double		flops;		/* useful FLOPs (2 x MACs) */
	double		dram_bytes, l2_bytes;
	int		input_l2;	/* layer input read from L2 */
	int		winograd;	/* gpu_wino.h algorithm used, 0: none */
};

/*
 * Estimate layer l on model m with the given memory channels (> 0).
 * Returns 0, -1 (no report) when the geometry cannot be costed (a
 * conv/gemm/matmul with a zero GEMM dimension), or -2 (no report) when
 * the config has no rate for the layer's dtype (gpu_dtype_ok()).
 */
int gpu_layer_cost(const struct gpu_model *m, const struct layer *l,
    double channels, struct gpu_cost *c);

#endif
