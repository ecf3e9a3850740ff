/*
 * Shared plumbing of the stage harnesses (fuzz_split, fuzz_gpu, fuzz_pim,
 * fuzz_merge, fuzz_solve, fuzz_chain): bytes to a table through the real
 * reader, a table to a memory stream through the real writer, and the
 * checks every stage's output must pass.  Included by one harness each,
 * hence static.
 */
#ifndef PF_FUZZ_STAGE_H
#define PF_FUZZ_STAGE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each harness uses some of these. */
#define FZ_HELPER static __attribute__((unused))

/* Read n bytes as a table named name; 0, or -1 (reported). */
FZ_HELPER int
fz_table(const uint8_t *d, size_t n, const char *name, struct table *t)
{
	FILE *fp;
	int rc;

	/* fmemopen of zero bytes is an error on some C libraries */
	fp = n == 0 ? fmemopen((void *)"", 1, "r") : fmemopen((void *)d, n, "r");
	if (fp == NULL)
		return -1;
	if (n == 0)
		(void)fgetc(fp);
	rc = csvio_read(fp, name, t);
	fclose(fp);
	return rc;
}

/* Write t to memory and drop it: the writer must take any table. */
FZ_HELPER void
fz_write(const struct table *t)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	if (fp == NULL)
		return;
	if (csvio_write(fp, t) < 0)
		abort();
	fclose(fp);
	free(buf);
}

/*
 * Split "config %% table": the bytes before a line "%%" are a config
 * file, written to path; without the line there is no config (returns 0)
 * and *rest is all of it.  Returns 1 when a config was written.
 */
FZ_HELPER int
fz_config(const uint8_t *d, size_t n, const char *path, const uint8_t **rest,
    size_t *nrest)
{
	size_t i;
	FILE *fp;

	*rest = d;
	*nrest = n;
	for (i = 0; i + 3 <= n; i++)
		if ((i == 0 || d[i - 1] == '\n') && d[i] == '%' &&
		    d[i + 1] == '%' && (i + 2 == n || d[i + 2] == '\n'))
			break;
	if (i + 3 > n)
		return 0;
	if ((fp = fopen(path, "w")) == NULL)
		abort();
	if (fwrite(d, 1, i, fp) != i || fclose(fp) != 0)
		abort();
	*rest = d + i + 3 > d + n ? d + n : d + i + 3;
	*nrest = (size_t)(d + n - *rest);
	return 1;
}

/*
 * Every time column of a costed table must hold a finite, non-negative
 * decimal: a cost stage that returns 0 may not leave a wrapped, negative
 * or NaN number behind.
 */
FZ_HELPER void
fz_check_times(const struct table *t, const char *const *cols)
{
	size_t r, i;
	double v;

	for (i = 0; cols[i] != NULL; i++) {
		long c = csvio_col(t, cols[i]);

		if (c < 0)
			continue;
		for (r = 0; r < t->nrows; r++) {
			const char *s = csvio_get(t, r, (size_t)c);

			if (*s == '\0')
				continue;
			if (csvio_parse_double(s, &v) < 0 || !(v >= 0)) {
				fprintf(stderr, "fuzz: row %zu column %s: '%s'\n",
				    r, cols[i], s);
				abort();
			}
		}
	}
}

/* A private scratch file for config bytes, made once per process. */
FZ_HELPER const char *
fz_scratch(const char *tag)
{
	static char path[64];
	int fd;

	if (path[0] != '\0')
		return path;
	snprintf(path, sizeof(path), "/tmp/pf-%s.XXXXXX", tag);
	if ((fd = mkstemp(path)) < 0)
		abort();
	close(fd);
	return path;
}

/*
 * The program name, and the share folder of the source tree (run.sh runs
 * the harnesses from it; -close_fd_mask=3 there silences diagnostics).
 */
FZ_HELPER void
fz_init(const char *prog)
{
	pf_setprogname(prog);
	if (getenv("PIMFLOW_SHARE") == NULL)
		setenv("PIMFLOW_SHARE", "share/pimflow", 1);
}

#endif
