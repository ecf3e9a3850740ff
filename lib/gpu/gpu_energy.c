/*
 * GPU energy constants and the dynamic energy of a piece (gpu_energy.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "gpu_energy.h"
#include "xalloc.h"

#define E(f, unit, doc) \
	CONF_KEY(#f, CONF_REAL, struct gpu_energy, f, 0, 1e6, unit, doc)

const struct conf_key gpu_energy_keys[] = {
	E(e_flop_pj_fp16, "pJ/FLOP", "arithmetic of fp16 and bf16 layers"),
	E(e_flop_pj_fp32, "pJ/FLOP",
	    "arithmetic of fp32 layers and every other type"),
	E(e_flop_pj_int8, "pJ/op", "arithmetic of int8 and fp8 layers"),
	E(e_l2_pj_per_byte, "pJ/B", "every byte the model moves through L2"),
	E(e_dram_pj_per_bit, "pJ/bit",
	    "every bit the model reads from or writes to DRAM"),
	E(static_w, "W", "static power of the GPU board, charged over the "
	    "plan's whole wall time"),
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct conf_model loader =
    CONF_MODEL_NONAME(struct gpu_energy, gpu_energy_keys, NULL);

double
gpu_energy_nj(const struct gpu_energy *e, const struct gpu_cost *c,
    const char *dtype)
{
	double f = e->e_flop_pj_fp32, pj;

	if (strcmp(dtype, "fp16") == 0 || strcmp(dtype, "bf16") == 0)
		f = e->e_flop_pj_fp16;
	else if (gpu_dtype_is_int8(dtype) ||
	    strncmp(dtype, "fp8", 3) == 0)
		f = e->e_flop_pj_int8;
	pj = c->flops * f + c->l2_bytes * e->e_l2_pj_per_byte +
	    c->dram_bytes * 8.0 * e->e_dram_pj_per_bit;
	return pj > 0 ? pj / 1000.0 : 0;
}

int
gpu_energy_for(const char *gpu, const char *energy, struct gpu_energy *e)
{
	char *path = NULL, *p;
	int rc;

	if (energy != NULL && strcmp(energy, "none") != 0) {
		if ((path = conf_resolve("energy", energy)) == NULL)
			return -1;
	} else if (energy == NULL && strchr(gpu, '/') == NULL &&
	    (p = conf_sharedir()) != NULL) {
		path = xmalloc(strlen(p) + strlen(gpu) + 16);
		sprintf(path, "%s/energy/%s.conf", p, gpu);
		free(p);
		if (access(path, R_OK) != 0) {
			free(path);
			path = NULL;
		}
	}
	if (path == NULL)
		return 0;
	/* every key required, an unknown key an error */
	rc = conf_load_model(path, &loader, e);
	free(path);
	return rc < 0 ? -1 : 1;
}
