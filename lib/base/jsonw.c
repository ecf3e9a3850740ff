/*
 * Deterministic JSON output (jsonw.h).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "jsonw.h"

void
jw_init(struct jsonw *w, FILE *fp, int inline_depth)
{
	memset(w, 0, sizeof(*w));
	w->fp = fp;
	w->inline_from = inline_depth > 0 ? inline_depth : JSONW_MAXDEPTH + 1;
}

static void
putstr(FILE *fp, const char *s)
{
	const unsigned char *p;

	fputc('"', fp);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", fp);
		else if (*p == '\t')
			fputs("\\t", fp);
		else if (*p < 0x20)
			fprintf(fp, "\\u%04x", *p);
		else
			fputc(*p, fp);
	}
	fputc('"', fp);
}

/* Separator, indentation and key before a member at the current depth. */
static void
member(struct jsonw *w, const char *key)
{
	int i;

	if (w->depth > 0) {
		if (w->count[w->depth]++ > 0)
			fputc(',', w->fp);
		if (w->depth >= w->inline_from) {
			if (w->count[w->depth] > 1)
				fputc(' ', w->fp);
		} else {
			fputc('\n', w->fp);
			for (i = 0; i < w->depth; i++)
				fputs("  ", w->fp);
		}
	}
	if (key != NULL) {
		putstr(w->fp, key);
		fputs(": ", w->fp);
	}
}

static void
container(struct jsonw *w, const char *key, int c)
{
	member(w, key);
	fputc(c, w->fp);
	if (w->depth + 1 < JSONW_MAXDEPTH)
		w->depth++;
	w->count[w->depth] = 0;
	w->close[w->depth] = c == '{' ? '}' : ']';
}

void
jw_obj(struct jsonw *w, const char *key)
{
	container(w, key, '{');
}

void
jw_arr(struct jsonw *w, const char *key)
{
	container(w, key, '[');
}

void
jw_end(struct jsonw *w)
{
	int i, n = w->count[w->depth], d = w->depth;

	w->depth--;
	if (n > 0 && d < w->inline_from) {
		fputc('\n', w->fp);
		for (i = 0; i < w->depth; i++)
			fputs("  ", w->fp);
	}
	fputc(w->close[d], w->fp);
}

void
jw_str(struct jsonw *w, const char *key, const char *s)
{
	member(w, key);
	putstr(w->fp, s);
}

void
jw_num(struct jsonw *w, const char *key, double v, int decimals)
{
	member(w, key);
	if (!isfinite(v))
		fputs("null", w->fp);
	else
		fprintf(w->fp, "%.*f", decimals, v);
}

void
jw_int(struct jsonw *w, const char *key, int64_t v)
{
	member(w, key);
	fprintf(w->fp, "%" PRId64, v);
}

void
jw_bool(struct jsonw *w, const char *key, int v)
{
	member(w, key);
	fputs(v ? "true" : "false", w->fp);
}

int
jw_finish(struct jsonw *w)
{
	fputc('\n', w->fp);
	return ferror(w->fp) ? -1 : 0;
}
