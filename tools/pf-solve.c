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
#include "diag.h"
#include "solve_run.h"

static void
usage(int rc)
{
	fprintf(rc == PF_EXIT_OK ? stdout : stderr, "usage: %s [-ADF] [-E error.csv] [-f gpu_clock_mhz] "
	    "[-G gpu] [-j summary.json]\n"
	    "\t[-l layers.csv] [-M pim] [-m model] [-n pim_channels] "
	    "[-O time|energy|edp] [-P policy|all]\n"
	    "\t[-R range.csv] [-S seed] [-t table.txt] [-U samples|auto] "
	    "[-W watts]\n\t[-w window] [costs.csv]\n", pf_progname());
	exit(rc);
}

/* The options into *o (exits 2 on a bad one); returns optind. */
static int
parse_opts(int argc, char **argv, struct solve_run_opts *o)
{
	int64_t v;
	int ch;

	memset(o, 0, sizeof(*o));
	o->all = 1;
	o->pol = P_PIMFLOW;
	o->window = 8;
	o->model = "";
	o->gpu = "*";
	o->pim = "newton-gddr6";
	o->seed = 1;
	while ((ch = getopt(argc, argv, "ADE:FG:M:R:S:U:f:hj:l:m:n:O:P:t:W:w:")) !=
	    -1) {
		switch (ch) {
		case 'A':
			o->allow = 1;
			break;
		case 'n':
			if (csvio_parse_int64(optarg, &o->npim) < 0 ||
			    o->npim < 1 || o->npim > 1048576)
				usage(PF_EXIT_USAGE);
			break;
		case 'E':
			o->errf = optarg;
			break;
		case 'G':
			o->gpu = optarg;
			break;
		case 'M':
			o->pim = optarg;
			break;
		case 'R':
			o->rangef = optarg;
			break;
		case 'S':
			if (csvio_parse_int64(optarg, &v) < 0 || v < 0)
				usage(PF_EXIT_USAGE);
			o->seed = (uint64_t)v;
			break;
		case 'U':
			/* auto: BAND_AUTO below */
			if (strcmp(optarg, "auto") == 0)
				v = -1;
			else if (csvio_parse_int64(optarg, &v) < 0 || v < 0 ||
			    v > 100000)
				usage(PF_EXIT_USAGE);
			o->samples = (int)v;
			break;
		case 'h':
			usage(PF_EXIT_OK);
			break;
		case 'D':
			o->dag = 1;
			break;
		case 'F':
			o->fixed = 1;
			break;
		case 'f':
			if (csvio_parse_double(optarg, &o->mhz) < 0 || o->mhz <= 0)
				usage(PF_EXIT_USAGE);
			break;
		case 'j':
			o->json = optarg;
			break;
		case 'l':
			o->layers = optarg;
			break;
		case 'm':
			o->model = optarg;
			break;
		case 'O':
			if (objective_parse(optarg, &o->obj.kind) < 0)
				usage(PF_EXIT_USAGE);
			break;
		case 't':
			o->text = optarg;
			break;
		case 'W': {
			double w;

			/* integer milliwatts keep the capped DP exact */
			if (csvio_parse_double(optarg, &w) < 0 || !(w > 0) || w > 1e6)
				usage(PF_EXIT_USAGE);
			o->obj.cap_mw = llround(w * 1000.0);
			if (o->obj.cap_mw < 1)
				usage(PF_EXIT_USAGE);
			break;
		}
		case 'P':
			o->all = strcmp(optarg, "all") == 0;
			if (!o->all && policy_parse(optarg, &o->pol) < 0)
				usage(PF_EXIT_USAGE);
			break;
		case 'w':
			if (csvio_parse_int64(optarg, &v) < 0 || v < 2 || v > 12)
				usage(PF_EXIT_USAGE);
			o->window = (int)v;
			break;
		default:
			usage(PF_EXIT_USAGE);
		}
	}
	return optind;
}

int
main(int argc, char **argv)
{
	struct solve_run_opts o;
	int rc;

	pf_setprogname(argv[0]);
	optind = parse_opts(argc, argv, &o);
	argc -= optind;
	argv += optind;
	if (argc > 1 || (o.dag && o.layers == NULL) ||
	    (o.dag && o.samples > 0))
		usage(PF_EXIT_USAGE);
	rc = solve_run(&o, argc == 1 ? argv[0] : "-") < 0 ? PF_EXIT_DATA :
	    PF_EXIT_OK;
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	return rc;
}
