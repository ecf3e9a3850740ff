/*
 * gpu-cycles: fill cycles and ns of the GPU rows of a tasks table with the
 * analytical GPU model (lib/gpu_model.h) or measured times (-m).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "csvio.h"
#include "diag.h"
#include "gpu_energy.h"
#include "gpu_measured.h"
#include "gpu_model.h"
#include "layer.h"
#include "task.h"
#include "xalloc.h"

struct opts {
	const char	*config;
	const char	*build;		/* -b, NULL = the config's default */
	const char	*measured;
	const char	*energy;	/* -e, NULL = the GPU config's name */
	const struct gpu_energy *en;	/* NULL: no energy config */
	long		 total;		/* -C, 0 = config's channels */
	int		 print;		/* -p: print the machine, cost nothing */
	int		 warn;		/* -w: unmatched measurements warn */
};

/* Appended columns, in order (cycles and ns only if absent). */
enum {
	C_CYCLES, C_NS, C_BOUND, C_KERNELS, C_DEVICE, C_LAUNCH, C_CHAN,
	C_TENSOR, C_TILE, C_SPLITK, C_OCC, C_CTAS, C_WAVES, C_INL2, C_MAIN,
	C_AUX, C_DRAM, C_L2, C_SOURCE, C_BUILD, C_CLOCK, C_ENERGY, C_STATIC,
	C_N
};
static const char *const outcols[C_N] = {
	"cycles", "ns", "bound", "kernels", "device_ns", "launch_ns",
	"mem_channels", "gpu_tensor", "gpu_tile", "gpu_splitk",
	"gpu_occupancy", "gpu_ctas", "gpu_waves", "gpu_input_l2",
	"gpu_main_ns", "gpu_aux_ns", "gpu_dram_bytes", "gpu_l2_bytes",
	"gpu_source", "gpu_build", "gpu_clock_mhz", "energy_nj", "static_w"
};

static void
usage(void)
{
	fprintf(stderr, "usage: gpu-cycles [-p] [-b build] [-C total_channels] "
	    "[-c config]\n\t[-e energy_config] [-m measured.csv [-w]] "
	    "[file ...]\n");
	exit(PF_EXIT_USAGE);
}

static long
posarg(const char *s, int opt)
{
	int64_t v;

	if (parse_int64(s, &v) < 0 || v < 0 || v > 100000) {
		pf_err(NULL, "-%c: bad channel count '%s'", opt, s);
		usage();
	}
	return (long)v;
}

/* Largest time of one piece, as pf-merge(1) bounds it. */
#define GPU_MAX_NS 9e12

/* v is finite, non-negative and fits an int64_t column. */
static int
fits(double v)
{
	return v >= 0 && v < 9.2e18;
}

/* Fill one gpu row; returns -1 after reporting. */
static int
cost_row(struct table *t, size_t r, const struct layer_cols *lc,
    const long *col, long kind, long pimch, long name,
    const struct gpu_model *m, struct gpu_measured *ms,
    const struct opts *o)
{
	struct layer l;
	struct gpu_cost c;
	const struct gpu_meas *meas = NULL;
	double cyc, ns, dev, ghz = m->clock_mhz / 1e3;
	int64_t ch;
	long line = table_line(t, r);

	if (layer_get(t, lc, r, &l) < 0)
		return -1;
	if (task_gpu_channels(t, r, kind, pimch, o->total, o->config,
	    &ch) < 0)
		return -1;
	if (gpu_layer_cost(m, &l, (double)ch, &c) < 0) {
		long gc = l.gemm_m <= 0 ? lc->gemm_m : l.gemm_n <= 0 ?
		    lc->gemm_n : l.gemm_k <= 0 ? lc->gemm_k : lc->gemm_batch;

		pf_errl(t->fname, line, "column '%s': must be positive for op "
		    "'%s', not '%s'", t->cols[gc], layer_opname(l.op),
		    table_get(t, r, (size_t)gc));
		return -1;
	}
	if (ms != NULL && name >= 0) {
		const char *nm = table_get(t, r, (size_t)name);

		if ((meas = gpu_measured_find(ms, nm, &l)) != NULL)
			gpu_measured_hit(ms, meas);
		else if (gpu_measured_fallback(ms, nm))
			pf_warn(o->measured, "layer '%s': rows of a geometry or dtype "
			    "not measured (such as split pieces) use the model",
			    nm);
	}
	if (meas != NULL) {
		dev = ns = meas->ns;
		cyc = ns * ghz;
	} else {
		cyc = c.cycles;
		ns = cyc / ghz;
		dev = c.device_cycles / ghz;
	}
	/*
	 * A result that does not fit the output columns (or the 9e12 ns a
	 * piece may take downstream) is an error, never a wrapped number.
	 */
	if (!(ns >= 0 && ns <= GPU_MAX_NS) || !fits(cyc) ||
	    !fits(c.dram_bytes) || !fits(c.l2_bytes) || !fits(c.ctas) ||
	    !fits(c.waves)) {
		pf_errl(t->fname, line, "layer '%s': GPU time %g ns does not "
		    "fit (the limit is 9e12 ns)", table_get(t, r,
		    (size_t)(name >= 0 ? name : lc->op)), ns);
		return -1;
	}
	table_setint(t, r, (size_t)col[C_CYCLES], (int64_t)llround(cyc));
	table_setns(t, r, (size_t)col[C_NS], ns);
	table_set(t, r, (size_t)col[C_BOUND], gpu_bound_name(c.bound));
	table_setint(t, r, (size_t)col[C_KERNELS], c.kernels);
	table_setns(t, r, (size_t)col[C_DEVICE], dev);
	table_setns(t, r, (size_t)col[C_LAUNCH],
	    meas != NULL ? 0 : c.launch_cycles / ghz);
	table_setint(t, r, (size_t)col[C_CHAN], ch);
	table_setint(t, r, (size_t)col[C_TENSOR], c.path == GPU_TENSOR);
	if (c.tile.tm > 0)
		table_setf(t, r, (size_t)col[C_TILE], "%dx%d", c.tile.tm,
		    c.tile.tn);
	else
		table_set(t, r, (size_t)col[C_TILE], "");
	table_setint(t, r, (size_t)col[C_SPLITK], c.splitk);
	table_setint(t, r, (size_t)col[C_OCC], c.occupancy);
	table_setint(t, r, (size_t)col[C_CTAS], (int64_t)c.ctas);
	table_setint(t, r, (size_t)col[C_WAVES], (int64_t)c.waves);
	table_setint(t, r, (size_t)col[C_INL2], c.input_l2);
	table_setns(t, r, (size_t)col[C_MAIN], c.main_cycles / ghz);
	table_setns(t, r, (size_t)col[C_AUX], c.aux_cycles / ghz);
	table_setint(t, r, (size_t)col[C_DRAM], (int64_t)llround(c.dram_bytes));
	table_setint(t, r, (size_t)col[C_L2], (int64_t)llround(c.l2_bytes));
	table_set(t, r, (size_t)col[C_SOURCE], meas != NULL ? "measured" :
	    "model");
	table_set(t, r, (size_t)col[C_BUILD], m->build.name);
	/* the clock of the cycles, for the summary (pf-merge, pf-solve) */
	table_setf(t, r, (size_t)col[C_CLOCK], "%.15g", m->clock_mhz);
	/* energy counts the model's work even when the time is measured */
	if (o->en != NULL) {
		table_setf(t, r, (size_t)col[C_ENERGY], "%.3f",
		    gpu_energy_nj(o->en, &c, l.dtype));
		table_setf(t, r, (size_t)col[C_STATIC], "%.6f", o->en->static_w);
	}
	return 0;
}

/* Cost every gpu row of t; other rows untouched. */
static int
cost_table(struct table *t, const struct gpu_model *m,
    struct gpu_measured *ms, const struct opts *o)
{
	struct layer_cols lc;
	long dev, kind, pimch, name, col[C_N];
	size_t r, i, ngpu = 0;
	const char *d;

	if ((dev = table_col(t, "device")) < 0) {
		pf_errl(t->fname, 1, "missing column 'device'");
		return -1;
	}
	for (r = 0; r < t->nrows; r++) {
		d = table_get(t, r, (size_t)dev);
		if (strcmp(d, "gpu") == 0)
			ngpu++;
		else if (strcmp(d, "pim") != 0) {
			pf_errl(t->fname, table_line(t, r), "column 'device': "
			    "unknown device '%s'", d);
			return -1;
		}
	}
	if (ngpu > 0 && layer_cols_find(t, &lc) < 0)
		return -1;
	kind = table_col(t, "kind");
	pimch = table_col(t, "pim_channels");
	name = table_col(t, "name");
	if (ms != NULL && ngpu > 0 && name < 0) {
		pf_errl(t->fname, 1, "missing column 'name' (needed by -m)");
		return -1;
	}
	for (i = 0; i < C_N; i++)
		col[i] = (long)table_addcol(t, outcols[i]);
	for (r = 0; r < t->nrows; r++)
		if (strcmp(table_get(t, r, (size_t)dev), "gpu") == 0 &&
		    cost_row(t, r, &lc, col, kind, pimch, name, m, ms, o) < 0)
			return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	struct opts o = { "rtx2060-sim", NULL, NULL, NULL, NULL, 0, 0, 0 };
	struct gpu_energy en;
	char *path;
	struct gpu_model m;
	struct gpu_measured ms;
	struct table t, u;
	int ch, i, rc = PF_EXIT_DATA, have_ms = 0, have_t = 0;

	pf_setprogname(argv[0]);
	while ((ch = getopt(argc, argv, "b:C:c:e:m:pw")) != -1)
		switch (ch) {
		case 'b':
			o.build = optarg;
			break;
		case 'C':
			o.total = posarg(optarg, 'C');
			if (o.total < 1)
				usage();
			break;
		case 'c':
			o.config = optarg;
			break;
		case 'e':
			o.energy = optarg;
			break;
		case 'm':
			o.measured = optarg;
			break;
		case 'p':
			o.print = 1;
			break;
		case 'w':
			o.warn = 1;
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;

	if (gpu_model_open(o.config, o.build, &m) < 0)
		return PF_EXIT_DATA;
	/*
	 * Energy constants: -e, or the energy config of the GPU config's
	 * name when there is one (a GPU without one gets no energy).
	 */
	path = NULL;
	if (o.energy != NULL && strcmp(o.energy, "none") != 0) {
		if ((path = conf_resolve("energy", o.energy)) == NULL)
			return PF_EXIT_DATA;
	} else if (o.energy == NULL && strchr(o.config, '/') == NULL &&
	    (path = pf_sharedir()) != NULL) {
		char *p = xmalloc(strlen(path) + strlen(o.config) + 16);

		sprintf(p, "%s/energy/%s.conf", path, o.config);
		free(path);
		path = p;
		if (access(path, R_OK) != 0) {
			free(path);
			path = NULL;
		}
	}
	if (path != NULL) {
		i = gpu_energy_load(path, &en);
		free(path);
		if (i < 0)
			return PF_EXIT_DATA;
		o.en = &en;
	}
	if (o.total == 0)
		o.total = (long)m.channels;
	if (o.print) {
		/* the machine, for drivers that must not parse configs */
		printf("channels,clock_mhz\n%ld,%.15g\n", o.total,
		    m.clock_mhz);
		return pf_close_stdout() < 0 ? PF_EXIT_DATA : PF_EXIT_OK;
	}
	if (o.measured != NULL) {
		if (gpu_measured_load(o.measured, &ms) < 0)
			return PF_EXIT_DATA;
		have_ms = 1;
	}
	for (i = 0; i < (argc > 0 ? argc : 1); i++) {
		if (table_load(argc > 0 ? argv[i] : "-", &u) < 0)
			goto out;
		if (cost_table(&u, &m, have_ms ? &ms : NULL, &o) < 0) {
			table_free(&u);
			goto out;
		}
		if (!have_t) {
			t = u;
			have_t = 1;
		} else {
			int bad = table_append(&t, &u);

			table_free(&u);
			if (bad < 0)
				goto out;
		}
	}
	/* A measurement no row used is a mistake in it (or -w: a warning). */
	if (have_ms) {
		const struct gpu_meas *x, *first = NULL;
		size_t k;

		for (k = 0; (x = gpu_measured_unused(&ms, k)) != NULL; k++) {
			if (o.warn)
				pf_warnl(o.measured, x->line, "measured layer "
				    "'%s' (op %s) matches no gpu row of the "
				    "input", x->name, layer_opname(x->op));
			else if (first == NULL || x->line < first->line)
				first = x;
		}
		if (first != NULL) {
			pf_errl(o.measured, first->line, "measured layer '%s' "
			    "(op %s) matches no gpu row of the input by name "
			    "and geometry (-w: warn instead)", first->name,
			    layer_opname(first->op));
			goto out;
		}
	}
	if (table_write(stdout, &t) < 0) {
		pf_write_error(NULL);
		goto out;
	}
	rc = PF_EXIT_OK;
out:
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	if (have_t)
		table_free(&t);
	if (have_ms)
		gpu_measured_free(&ms);
	return rc;
}
