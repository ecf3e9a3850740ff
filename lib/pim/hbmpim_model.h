/*
 * The HBM2-PIM device model loaded from share/pimflow/pim/<name>.conf
 * (arch = hbm-pim): the DRAM and controller parameters of the timing
 * engine (hbmpim_time.h) plus the default PIM channel count.  Every value
 * in the file carries its source.
 */
#ifndef PF_HBMPIM_MODEL_H
#define PF_HBMPIM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "conf.h"
#include "hbmpim_time.h"

/*
 * Per-command energies of one pseudo-channel (share/doc/energy.md): a
 * bank's row activation with its precharge, one column read or write of
 * burst_bytes in the array, one refresh, one FP16 multiply and add of a
 * PIM lane, the I/O and the PIM logic's static power.
 */
struct hbmpim_energy {
	double	e_act_pj, e_rd_pj, e_wr_pj, e_ref_pj;
	double	e_mul_pj, e_add_pj;
	double	pim_blocks, pim_lanes;	/* banks a HAB command reaches; lanes */
	double	e_io_pj_per_bit;
	double	static_mw_per_channel;
};

struct hbmpim_model {
	char			name[64];	/* config name, for reports */
	double			clock_mhz;	/* memory command clock */
	struct hbmpim_dram	dram;
	int64_t			channels;	/* PIM pseudo-channels (default) */
	double			dispatch_ns;	/* the host issuing a piece */
	double			handoff_sync_ns; /* one GPU<->PIM hand-off */
	double			attach_link_gbs; /* added: link to the GPU,
						    0: none (optional key) */
	struct hbmpim_energy	e;
};

/* The keys of an hbm-pim config (conf.h), NULL-terminated; arch apart. */
extern const struct conf_key hbmpim_model_keys[];

/*
 * 0 when the PIM units of m (pim_blocks) fit the engine's stream: one
 * per bank pair or one per bank of a rank; else -1 after reporting
 * "path:line: key 'pim_blocks': ..." (c: the loaded config, for the
 * line).
 */
int hbmpim_model_units_check(const struct hbmpim_model *m, const char *path,
    const struct conf *c);

/*
 * Load a model from a config path.  Every key is required and
 * range-checked, arch must be hbm-pim, an unknown key is an error.
 * Reports and returns -1 on any fault.
 */
int hbmpim_model_load(const char *path, struct hbmpim_model *m);

#endif
