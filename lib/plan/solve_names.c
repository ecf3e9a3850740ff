/*
 * A set of names (solve_names.h): the copies in a text pool, the index
 * over them.
 */
#include <stdlib.h>

#include "nameix.h"
#include "solve_names.h"
#include "textpool.h"
#include "xalloc.h"

struct name_set {
	struct textpool	pool;
	struct nameix	ix;
};

void
solve_names_clear(struct name_set *m)
{
	nameix_clear(&m->ix);
	textpool_clear(&m->pool);
}

int
solve_names_add(struct name_set *m, const char *name)
{
	uint64_t hv = nameix_hash(name);

	if (nameix_findh(&m->ix, name, hv) >= 0)
		return 1;
	nameix_addh(&m->ix, textpool_dup(&m->pool, name), hv, m->ix.n);
	return 0;
}

struct name_set *
solve_names_new(void)
{
	return xcalloc(1, sizeof(struct name_set));
}

void
solve_names_free(struct name_set *m)
{
	if (m == NULL)
		return;
	nameix_free(&m->ix);
	textpool_free(&m->pool);
	free(m);
}
