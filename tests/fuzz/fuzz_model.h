/*
 * onnx2layers' library path for the model harnesses (fuzz_onnx,
 * fuzz_graph): model bytes written to a scratch file and read exactly as
 * onnx2layers reads them (onnx_layers(): model_load, graph_order,
 * graph_inputs, graph_infer, emit_layers), the table then written to
 * memory.  Included by one harness each, after fuzz_common.h.
 */
#ifndef PF_FUZZ_MODEL_H
#define PF_FUZZ_MODEL_H

#include "fuzz_common.h"
#include "onnx_layers.h"

/* Model bytes d[0..n) through onnx_layers, with -k when keep is set. */
FZ_HELPER void
fz_layers(const uint8_t *d, size_t n, int keep)
{
	const char *path = fz_scratch("onnx");
	struct table t;

	if (fz_save(path, d, n) < 0)
		return;
	if (onnx_layers(path, NULL, 0, keep, "fp16", &t) == 0)
		fz_write(&t);
	csvio_free(&t);
}

#endif
