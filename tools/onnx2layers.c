/*
 * onnx2layers: read an ONNX model and write its layer table (layers.csv,
 * pf-formats(7)) with every shape inferred for the given input shapes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"
#include "onnx_graph.h"
#include "onnx_load.h"
#include "layer.h"
#include "onnx_layers.h"
#include "xalloc.h"

struct opts {
	struct input_shape	*is;	/* -i */
	int			 nis;
	const char		*dtype;	/* -t */
	int			 keep;	/* -k */
};

static void
usage(int rc)
{
	fprintf(rc == PF_EXIT_OK ? stdout : stderr, "usage: %s [-k] [-i [name=]NxCxHxW] ... [-t dtype] "
	    "model.onnx\n", pf_progname());
	exit(rc);
}

/* The table written and stdout closed, then the model freed. */
static int
run(const char *path, const struct opts *o)
{
	struct model m;
	struct table t;
	int rc = PF_EXIT_DATA;

	if (onnx_layers_model(path, o->is, o->nis, o->keep, o->dtype, &t,
	    &m) == 0) {
		if (csvio_write(stdout, &t) == 0)
			rc = PF_EXIT_OK;
		else
			pf_write_error(NULL);
	}
	/* the stage reading the table starts as it ends (EOF) */
	if (pf_close_stdout() < 0 && rc == PF_EXIT_OK)
		rc = PF_EXIT_DATA;
	model_free(&m);
	csvio_free(&t);
	return rc;
}

int
main(int argc, char **argv)
{
	struct opts o;
	int c, rc;

	pf_setprogname(argv[0]);
	memset(&o, 0, sizeof(o));
	o.dtype = "fp16";
	o.is = xcalloc((size_t)argc, sizeof(*o.is));
	while ((c = getopt(argc, argv, "hi:kt:")) != -1) {
		switch (c) {
		case 'h':
			usage(PF_EXIT_OK);
			break;
		case 'i':
			if (graph_parse_shape(optarg, &o.is[o.nis]) < 0) {
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
		default:
			usage(PF_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage(PF_EXIT_USAGE);
	rc = run(argv[0], &o);
	free(o.is);
	return rc;
}
