/*
 * GPU costing of tasks.csv rows (gpu_cost.h): the machine a row's GPU has,
 * the model or a measured time, the output columns.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "diag.h"
#include "gpu_cost.h"
#include "gpu_layer.h"
#include "memo.h"
#include "task.h"

/* Appended columns, in order (cycles and ns only if absent). */
enum {
	C_CYCLES, C_NS, C_BOUND, C_KERNELS, C_DEVICE, C_LAUNCH, C_CHAN,
	C_TENSOR, C_TILE, C_SPLITK, C_OCC, C_CTAS, C_WAVES, C_INL2, C_MAIN,
	C_AUX, C_DRAM, C_L2, C_SOURCE, C_BUILD, C_CLOCK, C_ENERGY, C_STATIC,
	C_N
};
const char *const gpu_cost_cols[C_N + 1] = {
	TASK_COL_CYCLES, TASK_COL_NS, "bound", "kernels", "device_ns",
	"launch_ns", "mem_channels", TASK_COL_GPU_TENSOR, "gpu_tile",
	"gpu_splitk", "gpu_occupancy", "gpu_ctas", "gpu_waves",
	"gpu_input_l2", "gpu_main_ns", "gpu_aux_ns", "gpu_dram_bytes",
	"gpu_l2_bytes", "gpu_source", "gpu_build", TASK_COL_GPU_CLOCK,
	TASK_COL_ENERGY, TASK_COL_STATIC, NULL
};

/* The kept cell texts of the run's memo, at most, at a block's start. */
#define GPU_KEEP_MAX	(4 * 1024 * 1024)

/* Largest time of one piece, as pf-merge(1) bounds it. */
#define GPU_MAX_NS 9e12

/* v is finite, non-negative and fits an int64_t column. */
static int
fits(double v)
{
	return v >= 0 && v < 9.2e18;
}

/*
 * What the model's estimate depends on: the row's geometry (its layer
 * index aside) and the GPU's channels.  layer_get starts from a cleared
 * struct, so equal rows give equal bytes.
 */
struct gpu_memokey {
	struct layer	l;
	int64_t		ch;
};

/*
 * What the memo keeps of an estimate: the estimate, and the texts of the
 * output cells of a row costed by the model with it (csvio_keep), which
 * are the same for every such row of its key, in generation gen of the
 * run's store (NULL: none yet).
 */
struct gpu_memoval {
	struct gpu_cost		 c;
	const char *const	*kept;
	unsigned long		 gen;
};

/* Per-table constants of the output, formatted once. */
struct gpu_text {
	char	clock[32], static_w[32];
};

/*
 * Report a dtype the config has no rate for: the dtype, the config's file
 * and the keys that would rate it (gpu-cycles(1) EXIT STATUS).
 */
static void
no_rate(const char *fname, long line, const char *dtype, const char *config)
{
	const char *keys = gpu_dtype_keys(dtype);
	char *path = conf_resolve("gpu", config);

	if (keys != NULL)
		pf_errl(fname, line, "dtype '%s': GPU config %s has no rate "
		    "for it (%s are 0)", dtype, path != NULL ? path : config,
		    keys);
	else
		pf_errl(fname, line, "dtype '%s': GPU config %s has no rate "
		    "for it (no GPU config key rates %s)", dtype, path != NULL ?
		    path : config, dtype);
	free(path);
}

/*
 * One table's costing: its columns, the per-table constants, the
 * options, the memo and the geometry read last.
 */
struct gpu_rowctx {
	struct table			*t;
	struct layer_cols		 lc;
	size_t				 col[C_N];
	long				 kind, pimch, attach, name;
	const struct gpu_cost_opts	*o;
	struct memo			*memo;
	struct gpu_text			 tx;
	struct layer_seen		 seen;
};

/* A row's time: measured (meas) or the model's, on clock_mhz. */
struct gpu_rowtime {
	const struct gpu_meas	*meas;
	double			 cyc, ns, dev;
};

/* The model's estimate of piece l on ch channels; -1 after reporting. */
static int
row_model(const struct gpu_rowctx *x, size_t r, const struct layer *l,
    int64_t ch, struct gpu_cost *c)
{
	struct table *t = x->t;
	const struct layer_cols *lc = &x->lc;
	long line = csvio_line(t, r), gc;
	int rc;

	if ((rc = gpu_layer_cost(x->o->m, l, (double)ch, c)) == -2) {
		no_rate(t->fname, line, l->dtype, x->o->config);
		return -1;
	}
	if (rc < 0) {
		gc = l->gemm_m <= 0 ? lc->gemm_m : l->gemm_n <= 0 ?
		    lc->gemm_n : l->gemm_k <= 0 ? lc->gemm_k : lc->gemm_batch;
		pf_errl(t->fname, line, "column '%s': must be positive for op "
		    "'%s', not '%s'", t->cols[gc], layer_opname(l->op),
		    csvio_get(t, r, (size_t)gc));
		return -1;
	}
	return 0;
}

/*
 * The row's time: its measurement (-m) by name and geometry, else the
 * model's c.  A result that does not fit the output columns (or the 9e12
 * ns a piece may take downstream) is an error, never a wrapped number.
 */
static int
row_time(const struct gpu_rowctx *x, size_t r, const struct layer *l,
    const struct gpu_cost *c, struct gpu_rowtime *rt)
{
	const struct gpu_cost_opts *o = x->o;
	struct table *t = x->t;
	double ghz = o->m->clock_mhz / 1e3;
	const char *nm;

	rt->meas = NULL;
	if (o->ms != NULL && x->name >= 0) {
		nm = csvio_get(t, r, (size_t)x->name);
		if ((rt->meas = gpu_measured_find(o->ms, nm, l)) != NULL)
			gpu_measured_hit(o->ms, rt->meas);
		else if (gpu_measured_fallback(o->ms, nm))
			pf_warn(o->measured, "layer '%s': rows of a geometry or dtype "
			    "not measured (such as split pieces) use the model",
			    nm);
	}
	if (rt->meas != NULL) {
		rt->dev = rt->ns = rt->meas->ns;
		rt->cyc = rt->ns * ghz;
	} else {
		rt->cyc = c->cycles;
		rt->ns = rt->cyc / ghz;
		rt->dev = c->device_cycles / ghz;
	}
	if (!(rt->ns >= 0 && rt->ns <= GPU_MAX_NS) || !fits(rt->cyc) ||
	    !fits(c->dram_bytes) || !fits(c->l2_bytes) || !fits(c->shape.ctas) ||
	    !fits(c->shape.waves)) {
		pf_errl(t->fname, csvio_line(t, r), "layer '%s': GPU time %g ns "
		    "does not fit (the limit is 9e12 ns)", csvio_get(t, r,
		    (size_t)(x->name >= 0 ? x->name : x->lc.op)), rt->ns);
		return -1;
	}
	return 0;
}

/* The output cells of row r: cost c, time rt, ch channels. */
static void
row_cells(const struct gpu_rowctx *x, size_t r, const struct layer *l,
    const struct gpu_cost *c, const struct gpu_rowtime *rt, int64_t ch)
{
	const struct gpu_cost_opts *o = x->o;
	struct table *t = x->t;
	const size_t *col = x->col;
	double ghz = o->m->clock_mhz / 1e3;
	char tile[48];

	csvio_setint(t, r, col[C_CYCLES], (int64_t)llround(rt->cyc));
	csvio_setns(t, r, col[C_NS], rt->ns);
	csvio_set(t, r, col[C_BOUND], gpu_bound_name(c->bound));
	csvio_setint(t, r, col[C_KERNELS], c->kernels);
	csvio_setns(t, r, col[C_DEVICE], rt->dev);
	csvio_setns(t, r, col[C_LAUNCH],
	    rt->meas != NULL ? 0 : c->launch_cycles / ghz);
	csvio_setint(t, r, col[C_CHAN], ch);
	csvio_setint(t, r, col[C_TENSOR], c->path == GPU_TENSOR);
	tile[0] = '\0';
	if (c->shape.tile.tm > 0) {
		csvio_fmtfix(tile, 24, c->shape.tile.tm, 0);
		strcat(tile, "x");
		csvio_fmtfix(tile + strlen(tile), 24, c->shape.tile.tn, 0);
	}
	csvio_set(t, r, col[C_TILE], tile);
	csvio_setint(t, r, col[C_SPLITK], c->shape.splitk);
	csvio_setint(t, r, col[C_OCC], c->shape.occ);
	csvio_setint(t, r, col[C_CTAS], (int64_t)c->shape.ctas);
	csvio_setint(t, r, col[C_WAVES], (int64_t)c->shape.waves);
	csvio_setint(t, r, col[C_INL2], c->input_l2);
	csvio_setns(t, r, col[C_MAIN], c->main_cycles / ghz);
	csvio_setns(t, r, col[C_AUX], c->aux_cycles / ghz);
	csvio_setint(t, r, col[C_DRAM], (int64_t)llround(c->dram_bytes));
	csvio_setint(t, r, col[C_L2], (int64_t)llround(c->l2_bytes));
	csvio_set(t, r, col[C_SOURCE], rt->meas != NULL ? "measured" :
	    "model");
	csvio_set(t, r, col[C_BUILD], o->m->build.name);
	/* the clock of the cycles, for the summary (pf-merge, pf-solve) */
	csvio_set(t, r, col[C_CLOCK], x->tx.clock);
	/* energy counts the model's work even when the time is measured */
	if (o->en != NULL) {
		csvio_setfix(t, r, col[C_ENERGY],
		    gpu_energy_nj(o->en, c, l->dtype), 3);
		csvio_set(t, r, col[C_STATIC], x->tx.static_w);
	}
}

/* Fill one gpu row; returns -1 after reporting. */
static int
cost_row(struct gpu_rowctx *x, size_t r)
{
	const struct gpu_cost_opts *o = x->o;
	struct table *t = x->t;
	struct layer l;
	struct gpu_cost c;
	struct gpu_memokey key;
	struct gpu_memoval *hit, val;
	struct gpu_rowtime rt;
	int64_t ch;
	/* the cells written, the last two with energy only */
	size_t nset = o->en != NULL ? C_N : C_ENERGY;
	int keep = o->keep != NULL && o->ms == NULL;

	if ((o->lcache != NULL ? layer_get_cached(t, &x->lc, r, &l, o->lcache) :
	    layer_get_seen(t, &x->lc, r, &l, &x->seen)) < 0)
		return -1;
	if (task_gpu_channels(t, r, x->kind, x->pimch, x->attach, o->total,
	    o->config, &ch) < 0)
		return -1;
	memset(&key, 0, sizeof(key));
	memcpy(&key.l, &l, sizeof(l));
	key.l.id = 0;
	key.ch = ch;
	if ((hit = memo_ref(x->memo, &key)) != NULL) {
		/* the model's estimate, as a row of its key wrote it */
		if (keep && hit->kept != NULL && hit->gen == o->keepgen) {
			csvio_setkept(t, r, x->col, nset, hit->kept);
			return 0;
		}
		c = hit->c;
	} else {
		if (row_model(x, r, &l, ch, &c) < 0)
			return -1;
		memset(&val, 0, sizeof(val));
		val.c = c;
		memo_put(x->memo, &key, &val);
	}
	if (row_time(x, r, &l, &c, &rt) < 0)
		return -1;
	row_cells(x, r, &l, &c, &rt, ch);
	if (keep && (hit = memo_ref(x->memo, &key)) != NULL) {
		hit->kept = csvio_keep(o->keep, t, r, x->col, nset);
		hit->gen = o->keepgen;
	}
	return 0;
}

int
gpu_cost_table(struct table *t, const struct gpu_cost_opts *o)
{
	struct gpu_rowctx x;
	long dev;
	size_t r, i, ndev[TASK_NDEV], ngpu;
	int rc = 0;

	if (task_devices(t, &dev, ndev) < 0)
		return -1;
	x.t = t;
	x.o = o;
	ngpu = ndev[TASK_GPU];
	if (ngpu > 0 && layer_cols_find(t, &x.lc) < 0)
		return -1;
	x.kind = csvio_col(t, task_head_cols[TT_KIND]);
	x.pimch = csvio_col(t, task_pim_cols[TT_PIM_CHANNELS]);
	x.attach = csvio_col(t, TASK_COL_PIM_ATTACH);
	/* the machine is known here: the share pf-split left open is set */
	task_pim_resolve(t, x.pimch, x.attach, o->total);
	x.name = csvio_col(t, "name");
	if (o->ms != NULL && ngpu > 0 && x.name < 0) {
		pf_errl(t->fname, 1, "missing column 'name' (needed by -m)");
		return -1;
	}
	for (i = 0; i < C_N; i++)
		x.col[i] = csvio_addcol(t, gpu_cost_cols[i]);
	snprintf(x.tx.clock, sizeof(x.tx.clock), "%.15g", o->m->clock_mhz);
	if (o->en != NULL)
		csvio_fmtfix(x.tx.static_w, sizeof(x.tx.static_w),
		    o->en->static_w, 6);
	x.memo = o->memo != NULL ? o->memo :
	    memo_new(sizeof(struct gpu_memokey), sizeof(struct gpu_memoval));
	/* a gpu row's geometry is mostly the last one's (layer_get_seen) */
	x.seen.have = 0;
	for (r = 0; r < t->nrows && rc == 0; r++)
		if (strcmp(csvio_get(t, r, (size_t)dev),
		    task_dev_name(TASK_GPU)) == 0 && cost_row(&x, r) < 0)
			rc = -1;
	if (x.memo != o->memo)
		memo_free(x.memo);
	return rc;
}

int
gpu_cost_open(struct gpu_cost_run *r, const char *config, const char *build,
    const char *energy, long total)
{
	int k;

	memset(r, 0, sizeof(*r));
	if (gpu_model_open(config, build, &r->m) < 0 ||
	    (k = gpu_energy_for(config, energy, &r->en)) < 0)
		return -1;
	r->o.m = &r->m;
	r->o.en = k > 0 ? &r->en : NULL;
	r->o.total = total > 0 ? total : (long)r->m.channels;
	r->o.config = config;
	return 0;
}

int
gpu_cost_measure(void *arg)
{
	struct gpu_cost_run *r = arg;

	if (r->o.measured == NULL)
		return 0;
	if (gpu_measured_load(r->o.measured, &r->ms) < 0)
		return -1;
	r->o.ms = &r->ms;
	return 0;
}

void
gpu_cost_close(struct gpu_cost_run *r)
{
	if (r->o.ms != NULL)
		gpu_measured_free(&r->ms);
	r->o.ms = NULL;
	memo_free(r->o.memo);
	r->o.memo = NULL;
	csvio_keep_free(r->o.keep);
	r->o.keep = NULL;
	layer_cache_free(r->o.lcache);
	r->o.lcache = NULL;
}

int
gpu_cost_block(void *arg, struct table *in, const struct table **res)
{
	struct gpu_cost_run *r = arg;

	*res = in;
	if (r->o.memo == NULL)
		r->o.memo = memo_new(sizeof(struct gpu_memokey),
		    sizeof(struct gpu_memoval));
	/*
	 * Every row of the blocks before is written: the kept texts may go
	 * (a new generation), when they have grown past what a memo of
	 * repeated geometries needs.
	 */
	if (r->o.lcache == NULL)
		r->o.lcache = layer_cache_new();
	if (r->o.keep == NULL)
		r->o.keep = csvio_keep_new();
	else if (csvio_keep_bytes(r->o.keep) > GPU_KEEP_MAX) {
		csvio_keep_clear(r->o.keep);
		r->o.keepgen++;
	}
	return gpu_cost_table(in, &r->o);
}

int
gpu_cost_done(void *arg)
{
	struct gpu_cost_run *r = arg;

	/* a measurement no row used is a mistake in it (-w: a warning) */
	return gpu_cost_unused(&r->o, r->warn);
}

/* The machine of gpu-cycles -p. */
static void
print_machine(void *arg)
{
	const struct gpu_cost_run *r = arg;

	printf("channels,clock_mhz\n%ld,%.15g\n", r->o.total, r->m.clock_mhz);
}

static const struct csvio_stage stage = { print_machine, gpu_cost_measure,
    gpu_cost_block, gpu_cost_done };

int
gpu_cost_main(const struct gpu_cost_args *a, char **argv, int argc)
{
	struct gpu_cost_run r;
	int rc = PF_EXIT_DATA;

	if (gpu_cost_open(&r, a->config, a->build, a->energy, a->total) == 0) {
		r.o.measured = a->measured;
		r.warn = a->warn;
		if (csvio_stream_stage(argv, argc, a->print, &stage, &r) == 0)
			rc = PF_EXIT_OK;
	}
	gpu_cost_close(&r);
	return rc;
}

int
gpu_cost_unused(const struct gpu_cost_opts *o, int warn)
{
	const struct gpu_meas *x, *first = NULL;
	size_t k;

	if (o->ms == NULL)
		return 0;
	for (k = 0; (x = gpu_measured_unused(o->ms, k)) != NULL; k++) {
		if (warn)
			pf_warnl(o->measured, x->line, "measured layer '%s' "
			    "(op %s) matches no gpu row of the input",
			    x->name, layer_opname(x->op));
		else if (first == NULL || x->line < first->line)
			first = x;
	}
	if (first == NULL)
		return 0;
	pf_errl(o->measured, first->line, "measured layer '%s' (op %s) "
	    "matches no gpu row of the input by name and geometry (-w: warn "
	    "instead)", first->name, layer_opname(first->op));
	return -1;
}
