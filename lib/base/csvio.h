/*
 * CSV tables, read and written with libcsv.  Every tool's CSV goes through
 * here, so the contract of pf-formats(7) is enforced in one place: one
 * header row, columns found by name, unknown columns carried through in
 * order, new columns appended, a line identical to the header skipped (GNU
 * parallel --pipe --header repeats it per chunk; line numbers then restart
 * at 1 as they do within that chunk).
 *
 * Tables are read whole (csvio_read), or a block of rows at a time
 * (table_reader, csvio_stream) by the row-wise stages, whose output is
 * held in memory up to TABLE_HOLD bytes (table_out) so that bad input
 * leaves nothing on stdout; past that it streams, and a failure ends the
 * output with an unterminated quoted field that no CSV reader takes for a
 * whole table (pf-formats(7), "Streaming").
 */
#ifndef PF_CSVIO_H
#define PF_CSVIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nameix.h"

struct table_chunk;

/*
 * The cells' text lives in one arena per table (chunks freed together by
 * csvio_free); a cell written again takes new room, its old text staying
 * until then.
 */
struct table {
	char	 *fname;	/* name used in diagnostics */
	size_t	  ncols;
	size_t	  stride;	/* allocated cells per row, >= ncols */
	char	**cols;		/* column names */
	size_t	  nrows;
	size_t	  cap;
	const char **cells;	/* row r, column c at r*stride+c; NULL or
				   "" = missing (read with csvio_get) */
	long	 *line;		/* input line of each row (0 for new rows) */
	/*
	 * A row read from a clean buffer (csvio.c): its line's text, the
	 * cells of the input's columns at their places in it, each ended
	 * by a NUL where its ',' or '\n' was; rowlen bytes, the last NUL
	 * included.  NULL for other rows.  A cell pointing into it is the
	 * input's own field (cells are never edited in place), which the
	 * writer copies as it stands.
	 */
	const char **rowtext;
	size_t	 *rowlen;
	/*
	 * When the reader keeps a row's line as read too (csvio_stream,
	 * for a stage that writes the rows it reads), commas and all,
	 * rowlen - 1 bytes (no '\n') just before rowtext: the leading
	 * columns whose cells are still the line's own (a cell set anew
	 * lowers it to its column), which the writer copies in one piece
	 * from that line.  0 for other rows.
	 */
	size_t	 *rowkeep;
	size_t	  nraw;		/* the columns of a row's line */
	struct table_chunk *arena;	/* newest chunk first */
	struct table_chunk *spare;	/* emptied chunks, for reuse */
	struct nameix colix;	/* the columns by name (csvio_col) */
};

/* An empty table with no columns; fname is copied. */
void csvio_init(struct table *t, const char *fname);
void csvio_free(struct table *t);

/*
 * Read a whole CSV stream.  Reports "file:line: ..." and returns -1 on a
 * parse error, a row with the wrong number of fields, a duplicate column
 * name or an input with no header at all.
 */
int csvio_read(FILE *fp, const char *fname, struct table *t);
/* csvio_read on a path, "-" meaning stdin. */
int csvio_load(const char *path, struct table *t);
/*
 * Write the table (header included); 0, or -1 on a write error with errno
 * as the failed write left it, for the caller to report (pf_write_error).
 */
int csvio_write(FILE *fp, const struct table *t);

/* Column index by name, or -1. */
long csvio_col(const struct table *t, const char *name);
/* Column index, appending an empty column if absent. */
size_t csvio_addcol(struct table *t, const char *name);
/*
 * Find every name in the NULL-terminated list, storing indices in idx.
 * Reports the first missing one ("file:1: missing column 'x'") and returns -1.
 */
int csvio_need(const struct table *t, const char *const *names, long *idx);

/*
 * Append the rows of src to dst, whose columns must be the same, in the
 * same order (several file operands of one tool).  Reports
 * "src:1: columns differ from those of 'dst'" and returns -1 otherwise.
 */
int csvio_append(struct table *dst, const struct table *src);

/* Drop every row and its text; the columns stay. */
void csvio_droprows(struct table *t);

/* Append an empty row; returns its index. */
size_t csvio_addrow(struct table *t);

/* The cell's text ("" for a missing one); inline, tools read millions. */
static inline const char *
csvio_get(const struct table *t, size_t row, size_t col)
{
	const char *s = t->cells[row * t->stride + col];

	return s != NULL ? s : "";
}
void csvio_set(struct table *t, size_t row, size_t col, const char *val);
/* the same from len bytes of s (s need not end in a NUL) */
void csvio_setn(struct table *t, size_t row, size_t col, const char *s,
    size_t len);
/*
 * Room for a cell's new text of len bytes, which the caller writes there
 * at once (the table ends it with a NUL): text known to need no quotes
 * in CSV (no comma, quote, line break, NUL, nor a space or tab at either
 * end), such as a number, which the writer then copies as it stands.
 * len 0 leaves the cell empty and returns NULL.
 */
char *csvio_setplain(struct table *t, size_t row, size_t col, size_t len);
/*
 * The writer's length byte before a cell's text (lib/base/csvio.c celltext):
 * this value when the text must be scanned for quoting.
 */
#define TEXT_SCAN	255
/*
 * csvio_setn, the text scanned here, once, for whether it needs quotes
 * in CSV: the writer then copies a plain text as it stands (as from
 * csvio_setplain) rather than scanning it at every write.  Worth it for
 * a cell that many rows share (csvio_setsame).
 */
void csvio_setscan(struct table *t, size_t row, size_t col, const char *s,
    size_t len);
/*
 * Row `row`'s cell in column col takes the text of row from's cell in
 * that column, without a copy (a cell's text is never edited in place
 * and lives until csvio_droprows or csvio_free).  Both rows made by
 * csvio_addrow (not read: a read row's cells may lie in its line's
 * text, which the writer tells by the row's own line).
 */
static inline void
csvio_setsame(struct table *t, size_t row, size_t col, size_t from)
{
	t->cells[row * t->stride + col] = t->cells[from * t->stride + col];
}
/* csvio_setsame for every column: row a copy of row from. */
static inline void
csvio_setsamerow(struct table *t, size_t row, size_t from)
{
	memcpy(&t->cells[row * t->stride], &t->cells[from * t->stride],
	    t->ncols * sizeof(*t->cells));
}
/*
 * Cell sharing for a table written row after row, each new row of a block
 * a copy of the one before (csvio_setsamerow): a column's memo holds the
 * key of its last row's cell (a number, or any value that stands for the
 * text) and the key before it, with the row that has that text.
 */
struct csvio_cellmemo {
	int64_t		 v;		/* the last row's key */
	int64_t		 v1;		/* the key before, */
	size_t		 r1;		/* in this row */
	int		 have1;
};
/*
 * Whether cell (row, col), a copy of row - 1's, must be set for key v:
 * always in a block's first row (first: no copy made), then not when v is
 * the last row's key, nor when it is the key before, which the cell then
 * shares with the row that had it (csvio_setsame).  1: the caller sets
 * the cell; 0: it holds v's text.
 */
static inline int
csvio_memo_changed(struct table *t, size_t row, size_t col,
    struct csvio_cellmemo *k, int64_t v, int first)
{
	int64_t last = k->v;
	int set;

	k->v = v;
	if (first)
		return 1;
	if (last == v)
		return 0;
	if (k->have1 && k->v1 == v) {
		csvio_setsame(t, row, col, k->r1);
		set = 0;
	} else
		set = 1;
	k->v1 = last;
	k->r1 = row - 1;
	k->have1 = 1;
	return set;
}
/*
 * Cell texts kept for rows to come: a stage that costs many rows of one
 * geometry writes a geometry's cells once, keeps their texts (csvio_keep:
 * a copy of row's cells in the n columns col, in that order, into store
 * k) and gives each later row of that geometry, in this table or a later
 * one, the same texts (csvio_setkept: no copy, the cells as if set anew).
 * Kept texts live until csvio_keep_clear, which the caller does only
 * when no row that has them is still to be written (between the blocks
 * of csvio_stream); csvio_keep_bytes says how much k holds.
 */
struct csvio_keep;
struct csvio_keep *csvio_keep_new(void);
const char *const *csvio_keep(struct csvio_keep *k, const struct table *t,
    size_t row, const size_t *col, size_t n);
void csvio_setkept(struct table *t, size_t row, const size_t *col, size_t n,
    const char *const *kept);
size_t csvio_keep_bytes(const struct csvio_keep *k);
void csvio_keep_clear(struct csvio_keep *k);
void csvio_keep_free(struct csvio_keep *k);
/*
 * Row row's cells in the n columns col take the texts of row from's cells
 * there (from's own fields, of a row read, copied; any other text shared):
 * the cells of a row of the same key as an earlier one of the table.
 */
void csvio_setfrom(struct table *t, size_t row, size_t from, const size_t *col,
    size_t n);
/*
 * The texts of row's cells in the n columns col, each ended by its NUL,
 * one after another into buf: a key of those cells (n texts, no NUL in
 * any: one key a tuple of texts).  The input's own fields of consecutive
 * columns go in one piece from their line.  Returns the bytes, or 0 when
 * they pass size.
 */
size_t csvio_cellkey(const struct table *t, size_t row, const size_t *col,
    size_t n, char *buf, size_t size);
void csvio_setf(struct table *t, size_t row, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void csvio_setint(struct table *t, size_t row, size_t col, int64_t v);
/* Decimal with fixed 3 fractional digits (ns to the picosecond). */
void csvio_setns(struct table *t, size_t row, size_t col, double v);
/*
 * v as printf("%.3f") writes it, byte for byte, without going through
 * printf for the common range; snprintf's contract (returns the length
 * the text needs, writes at most size bytes with the NUL).
 */
int csvio_fmtns(char *buf, size_t size, double v);
/* The same with digits (0 to 6) fractional digits: printf("%.*f"). */
int csvio_fmtfix(char *buf, size_t size, double v, int digits);
void csvio_setfix(struct table *t, size_t row, size_t col, double v,
    int digits);

/*
 * The number rule of pf-formats(7), one for every tool: a column holding
 * a count (dimensions, bytes, channels, cycles, layer indices, ratio,
 * step) is read with csvio_int (decimal digits with an optional sign; no
 * fraction, exponent or white space; 64 bits); a time or other measure
 * with csvio_dbl (a finite decimal: [+-]digits[.digits][e[+-]digits],
 * never hexadecimal, inf or nan); each column's range is checked with
 * csvio_int_in / csvio_dbl_in or by the module that reads it, and
 * documented with the column.
 *
 * Parse a cell as an integer or a finite number.  On an empty or
 * non-numeric field, report "file:line: column 'c': ..." and return -1.
 */
int csvio_int(const struct table *t, size_t row, size_t col, int64_t *v);
int csvio_dbl(const struct table *t, size_t row, size_t col, double *v);
/* As above, but an empty cell yields def and 0. */
int csvio_int_opt(const struct table *t, size_t row, size_t col, int64_t def,
    int64_t *v);
int csvio_dbl_opt(const struct table *t, size_t row, size_t col, double def,
    double *v);

/*
 * As csvio_int / csvio_dbl, and the value must lie in [lo, hi]: else
 * "file:line: column 'c': must be lo to hi, not 'v'" and -1.
 */
int csvio_int_in(const struct table *t, size_t row, size_t col, int64_t lo,
    int64_t hi, int64_t *v);
int csvio_dbl_in(const struct table *t, size_t row, size_t col, double lo,
    double hi, double *v);

/*
 * Reading a block of rows at a time.  csvio_reader_open reads path ("-":
 * stdin) up to its header, reporting like csvio_read and returning NULL
 * on a fault.  csvio_reader_next replaces the rows of the reader's table
 * (csvio_reader_table: the header, the columns the caller added, and the
 * rows of the block) with the next block: the rows of at least `block`
 * bytes of input, and when group is not NULL and names a column, whole
 * runs of rows with one value in it (a run is never cut between blocks).
 * It returns 1 with a block, 0 at the end of the input (no rows), -1
 * after reporting as csvio_read does.  Line numbers are those of the
 * input.  csvio_reader_close frees the reader and its table.
 */
struct table_reader;
struct table_reader *csvio_reader_open(const char *path, size_t block,
    const char *group);
/* csvio_reader_open on an open stream fp (left open), named fname in reports. */
struct table_reader *csvio_reader_stream(FILE *fp, const char *fname,
    size_t block, const char *group);
struct table *csvio_reader_table(struct table_reader *r);
int csvio_reader_next(struct table_reader *r);
void csvio_reader_close(struct table_reader *r);

/*
 * Output of a row-wise stage: what is written is held in memory until
 * csvio_out_close(o, 1) or until it passes `hold` bytes; from then on it
 * goes to fp as it comes (whole rows at a time).  csvio_out_close(o, 0)
 * drops what is held; when part of the output has already gone to fp it
 * ends it with a lone '"', an unterminated quoted field, so that the
 * stage after it fails instead of taking the cut table for a whole one.
 * csvio_out_header writes t's header, csvio_out_rows its rows.  Each
 * returns 0, or -1 on a write error with errno as the failed write left
 * it, for the caller to report (pf_write_error); csvio_out_close frees o.
 */
struct table_out;
struct table_out *csvio_out_open(FILE *fp, size_t hold);
int csvio_out_header(struct table_out *o, const struct table *t);
int csvio_out_rows(struct table_out *o, const struct table *t);
int csvio_out_close(struct table_out *o, int ok);

/* What the row-wise stages read per block and hold of their output. */
#define TABLE_BLOCK	(1024 * 1024)
/*
 * The block of a stage whose memos of what it costed outlive the blocks
 * (pim-cycles, gpu-cycles): small blocks then lose no costing, and the
 * block's cells and arena stay in the caches and are reused rather than
 * new pages touched.
 */
#define TABLE_BLOCK_MEMO	(64 * 1024)
#define TABLE_HOLD	(8 * 1024 * 1024)

/*
 * The loop of a row-wise stage (gpu-cycles, pim-cycles, pf-merge): the
 * files of files[0..nfiles) (none: stdin; "-" is stdin), one after
 * another, a block of TABLE_BLOCK bytes at a time (whole runs of column
 * group when group is not NULL), each block given to fn(arg, block,
 * &res): fn returns -1 after reporting, or 0 with res the table to write,
 * the block itself (costed in place) or fn's own table holding this
 * block's output rows.  fn sees the first block of every file even when
 * it has no row.  o gets the header of the first result and the rows of
 * every result; every file's result must have the columns of the first
 * ("file:1: columns differ from those of 'first'").  Returns 0, or -1
 * after reporting (a write error through pf_write_error).
 */
int csvio_stream(char *const *files, int nfiles, const char *group,
    int (*fn)(void *arg, struct table *in, const struct table **res),
    void *arg, struct table_out *o);
/* csvio_stream with blocks of `block` bytes instead of TABLE_BLOCK. */
int csvio_stream_block(char *const *files, int nfiles, const char *group,
    size_t block,
    int (*fn)(void *arg, struct table *in, const struct table **res),
    void *arg, struct table_out *o);

/*
 * A row-wise stage's run, its output on stdout: csvio_stream into a
 * table_out of stdout holding TABLE_HOLD bytes; then, when done is not
 * NULL, done(arg), what the stage checks after the last row (0, or -1
 * after reporting); then the output closed, kept when each step
 * succeeded and cut otherwise (csvio_out_close), and stdout closed
 * (pf_close_stdout).  Returns 0, or -1 after reporting.
 */
int csvio_stream_stdout(char *const *files, int nfiles, const char *group,
    int (*fn)(void *arg, struct table *in, const struct table **res),
    int (*done)(void *arg), void *arg);
/* csvio_stream_stdout with blocks of `block` bytes (csvio_stream_block). */
int csvio_stream_stdout_block(char *const *files, int nfiles,
    const char *group, size_t block,
    int (*fn)(void *arg, struct table *in, const struct table **res),
    int (*done)(void *arg), void *arg);

/*
 * When fp is a pipe, enlarge its buffer (to 1 MiB on Linux; elsewhere,
 * or when the system refuses, it stays as it is).  The table readers and
 * csvio_out_open do it to their streams: a large table then crosses a
 * pipe in fewer, longer turns of the stages on either side.
 */
void csvio_pipe_grow(FILE *fp);

/* Input line of a row for diagnostics (header = 1). */
long csvio_line(const struct table *t, size_t row);

/* Strict number parsers for single strings (0 ok, -1 bad). */
int csvio_parse_int64(const char *s, int64_t *v);
int csvio_parse_double(const char *s, double *v);
/* As they are, and the value must lie in [lo, hi] (0 ok, -1 bad). */
int csvio_parse_int_in(const char *s, int64_t lo, int64_t hi, int64_t *v);
int csvio_parse_double_in(const char *s, double lo, double hi, double *v);
/*
 * An option's integer argument: s from lo to hi into *v, 0; otherwise
 * reports "-opt: bad what 's'" and returns -1 (the tool prints usage).
 */
int csvio_parse_optint(const char *s, int opt, int64_t lo, int64_t hi,
    const char *what, int64_t *v);

#endif
