/*
 * The whole onnx2layers pass as one call, so the tool and the fuzzing
 * harnesses run exactly the same path: load, order, input shapes, shape
 * inference with constant folding, emission of layers.csv rows.
 */
#ifndef PF_ONNX_LAYERS_H
#define PF_ONNX_LAYERS_H

#include "csvio.h"
#include "onnx_graph.h"

/*
 * Read the model at path ("-" = stdin), apply the nis input shapes of is,
 * and emit its layers into t, which this initialises (valid for
 * csvio_free either way).  keep: unknown ops become "other" rows (-k);
 * dtype: element type of activations and float weights.  Reports and
 * returns -1 on the first fault.
 */
int onnx_layers(const char *path, const struct input_shape *is, int nis,
    int keep, const char *dtype, struct table *t);
/*
 * The same, the model left in *m for the caller to free with model_free
 * in every case (onnx2layers writes the table first: freeing a large
 * model's millions of pieces is time the next stage would wait).
 */
int onnx_layers_model(const char *path, const struct input_shape *is,
    int nis, int keep, const char *dtype, struct table *t, struct model *m);

/* onnx2layers' options (onnx2layers(1)). */
struct onnx_layers_opts {
	const struct input_shape *is;	/* -i, nis of them */
	int		 nis;
	const char	*dtype;		/* -t */
	int		 keep;		/* -k */
};

/*
 * onnx2layers' run once its options are parsed: the layers of the model
 * at path ("-" = stdin) written to standard output, which is closed.
 * Returns 0, or -1 after a report.
 */
int onnx_layers_run(const char *path, const struct onnx_layers_opts *o);

#endif
