/*
 * What the stage harnesses (fuzz_split, fuzz_gpu, fuzz_pim, fuzz_merge,
 * fuzz_solve, fuzz_chain) share past fuzz_common.h: "config %% table"
 * inputs, and the checks every stage's output must pass.
 */
#ifndef PF_FUZZ_STAGE_H
#define PF_FUZZ_STAGE_H

#include <math.h>

#include "fuzz_common.h"

/*
 * Split "config %% table": the bytes before a line "%%" are a config
 * file, written to path; without the line there is no config (returns 0)
 * and *rest is all of it.  Returns 1 when a config was written.
 */
FZ_HELPER int
fz_config(const uint8_t *d, size_t n, const char *path, const uint8_t **rest,
    size_t *nrest)
{
	size_t i;

	*rest = d;
	*nrest = n;
	for (i = 0; i + 3 <= n; i++)
		if ((i == 0 || d[i - 1] == '\n') && d[i] == '%' &&
		    d[i + 1] == '%' && (i + 2 == n || d[i + 2] == '\n'))
			break;
	if (i + 3 > n)
		return 0;
	if (fz_save(path, d, i) < 0)
		abort();
	*rest = d + i + 3 > d + n ? d + n : d + i + 3;
	*nrest = (size_t)(d + n - *rest);
	return 1;
}

/*
 * Every time column of a costed table must hold a finite, non-negative
 * decimal: a cost stage that returns 0 may not leave a wrapped, negative
 * or NaN number behind.
 */
FZ_HELPER void
fz_check_times(const struct table *t, const char *const *cols)
{
	size_t r, i;
	double v;

	for (i = 0; cols[i] != NULL; i++) {
		long c = csvio_col(t, cols[i]);

		if (c < 0)
			continue;
		for (r = 0; r < t->nrows; r++) {
			const char *s = csvio_get(t, r, (size_t)c);

			if (*s == '\0')
				continue;
			if (csvio_parse_double(s, &v) < 0 || !(v >= 0)) {
				fprintf(stderr, "fuzz: row %zu column %s: '%s'\n",
				    r, cols[i], s);
				abort();
			}
		}
	}
}

#endif
