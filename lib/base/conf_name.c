/*
 * A config's name from its path, on its own so that a tool which only
 * names configs (pf-merge's band columns through solve_band) links no
 * config reader and no search path.
 */
#include <string.h>

#include "conf.h"

void
conf_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base != NULL ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".conf") == 0)
		n -= 5;
	if (n >= size)
		n = size - 1;
	memcpy(buf, base, n);
	buf[n] = '\0';
}
