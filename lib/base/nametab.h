/*
 * Names of an enum's values, in a table indexed by value: the one lookup
 * behind each module's X_name / X_parse pair (layer ops, task kinds,
 * devices, attachments, solver policies and objectives), so that a value
 * and its spelling are written once, in the table, and the pair once,
 * in NAMETAB_PAIR.
 */
#ifndef PF_NAMETAB_H
#define PF_NAMETAB_H

/* The index of s in names[0..n), or -1 when none is s. */
int nametab_find(const char *const *names, int n, const char *s);

/* names[i], or "?" when i is not in [0, n) (never NULL). */
const char *nametab_name(const char *const *names, int n, int i);

/*
 * Defines a module's pair for an enum TYPE named by tab[0..n) (the pair
 * written once here rather than again in each module):
 *	const char *NAME(TYPE v): tab[v], or "?" when v is not a value;
 *	int PARSE(const char *s, TYPE *v): 0 with *v the value spelt s,
 *	    or -1 when none is.
 * At file scope, without a semicolon, as sys/tree.h's RB_GENERATE.
 */
#define NAMETAB_PAIR(TYPE, tab, n, NAME, PARSE)				\
const char *								\
NAME(TYPE v)								\
{									\
	return nametab_name(tab, n, (int)v);				\
}									\
									\
int									\
PARSE(const char *s, TYPE *v)						\
{									\
	int i_ = nametab_find(tab, n, s);				\
									\
	if (i_ < 0)							\
		return -1;						\
	*v = (TYPE)i_;							\
	return 0;							\
}

#endif
