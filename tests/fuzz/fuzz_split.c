/*
 * libFuzzer harness for pf-split: the bytes are a layers table, split
 * into every candidate (split_gen_tasks) with the default options and the
 * result written back.  Built by tests/fuzz/run.sh; not part of the build.
 */
#define FZ_PROG "fuzz_split"
#include "fuzz_stage.h"
#include "split_gen.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct split_opts o;
	struct table in, out;

	if (fz_table(data, size, "layers.csv", &in) < 0)
		return 0;
	split_opts_init(&o);
	if (split_gen_tasks(&in, &o, &out) == 0)
		fz_write(&out);
	csvio_free(&out);
	csvio_free(&in);
	return 0;
}
