/*
 * The machine partition of tasks.csv (task.h).
 */
#include <string.h>

#include "diag.h"
#include "task.h"

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

	if (kind >= 0 && strcmp(table_get(t, r, (size_t)kind), "base") == 0) {
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
