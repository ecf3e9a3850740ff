/*
 * Names to indices: one open-addressing index over strings the caller
 * keeps (a table's columns, a model's tensors, candidate ids), so that a
 * lookup is one hash and, mostly, one compare.  A slot holds the name
 * and the hash's top bits beside the index: a probe reads the slot
 * alone and compares names only where those bits agree, which matters
 * once the names no longer fit the caches (a 100k-node graph).
 */
#ifndef PF_NAMEIX_H
#define PF_NAMEIX_H

#include <stddef.h>
#include <stdint.h>

struct nameix_slot {
	const char	*name;		/* the caller's */
	uint32_t	 idx;		/* index + 1; 0: empty */
	uint32_t	 tag;		/* the hash's top 32 bits */
};

/* A zeroed index is empty and ready. */
struct nameix {
	struct nameix_slot *slot;
	size_t		 cap;		/* slots: a power of two, or 0 */
	size_t		 n;		/* names held */
};

/* Indices are below NAMEIX_MAX (a slot keeps index + 1 in 32 bits). */
#define NAMEIX_MAX	((size_t)UINT32_MAX - 1)

/*
 * The hash of s the index uses, for a caller that looks a name up more
 * than once or deals names out by it: its low bits place a name, its
 * top 32 are the slot's tag.
 */
uint64_t nameix_hash(const char *s);
/* The index kept under name, or -1. */
long nameix_find(const struct nameix *x, const char *name);
/* nameix_find with name's nameix_hash hv. */
long nameix_findh(const struct nameix *x, const char *name, uint64_t hv);
/*
 * Keep idx (below NAMEIX_MAX) under name unless name is there: -1 when
 * it was added, else the index it has (which is kept).  name (hash hv)
 * must stay valid and unchanged while x holds it.
 */
long nameix_addh(struct nameix *x, const char *name, uint64_t hv, size_t idx);
/* nameix_addh with name's hash. */
long nameix_add(struct nameix *x, const char *name, size_t idx);
/* Room for n names in all without growing. */
void nameix_reserve(struct nameix *x, size_t n);
/*
 * Forget every name.  A table far larger than the names it held is
 * given back, so clearing costs what filling did and the memory is that
 * of the recent fill.
 */
void nameix_clear(struct nameix *x);
/* Free the slots; x is empty again. */
void nameix_free(struct nameix *x);

#endif
