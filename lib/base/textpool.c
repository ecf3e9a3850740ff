/*
 * Text pool (textpool.h): chunks of copied strings, newest first.
 */
#include <stdlib.h>
#include <string.h>

#include "textpool.h"
#include "xalloc.h"

struct textchunk {
	struct textchunk *next;
	size_t		  used, cap;
	char		  data[];
};

char *
textpool_dup(struct textpool *p, const char *s)
{
	size_t n = strlen(s) + 1, size = p->chunk ? p->chunk : TEXTPOOL_CHUNK;
	struct textchunk *c = p->head;
	char *d;

	if (c == NULL || c->cap - c->used < n) {
		size_t cap = n > size ? n : size;

		c = xcalloc(1, sizeof(*c) + cap);
		c->cap = cap;
		/* a long one's chunk goes second: the current one stays */
		if (n > size / 4 && p->head != NULL) {
			c->next = p->head->next;
			p->head->next = c;
		} else {
			c->next = p->head;
			p->head = c;
		}
	}
	d = c->data + c->used;
	memcpy(d, s, n);
	c->used += n;
	return d;
}

void
textpool_free(struct textpool *p)
{
	while (p->head != NULL) {
		struct textchunk *n = p->head->next;

		free(p->head);
		p->head = n;
	}
}

void
textpool_clear(struct textpool *p)
{
	struct textchunk *c = p->head;

	if (c == NULL)
		return;
	p->head = c->next;
	textpool_free(p);
	c->next = NULL;
	c->used = 0;
	p->head = c;
}
