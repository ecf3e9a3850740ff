/*
 * The error band's inputs (solve_band.h): the GPU model's error table,
 * the PIM dispatch and hand-off ranges, each candidate's GPU time by
 * kernel class, and the generator its samples draw from.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "diag.h"
#include "solve_band.h"
#include "solve_merge_ns.h"
#include "xalloc.h"

const char *const solve_band_cost_cols[] = {
	"gpu_gemm_ns", "gpu_conv_ns", "gpu_depthwise_ns",
	"gpu_elementwise_ns", "pim_dispatch_ns", "gpu_dtype", NULL
};

static const char *const cname[BC_N] = { "gemm", "conv", "depthwise",
	"elementwise" };

const char *const solve_band_dev_names[BAND_NDEV] = { "gpu", "pim", "split",
	"pipe", "dag" };

const char *
solve_band_class_name(enum band_class c)
{
	return cname[c];
}

enum band_class
solve_band_class_of(const char *op, const char *groups, const char *in_c)
{
	if (strcmp(op, "gemm") == 0 || strcmp(op, "matmul") == 0)
		return BC_GEMM;
	if (strcmp(op, "conv") != 0)
		return BC_ELT;
	if (*groups != '\0' && strcmp(groups, "1") != 0 &&
	    strcmp(groups, in_c) == 0)
		return BC_DW;
	return BC_CONV;
}

int
solve_band_dev(enum cand_kind k)
{
	switch (k) {
	case K_PIM:
		return 1;
	case K_SPLIT:
		return 2;
	case K_PIPE:
		return 3;
	case K_DAG:
		return 4;
	default:
		return 0;
	}
}

uint64_t
solve_band_rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A standard normal by Box-Muller from two uniforms in (0, 1). */
double
solve_band_rng_normal(uint64_t *s)
{
	double u = ((double)(solve_band_rng_next(s) >> 11) + 0.5) * 0x1p-53;
	double v = ((double)(solve_band_rng_next(s) >> 11) + 0.5) * 0x1p-53;

	return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* A number cell of t that must be finite (and >= 0 when nonneg). */
static int
cell_num(const struct table *t, size_t r, long col, int nonneg, double *v)
{
	const char *s = csvio_get(t, r, (size_t)col);

	if (csvio_parse_double(s, v) < 0 || !isfinite(*v) || (nonneg && *v < 0)) {
		pf_errl(t->fname, csvio_line(t, r), "column '%s': bad value "
		    "'%s'", t->cols[col], s);
		return -1;
	}
	return 0;
}

/* The range row of pim for quantity q as factors of its nominal value. */
static int
load_range(const struct table *t, const long *rc, const char *pim,
    const char *q, double f[2])
{
	double nom, lo, hi;
	size_t r;

	for (r = 0; r < t->nrows; r++) {
		if (strcmp(csvio_get(t, r, (size_t)rc[0]), pim) != 0 ||
		    strcmp(csvio_get(t, r, (size_t)rc[1]), q) != 0)
			continue;
		if (cell_num(t, r, rc[2], 1, &nom) < 0 ||
		    cell_num(t, r, rc[3], 1, &lo) < 0 ||
		    cell_num(t, r, rc[4], 1, &hi) < 0)
			return -1;
		if (!(nom > 0) || lo > hi) {
			pf_errl(t->fname, csvio_line(t, r), "%s: want nominal "
			    "above 0 and lo <= hi", q);
			return -1;
		}
		f[0] = lo / nom;
		f[1] = hi / nom;
		return 0;
	}
	pf_err(t->fname, "no row for pim '%s', quantity '%s' (add "
	    "one, or run without the band: -U 0)", pim, q);
	return -1;
}

/* csvio_load into t (initialised), which stays valid on failure too. */
static int
load_into(const char *path, struct table *t)
{
	struct table n;

	if (csvio_load(path, &n) < 0)
		return -1;
	csvio_free(t);
	*t = n;
	return 0;
}

int
solve_band_model_load(struct band_model *m, const char *errpath, const char *gpu,
    const char *rangepath, const char *pim)
{
	static const char *const ecols[] = { "gpu", "dtype", "class", "bias",
		"sys_sd", "ind_sd", NULL };
	static const char *const rcols[] = { "pim", "quantity", "nominal_ns",
		"lo_ns", "hi_ns", NULL };
	struct table rt;
	long rc[5];
	char pname[64];
	double v;
	size_t r;
	int k, ok = -1;

	memset(m, 0, sizeof(*m));
	csvio_init(&m->err, NULL);
	conf_name(gpu, m->gpu, sizeof(m->gpu));
	conf_name(pim, pname, sizeof(pname));
	csvio_init(&rt, NULL);
	if (load_into(errpath, &m->err) < 0 ||
	    csvio_need(&m->err, ecols, m->ec) < 0)
		goto out;
	for (r = 0; r < m->err.nrows; r++)
		for (k = 3; k < 6; k++)
			if (cell_num(&m->err, r, m->ec[k], k > 3, &v) < 0)
				goto out;
	if (load_into(rangepath, &rt) < 0 || csvio_need(&rt, rcols, rc) < 0 ||
	    load_range(&rt, rc, pname, "dispatch_ns", m->disp) < 0 ||
	    load_range(&rt, rc, pname, "handoff_sync_ns", m->hand) < 0)
		goto out;
	ok = 0;
out:
	csvio_free(&rt);
	return ok;
}

void
solve_band_model_free(struct band_model *m)
{
	csvio_free(&m->err);
	memset(m, 0, sizeof(*m));
}

/*
 * The error of class c at precision dt: the row of the model's gpu and
 * dt, else of the gpu and '*', else '*' and dt, else '*' and '*'.
 */
static int
find_err(struct band_model *m, const char *dt, int c, struct band_err *e)
{
	const char *g[4] = { m->gpu, m->gpu, "*", "*" };
	const char *d[4] = { dt, "*", dt, "*" };
	const struct table *t = &m->err;
	double b;
	size_t r;
	int k;

	for (k = 0; k < 4; k++)
		for (r = 0; r < t->nrows; r++) {
			if (strcmp(csvio_get(t, r, (size_t)m->ec[0]), g[k]) ||
			    strcmp(csvio_get(t, r, (size_t)m->ec[1]), d[k]) ||
			    strcmp(csvio_get(t, r, (size_t)m->ec[2]), cname[c]))
				continue;
			(void)csvio_parse_double(csvio_get(t, r, (size_t)m->ec[3]), &b);
			(void)csvio_parse_double(csvio_get(t, r, (size_t)m->ec[4]),
			    &e->sys);
			(void)csvio_parse_double(csvio_get(t, r, (size_t)m->ec[5]),
			    &e->ind);
			e->mu = -b;
			e->known = 1;
			return 0;
		}
	return -1;
}

/* The index of precision dt, its errors found on first sight. */
static int
dtype_index(struct band_model *m, const char *dt, const struct table *t,
    size_t r)
{
	int i, c;

	for (i = 0; i < m->ndt; i++)
		if (strcmp(m->dt[i], dt) == 0)
			return i;
	if (m->ndt == BAND_MAXDT || strlen(dt) >= sizeof(m->dt[0])) {
		pf_errl(t->fname, csvio_line(t, r), "column 'gpu_dtype': "
		    "more than %d precisions, or '%s' too long", BAND_MAXDT,
		    dt);
		return -1;
	}
	strcpy(m->dt[m->ndt], dt);
	for (c = 0; c < BC_N; c++)
		(void)find_err(m, dt, c, &m->e[m->ndt][c]);
	return m->ndt++;
}

int
solve_band_cands_begin(struct band_cands *b, struct band_model *m,
    const struct table *t)
{
	int i;

	size_t limit = b->limit;

	memset(b, 0, sizeof(*b));
	b->m = m;
	b->fname = t->fname;
	b->limit = limit;
	for (i = 0; i < BCC_N; i++)
		if ((b->col[i] = csvio_col(t, solve_band_cost_cols[i])) < 0) {
			pf_errl(t->fname, 1, "missing column '%s' (-U needs "
			    "pf-merge's per-class columns)", solve_band_cost_cols[i]);
			return -1;
		}
	b->inner = csvio_col(t, "handoff_ns");
	return 0;
}

int
solve_band_cands_row(struct band_cands *b, const struct table *t, size_t r,
    size_t i)
{
	struct band_cand *x;
	int c, d;

	if (b->over || (b->limit > 0 && i >= b->limit)) {
		free(b->v);
		b->v = NULL;
		b->n = b->cap = 0;
		b->over = 1;
		return 0;
	}
	if (i >= b->cap) {
		b->cap = b->cap ? b->cap * 2 : 1024;
		if (b->cap <= i)
			b->cap = i + 1;
		b->v = xreallocarray(b->v, b->cap, sizeof(*b->v));
	}
	x = &b->v[i];
	memset(x, 0, sizeof(*x));
	if (i + 1 > b->n)
		b->n = i + 1;
	for (c = 0; c < BC_N; c++)
		if (merge_cell_ps(t, r, b->col[BCC_GPU0 + c], &x->g[c]) < 0)
			return -1;
	if (merge_cell_ps(t, r, b->col[BCC_DISPATCH], &x->disp) < 0 ||
	    merge_cell_ps(t, r, b->inner, &x->inner) < 0)
		return -1;
	if ((d = dtype_index(b->m, csvio_get(t, r, (size_t)b->col[BCC_DTYPE]),
	    t, r)) < 0)
		return -1;
	x->dt = (unsigned char)d;
	for (c = 0; c < BC_N; c++)
		if (x->g[c] > 0 && !b->m->e[d][c].known) {
			pf_errl(t->fname, csvio_line(t, r), "no error model for "
			    "gpu '%s', dtype '%s', class '%s' (nor a '*' row)",
			    b->m->gpu, b->m->dt[d], cname[c]);
			return -1;
		}
	return 0;
}

void
solve_band_cands_free(struct band_cands *b)
{
	free(b->v);
	memset(b, 0, sizeof(*b));
}
