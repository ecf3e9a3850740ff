/*
 * pf-solve's costs.csv reader (solve_io.h): the candidates, their edges,
 * times, clock and energy columns, read whole or a block at a time, and
 * what needs every row (duplicate ids, the cover, the static powers)
 * checked at the end.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "nameix.h"
#include "solve_band.h"
#include "solve_merge_ns.h"
#include "solve_io.h"
#include "task.h"
#include "xalloc.h"

static int
optint(const struct table *t, size_t r, long col, int *v)
{
	int64_t x;

	if (*csvio_get(t, r, (size_t)col) == '\0') {
		*v = -1;
		return 0;
	}
	if (csvio_int(t, r, (size_t)col, &x) < 0)
		return -1;
	if (x < 0 || x > 1 << 20) {
		pf_errl(t->fname, csvio_line(t, r), "column '%s': bad value '%s'",
		    t->cols[col], csvio_get(t, r, (size_t)col));
		return -1;
	}
	*v = (int)x;
	return 0;
}

static int
getps(const struct table *t, size_t r, long col, long long *ps)
{
	if (merge_ns_to_ps(csvio_get(t, r, (size_t)col), ps) < 0) {
		pf_errl(t->fname, csvio_line(t, r), "column '%s': bad time '%s'",
		    t->cols[col], csvio_get(t, r, (size_t)col));
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
		if (hc[k] < 0 || *(s = csvio_get(t, r, (size_t)hc[k])) == '\0')
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
	if ((hc[2] >= 0 && *csvio_get(t, r, (size_t)hc[2]) != '\0' &&
	    getps(t, r, hc[2], &x->hin_ps) < 0) ||
	    (hc[3] >= 0 && *csvio_get(t, r, (size_t)hc[3]) != '\0' &&
	    getps(t, r, hc[3], &x->hout_ps) < 0))
		return -1;
	return 0;
}

static int
parse_row(const struct table *t, size_t r, const long *c, struct cand *x,
    struct solve_in *in)
{
	enum task_axis ax;
	const char *s;
	int64_t v;
	int ratio;

	memset(x, 0, sizeof(*x));
	x->line = csvio_line(t, r);
	x->id = textpool_dup(&in->ids, csvio_get(t, r, (size_t)c[TC_CAND]));
	if (*x->id == '\0') {
		pf_errl(t->fname, x->line, "column 'cand': empty field");
		return -1;
	}
	if (csvio_int(t, r, (size_t)c[TC_FIRST], &x->first) < 0 ||
	    csvio_int(t, r, (size_t)c[TC_LAST], &x->last) < 0)
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
	s = csvio_get(t, r, (size_t)c[TC_KIND]);
	if (solve_kind_parse(s, &x->kind) < 0) {
		pf_errl(t->fname, x->line, "column 'kind': unknown kind '%s'", s);
		return -1;
	}
	s = csvio_get(t, r, (size_t)c[TC_AXIS]);
	if (task_axis_parse(s, &ax) == 0)
		x->axis = task_axis_letter(ax);
	else if (*s != '\0') {
		pf_errl(t->fname, x->line, "column 'axis': unknown axis '%s'", s);
		return -1;
	}
	if (csvio_int(t, r, (size_t)c[TC_RATIO], &v) < 0)
		return -1;
	if (v < 0 || v > 100) {
		pf_errl(t->fname, x->line, "column 'ratio': bad ratio '%s'",
		    csvio_get(t, r, (size_t)c[TC_RATIO]));
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
 * Reading costs.csv a block of rows at a time (solve_io_load_costs) or whole
 * (solve_io_read_costs): the columns found once, each row parsed as it
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
	const char *s = csvio_get(t, r, (size_t)k->clk);
	double v;

	if (*s == '\0' || (k->clkline != 0 && seen(k, 3, s)))
		return 0;
	if (csvio_parse_double(s, &v) < 0 || !(v > 0) || v > 1e6) {
		pf_errl(t->fname, csvio_line(t, r), "column 'gpu_clock_mhz': "
		    "bad clock '%s'", s);
		return -1;
	}
	if (k->clkline == 0) {
		in->gpu_mhz = v;
		k->clkline = csvio_line(t, r);
		(void)seen(k, 3, s);
	} else if (v != in->gpu_mhz) {
		pf_errl(t->fname, csvio_line(t, r), "column 'gpu_clock_mhz': "
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
	const char *s = csvio_get(t, r, (size_t)col);
	double v;

	if (*s == '\0' || (*w >= 0 && seen(k, i, s)))
		return 0;
	if (csvio_parse_double(s, &v) < 0 || !(v >= 0) || v > 1e9) {
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
	const char *s = csvio_get(t, r, (size_t)k->ec);
	int part = x->kind != K_BASE;
	double v;

	if (*s == '\0') {
		k->energy = 0;
		return;
	}
	if (csvio_parse_double(s, &v) < 0 || !(v >= 0) || v > 9e12) {
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
	if (csvio_need(t, task_cost_cols, k->c) < 0)
		return -1;
	k->clk = csvio_col(t, task_cost_opt[TC_GPU_CLOCK - TC_NNEED]);
	for (i = 0; i < 4; i++)
		k->hc[i] = csvio_col(t, task_cost_opt[TC_DEV_IN - TC_NNEED + i]);
	k->tc = csvio_col(t, task_cost_opt[TC_GPU_TENSOR - TC_NNEED]);
	k->ec = csvio_col(t, task_cost_opt[TC_ENERGY - TC_NNEED]);
	k->gc = csvio_col(t, task_cost_opt[TC_GPU_STATIC - TC_NNEED]);
	k->pc = csvio_col(t, task_cost_opt[TC_PIM_STATIC - TC_NNEED]);
	k->energy = k->ec >= 0;
	k->gw[0] = k->gw[1] = k->pw = -1;
	k->maxlast = -1;
	k->cap = 1024;
	in->c = xcalloc(k->cap, sizeof(*in->c));
	if (in->band != NULL && solve_band_cands_begin(in->band, in->band->m, t) < 0)
		return -1;
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
		in->nread = in->nc;
		if (parse_row(t, i, k->c, x, in) < 0 ||
		    parse_edges(t, i, k->hc, x) < 0 || (in->band != NULL &&
		    solve_band_cands_row(in->band, t, i, in->nc - 1) < 0))
			return -1;
		x->tensor = -1;
		if (k->tc >= 0 && *(s = csvio_get(t, i, (size_t)k->tc)) != '\0') {
			if (strcmp(s, "0") != 0 && strcmp(s, "1") != 0) {
				pf_errl(t->fname, x->line, "column 'gpu_tensor': "
				    "expected 0 or 1, not '%s'", s);
				return -1;
			}
			x->tensor = s[0] == '1';
		}
		if (x->last > k->maxlast)
			k->maxlast = x->last;
		if (k->clk >= 0 && readclock(t, i, k, in) < 0)
			return -1;
		if (k->energy && k->eerr == NULL)
			energy_row(t, i, x, k);
		if (in->ss != NULL)
			solve_stream_add(in->ss, x, in->nc - 1);
	}
	return 0;
}

/*
 * Whether two candidates may share an id.  The ids' hashes are dealt by
 * their top bits into buckets of a few thousand (a counting sort), and
 * each bucket is checked with a small index that stays in cache: one
 * pass over the ids, no random walk over a table of millions (which
 * costs pf-solve a tenth more on a 100k-layer chain).  1 also when there
 * are too many candidates to index (the caller's exact check decides).
 */
static int
any_dup(const struct solve_in *in)
{
	struct nameix ix = { 0 };
	size_t n = in->nc, nb, i, b, q, most = 0, *pos;
	uint64_t *hv, *ph;
	const char **pid;
	int bits = 0, dup = 0;

	if (n > NAMEIX_MAX)
		return 1;
	while (bits < 16 && n >> bits > 2048)
		bits++;
	nb = (size_t)1 << bits;
	hv = xcalloc(n + 1, sizeof(*hv));
	ph = xcalloc(n + 1, sizeof(*ph));
	pid = xcalloc(n + 1, sizeof(*pid));
	pos = xcalloc(nb + 1, sizeof(*pos));
#define BUCKET(x) (bits > 0 ? (size_t)((x) >> (64 - bits)) : 0)
	for (i = 0; i < n; i++) {
		hv[i] = nameix_hash(in->c[i].id);
		pos[BUCKET(hv[i]) + 1]++;
	}
	for (b = 1; b <= nb; b++) {
		if (pos[b] > most)
			most = pos[b];
		pos[b] += pos[b - 1];
	}
	for (i = 0; i < n; i++) {
		q = pos[BUCKET(hv[i])]++;
		ph[q] = hv[i];
		pid[q] = in->c[i].id;
	}
#undef BUCKET
	/* pos[b] now ends bucket b */
	nameix_reserve(&ix, most);
	for (b = 0, q = 0; b < nb && !dup; b++) {
		for (; q < pos[b] && !dup; q++)
			dup = nameix_addh(&ix, pid[q], ph[q], q) >= 0;
		nameix_clear(&ix);
	}
	nameix_free(&ix);
	free(hv);
	free(ph);
	free(pid);
	free(pos);
	return dup;
}

/*
 * Each candidate's energy with its static share (in picojoules: W x ps
 * = pJ), or none: what needs every row but not the layers.
 */
static void
energies(struct solve_in *in, const struct costs_rd *k)
{
	int have = k->energy && in->nc > 0;
	double w0 = k->gw[0] > 0 ? k->gw[0] : 0;
	double w1 = (k->gw[1] > 0 ? k->gw[1] : 0) + (k->pw > 0 ? k->pw : 0);
	size_t i;

	for (i = 0; i < in->nc; i++) {
		struct cand *x = &in->c[i];

		if (!have) {
			x->pj = x->static_pj = 0;
			continue;
		}
		x->static_pj = llround((x->kind != K_BASE ? w1 : w0) *
		    (double)x->ps);
		x->pj += x->static_pj;
		/* a hand-off keeps the partitioned machine waiting */
		x->hin_pj = llround(w1 * (double)x->hin_ps);
		x->hout_pj = llround(w1 * (double)x->hout_ps);
	}
}

/*
 * What needs every row but not the layers (whether ids may repeat, the
 * energies and whether the streamed plans' energies can be summed),
 * worked out on a thread of its own while the layers are read
 * (solve_io_load_costs): the other core is idle once the input has ended.
 * Only the results cross; the reports stay with costs_end, in its order.
 */
struct rows_job {
	struct solve_in		*in;
	const struct costs_rd	*k;
	int			 dup;	/* any_dup */
};

static void *
rows_work(void *arg)
{
	struct rows_job *j = arg;

	j->dup = any_dup(j->in);
	energies(j->in, j->k);
	solve_stream_seal(j->in->ss, j->in->c);
	return NULL;
}

/* No candidate past the layers given (-l): 0, or -1 after a report. */
static int
costs_beyond(const struct solve_in *in, const struct costs_rd *k)
{
	size_t i;

	/* the first row, in input order, past the layers given */
	for (i = 0; in->nlayers >= 0 && k->maxlast >= in->nlayers &&
	    i < in->nc; i++) {
		const struct cand *x = &in->c[i];

		if (x->last >= in->nlayers) {
			pf_errl(in->fname, x->line, "candidate '%s' covers "
			    "layers %lld-%lld, beyond the last layer %lld",
			    x->id, (long long)x->first, (long long)x->last,
			    (long long)in->nlayers - 1);
			return -1;
		}
	}
	return 0;
}

/*
 * The exact check any_dup left to do: the ids sorted, a repeated one
 * reported at its later line.  0 or -1.
 */
static int
costs_dups(const struct solve_in *in)
{
	size_t i, *idx = xcalloc(in->nc + 1, sizeof(*idx));
	int rc = 0;

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
	return rc;
}

/*
 * One pass over the (many) candidates: which touch a KV layer, each
 * layer's base time and tensor cores; then attn-pim on a KV layer that
 * has no whole-layer pim candidate (its PIM pieces refused,
 * pim-cycles(1)): its gpu candidate may run it (a kv candidate needs a
 * KV layer).
 */
static void
costs_layers(struct solve_in *in)
{
	unsigned char *haspim = NULL;
	size_t i;

	in->base_ps = xcalloc((size_t)in->nlayers + 1, sizeof(long long));
	in->base_tensor = xcalloc((size_t)in->nlayers + 1, sizeof(int));
	for (i = 0; i < (size_t)in->nlayers; i++) {
		in->base_ps[i] = -1;
		in->base_tensor[i] = -1;
	}
	if (in->kv != NULL)
		haspim = xcalloc((size_t)in->nlayers + 1, 1);
	for (i = 0; i < in->nc; i++) {
		struct cand *x = &in->c[i];
		int64_t l;

		if (in->kv != NULL) {
			for (l = x->first; l <= x->last && l < in->nlayers; l++)
				if (l >= 0 && in->kv[l])
					x->kv = 1;
			if (x->kind == K_PIM && x->first == x->last &&
			    x->first < in->nlayers)
				haspim[x->first] = 1;
		}
		if (x->kind == K_BASE && x->first == x->last &&
		    in->base_ps[x->first] < 0) {
			in->base_ps[x->first] = x->ps;
			in->base_tensor[x->first] = x->tensor;
		}
	}
	for (i = 0; in->have_kv && i < in->nc; i++)
		if (in->c[i].kind == K_GPU && in->c[i].kv &&
		    in->c[i].first == in->c[i].last &&
		    !haspim[in->c[i].first])
			in->c[i].kv_gpu = 1;
	free(haspim);
}

/*
 * The checks and sums over every row, once all are read (and the layers,
 * when given, after them); j holds rows_work's results.
 */
static int
costs_end(struct solve_in *in, struct costs_rd *k, const struct rows_job *j)
{
	if (costs_beyond(in, k) < 0 || (j->dup && costs_dups(in) < 0))
		return -1;
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
	if (in->have_energy) {
		in->static_w[0] = k->gw[0] > 0 ? k->gw[0] : 0;
		in->static_w[1] = (k->gw[1] > 0 ? k->gw[1] : 0) +
		    (k->pw > 0 ? k->pw : 0);
	}
	costs_layers(in);
	return 0;
}

int
solve_io_read_costs(const struct table *t, struct solve_in *in)
{
	struct costs_rd k;
	struct rows_job j;
	int rc = -1;

	in->fname = t->fname;
	if (costs_begin(t, in, &k) == 0 && costs_rows(t, in, &k) == 0) {
		j.in = in;
		j.k = &k;
		(void)rows_work(&j);
		rc = costs_end(in, &k, &j);
	}
	free(k.eerr);
	return rc;
}

/*
 * The layers table, read once every costs row is (so that the program
 * writing it may run in the same pipe: solve_io.h).
 */
static int
load_layers(const char *path, struct solve_in *in)
{
	struct table lt;
	int rc;

	if (csvio_load(path, &lt) < 0)
		return -1;
	rc = solve_io_read_layers(&lt, in);
	csvio_free(&lt);
	return rc;
}

int
solve_io_load_costs(const char *path, const char *layers, struct solve_in *in)
{
	struct table_reader *r;
	struct costs_rd k;
	int rc = -1, n;

	in->fname = pf_inname(path);
	memset(&k, 0, sizeof(k));
	if ((r = csvio_reader_open(path, TABLE_BLOCK, NULL)) == NULL)
		return -1;
	if (costs_begin(csvio_reader_table(r), in, &k) < 0)
		goto out;
	while ((n = csvio_reader_next(r)) > 0)
		if (costs_rows(csvio_reader_table(r), in, &k) < 0)
			goto out;
	if (n == 0) {
		struct rows_job j;
		pthread_t th;
		int lrc, threaded;

		j.in = in;
		j.k = &k;
		threaded = pthread_create(&th, NULL, rows_work, &j) == 0;
		if (!threaded)
			(void)rows_work(&j);
		lrc = layers == NULL ? 0 : load_layers(layers, in);
		if (threaded)
			pthread_join(th, NULL);
		if (lrc == 0 && costs_end(in, &k, &j) == 0)
			rc = 0;
	}
out:
	csvio_reader_close(r);
	free(k.eerr);
	return rc;
}
