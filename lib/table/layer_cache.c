/*
 * layer_get through a cache of the geometries read before (layer.h,
 * layer_get_cached): a memo from the texts of a row's geometry cells
 * (csvio_cellkey) to the layer layer_get made of them.
 */
#include <stdlib.h>
#include <string.h>

#include "layer.h"
#include "memo.h"
#include "xalloc.h"

/* The texts of a key at most: a longer one is read through layer_get. */
#define LAYER_KEY	160

/* struct layer_cols is a column per cell of layer_seen, the id first. */
_Static_assert(sizeof(struct layer_cols) == LAYER_SEEN_CELLS * sizeof(long),
    "struct layer_cols holds a long per geometry column");

struct layer_cache {
	struct memo	 *m;		/* key texts -> struct layer */
	struct layer_cols lc;		/* the layout of its keys */
	size_t		  col[LAYER_SEEN_CELLS];	/* the key's columns */
	size_t		  ncol;
	int		  have;		/* lc and col are set */
	struct layer_seen seen;		/* the rows not found */
	char		  key[LAYER_KEY];
};

struct layer_cache *
layer_cache_new(void)
{
	struct layer_cache *c = xcalloc(1, sizeof(*c));

	c->m = memo_new(LAYER_KEY, sizeof(struct layer));
	return c;
}

void
layer_cache_free(struct layer_cache *c)
{
	if (c == NULL)
		return;
	memo_free(c->m);
	free(c);
}

/*
 * The key's columns for layout lc: every geometry column of the table but
 * the id, in the order of the table (so that the line's fields go into a
 * key in runs); the memo starts again, its keys being of another layout.
 */
static void
layout(struct layer_cache *c, const struct layer_cols *lc)
{
	long f[LAYER_SEEN_CELLS];
	size_t i, j, x;

	memcpy(f, lc, sizeof(f));
	c->ncol = 0;
	for (i = 0; i < LAYER_SEEN_CELLS; i++)
		if (f[i] >= 0 && f[i] != lc->id)
			c->col[c->ncol++] = (size_t)f[i];
	for (i = 1; i < c->ncol; i++)
		for (j = i; j > 0 && c->col[j - 1] > c->col[j]; j--) {
			x = c->col[j];
			c->col[j] = c->col[j - 1];
			c->col[j - 1] = x;
		}
	memcpy(&c->lc, lc, sizeof(*lc));
	memo_free(c->m);
	c->m = memo_new(LAYER_KEY, sizeof(struct layer));
	c->seen.have = 0;
	c->have = 1;
}

int
layer_get_cached(const struct table *t, const struct layer_cols *lc,
    size_t row, struct layer *l, struct layer_cache *c)
{
	const struct layer *hit;
	int64_t id;
	size_t n;

	if (!c->have || memcmp(&c->lc, lc, sizeof(*lc)) != 0)
		layout(c, lc);
	/*
	 * The id first, as layer_get reads it: a bad one is its first report,
	 * and a key without it holds every layer of one geometry.
	 */
	if (csvio_parse_int64(csvio_get(t, row, (size_t)lc->id), &id) < 0 || id < 0 ||
	    (n = csvio_cellkey(t, row, c->col, c->ncol, c->key,
	    sizeof(c->key))) == 0)
		return layer_get_seen(t, lc, row, l, &c->seen);
	memset(c->key + n, 0, sizeof(c->key) - n);
	if ((hit = memo_get(c->m, c->key)) != NULL) {
		memcpy(l, hit, sizeof(*l));
		l->id = id;
		return 0;
	}
	if (layer_get_seen(t, lc, row, l, &c->seen) < 0)
		return -1;
	memo_put(c->m, c->key, l);
	return 0;
}
