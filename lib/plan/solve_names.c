/*
 * A set of names (solve_names.h).
 */
#include <stdlib.h>
#include <string.h>

#include "solve_names.h"
#include "xalloc.h"

struct name_set {
	size_t	*slot;		/* offset + 1 into names, 0 = free */
	size_t	*used;		/* the slots taken, n of them */
	size_t	 cap, n;
	char	*names;
	size_t	 len, room;
};

static size_t
candhash(const char *s)
{
	size_t h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

void
solve_names_clear(struct name_set *m)
{
	size_t i;

	/* a few names (a layer's candidates) in a large table: their slots */
	if (m->n < m->cap / 16)
		for (i = 0; i < m->n; i++)
			m->slot[m->used[i]] = 0;
	else if (m->cap > 0)
		memset(m->slot, 0, m->cap * sizeof(*m->slot));
	m->n = m->len = 0;
}

int
solve_names_add(struct name_set *m, const char *name)
{
	size_t h, i, k, len = strlen(name) + 1;

	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 1024, *slot;

		slot = xcalloc(cap, sizeof(*slot));
		for (i = 0; i < m->n; i++) {
			k = m->slot[m->used[i]];
			for (h = candhash(m->names + k - 1) & (cap - 1);
			    slot[h] != 0; h = (h + 1) & (cap - 1))
				;
			slot[h] = k;
			m->used[i] = h;
		}
		free(m->slot);
		m->slot = slot;
		m->cap = cap;
		m->used = xreallocarray(m->used, cap / 2, sizeof(*m->used));
	}
	for (h = candhash(name) & (m->cap - 1); (k = m->slot[h]) != 0;
	    h = (h + 1) & (m->cap - 1))
		if (strcmp(m->names + k - 1, name) == 0)
			return 1;
	if (m->room - m->len < len) {
		while (m->room - m->len < len)
			m->room = m->room ? 2 * m->room : 65536;
		m->names = xreallocarray(m->names, m->room, 1);
	}
	memcpy(m->names + m->len, name, len);
	m->slot[h] = m->len + 1;
	m->used[m->n++] = h;
	m->len += len;
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
	free(m->slot);
	free(m->used);
	free(m->names);
	free(m);
}
