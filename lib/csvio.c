/*
 * CSV tables over libcsv: whole-table reading with header checks, writing
 * with RFC 4180 quoting only where a field needs it.  Cell text is carved
 * from an arena per table, never allocated per cell; numbers are
 * formatted by hand (the cost tools write millions of them).
 */
#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csvio.h"
#include "diag.h"
#include "xalloc.h"

static void colindex(struct table *t);

/* The text of every empty cell. */
static const char empty[] = "";

struct table_chunk {
	struct table_chunk *next;
	size_t	used, cap;
	char	data[];
};

#define CHUNK	(256 * 1024)

/* n bytes of t's arena. */
static char *
arena(struct table *t, size_t n)
{
	struct table_chunk *c = t->arena;

	if (c == NULL || c->cap - c->used < n) {
		size_t cap = n > CHUNK / 4 ? n : CHUNK;

		if (c != NULL && n > CHUNK / 4) {
			/* A big field gets a chunk of its own, behind the
			 * current one, so the current one's room stays. */
			struct table_chunk *b = xmalloc(sizeof(*b) + cap);

			b->cap = cap;
			b->used = n;
			b->next = c->next;
			c->next = b;
			return b->data;
		}
		c = xmalloc(sizeof(*c) + cap);
		c->cap = cap;
		c->used = 0;
		c->next = t->arena;
		t->arena = c;
	}
	c->used += n;
	return c->data + c->used - n;
}

/* A copy of s[0..len) in t's arena, NUL-terminated. */
static const char *
arenadup(struct table *t, const char *s, size_t len)
{
	char *p;

	if (len == 0)
		return empty;
	p = arena(t, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void
table_init(struct table *t, const char *fname)
{
	memset(t, 0, sizeof(*t));
	t->fname = xstrdup(fname != NULL ? fname : "<stdin>");
}

void
table_free(struct table *t)
{
	struct table_chunk *c, *next;
	size_t i;

	for (i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	for (c = t->arena; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	free(t->cols);
	free(t->colhash);
	free(t->cells);
	free(t->line);
	free(t->fname);
	memset(t, 0, sizeof(*t));
}

/* Parser state: the record being assembled. */
struct rdstate {
	struct table	*t;
	const char	**rec;		/* fields in t's arena */
	size_t		  nrec, caprec;
	long		  line;		/* line number of the current record */
	int		  haveheader;
	int		  err;
};

static void
on_field(void *s, size_t len, void *data)
{
	struct rdstate *st = data;

	if (!st->err && len > 0 && memchr(s, '\0', len) != NULL) {
		/* C strings would silently cut the field short. */
		pf_errl(st->t->fname, st->line + 1, "NUL byte in a field");
		st->err = 1;
	}
	if (st->nrec == st->caprec) {
		st->caprec = st->caprec ? 2 * st->caprec : 16;
		st->rec = xreallocarray(st->rec, st->caprec, sizeof(*st->rec));
	}
	st->rec[st->nrec++] = arenadup(st->t, s, len);
}

/* The fields' text stays in the arena until the table goes. */
static void
droprec(struct rdstate *st)
{
	st->nrec = 0;
}

static int
isheader(const struct rdstate *st)
{
	size_t i;

	if (st->nrec != st->t->ncols)
		return 0;
	for (i = 0; i < st->nrec; i++)
		if (strcmp(st->rec[i], st->t->cols[i]) != 0)
			return 0;
	return 1;
}

static void
on_record(int c, void *data)
{
	struct rdstate *st = data;
	struct table *t = st->t;
	size_t i, j, r;

	(void)c;
	st->line++;
	if (st->err) {
		droprec(st);
		return;
	}
	/* A blank line (one empty field) carries nothing: skip it. */
	if (st->nrec == 1 && st->rec[0][0] == '\0') {
		droprec(st);
		return;
	}
	if (!st->haveheader) {
		/* else it reads as part of the first column's name */
		if (st->nrec > 0 && strncmp(st->rec[0], "\xef\xbb\xbf", 3) == 0) {
			pf_errl(t->fname, st->line, "the header starts with a "
			    "UTF-8 byte-order mark: save the file without it");
			st->err = 1;
			droprec(st);
			return;
		}
		for (i = 0; i < st->nrec; i++) {
			if (st->rec[i][0] == '\0') {
				pf_errl(t->fname, st->line,
				    "empty column name in header");
				st->err = 1;
				droprec(st);
				return;
			}
			for (j = 0; j < i; j++)
				if (strcmp(st->rec[i], st->rec[j]) == 0) {
					pf_errl(t->fname, st->line,
					    "duplicate column '%s'",
					    st->rec[i]);
					st->err = 1;
					droprec(st);
					return;
				}
		}
		t->cols = xcalloc(st->nrec, sizeof(*t->cols));
		for (i = 0; i < st->nrec; i++)
			t->cols[i] = xstrdup(st->rec[i]);
		t->ncols = st->nrec;
		colindex(t);
		/* Room for the columns a tool appends, without re-laying rows. */
		t->stride = t->ncols + 32;
		st->nrec = 0;
		st->haveheader = 1;
		return;
	}
	if (isheader(st)) {
		/* A repeated header starts a new parallel chunk. */
		st->line = 1;
		droprec(st);
		return;
	}
	if (st->nrec != t->ncols) {
		pf_errl(t->fname, st->line, "%zu fields, header has %zu",
		    st->nrec, t->ncols);
		st->err = 1;
		droprec(st);
		return;
	}
	r = table_addrow(t);
	memcpy(&t->cells[r * t->stride], st->rec, t->ncols * sizeof(*st->rec));
	t->line[r] = st->line;
	st->nrec = 0;
}

int
table_read(FILE *fp, const char *fname, struct table *t)
{
	struct csv_parser p;
	struct rdstate st;
	char buf[65536];
	size_t n;
	int rc = 0;

	table_init(t, fname);
	memset(&st, 0, sizeof(st));
	st.t = t;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		pf_err(t->fname, "cannot initialise the CSV parser");
		return -1;
	}
	while (!st.err && (n = fread(buf, 1, sizeof(buf), fp)) > 0) {
		/*
		 * A record refused by on_record has set st.err and been
		 * reported; libcsv goes on to the end of the buffer, and a
		 * parse error it meets there must not add a second line.
		 */
		if (csv_parse(&p, buf, n, on_field, on_record, &st) != n) {
			if (!st.err)
				pf_errl(t->fname, st.line + 1, "%s",
				    csv_strerror(csv_error(&p)));
			st.err = 1;
		}
	}
	if (!st.err && ferror(fp)) {
		pf_err(t->fname, "read error: %s", strerror(errno));
		st.err = 1;
	}
	if (!st.err && csv_fini(&p, on_field, on_record, &st) != 0) {
		pf_errl(t->fname, st.line + 1, "%s",
		    csv_strerror(csv_error(&p)));
		st.err = 1;
	}
	if (!st.err && !st.haveheader) {
		pf_err(t->fname, "empty input: no header line");
		st.err = 1;
	}
	droprec(&st);
	free(st.rec);
	csv_free(&p);
	if (st.err) {
		rc = -1;
		table_free(t);
	}
	return rc;
}

int
table_load(const char *path, struct table *t)
{
	FILE *fp;
	int rc;

	if (path == NULL || strcmp(path, "-") == 0)
		return table_read(stdin, "<stdin>", t);
	if ((fp = fopen(path, "r")) == NULL) {
		pf_err(path, "%s", strerror(errno));
		return -1;
	}
	rc = table_read(fp, path, t);
	fclose(fp);
	return rc;
}

/* Output assembled a row at a time, written in blocks. */
struct wbuf {
	FILE	*fp;
	char	 b[65536];
	size_t	 n;
	int	 err;
};

static void
wflush(struct wbuf *w)
{
	if (w->n > 0 && !w->err && fwrite(w->b, 1, w->n, w->fp) != w->n)
		w->err = 1;
	w->n = 0;
}

/* A field, RFC 4180-quoted where it needs it (csv_write's quoting). */
static void
putfield(struct wbuf *w, const char *s)
{
	size_t len, i, k;
	int q = 0;

	for (len = 0; s[len] != '\0'; len++)
		if (s[len] == ',' || s[len] == '"' || s[len] == '\r' ||
		    s[len] == '\n')
			q = 1;
	if (len > 0 && (s[0] == ' ' || s[len - 1] == ' '))
		q = 1;
	if (2 * len + 3 > sizeof(w->b) - w->n) {
		wflush(w);
		if (2 * len + 3 > sizeof(w->b)) {	/* a huge field */
			if (!w->err && (q ? csv_fwrite(w->fp, s, len) :
			    fputs(s, w->fp)) == EOF)
				w->err = 1;
			return;
		}
	}
	if (!q) {
		memcpy(w->b + w->n, s, len);
		w->n += len;
		return;
	}
	k = w->n;
	w->b[k++] = '"';
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			w->b[k++] = '"';
		w->b[k++] = s[i];
	}
	w->b[k++] = '"';
	w->n = k;
}

static void
putch(struct wbuf *w, char c)
{
	if (w->n == sizeof(w->b))
		wflush(w);
	w->b[w->n++] = c;
}

int
table_write(FILE *fp, const struct table *t)
{
	struct wbuf *w = xmalloc(sizeof(*w));
	size_t r, c;
	int rc;

	w->fp = fp;
	w->n = 0;
	w->err = 0;
	for (c = 0; c < t->ncols; c++) {
		if (c > 0)
			putch(w, ',');
		putfield(w, t->cols[c]);
	}
	putch(w, '\n');
	/* Stop at the first failure, errno still telling why. */
	for (r = 0; r < t->nrows && !w->err; r++) {
		for (c = 0; c < t->ncols; c++) {
			if (c > 0)
				putch(w, ',');
			putfield(w, table_get(t, r, c));
		}
		putch(w, '\n');
	}
	wflush(w);
	rc = w->err || ferror(fp) ? -1 : 0;
	free(w);
	return rc;
}

static size_t
namehash(const char *s)
{
	size_t h = 5381;

	while (*s != '\0')
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/*
 * The column index: open addressing over the names, rebuilt when a
 * column is added, so that a lookup is one hash and one compare however
 * many columns a table has (tools look columns up per row).
 */
static void
colindex(struct table *t)
{
	size_t i, h, cap = 16;

	while (cap < 2 * t->ncols)
		cap *= 2;
	if (cap != t->hcap) {
		free(t->colhash);
		t->colhash = xcalloc(cap, sizeof(*t->colhash));
		t->hcap = cap;
	} else
		memset(t->colhash, 0, cap * sizeof(*t->colhash));
	for (i = 0; i < t->ncols; i++) {
		for (h = namehash(t->cols[i]) & (cap - 1); t->colhash[h];
		    h = (h + 1) & (cap - 1))
			;
		t->colhash[h] = i + 1;
	}
}

long
table_col(const struct table *t, const char *name)
{
	size_t h, k;

	if (t->hcap == 0)
		return -1;
	for (h = namehash(name) & (t->hcap - 1);; h = (h + 1) & (t->hcap - 1)) {
		if ((k = t->colhash[h]) == 0)
			return -1;
		if (strcmp(t->cols[k - 1], name) == 0)
			return (long)(k - 1);
	}
}

size_t
table_addcol(struct table *t, const char *name)
{
	long have = table_col(t, name);
	const char **cells;
	size_t r, c, nc;

	if (have >= 0)
		return (size_t)have;
	nc = t->ncols + 1;
	t->cols = xreallocarray(t->cols, nc, sizeof(*t->cols));
	t->cols[t->ncols] = xstrdup(name);
	if (nc > t->stride) {
		/* Re-lay the rows with spare columns, so this stays rare. */
		size_t stride = 2 * nc + 8;

		cells = xcalloc((t->cap ? t->cap : 1), stride * sizeof(*cells));
		for (r = 0; r < t->nrows; r++)
			for (c = 0; c < t->ncols; c++)
				cells[r * stride + c] = t->cells[r * t->stride + c];
		free(t->cells);
		t->cells = cells;
		t->stride = stride;
	}
	/* The new column's cells are NULL already (empty). */
	t->ncols = nc;
	colindex(t);
	return nc - 1;
}

int
table_need(const struct table *t, const char *const *names, long *idx)
{
	size_t i;

	for (i = 0; names[i] != NULL; i++) {
		idx[i] = table_col(t, names[i]);
		if (idx[i] < 0) {
			pf_errl(t->fname, 1, "missing column '%s'", names[i]);
			return -1;
		}
	}
	return 0;
}

int
table_append(struct table *dst, const struct table *src)
{
	size_t r, c, n;

	if (dst->ncols != src->ncols)
		goto bad;
	for (c = 0; c < src->ncols; c++)
		if (strcmp(dst->cols[c], src->cols[c]) != 0)
			goto bad;
	for (r = 0; r < src->nrows; r++) {
		n = table_addrow(dst);
		for (c = 0; c < src->ncols; c++)
			table_set(dst, n, c, table_get(src, r, c));
		dst->line[n] = src->line[r];
	}
	return 0;
bad:
	pf_errl(src->fname, 1, "columns differ from those of '%s'",
	    dst->fname);
	return -1;
}

size_t
table_addrow(struct table *t)
{
	size_t r;

	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->cells = xreallocarray(t->cells, t->cap,
		    (t->stride ? t->stride : 1) * sizeof(*t->cells));
		t->line = xreallocarray(t->line, t->cap, sizeof(*t->line));
	}
	r = t->nrows++;
	/* NULL cells read as empty, the spare ones included. */
	memset(&t->cells[r * t->stride], 0, t->stride * sizeof(*t->cells));
	t->line[r] = 0;
	return r;
}

const char *
table_get(const struct table *t, size_t row, size_t col)
{
	const char *s = t->cells[row * t->stride + col];

	return s != NULL ? s : empty;
}

void
table_set(struct table *t, size_t row, size_t col, const char *val)
{
	t->cells[row * t->stride + col] = arenadup(t, val, strlen(val));
}

void
table_setf(struct table *t, size_t row, size_t col, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	table_set(t, row, col, buf);
}

/* Decimal digits of u before end; returns where they start. */
static char *
udigits(char *end, uint64_t u)
{
	do {
		*--end = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	return end;
}

void
table_setint(struct table *t, size_t row, size_t col, int64_t v)
{
	char buf[24], *p;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	p = udigits(buf + sizeof(buf), u);
	if (v < 0)
		*--p = '-';
	t->cells[row * t->stride + col] = arenadup(t, p,
	    (size_t)(buf + sizeof(buf) - p));
}

int
table_fmtns(char *buf, size_t size, double v)
{
	char tmp[40], *p;
	double a = fabs(v), x, e, k, f;
	uint64_t u;
	size_t n;

	/*
	 * What printf("%.3f") writes: the exact value of v rounded to
	 * thousandths, ties to even.  x + e is 1000*|v| exactly (the fma
	 * gives the product's rounding error), so only a fraction of
	 * exactly one half needs e to decide.  Beyond 2^53/1000 (and for
	 * NaN or infinities) printf itself.
	 */
	if (!(a < 9007199254740.0))
		return snprintf(buf, size, "%.3f", v);
	x = a * 1000;
	e = fma(a, 1000, -x);
	k = floor(x);
	f = x - k;
	if (f > 0.5 || (f == 0.5 && (e > 0 || (e == 0 &&
	    fmod(k, 2) != 0))))
		k += 1;
	u = (uint64_t)k;
	p = tmp + sizeof(tmp);
	*--p = (char)('0' + u % 10);
	*--p = (char)('0' + u / 10 % 10);
	*--p = (char)('0' + u / 100 % 10);
	*--p = '.';
	p = udigits(p, u / 1000);
	if (signbit(v))
		*--p = '-';
	n = (size_t)(tmp + sizeof(tmp) - p);
	if (size > 0) {
		size_t m = n < size - 1 ? n : size - 1;

		memcpy(buf, p, m);
		buf[m] = '\0';
	}
	return (int)n;
}

void
table_setns(struct table *t, size_t row, size_t col, double v)
{
	char buf[512];
	int n = table_fmtns(buf, sizeof(buf), v);

	t->cells[row * t->stride + col] = arenadup(t, buf,
	    (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

int
parse_int64(const char *s, int64_t *v)
{
	char *end;
	long long x;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*v = x;
	return 0;
}

/*
 * The decimal syntax of pf-formats(7): [+-] digits [. digits] [e|E [+-]
 * digits], at least one digit before the exponent.  strtod alone also
 * takes hexadecimal ("0x1p4"), "inf", "nan" and "infinity".
 */
static int
is_decimal(const char *s)
{
	int digits = 0;

	if (*s == '+' || *s == '-')
		s++;
	for (; isdigit((unsigned char)*s); s++)
		digits++;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			digits++;
	if (digits == 0)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return 0;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return *s == '\0';
}

int
parse_double(const char *s, double *v)
{
	char *end;
	double x;

	if (s == NULL || *s == '\0' || !is_decimal(s))
		return -1;
	errno = 0;
	x = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(x))
		return -1;
	*v = x;
	return 0;
}

long
table_line(const struct table *t, size_t row)
{
	return t->line[row] > 0 ? t->line[row] : (long)row + 2;
}

int
table_int(const struct table *t, size_t row, size_t col, int64_t *v)
{
	const char *s = table_get(t, row, col);

	if (*s == '\0') {
		pf_errl(t->fname, table_line(t, row), "column '%s': empty field",
		    t->cols[col]);
		return -1;
	}
	if (parse_int64(s, v) < 0) {
		pf_errl(t->fname, table_line(t, row),
		    "column '%s': not an integer: '%s'", t->cols[col], s);
		return -1;
	}
	return 0;
}

int
table_dbl(const struct table *t, size_t row, size_t col, double *v)
{
	const char *s = table_get(t, row, col);

	if (*s == '\0') {
		pf_errl(t->fname, table_line(t, row), "column '%s': empty field",
		    t->cols[col]);
		return -1;
	}
	if (parse_double(s, v) < 0) {
		pf_errl(t->fname, table_line(t, row),
		    "column '%s': not a number: '%s'", t->cols[col], s);
		return -1;
	}
	return 0;
}

int
table_int_opt(const struct table *t, size_t row, size_t col, int64_t def,
    int64_t *v)
{
	if (*table_get(t, row, col) == '\0') {
		*v = def;
		return 0;
	}
	return table_int(t, row, col, v);
}

int
table_dbl_opt(const struct table *t, size_t row, size_t col, double def,
    double *v)
{
	if (*table_get(t, row, col) == '\0') {
		*v = def;
		return 0;
	}
	return table_dbl(t, row, col, v);
}

int
table_int_in(const struct table *t, size_t row, size_t col, int64_t lo,
    int64_t hi, int64_t *v)
{
	if (table_int(t, row, col, v) < 0)
		return -1;
	if (*v < lo || *v > hi) {
		pf_errl(t->fname, table_line(t, row), "column '%s': must be "
		    "%lld to %lld, not '%s'", t->cols[col], (long long)lo,
		    (long long)hi, table_get(t, row, col));
		return -1;
	}
	return 0;
}

int
table_dbl_in(const struct table *t, size_t row, size_t col, double lo,
    double hi, double *v)
{
	if (table_dbl(t, row, col, v) < 0)
		return -1;
	if (*v < lo || *v > hi) {
		pf_errl(t->fname, table_line(t, row), "column '%s': must be "
		    "%g to %g, not '%s'", t->cols[col], lo, hi,
		    table_get(t, row, col));
		return -1;
	}
	return 0;
}
