/*
 * Build files of the GPU model; see gpu_build.h.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "conf.h"
#include "diag.h"
#include "gpu_build.h"

/* R: a decimal, W: a whole number (a count). */
#define R(f, lo, hi, unit, doc) \
	CONF_KEY(#f, CONF_REAL, struct gpu_build, f, lo, hi, unit, doc)
#define W(f, lo, hi, unit, doc) \
	CONF_KEY(#f, CONF_WHOLE, struct gpu_build, f, lo, hi, unit, doc)

/* Every numeric build key; gpu-cycles(1) documents them in this order. */
const struct conf_key gpu_build_keys[] = {
	W(library_major, 1, 99, "version",
	    "major version of cuBLAS/cuDNN: before 11 tensor cores need K "
	    "and N multiples of tc_align_elems (else CUDA cores), from 11 "
	    "unaligned dims are padded onto tensor cores"),
	W(l2_warm_input, 0, 1, "0/1",
	    "1: a layer's input is read from L2 when it fits (its producer "
	    "ran just before); 0: every layer starts from a cold L2"),
	W(winograd, 0, 1, "0/1",
	    "1: fp32 3x3 and 5x5 stride-1 convs (one group, no dilation, on "
	    "CUDA cores) may run as Winograd (fused F(2x2,3x3), non-fused "
	    "F(4x4,3x3) or F(2x2,5x5)) when that costs less than the "
	    "implicit GEMM"),
	W(tf32, 0, 1, "0/1",
	    "1: fp32 convs and GEMMs may run on TF32 tensor cores where the "
	    "config has a rate for them; 0: fp32 stays on CUDA cores"),
	W(int8_tensor, 0, 1, "0/1",
	    "1: int8 convs and GEMMs use the integer tensor cores (IMMA); 0: "
	    "they run as DP4A dot products on CUDA cores"),
	W(conv_pre_kernels, 0, 8, "count",
	    "kernels before a conv's GEMM, each copying its input once"),
	W(conv_post_kernels, 0, 8, "count",
	    "kernels after a conv's GEMM, each copying its output once"),
	W(dwconv_pre_kernels, 0, 8, "count",
	    "kernels before a direct (depthwise/grouped) conv"),
	W(dwconv_post_kernels, 0, 8, "count",
	    "kernels after a direct conv"),
	W(gemm_post_kernels, 0, 8, "count", "kernels after a gemm's GEMM"),
	W(matmul_post_kernels, 0, 8, "count", "kernels after a matmul's GEMM"),
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

int
gpu_build_launch_parse(const char *s, enum gpu_launch *l)
{
	if (strcmp(s, "serial") == 0)
		*l = GPU_LAUNCH_SERIAL;
	else if (strcmp(s, "overlap") == 0)
		*l = GPU_LAUNCH_OVERLAP;
	else if (strcmp(s, "graph") == 0)
		*l = GPU_LAUNCH_GRAPH;
	else
		return -1;
	return 0;
}

const char *
gpu_build_launch_name(enum gpu_launch l)
{
	return l == GPU_LAUNCH_SERIAL ? "serial" :
	    l == GPU_LAUNCH_OVERLAP ? "overlap" : "graph";
}

double
gpu_build_compose(enum gpu_launch l, double device, double launch)
{
	switch (l) {
	case GPU_LAUNCH_SERIAL:
		return device + launch;
	case GPU_LAUNCH_OVERLAP:
		return fmax(device, launch);
	default:
		return device;
	}
}

/* The string key launch (conf_load_model's check). */
static int
load_launch(struct conf *c, const char *path, void *obj)
{
	struct gpu_build *b = obj;
	const char *s;

	if ((s = conf_str_req(c, "launch")) == NULL)
		return -1;
	if (gpu_build_launch_parse(s, &b->launch) < 0) {
		pf_errl(path, conf_line(c, "launch"), "key 'launch': "
		    "expected serial, overlap or graph, not '%s'", s);
		return -1;
	}
	return 0;
}

int
gpu_build_load(const char *path, struct gpu_build *b)
{
	memset(b, 0, sizeof(*b));
	conf_name(path, b->name, sizeof(b->name));
	return conf_load_model(path, gpu_build_keys, b, load_launch);
}
