/*
 * The Newton engine of pim-cycles (newton_cost.h).  A piece is one GEMV
 * job (pim_gemv_map), possibly repeated: matmul -> gemm_batch such GEMVs
 * one after another; with per_group a grouped conv -> one GEMV per group,
 * groups spread over the channels, and so are the instances (requests x
 * key/value heads) of an attention matmul over a resident KV cache.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "memo.h"
#include "newton_cost.h"
#include "newton_gen.h"
#include "xalloc.h"

/* Columns, in the order newton_cost_engine.cost fills pim_out.v. */
static const struct pim_col cols[] = {
	{ "gwrite", "GWRITE commands of the simulated channel", PC_INT, NULL },
	{ "gact", "G_ACT commands (four per set) of the simulated channel",
	    PC_INT, NULL },
	{ "comp", "COMP commands of the simulated channel", PC_INT, NULL },
	{ "readres", "READRES commands of the simulated channel", PC_INT, NULL },
	{ "ref", "refreshes served while the simulated channel ran", PC_INT,
	    NULL },
	{ "n_gwrite", "n_gwrite chosen for the (first) part", PC_INT, NULL },
	{ "energy_nj", "energy of all PIM channels, published per-command "
	    "model, plus the hand-off (pim_handoff_nj)", PC_F3, NULL },
	{ "pim_gwrite_rem", "n_gwrite chosen for the remainder part (0: none)",
	    PC_INT, NULL },
	{ "pim_partials", "partial sums produced per output element", PC_INT,
	    NULL },
	{ "pim_extra_cycles", "reduction and activation clocks added by -r",
	    PC_INT, NULL },
	{ "pim_channel", "0-based PIM channel whose time is reported", PC_INT,
	    NULL },
	{ "pim_handoff_nj", "the piece's input and output bytes over the "
	    "DRAM I/O between GPU and PIM, at e_io_pj_per_bit", PC_F3, NULL },
	{ "static_w", "static power of the piece's PIM channels "
	    "(static_mw_per_channel each), charged by pf-solve over the plan",
	    PC_F6, NULL },
	{ "pim_append_cycles", "clocks of writing the new token's key or "
	    "value into the cache's packed layout (kv pieces; in cycles)",
	    PC_INT, NULL },
	{ NULL, NULL, PC_INT, NULL }
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
			nb = newton_gen_chan_blocks(pt, ch);
			if (nb == 0)
				continue;
			*gw += (double)nb;
			j = ch % pt->n;
			for (s = 0; s < newton_gen_chan_units(pt, ch, &last); s++) {
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

		if (newton_gen_chan_blocks(pt, a) != newton_gen_chan_blocks(pt, b) ||
		    newton_gen_chan_units(pt, a, &la) != newton_gen_chan_units(pt, b, &lb) ||
		    la != lb)
			return 0;
	}
	return 1;
}

/*
 * Time channel ch; -1 (no report) when exact (-E) and its stream has more
 * than PIM_MAX_CMDS commands: issuing every command takes time in
 * proportion to the stream, so a piece past the bound is refused rather
 * than run for hours.  The default timing adds repeating periods in
 * closed form (newton_time.c) and takes any stream whose cycles fit in
 * 64 bits (-2, no report, past that), but for a refresh period of
 * NT_MAXPHASE or more, which keeps the bound.
 */
static int
time_channel(const struct pim_model *m, const struct ngen_plan *p, int64_t ch,
    int hiding, int64_t repeat, int exact, struct nt_stats *st)
{
	struct ngen_chblock cb[2];
	struct nt_seg seg[2];
	double cmds = 0;
	int i, rc = 0;

	for (i = 0; i < p->nparts; i++) {
		newton_gen_chan_block(&p->part[i], ch, &cb[i]);
		seg[i].b = &cb[i].b;
		seg[i].count = newton_gen_chan_blocks(&p->part[i], ch);
		cmds += (double)seg[i].count * (double)newton_time_block_cmds(seg[i].b);
	}
	if ((exact || m->t_refi >= NT_MAXPHASE) &&
	    cmds * (double)repeat > PIM_MAX_CMDS)
		rc = -1;
	else {
		newton_time_run(m, hiding, seg, (size_t)p->nparts, repeat, exact, st);
		if (st->cycles < 0)
			rc = -2;
	}
	for (i = 0; i < p->nparts; i++)
		newton_gen_chblock_free(&cb[i]);
	return rc;
}

/*
 * Time channel 0, or every distinct channel stream with -a; keep the
 * slowest.  -1 when a stream is past PIM_MAX_CMDS.
 */
static int
eval_plan(const struct pim_model *m, const struct ngen_plan *plan,
    const struct pim_opts *o, int hiding, int64_t repeat,
    struct newton_cost *c)
{
	struct nt_stats st;
	int64_t ch, prev;
	int rc;

	c->st.cycles = -1;
	for (ch = 0; ch < (o->all ? plan->nch : 1); ch++) {
		for (prev = 0; prev < ch; prev++)
			if (same_stream(plan, prev, ch))
				break;
		if (prev < ch)
			continue;
		if ((rc = time_channel(m, plan, ch, hiding, repeat, o->exact,
		    &st)) < 0)
			return rc;
		c->cmds += st.gwrite + st.gact + st.comp + st.readres;
		if (st.cycles > c->st.cycles) {
			c->st = st;
			c->channel = ch;
		}
	}
	return 0;
}

/*
 * The append of the new token to a resident KV cache (pim-cycles(1)):
 * its key (value) of d elements per instance written into the packed
 * layout with the model's row and column timings: on a channel each
 * row set opened as a G_ACT set (3 tFAW + tRCD), one column write per
 * comp_elems elements at tCCD_S, then a precharge (tRP); an instance's
 * channels work in parallel, rounds of instances one after another.
 * A key is one output, so its d elements and their qpb copies go into
 * one row of one bank; a value adds one context position to each of
 * the d value dims, one column per dim and copy, spread over the banks'
 * rows and the instance's channels.  *bytes: the columns' data.
 */
static int64_t
append_cycles(const struct pim_model *m, const struct layer *l,
    const struct ngen_layer *gl, int64_t jnch, int64_t repeat,
    double *bytes)
{
	int64_t d = pim_kv_append(l), e = m->comp_elems, gb = m->gbuf_elems;
	int64_t len, seg, sets, cols, kpr = 1, copies = 1;
	int64_t hpr = gl->hpr > 1 ? gl->hpr : 1;
	struct ngen_pack k;

	*bytes = 0;
	if (d == 0)
		return 0;
	len = ceil_div(gl->g.ci, e) * e;
	/* the segment the new position lands in: the last one */
	seg = len <= gb ? len : len % gb;
	if (seg > 0) {
		newton_gen_kv_pack(m, seg, gl->g.p, gl->g.co, &k);
		kpr = k.kpr;
		copies = k.qpb;
	}
	if (l->kv_seq == 'n') {
		sets = 1;
		cols = ceil_div(d, e) * copies * hpr;
	} else {
		sets = ceil_div(ceil_div(ceil_div(d, m->banks), kpr), jnch);
		cols = ceil_div(d * copies * hpr, jnch);
	}
	*bytes = (double)d * (double)copies * (double)l->gemm_batch *
	    (double)layer_dtype_bytes(l->dtype);
	return repeat * (sets * (3 * m->t_faw + m->t_rcd) + cols * m->t_ccd_s +
	    m->t_rp);
}

/*
 * What the schedule and the timing of a GEMV job give, and all they
 * depend on (its geometry, the channels, n_gwrite bound, hiding, the
 * repetitions and the options that change them): rows of other layers
 * mapping to the same job share them (struct newton_state's memo).
 */
struct plan_key {
	struct ngen_layer	gl;
	int64_t			jnch, max_gw, repeat;
	int			hiding, all, exact, best;
};

/*
 * What they give: in c the timing (st, channel, cmds), the n_gwrite
 * chosen and the partial sums, the rest of c 0; all channels' counts
 * (energy).
 */
struct plan_res {
	struct newton_cost	c;
	double			comp, rr, gw;
};

/* Schedule and time; 0, -3 too large to schedule, or eval_plan's -1/-2. */
static int
plan_cost(const struct pim_model *m, const struct ngen_layer *gl,
    int64_t jnch, int64_t max_gw, int hiding, int64_t repeat,
    const struct pim_opts *o, const char *where, struct plan_res *pr)
{
	struct ngen_plan plan;
	struct newton_cost cc, *c = &cc;
	FILE *trace = o->trace;
	int64_t ch;
	int i, toobig_rc;

	memset(&cc, 0, sizeof(cc));
	if (newton_gen_build(m, gl, jnch, max_gw, &plan) < 0)
		return -3;
	if ((toobig_rc = eval_plan(m, &plan, o, hiding, repeat, c)) < 0) {
		newton_gen_free(&plan);
		return toobig_rc;
	}
	if (o->best) {
		/* -b: every n_gwrite pair, keep the fewest cycles (ties: published). */
		struct ngen_plan alt;
		struct newton_cost ac;
		int64_t g0, g1;

		for (g0 = 1; g0 <= max_gw && g0 <= jnch; g0 *= 2)
			for (g1 = 1; g1 <= (plan.nparts > 1 ? max_gw : 1) &&
			    g1 <= jnch; g1 *= 2) {
				if (newton_gen_build_pick(m, gl, jnch, max_gw, g0,
				    plan.nparts > 1 ? g1 : 0, &alt) < 0)
					continue;
				memset(&ac, 0, sizeof(ac));
				if ((toobig_rc = eval_plan(m, &alt, o, hiding,
				    repeat, &ac)) < 0) {
					newton_gen_free(&alt);
					newton_gen_free(&plan);
					return toobig_rc;
				}
				c->cmds += ac.cmds;
				if (ac.st.cycles < c->st.cycles) {
					ac.cmds = c->cmds;
					*c = ac;
					newton_gen_free(&plan);
					plan = alt;
				} else {
					newton_gen_free(&alt);
				}
			}
	}
	if (trace != NULL)
		for (ch = 0; ch < (o->all ? jnch : 1); ch++) {
			fprintf(trace, "# %s channel %lld\n", where, (long long)ch);
			newton_gen_write_trace(trace, &plan, ch, repeat);
		}
	memset(pr, 0, sizeof(*pr));
	/* eval_plan sets the timing alone */
	pr->c = *c;
	pr->c.n_gwrite = plan.part[0].g;
	pr->c.n_gwrite_rem = plan.nparts > 1 ? plan.part[1].g : 0;
	for (i = 0; i < plan.nparts; i++)
		pr->c.partials += plan.part[i].chunks * plan.part[i].split;
	/* Energy: PIMFlow_ramulator's per-command model over every channel. */
	all_counts(&plan, &pr->comp, &pr->rr, &pr->gw);
	newton_gen_free(&plan);
	return 0;
}

/*
 * A piece as the GEMV job the schedule runs: its geometry (a KV cache's
 * packed layout), *inst the instances, *jnch the channels of one, and
 * *repeat the runs one after another.
 */
static int
job_map(const struct pim_model *m, const struct layer *l, int64_t nch,
    const struct pim_opts *o, const char *where, struct pim_gemv *g,
    struct ngen_layer *gl, int64_t *inst, int64_t *jnch, int64_t *repeat)
{
	struct ngen_pack pk;
	int64_t len;

	memset(gl, 0, sizeof(*gl));
	if (pim_gemv_map(l, o->per_group, where, g) < 0)
		return -1;
	/* the generator plans one instance; the count stays in *inst */
	gl->g = *g;
	gl->g.inst = 1;
	*inst = g->inst;
	if (layer_is_kv(l)) {
		/*
		 * A KV cache's layout is ours: the row's segments hold
		 * distinct keys (value dims), and heads share a row when
		 * segments are left over (newton_gen_kv_pack, pim-cycles(1)).
		 */
		gl->packed = 1;
		gl->hpr = 1;
		len = ceil_div(g->ci, m->comp_elems) * m->comp_elems;
		if (len <= m->gbuf_elems) {
			newton_gen_kv_pack(m, len, g->p, g->co, &pk);
			gl->hpr = pk.hpr < *inst ? pk.hpr : *inst;
			*inst = ceil_div(*inst, gl->hpr);
		}
	}
	/*
	 * matmul heads one after another; but a KV cache is laid out by us:
	 * each instance's keys (values) in its own channels, like groups
	 */
	*repeat = 1;
	*jnch = nch;
	if (l->op != OP_CONV && !layer_is_kv(l))
		*repeat = *inst;
	else if (*inst > 1 && *inst >= nch) {
		*jnch = 1;		/* groups spread over the channels */
		*repeat = ceil_div(*inst, nch);
	} else if (*inst > 1)
		*jnch = nch / *inst;
	return 0;
}

/* plan_cost through the memo by plan_key (NULL, or a trace: none). */
static int
job_plan(const struct pim_model *m, struct memo *memo,
    const struct ngen_layer *gl, int64_t jnch, int64_t max_gw, int hiding,
    int64_t repeat, const struct pim_opts *o, const char *where,
    struct plan_res *pr)
{
	struct plan_key key;
	const struct plan_res *hit;
	int rc;

	/* a trace needs every row's streams */
	if (memo == NULL || o->trace != NULL)
		return plan_cost(m, gl, jnch, max_gw, hiding, repeat, o, where,
		    pr);
	/* cleared first: equal jobs give equal bytes */
	memset(&key, 0, sizeof(key));
	memcpy(&key.gl, gl, sizeof(*gl));
	key.jnch = jnch;
	key.max_gw = max_gw;
	key.repeat = repeat;
	key.hiding = hiding;
	key.all = o->all;
	key.exact = o->exact;
	key.best = o->best;
	if ((hit = memo_get(memo, &key)) != NULL) {
		*pr = *hit;
		return 0;
	}
	if ((rc = plan_cost(m, gl, jnch, max_gw, hiding, repeat, o, where,
	    pr)) < 0)
		return rc;
	memo_put(memo, &key, pr);
	return 0;
}

/* Why job_plan failed (its rc), reported at where. */
static void
job_error(const char *where, int rc)
{
	if (rc == -3)
		pf_err(where, "shape too large to schedule on pim");
	else if (rc == -2)
		pf_err(where, "a channel's cycle count passes 64 bits; split the "
		    "piece or lower the batch");
	else
		pf_err(where, "a channel's stream has more than %.0f PIM "
		    "commands, the most pim-cycles issues one by one (a few "
		    "seconds: with -E, or t_refi %d or more); split the piece "
		    "or lower the batch", PIM_MAX_CMDS, NT_MAXPHASE);
}

/*
 * The energy of inst instances of the job over nch channels, and the
 * hand-off: the piece's input crosses the DRAM I/O from the GPU's side
 * into the PIM channels and its output back, once each, and so does a
 * KV append (share/doc/energy.md), whose clocks c->append takes.
 */
static void
job_energy(const struct pim_model *m, const struct layer *l,
    const struct ngen_layer *gl, const struct plan_res *pr, int64_t inst,
    int64_t nch, int64_t jnch, int64_t repeat, struct newton_cost *c)
{
	double abytes;

	c->energy_nj = (double)inst * (pr->comp * pim_model_comp_nj(m) +
	    pr->rr * m->e_sram_read_nj + pr->gw * m->e_sram_write_nj) +
	    (double)c->st.ref * m->e_pre_nj * (double)m->banks * (double)nch;
	c->append = append_cycles(m, l, gl, jnch, repeat, &abytes);
	c->handoff_nj = ((double)l->in_bytes + (double)l->out_bytes + abytes) *
	    8.0 * m->e_io_pj_per_bit / 1000.0;
	c->energy_nj += c->handoff_nj;
	c->static_w = (double)nch * m->static_mw_per_channel / 1000.0;
}

/*
 * -r: partial sums are read back and summed by the host over the PIM
 * channels' external buses (n partials read, one result written per
 * output), the activation applied in the same pass; without partials the
 * activation is one column step per 16 outputs.  outs: the piece's
 * outputs.
 */
static int64_t
reduce_cycles(const struct pim_model *m, const struct layer *l, double outs,
    int64_t partials, int64_t nch)
{
	double bytes;
	int esz = layer_dtype_bytes(l->dtype);

	if (partials > 1) {
		bytes = (double)(partials + 1) * outs * esz;
		return (int64_t)ceil(bytes / ((double)nch *
		    m->bus_bytes_per_clk));
	}
	if (strcmp(l->act, "none") != 0)
		return (int64_t)ceil(outs / (double)(m->banks * nch)) *
		    m->t_act16;
	return 0;
}

/* newton_cost_layer with a memo of plan_cost by plan_key (NULL: none). */
static int
cost_layer(const struct pim_model *m, struct memo *memo, const struct layer *l,
    int64_t nch, int64_t max_gw, int hiding, const struct pim_opts *o,
    const char *where, struct newton_cost *c)
{
	struct ngen_layer gl;
	struct pim_gemv g;
	struct plan_res pr;
	int64_t repeat, inst, jnch;
	int rc;

	memset(c, 0, sizeof(*c));
	if (job_map(m, l, nch, o, where, &g, &gl, &inst, &jnch, &repeat) < 0)
		return -1;
	if ((rc = job_plan(m, memo, &gl, jnch, max_gw, hiding, repeat, o,
	    where, &pr)) < 0) {
		job_error(where, rc);
		return -1;
	}
	*c = pr.c;
	job_energy(m, l, &gl, &pr, inst, nch, jnch, repeat, c);
	if (o->reduce)
		c->extra = reduce_cycles(m, l, (double)gl.g.p * (double)gl.g.co *
		    (double)g.inst, c->partials, nch);
	c->cycles = c->st.cycles + c->extra + c->append;
	c->ns = (double)c->cycles * 1000.0 / m->clock_mhz;
	return 0;
}

int
newton_cost_layer(const struct pim_model *m, const struct layer *l,
    int64_t nch, int64_t max_gw, int hiding, const struct pim_opts *o,
    const char *where, struct newton_cost *c)
{
	return cost_layer(m, NULL, l, nch, max_gw, hiding, o, where, c);
}

/* The engine state: the model, and the jobs costed so far. */
struct newton_state {
	struct pim_model	 m;
	struct memo		*plans;
};

static void *
engine_open(const char *path, struct pim_row *def)
{
	struct newton_state *st = xcalloc(1, sizeof(*st));
	struct pim_model *m = &st->m;

	if (pim_model_load(path, m) < 0) {
		free(st);
		return NULL;
	}
	st->plans = memo_new(sizeof(struct plan_key), sizeof(struct plan_res));
	def->channels = m->channels;
	def->max_gwrite = m->max_gwrite;
	def->hiding = m->hiding;
	def->dispatch_ns = m->dispatch_ns;
	def->sync_ns = m->handoff_sync_ns;
	/* the external bus of one channel, bytes per ns */
	def->link_bpns = m->bus_bytes_per_clk * m->clock_mhz / 1000.0;
	return st;
}

static void
engine_close(void *state)
{
	struct newton_state *st = state;

	memo_free(st->plans);
	free(st);
}

static int
engine_cost(void *state, const struct layer *l, const struct pim_row *p,
    const struct pim_opts *o, const char *where, struct pim_out *out)
{
	struct newton_state *st = state;
	struct newton_cost c;

	if (cost_layer(&st->m, st->plans, l, p->channels, p->max_gwrite,
	    p->hiding, o, where, &c) < 0)
		return -1;
	out->cycles = c.cycles;
	out->ns = c.ns;
	out->cmds = c.cmds;
	out->v[0].i = c.st.gwrite;
	out->v[1].i = c.st.gact;
	out->v[2].i = c.st.comp;
	out->v[3].i = c.st.readres;
	out->v[4].i = c.st.ref;
	out->v[5].i = c.n_gwrite;
	out->v[6].d = c.energy_nj;
	out->v[7].i = c.n_gwrite_rem;
	out->v[8].i = c.partials;
	out->v[9].i = c.extra;
	out->v[10].i = c.channel;
	out->v[11].d = c.handoff_nj;
	out->v[12].d = c.static_w;
	out->v[13].i = c.append;
	return 0;
}


/* The 16-bit floating-point dtypes the MAC lanes take. */
static const char *
refuse_dtype(void *state, const struct layer *l)
{
	(void)state;
	/*
	 * Each bank's 16 multipliers take 16-bit floating-point operands,
	 * 16 to a 32-byte column (share/doc/newton-timing.md §4-5,
	 * share/doc/devices.md §3.1, §3.4): fp32 does not fit the lanes,
	 * and int8 would have to be widened to 16 bits and summed in
	 * floating point, which is not the integer arithmetic a quantised
	 * layer asks for.
	 */
	if (strcmp(l->dtype, "fp16") == 0 || strcmp(l->dtype, "bf16") == 0)
		return NULL;
	return "the MAC lanes multiply 16-bit floating-point values (fp16 or "
	    "bf16) only; not PIM-eligible";
}

const struct pim_engine newton_cost_engine = {
	"newton", "abEGTgrx", cols, engine_open, engine_cost, engine_close,
	refuse_dtype
};
