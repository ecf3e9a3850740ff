/*
 * pim-cycles: fill cycles and ns of the PIM rows of a tasks table with the
 * PIM engine the config's arch key names (lib/pim/pim_cost.h): Newton, the
 * default (PIMFlow's command generation and cycle-exact Ramulator-Newton
 * timing, plus documented extensions), or HBM2-PIM.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"
#include "pim_cost.h"

static void
usage(int rc)
{
	fprintf(rc == PF_EXIT_OK ? stdout : stderr, "usage: pim-cycles [-abEGHprsx] [-c config] "
	    "[-d dispatch_ns] [-g max_gwrite] [-n pim_channels] [-T tracefile] "
	    "[file ...]\n");
	exit(rc);
}

static int64_t
posarg(const char *s, int opt)
{
	int64_t v;

	if (csvio_parse_optint(s, opt, 1, 1 << 20, "count", &v) < 0)
		usage(PF_EXIT_USAGE);
	/* n_gwrite takes 1, 2, 4, ...: another maximum would round down */
	if (opt == 'g' && (v & (v - 1)) != 0) {
		pf_err(NULL, "-g '%s': want a power of two (n_gwrite is 1, 2, "
		    "4, ...)", s);
		usage(PF_EXIT_USAGE);
	}
	return v;
}

int
main(int argc, char **argv)
{
	struct pim_cost_args a;
	int ch, rc;

	pf_setprogname(argv[0]);
	memset(&a, 0, sizeof(a));
	a.config = "newton-gddr6";
	a.dispatch = -1;
	while ((ch = pf_getopt(argc, argv, "abEGHT:c:d:g:hn:prsx", usage)) !=
	    -1) {
		if (strchr("abEGTgrx", ch) != NULL)
			a.engine_opt = ch;
		switch (ch) {
		case 'a': a.o.all = 1; break;
		case 'b': a.o.best = 1; break;
		case 'E': a.o.exact = 1; break;
		case 'G': a.o.per_group = 1; break;
		case 'H': a.o.no_handoff = 1; break;
		case 'T': a.trace = optarg; break;
		case 'c': a.config = optarg; break;
		case 'd':
			if (csvio_parse_double(optarg, &a.dispatch) < 0 ||
			    a.dispatch < 0 || a.dispatch > 1e9) {
				pf_err(NULL, "-d: want nanoseconds from 0 to 1e9, "
				    "not '%s'", optarg);
				usage(PF_EXIT_USAGE);
			}
			break;
		case 'g': a.max_gwrite = posarg(optarg, ch); break;
		case 'n': a.channels = posarg(optarg, ch); break;
		case 'p': a.print = 1; break;
		case 'r': a.o.reduce = 1; break;
		case 's': a.stats = 1; break;
		case 'x': a.nohide = 1; break;
		}
	}
	argc = pf_operands(argc, &argv, 0, -1, usage);
	if ((rc = pim_cost_main(&a, argv, argc)) == PF_EXIT_USAGE)
		usage(rc);
	return rc;
}
