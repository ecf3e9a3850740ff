/*
 * Structure-aware libFuzzer harness for the whole chain in one process:
 * the bytes choose a plausible layers table (a chain of 1 to 6 convs,
 * gemms and pools with bounded, mutually consistent shapes, written with
 * the real layer columns), which then goes through pf-split
 * (split_gen_tasks), gpu-cycles (gpu_cost_table), pim-cycles (pim_cost_table
 * on newton-gddr6), pf-merge (merge_costs) and pf-solve (every policy).  Invariants, any breach aborts:
 *  - every stage accepts a valid table;
 *  - every piece is costed: each row ends with a finite, non-negative ns;
 *  - every candidate of tasks has one costs row with finite times;
 *  - every policy has a plan, totals are non-negative and the policies
 *    nest: pimflow <= mddp <= newton++, pimflow <= pipeline <= newton++.
 * Built by tests/fuzz/run.sh from the source root.
 */
#define FZ_PROG "fuzz_chain"
#define FZ_SETUP
#include "fuzz_stage.h"
#include "gpu_cost.h"
#include "pim_cost.h"
#include "solve_io.h"
#include "solve_merge.h"
#include "split_gen.h"

#define PIMCONF "share/pimflow/pim/newton-gddr6.conf"

static struct gpu_model gm;
static const struct pim_engine *pe;
static void *ps;
static struct pim_row prow;
static const char *const tasktimes[] = { "ns", "cycles", NULL };
static const char *const costtimes[] = { "gpu_ns", "pim_ns", "ns", NULL };

struct bytes {
	const uint8_t	*p;
	size_t		 n;
};

/* The next byte mapped onto lo..hi (lo when the bytes run out). */
static int64_t
pick(struct bytes *b, int64_t lo, int64_t hi)
{
	int64_t v = lo;

	if (b->n > 0) {
		v = lo + (int64_t)b->p[0] % (hi - lo + 1);
		b->p++;
		b->n--;
	}
	return v;
}

/* One layer fed by shape (c, h, w) of the previous one. */
static void
gen_layer(struct bytes *b, int64_t id, int64_t batch, int64_t c, int64_t h,
    int64_t w, struct layer *l)
{
	int64_t k, s, p;

	layer_init(l);
	l->id = id;
	l->batch = batch;
	l->in_c = c;
	l->in_h = h;
	l->in_w = w;
	switch (pick(b, 0, 3)) {
	case 0:
	case 1:
		l->op = OP_CONV;
		k = 2 * pick(b, 0, 2) + 1;
		s = pick(b, 1, 2);
		p = pick(b, 0, k / 2);
		l->kernel_h = l->kernel_w = k;
		l->stride_h = l->stride_w = s;
		l->pad_top = l->pad_left = l->pad_bottom = l->pad_right = p;
		l->groups = pick(b, 0, 3) == 0 ? c : 1;
		l->out_c = l->groups > 1 ? c : 1 + pick(b, 0, 127);
		if (h + 2 * p < k || w + 2 * p < k)
			l->kernel_h = l->kernel_w = 1, p = 0,
			l->pad_top = l->pad_left = l->pad_bottom = l->pad_right = 0;
		l->out_h = (h + 2 * p - l->kernel_h) / s + 1;
		l->out_w = (w + 2 * p - l->kernel_w) / s + 1;
		snprintf(l->act, sizeof(l->act), "%s", pick(b, 0, 1) ?
		    "relu" : "none");
		break;
	case 2:
		l->op = OP_GEMM;
		l->in_c = c * h * w;
		l->in_h = l->in_w = 1;
		l->out_c = 1 + pick(b, 0, 255);
		l->out_h = l->out_w = 1;
		break;
	default:
		l->op = OP_POOL;
		k = h >= 2 && w >= 2 ? 2 : 1;
		l->kernel_h = l->kernel_w = l->stride_h = l->stride_w = k;
		l->out_c = c;
		l->out_h = h / k;
		l->out_w = w / k;
		break;
	}
	if (layer_derive(l) < 0)
		abort();
	if (l->op == OP_POOL) {
		l->in_bytes = batch * c * h * w * 2;
		l->out_bytes = batch * l->out_c * l->out_h * l->out_w * 2;
	}
}

/* The layers table the bytes describe. */
static void
gen_table(struct bytes *b, struct table *t)
{
	static const char *const onnx[] = { "Conv", "Gemm", "MatMul",
	    "MaxPool" };
	struct layer_cols lc;
	struct layer l;
	int64_t n = pick(b, 1, 6), batch = pick(b, 1, 4), i;
	int64_t c = pick(b, 1, 64), h = pick(b, 1, 32), w = pick(b, 1, 32);
	long name, op, preds;
	size_t r;

	csvio_init(t, "layers.csv");
	layer_cols_add(t, &lc);
	name = csvio_col(t, "name");
	op = csvio_col(t, "onnx_op");
	preds = csvio_col(t, "preds");
	for (i = 0; i < n; i++) {
		gen_layer(b, i, batch, c, h, w, &l);
		r = csvio_addrow(t);
		layer_put(t, &lc, r, &l);
		csvio_setf(t, r, (size_t)name, "L%lld", (long long)i);
		csvio_set(t, r, (size_t)op, onnx[l.op == OP_CONV ? 0 :
		    l.op == OP_GEMM ? 1 : 3]);
		if (i > 0)
			csvio_setint(t, r, (size_t)preds, i - 1);
		c = l.out_c;
		h = l.out_h;
		w = l.out_w;
	}
}

static void
fz_setup(void)
{
	if (gpu_model_open("rtx2060-sim", NULL, &gm) < 0 ||
	    (pe = pim_engine_of(PIMCONF)) == NULL ||
	    (ps = pe->open(PIMCONF, &prow)) == NULL)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct objective time = { O_TIME, 0 };
	struct bytes b = { data, size };
	struct table layers, tasks, costs;
	struct split_opts so;
	struct gpu_cost_opts go;
	struct pim_opts po;
	struct solve_in in;
	struct plan pl[P_NPOL];
	struct solve_result res[P_NPOL];
	int64_t rows, cmds;
	long nsc, candc;
	size_t r, ncand = 0;
	int p;

	gen_table(&b, &layers);
	split_opts_init(&so);
	if (split_gen_tasks(&layers, &so, &tasks) < 0)
		abort();
	memset(&go, 0, sizeof(go));
	go.m = &gm;
	go.config = "rtx2060-sim";
	go.total = (long)gm.channels;
	memset(&po, 0, sizeof(po));
	if (gpu_cost_table(&tasks, &go) < 0 ||
	    pim_cost_table(pe, ps, &tasks, &prow, &po, &rows, &cmds) < 0)
		abort();
	/* every piece costed */
	nsc = csvio_col(&tasks, "ns");
	candc = csvio_col(&tasks, "cand");
	if (nsc < 0 || candc < 0)
		abort();
	for (r = 0; r < tasks.nrows; r++) {
		if (*csvio_get(&tasks, r, (size_t)nsc) == '\0')
			abort();
		if (r == 0 || strcmp(csvio_get(&tasks, r, (size_t)candc),
		    csvio_get(&tasks, r - 1, (size_t)candc)) != 0)
			ncand++;
	}
	fz_check_times(&tasks, tasktimes);
	if (merge_costs(&tasks, 0, &costs) < 0)
		abort();
	fz_check_times(&costs, costtimes);
	/* one costs row per candidate (pf-split keeps a candidate's pieces together) */
	if (costs.nrows != ncand)
		abort();
	solve_io_in_init(&in);
	memset(pl, 0, sizeof(pl));
	if (solve_io_read_costs(&costs, &in) < 0)
		abort();
	for (p = 0; p < P_NPOL; p++)
		if (solve_io_policy(&in, (enum policy)p, &time, &pl[p], &res[p]) < 0 ||
		    pl[p].ps < 0)
			abort();
	if (pl[P_PIMFLOW].ps > pl[P_MDDP].ps || pl[P_MDDP].ps > pl[P_NEWTONPP].ps ||
	    pl[P_PIMFLOW].ps > pl[P_PIPELINE].ps ||
	    pl[P_PIPELINE].ps > pl[P_NEWTONPP].ps)
		abort();
	for (p = 0; p < P_NPOL; p++)
		plan_free(&pl[p]);
	solve_io_in_free(&in);
	csvio_free(&costs);
	csvio_free(&tasks);
	csvio_free(&layers);
	return 0;
}
