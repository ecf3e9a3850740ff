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
#include "pim_model.h"

enum kind { KI, KD };

static const struct key {
	const char	*name;
	enum kind	 kind;
	size_t		 off;
	double		 lo, hi;
} keys[] = {
#define KEYI(n, f, lo, hi) { n, KI, offsetof(struct pim_model, f), lo, hi }
#define KEYD(n, f, lo, hi) { n, KD, offsetof(struct pim_model, f), lo, hi }
	KEYD("clock_mhz", clock_mhz, 1, 1e6),
	KEYI("t_gwrite_hide", t_gwrite_hide, 1, 1e6),
	KEYI("gwrite_columns", gwrite_columns, 1, 1e6),
	KEYI("t_ccd_s", t_ccd_s, 1, 1e6),
	KEYI("t_gwrite_comp", t_gwrite_comp, 0, 1e6),
	KEYI("t_faw", t_faw, 0, 1e6),
	KEYI("t_rcd", t_rcd, 0, 1e6),
	KEYI("t_comp_readres", t_comp_readres, 0, 1e6),
	KEYI("t_readres_gwrite", t_readres_gwrite, 0, 1e6),
	KEYI("t_rp", t_rp, 0, 1e6),
	KEYI("t_rfc", t_rfc, 0, 1e6),
	KEYI("t_refi", t_refi, 1, 1e9),
	KEYI("t_readres_latency", t_readres_latency, 0, 1e6),
	KEYI("gbuf_elems", gbuf_elems, 1, 1 << 20),
	KEYI("comp_elems", comp_elems, 1, 1 << 20),
	KEYI("banks", banks, 1, 1 << 20),
	KEYI("channels", channels, 1, 1 << 20),
	KEYI("max_gwrite", max_gwrite, 1, 1 << 20),
	KEYI("hiding", hiding, 0, 1),
	KEYD("bus_bytes_per_clk", bus_bytes_per_clk, 1e-6, 1e9),
	KEYI("t_act16", t_act16, 0, 1e6),
	KEYD("e_pre_nj", e_pre_nj, 0, 1e9),
	KEYD("e_sram_read_nj", e_sram_read_nj, 0, 1e9),
	KEYD("e_sram_write_nj", e_sram_write_nj, 0, 1e9),
	KEYD("e_dram_read_nj", e_dram_read_nj, 0, 1e9),
	KEYD("e_mul_nj", e_mul_nj, 0, 1e9),
	KEYD("e_add_nj", e_add_nj, 0, 1e9),
	KEYI("mac_lanes", mac_lanes, 1, 1 << 20),
	KEYD("e_io_pj_per_bit", e_io_pj_per_bit, 0, 1e6),
	KEYD("static_mw_per_channel", static_mw_per_channel, 0, 1e9),
#undef KEYI
#undef KEYD
};

int
pim_model_load(const char *path, struct pim_model *m)
{
	struct conf c;
	const char *base, *dot, *arch;
	size_t i, n;
	double v;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	if (conf_load(path, &c) < 0)
		return -1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct key *k = &keys[i];

		if ((k->kind == KD ? conf_num : conf_count)(&c, k->name, k->lo,
		    k->hi, &v) < 0)
			goto out;
		if (k->kind == KD)
			*(double *)(void *)((char *)m + k->off) = v;
		else if (k->off == offsetof(struct pim_model, hiding))
			m->hiding = (int)v;
		else
			*(int64_t *)(void *)((char *)m + k->off) = (int64_t)v;
	}
	/* the engine seam: a newton config may say so (pim_engine_of) */
	if ((arch = conf_str(&c, "arch")) != NULL && strcmp(arch, "newton") != 0) {
		pf_err(path, "key 'arch': must be 'newton' here, not '%s'", arch);
		goto out;
	}
	if (conf_check_unused(&c) < 0)
		goto out;
	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	dot = strrchr(base, '.');
	n = dot != NULL ? (size_t)(dot - base) : strlen(base);
	if (n >= sizeof(m->name))
		n = sizeof(m->name) - 1;
	memcpy(m->name, base, n);
	m->name[n] = '\0';
	rc = 0;
out:
	conf_free(&c);
	return rc;
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
