/*
 * Unit tests of the ONNX loader and graph passes on models packed here
 * with protobuf-c: tensor values from raw_data (little-endian int64) and
 * from typed fields (float16 bits in int32_data), a symbolic batch dim
 * that needs -i, nodes out of order (Kahn's order), a cycle, and the
 * shapes inferred through the reordered graph.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "onnx_graph.h"
#include "onnx_load.h"
#include "onnx.pb-c.h"
#include "check.h"

static Onnx__AttributeProto attr[2];
static int64_t ks[2] = { 2, 2 };

static Onnx__NodeProto *
mknode(Onnx__NodeProto *n, const char *op, char **in, size_t nin,
    char **out)
{
	onnx__node_proto__init(n);
	n->op_type = (char *)op;
	n->name = out[0];
	n->input = in;
	n->n_input = nin;
	n->output = out;
	n->n_output = 1;
	return n;
}

/* Pack a model of these nodes, inputs and initializers into path. */
static void
save(const char *path, Onnx__NodeProto **nodes, size_t nn,
    Onnx__ValueInfoProto **in, size_t nin, Onnx__TensorProto **init,
    size_t ninit)
{
	Onnx__ModelProto mp = ONNX__MODEL_PROTO__INIT;
	Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
	Onnx__OperatorSetIdProto os = ONNX__OPERATOR_SET_ID_PROTO__INIT;
	Onnx__OperatorSetIdProto *osp = &os;
	uint8_t *buf;
	size_t len;
	FILE *fp;

	os.has_version = 1;
	os.version = 13;
	mp.has_ir_version = 1;
	mp.ir_version = 7;
	mp.n_opset_import = 1;
	mp.opset_import = &osp;
	mp.graph = &g;
	g.node = nodes;
	g.n_node = nn;
	g.input = in;
	g.n_input = nin;
	g.initializer = init;
	g.n_initializer = ninit;
	len = protobuf_c_message_get_packed_size(&mp.base);
	buf = malloc(len);
	protobuf_c_message_pack(&mp.base, buf);
	fp = fopen(path, "wb");
	fwrite(buf, 1, len, fp);
	fclose(fp);
	free(buf);
}

int
main(int argc, char **argv)
{
	char path[] = "/tmp/t_onnx_XXXXXX";
	Onnx__NodeProto n[3], *np[3];
	Onnx__ValueInfoProto x = ONNX__VALUE_INFO_PROTO__INIT, *xp = &x;
	Onnx__TypeProto tp = ONNX__TYPE_PROTO__INIT;
	Onnx__TypeProto__Tensor tt = ONNX__TYPE_PROTO__TENSOR__INIT;
	Onnx__TensorShapeProto sp = ONNX__TENSOR_SHAPE_PROTO__INIT;
	Onnx__TensorShapeProto__Dimension d[4], *dp[4];
	Onnx__TensorProto w = ONNX__TENSOR_PROTO__INIT;
	Onnx__TensorProto s = ONNX__TENSOR_PROTO__INIT;
	Onnx__TensorProto hf = ONNX__TENSOR_PROTO__INIT;
	Onnx__TensorProto *init[3];
	int64_t wd[4] = { 2, 3, 1, 1 }, sd[1] = { 2 }, hd[1] = { 2 };
	uint8_t raw[16] = { 2, 0, 0, 0, 0, 0, 0, 0,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	int32_t halves[2] = { 0x3c00, 0xc000 };	/* 1.0, -2.0 */
	char *in_relu[] = { "c" }, *out_relu[] = { "y" };
	char *in_conv[] = { "m", "w" }, *out_conv[] = { "c" };
	char *in_pool[] = { "x" }, *out_pool[] = { "m" };
	char *in_a[] = { "b" }, *out_a[] = { "a" };
	char *in_b[] = { "a" }, *out_b[] = { "b" };
	struct input_shape is;
	char spec[] = "x=2x3x8x8";
	struct model m;
	int fd, k, t;

	(void)argc;
	pf_setprogname(argv[0]);
	if ((fd = mkstemp(path)) < 0)
		return 1;
	close(fd);

	/* x: N x 3 x 8 x 8 with N symbolic. */
	for (k = 0; k < 4; k++) {
		onnx__tensor_shape_proto__dimension__init(&d[k]);
		d[k].value_case =
		    ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
		d[k].dim_value = k == 1 ? 3 : 8;
		dp[k] = &d[k];
	}
	d[0].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
	d[0].dim_param = "N";
	sp.dim = dp;
	sp.n_dim = 4;
	tt.has_elem_type = 1;
	tt.elem_type = DT_FLOAT;
	tt.shape = &sp;
	tp.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	tp.tensor_type = &tt;
	x.name = "x";
	x.type = &tp;

	w.name = "w";
	w.dims = wd;
	w.n_dims = 4;
	w.has_data_type = 1;
	w.data_type = DT_FLOAT;
	s.name = "s";
	s.dims = sd;
	s.n_dims = 1;
	s.has_data_type = 1;
	s.data_type = DT_INT64;
	s.has_raw_data = 1;
	s.raw_data.data = raw;
	s.raw_data.len = sizeof(raw);
	hf.name = "h";
	hf.dims = hd;
	hf.n_dims = 1;
	hf.has_data_type = 1;
	hf.data_type = DT_FLOAT16;
	hf.int32_data = halves;
	hf.n_int32_data = 2;
	init[0] = &w;
	init[1] = &s;
	init[2] = &hf;

	/* Relu(c) first, then Conv(m), then MaxPool(x): reverse order. */
	np[0] = mknode(&n[0], "Relu", in_relu, 1, out_relu);
	np[1] = mknode(&n[1], "Conv", in_conv, 2, out_conv);
	np[2] = mknode(&n[2], "MaxPool", in_pool, 1, out_pool);
	onnx__attribute_proto__init(&attr[0]);
	attr[0].name = "kernel_shape";
	attr[0].ints = ks;
	attr[0].n_ints = 2;
	onnx__attribute_proto__init(&attr[1]);
	attr[1].name = "strides";
	attr[1].ints = ks;
	attr[1].n_ints = 2;
	{
		Onnx__AttributeProto *pa[2] = { &attr[0], &attr[1] };

		n[2].attribute = pa;
		n[2].n_attribute = 2;
		save(path, np, 3, &xp, 1, init, 3);
	}

	CHECK(model_load(&m, path) == 0);
	CHECK_EQ_I(m.opset, 13);
	CHECK_EQ_I(m.nn, 3);
	t = model_find(&m, "s");
	CHECK(t >= 0 && m.t[t].hasval && m.t[t].nval == 2 &&
	    m.t[t].iv[0] == 2 && m.t[t].iv[1] == -1);
	t = model_find(&m, "h");
	CHECK(t >= 0 && m.t[t].hasval && m.t[t].fv[0] == 1.0 &&
	    m.t[t].fv[1] == -2.0);
	t = model_find(&m, "w");
	CHECK(t >= 0 && m.t[t].isconst && !m.t[t].hasval &&
	    m.t[t].dims[1] == 3);
	CHECK(graph_order(&m) == 0);
	CHECK(m.order[0] == 2 && m.order[1] == 1 && m.order[2] == 0);
	fprintf(stderr, "(expected diagnostic follows)\n");
	CHECK(graph_inputs(&m, NULL, 0) < 0);	/* N is unknown */
	CHECK(graph_parse_shape(spec, &is) == 0);
	CHECK(strcmp(is.name, "x") == 0 && is.rank == 4 && is.dims[0] == 2);
	CHECK(graph_inputs(&m, &is, 1) == 0);
	CHECK(graph_infer(&m, 0) == 0);
	t = model_find(&m, "y");
	CHECK(t >= 0 && m.t[t].rank == 4 && m.t[t].dims[0] == 2 &&
	    m.t[t].dims[1] == 2 && m.t[t].dims[2] == 4 && m.t[t].dims[3] == 4);
	model_free(&m);

	/* Malformed -i options. */
	{
		char a[] = "=1x2", b[] = "x=1xx2", c[] = "x=0x3", e[] = "2x3";

		CHECK(graph_parse_shape(a, &is) < 0);
		CHECK(graph_parse_shape(b, &is) < 0);
		CHECK(graph_parse_shape(c, &is) < 0 && strcmp(c, "x=0x3") == 0);
		CHECK(graph_parse_shape(e, &is) == 0 && is.name == NULL &&
		    is.rank == 2);
	}

	/* A two-node cycle is found and reported. */
	np[0] = mknode(&n[0], "Relu", in_a, 1, out_a);
	np[1] = mknode(&n[1], "Relu", in_b, 1, out_b);
	save(path, np, 2, &xp, 1, NULL, 0);
	CHECK(model_load(&m, path) == 0);
	CHECK(graph_order(&m) < 0);
	model_free(&m);

	/* An empty file. */
	fclose(fopen(path, "wb"));
	CHECK(model_load(&m, path) < 0);
	model_free(&m);
	unlink(path);
	return CHECK_DONE();
}
