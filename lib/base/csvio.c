/*
 * CSV tables: the table itself, its cells' arena, its columns (the
 * header's checks, column lookup) and cells.  Cell text is carved from
 * an arena per table, never allocated per cell.  Reading (libcsv,
 * blocks) is in csvio_read.c, writing in csvio_write.c, numbers
 * (formatting and the one rule for reading them) in csvio_num.c, whole
 * files and the loop of a row-wise stage in csvio_stream.c, pipe buffers
 * in csvio_pipe.c; what these modules share of the arena and the reader
 * is in csvio_arena.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvio.h"
#include "csvio_arena.h"
#include "diag.h"
#include "xalloc.h"

/*
 * The text of every empty cell, after its length byte (csvio_arenadup):
 * its text is csvio_empty + 1.
 */
const char csvio_empty[2] = "";

/* A chunk of TABLE_CHUNK bytes, from t's spares when it has one. */
static struct table_chunk *
newchunk(struct table *t, size_t cap)
{
	struct table_chunk *c;

	if (cap == TABLE_CHUNK && t->spare != NULL) {
		c = t->spare;
		t->spare = c->next;
	} else {
		c = xmalloc(sizeof(*c) + cap);
		c->cap = cap;
	}
	c->used = 0;
	return c;
}

char *
csvio_arena_new(struct table *t, size_t n)
{
	struct table_chunk *c = t->arena;
	size_t cap = n > TABLE_CHUNK / 4 ? n : TABLE_CHUNK;

	if (c != NULL && n > TABLE_CHUNK / 4) {
		/* A big field gets a chunk of its own, behind the current
		 * one, so the current one's room stays. */
		struct table_chunk *b = newchunk(t, cap);

		b->used = n;
		b->next = c->next;
		c->next = b;
		return b->data;
	}
	c = newchunk(t, cap);
	c->next = t->arena;
	t->arena = c;
	c->used += n;
	return c->data + c->used - n;
}

void
csvio_freechunks(struct table *t, struct table_chunk *c)
{
	struct table_chunk *next;
	size_t n = 0;

	for (next = t->spare; next != NULL; next = next->next)
		n++;
	for (; c != NULL; c = next) {
		next = c->next;
		if (c->cap == TABLE_CHUNK && n < 8) {
			c->next = t->spare;
			t->spare = c;
			n++;
		} else
			free(c);
	}
}

void
csvio_init(struct table *t, const char *fname)
{
	memset(t, 0, sizeof(*t));
	t->fname = xstrdup(fname != NULL ? fname : "<stdin>");
}

void
csvio_free(struct table *t)
{
	struct table_chunk *c, *next;
	size_t i;

	for (i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	for (c = t->arena; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	for (c = t->spare; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	free(t->cols);
	nameix_free(&t->colix);
	free(t->cells);
	free(t->line);
	free(t->rowtext);
	free(t->rowlen);
	free(t->rowkeep);
	free(t->fname);
	memset(t, 0, sizeof(*t));
}

int
csvio_header(struct table *t, const char *const *rec, size_t n, long line)
{
	struct nameix ix = { 0 };
	char **cols;
	size_t i;

	/* else it reads as part of the first column's name */
	if (n > 0 && strncmp(rec[0], "\xef\xbb\xbf", 3) == 0) {
		pf_errl(t->fname, line, "the header starts with a UTF-8 "
		    "byte-order mark: save the file without it");
		return -1;
	}
	cols = xcalloc(n, sizeof(*cols));
	for (i = 0; i < n; i++) {
		if (rec[i][0] == '\0') {
			pf_errl(t->fname, line, "empty column name in header");
			break;
		}
		cols[i] = xstrdup(rec[i]);
		if (nameix_add(&ix, cols[i], i) >= 0) {
			pf_errl(t->fname, line, "duplicate column '%s'",
			    rec[i]);
			break;
		}
	}
	if (i < n) {
		while (n-- > 0)
			free(cols[n]);
		free(cols);
		nameix_free(&ix);
		return -1;
	}
	t->cols = cols;
	t->colix = ix;
	t->ncols = t->nraw = n;
	/* Room for the columns a tool appends, without re-laying rows. */
	t->stride = t->ncols + 32;
	return 0;
}

long
csvio_col(const struct table *t, const char *name)
{
	return nameix_find(&t->colix, name);
}

size_t
csvio_addcol(struct table *t, const char *name)
{
	long have = csvio_col(t, name);
	const char **cells;
	size_t r, c, nc;

	if (have >= 0)
		return (size_t)have;
	nc = t->ncols + 1;
	t->cols = xreallocarray(t->cols, nc, sizeof(*t->cols));
	t->cols[t->ncols] = xstrdup(name);
	if (nc > t->stride) {
		/* Re-lay the rows with spare columns, so this stays rare. */
		size_t stride = 2 * nc + 8;

		cells = xcalloc((t->cap ? t->cap : 1), stride * sizeof(*cells));
		for (r = 0; r < t->nrows; r++)
			for (c = 0; c < t->ncols; c++)
				cells[r * stride + c] = t->cells[r * t->stride + c];
		free(t->cells);
		t->cells = cells;
		t->stride = stride;
	} else
		for (r = 0; r < t->nrows; r++)
			t->cells[r * t->stride + t->ncols] = NULL;
	nameix_add(&t->colix, t->cols[t->ncols], t->ncols);
	t->ncols = nc;
	return nc - 1;
}

int
csvio_need(const struct table *t, const char *const *names, long *idx)
{
	size_t i;

	for (i = 0; names[i] != NULL; i++) {
		idx[i] = csvio_col(t, names[i]);
		if (idx[i] < 0) {
			pf_errl(t->fname, 1, "missing column '%s'", names[i]);
			return -1;
		}
	}
	return 0;
}

int
csvio_append(struct table *dst, const struct table *src)
{
	size_t r, c, n;

	if (dst->ncols != src->ncols)
		goto bad;
	for (c = 0; c < src->ncols; c++)
		if (strcmp(dst->cols[c], src->cols[c]) != 0)
			goto bad;
	for (r = 0; r < src->nrows; r++) {
		n = csvio_addrow(dst);
		for (c = 0; c < src->ncols; c++)
			csvio_set(dst, n, c, csvio_get(src, r, c));
		dst->line[n] = src->line[r];
	}
	return 0;
bad:
	pf_errl(src->fname, 1, "columns differ from those of '%s'",
	    dst->fname);
	return -1;
}

void
csvio_droprows(struct table *t)
{
	struct table_chunk *old = t->arena;

	t->arena = NULL;
	t->nrows = 0;
	csvio_freechunks(t, old);
}

size_t
csvio_newrow(struct table *t)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->cells = xreallocarray(t->cells, t->cap,
		    (t->stride ? t->stride : 1) * sizeof(*t->cells));
		t->line = xreallocarray(t->line, t->cap, sizeof(*t->line));
		t->rowtext = xreallocarray(t->rowtext, t->cap,
		    sizeof(*t->rowtext));
		t->rowlen = xreallocarray(t->rowlen, t->cap,
		    sizeof(*t->rowlen));
		t->rowkeep = xreallocarray(t->rowkeep, t->cap,
		    sizeof(*t->rowkeep));
	}
	return t->nrows++;
}

size_t
csvio_addrow(struct table *t)
{
	size_t r = csvio_newrow(t);

	/* NULL cells read as empty. */
	memset(&t->cells[r * t->stride], 0, t->ncols * sizeof(*t->cells));
	t->line[r] = 0;
	t->rowtext[r] = NULL;
	t->rowkeep[r] = 0;
	return r;
}

void
csvio_set(struct table *t, size_t row, size_t col, const char *val)
{
	csvio_setn(t, row, col, val, strlen(val));
}

void
csvio_setn(struct table *t, size_t row, size_t col, const char *s,
    size_t len)
{
	csvio_touch(t, row, col);
	t->cells[row * t->stride + col] = csvio_arenadup(t, s, len, 0);
}

char *
csvio_setplain(struct table *t, size_t row, size_t col, size_t len)
{
	char *p = len > 0 ? csvio_celltext(t, len, 1) : (char *)NULL;

	csvio_touch(t, row, col);
	t->cells[row * t->stride + col] = p;
	return p;
}

void
csvio_setf(struct table *t, size_t row, size_t col, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	csvio_set(t, row, col, buf);
}
