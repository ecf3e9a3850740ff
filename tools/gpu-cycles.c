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
	struct gpu_cost_args o = { "rtx2060-sim", NULL, NULL, NULL, 0, 0, 0 };
	int64_t v;
	int ch;

	pf_setprogname(argv[0]);
	while ((ch = pf_getopt(argc, argv, "b:C:c:e:hm:pw", usage)) != -1)
		switch (ch) {
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
		}
	argc = pf_operands(argc, &argv, 0, -1, usage);
	return gpu_cost_main(&o, argv, argc);
}
