/*
 * libFuzzer harness for onnx2layers' library path: the bytes are written
 * to a file and read as a model exactly as onnx2layers does (onnx_layers():
 * model_load, graph_order, graph_inputs, graph_infer, emit_layers), the
 * table then written to memory.  Any input must end in a report or a
 * table, never a crash, a leak, undefined behaviour or a hang.  Built
 * by tests/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined;
 * not part of the normal build.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "csvio.h"
#include "diag.h"
#include "onnx_layers.h"
#include "onnx_load.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	pf_setprogname("fuzz_onnx");
	/* One file per fuzzing process, rewritten for every input. */
	snprintf(path, sizeof(path), "/tmp/fuzz_onnx.%ld.onnx", (long)getpid());
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct table t;
	FILE *fp;
	char *buf = NULL;
	size_t n = 0;
	/* The last byte picks -k, so both paths of unknown ops are run. */
	int keep = size > 0 && (data[size - 1] & 1);

	if ((fp = fopen(path, "wb")) == NULL)
		return 0;
	if (size > 0 && fwrite(data, 1, size, fp) != size) {
		fclose(fp);
		return 0;
	}
	fclose(fp);
	if (onnx_layers(path, NULL, 0, keep, "fp16", &t) == 0 &&
	    (fp = open_memstream(&buf, &n)) != NULL) {
		(void)csvio_write(fp, &t);
		fclose(fp);
		free(buf);
	}
	csvio_free(&t);
	return 0;
}
