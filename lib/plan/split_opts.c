/*
 * pf-split's options: the defaults of the published flow and the
 * parsing of -a, -e, -p, -r and -s into struct split_opts (split_gen.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvio.h"
#include "split_pipe.h"
#include "split_gen.h"
#include "task.h"
#include "xalloc.h"

void
split_opts_init(struct split_opts *o)
{
	memset(o, 0, sizeof(*o));
	/* share/doc/pimflow-method.md §3: GPU shares 10..90 step 10 (0, 100 = pim, gpu) */
	o->r_from = 10;
	o->r_to = 90;
	o->r_step = 10;
	o->axes = (1 << TA_NAXIS) - 1;
	/*
	 * §4: chain types 1, 2, 3 with 2 stages; and the MLP's two gemms,
	 * which the published flow (conv chains only) never pipelines, so
	 * that Transformer blocks have chains by default.
	 */
	o->types = 1 << 1 | 1 << 2 | 1 << 3 | 1 << PIPE_FC;
	o->stages = 1 << 2;
	/* §0 glossary: 16 of 32 channels for PIM, n_gwrite 4 with hiding */
	o->pim_channels = 0;	/* TASK_PIM_AUTO: the GPU config decides */
	o->gwrite = 4;
	split_rules_init(&o->rules);
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
	else if (t[0] == 'c' && parse_int64(t + 1, &n) == 0 && n >= 2 &&
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

	if (parse_int64(t, &n) < 0 || n < 2 || n > PIPE_MAXSTAGE)
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
