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
	struct pim_cost_run u;
	struct pim_opts o;
	const char *config = "newton-gddr6", *tracef = NULL;
	int engine_opt = 0, ch, rc, nohide = 0, stats = 0, print = 0;
	int64_t n = 0, g = 0;
	double dispatch = -1;

	pf_setprogname(argv[0]);
	memset(&o, 0, sizeof(o));
	while ((ch = getopt(argc, argv, "abEGHT:c:d:g:hn:prsx")) != -1) {
		if (strchr("abEGTgrx", ch) != NULL)
			engine_opt = ch;
		switch (ch) {
		case 'h': usage(PF_EXIT_OK); break;
		case 'a': o.all = 1; break;
		case 'b': o.best = 1; break;
		case 'E': o.exact = 1; break;
		case 'G': o.per_group = 1; break;
		case 'H': o.no_handoff = 1; break;
		case 'T': tracef = optarg; break;
		case 'c': config = optarg; break;
		case 'd':
			if (csvio_parse_double(optarg, &dispatch) < 0 || dispatch < 0 ||
			    dispatch > 1e9) {
				pf_err(NULL, "-d: want nanoseconds from 0 to 1e9, "
				    "not '%s'", optarg);
				usage(PF_EXIT_USAGE);
			}
			break;
		case 'g': g = posarg(optarg, ch); break;
		case 'n': n = posarg(optarg, ch); break;
		case 'p': print = 1; break;
		case 'r': o.reduce = 1; break;
		case 's': stats = 1; break;
		case 'x': nohide = 1; break;
		default: usage(PF_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;

	if ((rc = pim_cost_open(&u, config, engine_opt)) < 0) {
		if (rc == -2)
			usage(PF_EXIT_USAGE);
		return PF_EXIT_DATA;
	}
	u.o = o;
	pim_cost_defaults(&u, n, g, nohide, dispatch);
	if (print) {
		/* the machine, for drivers that must not parse configs */
		printf("arch,channels,max_gwrite,hiding\n%s,%lld,%lld,%d\n",
		    u.e->arch, (long long)u.def.channels,
		    (long long)u.def.max_gwrite, u.def.hiding);
		rc = pf_close_stdout() < 0 ? PF_EXIT_DATA : PF_EXIT_OK;
	} else {
		if (pim_cost_start(&u, tracef, stats) < 0)
			rc = PF_EXIT_DATA;
		else
			/* the engines' memos span the blocks */
			rc = csvio_stream_stdout_block(argv, argc, NULL,
			    TABLE_BLOCK_MEMO, pim_cost_block, pim_cost_done,
			    &u) == 0 ? PF_EXIT_OK : PF_EXIT_DATA;
	}
	pim_cost_close(&u);
	return rc;
}
