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

static const struct key {
	const char	*name;
	size_t		 off;
	double		 lo, hi;
} keys[] = {
#define K(n, f, lo, hi) { n, offsetof(struct hbmpim_dram, f), lo, hi }
	K("bl", bl, 2, 64),
	K("rl", rl, 0, 1e4),
	K("wl", wl, 0, 1e4),
	K("al", al, 0, 1e4),
	K("t_ccd_s", t_ccd_s, 1, 1e4),
	K("t_ccd_l", t_ccd_l, 1, 1e4),
	K("t_rcdrd", t_rcdrd, 0, 1e4),
	K("t_rcdwr", t_rcdwr, 0, 1e4),
	K("t_ras", t_ras, 0, 1e4),
	K("t_rc", t_rc, 0, 1e4),
	K("t_rp", t_rp, 0, 1e4),
	K("t_rrd_s", t_rrd_s, 0, 1e4),
	K("t_rrd_l", t_rrd_l, 0, 1e4),
	K("t_wr", t_wr, 0, 1e4),
	K("t_rtp_l", t_rtp_l, 0, 1e4),
	K("t_wtr_l", t_wtr_l, 0, 1e4),
	K("t_rtrs", t_rtrs, 0, 1e4),
	K("t_refi", t_refi, 1, 1e9),
	K("t_rfc", t_rfc, 0, 1e6),
	K("t_cmd", t_cmd, 0, 1e4),
	K("tq_depth", tq_depth, 1, 256),
	K("cq_depth", cq_depth, 1, 256),
	K("ranks", ranks, 1, 4),
	K("bankgroups", bankgroups, 1, 16),
	K("banks_per_group", banks_per_group, 1, 16),
	K("rows", rows, 16384, 1 << 20),
	K("columns", columns, 32, 4096),
	K("burst_bytes", burst_bytes, 1, 4096),
	K("refresh", refresh, 0, 1),
#undef K
};

int
hbmpim_model_load(const char *path, struct hbmpim_model *m)
{
	struct conf c;
	const char *arch, *base, *dot;
	size_t i, n;
	double v;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	if (conf_load(path, &c) < 0)
		return -1;
	if ((arch = conf_str(&c, "arch")) == NULL ||
	    strcmp(arch, "hbm-pim") != 0) {
		pf_err(path, "key 'arch': must be 'hbm-pim', not '%s'",
		    arch != NULL ? arch : "");
		goto out;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct key *k = &keys[i];

		if (conf_count(&c, k->name, k->lo, k->hi, &v) < 0)
			goto out;
		if (k->off == offsetof(struct hbmpim_dram, refresh))
			m->dram.refresh = (int)v;
		else
			*(int64_t *)(void *)((char *)&m->dram + k->off) =
			    (int64_t)v;
	}
	if (m->dram.bankgroups * m->dram.banks_per_group < 16 ||
	    m->dram.bankgroups * m->dram.banks_per_group > 64) {
		pf_err(path, "key 'banks_per_group': 16 to 64 banks per rank "
		    "needed, not %lld", (long long)(m->dram.bankgroups *
		    m->dram.banks_per_group));
		goto out;
	}
	if (conf_num(&c, "clock_mhz", 1, 1e6, &m->clock_mhz) < 0 ||
	    conf_count(&c, "channels", 1, 1 << 20, &v) < 0)
		goto out;
	m->channels = (int64_t)v;
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
