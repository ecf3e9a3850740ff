/*
 * Names to indices (nameix.h): linear probing, at most half full.
 */
#include <stdlib.h>
#include <string.h>

#include "nameix.h"
#include "xalloc.h"

#define NAMEIX_MIN	16

/*
 * djb2 over the bytes, then mixed (the 64-bit finalizer of MurmurHash3):
 * the index keeps the low bits, and names that differ in their last
 * digits ("t123", "t124") leave djb2's low bits in long runs, so the
 * probes of a lookup grew with the graph (95 a lookup on a 10k-node
 * chain, a fifth of onnx2layers' instructions).
 */
uint64_t
nameix_hash(const char *s)
{
	uint64_t h = 5381;

	while (*s != '\0')
		h = h * 33 + (unsigned char)*s++;
	h ^= h >> 33;
	h *= UINT64_C(0xff51afd7ed558ccd);
	h ^= h >> 33;
	h *= UINT64_C(0xc4ceb9fe1a85ec53);
	h ^= h >> 33;
	return h;
}

long
nameix_findh(const struct nameix *x, const char *name, uint64_t hv)
{
	uint32_t tag = (uint32_t)(hv >> 32);
	size_t h, mask = x->cap - 1;

	if (x->n == 0)
		return -1;
	for (h = (size_t)hv & mask;; h = (h + 1) & mask) {
		const struct nameix_slot *sl = &x->slot[h];

		if (sl->idx == 0)
			return -1;
		if (sl->tag == tag && strcmp(sl->name, name) == 0)
			return (long)sl->idx - 1;
	}
}

long
nameix_find(const struct nameix *x, const char *name)
{
	return x->n == 0 ? -1 : nameix_findh(x, name, nameix_hash(name));
}

/* Slot for a name of tag tag at hv's place: its own, or the free one. */
static struct nameix_slot *
probe(const struct nameix *x, const char *name, uint64_t hv)
{
	uint32_t tag = (uint32_t)(hv >> 32);
	size_t h, mask = x->cap - 1;
	struct nameix_slot *sl;

	for (h = (size_t)hv & mask;; h = (h + 1) & mask) {
		sl = &x->slot[h];
		if (sl->idx == 0 || (sl->tag == tag &&
		    strcmp(sl->name, name) == 0))
			return sl;
	}
}

/* Lay the slots out anew at cap slots (room for every name held). */
static void
relay(struct nameix *x, size_t cap)
{
	struct nameix_slot *old = x->slot;
	size_t i, ocap = x->cap;

	x->slot = xcalloc(cap, sizeof(*x->slot));
	x->cap = cap;
	for (i = 0; i < ocap; i++)
		if (old[i].idx != 0)
			*probe(x, old[i].name, nameix_hash(old[i].name)) =
			    old[i];
	free(old);
}

void
nameix_reserve(struct nameix *x, size_t n)
{
	size_t cap = x->cap ? x->cap : NAMEIX_MIN;

	while (cap / 2 < n)
		cap *= 2;
	if (cap != x->cap)
		relay(x, cap);
}

long
nameix_addh(struct nameix *x, const char *name, uint64_t hv, size_t idx)
{
	struct nameix_slot *sl;

	if (2 * (x->n + 1) > x->cap)
		nameix_reserve(x, x->n + 1);
	sl = probe(x, name, hv);
	if (sl->idx != 0)
		return (long)sl->idx - 1;
	sl->name = name;
	sl->idx = (uint32_t)(idx + 1);
	sl->tag = (uint32_t)(hv >> 32);
	x->n++;
	return -1;
}

long
nameix_add(struct nameix *x, const char *name, size_t idx)
{
	return nameix_addh(x, name, nameix_hash(name), idx);
}

void
nameix_clear(struct nameix *x)
{
	if (x->cap > NAMEIX_MIN && x->n < x->cap / 16) {
		size_t cap = NAMEIX_MIN;

		while (cap / 2 < x->n)
			cap *= 2;
		free(x->slot);
		x->slot = xcalloc(cap, sizeof(*x->slot));
		x->cap = cap;
	} else if (x->cap > 0)
		memset(x->slot, 0, x->cap * sizeof(*x->slot));
	x->n = 0;
}

void
nameix_free(struct nameix *x)
{
	free(x->slot);
	memset(x, 0, sizeof(*x));
}
