/*
 * A set of names, for pf-merge's check that a candidate's pieces come
 * together (solve_merge.c): copies of the names, indexed by nameix;
 * cleared between groups, so its memory stays that of a group.
 */
#ifndef PF_SOLVE_NAMES_H
#define PF_SOLVE_NAMES_H

struct name_set;

/* An empty set; solve_names_free frees it (NULL: nothing). */
struct name_set *solve_names_new(void);
void solve_names_free(struct name_set *m);
/* Forget every name. */
void solve_names_clear(struct name_set *m);
/* Add name (copied): 0, or 1 when it was there already. */
int solve_names_add(struct name_set *m, const char *name);

#endif
