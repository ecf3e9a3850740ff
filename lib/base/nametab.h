/*
 * Names of an enum's values, in a table indexed by value: the one lookup
 * behind each module's X_name / X_parse pair (layer ops, task kinds,
 * devices, solver policies and objectives), so that a value and its
 * spelling are written once, in the table.
 */
#ifndef PF_NAMETAB_H
#define PF_NAMETAB_H

/* The index of s in names[0..n), or -1 when none is s. */
int nametab_find(const char *const *names, int n, const char *s);

/* names[i], or "?" when i is not in [0, n) (never NULL). */
const char *nametab_name(const char *const *names, int n, int i);

#endif
