/*
 * The Newton-style PIM device model: timing constants (in PIM clocks),
 * the command-generator geometry, defaults for the channel split and the
 * per-command energy constants, loaded from a share/pimflow/pim/<name>.conf
 * file (every value there carries its source).  The generator
 * (newton_gen.h) and the timing engine (newton_time.h) are pure functions
 * of this struct, so tests can build one by hand.
 */
#ifndef PF_PIM_MODEL_H
#define PF_PIM_MODEL_H

#include <stdint.h>

#include "conf.h"

struct pim_model {
	char	name[64];		/* config name, for reports */
	double	clock_mhz;		/* PIM command clock */

	/* Rank-level command spacing, in PIM clocks (share/doc/newton-timing.md §4). */
	int64_t	t_gwrite_hide;		/* GWRITE->GWRITE/G_ACT, hiding on */
	int64_t	gwrite_columns;		/* column accesses per GWRITE, hiding off */
	int64_t	t_ccd_s;		/* COMP->COMP; x gwrite_columns = hiding-off c */
	int64_t	t_gwrite_comp;		/* GWRITE->COMP (tRC + 16) */
	int64_t	t_faw;			/* G_ACT(k-1)->G_ACTk */
	int64_t	t_rcd;			/* G_ACTk->COMP */
	int64_t	t_comp_readres;		/* COMP->READRES */
	int64_t	t_readres_gwrite;	/* READRES->GWRITE */
	int64_t	t_rp;			/* PREA->REF, PREA->G_ACT0 */
	int64_t	t_rfc;			/* REF->G_ACT0 */
	int64_t	t_refi;			/* refresh injection period */
	int64_t	t_readres_latency;	/* CL + nBL, added after the last READRES */

	/* Command generator geometry (share/doc/newton-timing.md §5). */
	int64_t	gbuf_elems;		/* elements per GWRITE chunk (512) */
	int64_t	comp_elems;		/* elements per COMP per bank (16) */
	int64_t	banks;			/* outputs per G_ACT set (16) */

	/* Defaults for rows that leave pim_channels/pim_gwrite/pim_hiding empty. */
	int64_t	channels;		/* PIM channels N */
	int64_t	max_gwrite;		/* maximum GWRITE groups */
	int	hiding;			/* GWRITE latency hiding 1/0 */

	/* Extensions (-r): partial-sum reduction and activation. */
	double	bus_bytes_per_clk;	/* external data bus of one channel */
	int64_t	t_act16;		/* clocks to apply an activation to 16 outputs */

	/* Energy per event in nJ (PIMFlow_ramulator Controller.h). */
	double	e_pre_nj, e_sram_read_nj, e_sram_write_nj, e_dram_read_nj;
	double	e_mul_nj, e_add_nj;	/* one fp16 operation */
	int64_t	mac_lanes;		/* multipliers per bank (16) */
	/* Whole-machine energy (share/doc/energy.md). */
	double	e_io_pj_per_bit;	/* GPU<->PIM hand-off over the DRAM I/O */
	double	static_mw_per_channel;	/* PIM logic while the plan runs */
	/* The host's side (pim_cost.h struct pim_row). */
	double	dispatch_ns;		/* issuing one piece's command stream */
	double	handoff_sync_ns;	/* one GPU<->PIM hand-off's synchronisation */
};

/* The keys of a Newton config (conf.h), NULL-terminated; arch apart. */
extern const struct conf_key pim_model_keys[];

/*
 * Load a model from a config file path (conf_resolve gives one).  Every key
 * is required and range-checked; an unknown key is an error.  Reports and
 * returns -1 on any fault.
 */
int pim_model_load(const char *path, struct pim_model *m);

/*
 * The keys every PIM config may hold besides its engine's, read from the
 * loaded c of file path: pim_attach (pf-split's default machine, checked
 * here); with link_gbs, an added device's attach_link_gbs (NULL: the
 * engine has no link, the key stays unknown); memory_bytes_per_channel
 * (capacity.c's, pf-solve -M).  0, or -1 after reporting.
 */
int pim_model_conf_machine(struct conf *c, const char *path,
    double *link_gbs);

/* The published PIMFlow GDDR6 Newton model, without any file (for tests). */
void pim_model_newton(struct pim_model *m);

/* GWRITE->GWRITE/G_ACT spacing c for a hiding setting. */
int64_t pim_model_c(const struct pim_model *m, int hiding);

/* Energy of one COMP over all banks, in nJ (Controller.h E_COMP / n_COMP). */
double pim_model_comp_nj(const struct pim_model *m);

#endif
