/*
 * gpu-cycles: fill cycles and ns of the GPU rows of a tasks table with the
 * analytical GPU model (lib/gpu/gpu_model.h) or measured times (-m).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"
#include "gpu_cost.h"

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

int
main(int argc, char **argv)
{
	struct opts o = { "rtx2060-sim", NULL, NULL, NULL, 0, 0, 0 };
	struct gpu_cost_run r;
	int64_t v;
	int ch, rc;

	pf_setprogname(argv[0]);
	while ((ch = getopt(argc, argv, "b:C:c:e:hm:pw")) != -1)
		switch (ch) {
		case 'h':
			usage(PF_EXIT_OK);
			break;
		case 'b':
			o.build = optarg;
			break;
		case 'C':
			if (csvio_parse_optint(optarg, ch, 0, 100000, "channel count",
			    &v) < 0 || v < 1)
				usage(PF_EXIT_USAGE);
			o.total = (long)v;
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

	if (gpu_cost_open(&r, o.config, o.build, o.energy, o.total) < 0)
		return PF_EXIT_DATA;
	if (o.print) {
		/* the machine, for drivers that must not parse configs */
		printf("channels,clock_mhz\n%ld,%.15g\n", r.o.total,
		    r.m.clock_mhz);
		return pf_close_stdout() < 0 ? PF_EXIT_DATA : PF_EXIT_OK;
	}
	if (gpu_cost_measure(&r, o.measured, o.warn) < 0)
		return PF_EXIT_DATA;
	/* the memo of the model's estimates spans the blocks */
	rc = csvio_stream_stdout_block(argv, argc, NULL, TABLE_BLOCK_MEMO,
	    gpu_cost_block, gpu_cost_done, &r) == 0 ? PF_EXIT_OK : PF_EXIT_DATA;
	gpu_cost_close(&r);
	return rc;
}
