/*
 * pim-cycles: fill cycles and ns of the PIM rows of a tasks table with the
 * PIM engine the config's arch key names (lib/pim_cost.h): Newton, the
 * default (PIMFlow's command generation and cycle-exact Ramulator-Newton
 * timing, plus documented extensions), or HBM2-PIM.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "conf.h"
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

	if (parse_int64(s, &v) < 0 || v < 1 || v > (1 << 20)) {
		pf_err(NULL, "-%c: bad count '%s'", opt, s);
		usage(PF_EXIT_USAGE);
	}
	/* n_gwrite takes 1, 2, 4, ...: another maximum would round down */
	if (opt == 'g' && (v & (v - 1)) != 0) {
		pf_err(NULL, "-g '%s': want a power of two (n_gwrite is 1, 2, "
		    "4, ...)", s);
		usage(PF_EXIT_USAGE);
	}
	return v;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	struct pim_cost_run u;
	struct pim_opts *op = &u.o;
	struct table_out *out;
	const char *config = "newton-gddr6", *tracef = NULL;
	char *path;
	int engine_opt = 0;
	int64_t n = 0, g = 0;
	double dispatch = -1;
	int ch, ok, nohide = 0, stats = 0, rc, print = 0;
	double t0;

	pf_setprogname(argv[0]);
	memset(&u, 0, sizeof(u));
	while ((ch = getopt(argc, argv, "abEGHT:c:d:g:hn:prsx")) != -1) {
		if (strchr("abEGTgrx", ch) != NULL)
			engine_opt = ch;
		switch (ch) {
		case 'h': usage(PF_EXIT_OK); break;
		case 'a': op->all = 1; break;
		case 'b': op->best = 1; break;
		case 'E': op->exact = 1; break;
		case 'G': op->per_group = 1; break;
		case 'H': op->no_handoff = 1; break;
		case 'T': tracef = optarg; break;
		case 'c': config = optarg; break;
		case 'd':
			if (parse_double(optarg, &dispatch) < 0 || dispatch < 0 ||
			    dispatch > 1e9) {
				pf_err(NULL, "-d: want nanoseconds from 0 to 1e9, "
				    "not '%s'", optarg);
				usage(PF_EXIT_USAGE);
			}
			break;
		case 'g': g = posarg(optarg, ch); break;
		case 'n': n = posarg(optarg, ch); break;
		case 'p': print = 1; break;
		case 'r': op->reduce = 1; break;
		case 's': stats = 1; break;
		case 'x': nohide = 1; break;
		default: usage(PF_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;

	if ((path = conf_resolve("pim", config)) == NULL)
		return PF_EXIT_DATA;
	if ((u.e = pim_engine_of(path)) == NULL) {
		free(path);
		return PF_EXIT_DATA;
	}
	if (engine_opt != 0 && strchr(u.e->opts, engine_opt) == NULL) {
		free(path);
		pf_err(NULL, "-%c: not an option of arch %s", engine_opt,
		    u.e->arch);
		usage(PF_EXIT_USAGE);
	}
	u.state = u.e->open(path, &u.def);
	free(path);
	if (u.state == NULL)
		return PF_EXIT_DATA;
	/* options fill the row parameters a row leaves empty */
	if (n > 0) {
		u.def.channels = n;
		op->fill_auto = 1;
	}
	if (g > 0)
		u.def.max_gwrite = g;
	if (nohide)
		u.def.hiding = 0;
	if (dispatch >= 0)
		u.def.dispatch_ns = dispatch;
	if (print) {
		/* the machine, for drivers that must not parse configs */
		printf("arch,channels,max_gwrite,hiding\n%s,%lld,%lld,%d\n",
		    u.e->arch, (long long)u.def.channels,
		    (long long)u.def.max_gwrite, u.def.hiding);
		u.e->close(u.state);
		return pf_close_stdout() < 0 ? PF_EXIT_DATA : PF_EXIT_OK;
	}
	if (tracef != NULL && (op->trace = tmpfile()) == NULL) {
		pf_err(NULL, "cannot create a temporary file: %s",
		    strerror(errno));
		u.e->close(u.state);
		return PF_EXIT_DATA;
	}
	t0 = now_s();
	out = table_out_open(stdout, TABLE_HOLD);
	ok = table_stream(argv, argc, NULL, pim_cost_block, &u, out) == 0;
	if (ok && stats) {
		double dt = now_s() - t0;

		fprintf(stderr, "%s: %lld pim rows, %lld commands timed, "
		    "%.3f s cpu, %.0f rows/s, %.0f commands/s\n", pf_progname(),
		    (long long)u.rows, (long long)u.cmds, dt,
		    dt > 0 ? (double)u.rows / dt : 0,
		    dt > 0 ? (double)u.cmds / dt : 0);
	}
	if (ok && op->trace != NULL && pim_trace_publish(op->trace, tracef) < 0)
		ok = 0;
	rc = ok ? PF_EXIT_OK : PF_EXIT_DATA;
	if (table_out_close(out, ok) < 0) {
		pf_write_error(NULL);
		rc = PF_EXIT_DATA;
	}
	u.e->close(u.state);
	if (op->trace != NULL)
		fclose(op->trace);
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	return rc;
}
