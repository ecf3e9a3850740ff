/*
 * onnx_layers(): model file to layer table, the passes in their order.
 */
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
	    emit_layers(m, dtype, t) == 0 && onnx_kv_mark(m, t) == 0)
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
