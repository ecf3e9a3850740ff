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
#include "gpu_model.h"
#include "pim_attach.h"
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

/*
 * The attachment the PIM config named (NULL: none) states: an enum
 * task_attach, -1 when it states none, -2 after a report.
 */
static int
machine_attach(const char *name)
{
	char *path;
	int a = -1, rc;

	if (name == NULL)
		return -1;
	if ((path = conf_resolve("pim", name)) == NULL)
		return -2;
	rc = pim_attach_load(path, &a);
	free(path);
	return rc == 0 ? a : rc;
}

int
main(int argc, char **argv)
{
	struct split_opts o;
	const char *config = NULL, *pimconf = NULL;
	int64_t total = 0, npim = 0;
	int ch, gset = 0, machine = 0, rc = PF_EXIT_OK, attach = -1;
	enum task_attach at;

	pf_setprogname(argv[0]);
	split_opts_init(&o);
	while ((ch = getopt(argc, argv, "A:a:C:c:e:g:hM:mn:p:r:s:")) != -1) {
		switch (ch) {
		case 'h':
			usage(PF_EXIT_OK);
			break;
		case 'A':
			if (task_attach_parse(optarg, &at) < 0) {
				pf_err(NULL, "-A '%s': want partition or added",
				    optarg);
				usage(PF_EXIT_USAGE);
			}
			attach = (int)at;
			break;
		case 'M':
			pimconf = optarg;
			break;
		case 'a':
			if (split_opt_axes(&o, optarg) < 0)
				badopt(ch, optarg);
			break;
		case 'C':
			total = num(optarg, ch, 2, 1 << 20);
			break;
		case 'c':
			config = optarg;
			break;
		case 'e':
			if (split_opt_rules(&o, optarg) < 0)
				badopt(ch, optarg);
			break;
		case 'g':
			if (split_opt_gwrite(&o, optarg) < 0)
				usage(PF_EXIT_USAGE);
			gset = 1;
			break;
		case 'm':
			machine = 1;
			break;
		case 'n':
			npim = num(optarg, ch, 1, 1 << 20);
			break;
		case 'p':
			if (split_opt_types(&o, optarg) < 0)
				badopt(ch, optarg);
			break;
		case 'r':
			if (split_opt_ratios(&o, optarg) < 0)
				badopt(ch, optarg);
			break;
		case 's':
			if (split_opt_stages(&o, optarg) < 0)
				badopt(ch, optarg);
			break;
		default:
			usage(PF_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(PF_EXIT_USAGE);
	if (total == 0 && config != NULL) {
		struct gpu_model m;
		char *path = conf_resolve("gpu", config);

		if (path == NULL || gpu_model_load(path, &m) < 0) {
			free(path);
			return PF_EXIT_DATA;
		}
		free(path);
		total = (int64_t)m.channels;
	}
	/* -A, else the PIM config's pim_attach, else no column (partition) */
	o.attach = attach >= 0 ? attach : machine_attach(pimconf);
	if (o.attach == -2)
		return PF_EXIT_DATA;
	/*
	 * The machine, when known, decides the default share and bounds it;
	 * added PIM brings its own channels (the PIM config's, pim-cycles
	 * fills auto), so the GPU's do not bound them.
	 */
	if (o.attach == TASK_ADDED)
		o.pim_channels = npim;
	else
		o.pim_channels = npim > 0 ? npim : total > 0 ?
		    task_pim_share(total) : 0;
	if (o.attach != TASK_ADDED && total > 0 && o.pim_channels >= total) {
		pf_err(NULL, "-n %lld: PIM channels must be fewer than the %lld "
		    "channels of the machine", (long long)o.pim_channels,
		    (long long)total);
		usage(PF_EXIT_USAGE);
	}
	/* each GWRITE group is at least one PIM channel */
	if (gset && o.pim_channels > 0 && o.gwrite > o.pim_channels) {
		pf_err(NULL, "-g %lld: more GWRITE groups than the %lld PIM "
		    "channels", (long long)o.gwrite, (long long)o.pim_channels);
		usage(PF_EXIT_USAGE);
	}
	if (machine) {
		/* the machine, for drivers that must not parse configs */
		char n[32] = TASK_PIM_AUTO;

		if (o.pim_channels > 0)
			snprintf(n, sizeof(n), "%lld",
			    (long long)o.pim_channels);
		printf("channels,pim_channels,max_gwrite,pim_attach\n"
		    "%lld,%s,%lld,%s\n", (long long)total, n,
		    (long long)o.gwrite, task_attach_name(o.attach == TASK_ADDED ?
		    TASK_ADDED : TASK_PARTITION));
		return pf_close_stdout() < 0 ? PF_EXIT_DATA : PF_EXIT_OK;
	}
	if (split_gen_run(argc == 0 ? NULL : argv[0], &o) < 0)
		rc = PF_EXIT_DATA;
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	return rc;
}
