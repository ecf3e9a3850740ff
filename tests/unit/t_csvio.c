/*
 * Unit tests of the CSV table module and checked arithmetic.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "csvio.h"
#include "csvio_arena.h"
#include "diag.h"
#include "layer.h"
#include "check.h"
#include "check_csv.h"

static int
readstr(const char *s, struct table *t)
{
	return check_readmem(s, strlen(s), "t.csv", t);
}

static char *
writestr(const struct table *t, char *buf, size_t n)
{
	FILE *fp = fmemopen(buf, n, "w");

	csvio_write(fp, t);
	fclose(fp);
	return buf;
}

/* The quoting rule written out plainly, to hold csvio_write to. */
static void
refquote(const char *f, char *out)
{
	size_t n = strlen(f);
	int q = strpbrk(f, ",\"\r\n") != NULL ||
	    (n > 0 && (f[0] == ' ' || f[n - 1] == ' ' || f[0] == '\t' ||
	    f[n - 1] == '\t'));

	if (q)
		*out++ = '"';
	for (; *f != '\0'; f++) {
		if (*f == '"')
			*out++ = '"';
		*out++ = *f;
	}
	if (q)
		*out++ = '"';
	*out = '\0';
}

/*
 * Fields of every quoting case, alone and after others, at every length
 * up to past the output's block, written and read back.
 */
static void
quoting(void)
{
	static const char *const cases[] = { "x", "", "a b", " lead",
	    "trail ", " ", "q\"u", "\"", "l\nb", "c\rr", "x,y", ",", "1.500",
	    /* libcsv trims tabs too: quoted, else read back without them */
	    "\tlead", "trail\t", "\t", "a\tb" };
	struct table t, u;
	char *got, *want, *w, f[70000];
	size_t ncase = sizeof(cases) / sizeof(cases[0]), i, r, len;

	csvio_init(&t, "q");
	csvio_addcol(&t, "a");
	csvio_addcol(&t, "b");
	/* c: a's text through csvio_setscan; d: scanned, or the last row's */
	csvio_addcol(&t, "c");
	csvio_addcol(&t, "d");
	for (i = 0; i < ncase; i++) {
		r = csvio_addrow(&t);
		csvio_set(&t, r, 0, cases[i]);
		csvio_set(&t, r, 1, cases[(i + 3) % ncase]);
		csvio_setscan(&t, r, 2, cases[i], strlen(cases[i]));
		if (i % 3 == 1)
			csvio_setsame(&t, r, 3, r - 1);
		else
			csvio_setscan(&t, r, 3, cases[(i + 5) % ncase],
			    strlen(cases[(i + 5) % ncase]));
	}
	/* a NUL in the bytes given: the text ends there, as csvio_setn's */
	r = csvio_addrow(&t);
	csvio_setn(&t, r, 0, "n\0ul", 4);
	csvio_setscan(&t, r, 2, "n\0ul", 4);
	csvio_setsame(&t, r, 3, r - 1);
	for (len = 1; len < sizeof(f); len = len * 3 + 1) {
		memset(f, 'z', len);
		f[len] = '\0';
		if (len % 2)
			f[len / 2] = ',';
		r = csvio_addrow(&t);
		csvio_set(&t, r, 0, f);
		csvio_set(&t, r, 1, len % 4 == 1 ? " " : "v");
		csvio_setscan(&t, r, 2, f, len);
		csvio_setsame(&t, r, 3, r - 1);
	}
	want = w = malloc(32 * sizeof(f) + 4096);
	strcpy(w, "a,b,c,d\n");
	w += strlen(w);
	for (r = 0; r < t.nrows; r++) {
		CHECK(strcmp(csvio_get(&t, r, 0), csvio_get(&t, r, 2)) == 0);
		CHECK(r >= ncase || r % 3 != 1 ||
		    strcmp(csvio_get(&t, r, 3), csvio_get(&t, r - 1, 3)) == 0);
		for (i = 0; i < 4; i++) {
			if (i > 0)
				*w++ = ',';
			refquote(csvio_get(&t, r, i), w);
			w += strlen(w);
		}
		*w++ = '\n';
	}
	*w = '\0';
	got = check_written(&t, &len);
	CHECK(strcmp(got, want) == 0);
	CHECK(readstr(got, &u) == 0);
	CHECK_EQ_I(u.nrows, t.nrows);
	for (r = 0; r < t.nrows && r < u.nrows; r++)
		for (i = 0; i < 4; i++)
			CHECK(strcmp(csvio_get(&t, r, i), csvio_get(&u, r, i)) ==
			    0);
	free(got);
	free(want);
	csvio_free(&t);
	csvio_free(&u);
}

/* csvio_int of row r, column c of t, what it reported put in err. */
static int
int_said(struct table *t, size_t r, size_t c, int64_t *v, char *err,
    size_t n)
{
	struct capture cap;
	int rc;

	if (capture_start(&cap) != 0)
		abort();
	rc = csvio_int(t, r, c, v);
	capture_end(&cap, err, n);
	return rc;
}

/*
 * csvio_int refuses a new row's cell of column c ("v"), set to cell
 * (NULL: left unset), saying what of the row's line; the words unchanged.
 */
static void
int_refused(struct table *t, size_t c, const char *cell, const char *what)
{
	char err[256], want[128];
	size_t r = csvio_addrow(t);
	int rc, before = check_failures;

	if (cell != NULL)
		csvio_set(t, r, c, cell);
	rc = int_said(t, r, c, &(int64_t){ 0 }, err, sizeof(err));
	snprintf(want, sizeof(want), "t:%ld: column 'v': %s",
	    csvio_line(t, r), what);
	CHECK(rc == -1 && strstr(err, want) != NULL);
	if (check_failures != before)
		fprintf(stderr, "(%d, '%s', want '%s')\n", rc, err, want);
}

/*
 * csvio_parse_int64 and csvio_int (each with a fast path of up to 18 digits)
 * against strtoll's reading of the whole string, white space refused:
 * every length of digits to past 19, signs, leading zeros, the int64
 * limits and one past them, junk after the digits, "-0".
 */
static void
ints(void)
{
	static const char *const edge[] = { "", "-", "+", "-0", "+0", "00",
	    "9223372036854775807", "-9223372036854775808",
	    "9223372036854775808", "-9223372036854775809",
	    "999999999999999999", "-999999999999999999", "1000000000000000000",
	    "0000000000000000000000000001", "18446744073709551616", "1 ",
	    " 1", "1-", "--1", "+-1", "0x10", "1e3", "1.0", "\t1", "12\n" };
	struct table t;
	char in[64], err[256];
	size_t c, r;
	int k, j, n, bad = 0;

	csvio_init(&t, "t");
	c = csvio_addcol(&t, "v");
	for (k = 0; k < 100000; k++) {
		int64_t a = 7, b = 7, want = 0;
		char *end;
		int wok, aok, bok;

		if (k < (int)(sizeof(edge) / sizeof(edge[0])))
			snprintf(in, sizeof(in), "%s", edge[k]);
		else {
			n = 0;
			if (k % 3 == 0)
				in[n++] = k % 2 ? '-' : '+';
			for (j = 0; j < (int)rnd(0, 2) && k % 5 == 0; j++)
				in[n++] = '0';
			for (j = (int)rnd(0, 21); j > 0; j--)
				in[n++] = (char)('0' + rnd(0, 9));
			if (k % 11 == 0)
				in[n++] = "x.e /:"[rnd(0, 5)];
			in[n] = '\0';
		}
		errno = 0;
		want = strtoll(in, &end, 10);
		wok = in[0] != '\0' && !isspace((unsigned char)in[0]) &&
		    errno == 0 && *end == '\0';
		aok = csvio_parse_int64(in, &a) == 0;
		r = csvio_addrow(&t);
		csvio_set(&t, r, c, in);
		bok = int_said(&t, r, c, &b, err, sizeof(err)) == 0;
		if ((aok != wok || bok != wok || (wok && (a != want ||
		    b != want)) || (!bok) != (err[0] != '\0')) && bad++ < 10)
			fprintf(stderr, "'%s': csvio_parse_int64 %d %lld, csvio_int "
			    "%d %lld, strtoll %d %lld\n", in, aok, (long long)a,
			    bok, (long long)b, wok, (long long)want);
	}
	CHECK_EQ_I(bad, 0);
	/* what csvio_int says of a bad one, unchanged */
	int_refused(&t, c, "12x", "not an integer: '12x'");
	int_refused(&t, c, NULL, "empty field");
	csvio_free(&t);
}

/*
 * csvio_copyshort (cells' and the writer's short copies by fixed-size
 * moves): every length to past 16, at every alignment, copies s[0..n)
 * and writes nothing outside d[0..n).
 */
static void
copyshort(void)
{
	char src[64], dst[64];
	size_t n, a, i;
	int bad = 0;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (char)('A' + i % 26);
	for (n = 0; n <= 40; n++)
		for (a = 0; a < 8; a++) {
			memset(dst, '#', sizeof(dst));
			csvio_copyshort(dst + a, src + 7 - a, n);
			for (i = 0; i < sizeof(dst); i++)
				if (dst[i] != (i >= a && i < a + n ?
				    src[7 - a + i - a] : '#'))
					bad++;
		}
	CHECK_EQ_I(bad, 0);
}

int
main(int argc, char **argv)
{
	struct table t;
	char buf[1024];
	int64_t v;
	double d;

	(void)argc;
	pf_setprogname(argv[0]);

	/* Header repeated by parallel --pipe --header is skipped. */
	CHECK(readstr("a,b\n1,2\na,b\n3,\"x,y\"\n", &t) == 0);
	CHECK_EQ_I(t.nrows, 2);
	CHECK(strcmp(csvio_get(&t, 1, 1), "x,y") == 0);
	CHECK_EQ_I(t.line[1], 2);	/* line count restarts per chunk */
	CHECK_EQ_I(csvio_col(&t, "b"), 1);
	CHECK_EQ_I(csvio_col(&t, "c"), -1);
	CHECK_EQ_I(csvio_addcol(&t, "c"), 2);
	csvio_setint(&t, 0, 2, -7);
	CHECK(strcmp(writestr(&t, buf, sizeof(buf)),
	    "a,b,c\n1,2,-7\n3,\"x,y\",\n") == 0);
	CHECK(csvio_int(&t, 0, 0, &v) == 0 && v == 1);
	CHECK(csvio_int(&t, 1, 1, &v) == -1);
	CHECK(csvio_dbl(&t, 1, 2, &d) == -1);
	CHECK(csvio_dbl_opt(&t, 1, 2, 4.5, &d) == 0 && d == 4.5);
	csvio_free(&t);

	/* Appending many columns (past the spare stride) keeps every cell. */
	{
		char name[16];
		size_t i, r;

		CHECK(readstr("a,b\n1,2\n3,4\n5,6\n", &t) == 0);
		for (i = 0; i < 40; i++) {
			snprintf(name, sizeof(name), "c%zu", i);
			CHECK_EQ_I(csvio_addcol(&t, name), 2 + i);
			for (r = 0; r < t.nrows; r++)
				csvio_setint(&t, r, 2 + i, (int64_t)(100 * r + i));
		}
		r = csvio_addrow(&t);
		CHECK(strcmp(csvio_get(&t, r, 41), "") == 0);
		CHECK(strcmp(csvio_get(&t, 2, 0), "5") == 0);
		CHECK(strcmp(csvio_get(&t, 1, 1), "4") == 0);
		CHECK(strcmp(csvio_get(&t, 2, 41), "239") == 0);
		CHECK(strcmp(csvio_get(&t, 0, 2), "0") == 0);
		csvio_free(&t);
	}

	/* Ragged rows, duplicate columns and empty input are errors. */
	CHECK(readstr("a,b\n1\n", &t) == -1);
	CHECK(readstr("a,a\n1,2\n", &t) == -1);
	CHECK(readstr("", &t) == -1);
	CHECK(readstr("a,b\n\"open\n", &t) == -1);

	/* Header only: zero rows, still a table. */
	CHECK(readstr("a,b\n", &t) == 0 && t.nrows == 0);
	csvio_free(&t);

	/* A NUL byte inside a field is an error, not a shorter field. */
	{
		static const char nul[] = "a,b\n1\0,2\n";
		FILE *fp = fmemopen((void *)nul, sizeof(nul) - 1, "r");

		CHECK(csvio_read(fp, "t.csv", &t) == -1);
		fclose(fp);
	}

	/* Number parsing is strict. */
	CHECK(csvio_parse_int64(" 1", &v) == -1);
	CHECK(csvio_parse_int64("\t1", &v) == -1);
	CHECK(csvio_parse_double(" 1.5", &d) == -1);
	CHECK(csvio_parse_int64("12", &v) == 0 && v == 12);
	CHECK(csvio_parse_int64("12x", &v) == -1);
	CHECK(csvio_parse_int64("99999999999999999999", &v) == -1);
	ints();
	copyshort();
	CHECK(csvio_parse_double("1e400", &d) == -1);
	CHECK(csvio_parse_double("nan", &d) == -1);

	/* Checked arithmetic. */
	CHECK(ck_mul(INT64_MAX, 2, &v) == -1);
	CHECK(ck_mul(1 << 20, 1 << 20, &v) == 0 && v == (int64_t)1 << 40);
	CHECK_EQ_I(ceil_div(7, 2), 4);
	CHECK_EQ_I(ceil_div(-7, 2), -3);
	CHECK_EQ_I(floor_div(-7, 2), -4);

	/* dtype table. */
	CHECK_EQ_I(layer_dtype_bytes("fp16"), 2);
	CHECK_EQ_I(layer_dtype_bytes("fp32"), 4);
	CHECK_EQ_I(layer_dtype_bytes("fp17"), 0);
	quoting();
	return CHECK_DONE();
}
