/*
 * Results of a pure function kept by the bytes of its argument: the cost
 * tools cost many rows of one geometry (a layer's base and gpu pieces, the
 * layers of a repeated block), and look a row up before costing it.
 */
#ifndef PF_MEMO_H
#define PF_MEMO_H

#include <stddef.h>

struct memo;

/* A memo of values of valsize bytes, keys of keysize bytes. */
struct memo *memo_new(size_t keysize, size_t valsize);
/* The value kept under key, or NULL. */
const void *memo_get(const struct memo *m, const void *key);
/* memo_get whose value the caller may change (until the next memo_put). */
void *memo_ref(struct memo *m, const void *key);
/*
 * Keep a copy of val under key (not there yet).  Past MEMO_MAX entries
 * the memo starts again empty, so its memory stays bounded.
 */
void memo_put(struct memo *m, const void *key, const void *val);
void memo_free(struct memo *m);

#define MEMO_MAX	65536

#endif
