/*
 * libFuzzer harness for the CSV reader and the geometry columns: the bytes
 * are read as a whole table (lib/csvio.h table_read over fmemopen), every
 * row through layer_get and, when valid, layer_derive, and the table
 * written back.  Built by tests/fuzz/run.sh with clang
 * -fsanitize=fuzzer,address,undefined; not part of the normal build.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "csvio.h"
#include "diag.h"
#include "layer.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	pf_setprogname("fuzz_csv");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct table t;
	struct layer_cols lc;
	struct layer l;
	FILE *fp, *out;
	char *buf = NULL;
	size_t n = 0, r;

	/* fmemopen of zero bytes is an error on some C libraries. */
	if (size == 0)
		fp = fmemopen((void *)"", 1, "r");
	else
		fp = fmemopen((void *)data, size, "r");
	if (fp == NULL)
		return 0;
	if (size == 0)
		(void)fgetc(fp);
	if (table_read(fp, "fuzz.csv", &t) == 0) {
		if (layer_cols_find(&t, &lc) == 0)
			for (r = 0; r < t.nrows; r++)
				if (layer_get(&t, &lc, r, &l) == 0)
					(void)layer_derive(&l);
		if ((out = open_memstream(&buf, &n)) != NULL) {
			(void)table_write(out, &t);
			fclose(out);
			free(buf);
		}
		table_free(&t);
	}
	fclose(fp);
	return 0;
}
