/*
 * The error band written out (solve_band.h): the summary's "band" object
 * of a policy, the table's cell and plan.csv's stability column.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonw.h"
#include "solve_band.h"

static void
stat_json(struct jsonw *w, const char *key, const struct band_stat *st)
{
	jw_obj(w, key);
	jw_num(w, "p05", st->p05, 6);
	jw_num(w, "p50", st->p50, 6);
	jw_num(w, "p95", st->p95, 6);
	jw_num(w, "beats_gpu", st->beats, 6);
}

void
solve_band_json(struct jsonw *w, const struct band_result *r, int64_t nlayers)
{
	int64_t l;
	int d;

	jw_obj(w, "band");
	jw_int(w, "samples", r->samples);
	jw_int(w, "seed", (int64_t)r->seed);
	stat_json(w, "nominal", &r->nominal);
	jw_end(w);
	stat_json(w, "resolved", &r->resolved);
	jw_obj(w, "layers");
	for (d = 0; d < BAND_NDEV; d++) {
		jw_arr(w, solve_band_dev_names[d]);
		for (l = 0; l < nlayers; l++)
			jw_num(w, NULL, (double)r->count[l * BAND_NDEV + d] /
			    r->samples, 3);
		jw_end(w);
	}
	jw_end(w);
	jw_end(w);
	jw_end(w);
}

void
solve_band_cell(char *buf, size_t n, const struct band_stat *st)
{
	snprintf(buf, n, "%.2f [%.2f-%.2f] %.0f%%", st->p50, st->p05, st->p95,
	    100.0 * st->beats);
}

void
solve_band_stability(struct table *out, const struct band_result *r)
{
	size_t col = csvio_addcol(out, "stability"), i;
	long lc = csvio_col(out, "layer");
	int64_t l;

	for (i = 0; i < out->nrows; i++) {
		if (lc < 0 || csvio_int(out, i, (size_t)lc, &l) < 0)
			continue;
		csvio_setfix(out, i, col, (double)r->count[l * BAND_NDEV +
		    r->nomdev[l]] / r->samples, 3);
	}
}
