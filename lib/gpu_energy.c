/*
 * GPU energy constants and the dynamic energy of a piece (gpu_energy.h).
 */
#include <stddef.h>
#include <string.h>

#include "conf.h"
#include "gpu_energy.h"

const struct gpu_energy_key gpu_energy_keys[] = {
	{ "e_flop_pj_fp16", "pJ/FLOP", "arithmetic of fp16 and bf16 layers" },
	{ "e_flop_pj_fp32", "pJ/FLOP",
	    "arithmetic of fp32 layers and every other type" },
	{ "e_flop_pj_int8", "pJ/op", "arithmetic of int8 and fp8 layers" },
	{ "e_l2_pj_per_byte", "pJ/B", "every byte the model moves through L2" },
	{ "e_dram_pj_per_bit", "pJ/bit",
	    "every bit the model reads from or writes to DRAM" },
	{ "static_w", "W", "static power of the GPU board, charged over the "
	    "plan's whole wall time" },
	{ NULL, NULL, NULL }
};

static const size_t offs[] = {
	offsetof(struct gpu_energy, e_flop_pj_fp16),
	offsetof(struct gpu_energy, e_flop_pj_fp32),
	offsetof(struct gpu_energy, e_flop_pj_int8),
	offsetof(struct gpu_energy, e_l2_pj_per_byte),
	offsetof(struct gpu_energy, e_dram_pj_per_bit),
	offsetof(struct gpu_energy, static_w),
};

int
gpu_energy_load(const char *path, struct gpu_energy *e)
{
	struct conf c;
	size_t i;
	int rc = -1;

	memset(e, 0, sizeof(*e));
	if (conf_load(path, &c) < 0)
		return -1;
	for (i = 0; gpu_energy_keys[i].key != NULL; i++)
		if (conf_num(&c, gpu_energy_keys[i].key, 0, 1e6,
		    (double *)(void *)((char *)e + offs[i])) < 0)
			goto out;
	if (conf_check_unused(&c) < 0)
		goto out;
	rc = 0;
out:
	conf_free(&c);
	return rc;
}

double
gpu_energy_nj(const struct gpu_energy *e, const struct gpu_cost *c,
    const char *dtype)
{
	double f = e->e_flop_pj_fp32, pj;

	if (strcmp(dtype, "fp16") == 0 || strcmp(dtype, "bf16") == 0)
		f = e->e_flop_pj_fp16;
	else if (strcmp(dtype, "int8") == 0 || strcmp(dtype, "uint8") == 0 ||
	    strncmp(dtype, "fp8", 3) == 0)
		f = e->e_flop_pj_int8;
	pj = c->flops * f + c->l2_bytes * e->e_l2_pj_per_byte +
	    c->dram_bytes * 8.0 * e->e_dram_pj_per_bit;
	return pj > 0 ? pj / 1000.0 : 0;
}
