/*
 * libFuzzer harness for pim-cycles: the bytes are an optional PIM config,
 * a line "%%", then a tasks table (without the line: the newton-gddr6
 * config).  The config goes through pim_model_load, the table through
 * pim_cost_table with the config's defaults; every time written must be a
 * finite non-negative decimal.  Built by tests/fuzz/run.sh.
 */
#include "fuzz_stage.h"
#include "newton_cost.h"
#include "pim_model.h"

static struct pim_model defmodel;
static const char *const times[] = { "ns", "cycles", "energy_nj", NULL };

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_init("fuzz_pim");
	if (pim_model_load("share/pimflow/pim/newton-gddr6.conf", &defmodel) < 0)
		abort();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *cfg = fz_scratch("pim");
	struct pim_model m;
	struct pim_opts o;
	struct table t;
	const uint8_t *rest;
	size_t nrest;
	int64_t rows, cmds;

	if (fz_config(data, size, cfg, &rest, &nrest)) {
		if (pim_model_load(cfg, &m) < 0)
			return 0;
	} else
		m = defmodel;
	memset(&o, 0, sizeof(o));
	o.channels = m.channels;
	o.max_gwrite = m.max_gwrite;
	o.hiding = m.hiding;
	/* the first byte picks the options a run may take */
	if (size > 0) {
		o.all = data[0] & 1;
		o.per_group = data[0] >> 1 & 1;
		o.reduce = data[0] >> 2 & 1;
		o.best = data[0] >> 3 & 1;
	}
	if (fz_table(rest, nrest, "tasks.csv", &t) < 0)
		return 0;
	if (pim_cost_table(&m, &t, &o, NULL, &rows, &cmds) == 0) {
		fz_check_times(&t, times);
		fz_write(&t);
	}
	table_free(&t);
	return 0;
}
