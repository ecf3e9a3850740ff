/*
 * HBM2-PIM cost of a piece.  The mapping onto Samsung's kernels:
 *  - gemm/matmul/conv: the GEMV kernel with the resident operand (weights,
 *    or a KV cache) in the banks, out = gemm_n, in = gemm_k.  Each row of
 *    the streamed operand (gemm_m: the batch of a decode step, the output
 *    pixels of a conv) is one more kernel iteration, as the simulator
 *    runs batch > 1.  gemm_batch independent instances (heads) divide the
 *    channels among them: every channel runs the same command stream, so
 *    instances on disjoint channel groups run in lock step; more instances
 *    than channels run in rounds, one channel each.
 *  - eltwise: the ADD kernel (MUL has the same stream); act relu: ReLU.
 *    Element counts are padded up to whole tiles of 2048 x channels (the
 *    simulator's benchmark drops a remainder; a layer cannot).
 * The time of one channel depends only on the tile counts, so a run is
 * simulated once per (kernel, tiles, iterations) and remembered.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "hbmpim_cost.h"
#include "xalloc.h"

static const char *const kname[] = { "gemv", "gemv-tree", "add", "mul", "relu" };

/* Columns, in the order hbmpim_cost_engine.cost fills pim_out.v. */
static const struct pim_col cols[] = {
	{ "pim_kernel", "Samsung PIM kernel run: gemv, add or relu", PC_NAME,
	    kname },
	{ "pim_n_ot", "GEMV output tiles (8 x pim_blocks outputs per channel "
	    "each)", PC_INT, NULL },
	{ "pim_n_it", "GEMV input tiles (128 inputs each); 0 for eltwise",
	    PC_INT, NULL },
	{ "pim_iters", "kernel iterations: n_ot x rows (GEMV) or tiles (eltwise)",
	    PC_INT, NULL },
	{ "pim_chans", "PIM channels that one instance runs on", PC_INT, NULL },
	{ "pim_rounds", "instances run one after another", PC_INT, NULL },
	{ "pim_rd", "RD commands of one channel of one instance", PC_INT, NULL },
	{ "pim_wr", "WR commands of one channel of one instance", PC_INT, NULL },
	{ "pim_act", "ACT commands of one channel of one instance", PC_INT, NULL },
	{ "pim_pre", "PRE commands of one channel of one instance", PC_INT, NULL },
	{ "ref", "refreshes of rank 0 of one channel of one instance", PC_INT,
	    NULL },
	{ "pim_exact", "1: every clock simulated; 0: extrapolated past the budget",
	    PC_INT, NULL },
	{ "pim_append_cycles", "clocks of writing the new token's key or "
	    "value into the cache (kv pieces; in cycles)", PC_INT, NULL },
	{ "energy_nj", "energy of all the piece's PIM channels (per-command "
	    "model of share/doc/energy.md) plus the hand-off", PC_F3, NULL },
	{ "pim_handoff_nj", "the piece's input and output bytes (and a KV "
	    "append's) over the stack's I/O, at e_io_pj_per_bit", PC_F3, NULL },
	{ "static_w", "static power of the piece's PIM channels "
	    "(static_mw_per_channel each), charged by pf-solve over the plan",
	    PC_F6, NULL },
	{ NULL, NULL, PC_INT, NULL }
};


/*
 * --- the units of a channel (attach) ---------------------------------
 * Samsung's stream is the same for every unit count: each all-bank
 * column command drives every unit of the channel, each unit holding 8
 * outputs of a GEMV output tile (its GRF_B) and 16 lanes x 16 columns of
 * an eltwise tile.  So the tiles hold 8 x pim_blocks outputs (64 on
 * HBM2-PIM's 8 blocks, 128 on 16 bank-level units) and 256 x pim_blocks
 * elements per channel.
 */
static int64_t
gemv_ot(const struct hbmpim_model *m, int64_t out, int64_t chans)
{
	return ceil_div(out, 8 * (int64_t)m->e.pim_blocks * chans);
}

static int64_t
elt_tiles(const struct hbmpim_model *m, int64_t n, int64_t chans)
{
	return ceil_div(n, 256 * (int64_t)m->e.pim_blocks * chans);
}
/* --- end of the units of a channel ----------------------------------- */

/* Refresh-free clocks per iteration, an upper estimate for the budget. */
static int64_t
per_iter(enum hbmpim_kernel k, int64_t n_it)
{
	return k == HP_GEMV ? 420 + 390 * n_it : 330;
}

/* One run of iters iterations on one channel (hbmpim_pim's view). */
static int
run1(const struct hbmpim_dram *d, enum hbmpim_kernel k, int64_t n_it,
    int64_t iters, struct hbmpim_run *r)
{
	if (k == HP_GEMV)
		return hbmpim_pim(d, k, 64, 128 * n_it, iters, 1, r);
	return hbmpim_pim(d, k, 2048 * iters, 0, 1, 1, r);
}

static int
kernel_time(const struct hbmpim_dram *d, enum hbmpim_kernel k, int64_t n_it,
    int64_t iters, struct hbmpim_run *r, int *exact)
{
	struct hbmpim_run a, b;
	int64_t n1, n2, pi = per_iter(k, n_it);

	*exact = 1;
	if (iters <= HBMPIM_EXACT_CLOCKS / pi)
		return run1(d, k, n_it, iters, r);
	/*
	 * Past the budget: simulate n1 and n1/2 iterations and continue the
	 * slope (refresh included) to iters.  The kernels repeat one
	 * iteration's stream, so the slope is the steady rate.
	 */
	*exact = 0;
	n1 = HBMPIM_EXACT_CLOCKS / pi;
	if (n1 < 2)
		n1 = 2;
	n2 = n1 / 2;
	if (run1(d, k, n_it, n1, &a) < 0 || run1(d, k, n_it, n2, &b) < 0)
		return -1;
	*r = a;
	r->cycles = a.cycles + ((iters - n1) * (a.cycles - b.cycles) +
	    (n1 - n2) - 1) / (n1 - n2);
	/* the command counts (energy) continue the same slope */
	r->rd = a.rd + (iters - n1) * (a.rd - b.rd) / (n1 - n2);
	r->wr = a.wr + (iters - n1) * (a.wr - b.wr) / (n1 - n2);
	r->act = a.act + (iters - n1) * (a.act - b.act) / (n1 - n2);
	r->pre = a.pre + (iters - n1) * (a.pre - b.pre) / (n1 - n2);
	r->ref = a.ref + (iters - n1) * (a.ref - b.ref) / (n1 - n2);
	return 0;
}

static int
memo_time(const struct hbmpim_dram *d, struct hbmpim_memo *mo,
    enum hbmpim_kernel k, int64_t n_it, int64_t iters, struct hbmpim_run *r,
    int *exact)
{
	struct hbmpim_memo_ent *e;
	size_t i;

	if (mo == NULL)
		return kernel_time(d, k, n_it, iters, r, exact);
	for (i = 0; i < mo->n; i++)
		if (mo->v[i].k == k && mo->v[i].n_it == n_it &&
		    mo->v[i].iters == iters) {
			*r = mo->v[i].run;
			*exact = mo->v[i].exact;
			return 0;
		}
	if (kernel_time(d, k, n_it, iters, r, exact) < 0)
		return -1;
	if (mo->n == mo->cap) {
		mo->cap = mo->cap ? 2 * mo->cap : 64;
		mo->v = xreallocarray(mo->v, mo->cap, sizeof(*mo->v));
	}
	e = &mo->v[mo->n++];
	e->k = k;
	e->n_it = n_it;
	e->iters = iters;
	e->run = *r;
	e->exact = *exact;
	return 0;
}

/*
 * Energy (share/doc/energy.md): runs channel runs of the stream counted
 * in c->run, every ACT, RD and WR a HAB-mode command reaching pim_blocks
 * banks (an RD also their lanes' multiply-add), every REF the refresh
 * energy; abursts single-bank writes of a KV append; pbits of partial sums
 * read out beyond the output (a KV cache's context split); the hand-off of the
 * piece's input and output (and the append's data) over the I/O.
 */
static void
energy(const struct hbmpim_model *m, const struct layer *l,
    struct hbmpim_cost *c, double runs, double abursts, double pbits,
    int64_t nch)
{
	const struct hbmpim_energy *e = &m->e;
	double ch, bits;

	ch = (double)c->run.act * e->pim_blocks * e->e_act_pj +
	    (double)c->run.rd * e->pim_blocks * (e->e_rd_pj +
	    e->pim_lanes * (e->e_mul_pj + e->e_add_pj)) +
	    (double)c->run.wr * e->pim_blocks * e->e_wr_pj +
	    (double)c->run.ref * e->e_ref_pj;
	bits = ((double)l->in_bytes + (double)l->out_bytes +
	    abursts * (double)m->dram.burst_bytes) * 8.0 + pbits;
	c->handoff_nj = bits * e->e_io_pj_per_bit / 1000.0;
	c->energy_nj = (runs * ch + abursts * e->e_wr_pj) / 1000.0 +
	    c->handoff_nj;
	c->static_w = (double)nch * e->static_mw_per_channel / 1000.0;
}

/*
 * The piece as a kernel (c->kernel): *out outputs (elements of an
 * eltwise), *in inputs, *rows streamed rows, *inst instances.  -1 after
 * reporting a piece the device cannot run, -2 (no report) when too large.
 */
static int
piece_map(const struct layer *l, const char *where, struct hbmpim_cost *c,
    int64_t *out, int64_t *in, int64_t *rows, int64_t *inst)
{
	struct pim_gemv g;
	int64_t v[4], n;
	int esz;

	switch (l->op) {
	case OP_CONV:
	case OP_GEMM:
	case OP_MATMUL:
		/* the gemm view: a grouped conv's groups are instances */
		if (pim_gemv_map(l, 1, where, &g) < 0)
			return -1;
		v[0] = g.ci; v[1] = g.kh; v[2] = g.kw;
		if (ck_prod(v, 3, in) < 0)
			return -2;
		c->kernel = HP_GEMV;
		*out = g.co;
		*rows = g.p;
		*inst = g.inst;
		return 0;
	case OP_ELTWISE:
	case OP_ACT:
		if (l->op == OP_ACT && strcmp(l->act, "relu") != 0) {
			pf_err(where, "column 'act': activation '%s' cannot run "
			    "on hbm-pim (relu only)", l->act);
			return -1;
		}
		c->kernel = l->op == OP_ACT ? HP_RELU : HP_ADD;
		/* fp16 lanes (other dtypes are refused, engine_refuse) */
		esz = layer_dtype_bytes(l->dtype);
		v[0] = l->batch; v[1] = l->out_c; v[2] = l->out_h;
		v[3] = l->out_w;
		if (ck_prod(v, 4, &n) < 0 || n > ((int64_t)1 << 40))
			return -2;
		*out = (n * (esz > 2 ? esz : 2) + 1) / 2;
		*in = 0;
		*rows = 1;
		*inst = 1;
		return 0;
	default:
		pf_err(where, "column 'op': op '%s' cannot run on hbm-pim",
		    layer_opname(l->op));
		return -1;
	}
}

/*
 * The iterations of one channel (c->iters, and a GEMV's c->n_ot and
 * c->n_it) once c->chans is known; *split: the channels of an instance
 * that share its context.  -1 when too large.
 */
static int
piece_iters(const struct hbmpim_model *m, const struct layer *l,
    struct hbmpim_cost *c, int64_t out, int64_t in, int64_t rows,
    int64_t *split)
{
	*split = 1;
	if (c->kernel != HP_GEMV) {
		c->iters = elt_tiles(m, out, c->chans);
		return 0;
	}
	/*
	 * A KV cache's layout is ours (pim-cycles(1) HBM-PIM mapping): the
	 * channels of an instance that its output tiles leave idle (a
	 * key/value head of few outputs: p.V's head_dim) hold a part of its
	 * context each; every channel runs the group's rows over its part
	 * and the partial sums are read out.  attach: units per channel
	 * (pim_blocks) size the tiles.
	 */
	if (layer_is_kv(l) && gemv_ot(m, out, 1) < c->chans)
		*split = c->chans / gemv_ot(m, out, 1);
	c->n_ot = gemv_ot(m, out, c->chans / *split);
	c->n_it = hbmpim_gemv_it(ceil_div(in, *split));
	if (c->n_ot > ((int64_t)1 << 40) / rows ||
	    c->n_it * c->n_ot + 2 >= 4 * 0x1000)
		return -1;
	c->iters = c->n_ot * rows;
	return 0;
}

/*
 * A context split's partial sums read out of each channel, a burst every
 * bl/2 clocks, into c->cycles; *pbits: their bits beyond the output.  -1
 * when too large.
 */
static int
split_readout(const struct hbmpim_model *m, const struct layer *l,
    struct hbmpim_cost *c, int64_t out, int64_t rows, int64_t inst,
    int64_t split, double *pbits)
{
	int64_t v[2], n;

	v[1] = 8 * (int64_t)m->e.pim_blocks * c->n_ot;
	v[0] = out < v[1] ? out : v[1];
	if (ck_mul(v[0], rows, &n) < 0 ||
	    ck_mul(n, layer_dtype_bytes(l->dtype), &n) < 0)
		return -1;
	n = ceil_div(n, m->dram.burst_bytes);
	*pbits = (double)(split - 1) * (double)inst * (double)n *
	    (double)m->dram.burst_bytes * 8.0;
	c->cycles += c->rounds * n * (m->dram.bl / 2);
	return 0;
}

/*
 * The KV append (pim-cycles(1)) of d elements into c->append and
 * c->cycles: a new key is one output, its d elements in consecutive
 * bursts of the one channel that holds it; a new value adds one input
 * position to each of the d outputs, one burst each, spread over the
 * instance's channels.  Plain writes through the simulated controller,
 * rounds one after another; *abursts: the single-bank writes.  -1 when
 * too large.
 */
static int
kv_append(const struct hbmpim_model *m, const struct layer *l, int64_t d,
    int64_t inst, struct hbmpim_cost *c, double *abursts)
{
	struct hbmpim_run w;
	int esz = layer_dtype_bytes(l->dtype);
	int64_t n;

	n = l->kv_seq == 'n' ? ceil_div(d * esz, m->dram.burst_bytes) :
	    ceil_div(d, c->chans);
	if (hbmpim_write(&m->dram, n, &w) < 0)
		return -1;
	c->append = c->rounds * w.cycles;
	c->cycles += c->append;
	/* every write is one bank's column, its data over the I/O */
	*abursts = (double)inst * (double)n *
	    (double)(l->kv_seq == 'n' ? 1 : c->chans);
	return 0;
}

int
hbmpim_cost_layer(const struct hbmpim_model *m, const struct layer *l,
    int64_t nch, struct hbmpim_memo *memo, const char *where,
    struct hbmpim_cost *c)
{
	int64_t out, in, rows, inst, d, split;
	double abursts = 0, pbits = 0;
	int rc;

	memset(c, 0, sizeof(*c));
	if ((rc = piece_map(l, where, c, &out, &in, &rows, &inst)) == -1)
		return -1;
	if (rc < 0)
		goto toolarge;
	if (inst <= nch) {
		c->chans = nch / inst;
		c->rounds = 1;
	} else {
		c->chans = 1;
		c->rounds = (inst + nch - 1) / nch;
	}
	if (piece_iters(m, l, c, out, in, rows, &split) < 0 ||
	    memo_time(&m->dram, memo, c->kernel, c->n_it, c->iters, &c->run,
	    &c->exact) < 0 || c->run.cycles > INT64_MAX / c->rounds)
		goto toolarge;
	c->cycles = c->rounds * c->run.cycles;
	if (split > 1 && split_readout(m, l, c, out, rows, inst, split,
	    &pbits) < 0)
		goto toolarge;
	if ((d = pim_kv_append(l)) > 0 && kv_append(m, l, d, inst, c,
	    &abursts) < 0)
		goto toolarge;
	energy(m, l, c, (double)inst * (double)c->chans, abursts, pbits, nch);
	c->ns = (double)c->cycles * 1000.0 / m->clock_mhz;
	return 0;
toolarge:
	pf_err(where, "shape too large to schedule on hbm-pim");
	return -1;
}

/* The engine state: the model and the runs already simulated. */
struct state {
	struct hbmpim_model	m;
	struct hbmpim_memo	memo;
};

static void *
engine_open(const char *path, struct pim_row *def)
{
	struct state *st = xcalloc(1, sizeof(*st));

	if (hbmpim_model_load(path, &st->m) < 0) {
		free(st);
		return NULL;
	}
	def->channels = st->m.channels;
	def->max_gwrite = 1;	/* no GWRITE groups: the columns are ignored */
	def->hiding = 0;
	def->dispatch_ns = st->m.dispatch_ns;
	def->sync_ns = st->m.handoff_sync_ns;
	/* a column access (burst_bytes) every bl/2 clocks on one channel */
	def->link_bpns = (double)st->m.dram.burst_bytes /
	    ((double)st->m.dram.bl / 2.0) * st->m.clock_mhz / 1000.0;
	/* attach: an added device's link to the GPU (GB/s = B/ns) */
	def->link_cap_bpns = st->m.attach_link_gbs;
	return st;
}

static int
engine_cost(void *state, const struct layer *l, const struct pim_row *p,
    const struct pim_opts *o, const char *where, struct pim_out *out)
{
	struct state *st = state;
	struct hbmpim_cost c;
	int64_t iv[13];
	size_t k;


	(void)o;
	if (hbmpim_cost_layer(&st->m, l, p->channels, &st->memo, where,
	    &c) < 0)
		return -1;
	out->cycles = c.cycles;
	out->ns = c.ns;
	iv[0] = c.kernel; iv[1] = c.n_ot; iv[2] = c.n_it; iv[3] = c.iters;
	iv[4] = c.chans; iv[5] = c.rounds; iv[6] = c.run.rd;
	iv[7] = c.run.wr; iv[8] = c.run.act; iv[9] = c.run.pre;
	iv[10] = c.run.ref; iv[11] = c.exact; iv[12] = c.append;
	for (k = 0; k < 13; k++)
		out->v[k].i = iv[k];
	out->v[13].d = c.energy_nj;
	out->v[14].d = c.handoff_nj;
	out->v[15].d = c.static_w;
	return 0;
}

static void
engine_close(void *state)
{
	struct state *st = state;

	if (st != NULL)
		free(st->memo.v);
	free(st);
}

/*
 * The PIM blocks' SIMD lanes are FP16 (share/doc/devices.md §3.5, 16-lane
 * FP16 ADD/MUL/MAC/MAD): fp16 layers only.
 */
static const char *
engine_refuse(void *state, const struct layer *l)
{
	(void)state;
	if (strcmp(l->dtype, "fp16") == 0)
		return NULL;
	return "the PIM blocks' SIMD lanes are FP16 only; not PIM-eligible";
}

const struct pim_engine hbmpim_cost_engine = {
	"hbm-pim", "", cols, engine_open, engine_cost, engine_close,
	engine_refuse
};
