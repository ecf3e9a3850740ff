/*
 * pf-split: layers.csv -> tasks.csv, every candidate way to run each layer
 * (GPU alone, PIM alone, split between both, pipelined chains), one row
 * per piece with its exact geometry.  See pf-split(1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"
#include "split_gen.h"

static void
usage(int rc)
{
	fprintf(rc == PF_EXIT_OK ? stdout : stderr, "usage: %s [-m] [-A attach] [-a axes] "
	    "[-C total_channels] [-c gpu_config] [-e rules]\n"
	    "\t[-g max_gwrite] [-M pim_config] [-n pim_channels] [-p types] "
	    "[-r from:to:step]\n\t[-s stages] [file]\n",
	    pf_progname());
	exit(rc);
}

static int64_t
num(const char *s, int opt, int64_t lo, int64_t hi)
{
	int64_t v;

	if (csvio_parse_int64(s, &v) < 0 || v < lo || v > hi) {
		pf_err(NULL, "-%c '%s': want a whole number from %lld to %lld",
		    opt, s, (long long)lo, (long long)hi);
		usage(PF_EXIT_USAGE);
	}
	return v;
}

/* An option argument split_opt_* refused. */
static void
badopt(int opt, const char *s)
{
	if (opt == 'r')
		pf_err(NULL, "-r '%s': want from:to:step with 1 <= from <= to "
		    "<= 99 and step >= 1", s);
	else
		pf_err(NULL, "-%c '%s': not a valid value (see pf-split(1))",
		    opt, s);
	usage(PF_EXIT_USAGE);
}

int
main(int argc, char **argv)
{
	struct split_args a;
	int ch, rc;

	pf_setprogname(argv[0]);
	memset(&a, 0, sizeof(a));
	split_opts_init(&a.o);
	while ((ch = pf_getopt(argc, argv, "A:a:C:c:e:g:hM:mn:p:r:s:",
	    usage)) != -1) {
		switch (ch) {
		case 'A':
			a.attach = optarg;
			break;
		case 'M':
			a.pim_config = optarg;
			break;
		case 'a':
		case 'e':
		case 'p':
		case 'r':
		case 's':
			if (split_opt(&a.o, ch, optarg) < 0)
				badopt(ch, optarg);
			break;
		case 'C':
			a.total = num(optarg, ch, 2, 1 << 20);
			break;
		case 'c':
			a.gpu_config = optarg;
			break;
		case 'g':
			if (split_opt_gwrite(&a.o, optarg) < 0)
				usage(PF_EXIT_USAGE);
			a.gwrite_set = 1;
			break;
		case 'm':
			a.machine = 1;
			break;
		case 'n':
			a.npim = num(optarg, ch, 1, 1 << 20);
			break;
		}
	}
	argc = pf_operands(argc, &argv, 0, 1, usage);
	if ((rc = split_gen_main(&a, argc == 0 ? NULL : argv[0])) ==
	    PF_EXIT_USAGE)
		usage(rc);
	return rc;
}
