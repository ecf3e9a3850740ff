/*
 * libFuzzer harness for pim-cycles: the bytes are an optional PIM config,
 * a line "%%", then a tasks table (without the line: the newton-gddr6
 * config).  The config picks its engine (pim_engine_of) and is opened by
 * it, the table goes through pim_cost_table with the config's defaults;
 * every time written must be a finite non-negative decimal.  Built by
 * tests/fuzz/run.sh.
 */
#define FZ_PROG "fuzz_pim"
#define FZ_SETUP
#include "fuzz_stage.h"
#include "pim_cost.h"

#define DEFCONF "share/pimflow/pim/newton-gddr6.conf"

static const struct pim_engine *defeng;
static void *defstate;
static struct pim_row defrow;
static const char *const times[] = { "ns", "cycles", "energy_nj", NULL };

static void
fz_setup(void)
{
	if ((defeng = pim_engine_of(DEFCONF)) == NULL ||
	    (defstate = defeng->open(DEFCONF, &defrow)) == NULL)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *cfg = fz_scratch("pim");
	const struct pim_engine *e = defeng;
	void *state = defstate;
	struct pim_row row = defrow;
	struct pim_opts o;
	struct table t;
	const uint8_t *rest;
	size_t nrest;
	int64_t rows, cmds;

	if (fz_config(data, size, cfg, &rest, &nrest)) {
		if ((e = pim_engine_of(cfg)) == NULL ||
		    (state = e->open(cfg, &row)) == NULL)
			return 0;
	}
	memset(&o, 0, sizeof(o));
	/* the first byte picks the options a run may take */
	if (size > 0) {
		o.all = data[0] & 1;
		o.per_group = data[0] >> 1 & 1;
		o.reduce = data[0] >> 2 & 1;
		o.best = data[0] >> 3 & 1;
	}
	if (fz_table(rest, nrest, "tasks.csv", &t) == 0) {
		if (pim_cost_table(e, state, &t, &row, &o, &rows, &cmds) == 0) {
			fz_check_times(&t, times);
			fz_write(&t);
		}
		csvio_free(&t);
	}
	if (state != defstate)
		e->close(state);
	return 0;
}
