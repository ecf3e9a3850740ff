/*
 * Allocation wrappers that end the process on exhaustion (the one place
 * lib/ may exit): no caller has a sensible way to continue without memory.
 */
#ifndef PF_XALLOC_H
#define PF_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
/* realloc of nmemb*size bytes, overflow-checked. */
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);

#endif
