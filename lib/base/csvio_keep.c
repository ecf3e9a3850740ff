/*
 * Cell texts kept for rows to come (csvio.h, csvio_keep): a store whose
 * text is carved from the arena of a table of its own, so that it lives
 * apart from the blocks whose rows take it; and a row's cells given to
 * another row of its table (csvio_setfrom).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csvio.h"
#include "csvio_arena.h"
#include "xalloc.h"

struct csvio_keep {
	struct table	t;	/* no columns: its arena only */
	size_t		bytes;	/* kept since the last clear */
};

struct csvio_keep *
csvio_keep_new(void)
{
	struct csvio_keep *k = xcalloc(1, sizeof(*k));

	csvio_init(&k->t, NULL);
	return k;
}

/* Whether s is a field of row's own line (csvio.h, rowtext). */
static int
inline_field(const struct table *t, size_t row, const char *s)
{
	return t->rowtext != NULL && t->rowtext[row] != NULL &&
	    (uintptr_t)s - (uintptr_t)t->rowtext[row] < t->rowlen[row];
}

void
csvio_setfrom(struct table *t, size_t row, size_t from, const size_t *col,
    size_t n)
{
	const char **cell = &t->cells[row * t->stride];
	const char *const *src = &t->cells[from * t->stride];
	const char *s;
	size_t i;

	for (i = 0; i < n; i++) {
		s = src[col[i]];
		/* a field of from's line is no text of the arena: a copy */
		if (s != NULL && inline_field(t, from, s))
			s = csvio_arenadup(t, s, strlen(s), 1);
		csvio_touch(t, row, col[i]);
		cell[col[i]] = s;
	}
}

size_t
csvio_cellkey(const struct table *t, size_t row, const size_t *col,
    size_t n, char *buf, size_t size)
{
	const char *const *cell = &t->cells[row * t->stride];
	const char *s, *e;
	uintptr_t lo = 0;
	size_t i, j, k = 0, len, rl = 0;

	if (t->rowtext != NULL && t->rowtext[row] != NULL) {
		lo = (uintptr_t)t->rowtext[row];
		rl = t->rowlen[row];
	}
	for (i = 0; i < n; i = j) {
		j = i + 1;
		if ((s = cell[col[i]]) == NULL)
			s = "";
		else if ((uintptr_t)s - lo < rl) {
			/*
			 * A field of the row's line is the line's field of its
			 * column (csvio.h, rowtext), NUL-ended: the fields of
			 * the columns after it that are still the line's own
			 * follow it there, each after its NUL.
			 */
			while (j < n && col[j] == col[j - 1] + 1 &&
			    (e = cell[col[j]]) != NULL && (uintptr_t)e - lo < rl)
				j++;
			e = cell[col[j - 1]];
			len = (size_t)(e - s) + strlen(e) + 1;
			if (len > size - k)
				return 0;
			memcpy(buf + k, s, len);
			k += len;
			continue;
		}
		len = strlen(s) + 1;
		if (len > size - k)
			return 0;
		memcpy(buf + k, s, len);
		k += len;
	}
	return k;
}

const char *const *
csvio_keep(struct csvio_keep *k, const struct table *t, size_t row,
    const size_t *col, size_t n)
{
	const char *const *cell = &t->cells[row * t->stride];
	const char **kept;
	uintptr_t lo = 0;
	size_t i, len, rl = 0, need = n * sizeof(*kept) + sizeof(*kept);
	char *p;

	if (t->rowtext != NULL && t->rowtext[row] != NULL) {
		lo = (uintptr_t)t->rowtext[row];
		rl = t->rowlen[row];
	}
	/* the pointers first, aligned for them */
	p = csvio_arena(&k->t, need);
	kept = (const char **)(void *)(p + (sizeof(*kept) -
	    (uintptr_t)p % sizeof(*kept)) % sizeof(*kept));
	k->bytes += need;
	for (i = 0; i < n; i++) {
		const char *s = cell[col[i]];

		if (s == NULL || *s == '\0') {
			kept[i] = NULL;	/* empty, as csvio_get reads it */
			continue;
		}
		len = strlen(s);
		/*
		 * A field of the row's line needs no quotes (csvio_read.c);
		 * any other cell's length byte says whether it does.
		 */
		kept[i] = csvio_arenadup(&k->t, s, len, (uintptr_t)s - lo < rl ||
		    (unsigned char)s[-1] != TEXT_SCAN);
		k->bytes += len + 2;
	}
	return kept;
}

void
csvio_setkept(struct table *t, size_t row, const size_t *col, size_t n,
    const char *const *kept)
{
	const char **cell = &t->cells[row * t->stride];
	size_t i;

	for (i = 0; i < n; i++) {
		csvio_touch(t, row, col[i]);
		cell[col[i]] = kept[i];
	}
}

size_t
csvio_keep_bytes(const struct csvio_keep *k)
{
	return k->bytes;
}

void
csvio_keep_clear(struct csvio_keep *k)
{
	csvio_droprows(&k->t);
	k->bytes = 0;
}

void
csvio_keep_free(struct csvio_keep *k)
{
	if (k == NULL)
		return;
	csvio_free(&k->t);
	free(k);
}
