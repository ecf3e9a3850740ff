/*
 * libFuzzer harness for onnx2layers' library path: the bytes are read as
 * a model exactly as onnx2layers does (fuzz_model.h) and the table then
 * written to memory.  Any input must end in a report or a table, never a
 * crash, a leak, undefined behaviour or a hang.  Built by
 * tests/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined; not
 * part of the normal build.
 */
#define FZ_PROG "fuzz_onnx"
#include "fuzz_model.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The last byte picks -k, so both paths of unknown ops are run. */
	fz_layers(data, size, size > 0 && (data[size - 1] & 1));
	return 0;
}
