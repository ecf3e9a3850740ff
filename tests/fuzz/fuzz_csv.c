/*
 * libFuzzer harness for the CSV reader and the geometry columns: the bytes
 * are read as a whole table (lib/base/csvio.h csvio_read over fmemopen), every
 * row through layer_get and, when valid, layer_derive, and the table
 * written back.  A table read is held to what libcsv itself makes of the
 * bytes (fields and line numbers; the reader's clean-buffer path must
 * give the same), and the table written is read again and must give the
 * same cells.  Built by tests/fuzz/run.sh with clang
 * -fsanitize=fuzzer,address,undefined and a reader's buffer of a few
 * bytes; not part of the normal build.
 */
#define FZ_PROG "fuzz_csv"
#include <csv.h>

#include "fuzz_common.h"
#include "layer.h"

/* The records libcsv makes of the input, field by field. */
struct ref {
	char	**f;		/* every field, records one after another */
	size_t	  nf, cap;
	size_t	 *end;		/* each record's end in f */
	size_t	  nr, capr;
};

static void
ref_field(void *s, size_t len, void *data)
{
	struct ref *r = data;

	if (r->nf == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		if ((r->f = realloc(r->f, r->cap * sizeof(*r->f))) == NULL)
			abort();
	}
	if ((r->f[r->nf] = malloc(len + 1)) == NULL)
		abort();
	memcpy(r->f[r->nf], s, len);
	r->f[r->nf++][len] = '\0';
}

static void
ref_record(int c, void *data)
{
	struct ref *r = data;

	(void)c;
	if (r->nr == r->capr) {
		r->capr = r->capr ? 2 * r->capr : 64;
		if ((r->end = realloc(r->end, r->capr * sizeof(*r->end))) ==
		    NULL)
			abort();
	}
	r->end[r->nr++] = r->nf;
}

/*
 * t, read from data, against libcsv's records: the first is the header,
 * a record equal to it starts the line count again, a lone empty field
 * is skipped, every other is a row, at the line it ends on.
 */
static void
check_ref(const uint8_t *data, size_t size, const struct table *t)
{
	struct csv_parser p;
	struct ref r = { 0 };
	size_t i, k, c, n, row = 0, start;
	long line = 0;
	int head = 1, same;

	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		abort();
	if (csv_parse(&p, data, size, ref_field, ref_record, &r) != size ||
	    csv_fini(&p, ref_field, ref_record, &r) != 0)
		abort();	/* the table was read: libcsv took it */
	for (i = 0, start = 0; i < r.nr; start = r.end[i++]) {
		n = r.end[i] - start;
		line++;
		if (n == 1 && r.f[start][0] == '\0')
			continue;
		if (head) {
			if (n != t->ncols)
				abort();
			for (c = 0; c < n; c++)
				if (strcmp(r.f[start + c], t->cols[c]) != 0)
					abort();
			head = 0;
			continue;
		}
		for (c = 0, same = n == t->ncols; c < n && same; c++)
			same = strcmp(r.f[start + c], t->cols[c]) == 0;
		if (same) {
			line = 1;
			continue;
		}
		if (row >= t->nrows || n != t->ncols || t->line[row] != line)
			abort();
		for (c = 0; c < n; c++)
			if (strcmp(r.f[start + c], csvio_get(t, row, c)) != 0)
				abort();
		row++;
	}
	if (row != t->nrows)
		abort();
	for (k = 0; k < r.nf; k++)
		free(r.f[k]);
	free(r.f);
	free(r.end);
	csv_free(&p);
}

/* The table written, read back: the same cells. */
static void
check_written(const char *buf, size_t n, const struct table *t)
{
	struct table u;
	FILE *fp;
	size_t r, c;

	if (n == 0 || (fp = fmemopen((void *)buf, n, "r")) == NULL)
		abort();
	if (csvio_read(fp, "written.csv", &u) != 0 || u.ncols != t->ncols ||
	    u.nrows != t->nrows)
		abort();
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			if (strcmp(csvio_get(t, r, c), csvio_get(&u, r, c)) != 0)
				abort();
	csvio_free(&u);
	fclose(fp);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct table t;
	struct layer_cols lc;
	struct layer l;
	char *buf;
	size_t n, r;

	if (fz_table(data, size, "fuzz.csv", &t) != 0)
		return 0;
	check_ref(data, size, &t);
	if (layer_cols_find(&t, &lc) == 0)
		for (r = 0; r < t.nrows; r++)
			if (layer_get(&t, &lc, r, &l) == 0)
				(void)layer_derive(&l);
	if (fz_write_mem(&t, &buf, &n) == 0) {
		check_written(buf, n, &t);
		free(buf);
	}
	csvio_free(&t);
	return 0;
}
