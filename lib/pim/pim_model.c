/*
 * Loading the PIM device model from a "key = value" config.  The key
 * table below is the one place that lists the model's parameters; the
 * defaults of pim_model_newton() are the published PIMFlow values and are
 * checked against share/pimflow/pim/newton-gddr6.conf by the unit tests.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "conf.h"
#include "diag.h"
#include "pim_attach.h"
#include "pim_model.h"

/* D: a decimal, I: a whole number (int64_t), B: 0 or 1 (int). */
#define D(f, lo, hi, unit, doc) \
	CONF_KEY(#f, CONF_REAL, struct pim_model, f, lo, hi, unit, doc)
#define I(f, lo, hi, unit, doc) \
	CONF_KEY(#f, CONF_I64, struct pim_model, f, lo, hi, unit, doc)
#define B(f, doc) \
	CONF_KEY(#f, CONF_INT, struct pim_model, f, 0, 1, "0/1", doc)
#define BIG (1 << 20)

/* Every numeric key; times are in clocks of clock_mhz. */
const struct conf_key pim_model_keys[] = {
	D(clock_mhz, 1, 1e6, "MHz", "PIM command clock; times count it"),
	I(t_gwrite_hide, 1, 1e6, "cycles",
	    "GWRITE to GWRITE or G_ACT with latency hiding"),
	I(gwrite_columns, 1, 1e6, "count",
	    "column accesses of one GWRITE without latency hiding"),
	I(t_ccd_s, 1, 1e6, "cycles",
	    "one column access; COMP to COMP"),
	I(t_gwrite_comp, 0, 1e6, "cycles", "GWRITE to COMP"),
	I(t_faw, 0, 1e6, "cycles", "G_ACT to the next G_ACT of a set"),
	I(t_rcd, 0, 1e6, "cycles", "G_ACT to COMP"),
	I(t_comp_readres, 0, 1e6, "cycles", "COMP to READRES"),
	I(t_readres_gwrite, 0, 1e6, "cycles", "READRES to GWRITE"),
	I(t_rp, 0, 1e6, "cycles",
	    "precharge of all banks before a refresh or G_ACT"),
	I(t_rfc, 0, 1e6, "cycles", "refresh duration"),
	I(t_refi, 1, 1e9, "cycles", "refresh period"),
	I(t_readres_latency, 0, 1e6, "cycles",
	    "CL + burst after the last READRES"),
	I(gbuf_elems, 1, BIG, "elements",
	    "elements per GWRITE chunk (global buffer)"),
	I(comp_elems, 1, BIG, "elements", "elements per COMP per bank"),
	I(banks, 1, BIG, "count", "banks (outputs per G_ACT set)"),
	I(channels, 1, BIG, "count",
	    "PIM channels of rows that leave pim_channels empty"),
	I(max_gwrite, 1, BIG, "count",
	    "GWRITE groups of rows that leave pim_gwrite empty"),
	B(hiding, "GWRITE latency hiding of rows that leave pim_hiding empty"),
	D(bus_bytes_per_clk, 1e-6, 1e9, "B/cycle",
	    "external data bus of one channel (-r)"),
	I(t_act16, 0, 1e6, "cycles",
	    "clocks to apply an activation to 16 outputs (-r)"),
	D(e_pre_nj, 0, 1e9, "nJ", "one precharge"),
	D(e_sram_read_nj, 0, 1e9, "nJ", "one global-buffer read"),
	D(e_sram_write_nj, 0, 1e9, "nJ", "one global-buffer write"),
	D(e_dram_read_nj, 0, 1e9, "nJ", "one row read"),
	D(e_mul_nj, 0, 1e9, "nJ", "one fp16 multiply"),
	D(e_add_nj, 0, 1e9, "nJ", "one fp16 add"),
	I(mac_lanes, 1, BIG, "count", "multipliers per bank"),
	D(e_io_pj_per_bit, 0, 1e6, "pJ/bit",
	    "a piece's input and output crossing the DRAM I/O"),
	D(static_mw_per_channel, 0, 1e9, "mW",
	    "static power of the PIM logic of one channel"),
	D(dispatch_ns, 0, 1e9, "ns",
	    "the host starting one piece's command stream (Dispatch)"),
	D(handoff_sync_ns, 0, 1e9, "ns",
	    "the synchronisation of one GPU<->PIM hand-off (Hand-off)"),
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

/* The string keys (conf_load_model's check). */
static int
load_strings(struct conf *c, const char *path, void *obj)
{
	const char *arch;
	int rc = 0, attach;

	(void)obj;
	/* the engine seam: a newton config may say so (pim_engine_of) */
	if ((arch = conf_str(c, "arch")) != NULL && strcmp(arch, "newton") != 0) {
		pf_err(path, "key 'arch': must be 'newton' here, not '%s'", arch);
		rc = -1;
	}
	/* pim_attach (optional): pf-split's default machine, checked here */
	if (rc == 0 && pim_attach_conf(c, path, &attach) == -2)
		rc = -1;
	/* the PIM devices' memory: capacity.c reads it (pf-solve -M) */
	(void)conf_str(c, "memory_bytes_per_channel");
	return rc;
}

int
pim_model_load(const char *path, struct pim_model *m)
{
	memset(m, 0, sizeof(*m));
	conf_name(path, m->name, sizeof(m->name));
	return conf_load_model(path, pim_model_keys, m, load_strings);
}

void
pim_model_newton(struct pim_model *m)
{
	/* Values and sources: share/pimflow/pim/newton-gddr6.conf. */
	memset(m, 0, sizeof(*m));
	strcpy(m->name, "newton-gddr6");
	m->clock_mhz = 875;
	m->t_gwrite_hide = 1;
	m->gwrite_columns = 32;
	m->t_ccd_s = 2;
	m->t_gwrite_comp = 51;
	m->t_faw = 17;
	m->t_rcd = 11;
	m->t_comp_readres = 1;
	m->t_readres_gwrite = 6;
	m->t_rp = 11;
	m->t_rfc = 350;
	m->t_refi = 1900;
	m->t_readres_latency = 13;
	m->gbuf_elems = 512;
	m->comp_elems = 16;
	m->banks = 16;
	m->channels = 16;
	m->max_gwrite = 4;
	m->hiding = 1;
	m->bus_bytes_per_clk = 16;
	m->t_act16 = 2;
	m->e_pre_nj = 0.03183;
	m->e_sram_read_nj = 0.175814;
	m->e_sram_write_nj = 0.181995;
	m->e_dram_read_nj = 1.16822;
	m->e_mul_nj = 0.0011;
	m->e_add_nj = 0.0004;
	m->mac_lanes = 16;
	m->e_io_pj_per_bit = 7.5;
	m->static_mw_per_channel = 16.8;
	m->dispatch_ns = 3663.004;
	m->handoff_sync_ns = 226.374;
}

int64_t
pim_model_c(const struct pim_model *m, int hiding)
{
	return hiding ? m->t_gwrite_hide : m->gwrite_columns * m->t_ccd_s;
}

double
pim_model_comp_nj(const struct pim_model *m)
{
	double lane = (double)m->mac_lanes;
	int64_t per_row = m->gbuf_elems / m->comp_elems;

	/*
	 * Controller.h: E_COMP_total = (32 mul + 32 sram_rd + dram_rd +
	 * 32 add) * 16 * n_COMP / 32, mul/add already x16 lanes: per COMP
	 * every bank does lanes multiplies and adds, one buffer read, and
	 * 1/32 of a row read.
	 */
	return (double)m->banks * (lane * m->e_mul_nj + m->e_sram_read_nj +
	    lane * m->e_add_nj + m->e_dram_read_nj / (double)per_row);
}
