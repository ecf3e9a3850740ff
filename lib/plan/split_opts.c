/*
 * pf-split as library calls: the defaults of the published flow, the
 * parsing of -a, -e, -p, -r and -s into struct split_opts (split_gen.h),
 * the machine the candidates are for (-C, -c, -n, -g) and the run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "csvio.h"
#include "diag.h"
#include "gpu_model.h"
#include "pim_attach.h"
#include "split_pipe.h"
#include "split_gen.h"
#include "task.h"
#include "xalloc.h"

void
split_opts_init(struct split_opts *o)
{
	*o = (struct split_opts){
		/*
		 * share/doc/pimflow-method.md §3: GPU shares 10..90 step
		 * 10 (0, 100 = pim, gpu)
		 */
		.r_from = 10, .r_to = 90, .r_step = 10,
		.axes = (1 << TA_NAXIS) - 1,
		/*
		 * §4: chain types 1, 2, 3 with 2 stages; and the MLP's two
		 * gemms, which the published flow (conv chains only) never
		 * pipelines, so that Transformer blocks have chains by default.
		 */
		.types = 1 << 1 | 1 << 2 | 1 << 3 | 1 << PIPE_FC,
		.stages = 1 << 2,
		/* §0 glossary: 16 of 32 channels for PIM, n_gwrite 4 with hiding */
		.pim_channels = 0,	/* TASK_PIM_AUTO: the GPU config decides */
		.gwrite = 4,
		.attach = -1,		/* no pim_attach column: partition */
		.rules = split_rules_published,
	};
}

int
split_opt_ratios(struct split_opts *o, const char *arg)
{
	int a, b, c;
	char end;

	if (sscanf(arg, "%d:%d:%d%c", &a, &b, &c, &end) != 3 || a < 1 ||
	    b > 99 || a > b || c < 1)
		return -1;
	o->r_from = a;
	o->r_to = b;
	o->r_step = c;
	return 0;
}

/* Calls fn on each comma-separated token of arg; "none" or "" gives none. */
static int
eachtok(const char *arg, struct split_opts *o,
    int (*fn)(struct split_opts *, const char *))
{
	char *s = xstrdup(arg), *p, *save = NULL;
	int rc = 0;

	if (strcmp(arg, "none") != 0)
		for (p = strtok_r(s, ",", &save); p != NULL && rc == 0;
		    p = strtok_r(NULL, ",", &save))
			rc = fn(o, p);
	free(s);
	return rc;
}

static int
axis_tok(struct split_opts *o, const char *t)
{
	enum task_axis a;

	if (task_axis_parse(t, &a) < 0)
		return -1;
	o->axes |= 1 << a;
	return 0;
}

int
split_opt_axes(struct split_opts *o, const char *arg)
{
	o->axes = 0;
	return eachtok(arg, o, axis_tok);
}

static int
type_tok(struct split_opts *o, const char *t)
{
	int64_t n;

	if (t[0] >= '1' && t[0] <= '3' && t[1] == '\0')
		o->types |= 1 << (t[0] - '0');
	else if (strcmp(t, "fc") == 0)
		o->types |= 1 << PIPE_FC;
	else if (t[0] == 'c' && csvio_parse_int64(t + 1, &n) == 0 && n >= 2 &&
	    n <= PIPE_MAXLEN)
		o->chains |= 1 << n;
	else
		return -1;
	return 0;
}

int
split_opt_types(struct split_opts *o, const char *arg)
{
	o->types = o->chains = 0;
	return eachtok(arg, o, type_tok);
}

static int
stage_tok(struct split_opts *o, const char *t)
{
	int64_t n;

	if (csvio_parse_int64(t, &n) < 0 || n < 2 || n > PIPE_MAXSTAGE)
		return -1;
	o->stages |= 1 << n;
	return 0;
}

int
split_opt_stages(struct split_opts *o, const char *arg)
{
	o->stages = 0;
	if (eachtok(arg, o, stage_tok) < 0 || o->stages == 0)
		return -1;
	return 0;
}

static int
rule_tok(struct split_opts *o, const char *t)
{
	return split_rules_set(&o->rules, t);
}

int
split_opt_rules(struct split_opts *o, const char *arg)
{
	return eachtok(arg, o, rule_tok);
}

int
split_opt(struct split_opts *o, int letter, const char *arg)
{
	switch (letter) {
	case 'a':
		return split_opt_axes(o, arg);
	case 'e':
		return split_opt_rules(o, arg);
	case 'p':
		return split_opt_types(o, arg);
	case 'r':
		return split_opt_ratios(o, arg);
	case 's':
		return split_opt_stages(o, arg);
	}
	return -1;
}

int
split_opt_gwrite(struct split_opts *o, const char *arg)
{
	int64_t v;

	if (csvio_parse_int64(arg, &v) < 0 || v < 1 || v > 64) {
		pf_err(NULL, "-g '%s': want a whole number from 1 to 64", arg);
		return -1;
	}
	/* n_gwrite takes 1, 2, 4, ...: 3 would mean 2 */
	if ((v & (v - 1)) != 0) {
		pf_err(NULL, "-g '%s': want a power of two "
		    "(n_gwrite is 1, 2, 4, ...)", arg);
		return -1;
	}
	o->gwrite = v;
	return 0;
}

/* o->attach from the pim_attach the PIM config name states, if any. */
static int
machine_attach(struct split_opts *o, const char *name)
{
	char *path;
	int a = -1, rc;

	if ((path = conf_resolve("pim", name)) == NULL)
		return -1;
	rc = pim_attach_load(path, &a);
	free(path);
	if (rc == -2)
		return -1;
	if (rc == 0)
		o->attach = a;
	return 0;
}

int
split_opt_machine(struct split_opts *o, const char *attach,
    const char *pim_config, int64_t total, const char *gpu_config,
    int64_t npim, int gwrite_set)
{
	enum task_attach at;

	if (attach != NULL) {
		if (task_attach_parse(attach, &at) < 0) {
			pf_err(NULL, "-A '%s': want partition or added",
			    attach);
			return -2;
		}
		o->attach = (int)at;
	} else if (pim_config != NULL && machine_attach(o, pim_config) < 0)
		return -1;
	if (total == 0 && gpu_config != NULL) {
		struct gpu_model m;
		char *path = conf_resolve("gpu", gpu_config);

		if (path == NULL || gpu_model_load(path, &m) < 0) {
			free(path);
			return -1;
		}
		free(path);
		total = (int64_t)m.channels;
	}
	o->channels = total;
	/*
	 * The machine, when known, decides the default share and bounds it;
	 * added PIM brings its own channels (the PIM config's, pim-cycles
	 * fills auto), so the GPU's do not bound them.
	 */
	if (o->attach == TASK_ADDED)
		o->pim_channels = npim;
	else
		o->pim_channels = npim > 0 ? npim : total > 0 ?
		    task_pim_share(total) : 0;
	if (o->attach != TASK_ADDED && total > 0 && o->pim_channels >= total) {
		pf_err(NULL, "-n %lld: PIM channels must be fewer than the %lld "
		    "channels of the machine", (long long)o->pim_channels,
		    (long long)total);
		return -2;
	}
	/* each GWRITE group is at least one PIM channel */
	if (gwrite_set && o->pim_channels > 0 && o->gwrite > o->pim_channels) {
		pf_err(NULL, "-g %lld: more GWRITE groups than the %lld PIM "
		    "channels", (long long)o->gwrite,
		    (long long)o->pim_channels);
		return -2;
	}
	return 0;
}

int
split_opt_machine_write(const struct split_opts *o, FILE *fp)
{
	char n[32] = TASK_PIM_AUTO;

	if (o->pim_channels > 0)
		snprintf(n, sizeof(n), "%lld", (long long)o->pim_channels);
	return fprintf(fp, "channels,pim_channels,max_gwrite,pim_attach\n"
	    "%lld,%s,%lld,%s\n", (long long)o->channels, n,
	    (long long)o->gwrite, task_attach_name(o->attach == TASK_ADDED ?
	    TASK_ADDED : TASK_PARTITION)) < 0 ? -1 : 0;
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

int
split_gen_run(const char *path, const struct split_opts *o)
{
	struct table_reader *in;
	struct table_out *out;
	FILE *mem = NULL;
	char *buf = NULL;
	int ok, rc = 0;

	/*
	 * The layers parsed a block at a time, so the first rows go out
	 * sooner; standard input is read whole first (raw bytes), so that
	 * the stage writing it (onnx2layers in a pipe) ends at once rather
	 * than when the last candidates are made.
	 */
	if (path == NULL || strcmp(path, "-") == 0) {
		if ((mem = slurp(stdin, &buf)) == NULL) {
			free(buf);
			return -1;
		}
		in = csvio_reader_stream(mem, "<stdin>", TABLE_BLOCK, NULL);
	} else
		in = csvio_reader_open(path, TABLE_BLOCK, NULL);
	if (in == NULL) {
		if (mem != NULL)
			fclose(mem);
		free(buf);
		return -1;
	}
	out = csvio_out_open(stdout, TABLE_HOLD);
	ok = split_gen_stream(in, o, out) == 0;
	if (!ok)
		rc = -1;
	if (csvio_out_close(out, ok) < 0) {
		pf_write_error(NULL);
		rc = -1;
	}
	csvio_reader_close(in);
	if (mem != NULL)
		fclose(mem);
	free(buf);
	return rc;
}

int
split_gen_main(struct split_args *a, const char *path)
{
	int rc = PF_EXIT_OK;

	switch (split_opt_machine(&a->o, a->attach, a->pim_config, a->total,
	    a->gpu_config, a->npim, a->gwrite_set)) {
	case -1:
		return PF_EXIT_DATA;
	case -2:
		return PF_EXIT_USAGE;
	}
	if (a->machine)
		/* a write error shows in pf_close_stdout */
		(void)split_opt_machine_write(&a->o, stdout);
	else if (split_gen_run(path, &a->o) < 0)
		rc = PF_EXIT_DATA;
	if (pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	return rc;
}
