/*
 * pf-split: layers.csv -> tasks.csv, every candidate way to run each layer
 * (GPU alone, PIM alone, split between both, pipelined chains), one row
 * per piece with its exact geometry.  See pf-split(1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "csvio.h"
#include "diag.h"
#include "gpu_model.h"
#include "split_gen.h"
#include "task.h"
#include "xalloc.h"

static void
usage(int rc)
{
	fprintf(rc == PF_EXIT_OK ? stdout : stderr, "usage: %s [-m] [-a axes] [-C total_channels] "
	    "[-c gpu_config] [-e rules] [-g max_gwrite]\n"
	    "\t[-n pim_channels] [-p types] [-r from:to:step] [-s stages] "
	    "[file]\n",
	    pf_progname());
	exit(rc);
}

static int64_t
num(const char *s, int opt, int64_t lo, int64_t hi)
{
	int64_t v;

	if (parse_int64(s, &v) < 0 || v < lo || v > hi) {
		pf_err(NULL, "-%c '%s': want a whole number from %lld to %lld",
		    opt, s, (long long)lo, (long long)hi);
		usage(PF_EXIT_USAGE);
	}
	return v;
}

/*
 * All of fp read into *buf (the caller frees it) and opened as a stream
 * of its bytes, or NULL after a report.
 */
static FILE *
slurp(FILE *fp, char **buf)
{
	size_t n = 0, cap = 1 << 16, r;
	FILE *m;

	*buf = xmalloc(cap);
	while ((r = fread(*buf + n, 1, cap - n, fp)) > 0)
		if ((n += r) == cap)
			*buf = xreallocarray(*buf, cap *= 2, 1);
	if (ferror(fp)) {
		pf_err("<stdin>", "%s", strerror(errno));
		return NULL;
	}
	/* fmemopen of no bytes may fail: an empty stream is one of 0 bytes */
	if ((m = fmemopen(*buf, n > 0 ? n : 1, "r")) == NULL) {
		pf_err("<stdin>", "%s", strerror(errno));
		return NULL;
	}
	if (n == 0) {
		**buf = '\0';
		(void)fgetc(m);
	}
	return m;
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
	struct split_opts o;
	struct table_reader *in;
	struct table_out *out;
	FILE *mem = NULL;
	char *buf = NULL;
	const char *config = NULL;
	int64_t total = 0, npim = 0;
	int ch, gset = 0, machine = 0, rc = PF_EXIT_OK;

	pf_setprogname(argv[0]);
	split_opts_init(&o);
	while ((ch = getopt(argc, argv, "a:C:c:e:g:hmn:p:r:s:")) != -1) {
		switch (ch) {
		case 'h':
			usage(PF_EXIT_OK);
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
			o.gwrite = num(optarg, ch, 1, 64);
			gset = 1;
			/* n_gwrite takes 1, 2, 4, ...: 3 would mean 2 */
			if ((o.gwrite & (o.gwrite - 1)) != 0) {
				pf_err(NULL, "-g '%s': want a power of two "
				    "(n_gwrite is 1, 2, 4, ...)", optarg);
				usage(PF_EXIT_USAGE);
			}
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
	/* The machine, when known, decides the default share and bounds it. */
	o.pim_channels = npim > 0 ? npim : total > 0 ? task_pim_share(total) :
	    0;
	if (total > 0 && o.pim_channels >= total) {
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
		printf("channels,pim_channels,max_gwrite\n%lld,%s,%lld\n",
		    (long long)total, n, (long long)o.gwrite);
		return pf_close_stdout() < 0 ? PF_EXIT_DATA : PF_EXIT_OK;
	}
	/*
	 * The layers parsed a block at a time, so the first rows go out
	 * sooner; standard input is read whole first (raw bytes), so that
	 * the stage writing it (onnx2layers in a pipe) ends at once rather
	 * than when the last candidates are made.
	 */
	if (argc == 0 || strcmp(argv[0], "-") == 0) {
		if ((mem = slurp(stdin, &buf)) == NULL) {
			free(buf);
			return PF_EXIT_DATA;
		}
		in = table_reader_stream(mem, "<stdin>", TABLE_BLOCK, NULL);
	} else
		in = table_reader_open(argv[0], TABLE_BLOCK, NULL);
	if (in == NULL) {
		if (mem != NULL)
			fclose(mem);
		free(buf);
		return PF_EXIT_DATA;
	}
	out = table_out_open(stdout, TABLE_HOLD);
	ch = split_stream(in, &o, out) == 0;
	if (!ch)
		rc = PF_EXIT_DATA;
	if (table_out_close(out, ch) < 0) {
		pf_write_error(NULL);
		rc = PF_EXIT_DATA;
	}
	table_reader_close(in);
	if (mem != NULL)
		fclose(mem);
	free(buf);
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	return rc;
}
