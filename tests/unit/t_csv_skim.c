/*
 * The reader's clean-buffer path (lib/base/csvio.c, RD_SKIM) against its
 * field-by-field path: tables of several 64 KiB buffers, some clean and
 * some not (quoted fields holding line ends, white space, blank lines,
 * repeated headers, '\r', a field longer than a buffer), are read as they
 * are and with every line ending written "\r\n", which libcsv reads as
 * the same records and the same line numbers, and which keeps every
 * buffer off the clean path.  Cells, line numbers, blocks and diagnostics
 * must agree.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"
#include "check.h"
#include "check_csv.h"

/* A growing string. */
struct str {
	char	*s;
	size_t	 n, cap;
};

static void
put(struct str *b, const char *s, size_t n)
{
	if (b->cap - b->n <= n) {
		while (b->cap - b->n <= n)
			b->cap = b->cap ? 2 * b->cap : 4096;
		b->s = realloc(b->s, b->cap);
		if (b->s == NULL)
			abort();
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void
puts2(struct str *x, struct str *y, const char *s)
{
	put(x, s, strlen(s));
	put(y, s, strlen(s));
}

/* A line end: '\n' in x, "\r\n" in y. */
static void
eol(struct str *x, struct str *y)
{
	put(x, "\n", 1);
	put(y, "\r\n", 2);
}

static void
plain(struct str *x, struct str *y, int64_t maxlen)
{
	static const char al[] = "abcdefghijklmnopqrstuvwxyz0123456789.-_:";
	char f[64];
	int64_t i, n = rnd(0, maxlen);

	for (i = 0; i < n; i++)
		f[i] = al[rnd(0, (int64_t)sizeof(al) - 2)];
	f[n] = '\0';
	puts2(x, y, f);
}

/*
 * rows rows of columns a,b,c,d; one row in `every` (0: none) has one of
 * the oddities (k below); a row "bad" (0: none) has three fields.
 */
static void
gen(struct str *x, struct str *y, int rows, int every, int bad)
{
	char a[32];
	int r, k;

	x->n = y->n = 0;
	puts2(x, y, "a,b,c,d");
	eol(x, y);
	for (r = 1; r <= rows; r++) {
		k = every > 0 && rnd(0, every - 1) == 0 ? (int)rnd(0, 9) : -1;
		if (k == 0) {		/* blank lines */
			int64_t i, n = rnd(1, 3);

			for (i = 0; i < n; i++)
				eol(x, y);
		} else if (k == 1) {	/* a repeated header */
			puts2(x, y, "a,b,c,d");
			eol(x, y);
		}
		/*
		 * runs of one value, for the grouped blocks; or the first
		 * column's name (a row, not a header), or nothing
		 */
		snprintf(a, sizeof(a), "g%d,", r / 5);
		puts2(x, y, k == 8 ? "a," : k == 9 ? "," : a);
		if (k == 2)	/* quoted, with the line ends left as they are */
			puts2(x, y, "\"x\ny,\"\"z\"\"\n\"");
		else if (k == 3)	/* white space, trimmed by libcsv */
			puts2(x, y, "\t u v ");
		else if (k == 4) {	/* longer than a buffer */
			int i;

			for (i = 0; i < 2000; i++)
				puts2(x, y, "0123456789abcdefghijklmnopqrstuvwxyz");
		} else if (k == 5)	/* a quoted field of a plain value */
			puts2(x, y, "\"q\"");
		else
			plain(x, y, 12);
		puts2(x, y, ",");
		plain(x, y, 3);
		if (r != bad) {
			puts2(x, y, ",");
			plain(x, y, k == 6 ? 0 : 20);
		}
		if (k == 7) {		/* a "\r\n" in x too */
			puts2(x, y, "\r");
			put(y, "\r", 1);
		}
		if (r < rows || rnd(0, 1))
			eol(x, y);
	}
}

/* Every row of t: line number and cells, appended to out. */
static void
dump(const struct table *t, struct str *out)
{
	char num[32];
	size_t r, c;

	for (r = 0; r < t->nrows; r++) {
		snprintf(num, sizeof(num), "%ld", csvio_line(t, r));
		put(out, num, strlen(num));
		for (c = 0; c < t->ncols; c++) {
			const char *v = csvio_get(t, r, c);

			put(out, "|", 1);
			/* one line a row (a cell's line end shown as '~') */
			for (; *v != '\0'; v++)
				put(out, *v == '\n' ? "~" : v, 1);
		}
		put(out, "\n", 1);
	}
}

/*
 * t written after some cells are set anew (runs of the input's own cells
 * broken at the start, inside and at the end) and a column added.
 */
static void
written(struct table *t, struct str *out)
{
	char *buf = NULL;
	size_t n = 0, r, c = csvio_addcol(t, "new");
	FILE *fp;

	for (r = 0; r < t->nrows; r++) {
		if (r % 3 == 0)
			csvio_set(t, r, 1, "X,Y");
		if (r % 5 == 0)
			csvio_set(t, r, 3, "z");
		if (r % 7 == 0)
			csvio_set(t, r, 0, " s");
		if (r % 2 == 0)
			csvio_setint(t, r, c, (int64_t)r);
	}
	if ((fp = open_memstream(&buf, &n)) == NULL)
		abort();
	CHECK(csvio_write(fp, t) == 0);
	fclose(fp);
	put(out, buf, n);
	free(buf);
}

/*
 * Cells of t set anew by their input line L (the same in a whole table
 * and in blocks): the first, an inner and the last of the line's columns,
 * so that the part of a line the writer copies as read ends before each
 * of them, and the column after them; some rows untouched.
 */
static void
modify(struct table *t)
{
	size_t r, c = csvio_addcol(t, "new");
	long L;

	for (r = 0; r < t->nrows; r++) {
		L = csvio_line(t, r);
		if (L % 2 == 0)
			csvio_setint(t, r, c, (int64_t)L);
		if (L % 3 == 0)
			csvio_set(t, r, 2, L % 9 ? "X,Y" : "plain");
		if (L % 5 == 0)
			csvio_setns(t, r, 3, (double)L / 7);
		if (L % 7 == 0)
			csvio_setint(t, r, 0, -L);
		if (L % 11 == 0)
			csvio_setfix(t, r, 1, (double)L / 3, 2);
		if (L % 13 == 0)
			csvio_setn(t, r, 3, " s", 2);
		if (L % 17 == 0)
			csvio_setscan(t, r, 1, "sc", 2);
	}
}

static int
modfn(void *arg, struct table *in, const struct table **res)
{
	(void)arg;
	modify(in);
	*res = in;
	return 0;
}

/*
 * s through csvio_stream (whose reader keeps each clean line as read
 * once the stage gives back its block, and whose writer copies the part
 * of a row still as read from it) in blocks of `block` bytes, the rows
 * modified, against the whole table read, modified and written as
 * csvio_write does it, line by line.
 */
static void
streamed(const struct str *s, size_t block)
{
	char path[] = "/tmp/t_csv_skimXXXXXX", *a, *b;
	struct table t;
	size_t na = 0, nb = 0;
	int fd;

	if ((fd = mkstemp(path)) < 0 ||
	    write(fd, s->s, s->n) != (ssize_t)s->n)
		abort();
	close(fd);
	a = check_streamed(path, block, modfn, &na);
	CHECK_EQ_I(check_readmem(s->s, s->n, "t.csv", &t), 0);
	modify(&t);
	b = check_written(&t, &nb);
	CHECK(na == nb && memcmp(a, b, na) == 0);
	csvio_free(&t);
	unlink(path);
	free(a);
	free(b);
}

/* Read s whole: rc, the rows dumped and what was reported. */
static size_t nread;	/* the rows readall read */

static int
readall(const struct str *s, struct str *out, char *err, size_t nerr)
{
	struct capture cap;
	struct table t;
	int rc;

	if (capture_start(&cap) != 0)
		abort();
	rc = check_readmem(s->s, s->n, "t.csv", &t);
	capture_end(&cap, err, nerr);
	out->n = 0;
	put(out, "", 0);
	nread = 0;
	if (rc == 0) {
		nread = t.nrows;
		dump(&t, out);
		written(&t, out);
		csvio_free(&t);
	}
	return rc;
}

/* Read s in grouped blocks of `block` bytes, a column added as tools do. */
static int
readblocks(const struct str *s, size_t block, struct str *out)
{
	char path[] = "/tmp/t_csv_skimXXXXXX";
	struct table_reader *r;
	struct table *t;
	int fd, k;
	size_t i, col;

	if ((fd = mkstemp(path)) < 0)
		return -2;
	if (write(fd, s->s, s->n) != (ssize_t)s->n) {
		close(fd);
		unlink(path);
		return -2;
	}
	close(fd);
	out->n = 0;
	put(out, "", 0);
	k = -1;
	if ((r = csvio_reader_open(path, block, "a")) != NULL) {
		t = csvio_reader_table(r);
		col = csvio_addcol(t, "added");
		while ((k = csvio_reader_next(r)) > 0) {
			/* an added column's cells are empty in every block */
			for (i = 0; i < t->nrows; i++)
				CHECK(csvio_get(t, i, col)[0] == '\0');
			/* (blocks end by input bytes: "\r\n" makes others) */
			dump(t, out);
			for (i = 0; i < t->nrows; i++)
				csvio_setint(t, i, col, 7);
		}
		csvio_reader_close(r);
	}
	unlink(path);
	return k;
}

static void
same(int rows, int every, int bad)
{
	struct str x = { 0 }, y = { 0 }, dx = { 0 }, dy = { 0 };
	char ex[512], ey[512];
	int rx, ry;

	gen(&x, &y, rows, every, bad);
	rx = readall(&x, &dx, ex, sizeof(ex));
	ry = readall(&y, &dy, ey, sizeof(ey));
	CHECK_EQ_I(rx, ry);
	CHECK(strcmp(ex, ey) == 0);
	CHECK(dx.n == dy.n && memcmp(dx.s, dy.s, dx.n) == 0);
	if (bad > 0)
		CHECK(rx == -1 && strstr(ex, ": 3 fields, header has 4") != NULL);
	else {
		CHECK(rx == 0 && ex[0] == '\0');
		/* every generated row is there */
		CHECK_EQ_I(nread, rows);
		CHECK_EQ_I(readblocks(&x, 3000, &dx), 0);
		CHECK_EQ_I(readblocks(&y, 3000, &dy), 0);
		CHECK(dx.n == dy.n && memcmp(dx.s, dy.s, dx.n) == 0);
		CHECK_EQ_I(readblocks(&x, 200000, &dx), 0);
		CHECK_EQ_I(readblocks(&y, 200000, &dy), 0);
		CHECK(dx.n == dy.n && memcmp(dx.s, dy.s, dx.n) == 0);
		streamed(&x, 3000);
		streamed(&y, 3000);
	}
	free(x.s);
	free(y.s);
	free(dx.s);
	free(dy.s);
}

/* The reader's buffer (csvio.c): where the cases below put its ends. */
#define BUF	65536

/*
 * Whole rows until x holds exactly upto bytes; a field with a space in
 * the first makes the buffer they are in one that is not clean.
 */
static void
fill(struct str *x, struct str *y, size_t upto, int dirty)
{
	char f[64];
	size_t left;

	if (dirty) {
		puts2(x, y, "g0,a b,c,d");
		eol(x, y);
	}
	while ((left = upto - x->n) > 0) {
		/* "g1,F,c,d\n": 8 bytes and F */
		size_t k = left >= 40 ? 20 : left - 8;

		memset(f, 'f', k);
		f[k] = '\0';
		puts2(x, y, "g1,");
		puts2(x, y, f);
		puts2(x, y, ",c,d");
		eol(x, y);
	}
}

/* Rows after the case, into the next buffers. */
static void
rest(struct str *x, struct str *y)
{
	int r;

	for (r = 0; r < 9000; r++) {
		puts2(x, y, "g2,");
		plain(x, y, 12);
		puts2(x, y, ",e,");
		plain(x, y, 9);
		eol(x, y);
	}
}

/* Read x and y whole and in blocks: the same rows, nrows of them. */
static void
agree(const struct str *x, const struct str *y, const char *what)
{
	struct str dx = { 0 }, dy = { 0 };
	char ex[512], ey[512];

	CHECK_EQ_I(readall(x, &dx, ex, sizeof(ex)), 0);
	CHECK_EQ_I(readall(y, &dy, ey, sizeof(ey)), 0);
	if (!(dx.n == dy.n && memcmp(dx.s, dy.s, dx.n) == 0))
		fprintf(stderr, "case %s: the rows differ\n", what);
	CHECK(dx.n == dy.n && memcmp(dx.s, dy.s, dx.n) == 0);
	CHECK_EQ_I(readblocks(x, 5000, &dx), 0);
	CHECK_EQ_I(readblocks(y, 5000, &dy), 0);
	CHECK(dx.n == dy.n && memcmp(dx.s, dy.s, dx.n) == 0);
	free(dx.s);
	free(dy.s);
}

/* What stands at a buffer's end, and how the next one starts. */
static void
edges(void)
{
	struct str x = { 0 }, y = { 0 };
	int dirty, i;

	for (dirty = 0; dirty < 2; dirty++) {
		/* a row ends at the buffer's end; a blank line after it */
		x.n = y.n = 0;
		puts2(&x, &y, "a,b,c,d");
		eol(&x, &y);
		fill(&x, &y, BUF, dirty);
		eol(&x, &y);
		rest(&x, &y);
		agree(&x, &y, "row end, blank line");

		/* "\r" ends the buffer, its "\n" starts the next */
		x.n = y.n = 0;
		puts2(&x, &y, "a,b,c,d");
		eol(&x, &y);
		fill(&x, &y, BUF - 9, dirty);
		puts2(&x, &y, "g0,a,b,c\r");
		put(&y, "\n", 1);
		put(&x, "\n", 1);
		rest(&x, &y);
		agree(&x, &y, "cr | lf");

		/* cut in a field, after a comma, inside the first field */
		for (i = 0; i < 4; i++) {
			static const char *const head[] = { "g0,a", "g0,a,b,",
			    "g0", "g0," };
			static const char *const tail[] = { "b,c,d", "", ",a,b,c",
			    "a,b,c" };

			x.n = y.n = 0;
			puts2(&x, &y, "a,b,c,d");
			eol(&x, &y);
			fill(&x, &y, BUF - strlen(head[i]), dirty);
			puts2(&x, &y, head[i]);
			puts2(&x, &y, tail[i]);
			eol(&x, &y);
			rest(&x, &y);
			agree(&x, &y, head[i]);
		}

		/* a quoted field from the first buffer past the second */
		x.n = y.n = 0;
		puts2(&x, &y, "a,b,c,d");
		eol(&x, &y);
		fill(&x, &y, BUF - 5, dirty);
		puts2(&x, &y, "g0,\"a");
		for (i = 0; i < BUF / 4 + 10; i++)
			puts2(&x, &y, "x,y\n");
		puts2(&x, &y, "\",c,d");
		eol(&x, &y);
		rest(&x, &y);
		agree(&x, &y, "quoted");
	}
	free(x.s);
	free(y.s);
}

int
main(int argc, char **argv)
{
	int every[] = { 0, 20000, 5000, 1500, 300, 40 }, i;

	(void)argc;
	pf_setprogname(argv[0]);
	edges();
	for (i = 0; i < (int)(sizeof(every) / sizeof(every[0])); i++) {
		same(12000, every[i], 0);
		/* a bad row in a clean buffer, and in the first */
		same(12000, every[i], 9000);
		same(12000, every[i], 3);
	}
	return CHECK_DONE();
}
