/*
 * libFuzzer harness for gpu-cycles: the bytes are an optional GPU config,
 * a line "%%", then a tasks table (without the line: the table alone, on
 * the rtx2060-sim config).  The config goes through gpu_model_open, the
 * table through gpu_cost_table; every time written must be a finite
 * non-negative decimal.  Built by tests/fuzz/run.sh from the source root.
 */
#define FZ_PROG "fuzz_gpu"
#define FZ_SETUP
#include "fuzz_stage.h"
#include "gpu_cost.h"

static struct gpu_model defmodel;
static const char *const times[] = { "ns", "device_ns", "launch_ns",
	"gpu_main_ns", "gpu_aux_ns", "cycles", "energy_nj", NULL };

static void
fz_setup(void)
{
	if (gpu_model_open("rtx2060-sim", NULL, &defmodel) < 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *cfg = fz_scratch("gpu");
	struct gpu_model m;
	struct gpu_cost_opts o;
	struct table t;
	const uint8_t *rest;
	size_t nrest;

	memset(&o, 0, sizeof(o));
	if (fz_config(data, size, cfg, &rest, &nrest)) {
		if (gpu_model_open(cfg, NULL, &m) < 0)
			return 0;
	} else
		m = defmodel;
	o.m = &m;
	o.config = "fuzz";
	o.total = (long)m.channels;
	if (fz_table(rest, nrest, "tasks.csv", &t) < 0)
		return 0;
	if (gpu_cost_table(&t, &o) == 0) {
		fz_check_times(&t, times);
		fz_write(&t);
	}
	csvio_free(&t);
	return 0;
}
