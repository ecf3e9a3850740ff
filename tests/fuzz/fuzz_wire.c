/*
 * libFuzzer harness for the weight-stripping reader (onnx_wire.c): the
 * bytes are loaded as a model twice, once stripped as onnx2layers reads
 * it and once decoded whole, and both must agree: both fail or both
 * succeed, with the same tensor table (names, types, dims, kept values)
 * and, for every node's tensor attribute "value" (Constant,
 * ConstantOfShape), the same result of attr_tensor.  A difference aborts, so libFuzzer
 * reports it as a crash.  Built by tests/fuzz/run.sh.
 */
#define FZ_PROG "fuzz_wire"
#include "fuzz_common.h"
#include "onnx_load.h"
#include "onnx.pb-c.h"

static void
differ(const char *what)
{
	fprintf(stderr, "fuzz_wire: stripped and whole readings differ: %s\n",
	    what);
	abort();
}

static void
sametensor(const struct tensor *a, const struct tensor *b)
{
	int64_t i;

	if (strcmp(a->name != NULL ? a->name : "", b->name != NULL ? b->name :
	    "") != 0)
		differ("tensor name");
	if (a->dtype != b->dtype || a->known != b->known ||
	    a->rank != b->rank || a->hasval != b->hasval ||
	    a->nval != b->nval || a->isinit != b->isinit ||
	    a->declrank != b->declrank)
		differ(a->name != NULL ? a->name : "tensor");
	if (a->known && memcmp(a->dims, b->dims, (size_t)a->rank *
	    sizeof(a->dims[0])) != 0)
		differ("dims");
	for (i = 0; a->hasval && i < a->nval; i++)
		if ((a->iv != NULL) != (b->iv != NULL) ||
		    (a->iv != NULL ? a->iv[i] != b->iv[i] :
		    memcmp(&a->fv[i], &b->fv[i], sizeof(double)) != 0))
			differ("values");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fz_scratch("wire");
	struct model s, w;
	int rs, rw;
	size_t i;

	if (fz_save(path, data, size) < 0)
		return 0;
	rs = model_load_opt(&s, path, 1);
	rw = model_load_opt(&w, path, 0);
	if (rs != rw)
		differ("one reading fails");
	if (rs == 0 && (s.nt != w.nt || s.nn != w.nn))
		differ("table sizes");
	for (i = 0; rs == 0 && i < s.nt; i++)
		sametensor(&s.t[i], &w.t[i]);
	for (i = 0; rs == 0 && i < s.nn; i++) {
		struct tensor ta, tb;
		int ra, rb;

		memset(&ta, 0, sizeof(ta));
		memset(&tb, 0, sizeof(tb));
		ra = attr_tensor(&s, &s.n[i], "value", &ta);
		rb = attr_tensor(&w, &w.n[i], "value", &tb);
		if (ra != rb)
			differ("attribute tensor result");
		if (ra == 1)
			sametensor(&ta, &tb);
		tensor_dropval(&ta);
		tensor_dropval(&tb);
	}
	model_free(&s);
	model_free(&w);
	return 0;
}
