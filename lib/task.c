/*
 * The machine partition of tasks.csv (task.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "task.h"

static const char *const devnames[TASK_NDEV] = { "gpu", "pim" };
static const char *const kindnames[TK_NKIND] = {
	"base", "gpu", "pim", "split", "pipe"
};

const char *
task_kind_name(enum task_kind k)
{
	return k < TK_NKIND ? kindnames[k] : "?";
}

int
task_kind_parse(const char *s, enum task_kind *k)
{
	int i;

	for (i = 0; i < TK_NKIND; i++)
		if (strcmp(s, kindnames[i]) == 0) {
			*k = (enum task_kind)i;
			return 0;
		}
	return -1;
}

const char *
task_dev_name(enum task_dev d)
{
	return d < TASK_NDEV ? devnames[d] : "?";
}

int
task_device(const struct table *t, size_t r, long col, enum task_dev *d)
{
	const char *s = table_get(t, r, (size_t)col);
	int i;

	for (i = 0; i < TASK_NDEV; i++)
		if (strcmp(s, devnames[i]) == 0) {
			*d = (enum task_dev)i;
			return 0;
		}
	pf_errl(t->fname, table_line(t, r), "column 'device': unknown device "
	    "'%s'", s);
	return -1;
}

int
task_devices(const struct table *t, long *col, size_t n[TASK_NDEV])
{
	enum task_dev d;
	size_t r;

	if ((*col = table_col(t, "device")) < 0) {
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

	if (parse_double(s, &v) < 0 || v < 0 || v > max_ns)
		return -1;
	*ps = llround(v * 1000.0);
	return 0;
}

void
task_ps_to_ns(long long ps, char *buf, size_t n)
{
	snprintf(buf, n, "%lld.%03lld", ps / 1000, ps % 1000);
}

int64_t
task_pim_share(int64_t total)
{
	return total > TASK_PIM_SHARE ? TASK_PIM_SHARE : total / 2;
}

int
task_gpu_channels(const struct table *t, size_t r, long kind, long pimch,
    int64_t total, const char *cfg, int64_t *ch)
{
	const char *s;
	int64_t n;

	if (kind >= 0 && strcmp(table_get(t, r, (size_t)kind),
	    task_kind_name(TK_BASE)) == 0) {
		*ch = total;
		return 0;
	}
	if (pimch < 0) {
		pf_errl(t->fname, 1, "missing column 'pim_channels' (pf-split "
		    "writes the PIM share on every piece)");
		return -1;
	}
	s = table_get(t, r, (size_t)pimch);
	if (*s == '\0') {
		pf_errl(t->fname, table_line(t, r), "column 'pim_channels': "
		    "empty field (pf-split writes the PIM share on every "
		    "piece)");
		return -1;
	}
	if (parse_int64(s, &n) < 0 || n < 1) {
		pf_errl(t->fname, table_line(t, r), "column 'pim_channels': "
		    "want a positive whole number of channels, not '%s'", s);
		return -1;
	}
	if (n >= total) {
		pf_errl(t->fname, table_line(t, r), "column 'pim_channels': "
		    "'%s' PIM channels leave the GPU none of the %lld channels "
		    "of %s (pf-split -c or -n picks a share that fits)", s,
		    (long long)total, cfg);
		return -1;
	}
	*ch = total - n;
	return 0;
}
