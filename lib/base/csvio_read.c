/*
 * CSV tables, the reading side, over libcsv: a block of rows at a time
 * (a whole table is one block: csvio_stream.c), the header handed to
 * csvio_header, a repeated header skipped, every field copied into the
 * table's arena (csvio_arena.h) or, from a clean buffer, its line in one
 * piece (and, for a stage writing what it reads, that line as read).
 */
#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvio.h"
#include "csvio_arena.h"
#include "diag.h"
#include "xalloc.h"

/*
 * Where the fields of a clean input buffer are taken from.  A buffer
 * holding none of '"', '\r', ' ', '\t' and NUL is clean: libcsv then
 * ends a record at each '\n' and a field at each ',', and hands over
 * exactly the bytes between them (nothing to unquote, no white space to
 * trim), so the field lengths it reports locate each field in the buffer
 * and a record's line is copied to the arena in one piece, its commas
 * and '\n' made NULs, instead of field by field.  libcsv still parses
 * every byte, and its callbacks drive everything, diagnostics included.
 *
 * The fields are found by following libcsv from a place where it starts
 * a row: the start of the input, or a '\n' that ended a record.  A clean
 * buffer that does not start at a row's start (a record went on past the
 * last buffer's end, or that buffer was not clean and libcsv may be
 * anywhere: inside quotes, after a lone '\r') is parsed field by field up
 * to its first '\n'; when that ended a record, the rest is skimmed, else
 * read field by field too.
 */
enum { RD_COPY, RD_SKIM };

/* Parser state: the record being assembled. */
struct rdstate {
	struct table	*t;
	const char	**rec;		/* fields in t's arena */
	/*
	 * RD_SKIM: the fields' offsets in buf, room for one a byte of the
	 * buffer (each skimmed field ends at a ',' or '\n' of it, and a
	 * record's fields start over at 0), so that on_field_skim has no
	 * room to check.
	 */
	size_t		 *off;
	size_t		  nrec, caprec;
	size_t		  nin;		/* columns of the input (t may add) */
	size_t		  hlen0;	/* length of the first column's name */
	long		  line;		/* line number of the current record */
	unsigned long	  nrecords;	/* records libcsv has ended */
	int		  haveheader;
	int		  err;
	int		  nul;		/* the buffer being parsed holds a NUL */
	int		  mode;		/* RD_COPY or RD_SKIM */
	int		  atrow;	/* the next buffer starts a row */
	const char	 *buf;		/* the buffer being parsed */
	size_t		  n;
	size_t		  pos;		/* RD_SKIM: where libcsv's next field
					   starts (blank lines passed over) */
	const char	 *text;		/* the skimmed record's line, or NULL */
	size_t		  textlen;
	int		  keepraw;	/* keep the line as read too (rowkeep) */
	size_t		  keep;		/* the skimmed line's rowkeep */
};

/* Room for n fields in st->rec. */
static void
growrec(struct rdstate *st, size_t n)
{
	if (n <= st->caprec)
		return;
	while (st->caprec < n)
		st->caprec = st->caprec ? 2 * st->caprec : 16;
	st->rec = xreallocarray(st->rec, st->caprec, sizeof(*st->rec));
}

/* A field, copied from libcsv's buffer. */
static void
on_field(void *s, size_t len, void *data)
{
	struct rdstate *st = data;

	if (st->nrec == st->caprec)
		growrec(st, st->nrec + 1);
	if (st->nul && !st->err && len > 0 && memchr(s, '\0', len) != NULL) {
		/* C strings would silently cut the field short. */
		pf_errl(st->t->fname, st->line + 1, "NUL byte in a field");
		st->err = 1;
	}
	st->rec[st->nrec++] = csvio_arenadup(st->t, s, len, 0);
}

/* A field of a clean buffer: only where it is (RD_SKIM). */
static void
on_field_skim(void *s, size_t len, void *data)
{
	struct rdstate *st = data;

	(void)s;
	st->off[st->nrec++] = st->pos;
	st->pos += len + 1;	/* and the ',' or '\n' after it */
}

/*
 * Past the blank lines at st->pos, which libcsv passes over without a
 * word (RD_SKIM: at its start and after each record).
 */
static void
skipblank(struct rdstate *st)
{
	while (st->pos < st->n && st->buf[st->pos] == '\n')
		st->pos++;
}

/* End of RD_SKIM field i: where its ',' or '\n' is. */
static size_t
skimend(const struct rdstate *st, size_t i)
{
	return (i + 1 < st->nrec ? st->off[i + 1] : st->pos) - 1;
}

/*
 * The skimmed record's line copied to the arena, its fields cut apart
 * and stored at rec[0..nrec) (st->rec, or a new row's cells).
 */
static char *
skimline(struct rdstate *st, const char **rec)
{
	const size_t *off = st->off;
	size_t i, x, n = st->nrec, base = off[0], len = st->pos - base;
	char *p = csvio_arena(st->t, len + (st->keepraw ? len - 1 : 0));

	st->keep = 0;
	if (st->keepraw) {
		/* as read, without its '\n', before the one cut apart */
		memcpy(p, st->buf + base, len - 1);
		st->keep = st->nrec;
		p += len - 1;
	}
	memcpy(p, st->buf + base, len);
	rec[0] = p;
	/* (locals: the byte stores may alias anything, so no reloads) */
	for (i = 1; i < n; i++) {
		x = off[i] - base;
		p[x - 1] = '\0';
		rec[i] = p + x;
	}
	p[len - 1] = '\0';
	st->textlen = len;
	return p;
}

/*
 * The end of a buffer: the fields skimmed of a record it ends inside are
 * copied (the buffer is about to be refilled), and whether the next one
 * starts a row noted.
 */
static void
endbuf(struct rdstate *st)
{
	size_t i;

	st->atrow = 0;
	if (st->mode == RD_SKIM) {
		growrec(st, st->nrec);
		for (i = 0; i < st->nrec; i++)
			st->rec[i] = csvio_arenadup(st->t, st->buf + st->off[i],
			    skimend(st, i) - st->off[i], 1);
		st->atrow = st->nrec == 0;
		for (i = st->pos; i < st->n && st->atrow; i++)
			if (st->buf[i] != '\n')	/* a field begun */
				st->atrow = 0;
	}
	st->mode = RD_COPY;
}

/* The bytes that keep a buffer from being skimmed. */
static int
isclean(const char *b, size_t n)
{
	return memchr(b, '"', n) == NULL && memchr(b, '\r', n) == NULL &&
	    memchr(b, ' ', n) == NULL && memchr(b, '\t', n) == NULL &&
	    memchr(b, '\0', n) == NULL;
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

	if (st->nrec != st->nin)
		return 0;
	for (i = 0; i < st->nrec; i++)
		if (strcmp(st->rec[i], st->t->cols[i]) != 0)
			return 0;
	return 1;
}

/* A record libcsv ended, its fields in st->rec: counted, numbered, checked
 * and added to the table (any refused reported). */
static void
record(struct rdstate *st)
{
	struct table *t = st->t;
	size_t i, r;

	st->line++;
	st->nrecords++;
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
		if (csvio_header(t, st->rec, st->nrec, st->line) < 0)
			st->err = 1;
		else {
			st->nin = st->nrec;
			st->hlen0 = strlen(t->cols[0]);
			st->haveheader = 1;
		}
		droprec(st);
		return;
	}
	if (isheader(st)) {
		/* A repeated header starts a new parallel chunk. */
		st->line = 1;
		droprec(st);
		return;
	}
	if (st->nrec != st->nin) {
		pf_errl(t->fname, st->line, "%zu fields, header has %zu",
		    st->nrec, st->nin);
		st->err = 1;
		droprec(st);
		return;
	}
	r = csvio_newrow(t);
	memcpy(&t->cells[r * t->stride], st->rec, st->nin * sizeof(*st->rec));
	/* the columns the caller added to the reader's table */
	for (i = st->nin; i < t->ncols; i++)
		t->cells[r * t->stride + i] = NULL;
	t->line[r] = st->line;
	t->rowtext[r] = st->text;
	t->rowlen[r] = st->textlen;
	t->rowkeep[r] = st->text != NULL ? st->keep : 0;
	st->nrec = 0;
}

static void
on_record(int c, void *data)
{
	struct rdstate *st = data;

	(void)c;
	st->text = NULL;
	record(st);
}

/*
 * A record of a clean buffer.  The common one, a row of the input's
 * columns whose first field is not the first column's name (so neither
 * a repeated header nor, there being more than one field or the one not
 * empty, a blank line), goes to a new row's cells at once; any other
 * through record().
 */
static void
on_record_skim(int c, void *data)
{
	struct rdstate *st = data;
	struct table *t = st->t;
	size_t i, r, n = st->nrec;
	size_t l0 = (n > 1 ? st->off[1] : st->pos) - st->off[0] - 1;
	const char **cell;

	(void)c;
	if (st->err || !st->haveheader || n != st->nin || (n == 1 && l0 == 0) ||
	    (l0 == st->hlen0 && memcmp(st->buf + st->off[0], t->cols[0],
	    l0) == 0)) {
		st->text = NULL;
		if (!st->err) {
			growrec(st, n);
			st->text = skimline(st, st->rec);  /* for record() */
		}
		record(st);
	} else {
		st->line++;
		st->nrecords++;
		r = csvio_newrow(t);
		cell = &t->cells[r * t->stride];
		t->rowtext[r] = skimline(st, cell);
		t->rowlen[r] = st->textlen;
		t->rowkeep[r] = st->keep;
		t->line[r] = st->line;
		/* the columns the caller added to the reader's table */
		for (i = n; i < t->ncols; i++)
			cell[i] = NULL;
		st->nrec = 0;
	}
	skipblank(st);
}

/*
 * The input buffer.  The CSV fuzz harness is built with a small one, so
 * that its inputs cross many buffers' edges.
 */
#ifndef TABLE_RDBUF
#define TABLE_RDBUF	65536
#endif

/*
 * A table being read: the parser, its state, and the rows of the last
 * block held back because their run (group) may go on in the next.
 */
struct table_reader {
	FILE		 *fp;
	int		  own;		/* fp opened here */
	int		  eof;		/* the parser is finished */
	int		  given;	/* t's rows went to the caller */
	struct csv_parser p;
	struct rdstate	  st;
	struct table	  t;
	long		  gcol;		/* the group column, or -1 */
	const char	 *group;
	size_t		  block;	/* input bytes a block holds at least */
	size_t		  fed;		/* input bytes of this block so far */
	const char	**carry;	/* held-back rows' cells (t's arena) */
	long		 *cline;
	size_t		  ncarry, capcarry;
	char		  buf[TABLE_RDBUF];
	size_t		  off[TABLE_RDBUF + 1];	/* st.off */
};

/*
 * Parse the n bytes read into r->buf: 0, or -1 when libcsv fails.
 * Fields are searched for a NUL only when the buffer has one.
 */
static int
parse(struct table_reader *r, size_t n)
{
	struct rdstate *st = &r->st;
	const char *b = r->buf, *nl;
	size_t k = 0;
	unsigned long recs = st->nrecords;

	st->buf = b;
	st->n = n;
	st->mode = RD_COPY;
	if (!isclean(b, n)) {
		st->nul = memchr(b, '\0', n) != NULL;
		st->atrow = 0;
		return csv_parse(&r->p, b, n, on_field, on_record, st) == n ?
		    0 : -1;
	}
	st->nul = 0;
	if (!st->atrow || st->nrec > 0) {
		if ((nl = memchr(b, '\n', n)) == NULL)
			return csv_parse(&r->p, b, n, on_field, on_record,
			    st) == n ? 0 : -1;
		/* a clean buffer's '\n' ends a record or a blank line */
		k = (size_t)(nl - b) + 1;
		if (csv_parse(&r->p, b, k, on_field, on_record, st) != k)
			return -1;
		if (st->nrecords == recs)
			return csv_parse(&r->p, b + k, n - k, on_field,
			    on_record, st) == n - k ? 0 : -1;
	}
	st->mode = RD_SKIM;
	st->pos = k;
	skipblank(st);
	return csv_parse(&r->p, b + k, n - k, on_field_skim, on_record_skim,
	    st) == n - k ? 0 : -1;
}

/*
 * Parse one more piece of the input: 1, 0 at its end (the parser then
 * finished), -1 after reporting.
 */
static int
feed(struct table_reader *r)
{
	struct rdstate *st = &r->st;
	const char *fname = r->t.fname;
	size_t n;

	if (r->eof)
		return 0;
	if ((n = fread(r->buf, 1, sizeof(r->buf), r->fp)) > 0) {
		/*
		 * A record refused by on_record has set st->err and been
		 * reported; libcsv goes on to the end of the buffer, and a
		 * parse error it meets there must not add a second line.
		 */
		if (parse(r, n) < 0) {
			if (!st->err)
				pf_errl(fname, st->line + 1, "%s",
				    csv_strerror(csv_error(&r->p)));
			st->err = 1;
		}
		endbuf(st);
		r->fed += n;
		return st->err ? -1 : 1;
	}
	r->eof = 1;
	st->nul = 1;
	if (ferror(r->fp)) {
		pf_err(fname, "read error: %s", strerror(errno));
		st->err = 1;
	}
	/* strict fini fails only on a quoted field left open */
	if (!st->err && csv_fini(&r->p, on_field, on_record, st) != 0) {
		pf_errl(fname, st->line + 1, "the input ends inside a quoted "
		    "field (cut short?)");
		st->err = 1;
	}
	if (!st->err && !st->haveheader) {
		pf_err(fname, "empty input: no header line");
		st->err = 1;
	}
	return st->err ? -1 : 0;
}

struct table_reader *
csvio_reader_fp(FILE *fp, int own, const char *fname, size_t block,
    const char *group)
{
	struct table_reader *r = xcalloc(1, sizeof(*r));

	r->fp = fp;
	r->own = own;
	r->block = block;
	r->group = group;
	r->gcol = -1;
	csvio_pipe_grow(fp);
	csvio_init(&r->t, fname);
	r->st.t = &r->t;
	r->st.off = r->off;
	r->st.atrow = 1;
	/*
	 * No CSV_APPEND_NULL: a field is taken by its length (on_field),
	 * and the NUL libcsv would store after each costs it 0.6
	 * instructions a byte.
	 */
	if (csv_init(&r->p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
		pf_err(r->t.fname, "cannot initialise the CSV parser");
		csvio_reader_close(r);
		return NULL;
	}
	/* the header (and what rows came with it) */
	while (!r->st.haveheader)
		if (feed(r) <= 0 && !r->st.haveheader) {
			csvio_reader_close(r);
			return NULL;
		}
	if (group != NULL)
		r->gcol = csvio_col(&r->t, group);
	return r;
}

struct table_reader *
csvio_reader_open(const char *path, size_t block, const char *group)
{
	FILE *fp;

	if (path == NULL || strcmp(path, "-") == 0)
		return csvio_reader_fp(stdin, 0, "<stdin>", block, group);
	if ((fp = fopen(path, "r")) == NULL) {
		pf_err(path, "%s", strerror(errno));
		return NULL;
	}
	return csvio_reader_fp(fp, 1, path, block, group);
}

struct table_reader *
csvio_reader_stream(FILE *fp, const char *fname, size_t block,
    const char *group)
{
	return csvio_reader_fp(fp, 0, fname, block, group);
}

struct table *
csvio_reader_table(struct table_reader *r)
{
	return &r->t;
}

void
csvio_reader_keepraw(struct table_reader *r)
{
	r->st.keepraw = 1;
}

void
csvio_reader_close(struct table_reader *r)
{
	if (r == NULL)
		return;
	csv_free(&r->p);
	if (r->own)
		fclose(r->fp);
	free(r->st.rec);
	free(r->carry);
	free(r->cline);
	csvio_free(&r->t);
	free(r);
}

/*
 * A new arena for the next block: the rows given to the caller go, the
 * held-back rows and the fields of the record being parsed move over.
 */
static void
renew(struct table_reader *r)
{
	struct table *t = &r->t;
	struct table_chunk *old = t->arena;
	size_t i, c, k, nin = r->st.nin;

	t->arena = NULL;
	t->nrows = 0;
	for (i = 0; i < r->ncarry; i++) {
		k = csvio_addrow(t);
		for (c = 0; c < nin; c++) {
			const char *s = r->carry[i * nin + c];

			t->cells[k * t->stride + c] = csvio_arenadup(t, s, strlen(s),
			    0);
		}
		t->line[k] = r->cline[i];
	}
	r->ncarry = 0;
	for (i = 0; i < r->st.nrec; i++)
		r->st.rec[i] = csvio_arenadup(t, r->st.rec[i], strlen(r->st.rec[i]),
		    0);
	csvio_freechunks(t, old);
}

/*
 * End the block before the last run of column gcol, holding that run
 * back (it may go on); 0 when the block is one run (read on).
 */
static int
cut(struct table_reader *r)
{
	struct table *t = &r->t;
	size_t i, c, n = t->nrows, nin = r->st.nin;
	const char *last;

	if (r->gcol < 0)
		return 1;
	last = csvio_get(t, n - 1, (size_t)r->gcol);
	for (i = n - 1; i > 0 &&
	    strcmp(csvio_get(t, i - 1, (size_t)r->gcol), last) == 0; i--)
		;
	if (i == 0)
		return 0;
	r->ncarry = n - i;
	if (r->ncarry > r->capcarry) {
		r->capcarry = r->ncarry;
		r->carry = xreallocarray(r->carry, r->capcarry * nin,
		    sizeof(*r->carry));
		r->cline = xreallocarray(r->cline, r->capcarry,
		    sizeof(*r->cline));
	}
	for (; i < n; i++) {
		for (c = 0; c < nin; c++)
			r->carry[(i - (n - r->ncarry)) * nin + c] =
			    csvio_get(t, i, c);
		r->cline[i - (n - r->ncarry)] = t->line[i];
	}
	t->nrows = n - r->ncarry;
	return 1;
}

int
csvio_reader_next(struct table_reader *r)
{
	struct table *t = &r->t;
	int k;

	if (r->given)
		renew(r);
	r->given = 1;
	/* (what came with the header counts towards the first block) */
	for (;;) {
		if (r->fed >= r->block && t->nrows > 0 && cut(r)) {
			r->fed = 0;
			return 1;
		}
		if ((k = feed(r)) < 0)
			return -1;
		if (k == 0)
			return t->nrows > 0;
	}
}
