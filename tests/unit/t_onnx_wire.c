/*
 * Unit tests of onnx_wire_strip: the data of large tensors leaves the
 * bytes, small shape tensors keep theirs, and a damaged file fails after
 * stripping exactly when it fails whole (every truncation, random byte
 * changes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "onnx.pb-c.h"
#include "onnx_wire.h"

#define BIGN	(256 * 1024)	/* floats of the big weight: 1 MiB */

static Onnx__TensorProto *
tensor(const char *name, int32_t dtype, int64_t *dims, size_t nd)
{
	Onnx__TensorProto *t = calloc(1, sizeof(*t));

	onnx__tensor_proto__init(t);
	t->name = (char *)name;
	t->has_data_type = 1;
	t->data_type = dtype;
	t->dims = dims;
	t->n_dims = nd;
	return t;
}

/* A model: Reshape(x, shape) with a big weight and a Constant node. */
static uint8_t *
model(size_t *len, size_t bign)
{
	static int64_t dbig[2], dsmall[1] = { 2 }, dconst[1] = { 2000 };
	static int64_t shape[2] = { 1, -1 };
	static float cval[2000];
	static char *rin[] = { "x", "shape" }, *rout[] = { "y" };
	static char *cout[] = { "c" };
	Onnx__ModelProto m;
	Onnx__GraphProto g;
	Onnx__NodeProto n[2], *np[2];
	Onnx__AttributeProto a, *ap[1];
	Onnx__TensorProto *init[2], *ct;
	Onnx__OperatorSetIdProto os, *osp[1];
	uint8_t *buf, *raw;
	size_t i;

	dbig[0] = (int64_t)bign / 512;
	dbig[1] = 512;
	raw = calloc(bign, 4);
	for (i = 0; i < bign * 4; i++)
		raw[i] = (uint8_t)(i * 7);
	init[0] = tensor("w", 1, dbig, 2);
	init[0]->has_raw_data = 1;
	init[0]->raw_data.data = raw;
	init[0]->raw_data.len = bign * 4;
	init[1] = tensor("shape", 7, dsmall, 1);
	init[1]->has_raw_data = 1;
	init[1]->raw_data.data = (uint8_t *)shape;
	init[1]->raw_data.len = sizeof(shape);
	ct = tensor("cv", 1, dconst, 1);
	ct->float_data = cval;
	ct->n_float_data = 2000;
	onnx__attribute_proto__init(&a);
	a.name = "value";
	a.t = ct;
	a.has_type = 1;
	a.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
	ap[0] = &a;
	for (i = 0; i < 2; i++) {
		onnx__node_proto__init(&n[i]);
		np[i] = &n[i];
	}
	n[0].op_type = "Reshape";
	n[0].input = rin;
	n[0].n_input = 2;
	n[0].output = rout;
	n[0].n_output = 1;
	n[1].op_type = "Constant";
	n[1].output = cout;
	n[1].n_output = 1;
	n[1].attribute = ap;
	n[1].n_attribute = 1;
	onnx__graph_proto__init(&g);
	g.name = "g";
	g.node = np;
	g.n_node = 2;
	g.initializer = init;
	g.n_initializer = 2;
	onnx__operator_set_id_proto__init(&os);
	os.has_version = 1;
	os.version = 13;
	osp[0] = &os;
	onnx__model_proto__init(&m);
	m.graph = &g;
	m.opset_import = osp;
	m.n_opset_import = 1;
	*len = onnx__model_proto__get_packed_size(&m);
	buf = malloc(*len);
	onnx__model_proto__pack(&m, buf);
	free(raw);
	free(init[0]);
	free(init[1]);
	free(ct);
	return buf;
}

/* Whether both readings of buf[0..len) decode, or neither. */
static int
agree(const uint8_t *buf, size_t len)
{
	Onnx__ModelProto *w = onnx__model_proto__unpack(NULL, len, buf);
	Onnx__ModelProto *s = NULL;
	uint8_t *st;
	size_t sl;

	if ((st = onnx_wire_strip(buf, len, &sl)) != NULL)
		s = onnx__model_proto__unpack(NULL, sl, st);
	free(st);
	if (w != NULL)
		onnx__model_proto__free_unpacked(w, NULL);
	if (s != NULL)
		onnx__model_proto__free_unpacked(s, NULL);
	return (w == NULL) == (s == NULL);
}

/* Field num of wire type 2 holding n bytes of p, appended at b. */
static size_t
lenfield(uint8_t *b, int num, const uint8_t *p, size_t n)
{
	size_t k = 0, len = n;

	b[k++] = (uint8_t)(num << 3 | 2);
	for (; len >= 0x80; len >>= 7)
		b[k++] = (uint8_t)(len | 0x80);
	b[k++] = (uint8_t)len;
	memcpy(b + k, p, n);
	return k + n;
}

/*
 * A graph whose one initializer, 2000 floats (values not kept), has a
 * data field of the given kind: protobuf-c rejects it when it is
 * malformed, so the stripped reading must fail too.
 */
static int
odd_data(int num, const uint8_t *d, size_t nd)
{
	uint8_t t[64], g[128], m[160];
	size_t nt = 0, ng, nm;

	t[nt++] = 0x08;			/* dims 2000 */
	t[nt++] = 0xd0;
	t[nt++] = 0x0f;
	t[nt++] = 0x10;			/* data_type FLOAT */
	t[nt++] = 0x01;
	nt += lenfield(t + nt, num, d, nd);
	nt += lenfield(t + nt, 8, (const uint8_t *)"w", 1);
	ng = lenfield(g, 5, t, nt);
	nm = lenfield(m, 7, g, ng);
	return agree(m, nm);
}

int
main(void)
{
	Onnx__ModelProto *s;
	const Onnx__TensorProto *t;
	uint8_t *buf, *st, *cp;
	size_t len, sl, i, bad = 0;
	int k;

	buf = model(&len, BIGN);
	CHECK(len > (size_t)BIGN * 4);
	st = onnx_wire_strip(buf, len, &sl);
	CHECK(st != NULL);
	CHECK(sl < 1024);	/* the big weight and the Constant's 2000 floats gone */
	s = onnx__model_proto__unpack(NULL, sl, st);
	CHECK(s != NULL && s->graph != NULL && s->graph->n_initializer == 2);
	if (s != NULL && s->graph != NULL && s->graph->n_initializer == 2) {
		t = s->graph->initializer[0];
		CHECK(strcmp(t->name, "w") == 0 && t->n_dims == 2 &&
		    t->dims[0] == BIGN / 512 && t->dims[1] == 512);
		CHECK(!t->has_raw_data);
		t = s->graph->initializer[1];	/* shape values decide shapes */
		CHECK(t->has_raw_data && t->raw_data.len == 16 &&
		    ((int64_t *)(void *)t->raw_data.data)[1] == -1);
		CHECK(s->graph->n_node == 2 &&
		    s->graph->node[1]->n_attribute == 1);
		t = s->graph->node[1]->attribute[0]->t;
		CHECK(t != NULL && t->n_dims == 1 && t->dims[0] == 2000 &&
		    t->n_float_data == 0);
		CHECK(strcmp(s->graph->node[0]->op_type, "Reshape") == 0);
	}
	if (s != NULL)
		onnx__model_proto__free_unpacked(s, NULL);

	/* Read from a file in pieces: the same bytes. */
	{
		FILE *fp = tmpfile();
		uint8_t *fs;
		size_t fl = 0;
		int err = -1;

		CHECK(fp != NULL && fwrite(buf, 1, len, fp) == len &&
		    fflush(fp) == 0);
		fs = onnx_wire_strip_fd(fileno(fp), len, &fl, &err);
		CHECK(fs != NULL && err == 0 && fl == sl &&
		    memcmp(fs, st, sl) == 0);
		free(fs);
		/* A file shorter than it was said to be: a read error. */
		fs = onnx_wire_strip_fd(fileno(fp), len + 100000, &fl, &err);
		CHECK(fs == NULL && err != 0);
		free(fs);
		fclose(fp);
	}
	free(st);
	free(buf);

	/* Damage: a model of 4 KiB of weights, cut and changed. */
	buf = model(&len, 1024);
	for (i = 0; i <= len; i++)
		if (!agree(buf, i))
			bad++;
	CHECK_EQ_I(bad, 0);
	cp = malloc(len);
	for (k = 0; k < 4000; k++) {
		memcpy(cp, buf, len);
		/* Mostly among the nodes (first) and the shape tensor
		 * (last), where the structure is, not in the weight. */
		for (i = 0; i < (size_t)rnd(1, 3); i++) {
			int64_t at = rnd(0, 3) < 2 ? rnd(0, 150) :
			    rnd(0, 1) ? (int64_t)len - 1 - rnd(0, 100) :
			    rnd(0, (int64_t)len - 1);
			cp[at] = (uint8_t)rnd(0, 255);
		}
		if (!agree(cp, len))
			bad++;
	}
	CHECK_EQ_I(bad, 0);
	/* Data fields that protobuf-c rejects stay for it to reject. */
	{
		static const uint8_t five[5], nine[9] = { 0, 0, 0, 0, 0, 0, 0, 0,
		    0x80 }, eleven[11] = { 0x80, 0x80, 0x80, 0x80, 0x80,
		    0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };

		CHECK(odd_data(4, five, 5));	/* floats: 4 bytes each */
		CHECK(odd_data(4, five, 4));
		CHECK(odd_data(10, nine, 9));	/* doubles: 8 */
		CHECK(odd_data(10, nine, 8));
		CHECK(odd_data(7, nine, 9));	/* int64: last varint open */
		CHECK(odd_data(7, nine, 8));
		CHECK(odd_data(11, eleven, 11));	/* varint of 11 bytes */
		CHECK(odd_data(5, eleven, 10));
	}
	st = onnx_wire_strip(buf, 0, &sl);
	CHECK(st != NULL && sl == 0);
	free(st);
	free(cp);
	free(buf);
	return CHECK_DONE();
}
