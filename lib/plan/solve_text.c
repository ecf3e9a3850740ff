/*
 * pf-solve -t: the policy table as text (solve_text.h).  The numbers go
 * through the summary's decimals first, so that the table is what a
 * reader of summary.json computes from it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solve_band.h"
#include "solve_text.h"

/* Room for two 64-bit integers, a point, a sign and the NUL. */
#define CELL 48

/* v as the summary writes it with d decimals, read back. */
static double
summ(double v, int d)
{
	char b[400];

	if (!isfinite(v))
		return v;
	snprintf(b, sizeof(b), "%.*f", d, v);
	return strtod(b, NULL);
}

/*
 * v in d decimals, rounded half away from zero; "-" when not finite (a
 * ratio to nothing).
 */
static const char *
fix(char *b, double v, int d)
{
	double x, p = pow(10.0, d);
	long long i, f;

	x = round(v * p);
	if (!isfinite(x) || fabs(x) >= 9e18) {
		snprintf(b, CELL, "-");
		return b;
	}
	i = llabs((long long)x) / (long long)p;
	f = llabs((long long)x) % (long long)p;
	if (d == 0)
		snprintf(b, CELL, "%s%lld", x < 0 ? "-" : "", i);
	else
		snprintf(b, CELL, "%s%lld.%0*lld", x < 0 ? "-" : "", i, d, f);
	return b;
}

/* A summary number with d decimals as JSON readers print it back. */
static const char *
plain(char *b, double v, int d)
{
	size_t n;

	snprintf(b, CELL, "%.*f", d, v);
	if (strchr(b, '.') == NULL)
		return b;
	n = strlen(b);
	while (b[n - 1] == '0')
		b[--n] = '\0';
	if (b[n - 1] == '.')
		b[--n] = '\0';
	return b;
}

static double
ns_of(const struct solve_result *r)
{
	return (double)r->ps / 1000.0;
}

static double
ratio(long long a, long long b)
{
	return b > 0 ? (double)a / (double)b : NAN;
}

/* -U: what the band cell is, and the plans re-solved under each sample. */
static void
band_notes(FILE *fp, const struct solve_in *in, const struct solve_result *res)
{
	char bc[2 * CELL];
	int p;

	fprintf(fp, "note: band: %d samples (seed %llu) of the models' "
	    "errors: the plan's speedup p50 [p05-p95], beats = the share of "
	    "samples in which it beats the GPU alone\n",
	    res[P_NONE].band->samples,
	    (unsigned long long)res[P_NONE].band->seed);
	fprintf(fp, "note: re-solved under each sample:");
	for (p = 1; p < P_NPOL; p++) {
		if (res[p].band == NULL || (p == P_ATTNPIM && !in->have_kv))
			continue;
		solve_band_cell(bc, sizeof(bc), &res[p].band->resolved);
		fprintf(fp, " %s %s%s", policy_name((enum policy)p), bc,
		    p + 1 < P_NPOL && (p + 1 != P_ATTNPIM || in->have_kv) ?
		    ";" : "");
	}
	fputc('\n', fp);
}

/* The title line and the column heads. */
static void
text_head(FILE *fp, const char *model, double mhz, const struct objective *o,
    int energy, int band)
{
	char a[CELL];

	fprintf(fp, "model %s, GPU clock %s MHz, objective %s", *model ? model :
	    "-", plain(a, mhz, 3), objective_name(o->kind));
	if (o->cap_mw > 0)
		fprintf(fp, ", power cap %s W", plain(a, (double)o->cap_mw /
		    1000.0, 3));
	fputc('\n', fp);
	fprintf(fp, "%-9s %12s %12s %8s", "policy", "time_us", "gpu_cycles",
	    "speedup");
	/* -U: the nominal plan under the error band (solve_band.h) */
	if (band)
		fprintf(fp, "  %-22s", "p50 [p05-p95] beats");
	if (energy)
		fprintf(fp, " %10s %7s %8s", "energy_uJ", "e_ratio", "power_W");
	fprintf(fp, "  %s\n", "layers gpu/pim/split/pipe");
}

/* Policy p's line of the table. */
static void
text_row(FILE *fp, double mhz, const struct solve_result *res, int p,
    int energy, int band)
{
	char a[CELL], b[CELL], c[CELL], e[CELL], f[CELL], g[CELL], l[4 * CELL];
	const struct solve_result *r = &res[p];
	char bc[2 * CELL];

	/* the summary's ns (3 decimals) in microseconds */
	fprintf(fp, "%-9s %12s %12s %8s", policy_name((enum policy)p),
	    fix(a, summ(ns_of(r), 3) / 1000.0, 1),
	    fix(b, summ(ns_of(r) * mhz / 1000.0, 3), 0),
	    fix(c, summ(ratio(res[P_NONE].ps, r->ps), 6), 3));
	if (band && r->band != NULL) {
		solve_band_cell(bc, sizeof(bc), &r->band->nominal);
		fprintf(fp, "  %-22s", bc);
	}
	if (energy)
		fprintf(fp, " %10s %7s %8s",
		    fix(e, summ((double)r->pj / 1000.0, 3) / 1000.0, 1),
		    fix(f, summ(ratio(r->pj, res[P_NONE].pj), 6), 3),
		    fix(g, summ(ratio(r->pj, r->ps), 6), 2));
	snprintf(l, sizeof(l), "%" PRId64 "/%" PRId64 "/%" PRId64 "/%" PRId64,
	    r->layers[K_BASE] + r->layers[K_GPU], r->layers[K_PIM],
	    r->layers[K_SPLIT], r->layers[K_PIPE]);
	fprintf(fp, "  %s\n", l);
}

/* A decoder's table: each policy's step, its tokens/s, its shares. */
static void
text_decode(FILE *fp, const struct solve_in *in, const struct solve_result *res)
{
	char a[CELL], b[CELL], c[CELL], e[CELL], f[CELL];
	int p;

	fprintf(fp, "per decode step (%" PRId64 " tokens): time_us "
	    "tokens/s, shares of attention / fc / rest\n", in->tokens);
	for (p = 0; p < P_NPOL; p++) {
		const struct solve_result *r = &res[p];
		long long all = r->attn_ps + r->fc_ps + r->rest_ps;
		double ns = ns_of(r);

		fprintf(fp, "%-9s %10s %10s  %s%% / %s%% / %s%%\n",
		    policy_name((enum policy)p),
		    fix(a, summ(ns, 3) / 1000.0, 1),
		    fix(b, summ(ns > 0 ? (double)in->tokens * 1e9 / ns : NAN,
		    3), 0),
		    fix(c, summ(ratio(r->attn_ps, all), 6) * 100.0, 1),
		    fix(e, summ(ratio(r->fc_ps, all), 6) * 100.0, 1),
		    fix(f, summ(ratio(r->rest_ps, all), 6) * 100.0, 1));
	}
}

/* The notes of the policies over the cap and of those that ran none. */
static void
text_policy_notes(FILE *fp, const struct solve_in *in,
    const struct objective *o, const struct solve_result *res, int energy)
{
	char a[CELL], b[CELL];
	int p;

	for (p = 0; p < P_NPOL; p++)
		if (o->cap_mw > 0 && res[p].over_cap &&
		    (p != P_ATTNPIM || in->have_kv))
			fprintf(fp, "note: %s: no plan keeps the power cap; its "
			    "best plan without it is shown\n",
			    policy_name((enum policy)p));
	for (p = 0; p < P_NPOL; p++) {
		double er = ratio(res[p].fixed_pj, res[P_NONE].pj);

		if (!res[p].chose_none || (p == P_ATTNPIM && !in->have_kv))
			continue;
		fprintf(fp, "note: %s: its own plan (speedup %s",
		    policy_name((enum policy)p),
		    fix(a, summ(ratio(res[P_NONE].ps, res[p].fixed_ps), 6),
		    3));
		/* the summary has no ratio to a plan of no energy */
		if (energy && isfinite(er))
			fprintf(fp, ", energy ratio %s", fix(b, summ(er, 6),
			    3));
		fprintf(fp, ") is worse under -O %s than the GPU alone with "
		    "every channel; it runs the none plan (pimflow -F keeps "
		    "its own)\n", objective_name(o->kind));
	}
}

int
solve_text_table(FILE *fp, const struct solve_in *in, const char *model,
    double mhz, const struct objective *o, const struct solve_result *res)
{
	int p, energy = in->have_energy, band = res[P_NONE].band != NULL;

	text_head(fp, model, mhz, o, energy, band);
	for (p = 0; p < P_NPOL; p++)
		if (p != P_ATTNPIM || in->have_kv)
			text_row(fp, mhz, res, p, energy, band);
	if (in->have_kv)
		text_decode(fp, in, res);
	text_policy_notes(fp, in, o, res, energy);
	if (band)
		band_notes(fp, in, res);
	if (in->bytes_only != NULL && in->nbytes_only > 0)
		fprintf(fp, "note: %" PRId64 " layer%s of op other (data "
		    "movement, ops kept with onnx2layers -k) costed by bytes "
		    "only (costed = bytes in plan.csv)\n", in->nbytes_only,
		    in->nbytes_only > 1 ? "s" : "");
	return fflush(fp) != 0 || ferror(fp) ? -1 : 0;
}
