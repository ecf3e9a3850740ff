/*
 * The one name table lookup (nametab.h).
 */
#include <string.h>

#include "nametab.h"

int
nametab_find(const char *const *names, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

const char *
nametab_name(const char *const *names, int n, int i)
{
	return i >= 0 && i < n ? names[i] : "?";
}
