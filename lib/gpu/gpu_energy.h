/*
 * GPU energy of one piece: the dynamic energy of its arithmetic (per FLOP
 * by precision), of the bytes it moves through L2 and of the bits it
 * moves to and from DRAM, from the counts of the GPU timing model
 * (struct gpu_cost); and the GPU's static power, which the solver charges
 * over a plan's whole wall time.  The constants come from a
 * share/pimflow/energy/<gpu>.conf file of their own, so the timing model
 * and its configs stay as they are; share/doc/energy.md gives the source
 * of every value.
 */
#ifndef PF_GPU_ENERGY_H
#define PF_GPU_ENERGY_H

#include "conf.h"
#include "gpu_layer.h"
#include "gpu_model.h"

struct gpu_energy {
	double	e_flop_pj_fp16;		/* per FLOP, fp16/bf16 */
	double	e_flop_pj_fp32;		/* per FLOP, fp32 and other types */
	double	e_flop_pj_int8;		/* per FLOP (op), int8/fp8 */
	double	e_l2_pj_per_byte;	/* per byte read or written in L2 */
	double	e_dram_pj_per_bit;	/* per bit read or written in DRAM */
	double	static_w;		/* the GPU board while it waits */
};

/* The keys of an energy config (conf.h), NULL-terminated. */
extern const struct conf_key gpu_energy_keys[];

/*
 * The energy config of gpu-cycles -e: energy names it ("none": no
 * energy); energy NULL takes the one named like the GPU config gpu when
 * gpu is a name (not a path) and the share directory has one (a GPU
 * without one gets no energy).  Every key of the config is required, an
 * unknown key is an error.  Returns 1 with *e loaded, 0 for none, -1
 * after reporting ("file:line: ...").
 */
int gpu_energy_for(const char *gpu, const char *energy, struct gpu_energy *e);

/*
 * Dynamic energy of a piece in nJ: c->flops at the rate of dtype plus
 * c->l2_bytes through L2 plus c->dram_bytes to DRAM.  Never negative.
 */
double gpu_energy_nj(const struct gpu_energy *e, const struct gpu_cost *c,
    const char *dtype);

#endif
