/*
 * Candidate costs from piece costs (solve_merge.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "layer.h"
#include "solve_band.h"
#include "solve_merge.h"
#include "solve_names.h"
#include "task.h"
#include "xalloc.h"

/* What pf-merge reads: tasks.csv's head columns and the cost tools' ns. */
static const char *const nscol[] = { TASK_COL_NS, NULL };
enum { N_CAND = TT_CAND, N_FIRST = TT_FIRST, N_LAST = TT_LAST,
	N_KIND = TT_KIND, N_AXIS = TT_AXIS, N_RATIO = TT_RATIO,
	N_STEP = TT_STEP, N_DEV = TT_DEVICE, N_NS = TT_NHEAD };
/* Columns every piece of a candidate must agree on, as TC_FIRST.. of costs.csv. */
static const int same[] = { N_FIRST, N_LAST, N_KIND, N_AXIS, N_RATIO };

int
merge_ns_to_ps(const char *s, long long *ps)
{
	const char *p = s;
	long long v = 0;
	int i, d;

	/*
	 * The common form by hand: up to 12 integer digits and up to 3
	 * decimals, as the tools write them.  Its N ps is exactly what the
	 * general way gives: N / 1000 rounds to a double within 2^-53 of
	 * itself, and times 1000 (rounded again) stays within 2^-52 N <
	 * 0.5 of N for N < 2^51, so llround returns N; and 10^12 ns is
	 * below the bound.
	 */
	for (i = 0; i < 12 && *p >= '0' && *p <= '9'; i++, p++)
		v = v * 10 + (*p - '0');
	if (i > 0 && (*p == '\0' || *p == '.')) {
		d = 0;
		if (*p == '.')
			for (p++; d < 3 && *p >= '0' && *p <= '9'; d++, p++)
				v = v * 10 + (*p - '0');
		if (*p == '\0' && (d > 0 || p[-1] != '.')) {
			for (; d < 3; d++)
				v *= 10;
			*ps = v;
			return 0;
		}
	}
	return task_ns_to_ps(s, MERGE_PIECE_MAX_NS, ps);
}

void
merge_ps_to_ns(long long ps, char *buf, size_t n)
{
	task_ps_to_ns(ps, buf, n);
}

/* A devices bitmask (1 gpu, 2 pim) as dev_in / dev_out write it. */
static const char *const devset[] = { "gpu", "gpu", "pim", "both" };

struct group {
	size_t	first_row;	/* row of the candidate's first piece */
	size_t	lo, hi;		/* its rows */
};

/*
 * A block's columns, found once (-1: absent), and what fold learns of
 * each row for handoffs, so that no cell is read twice: its step, its
 * device (1: PIM) and, in handoffs, its layer.
 */
struct mblock {
	long		 c[TT_NHEAD + 1];
	long		 gw, hide, layer, clk, energy, stat, hc[2], tens, rfc;
	long		 op, groups, inc, disp, dtype;	/* the band's (-1: absent) */
	int64_t		*step;		/* a candidate's times per step, device */
	int64_t		*st, *lay;	/* per row */
	unsigned char	*dev;		/* per row */
};

/* A time in ns (digits, point, sign: no quotes) into cell (r, col). */
static void
put_ns(struct table *out, size_t r, size_t col, long long ps)
{
	char buf[64];
	size_t n;

	merge_ps_to_ns(ps, buf, sizeof(buf));
	n = strlen(buf);
	memcpy(csvio_setplain(out, r, col, n), buf, n);
}

/* Geometry is checked when the table has it (a zero-row piece is an error). */
static int
check_geometry(const struct table *t, struct layer_cache *geom)
{
	struct layer_cols lc;
	struct layer l;
	size_t i;

	for (i = 0; layer_colnames[i] != NULL; i++)
		if (csvio_col(t, layer_colnames[i]) < 0)
			return 0;
	if (layer_cols_find(t, &lc) < 0)
		return -1;
	/* a piece's geometry is mostly one checked before: checked once */
	for (i = 0; i < t->nrows; i++)
		if (layer_get_cached(t, &lc, i, &l, geom) < 0)
			return -1;
	return 0;
}

/* Optional non-negative number of a cell; 1 if present, 0 if empty, -1 bad. */
static int
optnum(const struct table *t, size_t r, long col, double *v)
{
	const char *s;

	if (col < 0 || *(s = csvio_get(t, r, (size_t)col)) == '\0')
		return 0;
	if (csvio_parse_double(s, v) < 0 || !(*v >= 0) || *v > 1e15) {
		pf_errl(t->fname, csvio_line(t, r), "column '%s': bad value "
		    "'%s'", t->cols[col], s);
		return -1;
	}
	return 1;
}

/* A piece's hand-off time (column col, empty or absent: 0) in ps. */
static int
handoff_ps(const struct table *t, size_t r, long col, long long *ps)
{
	const char *s;

	*ps = 0;
	if (col < 0 || *(s = csvio_get(t, r, (size_t)col)) == '\0')
		return 0;
	if (merge_ns_to_ps(s, ps) < 0) {
		pf_errl(t->fname, csvio_line(t, r), "column '%s': bad time "
		    "'%s'", t->cols[col], s);
		return -1;
	}
	return 0;
}

/*
 * What pf-solve -U rescales (solve_band.h): the GPU pieces' time by
 * kernel class, the PIM pieces' dispatch, the GPU pieces' precision.
 */
struct bandsum {
	long long	 g[BC_N], disp;
	const char	*dtype;
};

/* Piece r (device d, time ps) into s. */
static int
band_piece(const struct table *t, const struct mblock *b, size_t r, int d,
    long long ps, struct bandsum *s)
{
	long long v;

	if (d == 0 && b->op >= 0) {
		enum band_class c = solve_band_class_of(csvio_get(t, r,
		    (size_t)b->op), b->groups < 0 ? "" : csvio_get(t, r,
		    (size_t)b->groups), b->inc < 0 ? "" : csvio_get(t, r,
		    (size_t)b->inc));

		s->g[c] += ps;
		if (s->dtype == NULL && b->dtype >= 0)
			s->dtype = csvio_get(t, r, (size_t)b->dtype);
	}
	if (d == 1 && handoff_ps(t, r, b->disp, &v) < 0)
		return -1;
	if (d == 1)
		s->disp += v;
	return 0;
}

/* The band's columns of row r (after task_cost_opt's). */
static void
band_put(struct table *out, size_t r, const struct mblock *b,
    const struct bandsum *s)
{
	int c;

	if (b->op >= 0)
		for (c = 0; c < BC_N; c++)
			put_ns(out, r, TC_NCOL + BCC_GPU0 + c, s->g[c]);
	if (b->disp >= 0)
		put_ns(out, r, TC_NCOL + BCC_DISPATCH, s->disp);
	csvio_set(out, r, TC_NCOL + BCC_DTYPE, s->dtype ? s->dtype : "");
}

/*
 * The hand-offs of a candidate's PIM pieces (pf-merge(1)): inside it, a
 * PIM piece whose input comes from a GPU piece of the layer before adds
 * its handoff_in_ns to the PIM side of its step, one whose output a GPU
 * piece reads (the next layer's, or the GPU part of its own split layer,
 * the join) its handoff_out_ns; at its edges, dev_in (devices of the
 * first layer's pieces), dev_out (pim when only PIM pieces make the last
 * layer) and the hand-offs pf-solve charges there: *in_ps, the first
 * layer's PIM pieces' handoff_in_ns, and *out_ps, with dev_out pim, the
 * last layer's PIM pieces' handoff_out_ns.
 */
static int
handoffs(const struct table *t, const struct mblock *b, const size_t *idx,
    const struct group *g, int64_t *step, int64_t *inner, int *din,
    int *dout, long long *in_ps, long long *out_ps)
{
	const long *c = b->c, *hc = b->hc;
	long lc = b->layer;
	int64_t first, last, n, l, st;
	unsigned char *devs;
	long long hin, hout;
	size_t k, r;
	int rc = -1;

	r = idx[g->lo];
	if (csvio_int(t, r, (size_t)c[N_FIRST], &first) < 0 ||
	    csvio_int(t, r, (size_t)c[N_LAST], &last) < 0)
		return -1;
	if (first < 0 || last < first || last - first > 4096) {
		pf_errl(t->fname, csvio_line(t, r), "candidate '%s': bad layer "
		    "range", csvio_get(t, r, (size_t)c[N_CAND]));
		return -1;
	}
	n = last - first + 1;
	devs = xcalloc((size_t)n, 1);
	/* which devices make each layer */
	for (k = g->lo; k < g->hi; k++) {
		r = idx[k];
		l = first;
		if (lc >= 0 && (csvio_int(t, r, (size_t)lc, &l) < 0 ||
		    l < first || l > last)) {
			if (l < first || l > last)
				pf_errl(t->fname, csvio_line(t, r), "column "
				    "'layer': %lld is outside the candidate's "
				    "layers", (long long)l);
			goto out;
		}
		b->lay[r] = l;
		devs[l - first] |= b->dev[r] ? 2 : 1;
	}
	*inner = *in_ps = *out_ps = 0;
	*din = devs[0];
	*dout = devs[n - 1] & 1 ? 1 : 2;
	for (k = g->lo; k < g->hi; k++) {
		long long add = 0;

		r = idx[k];
		if (!b->dev[r])
			continue;
		l = b->lay[r];
		st = b->st[r];
		if (handoff_ps(t, r, hc[0], &hin) < 0 ||
		    handoff_ps(t, r, hc[1], &hout) < 0)
			goto out;
		if (l > first && devs[l - first - 1] & 1)
			add += hin;
		if (devs[l - first] & 1 || (l < last && devs[l - first + 1] & 1))
			add += hout;
		if (l == first)
			*in_ps += hin;
		if (l == last && *dout == 2)
			*out_ps += hout;
		if (ck_add(step[st * 2 + 1], add, &step[st * 2 + 1]) < 0 ||
		    ck_add(*inner, add, inner) < 0) {
			pf_errl(t->fname, csvio_line(t, r), "candidate '%s': "
			    "its hand-off passes %s ns", csvio_get(t, r,
			    (size_t)c[N_CAND]), MERGE_MAX_NS);
			goto out;
		}
	}
	rc = 0;
out:
	free(devs);
	return rc;
}

/*
 * One candidate's row of costs.csv; 0, -1 after a report, or 1 when a
 * PIM piece was refused as not PIM-eligible (pim_refused, column rfc):
 * the candidate is left out and *why (if still NULL) names the reason.
 */
static int
fold(const struct table *t, const struct mblock *b, const size_t *idx,
    const struct group *g, double sync_ns, struct table *out,
    const char **why)
{
	const long *c = b->c;
	long gwc = b->gw, hidec = b->hide, lc = b->layer, clkc = b->clk;
	long ec = b->energy, sc = b->stat, tc = b->tens, rfc = b->rfc;
	int64_t inner = 0;
	long long in_ps = 0, out_ps = 0;
	int din = 1, dout = 1;
	double energy = 0, sw[2] = { -1, -1 }, v;
	int have_e = ec >= 0, k2, tens = -1;
	const char *cand = csvio_get(t, idx[g->lo], (size_t)c[N_CAND]);
	int64_t gpu = 0, pim = 0, wall = 0, sync_ps, ratio, *step = b->step;
	int64_t st, nstep = 0;
	const char *gw = "", *hide = "", *clk = "", *swt[2] = { NULL, NULL };
	size_t k, r, j;
	int devs = 0;
	struct bandsum bs;

	memset(&bs, 0, sizeof(bs));
	for (k = g->lo; k < g->hi; k++) {
		r = idx[k];
		if (csvio_int(t, r, (size_t)c[N_STEP], &st) < 0)
			return -1;
		if (st < 0 || st > 4096) {
			pf_errl(t->fname, csvio_line(t, r),
			    "column 'step': bad step '%s'",
			    csvio_get(t, r, (size_t)c[N_STEP]));
			return -1;
		}
		if (st + 1 > nstep)
			nstep = st + 1;
		b->st[r] = st;
	}
	r = idx[g->lo];
	if (csvio_int_in(t, r, (size_t)c[N_RATIO], 0, 100, &ratio) < 0)
		return -1;
	memset(step, 0, (size_t)nstep * 2 * sizeof(*step));
	for (k = g->lo; k < g->hi; k++) {
		const char *dev, *ns;
		long long ps;
		enum task_dev td;
		int d;

		r = idx[k];
		/* the first piece is the one the others agree with */
		for (j = 0; k > g->lo && j < sizeof(same) / sizeof(same[0]); j++)
			if (strcmp(csvio_get(t, r, (size_t)c[same[j]]),
			    csvio_get(t, idx[g->lo], (size_t)c[same[j]])) != 0) {
				pf_errl(t->fname, csvio_line(t, r),
				    "candidate '%s': pieces disagree on '%s'",
				    cand, t->cols[c[same[j]]]);
				return -1;
			}
		dev = csvio_get(t, r, (size_t)c[N_DEV]);
		if (task_device(t, r, c[N_DEV], &td) < 0)
			return -1;
		d = td == TASK_PIM;
		b->dev[r] = (unsigned char)d;
		devs |= 1 << d;
		st = b->st[r];
		ns = csvio_get(t, r, (size_t)c[N_NS]);
		if (*ns == '\0' && d == 1 && rfc >= 0 &&
		    *csvio_get(t, r, (size_t)rfc) != '\0') {
			if (*why == NULL)
				*why = csvio_get(t, r, (size_t)rfc);
			return 1;
		}
		if (*ns == '\0') {
			pf_errl(t->fname, csvio_line(t, r),
			    "candidate '%s': %s piece of layer %s (step %lld) "
			    "has no cost: run %s", cand, dev,
			    csvio_get(t, r, (size_t)(lc >= 0 ? lc : c[N_FIRST])),
			    (long long)st, d == 0 ? "gpu-cycles" : "pim-cycles");
			return -1;
		}
		if (merge_ns_to_ps(ns, &ps) < 0) {
			pf_errl(t->fname, csvio_line(t, r),
			    "column 'ns': bad time '%s'", ns);
			return -1;
		}
		if (band_piece(t, b, r, d, ps, &bs) < 0)
			return -1;
		if (ck_add(step[st * 2 + d], ps, &step[st * 2 + d]) < 0 ||
		    ck_add(d == 0 ? gpu : pim, ps, d == 0 ? &gpu : &pim) < 0) {
			pf_errl(t->fname, csvio_line(t, r), "candidate '%s': "
			    "its %s time passes %s ns", cand, dev, MERGE_MAX_NS);
			return -1;
		}
		if (d == 0 && clkc >= 0) {
			const char *a = csvio_get(t, r, (size_t)clkc);

			if (*clk == '\0')
				clk = a;
			else if (strcmp(a, clk) != 0) {
				pf_errl(t->fname, csvio_line(t, r),
				    "candidate '%s': pieces disagree on "
				    "'gpu_clock_mhz'", cand);
				return -1;
			}
		}
		/* 1 when every GPU piece ran on tensor cores */
		if (d == 0 && tc >= 0) {
			const char *a = csvio_get(t, r, (size_t)tc);

			if (*a != '\0')
				tens = strcmp(a, "1") == 0 && tens != 0;
		}
		if ((k2 = optnum(t, r, ec, &v)) < 0)
			return -1;
		if (k2 == 0)
			have_e = 0;
		else
			energy += v;
		/* a device's static_w as its last piece's: known, and the same */
		if (sc >= 0 && swt[d] != NULL &&
		    strcmp(csvio_get(t, r, (size_t)sc), swt[d]) == 0)
			k2 = 0;
		else if ((k2 = optnum(t, r, sc, &v)) < 0)
			return -1;
		if (k2 == 1) {
			swt[d] = csvio_get(t, r, (size_t)sc);
			if (sw[d] >= 0 && sw[d] != v) {
				pf_errl(t->fname, csvio_line(t, r),
				    "candidate '%s': %s pieces disagree on "
				    "'static_w'", cand, dev);
				return -1;
			}
			sw[d] = v;
		}
		if (d == 1 && gwc >= 0) {
			const char *a = csvio_get(t, r, (size_t)gwc);
			const char *b = csvio_get(t, r, (size_t)hidec);

			if (*gw == '\0' && *hide == '\0') {
				gw = a;
				hide = b;
			} else if (strcmp(a, gw) != 0 || strcmp(b, hide) != 0) {
				pf_errl(t->fname, csvio_line(t, r),
				    "candidate '%s': pieces disagree on PIM "
				    "settings", cand);
				return -1;
			}
		}
	}
	if (handoffs(t, b, idx, g, step, &inner, &din, &dout, &in_ps,
	    &out_ps) < 0)
		return -1;
	sync_ps = llround(sync_ns * 1000.0);
	for (st = 0; st < nstep; st++) {
		int64_t a = step[st * 2], b = step[st * 2 + 1];

		/* a two-device candidate joins (or hands over) after each step */
		if (ck_add(wall, a > b ? a : b, &wall) < 0 ||
		    (devs == 3 && ck_add(wall, sync_ps, &wall) < 0)) {
			pf_errl(t->fname, csvio_line(t, idx[g->lo]),
			    "candidate '%s': its wall time passes %s ns", cand,
			    MERGE_MAX_NS);
			return -1;
		}
	}
	r = csvio_addrow(out);
	csvio_set(out, r, TC_CAND, cand);
	for (j = 0; j < sizeof(same) / sizeof(same[0]); j++)
		csvio_set(out, r, TC_FIRST + j, csvio_get(t, idx[g->lo],
		    (size_t)c[same[j]]));
	csvio_set(out, r, TC_GWRITE, gw);
	csvio_set(out, r, TC_HIDING, hide);
	put_ns(out, r, TC_GPU_NS, gpu);
	put_ns(out, r, TC_PIM_NS, pim);
	put_ns(out, r, TC_NS, wall);
	csvio_set(out, r, TC_GPU_CLOCK, clk);
	if (have_e)
		csvio_setfix(out, r, TC_ENERGY, energy, 3);
	for (j = 0; j < 2; j++)
		if (sw[j] >= 0)
			csvio_setfix(out, r, TC_GPU_STATIC + j, sw[j], 6);
	put_ns(out, r, TC_HANDOFF, inner);
	csvio_set(out, r, TC_DEV_IN, devset[din]);
	csvio_set(out, r, TC_DEV_OUT, devset[dout]);
	put_ns(out, r, TC_HANDOFF_IN, in_ps);
	put_ns(out, r, TC_HANDOFF_OUT, out_ps);
	if (tens >= 0)
		csvio_setint(out, r, TC_GPU_TENSOR, tens);
	band_put(out, r, b, &bs);
	return 0;
}

void
merge_init(struct merge *m, double sync_ns)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->sync_ns = sync_ns;
	m->seen = solve_names_new();
	m->geom = layer_cache_new();
	csvio_init(&m->out, "<stdout>");
	for (i = 0; task_cost_cols[i] != NULL; i++)
		csvio_addcol(&m->out, task_cost_cols[i]);
	/* the clock of the GPU pieces' cycles travels to the summary */
	for (i = 0; task_cost_opt[i] != NULL; i++)
		csvio_addcol(&m->out, task_cost_opt[i]);
	/* pf-solve -U's (solve_band.h), after them */
	for (i = 0; solve_band_cost_cols[i] != NULL; i++)
		csvio_addcol(&m->out, solve_band_cost_cols[i]);
}

int
merge_done(void *arg)
{
	const struct merge *m = arg;

	if (m->nleft > 0)
		pf_warn(m->why_file, "%zu candidates left out, a PIM piece "
		    "refused: %s", m->nleft, m->why);
	return 0;
}

void
merge_free(struct merge *m)
{
	free(m->why);
	free(m->why_file);
	solve_names_free(m->seen);
	layer_cache_free(m->geom);
	csvio_free(&m->out);
	memset(m, 0, sizeof(*m));
}

int
merge_rows(struct merge *m, const struct table *t)
{
	struct mblock b;
	long *c = b.c, gwc, hidec;
	size_t *idx = NULL, i, ng = 0;
	const char *why = NULL;
	int k;
	struct group *g = NULL;
	const char *cand;
	int64_t first;
	int rc = -1;

	csvio_droprows(&m->out);
	if (csvio_need(t, task_head_cols, c) < 0 ||
	    csvio_need(t, nscol, &c[N_NS]) < 0 || check_geometry(t, m->geom) < 0)
		return -1;
	gwc = csvio_col(t, task_pim_cols[TT_PIM_GWRITE]);
	hidec = csvio_col(t, task_pim_cols[TT_PIM_HIDING]);
	if ((gwc < 0) != (hidec < 0)) {
		pf_errl(t->fname, 1, "missing column '%s'",
		    task_pim_cols[gwc < 0 ? TT_PIM_GWRITE : TT_PIM_HIDING]);
		return -1;
	}
	b.gw = gwc;
	b.hide = hidec;
	b.hc[0] = csvio_col(t, TASK_COL_HANDOFF_IN);
	b.hc[1] = csvio_col(t, TASK_COL_HANDOFF_OUT);
	b.layer = csvio_col(t, "layer");
	b.clk = csvio_col(t, TASK_COL_GPU_CLOCK);
	b.energy = csvio_col(t, TASK_COL_ENERGY);
	b.stat = csvio_col(t, TASK_COL_STATIC);
	b.tens = csvio_col(t, TASK_COL_GPU_TENSOR);
	b.op = csvio_col(t, "op");
	b.groups = csvio_col(t, "groups");
	b.inc = csvio_col(t, "in_c");
	b.disp = csvio_col(t, TASK_COL_DISPATCH);
	b.dtype = csvio_col(t, "dtype");
	for (i = 0; i < t->nrows; i++)
		if (*csvio_get(t, i, (size_t)c[N_CAND]) == '\0') {
			pf_errl(t->fname, csvio_line(t, i),
			    "column 'cand': empty field");
			return -1;
		}
	b.rfc = csvio_col(t, TASK_COL_REFUSED);
	/* the rows in their order: fold takes an index of them */
	idx = xcalloc(t->nrows + 1, sizeof(*idx));
	g = xcalloc(t->nrows + 1, sizeof(*g));
	/* steps are 0..4096 (fold checks) */
	b.step = xcalloc(2 * 4097, sizeof(*b.step));
	b.st = xcalloc(t->nrows + 1, sizeof(*b.st));
	b.lay = xcalloc(t->nrows + 1, sizeof(*b.lay));
	b.dev = xcalloc(t->nrows + 1, 1);
	for (i = 0; i < t->nrows; i++) {
		idx[i] = i;
		cand = csvio_get(t, i, (size_t)c[N_CAND]);
		if (i == 0 || strcmp(csvio_get(t, i - 1, (size_t)c[N_CAND]),
		    cand) != 0) {
			if (csvio_int(t, i, (size_t)c[N_FIRST], &first) < 0)
				goto done;
			if (m->any && first < m->first) {
				pf_errl(t->fname, csvio_line(t, i),
				    "candidate '%s': first layer %lld after "
				    "candidates of layer %lld (candidates come "
				    "in the order of their first layer, as "
				    "pf-split writes them)", cand,
				    (long long)first, (long long)m->first);
				goto done;
			}
			if (!m->any || first > m->first)
				solve_names_clear(m->seen);
			m->first = first;
			m->any = 1;
			if (solve_names_add(m->seen, cand)) {
				pf_errl(t->fname, csvio_line(t, i),
				    "candidate '%s': its pieces come again "
				    "after another candidate's (they must be "
				    "together, as pf-split writes them)", cand);
				goto done;
			}
			g[ng].first_row = i;
			g[ng++].lo = i;
		}
		g[ng - 1].hi = i + 1;
	}
	for (i = 0; i < ng; i++) {
		if ((k = fold(t, &b, idx, &g[i], m->sync_ns, &m->out,
		    &why)) < 0)
			goto done;
		m->nleft += k == 1;
	}
	if (why != NULL && m->why == NULL) {
		m->why = xstrdup(why);
		m->why_file = xstrdup(t->fname);
	}
	rc = 0;
done:
	free(idx);
	free(g);
	free(b.step);
	free(b.st);
	free(b.lay);
	free(b.dev);
	return rc;
}

int
merge_block(void *arg, struct table *in, const struct table **res)
{
	struct merge *m = arg;

	*res = &m->out;
	return merge_rows(m, in);
}

int
merge_costs(const struct table *t, double sync_ns, struct table *out)
{
	struct merge m;
	int rc;

	merge_init(&m, sync_ns);
	if ((rc = merge_rows(&m, t)) == 0)
		(void)merge_done(&m);
	*out = m.out;
	csvio_init(&m.out, NULL);
	merge_free(&m);
	return rc;
}
