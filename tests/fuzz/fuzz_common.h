/*
 * What every libFuzzer harness here shares: its entry (the program name
 * and the share folder of the source tree), bytes read as a table through
 * the real reader, a table written to memory through the real writer, and
 * a private scratch file for bytes that a reader takes by path.  Included
 * by one harness each, hence static.
 *
 * A harness defines FZ_PROG, its program name, before including this;
 * with FZ_SETUP defined too, it defines fz_setup(), run once after.
 */
#ifndef PF_FUZZ_COMMON_H
#define PF_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"

#ifndef FZ_PROG
#error "a harness defines FZ_PROG before including fuzz_common.h"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each harness uses some of these. */
#define FZ_HELPER static __attribute__((unused))

#ifdef FZ_SETUP
static void fz_setup(void);
#endif

/*
 * The program name, and the share folder of the source tree (run.sh runs
 * the harnesses from it; -close_fd_mask=3 there silences diagnostics).
 */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	pf_setprogname(FZ_PROG);
	if (getenv("PIMFLOW_SHARE") == NULL)
		setenv("PIMFLOW_SHARE", "share/pimflow", 1);
#ifdef FZ_SETUP
	fz_setup();
#endif
	return 0;
}

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

/*
 * Write t to memory: *buf (the caller frees it) holds *n bytes.  The
 * writer must take any table, so a failure aborts; -1 only when no
 * memory stream opens.
 */
FZ_HELPER int
fz_write_mem(const struct table *t, char **buf, size_t *n)
{
	FILE *fp;

	*buf = NULL;
	*n = 0;
	if ((fp = open_memstream(buf, n)) == NULL)
		return -1;
	if (csvio_write(fp, t) < 0)
		abort();
	fclose(fp);
	return 0;
}

/* Write t to memory and drop it. */
FZ_HELPER void
fz_write(const struct table *t)
{
	char *buf;
	size_t n;

	if (fz_write_mem(t, &buf, &n) == 0)
		free(buf);
}

/* Write n bytes to path; 0, or -1 when it cannot be written. */
FZ_HELPER int
fz_save(const char *path, const uint8_t *d, size_t n)
{
	FILE *fp;
	int ok;

	if ((fp = fopen(path, "wb")) == NULL)
		return -1;
	ok = n == 0 || fwrite(d, 1, n, fp) == n;
	return fclose(fp) == 0 && ok ? 0 : -1;
}

/* A private scratch file, made once per process and rewritten per input. */
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

#endif
