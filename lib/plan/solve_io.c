/*
 * pf-solve's tables (solve_io.h): layers in, the policies solved, plan
 * and summary out; costs.csv is read by solve_costs.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "jsonw.h"
#include "solve_band.h"
#include "solve_merge_ns.h"
#include "solve_io.h"
#include "task.h"
#include "xalloc.h"

/*
 * The plan's columns (pf-formats(7)), in order, each set by its name's
 * index; costed comes last, and only when some layer was costed by its
 * bytes alone.
 */
enum {
	PC_LAYER, PC_NAME, PC_OP, PC_KIND, PC_AXIS, PC_RATIO, PC_SEGMENT,
	PC_GPU_NS, PC_PIM_NS, PC_NS, PC_BASE_NS, PC_ENERGY, PC_OBJECTIVE,
	PC_HANDOFF, PC_ALIGN, PC_COSTED, PC_NCOL
};

static const char *const plancols[PC_NCOL] = {
	[PC_LAYER] = "layer", [PC_NAME] = "name", [PC_OP] = "op",
	[PC_KIND] = "kind", [PC_AXIS] = "axis", [PC_RATIO] = "ratio",
	[PC_SEGMENT] = "segment", [PC_GPU_NS] = "gpu_ns",
	[PC_PIM_NS] = "pim_ns", [PC_NS] = "ns", [PC_BASE_NS] = "base_ns",
	[PC_ENERGY] = "energy_nj", [PC_OBJECTIVE] = "objective",
	[PC_HANDOFF] = "handoff_ns", [PC_ALIGN] = "align_only",
	[PC_COSTED] = "costed"
};

void
solve_io_in_init(struct solve_in *in)
{
	memset(in, 0, sizeof(*in));
	in->nlayers = -1;
	in->ids.chunk = 1024 * 1024;
}

void
solve_io_in_free(struct solve_in *in)
{
	size_t i;
	int64_t j;

	/* (a loop over a million candidates was a tenth of the time after
	   the input ended) */
	for (i = in->nread; i < in->nc; i++) {
		free(in->c[i].id);
		free(in->c[i].dev);
	}
	textpool_free(&in->ids);
	free(in->c);
	for (j = 0; in->names != NULL && j < in->nlayers; j++) {
		free(in->names[j]);
		free(in->ops[j]);
		free(in->preds[j]);
	}
	free(in->names);
	free(in->ops);
	free(in->preds);
	free(in->npreds);
	free(in->base_ps);
	free(in->base_tensor);
	free(in->kv);
	free(in->bytes_only);
	solve_stream_free(in->ss);
	solve_io_in_init(in);
}

int
solve_io_read_layers(const struct table *t, struct solve_in *in)
{
	static const char *const cols[] = { "layer", "name", "op", "preds",
	    NULL };
	long c[4], rcol = csvio_col(t, "resident"), bcol = csvio_col(t, "batch");
	long ccol = csvio_col(t, "costed");
	size_t i, n = t->nrows;
	int64_t v;

	if (csvio_need(t, cols, c) < 0)
		return -1;
	if (in->cap != NULL && capacity_read_layers(t, in->cap) < 0)
		return -1;
	in->nlayers = (int64_t)n;
	in->kv = xcalloc(n + 1, 1);
	for (i = 0; rcol >= 0 && i < n; i++)
		if (strcmp(csvio_get(t, i, (size_t)rcol), "kv") == 0 &&
		    strcmp(csvio_get(t, i, (size_t)c[2]), "matmul") == 0)
			in->kv[i] = 1, in->have_kv = 1;
	/* an op onnx2layers does not know, kept with -k (costed = bytes) */
	if (ccol >= 0) {
		in->bytes_only = xcalloc(n + 1, 1);
		for (i = 0; i < n; i++)
			if (strcmp(csvio_get(t, i, (size_t)ccol), "bytes") == 0)
				in->bytes_only[i] = 1, in->nbytes_only++;
	}
	in->tokens = 1;
	if (bcol >= 0 && n > 0 && (csvio_int(t, 0, (size_t)bcol, &v) < 0 ||
	    v < 1))
		return -1;
	if (bcol >= 0 && n > 0)
		in->tokens = v;
	in->names = xcalloc(n + 1, sizeof(char *));
	in->ops = xcalloc(n + 1, sizeof(char *));
	in->preds = xcalloc(n + 1, sizeof(int64_t *));
	in->npreds = xcalloc(n + 1, sizeof(int));
	for (i = 0; i < n; i++) {
		const char *s = csvio_get(t, i, (size_t)c[3]);
		char *buf, *p, *save = NULL;

		in->names[i] = xstrdup(csvio_get(t, i, (size_t)c[1]));
		in->ops[i] = xstrdup(csvio_get(t, i, (size_t)c[2]));
		in->preds[i] = xcalloc(strlen(s) / 2 + 1, sizeof(int64_t));
		if (csvio_int(t, i, (size_t)c[0], &v) < 0)
			return -1;
		if (v != (int64_t)i) {
			pf_errl(t->fname, csvio_line(t, i),
			    "column 'layer': expected %zu, not '%s'", i,
			    csvio_get(t, i, (size_t)c[0]));
			return -1;
		}
		buf = xstrdup(s);
		for (p = strtok_r(buf, " ", &save); p != NULL;
		    p = strtok_r(NULL, " ", &save)) {
			if (csvio_parse_int64(p, &v) < 0 || v < 0 || v >= (int64_t)i) {
				pf_errl(t->fname, csvio_line(t, i),
				    "column 'preds': bad producer '%s'", p);
				free(buf);
				return -1;
			}
			in->preds[i][in->npreds[i]++] = v;
		}
		free(buf);
	}
	return 0;
}

/* Static share of a plan's energy. */
static long long
plan_static(const struct solve_in *in, const struct plan *pl)
{
	long long s = 0;
	size_t k;

	for (k = 0; k < pl->nseg; k++)
		s += in->c[pl->seg[k]].static_pj + (pl->hpj != NULL ?
		    pl->hpj[k] : 0);
	return s;
}

/* The layer counts of a solved plan. */
static void
count_layers(const struct solve_in *in, const struct plan *pl,
    struct solve_result *r)
{
	size_t k;
	int64_t j;

	for (k = 0; k < K_NKIND; k++)
		r->layers[k] = 0;
	r->attn_ps = r->fc_ps = r->rest_ps = 0;
	r->static_pj = plan_static(in, pl);
	for (k = 0; k < pl->nseg; k++) {
		const struct cand *x = &in->c[pl->seg[k]];
		int fc = in->ops != NULL;

		for (j = x->first; fc && j <= x->last; j++)
			fc = strcmp(in->ops[j], "gemm") == 0;
		long long ps = x->ps + (pl->hps != NULL ? pl->hps[k] : 0);

		if (x->kv)
			r->attn_ps += ps;
		else if (fc)
			r->fc_ps += ps;
		else
			r->rest_ps += ps;

		for (j = x->first; j <= x->last; j++)
			r->layers[x->kind == K_DAG ?
			    (x->dev[j - x->first] ? K_PIM : K_GPU) :
			    x->kind]++;
	}
}

/*
 * solve_dp_order's answer: from what was solved as the costs were read
 * (in->ss) when that has it, else over the candidates sorted once (*so,
 * made at the first need).
 */
static int
dp(const struct solve_in *in, struct solve_order **so, enum policy p,
    const struct objective *o, struct plan *pl, int64_t *bad, int64_t *stuck)
{
	int rc = solve_stream_plan(in->ss, in->c, in->nc, in->nlayers, p, o,
	    pl, bad, stuck);

	if (rc != SOLVE_STREAM_NONE)
		return rc;
	if (*so == NULL)
		*so = solve_order_new(in->c, in->nc, in->nlayers);
	return solve_dp_order(*so, p, o, pl, bad, stuck);
}

/* solve_io_policy with the candidates sorted at most once (dp). */
static int
policy_of(const struct solve_in *in, struct solve_order **so,
    enum policy p, const struct objective *o, struct plan *pl,
    struct solve_result *r)
{
	int64_t bad, stuck;
	int rc;

	memset(r, 0, sizeof(*r));
	rc = dp(in, so, p, o, pl, &bad, &stuck);
	if (rc == -2) {
		struct objective u = *o;

		pf_warn(in->fname, "policy '%s': no plan keeps the power cap "
		    "of %.3f W; its best plan without the cap is reported",
		    policy_name(p), (double)o->cap_mw / 1000.0);
		u.cap_mw = 0;
		r->over_cap = 1;
		rc = dp(in, so, p, &u, pl, &bad, &stuck);
	}
	if (rc < 0) {
		if (rc == -3)
			pf_err(in->fname, "policy '%s': a plan's total "
			    "overflows 64 bits", policy_name(p));
		else if (bad >= 0)
			pf_err(in->fname, "policy '%s': no candidate covers "
			    "layer %lld%s%s%s", policy_name(p), (long long)bad,
			    in->names ? " '" : "", in->names ?
			    in->names[bad] : "", in->names ? "'" : "");
		else
			pf_err(in->fname, "policy '%s': no sequence of "
			    "candidates covers the layers past layer %lld "
			    "exactly once", policy_name(p), (long long)stuck);
		return -1;
	}
	r->ps = r->fixed_ps = pl->ps;
	r->pj = r->fixed_pj = pl->pj;
	count_layers(in, pl, r);
	return 0;
}

int
solve_io_policy(const struct solve_in *in, enum policy p,
    const struct objective *o, struct plan *pl, struct solve_result *r)
{
	struct solve_order *so = NULL;
	int rc = policy_of(in, &so, p, o, pl, r);

	solve_order_free(so);
	return rc;
}

/* Nonzero if result a is better than b: within the cap first, then o. */
static int
better(const struct objective *o, const struct solve_result *a,
    const struct solve_result *b)
{
	if (a->over_cap != b->over_cap)
		return b->over_cap;
	return objective_less(o, a->ps, a->pj, b->ps, b->pj);
}


int
solve_io_policies(const struct solve_in *in, const struct objective *o,
    int fixed, const unsigned char *want, struct plan *plans,
    struct solve_result *res)
{
	struct objective u = *o;
	/* the candidates read once for every policy (dp) */
	struct solve_order *so = NULL;
	int p, have_none = 0, any = 0, rc, ret = -1;
	int64_t bad, stuck;

	u.cap_mw = 0;
	for (p = 1; p < P_NPOL; p++)
		any |= want[p];
	if (want[P_NONE]) {
		if (policy_of(in, &so, P_NONE, o, &plans[P_NONE],
		    &res[P_NONE]) < 0)
			goto out;
		have_none = 1;
	} else if (any && !fixed && ((rc = dp(in, &so, P_NONE, o,
	    &plans[P_NONE], &bad, &stuck)) == 0 ||
	    (rc == -2 && dp(in, &so, P_NONE, &u, &plans[P_NONE],
	    &bad, &stuck) == 0))) {
		memset(&res[P_NONE], 0, sizeof(res[P_NONE]));
		res[P_NONE].over_cap = rc == -2;
		res[P_NONE].ps = res[P_NONE].fixed_ps = plans[P_NONE].ps;
		res[P_NONE].pj = res[P_NONE].fixed_pj = plans[P_NONE].pj;
		count_layers(in, &plans[P_NONE], &res[P_NONE]);
		have_none = 1;
	}
	for (p = 1; p < P_NPOL; p++) {
		struct plan *pl = &plans[p];
		struct solve_result *r = &res[p];

		if (!want[p])
			continue;
		if (policy_of(in, &so, (enum policy)p, o, pl, r) < 0)
			goto out;
		/*
		 * attn-pim is a fixed reference mapping (attention on PIM as
		 * AttAcc runs it), there to be compared with: it keeps its
		 * own plan even where the GPU alone is faster.
		 */
		if (fixed || p == P_ATTNPIM || !have_none ||
		    !better(o, &res[P_NONE], r))
			continue;
		/* the GPU alone with every channel does better */
		plan_free(pl);
		pl->ps = plans[P_NONE].ps;
		pl->pj = plans[P_NONE].pj;
		pl->nseg = plans[P_NONE].nseg;
		pl->seg = xcalloc(pl->nseg + 1, sizeof(*pl->seg));
		memcpy(pl->seg, plans[P_NONE].seg, pl->nseg * sizeof(*pl->seg));
		pl->hps = xcalloc(pl->nseg + 1, sizeof(*pl->hps));
		pl->hpj = xcalloc(pl->nseg + 1, sizeof(*pl->hpj));
		memcpy(pl->hps, plans[P_NONE].hps, pl->nseg * sizeof(*pl->hps));
		memcpy(pl->hpj, plans[P_NONE].hpj, pl->nseg * sizeof(*pl->hpj));
		r->ps = pl->ps;
		r->pj = pl->pj;
		r->over_cap = res[P_NONE].over_cap;
		r->chose_none = 1;
		count_layers(in, pl, r);
	}
	ret = 0;
out:
	solve_order_free(so);
	return ret;
}

static void
setps(struct table *t, size_t r, size_t col, long long ps)
{
	char buf[64];

	merge_ps_to_ns(ps, buf, sizeof(buf));
	csvio_set(t, r, col, buf);
}

/*
 * Whether split x of layer j saves time over the layer's GPU-only time
 * through alignment alone: its GPU piece runs on tensor cores where the
 * whole layer does not (the piece's dims became aligned), and that piece
 * scaled to the whole layer (gpu time x 100 / ratio) is no slower than
 * the split itself, so the GPU alone on the piece's path would do as well
 * without PIM running beside it.
 */
static int
align_only(const struct solve_in *in, const struct cand *x, int64_t j)
{
	if (x->kind != K_SPLIT || x->first != j || x->ratio <= 0 ||
	    in->base_ps == NULL || in->base_tensor == NULL ||
	    in->base_ps[j] < 0 ||
	    x->ps >= in->base_ps[j])
		return 0;
	if (x->tensor != 1 || in->base_tensor[j] != 0)
		return 0;
	/* ps <= 9e15 (pf-merge's bound): x 100 fits 64 bits */
	return x->gpu_ps * 100 <= x->ps * (long long)x->ratio;
}

void
solve_io_plan_table(const struct solve_in *in, const struct plan *pl,
    const struct objective *o, struct table *out)
{
	char obj[64];

	size_t k, i, r;
	int64_t j;

	if (o != NULL && o->cap_mw > 0)
		snprintf(obj, sizeof(obj), "%s@%lld.%03lldW",
		    objective_name(o->kind), o->cap_mw / 1000, o->cap_mw % 1000);
	else
		snprintf(obj, sizeof(obj), "%s",
		    objective_name(o != NULL ? o->kind : O_TIME));
	csvio_init(out, "<stdout>");
	for (i = 0; i < (in->bytes_only != NULL ? PC_NCOL : PC_COSTED); i++)
		csvio_addcol(out, plancols[i]);
	for (k = 0; k < pl->nseg; k++) {
		const struct cand *x = &in->c[pl->seg[k]];

		for (j = x->first; j <= x->last; j++) {
			int dag = x->kind == K_DAG, d = dag ?
			    x->dev[j - x->first] : 0;
			char ax[2] = { x->axis, '\0' };

			r = csvio_addrow(out);
			csvio_setint(out, r, PC_LAYER, j);
			if (in->names != NULL) {
				csvio_set(out, r, PC_NAME, in->names[j]);
				csvio_set(out, r, PC_OP, in->ops[j]);
			}
			csvio_set(out, r, PC_KIND, dag ? (d ? "pim" : "gpu") :
			    solve_kind_name(x->kind));
			csvio_set(out, r, PC_AXIS, ax);
			csvio_setint(out, r, PC_RATIO, dag ? (d ? 0 : 100) : x->ratio);
			csvio_set(out, r, PC_SEGMENT, x->id);
			/* a multi-layer segment's times stand on its first layer */
			setps(out, r, PC_GPU_NS, j == x->first ? x->gpu_ps : 0);
			setps(out, r, PC_PIM_NS, j == x->first ? x->pim_ps : 0);
			/* with the hand-offs at its edges: ns adds up to the plan */
			setps(out, r, PC_NS, j == x->first ? x->ps + pl->hps[k] : 0);
			if (in->base_ps[j] >= 0)
				setps(out, r, PC_BASE_NS, in->base_ps[j]);
			if (in->have_energy)
				setps(out, r, PC_ENERGY, j == x->first ? x->pj +
				    pl->hpj[k] : 0);
			csvio_set(out, r, PC_OBJECTIVE, obj);
			setps(out, r, PC_HANDOFF, j == x->first ? pl->hps[k] : 0);
			csvio_setint(out, r, PC_ALIGN, align_only(in, x, j));
			if (in->bytes_only != NULL)
				csvio_set(out, r, PC_COSTED, in->bytes_only[j] ?
				    "bytes" : "model");
		}
	}
}

/* A policy's energy keys: its plan's and its fixed plan's, by P_NONE's. */
static void
summary_energy(struct jsonw *w, const struct solve_result *res, int p)
{
	jw_num(w, "energy_nj", (double)res[p].pj / 1000.0, 3);
	jw_num(w, "static_nj", (double)res[p].static_pj / 1000.0, 3);
	/* pJ / ps = W */
	jw_num(w, "power_w", res[p].ps > 0 ?
	    (double)res[p].pj / (double)res[p].ps : NAN, 6);
	jw_num(w, "energy_ratio", res[P_NONE].pj > 0 ?
	    (double)res[p].pj / (double)res[P_NONE].pj : NAN, 6);
	jw_num(w, "fixed_energy_nj", (double)res[p].fixed_pj / 1000.0, 3);
	jw_num(w, "fixed_energy_ratio", res[P_NONE].pj > 0 ?
	    (double)res[p].fixed_pj / (double)res[P_NONE].pj : NAN, 6);
}

/* A decoder step's object: tokens, their rate, where the time went. */
static void
summary_decode(struct jsonw *w, const struct solve_in *in,
    const struct solve_result *r)
{
	double ns = (double)r->ps / 1000.0;
	double all = (double)(r->attn_ps + r->fc_ps + r->rest_ps);

	jw_obj(w, "decode");
	jw_int(w, "tokens", in->tokens);
	jw_num(w, "step_ns", ns, 3);
	jw_num(w, "tokens_per_s", ns > 0 ? (double)in->tokens * 1e9 / ns : NAN,
	    3);
	jw_num(w, "attn_share", all > 0 ? (double)r->attn_ps / all : NAN, 6);
	jw_num(w, "fc_share", all > 0 ? (double)r->fc_ps / all : NAN, 6);
	jw_num(w, "rest_share", all > 0 ? (double)r->rest_ps / all : NAN, 6);
	jw_end(w);
}

/* The memory object: what the plan needs of each pool, what fits. */
static void
summary_memory(struct jsonw *w, const struct cap_need *m)
{
	jw_obj(w, "memory");
	jw_int(w, "weights_bytes", m->weights);
	jw_int(w, "kv_bytes", m->kv);
	jw_int(w, "act_bytes", m->act);
	jw_int(w, "gpu_needs_bytes", m->gpu);
	jw_int(w, "gpu_has_bytes", m->gpu_has);
	jw_int(w, "pim_needs_bytes", m->pim);
	jw_int(w, "pim_has_bytes", m->pim_has);
	jw_bool(w, "fits", m->fits);
	jw_int(w, "max_batch", m->max_batch);
	jw_end(w);
}

/* Policy p's object of the summary's policies. */
static void
summary_policy(struct jsonw *w, const struct solve_in *in, double mhz,
    const struct objective *o, const struct solve_result *res, int p)
{
	double ns = (double)res[p].ps / 1000.0;
	int k;

	jw_obj(w, NULL);
	jw_str(w, "policy", policy_name((enum policy)p));
	jw_num(w, "ns", ns, 3);
	/* GPU core cycles: ns * MHz / 1000 */
	jw_num(w, "gpu_cycles", ns * mhz / 1000.0, 3);
	jw_num(w, "speedup", res[p].ps > 0 ?
	    (double)res[P_NONE].ps / (double)res[p].ps : NAN, 6);
	jw_bool(w, "chose_none", res[p].chose_none);
	if (o->cap_mw > 0)
		jw_bool(w, "over_cap", res[p].over_cap);
	jw_num(w, "fixed_ns", (double)res[p].fixed_ps / 1000.0, 3);
	jw_num(w, "fixed_speedup", res[p].fixed_ps > 0 ?
	    (double)res[P_NONE].ps / (double)res[p].fixed_ps : NAN, 6);
	if (in->have_energy)
		summary_energy(w, res, p);
	jw_obj(w, "layers");
	for (k = 0; k < K_DAG; k++)
		jw_int(w, solve_kind_name((enum cand_kind)k), res[p].layers[k]);
	jw_end(w);
	if (res[p].band != NULL && res[p].band->done)
		solve_band_json(w, res[p].band, in->nlayers);
	if (in->have_kv)
		summary_decode(w, in, &res[p]);
	if (res[p].have_mem)
		summary_memory(w, &res[p].mem);
	jw_end(w);
}

int
solve_io_summary(FILE *fp, const struct solve_in *in, const char *model,
    double mhz, const struct objective *o, int fixed,
    const struct solve_result *res, int dag_window, long long dag_lb_ps)
{
	struct jsonw w;
	int p;

	jw_init(&w, fp, 3);
	jw_obj(&w, NULL);
	jw_str(&w, "model", model);
	jw_obj(&w, "machine");
	jw_num(&w, "gpu_clock_mhz", mhz, 3);
	if (in->have_energy) {
		jw_num(&w, "gpu_only_static_w", in->static_w[0], 6);
		jw_num(&w, "partitioned_static_w", in->static_w[1], 6);
	}
	jw_end(&w);
	jw_str(&w, "objective", objective_name(o->kind));
	if (o->cap_mw > 0)
		jw_num(&w, "power_cap_w", (double)o->cap_mw / 1000.0, 3);
	jw_bool(&w, "fixed_partition", fixed);
	if (in->bytes_only != NULL)
		jw_int(&w, "bytes_only_layers", in->nbytes_only);
	jw_arr(&w, "policies");
	/* the decoder reference exists only where there is a cache */
	for (p = 0; p < P_NPOL; p++)
		if (p != P_ATTNPIM || in->have_kv)
			summary_policy(&w, in, mhz, o, res, p);
	jw_end(&w);
	if (dag_window > 0) {
		jw_int(&w, "dag_window", dag_window);
		jw_num(&w, "dag_lower_bound_ns", (double)dag_lb_ps / 1000.0, 3);
	}
	jw_end(&w);
	return jw_finish(&w);
}

void
solve_io_want(const struct solve_in *in, enum policy pol, int all,
    int summary, unsigned char want[P_NPOL])
{
	int p;

	for (p = 0; p < P_NPOL; p++)
		want[p] = p == (int)pol || ((all || summary) &&
		    (p != P_ATTNPIM || in->have_kv));
}

unsigned
solve_io_stream_pols(enum policy pol, int all, int summary, int dag,
    const struct objective *o)
{
	unsigned pols;

	if (o->kind != O_TIME || o->cap_mw != 0)
		return 0;
	pols = all || summary ? ~0u : 1u << pol | 1u << P_NONE;
	if (dag)
		pols &= ~(1u << P_PIMFLOW);
	return pols;
}
