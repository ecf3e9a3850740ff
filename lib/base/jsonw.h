/*
 * A tiny deterministic JSON writer: objects, arrays, strings and numbers
 * with a fixed number of decimals, two-space indentation, keys in the
 * order written.  Enough for the summaries of pf-solve; no parsing.
 */
#ifndef PF_JSONW_H
#define PF_JSONW_H

#include <stdint.h>
#include <stdio.h>

#define JSONW_MAXDEPTH	16

struct jsonw {
	FILE	*fp;
	int	 depth;
	int	 count[JSONW_MAXDEPTH];	/* members written at each level */
	char	 close[JSONW_MAXDEPTH];	/* closer of each open container */
	int	 inline_from;		/* depth from which output is one line */
};

/*
 * Start writing to fp.  Containers opened at depth >= inline_depth are
 * written on one line (0 = never).
 */
void jw_init(struct jsonw *w, FILE *fp, int inline_depth);
/* key is NULL inside arrays and for the top-level value. */
void jw_obj(struct jsonw *w, const char *key);
void jw_arr(struct jsonw *w, const char *key);
void jw_end(struct jsonw *w);		/* closes the innermost container */
void jw_str(struct jsonw *w, const char *key, const char *s);
void jw_num(struct jsonw *w, const char *key, double v, int decimals);
void jw_int(struct jsonw *w, const char *key, int64_t v);
void jw_bool(struct jsonw *w, const char *key, int v);
/* Finish the document (a final newline); 0, or -1 on a write error. */
int jw_finish(struct jsonw *w);

#endif
