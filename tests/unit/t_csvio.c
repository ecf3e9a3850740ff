/*
 * Unit tests of the CSV table module and checked arithmetic.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arith.h"
#include "csvio.h"
#include "diag.h"
#include "layer.h"
#include "check.h"

static int
readstr(const char *s, struct table *t)
{
	FILE *fp = fmemopen((void *)s, strlen(s), "r");
	int rc = table_read(fp, "t.csv", t);

	fclose(fp);
	return rc;
}

static char *
writestr(const struct table *t, char *buf, size_t n)
{
	FILE *fp = fmemopen(buf, n, "w");

	table_write(fp, t);
	fclose(fp);
	return buf;
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
	CHECK(strcmp(table_get(&t, 1, 1), "x,y") == 0);
	CHECK_EQ_I(t.line[1], 2);	/* line count restarts per chunk */
	CHECK_EQ_I(table_col(&t, "b"), 1);
	CHECK_EQ_I(table_col(&t, "c"), -1);
	CHECK_EQ_I(table_addcol(&t, "c"), 2);
	table_setint(&t, 0, 2, -7);
	CHECK(strcmp(writestr(&t, buf, sizeof(buf)),
	    "a,b,c\n1,2,-7\n3,\"x,y\",\n") == 0);
	CHECK(table_int(&t, 0, 0, &v) == 0 && v == 1);
	CHECK(table_int(&t, 1, 1, &v) == -1);
	CHECK(table_dbl(&t, 1, 2, &d) == -1);
	CHECK(table_dbl_opt(&t, 1, 2, 4.5, &d) == 0 && d == 4.5);
	table_free(&t);

	/* Appending many columns (past the spare stride) keeps every cell. */
	{
		char name[16];
		size_t i, r;

		CHECK(readstr("a,b\n1,2\n3,4\n5,6\n", &t) == 0);
		for (i = 0; i < 40; i++) {
			snprintf(name, sizeof(name), "c%zu", i);
			CHECK_EQ_I(table_addcol(&t, name), 2 + i);
			for (r = 0; r < t.nrows; r++)
				table_setint(&t, r, 2 + i, (int64_t)(100 * r + i));
		}
		r = table_addrow(&t);
		CHECK(strcmp(table_get(&t, r, 41), "") == 0);
		CHECK(strcmp(table_get(&t, 2, 0), "5") == 0);
		CHECK(strcmp(table_get(&t, 1, 1), "4") == 0);
		CHECK(strcmp(table_get(&t, 2, 41), "239") == 0);
		CHECK(strcmp(table_get(&t, 0, 2), "0") == 0);
		table_free(&t);
	}

	/* Ragged rows, duplicate columns and empty input are errors. */
	CHECK(readstr("a,b\n1\n", &t) == -1);
	CHECK(readstr("a,a\n1,2\n", &t) == -1);
	CHECK(readstr("", &t) == -1);
	CHECK(readstr("a,b\n\"open\n", &t) == -1);

	/* Header only: zero rows, still a table. */
	CHECK(readstr("a,b\n", &t) == 0 && t.nrows == 0);
	table_free(&t);

	/* A NUL byte inside a field is an error, not a shorter field. */
	{
		static const char nul[] = "a,b\n1\0,2\n";
		FILE *fp = fmemopen((void *)nul, sizeof(nul) - 1, "r");

		CHECK(table_read(fp, "t.csv", &t) == -1);
		fclose(fp);
	}

	/* Number parsing is strict. */
	CHECK(parse_int64(" 1", &v) == -1);
	CHECK(parse_int64("\t1", &v) == -1);
	CHECK(parse_double(" 1.5", &d) == -1);
	CHECK(parse_int64("12", &v) == 0 && v == 12);
	CHECK(parse_int64("12x", &v) == -1);
	CHECK(parse_int64("99999999999999999999", &v) == -1);
	CHECK(parse_double("1e400", &d) == -1);
	CHECK(parse_double("nan", &d) == -1);

	/* Checked arithmetic. */
	CHECK(ck_mul(INT64_MAX, 2, &v) == -1);
	CHECK(ck_mul(1 << 20, 1 << 20, &v) == 0 && v == (int64_t)1 << 40);
	CHECK_EQ_I(ceil_div(7, 2), 4);
	CHECK_EQ_I(ceil_div(-7, 2), -3);
	CHECK_EQ_I(floor_div(-7, 2), -4);

	/* dtype table. */
	CHECK_EQ_I(dtype_bytes("fp16"), 2);
	CHECK_EQ_I(dtype_bytes("fp32"), 4);
	CHECK_EQ_I(dtype_bytes("fp17"), 0);
	return CHECK_DONE();
}
