/*
 * The vocabulary of tasks.csv and costs.csv (task.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "nametab.h"
#include "task.h"

static const char *const devnames[TASK_NDEV] = { "gpu", "pim" };
static const char *const kindnames[TK_NKIND] = {
	"base", "gpu", "pim", "split", "pipe"
};

NAMETAB_PAIR(enum task_kind, kindnames, TK_NKIND, task_kind_name,
    task_kind_parse)

const char *const task_head_cols[TT_NHEAD + 1] = {
	"cand", "first", "last", "kind", "axis", "ratio", "step", "device", NULL
};

const char *const task_pim_cols[TT_NPIM + 1] = {
	TASK_COL_PIM_CHANNELS, TASK_COL_PIM_GWRITE, TASK_COL_PIM_HIDING, NULL
};

const char *const task_cost_cols[TC_NNEED + 1] = {
	"cand", "first", "last", "kind", "axis", "ratio", TASK_COL_PIM_GWRITE,
	TASK_COL_PIM_HIDING, "gpu_ns", "pim_ns", TASK_COL_NS, NULL
};

const char *const task_cost_opt[TC_NCOL - TC_NNEED + 1] = {
	TASK_COL_GPU_CLOCK, TASK_COL_ENERGY, "gpu_static_w", "pim_static_w",
	"handoff_ns", "dev_in", "dev_out", TASK_COL_HANDOFF_IN,
	TASK_COL_HANDOFF_OUT, TASK_COL_GPU_TENSOR, NULL
};

int
task_axis_parse(const char *s, enum task_axis *a)
{
	int i;

	for (i = 0; i < TA_NAXIS; i++)
		if (s[0] == task_axis_letter((enum task_axis)i) && s[1] == '\0') {
			*a = (enum task_axis)i;
			return 0;
		}
	return -1;
}

/* Append s to the id being made at *p (room to end). */
static void
idput(char **p, const char *end, const char *s)
{
	while (*s != '\0' && *p < end)
		*(*p)++ = *s++;
}

/* Append v in decimal ("%lld") to the id being made at *p. */
static void
idnum(char **p, const char *end, long long v)
{
	char tmp[24], *q = tmp + sizeof(tmp);
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v :
	    (unsigned long long)v;

	*--q = '\0';
	do {
		*--q = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	if (v < 0)
		*--q = '-';
	idput(p, end, q);
}

void
task_cand_id(const struct task_cand *c, char *buf, size_t n)
{
	/*
	 * By hand (pf-split names millions of rows): what snprintf writes,
	 * "%lld:split:%c:%d", "%lld-%lld:pipe:%s:s%d" or "%lld:%s[:%s]",
	 * cut to n - 1 characters.
	 */
	char tmp[96], *p = tmp, *end = tmp + sizeof(tmp) - 1;
	char ax[2] = { '\0', '\0' };
	size_t len;

	if (n == 0)
		return;
	idnum(&p, end, (long long)c->first);
	switch (c->kind) {
	case TK_SPLIT:
		ax[0] = task_axis_letter(c->axis);
		idput(&p, end, ":split:");
		idput(&p, end, ax);
		idput(&p, end, ":");
		idnum(&p, end, c->ratio);
		break;
	case TK_PIPE:
		idput(&p, end, "-");
		idnum(&p, end, (long long)c->last);
		idput(&p, end, ":pipe:");
		idput(&p, end, c->tag);
		idput(&p, end, ":s");
		idnum(&p, end, c->stages);
		break;
	default:
		idput(&p, end, ":");
		idput(&p, end, task_kind_name(c->kind));
		if (c->tag[0] != '\0') {
			idput(&p, end, ":");
			idput(&p, end, c->tag);
		}
		break;
	}
	len = (size_t)(p - tmp);
	if (len > n - 1)
		len = n - 1;
	memcpy(buf, tmp, len);
	buf[len] = '\0';
}

/* A decimal layer number at *p, advancing it. */
static int
layer_num(const char **p, int64_t *v)
{
	int64_t x = 0;

	if (**p < '0' || **p > '9')
		return -1;
	for (; **p >= '0' && **p <= '9'; (*p)++) {
		if (x > (INT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (**p - '0');
	}
	*v = x;
	return 0;
}

/* A tag: letters and digits up to the next ':' or the end. */
static int
tag(const char **p, char *buf, size_t n)
{
	size_t k = 0;

	for (; **p != '\0' && **p != ':'; (*p)++) {
		if (k + 1 >= n || !((**p >= 'a' && **p <= 'z') ||
		    (**p >= '0' && **p <= '9')))
			return -1;
		buf[k++] = **p;
	}
	buf[k] = '\0';
	return k > 0 ? 0 : -1;
}

int
task_cand_parse(const char *s, struct task_cand *c)
{
	const char *p = s, *colon;
	char kind[8];
	size_t len;
	int64_t v;

	memset(c, 0, sizeof(*c));
	if (layer_num(&p, &c->first) < 0)
		return -1;
	c->last = c->first;
	if (*p == '-') {
		p++;
		if (layer_num(&p, &c->last) < 0 || c->last <= c->first)
			return -1;
	}
	if (*p++ != ':')
		return -1;
	colon = strchr(p, ':');
	len = colon != NULL ? (size_t)(colon - p) : strlen(p);
	if (len >= sizeof(kind))
		return -1;
	memcpy(kind, p, len);
	kind[len] = '\0';
	p += len;
	if (task_kind_parse(kind, &c->kind) < 0 ||
	    (c->kind == TK_PIPE) != (c->last != c->first))
		return -1;
	switch (c->kind) {
	case TK_SPLIT:
		if (p[0] != ':' || p[1] == '\0' || p[2] != ':')
			return -1;
		kind[0] = p[1];
		kind[1] = '\0';
		if (task_axis_parse(kind, &c->axis) < 0)
			return -1;
		p += 3;
		if (layer_num(&p, &v) < 0 || v < 1 || v > 99 || *p != '\0')
			return -1;
		c->ratio = (int)v;
		return 0;
	case TK_PIPE:
		if (*p++ != ':' || tag(&p, c->tag, sizeof(c->tag)) < 0 ||
		    *p++ != ':' || *p++ != 's' || layer_num(&p, &v) < 0 ||
		    v < 2 || v > 64 || *p != '\0')
			return -1;
		c->stages = (int)v;
		return 0;
	case TK_PIM:
		if (*p == '\0')
			return 0;
		if (*p++ != ':' || tag(&p, c->tag, sizeof(c->tag)) < 0 ||
		    *p != '\0')
			return -1;
		return 0;
	default:
		return *p == '\0' ? 0 : -1;
	}
}

const char *
task_dev_name(enum task_dev d)
{
	return nametab_name(devnames, TASK_NDEV, (int)d);
}

int
task_device(const struct table *t, size_t r, long col, enum task_dev *d)
{
	const char *s = csvio_get(t, r, (size_t)col);
	int i = nametab_find(devnames, TASK_NDEV, s);

	if (i >= 0) {
		*d = (enum task_dev)i;
		return 0;
	}
	pf_errl(t->fname, csvio_line(t, r), "column 'device': unknown device "
	    "'%s'", s);
	return -1;
}

int
task_devices(const struct table *t, long *col, size_t n[TASK_NDEV])
{
	enum task_dev d;
	size_t r;

	if ((*col = csvio_col(t, "device")) < 0) {
		pf_errl(t->fname, 1, "missing column 'device'");
		return -1;
	}
	if (n != NULL)
		memset(n, 0, TASK_NDEV * sizeof(n[0]));
	for (r = 0; r < t->nrows; r++) {
		if (task_device(t, r, *col, &d) < 0)
			return -1;
		if (n != NULL)
			n[d]++;
	}
	return 0;
}

int
task_ns_to_ps(const char *s, double max_ns, long long *ps)
{
	double v;

	if (csvio_parse_double(s, &v) < 0 || v < 0 || v > max_ns)
		return -1;
	*ps = llround(v * 1000.0);
	return 0;
}

void
task_ps_to_ns(long long ps, char *buf, size_t n)
{
	char tmp[32], *p = tmp + sizeof(tmp);
	unsigned long long u = (unsigned long long)ps;
	int k;

	/* by hand (pf-merge writes millions): "%lld.%03lld" of ps >= 0 */
	if (ps < 0 || n < sizeof(tmp)) {
		snprintf(buf, n, "%lld.%03lld", ps / 1000, ps % 1000);
		return;
	}
	*--p = '\0';
	for (k = 0; k < 3; k++, u /= 10)
		*--p = (char)('0' + u % 10);
	*--p = '.';
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	memcpy(buf, p, (size_t)(tmp + sizeof(tmp) - p));
}

int64_t
task_pim_share(int64_t total)
{
	return total > TASK_PIM_SHARE ? TASK_PIM_SHARE : total / 2;
}

/* --- the machine's attachment (pim_attach) ---------------------------- */

static const char *const attachnames[TASK_NATTACH] = { "partition", "added" };

NAMETAB_PAIR(enum task_attach, attachnames, TASK_NATTACH, task_attach_name,
    task_attach_parse)

int
task_attach_row(const struct table *t, size_t r, long col,
    enum task_attach *a)
{
	const char *s;

	*a = TASK_PARTITION;
	if (col < 0 || *(s = csvio_get(t, r, (size_t)col)) == '\0')
		return 0;
	if (task_attach_parse(s, a) < 0) {
		pf_errl(t->fname, csvio_line(t, r), "column 'pim_attach': "
		    "want partition or added, not '%s'", s);
		return -1;
	}
	return 0;
}

/* Whether row r is of an added machine (a bad cell reads as not). */
static int
row_added(const struct table *t, size_t r, long attach)
{
	const char *s;

	if (attach < 0)
		return 0;
	s = csvio_get(t, r, (size_t)attach);
	return strcmp(s, attachnames[TASK_ADDED]) == 0;
}

void
task_pim_resolve(struct table *t, long pimch, long attach, int64_t total)
{
	size_t r;

	if (pimch < 0)
		return;
	for (r = 0; r < t->nrows; r++)
		if (strcmp(csvio_get(t, r, (size_t)pimch), TASK_PIM_AUTO) == 0 &&
		    !row_added(t, r, attach))
			csvio_setint(t, r, (size_t)pimch,
			    task_pim_share(total));
}

int
task_gpu_channels(const struct table *t, size_t r, long kind, long pimch,
    long attach, int64_t total, const char *cfg, int64_t *ch)
{
	enum task_attach a;
	const char *s;
	int64_t n;

	if (task_attach_row(t, r, attach, &a) < 0)
		return -1;
	if (kind >= 0 && strcmp(csvio_get(t, r, (size_t)kind),
	    task_kind_name(TK_BASE)) == 0) {
		*ch = total;
		return 0;
	}
	if (pimch < 0) {
		pf_errl(t->fname, 1, "missing column 'pim_channels' (pf-split "
		    "writes the PIM share on every piece)");
		return -1;
	}
	s = csvio_get(t, r, (size_t)pimch);
	if (*s == '\0') {
		pf_errl(t->fname, csvio_line(t, r), "column 'pim_channels': "
		    "empty field (pf-split writes the PIM share on every "
		    "piece)");
		return -1;
	}
	if (a == TASK_ADDED && strcmp(s, TASK_PIM_AUTO) == 0) {
		*ch = total;
		return 0;
	}
	if (csvio_parse_int64(s, &n) < 0 || n < 1) {
		pf_errl(t->fname, csvio_line(t, r), "column 'pim_channels': "
		    "want a positive whole number of channels, not '%s'", s);
		return -1;
	}
	/* added: the PIM brings its own channels, the GPU keeps all */
	if (a == TASK_ADDED) {
		*ch = total;
		return 0;
	}
	if (n >= total) {
		pf_errl(t->fname, csvio_line(t, r), "column 'pim_channels': "
		    "'%s' PIM channels leave the GPU none of the %lld channels "
		    "of %s (pf-split -c or -n picks a share that fits)", s,
		    (long long)total, cfg);
		return -1;
	}
	*ch = total - n;
	return 0;
}
