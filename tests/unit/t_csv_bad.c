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

static char errbuf[4096];
static FILE *capfp;
static int capsaved = -1;

/* Send stderr to a temporary file until endcap() copies it to errbuf. */
static void
begincap(void)
{
	fflush(stderr);
	capfp = tmpfile();
	capsaved = dup(2);
	if (capfp == NULL || capsaved < 0 || dup2(fileno(capfp), 2) < 0)
		abort();
}

static void
endcap(void)
{
	size_t n;

	fflush(stderr);
	dup2(capsaved, 2);
	close(capsaved);
	rewind(capfp);
	n = fread(errbuf, 1, sizeof(errbuf) - 1, capfp);
	errbuf[n] = '\0';
	fclose(capfp);
}

/*
 * Run csvio_read on s with stderr captured into errbuf; returns its status.
 * On success the table is left for the caller to free.
 */
static int
readcap(const char *s, size_t len, struct table *t)
{
	FILE *fp;
	int rc;

	begincap();
	fp = fmemopen((void *)s, len, "r");
	rc = fp != NULL ? csvio_read(fp, "bad.csv", t) : -2;
	if (fp != NULL)
		fclose(fp);
	endcap();
	return rc;
}

static int
readstr(const char *s, struct table *t)
{
	return readcap(s, strlen(s), t);
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

	/* Malformed quotes (libcsv strict mode). */
	CHECK(readstr("a,b\n1,\"x\"y\n", &t) == -1);
	CHECK_ERR("t: bad.csv:2: error parsing data while strict checking enabled\n");
	CHECK(readstr("a,b\n1,x\"y\n", &t) == -1);
	CHECK_ERR("t: bad.csv:2: error parsing data while strict checking enabled\n");
	CHECK(readstr("a,b\n1,2\n3,\"open\n", &t) == -1);
	CHECK_ERR("t: bad.csv:3: the input ends inside a quoted field (cut short?)\n");
	CHECK(readstr("\"a,b\n", &t) == -1);
	/* A quoted field may hold the delimiter, quotes and a newline. */
	CHECK(readstr("a,b\n\"x,\"\"y\"\"\nz\",2\n", &t) == 0);
	CHECK(t.nrows == 1 && strcmp(csvio_get(&t, 0, 0), "x,\"y\"\nz") == 0);
	csvio_free(&t);

	/* Ragged rows: short, long, trailing delimiter. */
	CHECK(readstr("a,b\n1,2\n3\n", &t) == -1);
	CHECK_ERR("t: bad.csv:3: 1 fields, header has 2\n");
	CHECK(readstr("a,b\n1,2,3\n", &t) == -1);
	CHECK_ERR("t: bad.csv:2: 3 fields, header has 2\n");
	CHECK(readstr("a,b\n1,2,\n", &t) == -1);
	CHECK_ERR("t: bad.csv:2: 3 fields, header has 2\n");

	/* Header faults. */
	CHECK(readstr("", &t) == -1);
	CHECK_ERR("t: bad.csv: empty input: no header line\n");
	CHECK(readstr("\n\n", &t) == -1);
	CHECK_ERR("t: bad.csv: empty input: no header line\n");
	CHECK(readstr("a,,b\n1,2,3\n", &t) == -1);
	CHECK_ERR("t: bad.csv:1: empty column name in header\n");
	CHECK(readstr("a,b,a\n", &t) == -1);
	CHECK_ERR("t: bad.csv:1: duplicate column 'a'\n");

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

	/* Non-numeric and out-of-range geometry. */
	CHECK(getrow("in_c", "abc", &l) == -1);
	CHECK(strstr(errbuf, "bad.csv:2: column 'in_c'") != NULL &&
	    strstr(errbuf, "'abc'") != NULL);
	CHECK(getrow("in_h", "12x", &l) == -1);
	CHECK(strstr(errbuf, "bad.csv:2: column 'in_h'") != NULL);
	CHECK(getrow("kernel_w", "3.0", &l) == -1);
	CHECK(strstr(errbuf, "column 'kernel_w'") != NULL);
	CHECK(getrow("macs", "99999999999999999999", &l) == -1);
	CHECK(strstr(errbuf, "column 'macs'") != NULL);
	CHECK(getrow("out_w", "", &l) == -1);
	CHECK(strstr(errbuf, "column 'out_w'") != NULL);
	CHECK(getrow("out_c", "0", &l) == -1);
	CHECK_ERR("t: bad.csv:2: column 'out_c': must be positive, not '0'\n");
	CHECK(getrow("pad_top", "-1", &l) == -1);
	CHECK_ERR("t: bad.csv:2: column 'pad_top': must be non-negative, not '-1'\n");
	CHECK(getrow("gemm_m", "0", &l) == 0);	/* zero GEMM view is allowed */
	CHECK(getrow("groups", "2", &l) == -1);
	CHECK_ERR("t: bad.csv:2: column 'groups': 2 does not divide in_c 3 and out_c 64\n");
	CHECK(getrow("op", "convolution", &l) == -1);
	CHECK_ERR("t: bad.csv:2: column 'op': unknown op 'convolution'\n");
	CHECK(getrow("op", "", &l) == -1);
	CHECK_ERR("t: bad.csv:2: column 'op': empty field\n");
	CHECK(getrow("dtype", "fp17", &l) == -1);
	CHECK_ERR("t: bad.csv:2: column 'dtype': unknown type 'fp17'\n");
	CHECK(getrow("act", "a-very-long-activation-name-indeed", &l) == -1);
	CHECK(strstr(errbuf, "column 'act': value too long") != NULL);
	return CHECK_DONE();
}
