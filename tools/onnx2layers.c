/*
 * onnx2layers: read an ONNX model and write its layer table (layers.csv,
 * pf-formats(7)) with every shape inferred for the given input shapes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "onnx_graph.h"
#include "layer.h"
#include "onnx_layers.h"
#include "xalloc.h"

static void
usage(int rc)
{
	fprintf(rc == PF_EXIT_OK ? stdout : stderr, "usage: %s [-k] [-i [name=]NxCxHxW] ... [-t dtype] "
	    "model.onnx\n", pf_progname());
	exit(rc);
}

int
main(int argc, char **argv)
{
	struct onnx_layers_opts o;
	struct input_shape *is;
	int c, rc;

	pf_setprogname(argv[0]);
	memset(&o, 0, sizeof(o));
	o.dtype = "fp16";
	o.is = is = xcalloc((size_t)argc, sizeof(*is));
	while ((c = pf_getopt(argc, argv, "hi:kt:", usage)) != -1) {
		switch (c) {
		case 'i':
			if (graph_parse_shape(optarg, &is[o.nis]) < 0) {
				pf_err(NULL, "-i '%s': want [name=]NxCxHxW with "
				    "positive dims", optarg);
				usage(PF_EXIT_USAGE);
			}
			o.nis++;
			break;
		case 'k':
			o.keep = 1;
			break;
		case 't':
			if (layer_dtype_bytes(optarg) == 0) {
				pf_err(NULL, "-t '%s': unknown dtype", optarg);
				usage(PF_EXIT_USAGE);
			}
			o.dtype = optarg;
			break;
		}
	}
	(void)pf_operands(argc, &argv, 1, 1, usage);
	rc = onnx_layers_run(argv[0], &o) == 0 ? PF_EXIT_OK : PF_EXIT_DATA;
	free(is);
	return rc;
}
