/*
 * The times of pf-merge's tables as integer picoseconds (solve_merge_ns.h):
 * a piece's ns read exactly, a sum written back as ns.
 */
#include "csvio.h"
#include "diag.h"
#include "solve_merge_ns.h"
#include "task.h"

int
merge_ns_to_ps(const char *s, long long *ps)
{
	const char *p = s;
	long long v = 0;
	int i, d;

	/*
	 * The common form by hand: up to 12 integer digits and up to 3
	 * decimals, as the tools write them.  Its N ps is exactly what the
	 * general way gives: N / 1000 rounds to a double within 2^-53 of
	 * itself, and times 1000 (rounded again) stays within 2^-52 N <
	 * 0.5 of N for N < 2^51, so llround returns N; and 10^12 ns is
	 * below the bound.
	 */
	for (i = 0; i < 12 && *p >= '0' && *p <= '9'; i++, p++)
		v = v * 10 + (*p - '0');
	if (i > 0 && (*p == '\0' || *p == '.')) {
		d = 0;
		if (*p == '.')
			for (p++; d < 3 && *p >= '0' && *p <= '9'; d++, p++)
				v = v * 10 + (*p - '0');
		if (*p == '\0' && (d > 0 || p[-1] != '.')) {
			for (; d < 3; d++)
				v *= 10;
			*ps = v;
			return 0;
		}
	}
	return task_ns_to_ps(s, MERGE_PIECE_MAX_NS, ps);
}

void
merge_ps_to_ns(long long ps, char *buf, size_t n)
{
	task_ps_to_ns(ps, buf, n);
}

int
merge_cell_ps(const struct table *t, size_t r, long col, long long *ps)
{
	const char *s;

	*ps = 0;
	if (col < 0 || *(s = csvio_get(t, r, (size_t)col)) == '\0')
		return 0;
	if (merge_ns_to_ps(s, ps) < 0) {
		pf_errl(t->fname, csvio_line(t, r), "column '%s': bad time "
		    "'%s'", t->cols[col], s);
		return -1;
	}
	return 0;
}
