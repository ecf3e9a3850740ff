/*
 * onnx_layers(): model file to layer table, the passes in their order;
 * onnx_layers_run(): the table written as onnx2layers writes it.
 */
#include <stdio.h>

#include "diag.h"
#include "onnx_emit.h"
#include "onnx_kv.h"
#include "onnx_graph.h"
#include "onnx_load.h"
#include "onnx_layers.h"

int
onnx_layers_model(const char *path, const struct input_shape *is, int nis,
    int keep, const char *dtype, struct table *t, struct model *m)
{
	csvio_init(t, "<stdout>");
	if (model_load(m, path) == 0 && graph_order(m) == 0 &&
	    graph_inputs(m, is, nis) == 0 && graph_infer(m, keep) == 0 &&
	    (onnx_kv_fold(m), emit_layers(m, dtype, t)) == 0 &&
	    onnx_kv_mark(m, t) == 0)
		return 0;
	return -1;
}

int
onnx_layers(const char *path, const struct input_shape *is, int nis,
    int keep, const char *dtype, struct table *t)
{
	struct model m;
	int rc = onnx_layers_model(path, is, nis, keep, dtype, t, &m);

	model_free(&m);
	return rc;
}

int
onnx_layers_run(const char *path, const struct onnx_layers_opts *o)
{
	struct model m;
	struct table t;
	int rc = -1;

	if (onnx_layers_model(path, o->is, o->nis, o->keep, o->dtype, &t,
	    &m) == 0) {
		if (csvio_write(stdout, &t) == 0)
			rc = 0;
		else
			pf_write_error(NULL);
	}
	/*
	 * The table written and stdout closed before the model is freed:
	 * the stage reading the table starts as it ends (EOF).
	 */
	if (pf_close_stdout() < 0)
		rc = -1;
	model_free(&m);
	csvio_free(&t);
	return rc;
}
