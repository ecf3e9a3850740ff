/*
 * pf-solve: costs.csv -> the optimal plan of a policy (per-layer CSV on
 * stdout) and a JSON summary of all six policies.  See pf-solve(1).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "capacity.h"
#include "diag.h"
#include "solve_io.h"
#include "solve_text.h"
#include "xalloc.h"

static void
usage(int rc)
{
	fprintf(rc == PF_EXIT_OK ? stdout : stderr, "usage: %s [-ADF] [-f gpu_clock_mhz] [-G gpu_config] "
	    "[-j summary.json] [-l layers.csv]\n"
	    "\t[-M pim_config] [-m model] [-n pim_channels] "
	    "[-O time|energy|edp] [-P policy|all]\n"
	    "\t[-t table.txt] [-W watts] [-w window] [costs.csv]\n", pf_progname());
	exit(rc);
}

struct opts {
	int		 all, dag, fixed, window, allow;
	int64_t		 npim;		/* -n: PIM channels (0: the config's) */
	const char	*gpuconf, *pimconf;	/* -G, -M: the memory check */
	enum policy	 pol;
	struct objective obj;
	double		 mhz;
	const char	*json, *layers, *model, *text;
};

/*
 * -G: each solved plan's memory (capacity.h) into its result; -1 after
 * one line when the plan written does not fit (any, with -P all), unless
 * -A.
 */
static int
fit(struct solve_in *in, const struct opts *o, const unsigned char *want,
    const struct plan *plans, struct solve_result *res)
{
	struct cap_machine m;
	unsigned char *pct;
	const char *where = o->layers != NULL ? o->layers : in->fname;
	int p, bad = -1;

	if (o->layers == NULL) {
		pf_err(in->fname, "-G needs -l layers.csv: the bytes to place");
		return -1;
	}
	if (capacity_machine_load(o->gpuconf, o->pimconf, o->npim, &m) < 0)
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

/* Solve what is asked; write the plan and the summary.  Returns an exit status. */
static int
run(struct solve_in *in, const struct opts *o)
{
	struct solve_result res[P_NPOL];
	struct plan plans[P_NPOL];
	unsigned char want[P_NPOL];
	struct table out;
	FILE *fp;
	int p, rc = PF_EXIT_OK;

	memset(plans, 0, sizeof(plans));
	memset(res, 0, sizeof(res));
	solve_io_want(in, o->pol, o->all, o->json != NULL || o->text != NULL,
	    want);
	if ((o->obj.kind != O_TIME || o->obj.cap_mw > 0) && !in->have_energy) {
		pf_err(in->fname, "no energy_nj on every candidate: -O %s%s "
		    "needs the energy columns (gpu-cycles with an energy "
		    "config, pf-merge)", objective_name(o->obj.kind),
		    o->obj.cap_mw > 0 ? " -W" : "");
		rc = PF_EXIT_DATA;
		goto done;
	}
	if (solve_io_policies(in, &o->obj, o->fixed, want, plans, res) < 0 ||
	    (o->gpuconf != NULL && fit(in, o, want, plans, res) < 0)) {
		rc = PF_EXIT_DATA;
		goto done;
	}
	if (o->json != NULL) {
		if ((fp = fopen(o->json, "w")) == NULL) {
			pf_err(o->json, "cannot create: %s", strerror(errno));
			rc = PF_EXIT_DATA;
			goto done;
		}
		long long lb = o->dag ? solve_lower_bound(in->c, in->nc,
		    in->nlayers, in->preds, in->npreds, P_PIMFLOW) : 0;

		if (solve_io_summary(fp, in, o->model, o->mhz, &o->obj, o->fixed,
		    res, o->dag ? o->window : 0, lb) < 0 || fflush(fp) != 0 ||
		    ferror(fp)) {
			pf_write_error(o->json);
			fclose(fp);
			rc = PF_EXIT_DATA;
			goto done;
		}
		if (fclose(fp) != 0) {
			pf_write_error(o->json);
			rc = PF_EXIT_DATA;
			goto done;
		}
	}
	if (o->text != NULL) {
		if ((fp = fopen(o->text, "w")) == NULL) {
			pf_err(o->text, "cannot create: %s", strerror(errno));
			rc = PF_EXIT_DATA;
			goto done;
		}
		if (solve_text_table(fp, in, o->model, o->mhz, &o->obj,
		    res) < 0) {
			pf_write_error(o->text);
			fclose(fp);
			rc = PF_EXIT_DATA;
			goto done;
		}
		if (fclose(fp) != 0) {
			pf_write_error(o->text);
			rc = PF_EXIT_DATA;
			goto done;
		}
	}
	solve_io_plan_table(in, &plans[o->all ? P_PIMFLOW : o->pol], &o->obj,
	    &out);
	if (csvio_write(stdout, &out) < 0) {
		pf_write_error(NULL);
		rc = PF_EXIT_DATA;
	}
	csvio_free(&out);
done:
	for (p = 0; p < P_NPOL; p++)
		plan_free(&plans[p]);
	return rc;
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct solve_in in;
	struct cap_layers cap;
	int64_t v;
	unsigned pols;
	int ch, rc = PF_EXIT_DATA;

	pf_setprogname(argv[0]);
	memset(&o, 0, sizeof(o));
	o.all = 1;
	o.pol = P_PIMFLOW;
	o.window = 8;
	o.model = "";
	while ((ch = getopt(argc, argv, "ADFf:G:hj:l:M:m:n:O:P:t:W:w:")) != -1) {
		switch (ch) {
		case 'h':
			usage(PF_EXIT_OK);
			break;
		case 'A':
			o.allow = 1;
			break;
		case 'D':
			o.dag = 1;
			break;
		case 'G':
			o.gpuconf = optarg;
			break;
		case 'M':
			o.pimconf = optarg;
			break;
		case 'n':
			if (csvio_parse_int64(optarg, &o.npim) < 0 || o.npim < 1 ||
			    o.npim > 1048576)
				usage(PF_EXIT_USAGE);
			break;
		case 'F':
			o.fixed = 1;
			break;
		case 'f':
			if (csvio_parse_double(optarg, &o.mhz) < 0 || o.mhz <= 0)
				usage(PF_EXIT_USAGE);
			break;
		case 'j':
			o.json = optarg;
			break;
		case 'l':
			o.layers = optarg;
			break;
		case 'm':
			o.model = optarg;
			break;
		case 'O':
			if (objective_parse(optarg, &o.obj.kind) < 0)
				usage(PF_EXIT_USAGE);
			break;
		case 't':
			o.text = optarg;
			break;
		case 'W': {
			double w;

			/* integer milliwatts keep the capped DP exact */
			if (csvio_parse_double(optarg, &w) < 0 || !(w > 0) || w > 1e6)
				usage(PF_EXIT_USAGE);
			o.obj.cap_mw = llround(w * 1000.0);
			if (o.obj.cap_mw < 1)
				usage(PF_EXIT_USAGE);
			break;
		}
		case 'P':
			o.all = strcmp(optarg, "all") == 0;
			if (!o.all && policy_parse(optarg, &o.pol) < 0)
				usage(PF_EXIT_USAGE);
			break;
		case 'w':
			if (csvio_parse_int64(optarg, &v) < 0 || v < 2 || v > 12)
				usage(PF_EXIT_USAGE);
			o.window = (int)v;
			break;
		default:
			usage(PF_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || (o.dag && o.layers == NULL))
		usage(PF_EXIT_USAGE);
	solve_io_in_init(&in);
	memset(&cap, 0, sizeof(cap));
	if (o.gpuconf != NULL)
		in.cap = &cap;
	/*
	 * Time plans are solved as the costs come (solve_stream.h): the
	 * policies this run may solve; pimflow's -D candidates come after.
	 */
	pols = solve_io_stream_pols(o.pol, o.all, o.json != NULL ||
	    o.text != NULL, o.dag, &o.obj);
	if (pols != 0)
		in.ss = solve_stream_new(pols);
	/* -l after the costs: its writer may be upstream in the same pipe */
	v = solve_io_load_costs(argc == 1 ? argv[0] : "-", o.layers, &in);
	if (v == 0 && o.dag)
		solve_dag(&in.c, &in.nc, in.nlayers, in.preds, in.npreds,
		    o.window, in.have_energy ? in.static_w[1] : 0);
	/* -f, else the clock gpu-cycles wrote, carried by pf-merge */
	if (v == 0 && o.mhz == 0)
		o.mhz = in.gpu_mhz;
	if (v == 0 && o.mhz == 0 && (o.json != NULL || o.text != NULL)) {
		pf_err(in.fname, "no GPU clock for the summary's cycles: "
		    "column 'gpu_clock_mhz' missing or empty (give -f)");
		v = -1;
	}
	if (v == 0)
		rc = run(&in, &o);
	solve_io_in_free(&in);
	capacity_layers_free(&cap);
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	return rc;
}
