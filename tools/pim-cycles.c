/*
 * pim-cycles: fill cycles and ns of the PIM rows of a tasks table with the
 * Newton PIM model (lib/newton_cost.h): PIMFlow's command generation and
 * cycle-exact Ramulator-Newton timing, plus documented extensions.
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
#include "hbmpim_cost.h"
#include "hbmpim_model.h"
#include "newton_cost.h"
#include "pim_model.h"

/* The engine the config's arch key names (hbm-pim or newton). */
struct engine {
	int			hbm;
	struct pim_model	m;
	struct hbmpim_model	h;
	struct pim_opts		o;
	FILE			*trace;
};

static int
cost(const struct engine *e, struct table *t, int64_t *rows, int64_t *cmds)
{
	if (e->hbm) {
		*cmds = 0;
		return hbmpim_cost_table(&e->h, t, e->o.channels, rows);
	}
	return pim_cost_table(&e->m, t, &e->o, e->trace, rows, cmds);
}

static void
usage(void)
{
	fprintf(stderr, "usage: pim-cycles [-abEGrsx] [-c config] "
	    "[-g max_gwrite] [-n pim_channels] [-T tracefile] [file ...]\n");
	exit(PF_EXIT_USAGE);
}

static int64_t
posarg(const char *s, int opt)
{
	int64_t v;

	if (parse_int64(s, &v) < 0 || v < 1 || v > (1 << 20)) {
		pf_err(NULL, "-%c: bad count '%s'", opt, s);
		usage();
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
	struct engine e;
	struct pim_opts *op = &e.o;
	struct table all, t;
	const char *config = "newton-gddr6", *tracef = NULL;
	char *path, arch[32];
	int newton_opt = 0;
	FILE *trace = NULL;
	int64_t n = 0, g = 0, rows, cmds, trows = 0, tcmds = 0;
	int ch, i, nohide = 0, stats = 0, rc = PF_EXIT_DATA, first = 1;
	double t0;

	pf_setprogname(argv[0]);
	memset(&e, 0, sizeof(e));
	while ((ch = getopt(argc, argv, "abEGT:c:g:n:rsx")) != -1) {
		if (strchr("abEGTgrx", ch) != NULL)
			newton_opt = ch;
		switch (ch) {
		case 'a': op->all = 1; break;
		case 'b': op->best = 1; break;
		case 'E': op->exact = 1; break;
		case 'G': op->per_group = 1; break;
		case 'T': tracef = optarg; break;
		case 'c': config = optarg; break;
		case 'g': g = posarg(optarg, ch); break;
		case 'n': n = posarg(optarg, ch); break;
		case 'r': op->reduce = 1; break;
		case 's': stats = 1; break;
		case 'x': nohide = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;

	if ((path = conf_resolve("pim", config)) == NULL)
		return PF_EXIT_DATA;
	if (pim_conf_arch(path, arch, sizeof(arch)) < 0) {
		free(path);
		return PF_EXIT_DATA;
	}
	e.hbm = strcmp(arch, "hbm-pim") == 0;
	if (e.hbm && newton_opt != 0) {
		free(path);
		pf_err(NULL, "-%c: not an option of arch hbm-pim", newton_opt);
		usage();
	}
	if (e.hbm ? hbmpim_model_load(path, &e.h) < 0 :
	    pim_model_load(path, &e.m) < 0) {
		free(path);
		return PF_EXIT_DATA;
	}
	free(path);
	op->channels = n > 0 ? n : e.hbm ? e.h.channels : e.m.channels;
	op->max_gwrite = g > 0 ? g : e.m.max_gwrite;
	op->hiding = nohide ? 0 : e.m.hiding;
	/*
	 * The trace goes to an anonymous file first and is copied to -T's
	 * file only once every row is costed: a failure never truncates or
	 * removes a file this run did not create (nor a device node).
	 */
	if (tracef != NULL && (e.trace = trace = tmpfile()) == NULL) {
		pf_err(NULL, "cannot create a temporary file: %s",
		    strerror(errno));
		return PF_EXIT_DATA;
	}

	t0 = now_s();
	table_init(&all, "-");
	for (i = 0; i < (argc > 0 ? argc : 1); i++) {
		const char *in = argc > 0 ? argv[i] : "-";

		if (first) {
			table_free(&all);
			if (table_load(in, &all) < 0 ||
			    cost(&e, &all, &rows, &cmds) < 0)
				goto out;
			first = 0;
		} else {
			if (table_load(in, &t) < 0)
				goto out;
			if (cost(&e, &t, &rows, &cmds) < 0 ||
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
	if (trace != NULL)
		fclose(trace);
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	return rc;
}
