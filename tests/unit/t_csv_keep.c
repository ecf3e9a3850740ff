/*
 * Cell texts kept for rows to come (lib/base/csvio_keep.c): a stage that sets
 * a row's cells by key once and gives every later row of that key the
 * same texts, from a store that outlives the blocks (csvio_keep,
 * csvio_setkept, cleared between blocks) or from the key's first row of
 * the block (csvio_setfrom), must write what setting every row's cells
 * anew writes: texts that need quotes and those that do not, empty cells,
 * a cell of an input column (the row's line as read no longer stands for
 * it) and added columns, through csvio_stream in blocks (its reader keeps
 * each clean line as read from the second block on).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "check.h"
#include "check_csv.h"

#define NKEY	10
#define NSET	4

/* The cells of a row of key k: b (an input column), x, y, z (added). */
static void
setcells(struct table *t, size_t r, const size_t *col, int k)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "b%d", k);
	csvio_set(t, r, col[0], buf);
	snprintf(buf, sizeof(buf), "v,%d \"q\"", k);	/* quoted */
	csvio_set(t, r, col[1], buf);
	snprintf(buf, sizeof(buf), "%d", k);
	csvio_set(t, r, col[2], k % 3 == 0 ? "" : buf);	/* empty */
	snprintf(buf, sizeof(buf), " %d", k);		/* a leading blank */
	csvio_set(t, r, col[3], buf);
}

static void
findcols(struct table *t, size_t *col)
{
	col[0] = csvio_addcol(t, "b");
	col[1] = csvio_addcol(t, "x");
	col[2] = csvio_addcol(t, "y");
	col[3] = csvio_addcol(t, "z");
}

static int
keyof(const struct table *t, size_t r)
{
	return atoi(csvio_get(t, r, 0)) % NKEY;
}

/* The stage: even keys from the store, odd keys from the block's row. */
static struct csvio_keep *store;
static const char *const *kept[NKEY];
static int nblock;

static int
keepfn(void *arg, struct table *t, const struct table **res)
{
	size_t r, col[NSET], first[NKEY];
	int k;

	(void)arg;
	*res = t;
	/* every row of the blocks before is written: the store may go */
	if (nblock++ % 2 == 1) {
		csvio_keep_clear(store);
		CHECK_EQ_I(csvio_keep_bytes(store), 0);
		memset(kept, 0, sizeof(kept));
	}
	findcols(t, col);
	for (k = 0; k < NKEY; k++)
		first[k] = SIZE_MAX;
	for (r = 0; r < t->nrows; r++) {
		k = keyof(t, r);
		if (k % 2 == 0 && kept[k] != NULL)
			csvio_setkept(t, r, col, NSET, kept[k]);
		else if (k % 2 == 1 && first[k] != SIZE_MAX)
			csvio_setfrom(t, r, first[k], col, NSET);
		else {
			setcells(t, r, col, k);
			if (k % 2 == 0)
				kept[k] = csvio_keep(store, t, r, col, NSET);
			first[k] = r;
		}
	}
	return 0;
}

/*
 * Every row of a block takes column c of the block's first row, its own
 * field as read: csvio_setfrom copies such a field (its line is the
 * first row's), and the rows' lines as read no longer stand for c.
 */
static long starts[4096];	/* each block's first line */
static size_t nstarts;

static int
fromlinefn(void *arg, struct table *t, const struct table **res)
{
	size_t r, col[1];

	(void)arg;
	*res = t;
	col[0] = 2;	/* c, as read */
	if (t->nrows > 0 && nstarts < sizeof(starts) / sizeof(starts[0]))
		starts[nstarts++] = csvio_line(t, 0);
	for (r = 1; r < t->nrows; r++)
		csvio_setfrom(t, r, 0, col, 1);
	return 0;
}

static char *
tmpfile_with(const char *s, size_t n)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/t_csv_keepXXXXXX");
	if ((fd = mkstemp(path)) < 0 || write(fd, s, n) != (ssize_t)n)
		abort();
	close(fd);
	return path;
}

static char *
whole(const char *s, size_t len, int from, size_t *n)
{
	struct table t;
	size_t r, col[NSET];
	char *out;

	CHECK_EQ_I(check_readmem(s, len, "t.csv", &t), 0);
	if (from) {
		size_t i = 0, src = 0;

		for (r = 0; r < t.nrows; r++) {
			while (i < nstarts && starts[i] <= csvio_line(&t, r))
				src = (size_t)(starts[i++] - 2);
			if (r != src)
				csvio_set(&t, r, 2, csvio_get(&t, src, 2));
		}
	} else {
		findcols(&t, col);
		for (r = 0; r < t.nrows; r++)
			setcells(&t, r, col, keyof(&t, r));
	}
	out = check_written(&t, n);
	csvio_free(&t);
	return out;
}

/*
 * The file path (text s[0..len)) streamed in blocks through the stage fn
 * writes what whole(s, len, from) writes.
 */
static void
same(char *path, int (*fn)(void *, struct table *, const struct table **),
    const char *s, size_t len, int from)
{
	size_t na, nb;
	char *a = check_streamed(path, 4096, fn, &na);
	char *b = whole(s, len, from, &nb);

	CHECK(na == nb && memcmp(a, b, na) == 0);
	free(a);
	free(b);
}

int
main(void)
{
	char *s = NULL, *path;
	size_t len = 0;
	FILE *fp = open_memstream(&s, &len);
	int r;

	/* about 480 KiB: a block a reader buffer of 64 KiB */
	fprintf(fp, "k,b,c\n");
	for (r = 0; r < 20000; r++)
		fprintf(fp, "%d,orig%d,c%d-%d\n", (int)rnd(0, 99), r, r, r % 7);
	fclose(fp);
	path = tmpfile_with(s, len);
	store = csvio_keep_new();
	same(path, keepfn, s, len, 0);
	CHECK(nblock > 4);
	same(path, fromlinefn, s, len, 1);
	CHECK(nstarts > 4);
	csvio_keep_free(store);
	unlink(path);
	free(s);
	return CHECK_DONE();
}
