/*
 * Software builds of the GPU model: how a layer becomes kernels, kept
 * apart from the chip (gpu_model.h).  A build file
 * share/pimflow/build/<name>.conf says which layout and epilogue kernels
 * surround each op's main kernel, which algorithms the library may pick
 * (Winograd for fp32 convolutions), which tensor-core rule its version
 * follows, whether a layer's input may be warm in L2, and how kernels are
 * launched, which decides how device time and launch latency compose
 * into the time a layer costs in the flow.
 */
#ifndef PF_GPU_BUILD_H
#define PF_GPU_BUILD_H

#include <stddef.h>

#include "conf.h"

/* How the kernels of a layer are launched. */
enum gpu_launch {
	GPU_LAUNCH_SERIAL,	/* each kernel waits for its own launch */
	GPU_LAUNCH_OVERLAP,	/* back to back: launches hide under work */
	GPU_LAUNCH_GRAPH	/* one CUDA graph for the network */
};

struct gpu_build {
	char		name[64];	/* file name without .conf */
	enum gpu_launch	launch;
	double	library_major;		/* cuBLAS/cuDNN major version */
	double	l2_warm_input;		/* 1: a layer's input may be in L2 */
	double	winograd;		/* 1: fp32 3x3/5x5 convs may use it */
	double	tf32;			/* 1: fp32 GEMMs may use TF32 tensor cores */
	double	int8_tensor;		/* 1: int8 GEMMs use IMMA, 0: DP4A */
	double	conv_pre_kernels, conv_post_kernels;
	double	dwconv_pre_kernels, dwconv_post_kernels;
	double	gemm_post_kernels, matmul_post_kernels;
};

/*
 * The numeric keys of a build file (conf.h), NULL-terminated; the string
 * key launch is read apart.
 */
extern const struct conf_key gpu_build_keys[];

/*
 * Load and validate a build file (path already resolved); every key is
 * required, an unknown one is an error.  Reports "file:line: ..." and
 * returns -1 on error.
 */
int gpu_build_load(const char *path, struct gpu_build *b);

/* "serial", "overlap" or "graph"; -1 for anything else. */
int gpu_build_launch_parse(const char *s, enum gpu_launch *l);
const char *gpu_build_launch_name(enum gpu_launch l);

/*
 * The time a layer costs in the flow from its device time and the launch
 * latency of its kernels: serial adds them, overlap takes the larger (the
 * host issues the next kernel while the GPU works), graph pays no launch
 * per layer.
 */
double gpu_build_compose(enum gpu_launch l, double device, double launch);

#endif
