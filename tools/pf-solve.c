/*
 * pf-solve: costs.csv -> the optimal plan of a policy (per-layer CSV on
 * stdout) and a JSON summary of all six policies.  See pf-solve(1).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
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

/* The options that name a file or a thing, and the flags: where each goes. */
static const struct {
	char	ch;
	size_t	off;
} stropts[] = {
	{ 'E', offsetof(struct solve_run_opts, errf) },
	{ 'G', offsetof(struct solve_run_opts, gpu) },
	{ 'M', offsetof(struct solve_run_opts, pim) },
	{ 'R', offsetof(struct solve_run_opts, rangef) },
	{ 'j', offsetof(struct solve_run_opts, json) },
	{ 'l', offsetof(struct solve_run_opts, layers) },
	{ 'm', offsetof(struct solve_run_opts, model) },
	{ 't', offsetof(struct solve_run_opts, text) },
}, flagopts[] = {
	{ 'A', offsetof(struct solve_run_opts, allow) },
	{ 'D', offsetof(struct solve_run_opts, dag) },
	{ 'F', offsetof(struct solve_run_opts, fixed) },
};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Option ch when it is a name or a flag, into o: 1, else 0. */
static int
plain_opt(struct solve_run_opts *o, int ch, const char *arg)
{
	size_t i;

	for (i = 0; i < NELEM(stropts); i++)
		if (stropts[i].ch == ch) {
			*(const char **)(void *)((char *)o + stropts[i].off) = arg;
			return 1;
		}
	for (i = 0; i < NELEM(flagopts); i++)
		if (flagopts[i].ch == ch) {
			*(int *)(void *)((char *)o + flagopts[i].off) = 1;
			return 1;
		}
	return 0;
}

/* -W watts as the objective's cap in integer milliwatts: 0 or -1. */
static int
cap_opt(struct solve_run_opts *o, const char *arg)
{
	double w;

	/* integer milliwatts keep the capped DP exact */
	if (csvio_parse_double(arg, &w) < 0 || !(w > 0) || w > 1e6)
		return -1;
	o->obj.cap_mw = llround(w * 1000.0);
	return o->obj.cap_mw < 1 ? -1 : 0;
}

/* Option ch that takes a value, into o: 0, or -1 when arg is bad. */
static int
value_opt(struct solve_run_opts *o, int ch, const char *arg)
{
	int64_t v;

	switch (ch) {
	case 'n':
		return csvio_parse_int_in(arg, 1, 1048576, &o->npim);
	case 'S':
		if (csvio_parse_int_in(arg, 0, INT64_MAX, &v) < 0)
			return -1;
		o->seed = (uint64_t)v;
		return 0;
	case 'U':
		/* auto: BAND_AUTO, set by solve_run */
		v = -1;
		if (strcmp(arg, "auto") != 0 &&
		    csvio_parse_int_in(arg, 0, 100000, &v) < 0)
			return -1;
		o->samples = (int)v;
		return 0;
	case 'f':
		return csvio_parse_double(arg, &o->mhz) < 0 || o->mhz <= 0 ?
		    -1 : 0;
	case 'O':
		return objective_parse(arg, &o->obj.kind);
	case 'W':
		return cap_opt(o, arg);
	case 'P':
		o->all = strcmp(arg, "all") == 0;
		return o->all ? 0 : policy_parse(arg, &o->pol);
	case 'w':
		if (csvio_parse_int_in(arg, 2, 12, &v) < 0)
			return -1;
		o->window = (int)v;
		return 0;
	default:
		return -1;
	}
}

/* The options into *o (exits 2 on a bad one). */
static void
parse_opts(int argc, char **argv, struct solve_run_opts *o)
{
	int ch;

	memset(o, 0, sizeof(*o));
	o->all = 1;
	o->pol = P_PIMFLOW;
	o->window = 8;
	o->model = "";
	o->gpu = "*";
	o->pim = "newton-gddr6";
	o->seed = 1;
	while ((ch = pf_getopt(argc, argv,
	    "ADE:FG:M:R:S:U:f:hj:l:m:n:O:P:t:W:w:", usage)) != -1)
		if (!plain_opt(o, ch, optarg) && value_opt(o, ch, optarg) < 0)
			usage(PF_EXIT_USAGE);
}

int
main(int argc, char **argv)
{
	struct solve_run_opts o;
	int rc;

	pf_setprogname(argv[0]);
	parse_opts(argc, argv, &o);
	argc = pf_operands(argc, &argv, 0, 1, usage);
	if ((o.dag && o.layers == NULL) || (o.dag && o.samples > 0))
		usage(PF_EXIT_USAGE);
	rc = solve_run(&o, argc == 1 ? argv[0] : "-") < 0 ? PF_EXIT_DATA :
	    PF_EXIT_OK;
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	return rc;
}
