/*
 * pf-merge: tasks with costs -> costs.csv, one row per candidate with
 * its wall time (see pf-merge(1)).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"
#include "solve_merge.h"

static void
usage(int rc)
{
	fprintf(rc == PF_EXIT_OK ? stdout : stderr, "usage: %s [-y sync_ns] [file]\n", pf_progname());
	exit(rc);
}

int
main(int argc, char **argv)
{
	double sync_ns = 0;
	int ch;

	pf_setprogname(argv[0]);
	while ((ch = pf_getopt(argc, argv, "hy:", usage)) != -1) {
		if (ch == 'y' && (csvio_parse_double(optarg, &sync_ns) < 0 ||
		    sync_ns < 0 || sync_ns > MERGE_PIECE_MAX_NS)) {
			pf_err(NULL, "-y '%s': want nanoseconds from 0 to 9e12",
			    optarg);
			usage(PF_EXIT_USAGE);
		}
	}
	argc = pf_operands(argc, &argv, 0, 1, usage);
	return merge_main(sync_ns, argv, argc);
}
