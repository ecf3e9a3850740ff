/*
 * Bad input for the CSV layer: malformed quoting, ragged rows, missing
 * columns and geometry that is not a valid number, each of which must be
 * refused with one diagnostic naming the file, the line and (for geometry)
 * the column.  The diagnostics are captured from stderr and compared.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"
#include "layer.h"
#include "check.h"
#include "check_csv.h"

static char errbuf[4096];
static struct capture cap;

/* Send stderr to a temporary file until endcap() copies it to errbuf. */
static void
begincap(void)
{
	if (capture_start(&cap) != 0)
		abort();
}

static void
endcap(void)
{
	capture_end(&cap, errbuf, sizeof(errbuf));
}

/*
 * Run csvio_read on s with stderr captured into errbuf; returns its status.
 * On success the table is left for the caller to free.
 */
static int
readstr(const char *s, struct table *t)
{
	int rc;

	begincap();
	rc = check_readmem(s, strlen(s), "bad.csv", t);
	endcap();
	return rc;
}

/* The one diagnostic printed, exactly (with its newline). */
#define CHECK_ERR(want) do { \
	if (strcmp(errbuf, (want)) != 0) { \
		fprintf(stderr, "%s:%d: diagnostic '%s', want '%s'\n", \
		    __FILE__, __LINE__, errbuf, (want)); \
		check_failures++; \
	} \
} while (0)

/*
 * A layers.csv with one valid row, in which column col (if not NULL)
 * holds val instead.
 */
static const char *
layers_csv(const char *col, const char *val)
{
	static char buf[4096];
	static const char *const good[] = {
		"0", "n0", "conv", "Conv", "", "1", "3", "32", "32", "64", "16",
		"16", "7", "7", "2", "2", "3", "3", "3", "3", "1", "1", "1",
		"256", "64", "147", "1", "relu", "2408448", "6144", "18816",
		"32768", "fp16"
	};
	size_t i, n = 0;

	for (i = 0; layer_colnames[i] != NULL; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
		    i ? "," : "", layer_colnames[i]);
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\n");
	for (i = 0; layer_colnames[i] != NULL; i++) {
		const char *v = good[i];

		if (col != NULL && strcmp(col, layer_colnames[i]) == 0)
			v = val;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
		    i ? "," : "", v);
	}
	snprintf(buf + n, sizeof(buf) - n, "\n");
	return buf;
}

/* layer_get of row 0 of a table holding col=val; diagnostic in errbuf. */
static int
getrow(const char *col, const char *val, struct layer *l)
{
	struct table t;
	struct layer_cols lc;
	int rc;

	if (readstr(layers_csv(col, val), &t) != 0)
		return -2;
	begincap();
	rc = layer_cols_find(&t, &lc) == 0 ? layer_get(&t, &lc, 0, l) : -3;
	endcap();
	csvio_free(&t);
	return rc;
}

/*
 * Text csvio_read refuses and the one diagnostic it prints (NULL: not
 * compared).
 */
static const struct bad_read {
	const char	*in, *err;
} bad_reads[] = {
	/* Malformed quotes (libcsv strict mode). */
	{ "a,b\n1,\"x\"y\n",
	    "t: bad.csv:2: error parsing data while strict checking enabled\n" },
	{ "a,b\n1,x\"y\n",
	    "t: bad.csv:2: error parsing data while strict checking enabled\n" },
	{ "a,b\n1,2\n3,\"open\n",
	    "t: bad.csv:3: the input ends inside a quoted field (cut short?)\n" },
	{ "\"a,b\n", NULL },
	/* Ragged rows: short, long, trailing delimiter. */
	{ "a,b\n1,2\n3\n", "t: bad.csv:3: 1 fields, header has 2\n" },
	{ "a,b\n1,2,3\n", "t: bad.csv:2: 3 fields, header has 2\n" },
	{ "a,b\n1,2,\n", "t: bad.csv:2: 3 fields, header has 2\n" },
	/* Header faults. */
	{ "", "t: bad.csv: empty input: no header line\n" },
	{ "\n\n", "t: bad.csv: empty input: no header line\n" },
	{ "a,,b\n1,2,3\n", "t: bad.csv:1: empty column name in header\n" },
	{ "a,b,a\n", "t: bad.csv:1: duplicate column 'a'\n" },
};

/*
 * Non-numeric and out-of-range geometry: column col of the valid row
 * holding val, what layer_get returns, and what it prints: exactly err,
 * or text holding has and has2 (NULL: not compared).
 */
static const struct bad_cell {
	const char	*col, *val;
	int		 rc;
	const char	*err, *has, *has2;
} bad_cells[] = {
	{ "in_c", "abc", -1, NULL, "bad.csv:2: column 'in_c'", "'abc'" },
	{ "in_h", "12x", -1, NULL, "bad.csv:2: column 'in_h'", NULL },
	{ "kernel_w", "3.0", -1, NULL, "column 'kernel_w'", NULL },
	{ "macs", "99999999999999999999", -1, NULL, "column 'macs'", NULL },
	{ "out_w", "", -1, NULL, "column 'out_w'", NULL },
	{ "out_c", "0", -1,
	    "t: bad.csv:2: column 'out_c': must be positive, not '0'\n",
	    NULL, NULL },
	{ "pad_top", "-1", -1,
	    "t: bad.csv:2: column 'pad_top': must be non-negative, not '-1'\n",
	    NULL, NULL },
	{ "gemm_m", "0", 0, NULL, NULL, NULL },	/* zero GEMM view is allowed */
	{ "groups", "2", -1, "t: bad.csv:2: column 'groups': 2 does not "
	    "divide in_c 3 and out_c 64\n", NULL, NULL },
	{ "op", "convolution", -1,
	    "t: bad.csv:2: column 'op': unknown op 'convolution'\n",
	    NULL, NULL },
	{ "op", "", -1, "t: bad.csv:2: column 'op': empty field\n",
	    NULL, NULL },
	{ "dtype", "fp17", -1,
	    "t: bad.csv:2: column 'dtype': unknown type 'fp17'\n", NULL, NULL },
	{ "act", "a-very-long-activation-name-indeed", -1, NULL,
	    "column 'act': value too long", NULL },
};

#define NITEMS(a) (sizeof(a) / sizeof((a)[0]))

int
main(int argc, char **argv)
{
	struct table t;
	struct layer_cols lc;
	struct layer l;
	char buf[8192], *p;
	size_t i;

	(void)argc;
	(void)argv;
	pf_setprogname("t");

	/* The valid table passes, so each failure below is the one change. */
	CHECK(getrow(NULL, NULL, &l) == 0);
	CHECK_EQ_I(l.gemm_k, 147);
	CHECK_EQ_I(l.op, OP_CONV);
	CHECK(strcmp(l.act, "relu") == 0);
	CHECK_ERR("");

	for (i = 0; i < NITEMS(bad_reads); i++) {
		const struct bad_read *b = &bad_reads[i];
		int before = check_failures;

		CHECK(readstr(b->in, &t) == -1);
		if (b->err != NULL)
			CHECK_ERR(b->err);
		if (check_failures != before)
			fprintf(stderr, "(bad read %zu)\n", i);
	}

	/* A quoted field may hold the delimiter, quotes and a newline. */
	CHECK(readstr("a,b\n\"x,\"\"y\"\"\nz\",2\n", &t) == 0);
	CHECK(t.nrows == 1 && strcmp(csvio_get(&t, 0, 0), "x,\"y\"\nz") == 0);
	csvio_free(&t);

	/* CRLF line ends are RFC 4180: accepted, no '\r' left in a field. */
	CHECK(readstr("a,b\r\n1,2\r\n", &t) == 0);
	CHECK(t.nrows == 1 && strcmp(csvio_get(&t, 0, 1), "2") == 0);
	csvio_free(&t);

	/* Missing geometry columns, each by name. */
	for (i = 0; layer_colnames[i] != NULL; i++) {
		const char *c = layer_colnames[i];
		char want[128];

		if (strcmp(c, "name") == 0 || strcmp(c, "onnx_op") == 0 ||
		    strcmp(c, "preds") == 0)
			continue;	/* not geometry: layer.h does not need them */
		/* Rename the column in the header: "x" + name. */
		snprintf(buf, sizeof(buf), "%s", layers_csv(NULL, NULL));
		p = strstr(buf, c);
		while (p != NULL && !((p == buf || p[-1] == ',') &&
		    (p[strlen(c)] == ',' || p[strlen(c)] == '\n')))
			p = strstr(p + 1, c);
		CHECK(p != NULL && p < strchr(buf, '\n'));
		if (p == NULL)
			continue;
		memmove(p + 1, p, strlen(p) + 1);
		*p = 'x';
		CHECK(readstr(buf, &t) == 0);
		begincap();
		CHECK(layer_cols_find(&t, &lc) == -1);
		endcap();
		snprintf(want, sizeof(want), "t: bad.csv:1: missing column '%s'\n",
		    c);
		CHECK_ERR(want);
		csvio_free(&t);
	}

	for (i = 0; i < NITEMS(bad_cells); i++) {
		const struct bad_cell *b = &bad_cells[i];
		int before = check_failures;

		CHECK(getrow(b->col, b->val, &l) == b->rc);
		if (b->err != NULL)
			CHECK_ERR(b->err);
		if (b->has != NULL)
			CHECK(strstr(errbuf, b->has) != NULL);
		if (b->has2 != NULL)
			CHECK(strstr(errbuf, b->has2) != NULL);
		if (check_failures != before)
			fprintf(stderr, "(%s = '%s')\n", b->col, b->val);
	}
	return CHECK_DONE();
}
