/*
 * CSV tables, read and written with libcsv.  Every tool's CSV goes through
 * here, so the contract of pf-formats(7) is enforced in one place: one
 * header row, columns found by name, unknown columns carried through in
 * order, new columns appended, a line identical to the header skipped (GNU
 * parallel --pipe --header repeats it per chunk; line numbers then restart
 * at 1 as they do within that chunk).
 *
 * Tables are read whole: a tool validates every row before it writes any,
 * so bad input never leaves half an output on stdout.
 */
#ifndef PF_CSVIO_H
#define PF_CSVIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct table_chunk;

/*
 * The cells' text lives in one arena per table (chunks freed together by
 * table_free); a cell written again takes new room, its old text staying
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
				   "" = missing (read with table_get) */
	long	 *line;		/* input line of each row (0 for new rows) */
	struct table_chunk *arena;	/* newest chunk first */
	size_t	 *colhash;	/* column index + 1 by name hash */
	size_t	  hcap;
};

/* An empty table with no columns; fname is copied. */
void table_init(struct table *t, const char *fname);
void table_free(struct table *t);

/*
 * Read a whole CSV stream.  Reports "file:line: ..." and returns -1 on a
 * parse error, a row with the wrong number of fields, a duplicate column
 * name or an input with no header at all.
 */
int table_read(FILE *fp, const char *fname, struct table *t);
/* table_read on a path, "-" meaning stdin. */
int table_load(const char *path, struct table *t);
/*
 * Write the table (header included); 0, or -1 on a write error with errno
 * as the failed write left it, for the caller to report (pf_write_error).
 */
int table_write(FILE *fp, const struct table *t);

/* Column index by name, or -1. */
long table_col(const struct table *t, const char *name);
/* Column index, appending an empty column if absent. */
size_t table_addcol(struct table *t, const char *name);
/*
 * Find every name in the NULL-terminated list, storing indices in idx.
 * Reports the first missing one ("file:1: missing column 'x'") and returns -1.
 */
int table_need(const struct table *t, const char *const *names, long *idx);

/*
 * Append the rows of src to dst, whose columns must be the same, in the
 * same order (several file operands of one tool).  Reports
 * "src:1: columns differ from those of 'dst'" and returns -1 otherwise.
 */
int table_append(struct table *dst, const struct table *src);

/* Append an empty row; returns its index. */
size_t table_addrow(struct table *t);

const char *table_get(const struct table *t, size_t row, size_t col);
void table_set(struct table *t, size_t row, size_t col, const char *val);
void table_setf(struct table *t, size_t row, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void table_setint(struct table *t, size_t row, size_t col, int64_t v);
/* Decimal with fixed 3 fractional digits (ns to the picosecond). */
void table_setns(struct table *t, size_t row, size_t col, double v);
/*
 * v as printf("%.3f") writes it, byte for byte, without going through
 * printf for the common range; snprintf's contract (returns the length
 * the text needs, writes at most size bytes with the NUL).
 */
int table_fmtns(char *buf, size_t size, double v);

/*
 * The number rule of pf-formats(7), one for every tool: a column holding
 * a count (dimensions, bytes, channels, cycles, layer indices, ratio,
 * step) is read with table_int (decimal digits with an optional sign; no
 * fraction, exponent or white space; 64 bits); a time or other measure
 * with table_dbl (a finite decimal: [+-]digits[.digits][e[+-]digits],
 * never hexadecimal, inf or nan); each column's range is checked with
 * table_int_in / table_dbl_in or by the module that reads it, and
 * documented with the column.
 *
 * Parse a cell as an integer or a finite number.  On an empty or
 * non-numeric field, report "file:line: column 'c': ..." and return -1.
 */
int table_int(const struct table *t, size_t row, size_t col, int64_t *v);
int table_dbl(const struct table *t, size_t row, size_t col, double *v);
/* As above, but an empty cell yields def and 0. */
int table_int_opt(const struct table *t, size_t row, size_t col, int64_t def,
    int64_t *v);
int table_dbl_opt(const struct table *t, size_t row, size_t col, double def,
    double *v);

/*
 * As table_int / table_dbl, and the value must lie in [lo, hi]: else
 * "file:line: column 'c': must be lo to hi, not 'v'" and -1.
 */
int table_int_in(const struct table *t, size_t row, size_t col, int64_t lo,
    int64_t hi, int64_t *v);
int table_dbl_in(const struct table *t, size_t row, size_t col, double lo,
    double hi, double *v);

/* Input line of a row for diagnostics (header = 1). */
long table_line(const struct table *t, size_t row);

/* Strict number parsers for single strings (0 ok, -1 bad). */
int parse_int64(const char *s, int64_t *v);
int parse_double(const char *s, double *v);

#endif
