/*
 * pf-solve's tables: costs and layers in, plan and summary out
 * (solve_io.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "jsonw.h"
#include "solve_merge.h"
#include "solve_io.h"
#include "task.h"
#include "xalloc.h"

static const char *const plancols[] = {
	"layer", "name", "op", "kind", "axis", "ratio", "segment", "gpu_ns",
	"pim_ns", "ns", "base_ns", "energy_nj", "objective", "handoff_ns",
	"align_only", NULL
};

void
solve_in_init(struct solve_in *in)
{
	memset(in, 0, sizeof(*in));
	in->nlayers = -1;
}

void
solve_in_free(struct solve_in *in)
{
	size_t i;
	int64_t j;

	for (i = 0; i < in->nc; i++) {
		free(in->c[i].id);
		free(in->c[i].dev);
	}
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
	solve_in_init(in);
}

int
solve_read_layers(const struct table *t, struct solve_in *in)
{
	static const char *const cols[] = { "layer", "name", "op", "preds",
	    NULL };
	long c[4], rcol = table_col(t, "resident"), bcol = table_col(t, "batch");
	long ccol = table_col(t, "costed");
	size_t i, n = t->nrows;
	int64_t v;

	if (table_need(t, cols, c) < 0)
		return -1;
	in->nlayers = (int64_t)n;
	in->kv = xcalloc(n + 1, 1);
	for (i = 0; rcol >= 0 && i < n; i++)
		if (strcmp(table_get(t, i, (size_t)rcol), "kv") == 0 &&
		    strcmp(table_get(t, i, (size_t)c[2]), "matmul") == 0)
			in->kv[i] = 1, in->have_kv = 1;
	/* an op onnx2layers does not know, kept with -k (costed = bytes) */
	if (ccol >= 0) {
		in->bytes_only = xcalloc(n + 1, 1);
		for (i = 0; i < n; i++)
			if (strcmp(table_get(t, i, (size_t)ccol), "bytes") == 0)
				in->bytes_only[i] = 1, in->nbytes_only++;
	}
	in->tokens = 1;
	if (bcol >= 0 && n > 0 && (table_int(t, 0, (size_t)bcol, &v) < 0 ||
	    v < 1))
		return -1;
	if (bcol >= 0 && n > 0)
		in->tokens = v;
	in->names = xcalloc(n + 1, sizeof(char *));
	in->ops = xcalloc(n + 1, sizeof(char *));
	in->preds = xcalloc(n + 1, sizeof(int64_t *));
	in->npreds = xcalloc(n + 1, sizeof(int));
	for (i = 0; i < n; i++) {
		const char *s = table_get(t, i, (size_t)c[3]);
		char *buf, *p, *save = NULL;

		in->names[i] = xstrdup(table_get(t, i, (size_t)c[1]));
		in->ops[i] = xstrdup(table_get(t, i, (size_t)c[2]));
		in->preds[i] = xcalloc(strlen(s) / 2 + 1, sizeof(int64_t));
		if (table_int(t, i, (size_t)c[0], &v) < 0)
			return -1;
		if (v != (int64_t)i) {
			pf_errl(t->fname, table_line(t, i),
			    "column 'layer': expected %zu, not '%s'", i,
			    table_get(t, i, (size_t)c[0]));
			return -1;
		}
		buf = xstrdup(s);
		for (p = strtok_r(buf, " ", &save); p != NULL;
		    p = strtok_r(NULL, " ", &save)) {
			if (parse_int64(p, &v) < 0 || v < 0 || v >= (int64_t)i) {
				pf_errl(t->fname, table_line(t, i),
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

static int
optint(const struct table *t, size_t r, long col, int *v)
{
	int64_t x;

	if (*table_get(t, r, (size_t)col) == '\0') {
		*v = -1;
		return 0;
	}
	if (table_int(t, r, (size_t)col, &x) < 0)
		return -1;
	if (x < 0 || x > 1 << 20) {
		pf_errl(t->fname, table_line(t, r), "column '%s': bad value '%s'",
		    t->cols[col], table_get(t, r, (size_t)col));
		return -1;
	}
	*v = (int)x;
	return 0;
}

static int
getps(const struct table *t, size_t r, long col, long long *ps)
{
	if (ns_to_ps(table_get(t, r, (size_t)col), ps) < 0) {
		pf_errl(t->fname, table_line(t, r), "column '%s': bad time '%s'",
		    t->cols[col], table_get(t, r, (size_t)col));
		return -1;
	}
	return 0;
}

static const struct cand *sort_c;

static int
byid(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_c[x].id, sort_c[y].id);

	return c != 0 ? c : x < y ? -1 : x > y;
}

static int
byfirst(const void *a, const void *b)
{
	const struct cand *x = &sort_c[*(const size_t *)a];
	const struct cand *y = &sort_c[*(const size_t *)b];

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * Without a layers table the layers are those the candidates cover: a
 * layer below the largest 'last' that no candidate covers is an error
 * naming the row reaching furthest, found before anything per layer is
 * allocated.
 */
static int
check_cover(const struct solve_in *in)
{
	size_t i, far = 0, *idx = xcalloc(in->nc + 1, sizeof(*idx));
	int64_t reach = 0;	/* layers 0..reach-1 are covered */
	int rc = 0;

	for (i = 0; i < in->nc; i++) {
		idx[i] = i;
		if (in->c[i].last > in->c[far].last)
			far = i;
	}
	sort_c = in->c;
	qsort(idx, in->nc, sizeof(*idx), byfirst);
	for (i = 0; i < in->nc && rc == 0; i++) {
		const struct cand *x = &in->c[idx[i]];

		if (x->first > reach) {
			pf_errl(in->fname, in->c[far].line, "candidate '%s' "
			    "covers layers %lld-%lld, but no candidate covers "
			    "layer %lld", in->c[far].id,
			    (long long)in->c[far].first,
			    (long long)in->c[far].last, (long long)reach);
			rc = -1;
		}
		if (x->last + 1 > reach)
			reach = x->last + 1;
	}
	free(idx);
	return rc;
}

/*
 * The edges of a candidate (pf-merge's hand-off columns, each optional:
 * absent or empty, the candidate reads and leaves its data on the GPU
 * and pays nothing there).
 */
static int
parse_edges(const struct table *t, size_t r, const long *hc, struct cand *x)
{
	static const char *const din[] = { "gpu", "pim", "both" };
	const char *s;
	int k, j;

	for (k = 0; k < 2; k++) {
		if (hc[k] < 0 || *(s = table_get(t, r, (size_t)hc[k])) == '\0')
			continue;
		for (j = 0; j < (k == 0 ? 3 : 2); j++)
			if (strcmp(s, din[j]) == 0)
				break;
		if (j == (k == 0 ? 3 : 2)) {
			pf_errl(t->fname, x->line, "column '%s': unknown "
			    "device '%s'", t->cols[hc[k]], s);
			return -1;
		}
		*(k == 0 ? &x->din : &x->dout) = (unsigned char)(j + 1);
	}
	if ((hc[2] >= 0 && *table_get(t, r, (size_t)hc[2]) != '\0' &&
	    getps(t, r, hc[2], &x->hin_ps) < 0) ||
	    (hc[3] >= 0 && *table_get(t, r, (size_t)hc[3]) != '\0' &&
	    getps(t, r, hc[3], &x->hout_ps) < 0))
		return -1;
	return 0;
}

static int
parse_row(const struct table *t, size_t r, const long *c, struct cand *x)
{
	enum task_axis ax;
	const char *s;
	int64_t v;
	int ratio;

	memset(x, 0, sizeof(*x));
	x->line = table_line(t, r);
	x->id = xstrdup(table_get(t, r, (size_t)c[TC_CAND]));
	if (*x->id == '\0') {
		pf_errl(t->fname, x->line, "column 'cand': empty field");
		return -1;
	}
	if (table_int(t, r, (size_t)c[TC_FIRST], &x->first) < 0 ||
	    table_int(t, r, (size_t)c[TC_LAST], &x->last) < 0)
		return -1;
	if (x->last >= SOLVE_MAX_LAYERS) {
		pf_errl(t->fname, x->line, "candidate '%s': layer %lld is past "
		    "the limit of %lld layers", x->id, (long long)x->last,
		    (long long)SOLVE_MAX_LAYERS);
		return -1;
	}
	if (x->first < 0 || x->last < x->first) {
		pf_errl(t->fname, x->line, "candidate '%s': bad layer range "
		    "%lld-%lld", x->id, (long long)x->first,
		    (long long)x->last);
		return -1;
	}
	s = table_get(t, r, (size_t)c[TC_KIND]);
	if (kind_parse(s, &x->kind) < 0) {
		pf_errl(t->fname, x->line, "column 'kind': unknown kind '%s'", s);
		return -1;
	}
	s = table_get(t, r, (size_t)c[TC_AXIS]);
	if (task_axis_parse(s, &ax) == 0)
		x->axis = task_axes[ax].letter;
	else if (*s != '\0') {
		pf_errl(t->fname, x->line, "column 'axis': unknown axis '%s'", s);
		return -1;
	}
	if (table_int(t, r, (size_t)c[TC_RATIO], &v) < 0)
		return -1;
	if (v < 0 || v > 100) {
		pf_errl(t->fname, x->line, "column 'ratio': bad ratio '%s'",
		    table_get(t, r, (size_t)c[TC_RATIO]));
		return -1;
	}
	ratio = (int)v;
	x->ratio = ratio;
	if (optint(t, r, c[TC_GWRITE], &x->gwrite) < 0 ||
	    optint(t, r, c[TC_HIDING], &x->hiding) < 0 ||
	    getps(t, r, c[TC_GPU_NS], &x->gpu_ps) < 0 ||
	    getps(t, r, c[TC_PIM_NS], &x->pim_ps) < 0 ||
	    getps(t, r, c[TC_NS], &x->ps) < 0)
		return -1;
	return 0;
}

/*
 * Reading costs.csv a block of rows at a time (solve_load_costs) or whole
 * (solve_read_costs): the columns found once, each row parsed as it
 * comes, and what needs every row (duplicate ids, the cover, the static
 * powers) checked at the end, in the order of a whole-table read.
 */
struct costs_rd {
	long		 c[TC_NNEED], clk, hc[4], tc, ec, gc, pc;
	long		 clkline;	/* line of the first clock */
	int64_t		 maxlast;
	size_t		 cap;
	int		 energy;	/* every row so far has energy_nj */
	double		 gw[2], pw;	/* static powers seen, -1: none yet */
	/*
	 * The first fault in the energy columns: a whole-table read finds
	 * it after the other checks, so it is reported then.
	 */
	char		*eerr;
	long		 eline;
	/* the last clock and static powers read, as text: equal text is
	 * an equal value, checked once */
	char		 last[4][32];
};

/* Remember the first energy fault (reported by costs_end). */
static void
edefer(struct costs_rd *k, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void
edefer(struct costs_rd *k, long line, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	k->eerr = xstrdup(buf);
	k->eline = line;
}

/* s is the text last checked in slot i; else it becomes it (when short). */
static int
seen(struct costs_rd *k, int i, const char *s)
{
	size_t n = strlen(s);

	if (strcmp(k->last[i], s) == 0)
		return 1;
	if (n < sizeof(k->last[i]))
		memcpy(k->last[i], s, n + 1);
	else
		k->last[i][0] = '\0';
	return 0;
}

/* One row's gpu_clock_mhz: the first sets in->gpu_mhz, the rest agree. */
static int
readclock(const struct table *t, size_t r, struct costs_rd *k,
    struct solve_in *in)
{
	const char *s = table_get(t, r, (size_t)k->clk);
	double v;

	if (*s == '\0' || (k->clkline != 0 && seen(k, 3, s)))
		return 0;
	if (parse_double(s, &v) < 0 || !(v > 0) || v > 1e6) {
		pf_errl(t->fname, table_line(t, r), "column 'gpu_clock_mhz': "
		    "bad clock '%s'", s);
		return -1;
	}
	if (k->clkline == 0) {
		in->gpu_mhz = v;
		k->clkline = table_line(t, r);
		(void)seen(k, 3, s);
	} else if (v != in->gpu_mhz) {
		pf_errl(t->fname, table_line(t, r), "column 'gpu_clock_mhz': "
		    "'%s' differs from the clock of line %ld (costs of two "
		    "GPU configs)", s, k->clkline);
		k->last[3][0] = '\0';
		return -1;
	}
	return 0;
}

/*
 * One static power of a machine (slot i of k->last): the first value
 * seen, then equal ones; 0, or -1 with the fault deferred.
 */
static int
static_of(const struct table *t, size_t r, const struct cand *x, long col,
    double *w, struct costs_rd *k, int i)
{
	const char *s = table_get(t, r, (size_t)col);
	double v;

	if (*s == '\0' || (*w >= 0 && seen(k, i, s)))
		return 0;
	if (parse_double(s, &v) < 0 || !(v >= 0) || v > 1e9) {
		edefer(k, x->line, "column '%s': bad power '%s'", t->cols[col],
		    s);
		return -1;
	}
	if (*w >= 0 && *w != v) {
		edefer(k, x->line, "candidate '%s': column '%s' is %s, other "
		    "candidates of its machine say %g", x->id, t->cols[col], s,
		    *w);
		return -1;
	}
	*w = v;
	(void)seen(k, i, s);
	return 0;
}

/*
 * A row's energy (its own, in integer picojoules; the static share is
 * added by costs_end): read while every row before it had one.
 */
static void
energy_row(const struct table *t, size_t r, struct cand *x,
    struct costs_rd *k)
{
	const char *s = table_get(t, r, (size_t)k->ec);
	int part = x->kind != K_BASE;
	double v;

	if (*s == '\0') {
		k->energy = 0;
		return;
	}
	if (parse_double(s, &v) < 0 || !(v >= 0) || v > 9e12) {
		edefer(k, x->line, "column 'energy_nj': bad energy '%s'", s);
		return;
	}
	x->pj = llround(v * 1000.0);
	if (k->gc >= 0 && static_of(t, r, x, k->gc, &k->gw[part], k, part) < 0)
		return;
	if (k->pc >= 0 && part)
		(void)static_of(t, r, x, k->pc, &k->pw, k, 2);
}

static int
costs_begin(const struct table *t, struct solve_in *in, struct costs_rd *k)
{
	size_t i;

	memset(k, 0, sizeof(*k));
	if (table_need(t, task_cost_cols, k->c) < 0)
		return -1;
	k->clk = table_col(t, task_cost_opt[TC_GPU_CLOCK - TC_NNEED]);
	for (i = 0; i < 4; i++)
		k->hc[i] = table_col(t, task_cost_opt[TC_DEV_IN - TC_NNEED + i]);
	k->tc = table_col(t, task_cost_opt[TC_GPU_TENSOR - TC_NNEED]);
	k->ec = table_col(t, task_cost_opt[TC_ENERGY - TC_NNEED]);
	k->gc = table_col(t, task_cost_opt[TC_GPU_STATIC - TC_NNEED]);
	k->pc = table_col(t, task_cost_opt[TC_PIM_STATIC - TC_NNEED]);
	k->energy = k->ec >= 0;
	k->gw[0] = k->gw[1] = k->pw = -1;
	k->maxlast = -1;
	k->cap = 1024;
	in->c = xcalloc(k->cap, sizeof(*in->c));
	return 0;
}

/* The rows of one block (or of the whole table). */
static int
costs_rows(const struct table *t, struct solve_in *in, struct costs_rd *k)
{
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		struct cand *x;
		const char *s;

		if (in->nc + 1 >= k->cap) {
			k->cap *= 2;
			in->c = xreallocarray(in->c, k->cap, sizeof(*in->c));
		}
		x = &in->c[in->nc++];
		if (parse_row(t, i, k->c, x) < 0 ||
		    parse_edges(t, i, k->hc, x) < 0)
			return -1;
		x->tensor = -1;
		if (k->tc >= 0 && *(s = table_get(t, i, (size_t)k->tc)) != '\0') {
			if (strcmp(s, "0") != 0 && strcmp(s, "1") != 0) {
				pf_errl(t->fname, x->line, "column 'gpu_tensor': "
				    "expected 0 or 1, not '%s'", s);
				return -1;
			}
			x->tensor = s[0] == '1';
		}
		if (in->nlayers >= 0 && x->last >= in->nlayers) {
			pf_errl(t->fname, x->line, "candidate '%s' covers "
			    "layers %lld-%lld, beyond the last layer %lld",
			    x->id, (long long)x->first, (long long)x->last,
			    (long long)in->nlayers - 1);
			return -1;
		}
		if (x->last > k->maxlast)
			k->maxlast = x->last;
		if (k->clk >= 0 && readclock(t, i, k, in) < 0)
			return -1;
		if (k->energy && k->eerr == NULL)
			energy_row(t, i, x, k);
	}
	return 0;
}

/* FNV-1a of an id. */
static size_t
idhash(const char *s)
{
	size_t h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Whether two candidates share an id (a hash set: one pass). */
static int
any_dup(const struct solve_in *in)
{
	size_t cap = 16, i, h, *set;
	int dup = 0;

	while (cap < 2 * in->nc)
		cap *= 2;
	set = xcalloc(cap, sizeof(*set));
	for (i = 0; i < in->nc && !dup; i++) {
		for (h = idhash(in->c[i].id) & (cap - 1); set[h] != 0;
		    h = (h + 1) & (cap - 1))
			if (strcmp(in->c[set[h] - 1].id, in->c[i].id) == 0) {
				dup = 1;
				break;
			}
		set[h] = i + 1;
	}
	free(set);
	return dup;
}

/* The checks and sums over every row, once all are read. */
static int
costs_end(struct solve_in *in, struct costs_rd *k)
{
	size_t i, *idx;
	int rc = 0;

	/* duplicate ids: sorted, reported at the later line */
	if (any_dup(in)) {
		idx = xcalloc(in->nc + 1, sizeof(*idx));
		for (i = 0; i < in->nc; i++)
			idx[i] = i;
		sort_c = in->c;
		qsort(idx, in->nc, sizeof(*idx), byid);
		for (i = 1; i < in->nc && rc == 0; i++)
			if (strcmp(in->c[idx[i]].id, in->c[idx[i - 1]].id) == 0) {
				pf_errl(in->fname, in->c[idx[i]].line,
				    "duplicate candidate '%s'", in->c[idx[i]].id);
				rc = -1;
			}
		free(idx);
		if (rc < 0)
			return -1;
	}
	if (in->nlayers < 0) {
		if (check_cover(in) < 0)
			return -1;
		in->nlayers = k->maxlast + 1;
	}
	if (k->eerr != NULL) {
		pf_errl(in->fname, k->eline, "%s", k->eerr);
		return -1;
	}
	in->have_energy = k->energy && in->nc > 0;
	if (!in->have_energy) {
		for (i = 0; i < in->nc; i++)
			in->c[i].pj = in->c[i].static_pj = 0;
	} else {
		in->static_w[0] = k->gw[0] > 0 ? k->gw[0] : 0;
		in->static_w[1] = (k->gw[1] > 0 ? k->gw[1] : 0) +
		    (k->pw > 0 ? k->pw : 0);
		for (i = 0; i < in->nc; i++) {
			struct cand *x = &in->c[i];

			/* W x ps = pJ */
			x->static_pj = llround(in->static_w[x->kind != K_BASE] *
			    (double)x->ps);
			x->pj += x->static_pj;
			/* a hand-off keeps the partitioned machine waiting */
			x->hin_pj = llround(in->static_w[1] * (double)x->hin_ps);
			x->hout_pj = llround(in->static_w[1] * (double)x->hout_ps);
		}
	}
	for (i = 0; in->kv != NULL && i < in->nc; i++) {
		int64_t j;

		for (j = in->c[i].first; j <= in->c[i].last && j < in->nlayers;
		    j++)
			if (j >= 0 && in->kv[j])
				in->c[i].kv = 1;
	}
	/*
	 * attn-pim on a KV layer that has no whole-layer pim candidate (its
	 * PIM pieces refused, pim-cycles(1)): its gpu candidate may run it
	 */
	if (in->kv != NULL) {
		unsigned char *haspim = xcalloc((size_t)in->nlayers + 1, 1);

		for (i = 0; i < in->nc; i++)
			if (in->c[i].kind == K_PIM && in->c[i].first ==
			    in->c[i].last && in->c[i].first < in->nlayers)
				haspim[in->c[i].first] = 1;
		for (i = 0; i < in->nc; i++)
			if (in->c[i].kind == K_GPU && in->c[i].kv &&
			    in->c[i].first == in->c[i].last &&
			    !haspim[in->c[i].first])
				in->c[i].kv_gpu = 1;
		free(haspim);
	}
	in->base_ps = xcalloc((size_t)in->nlayers + 1, sizeof(long long));
	in->base_tensor = xcalloc((size_t)in->nlayers + 1, sizeof(int));
	for (i = 0; i < (size_t)in->nlayers; i++) {
		in->base_ps[i] = -1;
		in->base_tensor[i] = -1;
	}
	for (i = 0; i < in->nc; i++) {
		const struct cand *x = &in->c[i];

		if (x->kind == K_BASE && x->first == x->last &&
		    in->base_ps[x->first] < 0) {
			in->base_ps[x->first] = x->ps;
			in->base_tensor[x->first] = x->tensor;
		}
	}
	return 0;
}

int
solve_read_costs(const struct table *t, struct solve_in *in)
{
	struct costs_rd k;
	int rc;

	in->fname = t->fname;
	rc = costs_begin(t, in, &k) < 0 || costs_rows(t, in, &k) < 0 ||
	    costs_end(in, &k) < 0 ? -1 : 0;
	free(k.eerr);
	return rc;
}

int
solve_load_costs(const char *path, struct solve_in *in)
{
	struct table_reader *r;
	struct costs_rd k;
	int rc = -1, n;

	in->fname = pf_inname(path);
	memset(&k, 0, sizeof(k));
	if ((r = table_reader_open(path, TABLE_BLOCK, NULL)) == NULL)
		return -1;
	if (costs_begin(table_reader_table(r), in, &k) < 0)
		goto out;
	while ((n = table_reader_next(r)) > 0)
		if (costs_rows(table_reader_table(r), in, &k) < 0)
			goto out;
	if (n == 0 && costs_end(in, &k) == 0)
		rc = 0;
out:
	table_reader_close(r);
	free(k.eerr);
	return rc;
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

int
solve_policy(const struct solve_in *in, enum policy p,
    const struct objective *o, struct plan *pl, struct solve_result *r)
{
	int64_t bad, stuck;
	int rc;

	memset(r, 0, sizeof(*r));
	rc = solve_dp(in->c, in->nc, in->nlayers, p, o, pl, &bad, &stuck);
	if (rc == -2) {
		struct objective u = *o;

		pf_warn(in->fname, "policy '%s': no plan keeps the power cap "
		    "of %.3f W; its best plan without the cap is reported",
		    policy_name(p), (double)o->cap_mw / 1000.0);
		u.cap_mw = 0;
		r->over_cap = 1;
		rc = solve_dp(in->c, in->nc, in->nlayers, p, &u, pl, &bad,
		    &stuck);
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
solve_policies(const struct solve_in *in, const struct objective *o,
    int fixed, const unsigned char *want, struct plan *plans,
    struct solve_result *res)
{
	struct objective u = *o;
	int p, have_none = 0, any = 0, rc;
	int64_t bad, stuck;

	u.cap_mw = 0;
	for (p = 1; p < P_NPOL; p++)
		any |= want[p];
	if (want[P_NONE]) {
		if (solve_policy(in, P_NONE, o, &plans[P_NONE],
		    &res[P_NONE]) < 0)
			return -1;
		have_none = 1;
	} else if (any && !fixed && ((rc = solve_dp(in->c, in->nc,
	    in->nlayers, P_NONE, o, &plans[P_NONE], &bad, &stuck)) == 0 ||
	    (rc == -2 && solve_dp(in->c, in->nc, in->nlayers, P_NONE, &u,
	    &plans[P_NONE], &bad, &stuck) == 0))) {
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
		if (solve_policy(in, (enum policy)p, o, pl, r) < 0)
			return -1;
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
	return 0;
}

static void
setps(struct table *t, size_t r, size_t col, long long ps)
{
	char buf[64];

	ps_to_ns(ps, buf, sizeof(buf));
	table_set(t, r, col, buf);
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
solve_plan_table(const struct solve_in *in, const struct plan *pl,
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
	table_init(out, "<stdout>");
	for (i = 0; plancols[i] != NULL; i++)
		table_addcol(out, plancols[i]);
	if (in->bytes_only != NULL)
		table_addcol(out, "costed");
	for (k = 0; k < pl->nseg; k++) {
		const struct cand *x = &in->c[pl->seg[k]];

		for (j = x->first; j <= x->last; j++) {
			int dag = x->kind == K_DAG, d = dag ?
			    x->dev[j - x->first] : 0;
			char ax[2] = { x->axis, '\0' };

			r = table_addrow(out);
			table_setint(out, r, 0, j);
			if (in->names != NULL) {
				table_set(out, r, 1, in->names[j]);
				table_set(out, r, 2, in->ops[j]);
			}
			table_set(out, r, 3, dag ? (d ? "pim" : "gpu") :
			    kind_name(x->kind));
			table_set(out, r, 4, ax);
			table_setint(out, r, 5, dag ? (d ? 0 : 100) : x->ratio);
			table_set(out, r, 6, x->id);
			/* a multi-layer segment's times stand on its first layer */
			setps(out, r, 7, j == x->first ? x->gpu_ps : 0);
			setps(out, r, 8, j == x->first ? x->pim_ps : 0);
			/* with the hand-offs at its edges: ns adds up to the plan */
			setps(out, r, 9, j == x->first ? x->ps + pl->hps[k] : 0);
			if (in->base_ps[j] >= 0)
				setps(out, r, 10, in->base_ps[j]);
			if (in->have_energy)
				setps(out, r, 11, j == x->first ? x->pj +
				    pl->hpj[k] : 0);
			table_set(out, r, 12, obj);
			setps(out, r, 13, j == x->first ? pl->hps[k] : 0);
			table_setint(out, r, 14, align_only(in, x, j));
			if (in->bytes_only != NULL)
				table_set(out, r, 15, in->bytes_only[j] ?
				    "bytes" : "model");
		}
	}
}

int
solve_summary(FILE *fp, const struct solve_in *in, const char *model,
    double mhz, const struct objective *o, int fixed,
    const struct solve_result *res, int dag_window, long long dag_lb_ps)
{
	struct jsonw w;
	int p, k;

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
	for (p = 0; p < P_NPOL; p++) {
		double ns = (double)res[p].ps / 1000.0;

		/* the decoder reference exists only where there is a cache */
		if (p == P_ATTNPIM && !in->have_kv)
			continue;

		jw_obj(&w, NULL);
		jw_str(&w, "policy", policy_name((enum policy)p));
		jw_num(&w, "ns", ns, 3);
		/* GPU core cycles: ns * MHz / 1000 */
		jw_num(&w, "gpu_cycles", ns * mhz / 1000.0, 3);
		jw_num(&w, "speedup", res[p].ps > 0 ?
		    (double)res[P_NONE].ps / (double)res[p].ps : NAN, 6);
		jw_bool(&w, "chose_none", res[p].chose_none);
		if (o->cap_mw > 0)
			jw_bool(&w, "over_cap", res[p].over_cap);
		jw_num(&w, "fixed_ns", (double)res[p].fixed_ps / 1000.0, 3);
		jw_num(&w, "fixed_speedup", res[p].fixed_ps > 0 ?
		    (double)res[P_NONE].ps / (double)res[p].fixed_ps : NAN, 6);
		if (in->have_energy) {
			jw_num(&w, "energy_nj", (double)res[p].pj / 1000.0, 3);
			jw_num(&w, "static_nj", (double)res[p].static_pj / 1000.0,
			    3);
			/* pJ / ps = W */
			jw_num(&w, "power_w", res[p].ps > 0 ?
			    (double)res[p].pj / (double)res[p].ps : NAN, 6);
			jw_num(&w, "energy_ratio", res[P_NONE].pj > 0 ?
			    (double)res[p].pj / (double)res[P_NONE].pj : NAN, 6);
			jw_num(&w, "fixed_energy_nj",
			    (double)res[p].fixed_pj / 1000.0, 3);
			jw_num(&w, "fixed_energy_ratio", res[P_NONE].pj > 0 ?
			    (double)res[p].fixed_pj / (double)res[P_NONE].pj :
			    NAN, 6);
		}
		jw_obj(&w, "layers");
		for (k = 0; k < K_DAG; k++)
			jw_int(&w, kind_name((enum cand_kind)k),
			    res[p].layers[k]);
		jw_end(&w);
		if (in->have_kv) {
			const struct solve_result *r = &res[p];
			double all = (double)(r->attn_ps + r->fc_ps + r->rest_ps);

			jw_obj(&w, "decode");
			jw_int(&w, "tokens", in->tokens);
			jw_num(&w, "step_ns", ns, 3);
			jw_num(&w, "tokens_per_s", ns > 0 ?
			    (double)in->tokens * 1e9 / ns : NAN, 3);
			jw_num(&w, "attn_share", all > 0 ?
			    (double)r->attn_ps / all : NAN, 6);
			jw_num(&w, "fc_share", all > 0 ?
			    (double)r->fc_ps / all : NAN, 6);
			jw_num(&w, "rest_share", all > 0 ?
			    (double)r->rest_ps / all : NAN, 6);
			jw_end(&w);
		}
		jw_end(&w);
	}
	jw_end(&w);
	if (dag_window > 0) {
		jw_int(&w, "dag_window", dag_window);
		jw_num(&w, "dag_lower_bound_ns", (double)dag_lb_ps / 1000.0, 3);
	}
	jw_end(&w);
	return jw_finish(&w);
}
