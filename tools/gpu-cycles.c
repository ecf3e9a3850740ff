/*
 * gpu-cycles: fill cycles and ns of the GPU rows of a tasks table with the
 * analytical GPU model (lib/gpu_model.h) or measured times (-m).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"
#include "gpu_cost.h"
#include "gpu_energy.h"
#include "gpu_measured.h"
#include "gpu_model.h"

struct opts {
	const char	*config;
	const char	*build;		/* -b, NULL = the config's default */
	const char	*measured;
	const char	*energy;	/* -e, NULL = the GPU config's name */
	long		 total;		/* -C, 0 = config's channels */
	int		 print;		/* -p: print the machine, cost nothing */
	int		 warn;		/* -w: unmatched measurements warn */
};

static void
usage(int rc)
{
	fprintf(rc == PF_EXIT_OK ? stdout : stderr, "usage: gpu-cycles [-p] [-b build] [-C total_channels] "
	    "[-c config]\n\t[-e energy_config] [-m measured.csv [-w]] "
	    "[file ...]\n");
	exit(rc);
}

static long
posarg(const char *s, int opt)
{
	int64_t v;

	if (parse_int64(s, &v) < 0 || v < 0 || v > 100000) {
		pf_err(NULL, "-%c: bad channel count '%s'", opt, s);
		usage(PF_EXIT_USAGE);
	}
	return (long)v;
}

int
main(int argc, char **argv)
{
	struct opts o = { "rtx2060-sim", NULL, NULL, NULL, 0, 0, 0 };
	struct gpu_energy en;
	struct gpu_cost_opts co;
	struct gpu_model m;
	struct gpu_measured ms;
	struct table_out *out;
	int ch, k, rc;

	pf_setprogname(argv[0]);
	memset(&co, 0, sizeof(co));
	while ((ch = getopt(argc, argv, "b:C:c:e:hm:pw")) != -1)
		switch (ch) {
		case 'h':
			usage(PF_EXIT_OK);
			break;
		case 'b':
			o.build = optarg;
			break;
		case 'C':
			o.total = posarg(optarg, 'C');
			if (o.total < 1)
				usage(PF_EXIT_USAGE);
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
			usage(PF_EXIT_USAGE);
		}
	argc -= optind;
	argv += optind;

	if (gpu_model_open(o.config, o.build, &m) < 0 ||
	    (k = gpu_energy_for(o.config, o.energy, &en)) < 0)
		return PF_EXIT_DATA;
	co.en = k > 0 ? &en : NULL;
	if (o.total == 0)
		o.total = (long)m.channels;
	if (o.print) {
		/* the machine, for drivers that must not parse configs */
		printf("channels,clock_mhz\n%ld,%.15g\n", o.total,
		    m.clock_mhz);
		return pf_close_stdout() < 0 ? PF_EXIT_DATA : PF_EXIT_OK;
	}
	if (o.measured != NULL && gpu_measured_load(o.measured, &ms) < 0)
		return PF_EXIT_DATA;
	co.m = &m;
	co.ms = o.measured != NULL ? &ms : NULL;
	co.measured = o.measured;
	co.total = o.total;
	co.config = o.config;
	out = table_out_open(stdout, TABLE_HOLD);
	/* a measurement no row used is a mistake in it (-w: a warning) */
	k = table_stream(argv, argc, NULL, gpu_cost_block, &co, out) == 0 &&
	    gpu_cost_unused(&co, o.warn) == 0;
	rc = k ? PF_EXIT_OK : PF_EXIT_DATA;
	if (table_out_close(out, k) < 0) {
		pf_write_error(NULL);
		rc = PF_EXIT_DATA;
	}
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	if (co.ms != NULL)
		gpu_measured_free(&ms);
	return rc;
}
