/*
 * libFuzzer harness for pf-merge: the bytes are a costed tasks table,
 * folded into candidates (merge_costs); every time it writes must be a
 * finite non-negative decimal.  Built by tests/fuzz/run.sh.
 */
#define FZ_PROG "fuzz_merge"
#include "fuzz_stage.h"
#include "solve_merge.h"

static const char *const times[] = { "gpu_ns", "pim_ns", "ns", NULL };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct table in, out;

	if (fz_table(data, size, "tasks.csv", &in) < 0)
		return 0;
	/* the first byte picks a sync time: 0, or up to -y's bound */
	if (merge_costs(&in, size > 0 && data[0] & 1 ? 9e12 : 0, &out) == 0) {
		fz_check_times(&out, times);
		fz_write(&out);
	}
	csvio_free(&out);
	csvio_free(&in);
	return 0;
}
