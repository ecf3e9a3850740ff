/*
 * CSV tables, whole files: a table read whole (csvio_read, csvio_load),
 * and the loop of a row-wise stage (gpu-cycles, pim-cycles, pf-merge):
 * its files read a block at a time (table_reader), each block given to
 * the stage and what it returns written (table_out), the columns of
 * every file's result held to the first's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvio.h"
#include "csvio_arena.h"
#include "diag.h"
#include "xalloc.h"

/* The first result's column names, against which every file's is held. */
static int
samecols(const struct table *t, char *const *cols, size_t n,
    const char *first)
{
	size_t c;

	if (t->ncols == n) {
		for (c = 0; c < n; c++)
			if (strcmp(t->cols[c], cols[c]) != 0)
				break;
		if (c == n)
			return 0;
	}
	pf_errl(t->fname, 1, "columns differ from those of '%s'", first);
	return -1;
}

int
csvio_stream(char *const *files, int nfiles, const char *group,
    int (*fn)(void *arg, struct table *in, const struct table **res),
    void *arg, struct table_out *o)
{
	return csvio_stream_block(files, nfiles, group, TABLE_BLOCK, fn, arg,
	    o);
}

int
csvio_stream_block(char *const *files, int nfiles, const char *group,
    size_t block,
    int (*fn)(void *arg, struct table *in, const struct table **res),
    void *arg, struct table_out *o)
{
	struct table_reader *r;
	const struct table *res;
	char **cols = NULL, *first = NULL;
	size_t ncols = 0, c;
	int i, k, head, rc = -1;

	for (i = 0; i < (nfiles > 0 ? nfiles : 1); i++) {
		if ((r = csvio_reader_open(nfiles > 0 ? files[i] : "-",
		    block, group)) == NULL)
			goto out;
		head = 1;
		do {
			if ((k = csvio_reader_next(r)) < 0 ||
			    (k == 0 && !head))
				break;
			if (fn(arg, csvio_reader_table(r), &res) < 0) {
				k = -1;
				break;
			}
			/* the rows it reads are the rows it writes */
			if (res == csvio_reader_table(r))
				csvio_reader_keepraw(r);
			if (head && cols == NULL) {
				ncols = res->ncols;
				cols = xcalloc(ncols + 1, sizeof(*cols));
				for (c = 0; c < ncols; c++)
					cols[c] = xstrdup(res->cols[c]);
				first = xstrdup(csvio_reader_table(r)->fname);
				if (csvio_out_header(o, res) < 0) {
					pf_write_error(NULL);
					k = -1;
					break;
				}
			} else if (head && samecols(res, cols, ncols, first) < 0) {
				k = -1;
				break;
			}
			head = 0;
			if (csvio_out_rows(o, res) < 0) {
				pf_write_error(NULL);
				k = -1;
				break;
			}
		} while (k > 0);
		csvio_reader_close(r);
		if (k < 0)
			goto out;
	}
	rc = 0;
out:
	for (c = 0; c < ncols; c++)
		free(cols[c]);
	free(cols);
	free(first);
	return rc;
}

int
csvio_stream_stdout(char *const *files, int nfiles, const char *group,
    int (*fn)(void *arg, struct table *in, const struct table **res),
    int (*done)(void *arg), void *arg)
{
	return csvio_stream_stdout_block(files, nfiles, group, TABLE_BLOCK, fn,
	    done, arg);
}

int
csvio_stream_stdout_block(char *const *files, int nfiles, const char *group,
    size_t block,
    int (*fn)(void *arg, struct table *in, const struct table **res),
    int (*done)(void *arg), void *arg)
{
	struct table_out *o = csvio_out_open(stdout, TABLE_HOLD);
	int ok;

	ok = csvio_stream_block(files, nfiles, group, block, fn, arg, o) == 0 &&
	    (done == NULL || done(arg) == 0);
	if (csvio_out_close(o, ok) < 0) {
		pf_write_error(NULL);
		ok = 0;
	}
	if (pf_close_stdout() < 0)
		ok = 0;
	return ok ? 0 : -1;
}

int
csvio_stream_stage(char *const *files, int nfiles, int print,
    const struct csvio_stage *s, void *arg)
{
	if (print) {
		s->print(arg);
		return pf_close_stdout();
	}
	if (s->start(arg) < 0)
		return -1;
	return csvio_stream_stdout_block(files, nfiles, NULL, TABLE_BLOCK_MEMO,
	    s->block, s->done, arg);
}

int
csvio_read(FILE *fp, const char *fname, struct table *t)
{
	struct table_reader *r;
	int k;

	if ((r = csvio_reader_fp(fp, 0, fname, (size_t)-1, NULL)) == NULL) {
		csvio_init(t, fname);
		csvio_free(t);
		return -1;
	}
	k = csvio_reader_next(r);
	if (k >= 0) {
		/* the reader's table handed over, an empty one left it */
		*t = *csvio_reader_table(r);
		csvio_init(csvio_reader_table(r), NULL);
	}
	csvio_reader_close(r);
	return k < 0 ? -1 : 0;
}

int
csvio_load(const char *path, struct table *t)
{
	FILE *fp;
	int rc;

	if (path == NULL || strcmp(path, "-") == 0)
		return csvio_read(stdin, "<stdin>", t);
	if ((fp = fopen(path, "r")) == NULL) {
		pf_err(path, "%s", strerror(errno));
		return -1;
	}
	rc = csvio_read(fp, path, t);
	fclose(fp);
	return rc;
}
