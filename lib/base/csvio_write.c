/*
 * CSV tables, the writing side: rows assembled into a buffer and written
 * in blocks, held until a size so that a failing tool leaves stdout empty,
 * with RFC 4180 quoting only where a field needs it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvio.h"
#include "csvio_arena.h"
#include "diag.h"
#include "xalloc.h"

/*
 * Output assembled a row at a time and written in blocks of OUTBLK, or,
 * while held, kept until it passes hold bytes.
 */
struct table_out {
	FILE	*fp;
	char	*b;
	size_t	 n, cap;
	size_t	 hold;
	int	 streaming;	/* the hold is over */
	int	 wrote;		/* part of the output reached fp */
	int	 err;
};

#define OUTBLK	65536

/* A block out. */
static void
wflush(struct table_out *w)
{
	if (w->n > 0 && !w->err) {
		w->wrote = 1;
		if (fwrite(w->b, 1, w->n, w->fp) != w->n)
			w->err = 1;
	}
	w->n = 0;
}

/* Room for n more bytes: the buffer flushed or grown. */
static void
grow(struct table_out *w, size_t n)
{
	if (w->streaming && w->n > 0) {
		wflush(w);
		if (w->cap >= n)
			return;
	}
	while (w->cap - w->n < n)
		w->cap = w->cap < OUTBLK ? OUTBLK : 2 * w->cap;
	w->b = xreallocarray(w->b, w->cap, 1);
}

static inline void
room(struct table_out *w, size_t n)
{
	if (w->cap - w->n < n)
		grow(w, n);
}

/* The bytes that end an unquoted field's scan: NUL and what needs quotes. */
static const unsigned char special[256] = {
	[0] = 1, [','] = 1, ['"'] = 1, ['\r'] = 1, ['\n'] = 1
};
/* What libcsv trims off an unquoted field's ends: kept by quoting. */
static const unsigned char blank[256] = { [' '] = 1, ['\t'] = 1 };

void
csvio_setscan(struct table *t, size_t row, size_t col, const char *s,
    size_t len)
{
	size_t i;
	int plain = len == 0 || (!blank[(unsigned char)s[0]] &&
	    !blank[(unsigned char)s[len - 1]]);

	for (i = 0; plain && i < len; i++)
		plain = !special[(unsigned char)s[i]];
	csvio_touch(t, row, col);
	t->cells[row * t->stride + col] = csvio_arenadup(t, s, len, plain);
}

/*
 * A field, after a comma when sep, RFC 4180-quoted where it needs it
 * (csv_write's quoting).
 */
static void
putfield(struct table_out *w, const char *s, int sep)
{
	size_t len, i, k, avail;
	char *d;
	int q;

	room(w, 64);
	d = w->b + w->n;
	if (sep) {
		*d++ = ',';
		w->n++;
	}
	/* copied as it is scanned: most fields are a few plain bytes */
	avail = w->cap - w->n;
	for (i = 0; i < avail && !special[(unsigned char)s[i]]; i++)
		d[i] = s[i];
	if (i < avail && s[i] == '\0' &&
	    (i == 0 || (!blank[(unsigned char)s[0]] &&
	    !blank[(unsigned char)s[i - 1]]))) {
		w->n += i;
		return;
	}
	len = i + strlen(s + i);
	for (q = 0; i < len; i++)
		if (special[(unsigned char)s[i]])
			q = 1;
	if (len > 0 && (blank[(unsigned char)s[0]] ||
	    blank[(unsigned char)s[len - 1]]))
		q = 1;
	room(w, 2 * len + 3);
	if (!q) {
		memcpy(w->b + w->n, s, len);
		w->n += len;
		return;
	}
	k = w->n;
	w->b[k++] = '"';
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			w->b[k++] = '"';
		w->b[k++] = s[i];
	}
	w->b[k++] = '"';
	w->n = k;
}

/* A row's end: a held output past its hold starts streaming. */
static void
endrow(struct table_out *w)
{
	room(w, 1);
	w->b[w->n++] = '\n';
	if (!w->streaming && w->n > w->hold)
		w->streaming = 1;
	if (w->streaming && w->n >= OUTBLK)
		wflush(w);
}

/*
 * Cells c.. of a row that are the input's own fields, in its line's text
 * (table rowtext): no field of a clean line needs quotes, and those of
 * one run of columns lie one after another, so the run is copied in one
 * piece, the NULs between its fields made commas again.  Returns the
 * column after the run.
 */
static size_t
putrun(struct table_out *w, const char *const *cell, size_t c, size_t ncols,
    uintptr_t lo, size_t len)
{
	const char *s = cell[c], *prev = s, *x;
	/* the line from s to its end, of which the run keeps the start */
	size_t e, n = (size_t)(lo + len - 1 - (uintptr_t)s);
	char *d;

	room(w, n + 1);
	d = w->b + w->n;
	if (c > 0)
		*d++ = ',';
	memcpy(d, s, n);
	/* (prev and x locals: the byte stores may alias the cells) */
	for (e = c + 1; e < ncols && (uintptr_t)(x = cell[e]) - lo < len &&
	    x > prev; e++) {
		d[x - s - 1] = ',';
		prev = x;
	}
	w->n += (c > 0) + (size_t)(prev - s) + strlen(prev);
	return e;
}

static void
putrow(struct table_out *w, const struct table *t, size_t r)
{
	const char *const *cell = &t->cells[r * t->stride];
	const char *s;
	size_t c = 0, i, k, len = 0;
	uintptr_t lo = 0;
	char *d;

	if (t->rowtext != NULL && t->rowtext[r] != NULL) {
		lo = (uintptr_t)t->rowtext[r];
		len = t->rowlen[r];
		if ((c = t->rowkeep[r]) > 0) {
			/*
			 * the line's columns up to the first set anew, as
			 * read: to its last byte, or to the end of the field
			 * before that column (a cell still in rowtext)
			 */
			k = c == t->nraw ? len - 1 : (size_t)(cell[c - 1] -
			    t->rowtext[r]) + strlen(cell[c - 1]);
			room(w, k);
			memcpy(w->b + w->n, t->rowtext[r] - (len - 1), k);
			w->n += k;
		}
	}
	for (; c < t->ncols; c++) {
		if ((uintptr_t)cell[c] - lo < len) {
			c = putrun(w, cell, c, t->ncols, lo, len) - 1;
			continue;
		}
		/* NULL: an empty cell (csvio_get) */
		if ((s = cell[c]) == NULL) {
			room(w, 1);
			if (c > 0)
				w->b[w->n++] = ',';
			continue;
		}
		/* text known plain: its length is the byte before it */
		if ((k = (unsigned char)s[-1]) != TEXT_SCAN) {
			room(w, k + 1);
			d = w->b + w->n;
			if (c > 0)
				*d++ = ',';
			csvio_copyshort(d, s, k);
			w->n += (c > 0) + k;
			continue;
		}
		/*
		 * The common field, short and plain, copied here; any other
		 * is written again from the start by putfield.
		 */
		room(w, 64);
		d = w->b + w->n;
		k = c > 0;
		d[0] = ',';
		for (i = 0; i < 62 && !special[(unsigned char)s[i]]; i++)
			d[k + i] = s[i];
		if (s[i] == '\0' && (i == 0 || (!blank[(unsigned char)s[0]] &&
		    !blank[(unsigned char)s[i - 1]])))
			w->n += k + i;
		else
			putfield(w, s, c > 0);
	}
	endrow(w);
}

struct table_out *
csvio_out_open(FILE *fp, size_t hold)
{
	struct table_out *w = xcalloc(1, sizeof(*w));

	csvio_pipe_grow(fp);
	w->fp = fp;
	w->hold = hold;
	w->streaming = hold == 0;
	return w;
}

int
csvio_out_header(struct table_out *w, const struct table *t)
{
	size_t c;

	for (c = 0; c < t->ncols; c++)
		putfield(w, t->cols[c], c > 0);
	endrow(w);
	return w->err ? -1 : 0;
}

int
csvio_out_rows(struct table_out *w, const struct table *t)
{
	size_t r;

	/* Stop at the first failure, errno still telling why. */
	for (r = 0; r < t->nrows && !w->err; r++)
		putrow(w, t, r);
	return w->err ? -1 : 0;
}

int
csvio_out_close(struct table_out *w, int ok)
{
	int rc = 0;

	if (ok) {
		wflush(w);
		rc = w->err || ferror(w->fp) ? -1 : 0;
	}
	/* a failed stage's output, part of it out already, is cut */
	if (!ok && w->wrote && !w->err)
		(void)fputc('"', w->fp);
	free(w->b);
	free(w);
	return rc;
}

int
csvio_write(FILE *fp, const struct table *t)
{
	struct table_out *w = csvio_out_open(fp, 0);

	(void)csvio_out_header(w, t);
	(void)csvio_out_rows(w, t);
	return csvio_out_close(w, 1);
}
