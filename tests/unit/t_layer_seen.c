/*
 * layer_get_seen is layer_get: for every row, read with one memo carried
 * across rows and tables, the same status, the same struct layer byte
 * for byte and the same report on stderr as layer_get reading the row
 * alone.  The rows: a base row, and each cell of it changed alone to
 * values good and bad (int64 limits one apart, signs, leading zeros,
 * texts at and past the memo's length, empty), each followed by the base
 * row again; a table with every optional column (resident, kv_seq,
 * transposed, the depth columns) and one with none, read in turns.
 * layer_get_cached is layer_get too, through one cache over the tables
 * in turns (each turn another layout) and over each table read twice
 * (its rows found the second time), the tables quoted and bare (each
 * row's fields then read from its line in runs, csvio_cellkey).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"
#include "layer.h"
#include "check.h"

static const char *const optcols[] = { "resident", "kv_seq", "transposed",
	"in_d", "out_d", "kernel_d", "stride_d", "pad_front", "pad_back",
	"dil_d", NULL };
static const char *const base[] = { "7", "c", "conv", "Conv", "",
	"1", "16", "14", "14", "32", "14", "14", "3", "3", "1", "1",
	"1", "1", "1", "1", "1", "1", "2", "196", "16", "72", "2",
	"relu", "451584", "6272", "4608", "6272", "fp16",
	"", "", "0", "1", "1", "1", "1", "0", "0", "1" };
static const char *const numvals[] = { "0", "-1", "1", "2", "4", "8",
	"9223372036854775807", "9223372036854775806", "-9223372036854775808",
	"+5", "007", "99999999999999999999", "x", "1.5", " 1", "" };
static const char *const textvals[] = { "conv", "gemm", "matmul", "bogus",
	"none", "relu6", "fp32", "fp17", "kv", "weights", "k", "n", "0", "1",
	"2", "", "abcdefghijklmnopqrstuv", "abcdefghijklmnopqrstuvw",
	"abcdefghijklmnopqrstuvwxyz0123" };

/* Whether column c (of cols below) holds text. */
static int
istext(size_t c)
{
	return c >= 1 && c <= 4 ? 1 : c == 27 || c == 32 || (c >= 33 && c <= 35);
}

/* CSV text of a table of columns cols[0..nc) and rows rows[r][0..nc). */
static char *
csv(const char *const *cols, size_t nc, char *const *rows, size_t nr,
    int bare)
{
	char *buf = NULL;
	size_t n, r, c;
	FILE *fp = open_memstream(&buf, &n);

	for (c = 0; c < nc; c++)
		fprintf(fp, "%s%s", c > 0 ? "," : "", cols[c]);
	fputc('\n', fp);
	for (r = 0; r < nr; r++) {
		for (c = 0; c < nc; c++)
			fprintf(fp, bare ? "%s%s" : "%s\"%s\"", c > 0 ? "," :
			    "", rows[r * nc + c]);
		fputc('\n', fp);
	}
	fclose(fp);
	return buf;
}

/* f's report on stderr into buf (n bytes), its status returned. */
static int
caught(const struct table *t, const struct layer_cols *lc, size_t r,
    struct layer *l, struct layer_seen *m, struct layer_cache *lcache,
    char *buf, size_t n)
{
	FILE *tf = tmpfile();
	int save, rc;
	size_t k;

	fflush(stderr);
	save = dup(2);
	dup2(fileno(tf), 2);
	rc = lcache != NULL ? layer_get_cached(t, lc, r, l, lcache) :
	    m != NULL ? layer_get_seen(t, lc, r, l, m) : layer_get(t, lc, r, l);
	fflush(stderr);
	dup2(save, 2);
	close(save);
	rewind(tf);
	k = fread(buf, 1, n - 1, tf);
	buf[k] = '\0';
	fclose(tf);
	return rc;
}

/*
 * The rows of a table of the first nc columns of cols (base's values);
 * bare: no field quoted, nor a value with a blank (a clean input).
 */
static void
build(const char *const *cols, size_t nc, struct table *t, int bare)
{
	size_t ncase = 0, nr, r, c, v, nv;
	char **rows;
	char *text;
	FILE *fp;

	for (c = 0; c < nc; c++)
		ncase += istext(c) ? sizeof(textvals) / sizeof(textvals[0]) :
		    sizeof(numvals) / sizeof(numvals[0]);
	nr = 2 * ncase + 2;
	rows = calloc(nr * nc, sizeof(*rows));
	r = 0;
	for (c = 0; c < nc; c++)
		rows[r * nc + c] = (char *)base[c];
	r++;
	for (c = 0; c < nc; c++) {
		int text = istext(c);

		nv = text ? sizeof(textvals) / sizeof(textvals[0]) :
		    sizeof(numvals) / sizeof(numvals[0]);
		for (v = 0; v < nv; v++) {
			size_t k;

			for (k = 0; k < nc; k++)
				rows[r * nc + k] = (char *)base[k];
			rows[r * nc + c] = (char *)(text ? textvals[v] :
			    numvals[v]);
			if (bare && strchr(rows[r * nc + c], ' ') != NULL)
				rows[r * nc + c] = "5";
			r++;
			for (k = 0; k < nc; k++)
				rows[r * nc + k] = (char *)base[k];
			/* now and then the next row changes a second cell */
			if (v % 3 == 0 && !istext((c + 7) % nc))
				rows[r * nc + (c + 7) % nc] = "4";
			r++;
		}
	}
	text = csv(cols, nc, rows, r, bare);
	fp = fmemopen(text, strlen(text), "r");
	CHECK(csvio_read(fp, "seen.csv", t) == 0);
	fclose(fp);
	free(text);
	free(rows);
}

/*
 * Row r of tt through layer_get and through m or c: 1 when they differ
 * (reported, the first few), *err counting the rows layer_get refuses.
 */
static int
differ(const struct table *tt, const struct layer_cols *cc, size_t r,
    struct layer_seen *m, struct layer_cache *c, size_t *nerr)
{
	static size_t bad;
	struct layer a, b;
	char ea[1024], eb[1024];
	int ra, rb;

	memset(&a, 0x5a, sizeof(a));
	memset(&b, 0xa5, sizeof(b));
	ra = caught(tt, cc, r, &a, NULL, NULL, ea, sizeof(ea));
	rb = caught(tt, cc, r, &b, m, c, eb, sizeof(eb));
	*nerr += ra < 0;
	if (ra != rb || strcmp(ea, eb) != 0 ||
	    (ra == 0 && memcmp(&a, &b, sizeof(a)) != 0)) {
		if (bad++ < 5)
			fprintf(stderr, "row %zu of %s: %d '%s', %s %d '%s'\n",
			    r, tt->fname, ra, ea, c != NULL ? "cached" :
			    "seen", rb, eb);
		return 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const char *cols[64];
	struct table t[4];
	struct layer_cols lc[4];
	struct layer_seen m;
	struct layer_cache *cache;
	size_t nc = 0, i, k, r, pass, bad = 0, nrow = 0, nerr = 0, cerr = 0;

	(void)argc;
	pf_setprogname(argv[0]);
	for (i = 0; layer_colnames[i] != NULL; i++)
		cols[nc++] = layer_colnames[i];
	for (i = 0; optcols[i] != NULL; i++)
		cols[nc++] = optcols[i];
	CHECK_EQ_I(nc, sizeof(base) / sizeof(base[0]));
	build(cols, nc, &t[0], 0);
	build(cols, nc - 10, &t[1], 0);
	build(cols, nc, &t[2], 1);
	build(cols, nc - 10, &t[3], 1);
	CHECK(t[2].rowtext != NULL && t[2].rowtext[0] != NULL);
	CHECK(layer_cols_find(&t[0], &lc[0]) == 0 && lc[0].in_d >= 0 &&
	    lc[0].resident >= 0 && lc[0].kv_seq >= 0 && lc[0].transposed >= 0);
	CHECK(layer_cols_find(&t[1], &lc[1]) == 0 && lc[1].in_d < 0 &&
	    lc[1].resident < 0 && lc[1].kv_seq < 0 && lc[1].transposed < 0);
	CHECK(layer_cols_find(&t[2], &lc[2]) == 0 && lc[2].in_d >= 0);
	CHECK(layer_cols_find(&t[3], &lc[3]) == 0 && lc[3].in_d < 0);
	memset(&m, 0, sizeof(m));
	cache = layer_cache_new();
	/* two tables in turns, 37 rows of each at a time, one memo, one cache */
	for (k = 0; k < 4; k += 2)
		for (pass = 0; pass < t[k].nrows; pass += 37)
			for (i = k; i < k + 2; i++)
				for (r = pass; r < pass + 37 && r < t[i].nrows;
				    r++) {
					bad += differ(&t[i], &lc[i], r, &m, NULL,
					    &nerr);
					bad += differ(&t[i], &lc[i], r, NULL,
					    cache, &cerr);
					nrow++;
				}
	/* each table whole, twice: the second time from the cache */
	for (i = 0; i < 4; i++)
		for (pass = 0; pass < 2; pass++)
			for (r = 0; r < t[i].nrows; r++)
				bad += differ(&t[i], &lc[i], r, NULL, cache,
				    &cerr);
	CHECK_EQ_I(bad, 0);
	/* the cases are not vacuous: many rows fail, most pass */
	CHECK(nerr > 100 && nrow - nerr > nrow / 2);
	layer_cache_free(cache);
	for (i = 0; i < 4; i++)
		csvio_free(&t[i]);
	return CHECK_DONE();
}
