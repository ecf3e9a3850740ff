/*
 * Row costing for pim-cycles (newton_cost.h).  A piece becomes one GEMV
 * job, possibly repeated: conv -> im2col GEMV per output pixel (C_i =
 * in_c, C_o = out_c, P = batch*out_h*out_w of the piece itself); gemm ->
 * C_i = gemm_k, C_o = gemm_n, P = gemm_m; matmul -> gemm_batch such GEMVs
 * one after another; with per_group a grouped conv -> one GEMV per group,
 * groups spread over the channels.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "newton_cost.h"
#include "newton_gen.h"
#include "xalloc.h"

const struct pim_col pim_cols[] = {
	{ "gwrite", "GWRITE commands of the simulated channel" },
	{ "gact", "G_ACT commands (four per set) of the simulated channel" },
	{ "comp", "COMP commands of the simulated channel" },
	{ "readres", "READRES commands of the simulated channel" },
	{ "ref", "refreshes served while the simulated channel ran" },
	{ "n_gwrite", "n_gwrite chosen for the (first) part" },
	{ "energy_nj", "energy of all PIM channels, published per-command "
	    "model, plus the hand-off (pim_handoff_nj)" },
	{ "pim_gwrite_rem", "n_gwrite chosen for the remainder part (0: none)" },
	{ "pim_partials", "partial sums produced per output element" },
	{ "pim_extra_cycles", "reduction and activation clocks added by -r" },
	{ "pim_channel", "0-based PIM channel whose time is reported" },
	{ "pim_handoff_nj", "the piece's input and output bytes over the "
	    "DRAM I/O between GPU and PIM, at e_io_pj_per_bit" },
	{ "static_w", "static power of the piece's PIM channels "
	    "(static_mw_per_channel each), charged by pf-solve over the plan" },
	{ NULL, NULL }
};

/* Per-channel work of a run, summed over all channels (energy). */
static void
all_counts(const struct ngen_plan *p, double *comp, double *rr, double *gw)
{
	int64_t ch, nb, j;
	size_t s, gi, idx;
	int i, last;

	*comp = *rr = *gw = 0;
	for (i = 0; i < p->nparts; i++) {
		const struct ngen_part *pt = &p->part[i];

		for (ch = 0; ch < p->nch; ch++) {
			nb = ngen_chan_blocks(pt, ch);
			if (nb == 0)
				continue;
			*gw += (double)nb;
			j = ch % pt->n;
			for (s = 0; s < ngen_chan_units(pt, ch, &last); s++) {
				idx = (size_t)j + s * (size_t)pt->n;
				for (gi = pt->uoff[idx]; gi < pt->uoff[idx + 1]; gi++) {
					*comp += (double)nb * (double)pt->ucnt[gi];
					*rr += (double)nb;
				}
			}
		}
	}
}

/* Channels with the same blocks and units per part have the same stream. */
static int
same_stream(const struct ngen_plan *p, int64_t a, int64_t b)
{
	int i, la, lb;

	for (i = 0; i < p->nparts; i++) {
		const struct ngen_part *pt = &p->part[i];

		if (ngen_chan_blocks(pt, a) != ngen_chan_blocks(pt, b) ||
		    ngen_chan_units(pt, a, &la) != ngen_chan_units(pt, b, &lb) ||
		    la != lb)
			return 0;
	}
	return 1;
}

static void
time_channel(const struct pim_model *m, const struct ngen_plan *p, int64_t ch,
    int hiding, int64_t repeat, int exact, struct nt_stats *st)
{
	struct ngen_chblock cb[2];
	struct nt_seg seg[2];
	int i;

	for (i = 0; i < p->nparts; i++) {
		ngen_chan_block(&p->part[i], ch, &cb[i]);
		seg[i].b = &cb[i].b;
		seg[i].count = ngen_chan_blocks(&p->part[i], ch);
	}
	nt_run(m, hiding, seg, (size_t)p->nparts, repeat, exact, st);
	for (i = 0; i < p->nparts; i++)
		ngen_chblock_free(&cb[i]);
}

/* Time channel 0, or every distinct channel stream with -a; keep the slowest. */
static void
eval_plan(const struct pim_model *m, const struct ngen_plan *plan,
    const struct pim_opts *o, int hiding, int64_t repeat, struct pim_cost *c)
{
	struct nt_stats st;
	int64_t ch, prev;

	c->st.cycles = -1;
	for (ch = 0; ch < (o->all ? plan->nch : 1); ch++) {
		for (prev = 0; prev < ch; prev++)
			if (same_stream(plan, prev, ch))
				break;
		if (prev < ch)
			continue;
		time_channel(m, plan, ch, hiding, repeat, o->exact, &st);
		c->cmds += st.gwrite + st.gact + st.comp + st.readres;
		if (st.cycles > c->st.cycles) {
			c->st = st;
			c->channel = ch;
		}
	}
}

int
pim_cost_layer(const struct pim_model *m, const struct layer *l,
    int64_t nch, int64_t max_gw, int hiding, const struct pim_opts *o,
    FILE *trace, const char *where, struct pim_cost *c)
{
	struct ngen_layer gl;
	struct ngen_plan plan;
	int64_t repeat = 1, inst = 1, jnch = nch, v[3], ch;
	double comp, rr, gw, bytes, outs;
	int i, esz;

	memset(c, 0, sizeof(*c));
	memset(&gl, 0, sizeof(gl));
	switch (l->op) {
	case OP_CONV:
		gl.ci = l->in_c;
		gl.co = l->out_c;
		if (o->per_group && l->groups > 1) {
			gl.ci /= l->groups;
			gl.co /= l->groups;
			inst = l->groups;
			if (l->groups >= nch) {
				jnch = 1;
				repeat = ceil_div(l->groups, nch);
			} else {
				jnch = nch / l->groups;
			}
		}
		gl.kh = l->kernel_h;
		gl.kw = l->kernel_w;
		gl.h = l->in_h;
		v[0] = l->batch; v[1] = l->out_h; v[2] = l->out_w;
		if (ck_prod(v, 3, &gl.p) < 0)
			goto toolarge;
		break;
	case OP_GEMM:
	case OP_MATMUL:
		if (l->gemm_m < 1 || l->gemm_n < 1 || l->gemm_k < 1 ||
		    l->gemm_batch < 1) {
			pf_err(where, "column 'gemm_%s': must be positive on a pim row",
			    l->gemm_m < 1 ? "m" : l->gemm_n < 1 ? "n" :
			    l->gemm_k < 1 ? "k" : "batch");
			return -1;
		}
		gl.ci = l->gemm_k;
		gl.co = l->gemm_n;
		gl.kh = gl.kw = 1;
		gl.p = gl.h = l->gemm_m;
		repeat = inst = l->gemm_batch;
		break;
	default:
		pf_err(where, "column 'op': op '%s' cannot run on pim",
		    layer_opname(l->op));
		return -1;
	}
	if (ngen_build(m, &gl, jnch, max_gw, &plan) < 0)
		goto toolarge;
	eval_plan(m, &plan, o, hiding, repeat, c);
	if (o->best) {
		/* -b: every n_gwrite pair, keep the fewest cycles (ties: published). */
		struct ngen_plan alt;
		struct pim_cost ac;
		int64_t g0, g1;

		for (g0 = 1; g0 <= max_gw && g0 <= jnch; g0 *= 2)
			for (g1 = 1; g1 <= (plan.nparts > 1 ? max_gw : 1) &&
			    g1 <= jnch; g1 *= 2) {
				if (ngen_build_pick(m, &gl, jnch, max_gw, g0,
				    plan.nparts > 1 ? g1 : 0, &alt) < 0)
					continue;
				memset(&ac, 0, sizeof(ac));
				eval_plan(m, &alt, o, hiding, repeat, &ac);
				c->cmds += ac.cmds;
				if (ac.st.cycles < c->st.cycles) {
					ac.cmds = c->cmds;
					*c = ac;
					ngen_free(&plan);
					plan = alt;
				} else {
					ngen_free(&alt);
				}
			}
	}
	if (trace != NULL)
		for (ch = 0; ch < (o->all ? jnch : 1); ch++) {
			fprintf(trace, "# %s channel %lld\n", where, (long long)ch);
			ngen_write_trace(trace, &plan, ch, repeat);
		}

	c->n_gwrite = plan.part[0].g;
	c->n_gwrite_rem = plan.nparts > 1 ? plan.part[1].g : 0;
	for (i = 0; i < plan.nparts; i++)
		c->partials += plan.part[i].chunks * plan.part[i].split;

	/* Energy: PIMFlow_ramulator's per-command model over every channel. */
	all_counts(&plan, &comp, &rr, &gw);
	c->energy_nj = (double)inst * (comp * pim_model_comp_nj(m) +
	    rr * m->e_sram_read_nj + gw * m->e_sram_write_nj) +
	    (double)c->st.ref * m->e_pre_nj * (double)m->banks * (double)nch;
	/*
	 * The hand-off: the piece's input crosses the DRAM I/O from the
	 * GPU's side into the PIM channels and its output back, once each
	 * (share/doc/energy.md).
	 */
	c->handoff_nj = ((double)l->in_bytes + (double)l->out_bytes) * 8.0 *
	    m->e_io_pj_per_bit / 1000.0;
	c->energy_nj += c->handoff_nj;
	c->static_w = (double)nch * m->static_mw_per_channel / 1000.0;

	/*
	 * -r: partial sums are read back and summed by the host over the
	 * PIM channels' external buses (n partials read, one result
	 * written per output), the activation applied in the same pass;
	 * without partials the activation is one column step per 16 outputs.
	 */
	if (o->reduce) {
		esz = dtype_bytes(l->dtype);
		outs = (double)gl.p * (double)gl.co * (double)inst;
		if (c->partials > 1) {
			bytes = (double)(c->partials + 1) * outs * esz;
			c->extra = (int64_t)ceil(bytes /
			    ((double)nch * m->bus_bytes_per_clk));
		} else if (strcmp(l->act, "none") != 0) {
			c->extra = (int64_t)ceil(outs / (double)(m->banks * nch)) *
			    m->t_act16;
		}
	}
	c->cycles = c->st.cycles + c->extra;
	c->ns = (double)c->cycles * 1000.0 / m->clock_mhz;
	ngen_free(&plan);
	return 0;
toolarge:
	pf_err(where, "shape too large to schedule on pim");
	return -1;
}

/* Row parameters: empty or absent columns take the options. */
static int
rowparam(const struct table *t, size_t row, long col, int64_t def,
    int64_t lo, int64_t hi, int64_t *v)
{
	if (col < 0) {
		*v = def;
		return 0;
	}
	if (table_int_opt(t, row, (size_t)col, def, v) < 0)
		return -1;
	if (*v < lo || *v > hi) {
		pf_errl(t->fname, table_line(t, row),
		    "column '%s': must be %lld to %lld, not '%s'", t->cols[col],
		    (long long)lo, (long long)hi, table_get(t, row, (size_t)col));
		return -1;
	}
	return 0;
}

int
pim_cost_table(const struct pim_model *m, struct table *t,
    const struct pim_opts *o, FILE *trace, int64_t *rows, int64_t *cmds)
{
	struct layer_cols lc;
	struct layer l;
	struct pim_cost *cost = NULL;
	long dev, cch, cgw, chd;
	size_t r, k, cyc, nsc;
	int64_t nch, gw, hid, nrows = 0, ncmd = 0;
	char *ispim = NULL, where[256];
	int rc = -1;

	if ((dev = table_col(t, "device")) < 0) {
		pf_errl(t->fname, 1, "missing column 'device'");
		return -1;
	}
	cch = table_col(t, "pim_channels");
	cgw = table_col(t, "pim_gwrite");
	chd = table_col(t, "pim_hiding");
	ispim = xcalloc(t->nrows + 1, 1);
	cost = xcalloc(t->nrows + 1, sizeof(*cost));
	for (r = 0; r < t->nrows; r++) {
		const char *d = table_get(t, r, (size_t)dev);

		if (strcmp(d, "pim") == 0)
			ispim[r] = 1;
		else if (strcmp(d, "gpu") != 0) {
			pf_errl(t->fname, table_line(t, r),
			    "column 'device': unknown device '%s'", d);
			goto out;
		}
	}
	for (r = 0; r < t->nrows; r++) {
		if (!ispim[r])
			continue;
		if (nrows == 0 && layer_cols_find(t, &lc) < 0)
			goto out;
		if (layer_get(t, &lc, r, &l) < 0 ||
		    rowparam(t, r, cch, o->channels, 1, 1 << 20, &nch) < 0 ||
		    rowparam(t, r, cgw, o->max_gwrite, 1, 1 << 20, &gw) < 0 ||
		    rowparam(t, r, chd, o->hiding, 0, 1, &hid) < 0)
			goto out;
		snprintf(where, sizeof(where), "%s:%ld", t->fname,
		    table_line(t, r));
		if (pim_cost_layer(m, &l, nch, gw, (int)hid, o, trace, where,
		    &cost[r]) < 0)
			goto out;
		nrows++;
		ncmd += cost[r].cmds;
	}
	cyc = table_addcol(t, "cycles");
	nsc = table_addcol(t, "ns");
	for (k = 0; pim_cols[k].name != NULL; k++)
		table_addcol(t, pim_cols[k].name);
	for (r = 0; r < t->nrows; r++) {
		const struct pim_cost *c = &cost[r];
		int64_t iv[] = { c->st.gwrite, c->st.gact, c->st.comp,
		    c->st.readres, c->st.ref, c->n_gwrite };

		if (!ispim[r])
			continue;
		table_setint(t, r, cyc, c->cycles);
		table_setns(t, r, nsc, c->ns);
		for (k = 0; k < 6; k++)
			table_setint(t, r, (size_t)table_col(t, pim_cols[k].name),
			    iv[k]);
		table_setf(t, r, (size_t)table_col(t, "energy_nj"), "%.3f",
		    c->energy_nj);
		table_setint(t, r, (size_t)table_col(t, "pim_gwrite_rem"),
		    c->n_gwrite_rem);
		table_setint(t, r, (size_t)table_col(t, "pim_partials"),
		    c->partials);
		table_setint(t, r, (size_t)table_col(t, "pim_extra_cycles"),
		    c->extra);
		table_setint(t, r, (size_t)table_col(t, "pim_channel"),
		    c->channel);
		table_setf(t, r, (size_t)table_col(t, "pim_handoff_nj"), "%.3f",
		    c->handoff_nj);
		table_setf(t, r, (size_t)table_col(t, "static_w"), "%.6f",
		    c->static_w);
	}
	if (rows != NULL)
		*rows = nrows;
	if (cmds != NULL)
		*cmds = ncmd;
	rc = 0;
out:
	free(ispim);
	free(cost);
	return rc;
}
