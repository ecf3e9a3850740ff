/*
 * CSV helpers for the unit tests, after check.h: a table read from text in
 * memory, a table written to memory, and a file streamed in blocks
 * through a stage to memory, so that the tests compare what the library
 * writes without files of their own.
 */
#ifndef PF_CHECK_CSV_H
#define PF_CHECK_CSV_H

#include <stdio.h>
#include <stdlib.h>

#include "csvio.h"

/*
 * csvio_read of s[0..len) into t, its diagnostics naming the file name:
 * csvio_read's status, or -2 when s cannot be opened as a stream.
 */
static inline int
check_readmem(const char *s, size_t len, const char *name, struct table *t)
{
	FILE *fp = fmemopen((void *)s, len, "r");
	int rc;

	if (fp == NULL)
		return -2;
	rc = csvio_read(fp, name, t);
	fclose(fp);
	return rc;
}

/* What csvio_write writes of t (checked to succeed), *n bytes, to free. */
static inline char *
check_written(const struct table *t, size_t *n)
{
	char *out = NULL;
	FILE *fp = open_memstream(&out, n);

	if (fp == NULL)
		abort();
	CHECK(csvio_write(fp, t) == 0);
	fclose(fp);
	return out;
}

/*
 * What csvio_stream_block writes of the file path read in blocks of block
 * bytes through the stage fn (both checked to succeed), *n bytes; freed
 * by the caller.
 */
static inline char *
check_streamed(char *path, size_t block, int (*fn)(void *, struct table *,
    const struct table **), size_t *n)
{
	char *files[1] = { path }, *out = NULL;
	struct table_out *o;
	FILE *fp = open_memstream(&out, n);

	if (fp == NULL)
		abort();
	o = csvio_out_open(fp, 0);
	CHECK_EQ_I(csvio_stream_block(files, 1, NULL, block, fn, NULL, o), 0);
	CHECK_EQ_I(csvio_out_close(o, 1), 0);
	fclose(fp);
	return out;
}

#endif
