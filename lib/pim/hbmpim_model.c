/*
 * Loading the HBM2-PIM model from a "key = value" config.  The key table
 * is the one list of the engine's parameters; hbmpim_dram_default() holds
 * the same published values and the unit test checks that the shipped
 * hbm-pim.conf loads into exactly those.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "conf.h"
#include "diag.h"
#include "hbmpim_model.h"
#include "pim_attach.h"

/* T: a whole number (int64_t) of the DRAM parameters. */
#define T(f, lo, hi, unit, doc) \
	CONF_KEY(#f, CONF_I64, struct hbmpim_model, dram.f, lo, hi, unit, doc)

/* E: an energy constant (share/doc/energy.md). */
#define E(f, lo, hi, unit, doc) \
	CONF_KEY(#f, CONF_REAL, struct hbmpim_model, e.f, lo, hi, unit, doc)

/* Every numeric key; times are in memory clocks of clock_mhz. */
const struct conf_key hbmpim_model_keys[] = {
	T(bl, 2, 64, "count", "burst length"),
	T(rl, 0, 1e4, "cycles", "read latency"),
	T(wl, 0, 1e4, "cycles", "write latency"),
	T(al, 0, 1e4, "cycles", "additive latency"),
	T(t_ccd_s, 1, 1e4, "cycles", "column to column, other bank group"),
	T(t_ccd_l, 1, 1e4, "cycles", "column to column, same bank group"),
	T(t_rcdrd, 0, 1e4, "cycles", "ACT to RD"),
	T(t_rcdwr, 0, 1e4, "cycles", "ACT to WR"),
	T(t_ras, 0, 1e4, "cycles", "ACT to PRE"),
	T(t_rc, 0, 1e4, "cycles", "ACT to ACT of a bank"),
	T(t_rp, 0, 1e4, "cycles", "PRE to ACT"),
	T(t_rrd_s, 0, 1e4, "cycles", "ACT to ACT, other bank group"),
	T(t_rrd_l, 0, 1e4, "cycles", "ACT to ACT, same bank group"),
	T(t_wr, 0, 1e4, "cycles", "write recovery"),
	T(t_rtp_l, 0, 1e4, "cycles", "read to precharge"),
	T(t_wtr_l, 0, 1e4, "cycles", "write to read, same bank group"),
	T(t_rtrs, 0, 1e4, "cycles", "rank to rank switch"),
	T(t_refi, 1, 1e9, "cycles", "refresh period"),
	T(t_rfc, 0, 1e6, "cycles", "refresh duration"),
	T(t_cmd, 0, 1e4, "cycles", "command bus occupancy"),
	T(tq_depth, 1, 256, "count", "transaction queue entries per channel"),
	T(cq_depth, 1, 256, "count", "command queue entries per rank"),
	T(ranks, 1, 4, "count", "ranks per channel"),
	T(bankgroups, 1, 16, "count", "bank groups per rank"),
	T(banks_per_group, 1, 16, "count", "banks per bank group"),
	T(rows, 16384, 1 << 20, "count", "rows per bank"),
	T(columns, 32, 4096, "count", "columns per row"),
	T(burst_bytes, 1, 4096, "bytes", "bytes of one column access"),
	CONF_KEY("refresh", CONF_INT, struct hbmpim_model, dram.refresh, 0, 1,
	    "0/1", "refresh on (1) or off (0, for closed-form checks)"),
	CONF_KEY("clock_mhz", CONF_REAL, struct hbmpim_model, clock_mhz, 1,
	    1e6, "MHz", "memory command clock"),
	CONF_KEY("channels", CONF_I64, struct hbmpim_model, channels, 1,
	    1 << 20, "count", "PIM pseudo-channels of rows that leave "
	    "pim_channels empty"),
	CONF_KEY("dispatch_ns", CONF_REAL, struct hbmpim_model, dispatch_ns,
	    0, 1e9, "ns",
	    "the host starting one piece's command stream (Dispatch)"),
	CONF_KEY("handoff_sync_ns", CONF_REAL, struct hbmpim_model,
	    handoff_sync_ns, 0, 1e9, "ns",
	    "the synchronisation of one GPU<->PIM hand-off (Hand-off)"),
	E(e_act_pj, 0, 1e6, "pJ", "one bank's row activation with its "
	    "precharge"),
	E(e_rd_pj, 0, 1e6, "pJ", "one column read in the array"),
	E(e_wr_pj, 0, 1e6, "pJ", "one column write in the array"),
	E(e_ref_pj, 0, 1e9, "pJ", "one refresh"),
	E(e_mul_pj, 0, 1e3, "pJ", "one FP16 multiply of a PIM lane"),
	E(e_add_pj, 0, 1e3, "pJ", "one FP16 add of a PIM lane"),
	CONF_KEY("pim_blocks", CONF_WHOLE, struct hbmpim_model, e.pim_blocks,
	    1, 64, "count", "banks a HAB-mode command reaches (the PIM "
	    "blocks of a pseudo-channel)"),
	CONF_KEY("pim_lanes", CONF_WHOLE, struct hbmpim_model, e.pim_lanes, 1,
	    1024, "count", "FP16 lanes of a PIM block"),
	E(e_io_pj_per_bit, 0, 1e3, "pJ/bit", "the hand-off over the stack's "
	    "I/O"),
	E(static_mw_per_channel, 0, 1e5, "mW", "static power of one "
	    "pseudo-channel's PIM logic"),
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

/*
 * The engine times Samsung's command stream, whose all-bank commands
 * address bank 0 (the even banks) or bank 1 (the odd ones): a unit sits
 * beside each bank pair (banks / 2, HBM2-PIM) or each bank (banks, the
 * bank-level units of AttAcc_bank); any other count has no stream.
 */
int
hbmpim_model_units_check(const struct hbmpim_model *m, const char *path,
    const struct conf *c)
{
	int64_t banks = m->dram.bankgroups * m->dram.banks_per_group;
	int64_t u = (int64_t)m->e.pim_blocks;

	if (u == banks / 2 || u == banks)
		return 0;
	pf_errl(path, conf_line(c, "pim_blocks"), "key 'pim_blocks': want "
	    "one unit per bank pair (%lld) or per bank (%lld) of the %lld "
	    "banks of a rank, not %lld", (long long)(banks / 2),
	    (long long)banks, (long long)banks, (long long)u);
	return -1;
}

/* The string keys and the geometry's checks (conf_load_model's check). */
static int
load_strings(struct conf *c, const char *path, void *obj)
{
	struct hbmpim_model *m = obj;
	const char *arch;
	int64_t banks;
	int rc = 0, attach;

	banks = m->dram.bankgroups * m->dram.banks_per_group;
	if ((arch = conf_str(c, "arch")) == NULL ||
	    strcmp(arch, "hbm-pim") != 0) {
		pf_err(path, "key 'arch': must be 'hbm-pim', not '%s'",
		    arch != NULL ? arch : "");
		rc = -1;
	} else if (banks < 16 || banks > 64) {
		pf_err(path, "key 'banks_per_group': 16 to 64 banks per rank "
		    "needed, not %lld", (long long)banks);
		rc = -1;
	} else if (hbmpim_model_units_check(m, path, c) < 0)
		rc = -1;
	/* pim_attach (optional): pf-split's default machine, checked here */
	if (rc == 0 && (pim_attach_conf(c, path, &attach) == -2 ||
	    pim_attach_link(c, path, &m->attach_link_gbs) < 0))
		rc = -1;
	/* the PIM devices' memory: capacity.c reads it (pf-solve -M) */
	(void)conf_str(c, "memory_bytes_per_channel");
	return rc;
}

int
hbmpim_model_load(const char *path, struct hbmpim_model *m)
{
	memset(m, 0, sizeof(*m));
	conf_name(path, m->name, sizeof(m->name));
	return conf_load_model(path, hbmpim_model_keys, m, load_strings);
}
