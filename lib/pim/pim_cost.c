/*
 * PIM costing of tasks.csv, device-independent part (pim_cost.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arith.h"
#include "conf.h"
#include "diag.h"
#include "hbmpim_cost.h"
#include "memo.h"
#include "newton_cost.h"
#include "pim_cost.h"
#include "task.h"
#include "xalloc.h"

const struct pim_engine *const pim_engines[] = {
	&newton_cost_engine,
	&hbmpim_cost_engine,
	NULL
};

const struct pim_engine *
pim_engine_of(const char *path)
{
	const struct pim_engine *const *e;
	struct conf c;
	const char *a;
	char arch[64];
	long line;

	if (conf_load(path, &c) < 0)
		return NULL;
	a = conf_str(&c, "arch");
	snprintf(arch, sizeof(arch), "%s", a != NULL ? a : pim_engines[0]->arch);
	line = conf_line(&c, "arch");
	conf_free(&c);
	for (e = pim_engines; *e != NULL; e++)
		if (strcmp((*e)->arch, arch) == 0)
			return *e;
	pf_errl(path, line, "key 'arch': unknown engine '%s'", arch);
	return NULL;
}

double
pim_handoff_ns(const struct pim_row *p, int64_t nch, double bytes)
{
	double bw = (double)nch * p->link_bpns;

	/* attach: an added device's data also crosses its link to the GPU */
	if (p->added && p->link_cap_bpns > 0 && bw > p->link_cap_bpns)
		bw = p->link_cap_bpns;
	return p->sync_ns + bytes / bw;
}

/* Row parameters: empty or absent columns take the defaults. */
static int
rowparam(const struct table *t, size_t row, long col, int64_t def,
    int64_t lo, int64_t hi, int64_t *v)
{
	if (col < 0) {
		*v = def;
		return 0;
	}
	if (csvio_int_opt(t, row, (size_t)col, def, v) < 0)
		return -1;
	if (*v < lo || *v > hi) {
		pf_errl(t->fname, csvio_line(t, row),
		    "column '%s': must be %lld to %lld, not '%s'", t->cols[col],
		    (long long)lo, (long long)hi, csvio_get(t, row, (size_t)col));
		return -1;
	}
	return 0;
}

/*
 * pim_channels of row r: rowparam's, but the share pf-split left to the
 * GPU config (TASK_PIM_AUTO) is only known here when -n gave it; on an
 * added machine (column attach, -1: absent) auto is the PIM config's own
 * channels (or -n's).
 */
static int
channels(const struct table *t, size_t r, long col, long attach,
    int64_t def, int fill_auto, int64_t *v, int *added)
{
	enum task_attach a;

	if (task_attach_row(t, r, attach, &a) < 0)
		return -1;
	*added = a == TASK_ADDED;
	if (col >= 0 && strcmp(csvio_get(t, r, (size_t)col),
	    TASK_PIM_AUTO) == 0) {
		if (!fill_auto && a != TASK_ADDED) {
			pf_errl(t->fname, csvio_line(t, r), "column "
			    "'pim_channels': '%s' is the share the GPU config "
			    "decides: run gpu-cycles first, or give pf-split -c "
			    "or -n, or pim-cycles -n", TASK_PIM_AUTO);
			return -1;
		}
		*v = def;
		return 0;
	}
	return rowparam(t, r, col, def, 1, 1 << 20, v);
}

static void
put(struct table *t, size_t r, size_t col, const struct pim_col *pc,
    const struct pim_out *c, size_t k)
{
	switch (pc->kind) {
	case PC_INT:
		csvio_setint(t, r, col, c->v[k].i);
		break;
	case PC_F3:
		csvio_setfix(t, r, col, c->v[k].d, 3);
		break;
	case PC_F6:
		csvio_setfix(t, r, col, c->v[k].d, 6);
		break;
	case PC_NAME:
		csvio_set(t, r, col, pc->names[c->v[k].i]);
		break;
	}
}

/*
 * What a piece's cost depends on besides the run's options: its geometry
 * (its layer index aside) and parameters.  layer_get starts from a
 * cleared struct and the key is cleared before it is filled, so equal
 * rows give equal bytes.
 */
struct pim_key {
	struct layer	l;
	int64_t		channels, max_gwrite, hiding;
	int64_t		added;		/* attach: the hand-off's link */
};

/*
 * What the memo keeps of a key: the engine's cost, and the row of the
 * table that was written with it, whose cells every later row of the key
 * takes (the same numbers give the same texts).
 */
struct pim_memoval {
	struct pim_out	c;
	size_t		row;
};

/* The output columns of a costed row, in order (pim_cost_table). */
enum { PO_CYC, PO_NS, PO_DISPATCH, PO_HIN, PO_HOUT, PO_ENGINE };

/*
 * One table's costing: the engine and the run's defaults and options, the
 * columns read and written, the geometry read so far, the memo of the
 * keys costed, and the counts of the rows and commands.
 */
struct pim_pass {
	const struct pim_engine	*e;
	void			*state;
	struct table		*t;
	const struct pim_row	*def;
	const struct pim_opts	*o;
	long			 dev, cch, cgw, chd, cat;
	size_t			 col[PO_ENGINE + PIM_MAXCOLS], ncol, rfc;
	struct layer_cols	 lc;
	int			 havelc;
	struct layer_seen	 seen;
	struct memo		*memo;
	int64_t			 nrows, ncmd;
};

/*
 * The columns of the row parameters, and the output columns (a row's
 * cells are written once it is costed; a fault leaves the table to be
 * dropped).
 */
static void
pass_cols(struct pim_pass *ps)
{
	struct table *t = ps->t;
	size_t *col = ps->col;

	ps->cch = csvio_col(t, task_pim_cols[TT_PIM_CHANNELS]);
	ps->cgw = csvio_col(t, task_pim_cols[TT_PIM_GWRITE]);
	ps->chd = csvio_col(t, task_pim_cols[TT_PIM_HIDING]);
	ps->cat = csvio_col(t, TASK_COL_PIM_ATTACH);
	col[PO_CYC] = csvio_addcol(t, TASK_COL_CYCLES);
	col[PO_NS] = csvio_addcol(t, TASK_COL_NS);
	for (ps->ncol = 0; ps->e->cols[ps->ncol].name != NULL; ps->ncol++)
		col[PO_ENGINE + ps->ncol] = csvio_addcol(t,
		    ps->e->cols[ps->ncol].name);
	col[PO_DISPATCH] = csvio_addcol(t, TASK_COL_DISPATCH);
	col[PO_HIN] = csvio_addcol(t, TASK_COL_HANDOFF_IN);
	col[PO_HOUT] = csvio_addcol(t, TASK_COL_HANDOFF_OUT);
	ps->rfc = csvio_addcol(t, TASK_COL_REFUSED);
}

/* Row r's piece and parameters, the defaults filling empty cells. */
static int
row_read(struct pim_pass *ps, size_t r, struct layer *l, struct pim_row *p,
    int *added)
{
	struct table *t = ps->t;
	const struct pim_row *def = ps->def;
	const struct pim_opts *o = ps->o;
	int64_t hid;

	if (!ps->havelc && layer_cols_find(t, &ps->lc) < 0)
		return -1;
	ps->havelc = 1;
	memset(p, 0, sizeof(*p));
	if ((o->lcache != NULL ? layer_get_cached(t, &ps->lc, r, l,
	    o->lcache) : layer_get_seen(t, &ps->lc, r, l, &ps->seen)) < 0 ||
	    channels(t, r, ps->cch, ps->cat, def->channels, o->fill_auto,
	    &p->channels, added) < 0 ||
	    rowparam(t, r, ps->cgw, def->max_gwrite, 1, 1 << 20,
	    &p->max_gwrite) < 0 ||
	    rowparam(t, r, ps->chd, def->hiding, 0, 1, &hid) < 0)
		return -1;
	p->hiding = (int)hid;
	return 0;
}

/*
 * A piece the engine refuses (not PIM-eligible): no cost, the reason in
 * pim_refused; 1 when refused.
 */
static int
row_refused(struct pim_pass *ps, size_t r, const struct layer *l)
{
	const char *rf;
	char *why;
	size_t n;

	if (ps->e->refuse == NULL ||
	    (rf = ps->e->refuse(ps->state, l)) == NULL)
		return 0;
	n = strlen(rf) + strlen(l->dtype) + 16;
	why = xmalloc(n);
	snprintf(why, n, "dtype '%s': %s", l->dtype, rf);
	csvio_set(ps->t, r, ps->col[PO_CYC], "");
	csvio_set(ps->t, r, ps->col[PO_NS], "");
	csvio_set(ps->t, r, ps->rfc, why);
	free(why);
	return 1;
}

/*
 * The memo's entry for the row's key (filled in key), NULL when absent
 * or when a trace needs every row's commands (no memo then).
 */
static const struct pim_memoval *
row_memo(struct pim_pass *ps, const struct layer *l, const struct pim_row *p,
    int added, struct pim_key *key)
{
	if (ps->o->trace != NULL)
		return NULL;
	memset(key, 0, sizeof(*key));
	memcpy(&key->l, l, sizeof(*l));
	key->l.id = 0;
	key->channels = p->channels;
	key->max_gwrite = p->max_gwrite;
	key->hiding = p->hiding;
	key->added = added;
	if (ps->memo == NULL)
		ps->memo = memo_new(sizeof(*key), sizeof(struct pim_memoval));
	return memo_get(ps->memo, key);
}

/* The piece's hand-offs in and out (0 with -H); -1 past 9e12 ns. */
static int
row_handoffs(const struct pim_pass *ps, const struct layer *l,
    const struct pim_row *p, int added, const char *where, double *hin,
    double *hout)
{
	struct pim_row hp = *ps->def;

	*hin = *hout = 0;
	if (ps->o->no_handoff)
		return 0;
	hp.added = added;
	*hin = pim_handoff_ns(&hp, p->channels, (double)l->in_bytes);
	*hout = pim_handoff_ns(&hp, p->channels, (double)l->out_bytes);
	if (!(*hin <= 9e12 && *hout <= 9e12)) {
		pf_err(where, "hand-off time %g ns does not fit (the limit is "
		    "9e12 ns)", *hin > *hout ? *hin : *hout);
		return -1;
	}
	return 0;
}

/* The cells of a costed row. */
static void
row_write(struct pim_pass *ps, size_t r, const struct pim_out *c, double hin,
    double hout)
{
	struct table *t = ps->t;
	size_t k;

	csvio_setint(t, r, ps->col[PO_CYC], c->cycles);
	csvio_setns(t, r, ps->col[PO_NS], c->ns);
	for (k = 0; k < ps->ncol; k++)
		put(t, r, ps->col[PO_ENGINE + k], &ps->e->cols[k], c, k);
	csvio_setns(t, r, ps->col[PO_DISPATCH], ps->def->dispatch_ns);
	csvio_setns(t, r, ps->col[PO_HIN], hin);
	csvio_setns(t, r, ps->col[PO_HOUT], hout);
}

/* Cost pim row r; -1 after reporting. */
static int
pass_row(struct pim_pass *ps, size_t r)
{
	struct table *t = ps->t;
	struct layer l;
	struct pim_row p;
	struct pim_memoval cost;
	struct pim_key key;
	const struct pim_memoval *hit;
	char where[256];
	double hin, hout;
	int added = 0;

	if (row_read(ps, r, &l, &p, &added) < 0)
		return -1;
	if (row_refused(ps, r, &l))
		return 0;
	hit = row_memo(ps, &l, &p, added, &key);
	ps->nrows++;
	if (hit != NULL) {
		/*
		 * The cells of the key's first row: its cost, the run's
		 * dispatch and the hand-offs of its channels and bytes, all
		 * in the key.
		 */
		ps->ncmd += hit->c.cmds;
		csvio_setfrom(t, r, hit->row, ps->col, PO_ENGINE + ps->ncol);
		return 0;
	}
	/* the row's name only for a costing or a fault */
	snprintf(where, sizeof(where), "%s:%ld", t->fname, csvio_line(t, r));
	/* cleared: what an engine leaves unset is 0 */
	memset(&cost, 0, sizeof(cost));
	if (ps->e->cost(ps->state, &l, &p, ps->o, where, &cost.c) < 0)
		return -1;
	cost.row = r;
	if (ps->memo != NULL)
		memo_put(ps->memo, &key, &cost);
	/* the host starts the stream before the engine's first clock */
	cost.c.ns += ps->def->dispatch_ns;
	if (row_handoffs(ps, &l, &p, added, where, &hin, &hout) < 0)
		return -1;
	ps->ncmd += cost.c.cmds;
	row_write(ps, r, &cost.c, hin, hout);
	return 0;
}

int
pim_cost_table(const struct pim_engine *e, void *state, struct table *t,
    const struct pim_row *def, const struct pim_opts *o, int64_t *rows,
    int64_t *cmds)
{
	struct pim_pass ps;
	size_t r;
	int rc = -1;

	memset(&ps, 0, sizeof(ps));
	ps.e = e;
	ps.state = state;
	ps.t = t;
	ps.def = def;
	ps.o = o;
	if (task_devices(t, &ps.dev, NULL) < 0)
		return -1;
	pass_cols(&ps);
	/* a pim row's geometry is mostly the last one's (layer_get_seen) */
	ps.seen.have = 0;
	for (r = 0; r < t->nrows; r++)
		if (strcmp(csvio_get(t, r, (size_t)ps.dev),
		    task_dev_name(TASK_PIM)) == 0 && pass_row(&ps, r) < 0)
			goto out;
	if (rows != NULL)
		*rows = ps.nrows;
	if (cmds != NULL)
		*cmds = ps.ncmd;
	rc = 0;
out:
	memo_free(ps.memo);
	return rc;
}

int
pim_cost_block(void *arg, struct table *in, const struct table **res)
{
	struct pim_cost_run *u = arg;
	int64_t rows, cmds;

	*res = in;
	if (u->o.lcache == NULL)
		u->o.lcache = layer_cache_new();
	if (pim_cost_table(u->e, u->state, in, &u->def, &u->o, &rows,
	    &cmds) < 0)
		return -1;
	u->rows += rows;
	u->cmds += cmds;
	return 0;
}

int
pim_cost_open(struct pim_cost_run *u, const char *config, int opt)
{
	char *path;

	memset(u, 0, sizeof(*u));
	if ((path = conf_resolve("pim", config)) == NULL)
		return -1;
	if ((u->e = pim_engine_of(path)) == NULL) {
		free(path);
		return -1;
	}
	if (opt != 0 && strchr(u->e->opts, opt) == NULL) {
		free(path);
		pf_err(NULL, "-%c: not an option of arch %s", opt, u->e->arch);
		return -2;
	}
	u->state = u->e->open(path, &u->def);
	free(path);
	return u->state != NULL ? 0 : -1;
}

void
pim_cost_defaults(struct pim_cost_run *u, int64_t n, int64_t g, int nohide,
    double dispatch)
{
	if (n > 0) {
		u->def.channels = n;
		u->o.fill_auto = 1;
	}
	if (g > 0)
		u->def.max_gwrite = g;
	if (nohide)
		u->def.hiding = 0;
	if (dispatch >= 0)
		u->def.dispatch_ns = dispatch;
}

/* The machine of pim-cycles -p. */
static void
print_machine(void *arg)
{
	const struct pim_cost_run *u = arg;

	printf("arch,channels,max_gwrite,hiding\n%s,%lld,%lld,%d\n",
	    u->e->arch, (long long)u->def.channels,
	    (long long)u->def.max_gwrite, u->def.hiding);
}

static const struct csvio_stage stage = { print_machine, pim_cost_start,
    pim_cost_block, pim_cost_done };

int
pim_cost_main(const struct pim_cost_args *a, char **argv, int argc)
{
	struct pim_cost_run u;
	int rc;

	if ((rc = pim_cost_open(&u, a->config, a->engine_opt)) < 0)
		return rc == -2 ? PF_EXIT_USAGE : PF_EXIT_DATA;
	u.o = a->o;
	u.trace_path = a->trace;
	u.stats = a->stats;
	pim_cost_defaults(&u, a->channels, a->max_gwrite, a->nohide,
	    a->dispatch);
	rc = csvio_stream_stage(argv, argc, a->print, &stage, &u) == 0 ?
	    PF_EXIT_OK : PF_EXIT_DATA;
	pim_cost_close(&u);
	return rc;
}

/* The process's CPU time in seconds (the stats line). */
static double
cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
pim_cost_start(void *arg)
{
	struct pim_cost_run *u = arg;

	if (u->trace_path != NULL && (u->o.trace = tmpfile()) == NULL) {
		pf_err(NULL, "cannot create a temporary file: %s",
		    strerror(errno));
		return -1;
	}
	u->t0 = cpu_s();
	return 0;
}

void
pim_cost_close(struct pim_cost_run *u)
{
	if (u->state != NULL)
		u->e->close(u->state);
	if (u->o.trace != NULL)
		fclose(u->o.trace);
	layer_cache_free(u->o.lcache);
	u->o.lcache = NULL;
	u->state = NULL;
	u->o.trace = NULL;
}

int
pim_cost_done(void *arg)
{
	struct pim_cost_run *u = arg;

	if (u->stats) {
		double dt = cpu_s() - u->t0;

		fprintf(stderr, "%s: %lld pim rows, %lld commands timed, "
		    "%.3f s cpu, %.0f rows/s, %.0f commands/s\n", pf_progname(),
		    (long long)u->rows, (long long)u->cmds, dt,
		    dt > 0 ? (double)u->rows / dt : 0,
		    dt > 0 ? (double)u->cmds / dt : 0);
	}
	if (u->o.trace != NULL && pim_trace_publish(u->o.trace,
	    u->trace_path) < 0)
		return -1;
	return 0;
}

int
pim_trace_publish(FILE *tmp, const char *path)
{
	char buf[1 << 16];
	size_t n;
	FILE *fp;
	int bad;

	if (fflush(tmp) != 0 || ferror(tmp) || fseek(tmp, 0, SEEK_SET) != 0) {
		pf_write_error("temporary trace file");
		return -1;
	}
	if ((fp = fopen(path, "w")) == NULL) {
		pf_err(path, "cannot open for writing: %s", strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0)
		if (fwrite(buf, 1, n, fp) != n)
			break;
	bad = ferror(tmp) || ferror(fp) || fflush(fp) != 0;
	if (bad)
		pf_write_error(path);
	if (fclose(fp) != 0 && !bad) {
		pf_write_error(path);
		bad = 1;
	}
	return bad ? -1 : 0;
}
