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
	if (d == 1 && merge_cell_ps(t, r, b->disp, &v) < 0)
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
		if (merge_cell_ps(t, r, hc[0], &hin) < 0 ||
		    merge_cell_ps(t, r, hc[1], &hout) < 0)
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
 * What fold sums and checks over a candidate's pieces: its device times,
 * energy, each device's static_w (sw, with the text it was read from),
 * the PIM settings, the GPU clock and tensor cores (-1: unknown), the
 * devices used (bit d) and its steps.
 */
struct fold {
	const char	*cand;
	int64_t		 gpu, pim, nstep;
	double		 energy, sw[2];
	int		 have_e, tens, devs;
	const char	*gw, *hide, *clk, *swt[2];
	struct bandsum	 bs;
};

/* Each piece's step into b->st, their number into f->nstep: 0 or -1. */
static int
fold_steps(const struct table *t, const struct mblock *b, const size_t *idx,
    const struct group *g, struct fold *f)
{
	const long *c = b->c;
	int64_t st;
	size_t k, r;

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
		if (st + 1 > f->nstep)
			f->nstep = st + 1;
		b->st[r] = st;
	}
	return 0;
}

/* Piece r agrees with the first piece, r0, on the same[] columns: 0 or -1. */
static int
piece_agrees(const struct table *t, const long *c, size_t r, size_t r0,
    const char *cand)
{
	size_t j;

	for (j = 0; j < sizeof(same) / sizeof(same[0]); j++)
		if (strcmp(csvio_get(t, r, (size_t)c[same[j]]),
		    csvio_get(t, r0, (size_t)c[same[j]])) != 0) {
			pf_errl(t->fname, csvio_line(t, r),
			    "candidate '%s': pieces disagree on '%s'",
			    cand, t->cols[c[same[j]]]);
			return -1;
		}
	return 0;
}

/*
 * Piece r's time (device d, step st) into *ps: 0, -1 after a report, 1
 * when PIM refused it (*why, if NULL, its reason).
 */
static int
piece_ps(const struct table *t, const struct mblock *b, size_t r, int d,
    const char *cand, long long *ps, const char **why)
{
	const long *c = b->c;
	const char *ns = csvio_get(t, r, (size_t)c[N_NS]);

	if (*ns == '\0' && d == 1 && b->rfc >= 0 &&
	    *csvio_get(t, r, (size_t)b->rfc) != '\0') {
		if (*why == NULL)
			*why = csvio_get(t, r, (size_t)b->rfc);
		return 1;
	}
	if (*ns == '\0') {
		pf_errl(t->fname, csvio_line(t, r),
		    "candidate '%s': %s piece of layer %s (step %lld) "
		    "has no cost: run %s", cand, csvio_get(t, r,
		    (size_t)c[N_DEV]), csvio_get(t, r, (size_t)(b->layer >= 0 ?
		    b->layer : c[N_FIRST])), (long long)b->st[r],
		    d == 0 ? "gpu-cycles" : "pim-cycles");
		return -1;
	}
	if (merge_ns_to_ps(ns, ps) < 0) {
		pf_errl(t->fname, csvio_line(t, r),
		    "column 'ns': bad time '%s'", ns);
		return -1;
	}
	return 0;
}

/*
 * *have (empty: the text of the first piece that has one) and cell a
 * agree: 0, or -1 after reporting that the pieces disagree on what.
 */
static int
piece_same(const struct table *t, size_t r, const char **have,
    const char *a, const char *cand, const char *what)
{
	if (**have == '\0')
		*have = a;
	else if (strcmp(a, *have) != 0) {
		pf_errl(t->fname, csvio_line(t, r),
		    "candidate '%s': pieces disagree on %s", cand, what);
		return -1;
	}
	return 0;
}

/* Piece r's energy and its device's static_w into f: 0 or -1. */
static int
piece_energy(const struct table *t, const struct mblock *b, size_t r, int d,
    struct fold *f)
{
	double v;
	int k2;

	if ((k2 = optnum(t, r, b->energy, &v)) < 0)
		return -1;
	if (k2 == 0)
		f->have_e = 0;
	else
		f->energy += v;
	/* a device's static_w as its last piece's: known, and the same */
	if (b->stat >= 0 && f->swt[d] != NULL &&
	    strcmp(csvio_get(t, r, (size_t)b->stat), f->swt[d]) == 0)
		k2 = 0;
	else if ((k2 = optnum(t, r, b->stat, &v)) < 0)
		return -1;
	if (k2 == 1) {
		f->swt[d] = csvio_get(t, r, (size_t)b->stat);
		if (f->sw[d] >= 0 && f->sw[d] != v) {
			pf_errl(t->fname, csvio_line(t, r),
			    "candidate '%s': %s pieces disagree on "
			    "'static_w'", f->cand, csvio_get(t, r,
			    (size_t)b->c[N_DEV]));
			return -1;
		}
		f->sw[d] = v;
	}
	return 0;
}

/*
 * What piece r (device d) adds to f besides its time: the GPU clock and
 * tensor cores, the energy, the PIM settings.  0 or -1.
 */
static int
piece_rest(const struct table *t, const struct mblock *b, size_t r, int d,
    struct fold *f)
{
	if (d == 0 && b->clk >= 0 && piece_same(t, r, &f->clk, csvio_get(t, r,
	    (size_t)b->clk), f->cand, "'gpu_clock_mhz'") < 0)
		return -1;
	/* 1 when every GPU piece ran on tensor cores */
	if (d == 0 && b->tens >= 0) {
		const char *a = csvio_get(t, r, (size_t)b->tens);

		if (*a != '\0')
			f->tens = strcmp(a, "1") == 0 && f->tens != 0;
	}
	if (piece_energy(t, b, r, d, f) < 0)
		return -1;
	if (d == 1 && b->gw >= 0) {
		const char *a = csvio_get(t, r, (size_t)b->gw);
		const char *h = csvio_get(t, r, (size_t)b->hide);

		if (*f->gw == '\0' && *f->hide == '\0') {
			f->gw = a;
			f->hide = h;
		} else if (strcmp(a, f->gw) != 0 || strcmp(h, f->hide) != 0) {
			pf_errl(t->fname, csvio_line(t, r),
			    "candidate '%s': pieces disagree on PIM "
			    "settings", f->cand);
			return -1;
		}
	}
	return 0;
}

/*
 * Piece r (not the first, r0, when later) into f and its step's time:
 * 0, -1 after a report, 1 when PIM refused it.
 */
static int
fold_piece(const struct table *t, const struct mblock *b, size_t r,
    size_t r0, int later, struct fold *f, const char **why)
{
	int64_t *step = b->step, st = b->st[r];
	enum task_dev td;
	long long ps;
	int d, k;

	/* the first piece is the one the others agree with */
	if (later && piece_agrees(t, b->c, r, r0, f->cand) < 0)
		return -1;
	if (task_device(t, r, b->c[N_DEV], &td) < 0)
		return -1;
	d = td == TASK_PIM;
	b->dev[r] = (unsigned char)d;
	f->devs |= 1 << d;
	if ((k = piece_ps(t, b, r, d, f->cand, &ps, why)) != 0)
		return k;
	if (band_piece(t, b, r, d, ps, &f->bs) < 0)
		return -1;
	if (ck_add(step[st * 2 + d], ps, &step[st * 2 + d]) < 0 ||
	    ck_add(d == 0 ? f->gpu : f->pim, ps, d == 0 ? &f->gpu :
	    &f->pim) < 0) {
		pf_errl(t->fname, csvio_line(t, r), "candidate '%s': "
		    "its %s time passes %s ns", f->cand, csvio_get(t, r,
		    (size_t)b->c[N_DEV]), MERGE_MAX_NS);
		return -1;
	}
	return piece_rest(t, b, r, d, f);
}

/*
 * The candidate's wall time: each step's slower device, and with both
 * devices, a join after each step (row r0 in reports).  0 or -1.
 */
static int
fold_wall(const struct table *t, const struct mblock *b, size_t r0,
    const struct fold *f, double sync_ns, int64_t *wall)
{
	int64_t st, sync_ps = llround(sync_ns * 1000.0);

	*wall = 0;
	for (st = 0; st < f->nstep; st++) {
		int64_t a = b->step[st * 2], p = b->step[st * 2 + 1];

		/* a two-device candidate joins (or hands over) after each step */
		if (ck_add(*wall, a > p ? a : p, wall) < 0 ||
		    (f->devs == 3 && ck_add(*wall, sync_ps, wall) < 0)) {
			pf_errl(t->fname, csvio_line(t, r0),
			    "candidate '%s': its wall time passes %s ns",
			    f->cand, MERGE_MAX_NS);
			return -1;
		}
	}
	return 0;
}

/* The hand-offs handoffs works out, as fold writes them. */
struct foldho {
	int64_t		inner;
	long long	in_ps, out_ps;
	int		din, dout;
};

/* The candidate's row of out: f, its wall time, its hand-offs h. */
static void
fold_put(const struct table *t, const struct mblock *b, size_t r0,
    const struct fold *f, int64_t wall, const struct foldho *h,
    struct table *out)
{
	size_t j, r = csvio_addrow(out);

	csvio_set(out, r, TC_CAND, f->cand);
	for (j = 0; j < sizeof(same) / sizeof(same[0]); j++)
		csvio_set(out, r, TC_FIRST + j, csvio_get(t, r0,
		    (size_t)b->c[same[j]]));
	csvio_set(out, r, TC_GWRITE, f->gw);
	csvio_set(out, r, TC_HIDING, f->hide);
	put_ns(out, r, TC_GPU_NS, f->gpu);
	put_ns(out, r, TC_PIM_NS, f->pim);
	put_ns(out, r, TC_NS, wall);
	csvio_set(out, r, TC_GPU_CLOCK, f->clk);
	if (f->have_e)
		csvio_setfix(out, r, TC_ENERGY, f->energy, 3);
	for (j = 0; j < 2; j++)
		if (f->sw[j] >= 0)
			csvio_setfix(out, r, TC_GPU_STATIC + j, f->sw[j], 6);
	put_ns(out, r, TC_HANDOFF, h->inner);
	csvio_set(out, r, TC_DEV_IN, devset[h->din]);
	csvio_set(out, r, TC_DEV_OUT, devset[h->dout]);
	put_ns(out, r, TC_HANDOFF_IN, h->in_ps);
	put_ns(out, r, TC_HANDOFF_OUT, h->out_ps);
	if (f->tens >= 0)
		csvio_setint(out, r, TC_GPU_TENSOR, f->tens);
	band_put(out, r, b, &f->bs);
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
	size_t k, r0 = idx[g->lo];
	struct foldho h = { 0, 0, 0, 1, 1 };
	struct fold f;
	int64_t ratio, wall;
	int rc;

	memset(&f, 0, sizeof(f));
	f.cand = csvio_get(t, r0, (size_t)b->c[N_CAND]);
	f.have_e = b->energy >= 0;
	f.sw[0] = f.sw[1] = -1;
	f.tens = -1;
	f.gw = f.hide = f.clk = "";
	if (fold_steps(t, b, idx, g, &f) < 0)
		return -1;
	if (csvio_int_in(t, r0, (size_t)b->c[N_RATIO], 0, 100, &ratio) < 0)
		return -1;
	memset(b->step, 0, (size_t)f.nstep * 2 * sizeof(*b->step));
	for (k = g->lo; k < g->hi; k++)
		if ((rc = fold_piece(t, b, idx[k], r0, k > g->lo, &f, why)) != 0)
			return rc;
	if (handoffs(t, b, idx, g, b->step, &h.inner, &h.din, &h.dout,
	    &h.in_ps, &h.out_ps) < 0)
		return -1;
	if (fold_wall(t, b, r0, &f, sync_ns, &wall) < 0)
		return -1;
	fold_put(t, b, r0, &f, wall, &h, out);
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

/* Block t's columns into b (-1: absent): 0, or -1 after a report. */
static int
mblock_cols(const struct table *t, struct mblock *b, struct layer_cache *geom)
{
	if (csvio_need(t, task_head_cols, b->c) < 0 ||
	    csvio_need(t, nscol, &b->c[N_NS]) < 0 || check_geometry(t, geom) < 0)
		return -1;
	b->gw = csvio_col(t, task_pim_cols[TT_PIM_GWRITE]);
	b->hide = csvio_col(t, task_pim_cols[TT_PIM_HIDING]);
	if ((b->gw < 0) != (b->hide < 0)) {
		pf_errl(t->fname, 1, "missing column '%s'",
		    task_pim_cols[b->gw < 0 ? TT_PIM_GWRITE : TT_PIM_HIDING]);
		return -1;
	}
	b->hc[0] = csvio_col(t, TASK_COL_HANDOFF_IN);
	b->hc[1] = csvio_col(t, TASK_COL_HANDOFF_OUT);
	b->layer = csvio_col(t, "layer");
	b->clk = csvio_col(t, TASK_COL_GPU_CLOCK);
	b->energy = csvio_col(t, TASK_COL_ENERGY);
	b->stat = csvio_col(t, TASK_COL_STATIC);
	b->tens = csvio_col(t, TASK_COL_GPU_TENSOR);
	b->op = csvio_col(t, "op");
	b->groups = csvio_col(t, "groups");
	b->inc = csvio_col(t, "in_c");
	b->disp = csvio_col(t, TASK_COL_DISPATCH);
	b->dtype = csvio_col(t, "dtype");
	b->rfc = csvio_col(t, TASK_COL_REFUSED);
	return 0;
}

/*
 * Row i starts candidate cand: it comes in the order of its first
 * layer, and not again after another's pieces (m->seen, the candidates
 * of its first layer).  0, or -1 after a report.
 */
static int
merge_cand(struct merge *m, const struct table *t, size_t i, long fc,
    const char *cand)
{
	int64_t first;

	if (csvio_int(t, i, (size_t)fc, &first) < 0)
		return -1;
	if (m->any && first < m->first) {
		pf_errl(t->fname, csvio_line(t, i), "candidate '%s': first "
		    "layer %lld after candidates of layer %lld (candidates "
		    "come in the order of their first layer, as pf-split "
		    "writes them)", cand, (long long)first,
		    (long long)m->first);
		return -1;
	}
	if (!m->any || first > m->first)
		solve_names_clear(m->seen);
	m->first = first;
	m->any = 1;
	if (solve_names_add(m->seen, cand)) {
		pf_errl(t->fname, csvio_line(t, i), "candidate '%s': its "
		    "pieces come again after another candidate's (they must be "
		    "together, as pf-split writes them)", cand);
		return -1;
	}
	return 0;
}

/* t's candidates, each a run of rows, into g: their number, or -1. */
static long
merge_groups(struct merge *m, const struct table *t, const long *c,
    struct group *g)
{
	const char *cand;
	size_t i, ng = 0;

	for (i = 0; i < t->nrows; i++) {
		cand = csvio_get(t, i, (size_t)c[N_CAND]);
		if (i == 0 || strcmp(csvio_get(t, i - 1, (size_t)c[N_CAND]),
		    cand) != 0) {
			if (merge_cand(m, t, i, c[N_FIRST], cand) < 0)
				return -1;
			g[ng].first_row = i;
			g[ng++].lo = i;
		}
		g[ng - 1].hi = i + 1;
	}
	return (long)ng;
}

int
merge_rows(struct merge *m, const struct table *t)
{
	struct mblock b;
	size_t *idx = NULL, i;
	const char *why = NULL;
	struct group *g = NULL;
	long ng;
	int k, rc = -1;

	csvio_droprows(&m->out);
	if (mblock_cols(t, &b, m->geom) < 0)
		return -1;
	for (i = 0; i < t->nrows; i++)
		if (*csvio_get(t, i, (size_t)b.c[N_CAND]) == '\0') {
			pf_errl(t->fname, csvio_line(t, i),
			    "column 'cand': empty field");
			return -1;
		}
	/* the rows in their order: fold takes an index of them */
	idx = xcalloc(t->nrows + 1, sizeof(*idx));
	g = xcalloc(t->nrows + 1, sizeof(*g));
	/* steps are 0..4096 (fold checks) */
	b.step = xcalloc(2 * 4097, sizeof(*b.step));
	b.st = xcalloc(t->nrows + 1, sizeof(*b.st));
	b.lay = xcalloc(t->nrows + 1, sizeof(*b.lay));
	b.dev = xcalloc(t->nrows + 1, 1);
	for (i = 0; i < t->nrows; i++)
		idx[i] = i;
	if ((ng = merge_groups(m, t, b.c, g)) < 0)
		goto done;
	for (i = 0; i < (size_t)ng; i++) {
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

int
merge_main(double sync_ns, char **argv, int argc)
{
	struct merge m;
	int rc;

	merge_init(&m, sync_ns);
	rc = csvio_stream_stdout(argv, argc, "cand", merge_block, merge_done,
	    &m) == 0 ? PF_EXIT_OK : PF_EXIT_DATA;
	merge_free(&m);
	return rc;
}
