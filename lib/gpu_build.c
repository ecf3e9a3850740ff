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

#define K(f, lo, hi, unit, doc) \
	{ #f, offsetof(struct gpu_build, f), lo, hi, unit, doc }

/* Every numeric build key; gpu-cycles(1) documents them in this order. */
const struct gpu_build_key gpu_build_keys[] = {
	K(library_major, 1, 99, "version",
	    "major version of cuBLAS/cuDNN: before 11 tensor cores need K "
	    "and N multiples of tc_align_elems (else CUDA cores), from 11 "
	    "unaligned dims are padded onto tensor cores"),
	K(l2_warm_input, 0, 1, "0/1",
	    "1: a layer's input is read from L2 when it fits (its producer "
	    "ran just before); 0: every layer starts from a cold L2"),
	K(winograd, 0, 1, "0/1",
	    "1: fp32 3x3 and 5x5 stride-1 convs may run as Winograd "
	    "F(2x2,3x3) when that is faster"),
	K(tf32, 0, 1, "0/1",
	    "1: fp32 convs and GEMMs may run on TF32 tensor cores where the "
	    "config has a rate for them; 0: fp32 stays on CUDA cores"),
	K(int8_tensor, 0, 1, "0/1",
	    "1: int8 convs and GEMMs use the integer tensor cores (IMMA); 0: "
	    "they run as DP4A dot products on CUDA cores"),
	K(conv_pre_kernels, 0, 8, "count",
	    "kernels before a conv's GEMM, each copying its input once"),
	K(conv_post_kernels, 0, 8, "count",
	    "kernels after a conv's GEMM, each copying its output once"),
	K(dwconv_pre_kernels, 0, 8, "count",
	    "kernels before a direct (depthwise/grouped) conv"),
	K(dwconv_post_kernels, 0, 8, "count",
	    "kernels after a direct conv"),
	K(gemm_post_kernels, 0, 8, "count", "kernels after a gemm's GEMM"),
	K(matmul_post_kernels, 0, 8, "count", "kernels after a matmul's GEMM"),
	{ NULL, 0, 0, 0, NULL, NULL }
};

#define FIELD(b, k) ((double *)(void *)((char *)(b) + (k)->off))

int
gpu_launch_parse(const char *s, enum gpu_launch *l)
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
gpu_launch_name(enum gpu_launch l)
{
	return l == GPU_LAUNCH_SERIAL ? "serial" :
	    l == GPU_LAUNCH_OVERLAP ? "overlap" : "graph";
}

double
gpu_compose(enum gpu_launch l, double device, double launch)
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

int
gpu_build_load(const char *path, struct gpu_build *b)
{
	const struct gpu_build_key *k;
	const char *base, *s;
	struct conf c;
	size_t i, n;
	int rc = -1;

	memset(b, 0, sizeof(*b));
	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".conf") == 0)
		n -= 5;
	if (n >= sizeof(b->name))
		n = sizeof(b->name) - 1;
	memcpy(b->name, base, n);
	b->name[n] = '\0';
	if (conf_load(path, &c) < 0)
		return -1;
	for (k = gpu_build_keys; k->key != NULL; k++)
		if ((conf_unit_is_count(k->unit) ? conf_count : conf_num)(&c,
		    k->key, k->lo, k->hi, FIELD(b, k)) < 0)
			goto out;
	for (k = gpu_build_keys; k->key != NULL; k++)
		if (strcmp(k->key, "library_major") != 0 &&
		    *FIELD(b, k) != floor(*FIELD(b, k))) {
			for (i = 0; i < c.n; i++)
				if (strcmp(c.ent[i].key, k->key) == 0)
					break;
			pf_errl(path, i < c.n ? c.ent[i].line : 0, "key '%s': "
			    "must be a whole number", k->key);
			goto out;
		}
	if ((s = conf_str(&c, "launch")) == NULL) {
		pf_err(path, "missing key 'launch'");
		goto out;
	}
	if (gpu_launch_parse(s, &b->launch) < 0) {
		for (i = 0; i < c.n; i++)
			if (strcmp(c.ent[i].key, "launch") == 0)
				break;
		pf_errl(path, i < c.n ? c.ent[i].line : 0, "key 'launch': "
		    "expected serial, overlap or graph, not '%s'", s);
		goto out;
	}
	if (conf_check_unused(&c) < 0)
		goto out;
	rc = 0;
out:
	conf_free(&c);
	return rc;
}
