/*
 * pf-solve's run once its options are parsed (solve_run.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "conf.h"
#include "csvio.h"
#include "diag.h"
#include "solve_band.h"
#include "solve_io.h"
#include "solve_run.h"
#include "solve_text.h"
#include "xalloc.h"

/*
 * The error model of -U: -E's error table (default the share folder's
 * gpu/error.csv) for -G's GPU, -R's range table (pim/range.csv) for -M's
 * PIM.  Returns 0 or -1 after a report.
 */
static int
band_open(const struct solve_run_opts *o, struct band_model *m)
{
	char *share = NULL, *ef = NULL, *rf = NULL;
	size_t n;
	int rc;

	if (o->errf == NULL || o->rangef == NULL) {
		if ((share = conf_sharedir()) == NULL) {
			pf_err(NULL, "cannot find the pimflow share directory "
			    "for -U's error files (set PIMFLOW_SHARE or give "
			    "-E and -R)");
			memset(m, 0, sizeof(*m));
			return -1;
		}
		n = strlen(share) + 32;
		ef = xmalloc(n);
		rf = xmalloc(n);
		snprintf(ef, n, "%s/gpu/error.csv", share);
		snprintf(rf, n, "%s/pim/range.csv", share);
	}
	rc = solve_band_model_load(m, o->errf != NULL ? o->errf : ef, o->gpu,
	    o->rangef != NULL ? o->rangef : rf, o->pim);
	free(share);
	free(ef);
	free(rf);
	return rc;
}

/*
 * -U auto (pimflow's default): BAND_AUTO_MAX samples, fewer where the
 * candidates are many, so that samples x candidates stays within
 * BAND_AUTO_WORK (about 0.5 s of solving on the development machine);
 * none, with a warning, where that leaves fewer than BAND_AUTO_MIN.
 */
#define BAND_AUTO_MAX	100
#define BAND_AUTO_MIN	20
#define BAND_AUTO_WORK	1000000

static int
auto_samples(const struct solve_in *in, const struct band_cands *bc)
{
	size_t n = in->nc > 0 ? BAND_AUTO_WORK / in->nc : BAND_AUTO_MAX;

	if (bc->over || n < BAND_AUTO_MIN) {
		pf_warn(in->fname, "-U auto: %zu candidates, no error band "
		    "(give -U N)", in->nc);
		return 0;
	}
	return n > BAND_AUTO_MAX ? BAND_AUTO_MAX : (int)n;
}

/* The summary (text 0: -j) or the table (1: -t) to path; 0 or -1 after a report. */
static int
write_out(const char *path, int text, const struct solve_in *in,
    const struct solve_run_opts *o, const struct solve_result *res)
{
	FILE *fp;
	long long lb;
	int rc;

	if ((fp = fopen(path, "w")) == NULL) {
		pf_err(path, "cannot create: %s", strerror(errno));
		return -1;
	}
	if (text)
		rc = solve_text_table(fp, in, o->model, o->mhz, &o->obj, res);
	else {
		lb = o->dag ? solve_lower_bound(in->c, in->nc, in->nlayers,
		    in->preds, in->npreds, P_PIMFLOW) : 0;
		rc = solve_io_summary(fp, in, o->model, o->mhz, &o->obj, o->fixed,
		    res, o->dag ? o->window : 0, lb);
	}
	if (rc < 0 || fflush(fp) != 0 || ferror(fp)) {
		pf_write_error(path);
		fclose(fp);
		return -1;
	}
	if (fclose(fp) != 0) {
		pf_write_error(path);
		return -1;
	}
	return 0;
}

/*
 * -G: each solved plan's memory (capacity.h) into its result; -1 after
 * one line when the plan written does not fit (any, with -P all), unless
 * -A.
 */
static int
fit(struct solve_in *in, const struct solve_run_opts *o, const unsigned char *want,
    const struct plan *plans, struct solve_result *res)
{
	struct cap_machine m;
	unsigned char *pct;
	const char *where = o->layers != NULL ? o->layers : in->fname;
	int p, bad = -1;

	if (o->layers == NULL)
		return 0;	/* no layers.csv: no bytes to place */
	if (capacity_machine_load(o->gpu, o->pim, o->npim, &m) < 0)
		return -1;
	if (!m.known)
		return 0;
	pct = xcalloc((size_t)in->nlayers + 1, 1);
	for (p = 0; p < P_NPOL; p++) {
		if (!want[p])
			continue;
		capacity_plan_pct(in->c, in->nlayers, &plans[p], pct);
		if (capacity_place(in->cap, &m, pct, where, &res[p].mem) < 0) {
			free(pct);
			return -1;
		}
		res[p].have_mem = 1;
		if (bad < 0 && !res[p].mem.fits && (o->all || p == (int)o->pol))
			bad = p;
	}
	free(pct);
	if (bad >= 0 && !o->allow) {
		capacity_report(where, policy_name((enum policy)bad), &m,
		    &res[bad].mem);
		return -1;
	}
	return 0;
}

/* Solve what is asked; write the plan and the summary.  0 or -1. */
static int
run(struct solve_in *in, const struct solve_run_opts *o)
{
	struct solve_result res[P_NPOL];
	struct band_result bres[P_NPOL];
	struct plan plans[P_NPOL];
	unsigned char want[P_NPOL];
	struct table out;
	int p, rc = 0;

	memset(plans, 0, sizeof(plans));
	memset(res, 0, sizeof(res));
	memset(bres, 0, sizeof(bres));
	solve_io_want(in, o->pol, o->all, o->json != NULL || o->text != NULL,
	    want);
	/* the band's speedups are over the none plan */
	want[P_NONE] |= o->samples > 0;
	if ((o->obj.kind != O_TIME || o->obj.cap_mw > 0) && !in->have_energy) {
		pf_err(in->fname, "no energy_nj on every candidate: -O %s%s "
		    "needs the energy columns (gpu-cycles with an energy "
		    "config, pf-merge)", objective_name(o->obj.kind),
		    o->obj.cap_mw > 0 ? " -W" : "");
		rc = -1;
		goto done;
	}
	if (solve_io_policies(in, &o->obj, o->fixed, want, plans, res) < 0 ||
	    (strcmp(o->gpu, "*") != 0 && fit(in, o, want, plans, res) < 0)) {
		rc = -1;
		goto done;
	}
	if (o->samples > 0) {
		struct band_run br = { o->samples, o->seed, o->fixed,
			&o->obj };

		if (solve_band_sample_all(in->c, in->nc, in->nlayers, in->band, &br,
		    want, plans, bres) < 0) {
			rc = -1;
			goto done;
		}
		for (p = 0; p < P_NPOL; p++)
			if (bres[p].done)
				res[p].band = &bres[p];
	}
	if ((o->json != NULL && write_out(o->json, 0, in, o, res) < 0) ||
	    (o->text != NULL && write_out(o->text, 1, in, o, res) < 0)) {
		rc = -1;
		goto done;
	}
	solve_io_plan_table(in, &plans[o->all ? P_PIMFLOW : o->pol], &o->obj,
	    &out);
	if (bres[o->all ? P_PIMFLOW : o->pol].done)
		solve_band_stability(&out, &bres[o->all ? P_PIMFLOW : o->pol]);
	if (csvio_write(stdout, &out) < 0) {
		pf_write_error(NULL);
		rc = -1;
	}
	csvio_free(&out);
done:
	for (p = 0; p < P_NPOL; p++) {
		plan_free(&plans[p]);
		solve_band_result_free(&bres[p]);
	}
	return rc;
}

int
solve_run(struct solve_run_opts *o, const char *path)
{
	struct solve_in in;
	struct band_model bm;
	struct band_cands bc;
	struct cap_layers cap;
	int64_t v;
	unsigned pols;
	int rc = -1;

	if (o->dag && o->samples < 0) {
		pf_warn(NULL, "-U auto: no error band with -D (its windows "
		    "have no kernel classes)");
		o->samples = 0;
	}
	if (o->samples != 0 && band_open(o, &bm) < 0) {
		solve_band_model_free(&bm);
		return -1;
	}
	solve_io_in_init(&in);
	memset(&cap, 0, sizeof(cap));
	if (strcmp(o->gpu, "*") != 0)
		in.cap = &cap;
	memset(&bc, 0, sizeof(bc));
	if (o->samples != 0) {
		bc.m = &bm;
		bc.limit = o->samples < 0 ? BAND_AUTO_WORK / BAND_AUTO_MIN : 0;
		in.band = &bc;
	}
	/*
	 * Time plans are solved as the costs come (solve_stream.h): the
	 * policies this run may solve; pimflow's -D candidates come after.
	 */
	pols = solve_io_stream_pols(o->pol, o->all, o->json != NULL ||
	    o->text != NULL, o->dag, &o->obj);
	if (pols != 0)
		in.ss = solve_stream_new(pols);
	/* -l after the costs: its writer may be upstream in the same pipe */
	v = solve_io_load_costs(path, o->layers, &in);
	if (v == 0 && o->dag)
		solve_dag(&in.c, &in.nc, in.nlayers, in.preds, in.npreds,
		    o->window, in.have_energy ? in.static_w[1] : 0);
	/* -f, else the clock gpu-cycles wrote, carried by pf-merge */
	if (v == 0 && o->mhz == 0)
		o->mhz = in.gpu_mhz;
	if (v == 0 && o->mhz == 0 && (o->json != NULL || o->text != NULL)) {
		pf_err(in.fname, "no GPU clock for the summary's cycles: "
		    "column 'gpu_clock_mhz' missing or empty (give -f)");
		v = -1;
	}
	if (v == 0 && o->samples < 0)
		o->samples = auto_samples(&in, &bc);
	if (v == 0)
		rc = run(&in, o);
	solve_io_in_free(&in);
	capacity_layers_free(&cap);
	if (bc.m != NULL) {
		solve_band_cands_free(&bc);
		solve_band_model_free(&bm);
	}
	return rc;
}
