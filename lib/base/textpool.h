/*
 * Strings kept until one release: copies of many short texts (cell
 * texts, candidate ids) carved from large chunks instead of an
 * allocation each, all freed together.
 */
#ifndef PF_TEXTPOOL_H
#define PF_TEXTPOOL_H

#include <stddef.h>

struct textchunk;

/* A zeroed pool is empty and ready; chunk 0 means TEXTPOOL_CHUNK. */
struct textpool {
	struct textchunk *head;		/* newest first */
	size_t		  chunk;	/* bytes a chunk holds */
};

#define TEXTPOOL_CHUNK	(256 * 1024)

/* A copy of s, valid until textpool_free (a long one gets its own chunk). */
char *textpool_dup(struct textpool *p, const char *s);
/* Every chunk freed; p is empty again (its chunk size kept). */
void textpool_free(struct textpool *p);
/*
 * Every string forgotten, the newest chunk kept for the next ones: a
 * pool emptied and filled again and again costs no allocation.
 */
void textpool_clear(struct textpool *p);

#endif
