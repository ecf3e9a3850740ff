/*
 * Memo (memo.h): open addressing over entries of key and value bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memo.h"
#include "xalloc.h"

struct memo {
	size_t	 keysize, valsize, entsize;
	size_t	 cap, n;	/* slots (a power of two), entries */
	size_t	*slot;		/* entry index + 1, 0 = free */
	char	*ent;		/* n entries: key bytes, then value bytes */
	size_t	*hash;		/* of each entry */
};

/* A hash of n bytes, eight at a time. */
static size_t
hashbytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 14695981039346656037u, w;

	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15u;
		h ^= h >> 32;
	}
	while (n-- > 0)
		h = (h ^ *s++) * 1099511628211u;
	return (size_t)(h ^ h >> 29);
}

struct memo *
memo_new(size_t keysize, size_t valsize)
{
	struct memo *m = xcalloc(1, sizeof(*m));

	m->keysize = keysize;
	m->valsize = valsize;
	m->entsize = keysize + valsize;
	return m;
}

static size_t
find(const struct memo *m, const void *key, size_t h)
{
	size_t i, k;

	for (i = h & (m->cap - 1); (k = m->slot[i]) != 0;
	    i = (i + 1) & (m->cap - 1))
		if (m->hash[k - 1] == h &&
		    memcmp(m->ent + (k - 1) * m->entsize, key, m->keysize) == 0)
			break;
	return i;
}

/* The entry index + 1 of key, 0 when it has none. */
static size_t
lookup(const struct memo *m, const void *key)
{
	return m->n == 0 ? 0 : m->slot[find(m, key, hashbytes(key,
	    m->keysize))];
}

const void *
memo_get(const struct memo *m, const void *key)
{
	size_t k = lookup(m, key);

	return k == 0 ? NULL : m->ent + (k - 1) * m->entsize + m->keysize;
}

void *
memo_ref(struct memo *m, const void *key)
{
	size_t k = lookup(m, key);

	return k == 0 ? NULL : m->ent + (k - 1) * m->entsize + m->keysize;
}

void
memo_put(struct memo *m, const void *key, const void *val)
{
	size_t h = hashbytes(key, m->keysize), i, k;

	if (m->n == MEMO_MAX) {
		m->n = 0;
		memset(m->slot, 0, m->cap * sizeof(*m->slot));
	}
	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;

		free(m->slot);
		m->slot = xcalloc(cap, sizeof(*m->slot));
		m->cap = cap;
		m->ent = xreallocarray(m->ent, cap / 2, m->entsize);
		m->hash = xreallocarray(m->hash, cap / 2, sizeof(*m->hash));
		for (k = 0; k < m->n; k++) {
			for (i = m->hash[k] & (cap - 1); m->slot[i] != 0;
			    i = (i + 1) & (cap - 1))
				;
			m->slot[i] = k + 1;
		}
	}
	i = find(m, key, h);
	memcpy(m->ent + m->n * m->entsize, key, m->keysize);
	memcpy(m->ent + m->n * m->entsize + m->keysize, val, m->valsize);
	m->hash[m->n] = h;
	m->slot[i] = ++m->n;
}

void
memo_free(struct memo *m)
{
	if (m == NULL)
		return;
	free(m->slot);
	free(m->ent);
	free(m->hash);
	free(m);
}
