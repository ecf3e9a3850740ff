/*
 * What csvio's modules share of a table's insides: the arena its cells'
 * text is carved from, making rows, the header and the column index, a
 * cell set anew, and the reader's inner entries.  Not for other modules:
 * they use csvio.h.
 */
#ifndef PF_CSVIO_ARENA_H
#define PF_CSVIO_ARENA_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "csvio.h"

struct table_chunk {
	struct table_chunk *next;
	size_t	used, cap;
	char	data[];
};

#define TABLE_CHUNK	(256 * 1024)

/* The text of every empty cell is csvio_empty + 1 (after its length byte). */
extern const char csvio_empty[2];

/* n bytes of t's arena in a new chunk (csvio_arena's slow path). */
char *csvio_arena_new(struct table *t, size_t n);
/* Free the chunks of list c, keeping up to 8 of TABLE_CHUNK bytes as spares. */
void csvio_freechunks(struct table *t, struct table_chunk *c);
/*
 * A new row, its cells not set: a row's cells past ncols (the spare
 * stride) are never read, and csvio_addcol clears a column it adds.
 */
size_t csvio_newrow(struct table *t);
/*
 * The header's n fields rec (read at line) as t's columns: 0, or -1
 * after reporting a byte-order mark, an empty or a repeated name.
 */
int csvio_header(struct table *t, const char *const *rec, size_t n,
    long line);

/*
 * Cell (row, col) is about to be set anew: the line the row kept as
 * read (rowkeep) stands for the columns before it at most.
 */
static inline void
csvio_touch(struct table *t, size_t row, size_t col)
{
	if (col < t->rowkeep[row])
		t->rowkeep[row] = col;
}

/*
 * From the next row on, r keeps each clean line as read beside its cells
 * (rowkeep): csvio_stream does so once a stage gives back the block it
 * read as its result.
 */
void csvio_reader_keepraw(struct table_reader *r);
/*
 * csvio_reader_open on an open stream, named fname in diagnostics and
 * closed by csvio_reader_close when own.
 */
struct table_reader *csvio_reader_fp(FILE *fp, int own, const char *fname,
    size_t block, const char *group);

/*
 * memcpy(d, s, n) for the few bytes of a number or a short field, in
 * moves of fixed size (a library call costs more than the copy): two
 * that overlap when n is from 4 to 16, none reading outside s[0..n).
 */
static inline void
csvio_copyshort(char *d, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n > 16)
		memcpy(d, s, n);
	else if (n > 0) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

/* n bytes of t's arena. */
static inline char *
csvio_arena(struct table *t, size_t n)
{
	struct table_chunk *c = t->arena;

	if (c == NULL || c->cap - c->used < n)
		return csvio_arena_new(t, n);
	c->used += n;
	return c->data + c->used - n;
}

/*
 * Room for a cell's text of len bytes in t's arena, NUL-terminated, after
 * a length byte for the writer (csvio_write.c): len when the caller knows
 * the text needs no quotes and len < TEXT_SCAN, else TEXT_SCAN.  Every
 * cell's text but the fields of a row's own line (rowtext) is made here.
 */
static inline char *
csvio_celltext(struct table *t, size_t len, int plain)
{
	char *p = csvio_arena(t, len + 2);

	p[0] = (char)(unsigned char)(plain && len < TEXT_SCAN ? len : TEXT_SCAN);
	p[len + 1] = '\0';
	return p + 1;
}

/* A copy of s[0..len) as a cell's text (csvio_celltext). */
static inline const char *
csvio_arenadup(struct table *t, const char *s, size_t len, int plain)
{
	char *p;

	if (len == 0)
		return csvio_empty + 1;
	p = csvio_celltext(t, len, plain);
	csvio_copyshort(p, s, len);
	return p;
}

#endif
