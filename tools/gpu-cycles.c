/*
 * gpu-cycles: fill cycles and ns of the GPU rows of a tasks table with the
 * analytical GPU model (lib/gpu_model.h) or measured times (-m).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "csvio.h"
#include "diag.h"
#include "gpu_cost.h"
#include "gpu_energy.h"
#include "gpu_measured.h"
#include "gpu_model.h"
#include "layer.h"
#include "xalloc.h"

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
	char *path;
	struct gpu_model m;
	struct gpu_measured ms;
	struct table t, u;
	int ch, i, rc = PF_EXIT_DATA, have_ms = 0, have_t = 0;

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

	if (gpu_model_open(o.config, o.build, &m) < 0)
		return PF_EXIT_DATA;
	/*
	 * Energy constants: -e, or the energy config of the GPU config's
	 * name when there is one (a GPU without one gets no energy).
	 */
	path = NULL;
	if (o.energy != NULL && strcmp(o.energy, "none") != 0) {
		if ((path = conf_resolve("energy", o.energy)) == NULL)
			return PF_EXIT_DATA;
	} else if (o.energy == NULL && strchr(o.config, '/') == NULL &&
	    (path = pf_sharedir()) != NULL) {
		char *p = xmalloc(strlen(path) + strlen(o.config) + 16);

		sprintf(p, "%s/energy/%s.conf", path, o.config);
		free(path);
		path = p;
		if (access(path, R_OK) != 0) {
			free(path);
			path = NULL;
		}
	}
	if (path != NULL) {
		i = gpu_energy_load(path, &en);
		free(path);
		if (i < 0)
			return PF_EXIT_DATA;
		co.en = &en;
	}
	if (o.total == 0)
		o.total = (long)m.channels;
	if (o.print) {
		/* the machine, for drivers that must not parse configs */
		printf("channels,clock_mhz\n%ld,%.15g\n", o.total,
		    m.clock_mhz);
		return pf_close_stdout() < 0 ? PF_EXIT_DATA : PF_EXIT_OK;
	}
	if (o.measured != NULL) {
		if (gpu_measured_load(o.measured, &ms) < 0)
			return PF_EXIT_DATA;
		have_ms = 1;
	}
	co.m = &m;
	co.ms = have_ms ? &ms : NULL;
	co.measured = o.measured;
	co.total = o.total;
	co.config = o.config;
	for (i = 0; i < (argc > 0 ? argc : 1); i++) {
		if (table_load(argc > 0 ? argv[i] : "-", &u) < 0)
			goto out;
		if (gpu_cost_table(&u, &co) < 0) {
			table_free(&u);
			goto out;
		}
		if (!have_t) {
			t = u;
			have_t = 1;
		} else {
			int bad = table_append(&t, &u);

			table_free(&u);
			if (bad < 0)
				goto out;
		}
	}
	/* A measurement no row used is a mistake in it (or -w: a warning). */
	if (have_ms) {
		const struct gpu_meas *x, *first = NULL;
		size_t k;

		for (k = 0; (x = gpu_measured_unused(&ms, k)) != NULL; k++) {
			if (o.warn)
				pf_warnl(o.measured, x->line, "measured layer "
				    "'%s' (op %s) matches no gpu row of the "
				    "input", x->name, layer_opname(x->op));
			else if (first == NULL || x->line < first->line)
				first = x;
		}
		if (first != NULL) {
			pf_errl(o.measured, first->line, "measured layer '%s' "
			    "(op %s) matches no gpu row of the input by name "
			    "and geometry (-w: warn instead)", first->name,
			    layer_opname(first->op));
			goto out;
		}
	}
	if (table_write(stdout, &t) < 0) {
		pf_write_error(NULL);
		goto out;
	}
	rc = PF_EXIT_OK;
out:
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	if (have_t)
		table_free(&t);
	if (have_ms)
		gpu_measured_free(&ms);
	return rc;
}
