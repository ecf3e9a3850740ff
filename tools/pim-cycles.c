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

/* Copy the finished trace from the temporary file tmp to path. */
static int
publish_trace(FILE *tmp, const char *path)
{
	char buf[1 << 16];
	size_t n;
	FILE *fp;
	int bad;

	if (fflush(tmp) != 0 || ferror(tmp) || fseek(tmp, 0, SEEK_SET) != 0) {
		pf_write_error("temporary trace file");
		return -1;
	}
	if ((fp = fopen(path, "w")) == NULL) {
		pf_err(path, "cannot open for writing: %s", strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0)
		if (fwrite(buf, 1, n, fp) != n)
			break;
	bad = ferror(tmp) || ferror(fp) || fflush(fp) != 0;
	if (bad)
		pf_write_error(path);
	if (fclose(fp) != 0 && !bad) {
		pf_write_error(path);
		bad = 1;
	}
	return bad ? -1 : 0;
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
	const struct pim_engine *e;
	void *state = NULL;
	struct pim_opts o, *op = &o;
	struct pim_row def;
	struct table all, t;
	const char *config = "newton-gddr6", *tracef = NULL;
	char *path;
	int engine_opt = 0;
	FILE *trace = NULL;
	int64_t n = 0, g = 0, rows, cmds, trows = 0, tcmds = 0;
	double dispatch = -1;
	int ch, i, nohide = 0, stats = 0, rc = PF_EXIT_DATA, first = 1;
	int print = 0;
	double t0;

	pf_setprogname(argv[0]);
	memset(&o, 0, sizeof(o));
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
	if ((e = pim_engine_of(path)) == NULL) {
		free(path);
		return PF_EXIT_DATA;
	}
	if (engine_opt != 0 && strchr(e->opts, engine_opt) == NULL) {
		free(path);
		pf_err(NULL, "-%c: not an option of arch %s", engine_opt,
		    e->arch);
		usage(PF_EXIT_USAGE);
	}
	state = e->open(path, &def);
	free(path);
	if (state == NULL)
		return PF_EXIT_DATA;
	/* options fill the row parameters a row leaves empty */
	if (n > 0)
		def.channels = n;
	if (g > 0)
		def.max_gwrite = g;
	if (nohide)
		def.hiding = 0;
	if (dispatch >= 0)
		def.dispatch_ns = dispatch;
	if (print) {
		/* the machine, for drivers that must not parse configs */
		printf("arch,channels,max_gwrite,hiding\n%s,%lld,%lld,%d\n",
		    e->arch, (long long)def.channels,
		    (long long)def.max_gwrite, def.hiding);
		e->close(state);
		return pf_close_stdout() < 0 ? PF_EXIT_DATA : PF_EXIT_OK;
	}
	/*
	 * The trace goes to an anonymous file first and is copied to -T's
	 * file only once every row is costed: a failure never truncates or
	 * removes a file this run did not create (nor a device node).
	 */
	if (tracef != NULL && (o.trace = trace = tmpfile()) == NULL) {
		pf_err(NULL, "cannot create a temporary file: %s",
		    strerror(errno));
		e->close(state);
		return PF_EXIT_DATA;
	}

	t0 = now_s();
	table_init(&all, "-");
	for (i = 0; i < (argc > 0 ? argc : 1); i++) {
		const char *in = argc > 0 ? argv[i] : "-";

		if (first) {
			table_free(&all);
			if (table_load(in, &all) < 0 ||
			    pim_cost_table(e, state, &all, &def, &o, &rows,
			    &cmds) < 0)
				goto out;
			first = 0;
		} else {
			if (table_load(in, &t) < 0)
				goto out;
			if (pim_cost_table(e, state, &t, &def, &o, &rows,
			    &cmds) < 0 ||
			    table_append(&all, &t) < 0) {
				table_free(&t);
				goto out;
			}
			table_free(&t);
		}
		trows += rows;
		tcmds += cmds;
	}
	if (stats) {
		double dt = now_s() - t0;

		fprintf(stderr, "%s: %lld pim rows, %lld commands timed, "
		    "%.3f s cpu, %.0f rows/s, %.0f commands/s\n", pf_progname(),
		    (long long)trows, (long long)tcmds, dt,
		    dt > 0 ? (double)trows / dt : 0,
		    dt > 0 ? (double)tcmds / dt : 0);
	}
	if (trace != NULL && publish_trace(trace, tracef) < 0)
		goto out;
	if (table_write(stdout, &all) < 0) {
		pf_write_error(NULL);
		goto out;
	}
	rc = PF_EXIT_OK;
out:
	table_free(&all);
	e->close(state);
	if (trace != NULL)
		fclose(trace);
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	return rc;
}
