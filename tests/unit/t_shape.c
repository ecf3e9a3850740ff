/*
 * Unit tests of the shape rules: window arithmetic (conv, auto_pad
 * SAME_UPPER/SAME_LOWER/VALID, ceil_mode, dilation, ConvTranspose),
 * numpy broadcasting, and per-op rules on hand-built nodes (Reshape 0 and
 * -1, Gemm and MatMul, Squeeze and Split in their attribute and input
 * forms, Slice with a negative step, Concat, Flatten, Resize).  Expected
 * values are worked out by hand from the ONNX operator definitions.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_consteval.h"
#include "diag.h"
#include "onnx_load.h"
#include "onnx.pb-c.h"
#include "onnx_ops.h"
#include "onnx_shape.h"
#include "check.h"

static int64_t pb, pe, out;

static int
win(int64_t in, int64_t k, int64_t s, int64_t d, int64_t p0, int64_t p1,
    enum autopad ap, int ceil)
{
	pb = p0;
	pe = p1;
	return window_axis(in, k, s, d, &pb, &pe, ap, ceil, 0, 0, -1, &out);
}

/* A tiny model: tensors by index, one node at a time. */
static struct model M;
static Onnx__AttributeProto attrs[8], *attrp[8];
static int64_t ints[8][8];
static Onnx__NodeProto np;
static struct node N;

static int
T(const char *name, int rank, const int64_t *d, int isconst)
{
	struct tensor *t = &M.t[M.nt];

	memset(t, 0, sizeof(*t));
	t->name = name;
	t->dtype = DT_FLOAT;
	t->rank = rank;
	if (rank > 0)
		memcpy(t->dims, d, (size_t)rank * sizeof(*d));
	t->known = 1;
	t->isconst = isconst;
	t->producer = -1;
	t->layer = -1;
	return (int)M.nt++;
}

/* A tensor of the dims listed, e.g. TD("x", 0, 1, 3, 8): [1, 3, 8]. */
#define TD(name, isconst, ...) T((name), (int)(sizeof((int64_t[]){ \
	__VA_ARGS__ }) / sizeof(int64_t)), (int64_t[]){ __VA_ARGS__ }, (isconst))

/* An int64 constant with values. */
static int
V(const char *name, int n, const int64_t *v)
{
	int64_t d = n;
	int i = T(name, 1, &d, 1);
	int k;

	M.t[i].dtype = DT_INT64;
	tensor_setval(&M.t[i], n);
	for (k = 0; k < n; k++)
		M.t[i].iv[k] = v[k];
	return i;
}

static void
A(const char *name, int n, const int64_t *v)
{
	Onnx__AttributeProto *a = &attrs[np.n_attribute];

	memset(a, 0, sizeof(*a));
	a->name = (char *)name;
	if (n < 0) {
		a->has_i = 1;
		a->i = v[0];
	} else {
		memcpy(ints[np.n_attribute], v, (size_t)n * sizeof(*v));
		a->ints = ints[np.n_attribute];
		a->n_ints = (size_t)n;
	}
	attrp[np.n_attribute] = a;
	np.n_attribute++;
}

static int ins[8], outs[8];

/* Set up node op over inputs (-1 = omitted) with nout outputs. */
static void
node(const char *op, int nin, const int *in, int nout)
{
	int i;

	memset(&np, 0, sizeof(np));
	memset(&N, 0, sizeof(N));
	np.attribute = attrp;
	N.np = &np;
	N.name = "n";
	N.op = op;
	N.stdop = 1;
	N.nin = (size_t)nin;
	N.nout = (size_t)nout;
	memcpy(ins, in, (size_t)nin * sizeof(int));
	N.in = ins;
	for (i = 0; i < nout; i++) {
		outs[i] = T("out", 0, NULL, 0);
		M.t[outs[i]].known = 0;
	}
	N.out = outs;
}

static int
infer(void)
{
	const struct onnx_op *op = onnx_op_find(N.op);

	return op == NULL || op->shape(&M, &N) < 0 ? -1 : 0;
}

/* The node's output folded as a constant; consteval_node's result. */
static int
fold(void)
{
	M.t[outs[0]].isconst = 1;
	return consteval_node(&M, &N);
}

/*
 * The op table: sorted for bsearch and without duplicates, every entry
 * with a rule, an act value exactly on activations, and found by name.
 */
static void
optable(void)
{
	size_t n, i;
	const struct onnx_op *t = onnx_op_table(&n);

	CHECK(n > 100);
	for (i = 0; i < n; i++) {
		CHECK(i == 0 || strcmp(t[i - 1].op, t[i].op) < 0);
		CHECK(t[i].shape != NULL);
		CHECK((t[i].kind == K_ACT) == (t[i].act != NULL));
		CHECK(onnx_op_find(t[i].op) == &t[i]);
	}
	CHECK(onnx_op_find("NoSuchOp") == NULL);
	CHECK(onnx_op_find("Relu")->kind == K_ACT);
	CHECK(strcmp(onnx_op_find("Relu")->act, "relu") == 0);
	CHECK(onnx_op_find("ReduceSum")->kind == K_REDUCE);
	CHECK(onnx_op_find("Mul")->kind == K_ELT);
}

static int
dims(int t, int rank, int64_t a, int64_t b, int64_t c, int64_t d)
{
	const int64_t w[4] = { a, b, c, d };
	int i;

	if (!M.t[t].known || M.t[t].rank != rank)
		return 0;
	for (i = 0; i < rank; i++)
		if (M.t[t].dims[i] != w[i])
			return 0;
	return 1;
}

static void
reset(void)
{
	size_t i;

	for (i = 0; i < M.nt; i++) {
		free(M.t[i].iv);
		free(M.t[i].fv);
	}
	M.nt = 0;
}

int
main(int argc, char **argv)
{
	int64_t d[8], o[8], v[8];
	int r, x, y, z, in3[3];

	(void)argc;
	pf_setprogname(argv[0]);
	M.file = "t.onnx";
	M.t = calloc(64, sizeof(*M.t));
	M.opset = 13;
	optable();

	/* ResNet stem: 224, k7, s2, p3 -> 112. */
	CHECK(win(224, 7, 2, 1, 3, 3, AP_NOTSET, 0) == 0 && out == 112);
	/* SAME_UPPER puts the odd pad at the end, SAME_LOWER at the start. */
	CHECK(win(15, 4, 2, 1, 0, 0, AP_SAME_UPPER, 0) == 0);
	CHECK_EQ_I(out, 8);
	CHECK_EQ_I(pb, 1);
	CHECK_EQ_I(pe, 2);
	CHECK(win(15, 4, 2, 1, 0, 0, AP_SAME_LOWER, 0) == 0);
	CHECK_EQ_I(pb, 2);
	CHECK_EQ_I(pe, 1);
	/* VALID ignores pads: (10-3)/3+1 = 3. */
	CHECK(win(10, 3, 3, 1, 5, 5, AP_VALID, 0) == 0 && out == 3 && pb == 0);
	/* Dilation 2 makes a 3-kernel span 5: 10-5+1 = 6. */
	CHECK(win(10, 3, 1, 2, 0, 0, AP_NOTSET, 0) == 0 && out == 6);
	/* ceil_mode: (56+2-3)/2 = 27.5 -> 28 windows + 1 = 29. */
	CHECK(win(56, 3, 2, 1, 1, 1, AP_NOTSET, 0) == 0 && out == 28);
	CHECK(win(56, 3, 2, 1, 1, 1, AP_NOTSET, 1) == 0 && out == 29);
	/* ...but a last window starting in the right pad is dropped. */
	CHECK(win(28, 2, 2, 1, 0, 1, AP_NOTSET, 1) == 0 && out == 14);
	/* A window larger than the padded input, and an absurd kernel. */
	CHECK(win(4, 7, 1, 1, 1, 1, AP_NOTSET, 0) < 0);
	CHECK(win(4, INT64_MAX / 2, 1, 4, 0, 0, AP_NOTSET, 0) < 0);
	/* ConvTranspose: 2*(7-1) + 1 + 4 - 1 - 1 = 15. */
	pb = pe = 1;
	CHECK(window_axis(7, 4, 2, 1, &pb, &pe, AP_NOTSET, 0, 1, 1, -1,
	    &out) == 0 && out == 15);

	/* Broadcasting, also into one of its inputs. */
	d[0] = 2; d[1] = 3; d[2] = 8; d[3] = 8;
	o[0] = 3; o[1] = 1; o[2] = 1;
	CHECK(shape_broadcast(d, 4, o, 3, d, &r) == 0 && r == 4 &&
	    d[1] == 3 && d[3] == 8);
	d[0] = 1; d[1] = 3; o[0] = 5; o[1] = 1;
	CHECK(shape_broadcast(o, 2, d, 2, o, &r) == 0 && o[0] == 5 &&
	    o[1] == 3);
	d[0] = 3; o[0] = 5;
	CHECK(shape_broadcast(d, 1, o, 1, d, &r) < 0);

	/* Reshape with 0 (copy) and -1 (infer): 2x3x4x5 -> 2x3x20. */
	x = TD("x", 0, 2, 3, 4, 5);
	v[0] = 0; v[1] = 0; v[2] = -1;
	in3[0] = x; in3[1] = V("s", 3, v);
	node("Reshape", 2, in3, 1);
	CHECK(infer() == 0 && dims(outs[0], 3, 2, 3, 20, 0));
	/* Two -1s, and a count that does not divide, are errors. */
	v[1] = -1;
	in3[1] = V("s2", 3, v);
	node("Reshape", 2, in3, 1);
	fprintf(stderr, "(expected diagnostic follows)\n");
	CHECK(infer() < 0);
	v[0] = 7; v[1] = -1;
	in3[1] = V("s3", 2, v);
	node("Reshape", 2, in3, 1);
	CHECK(infer() < 0);

	/* Flatten axis 2: 6 x 20. */
	node("Flatten", 1, &x, 1);
	v[0] = 2;
	A("axis", -1, v);
	CHECK(infer() == 0 && dims(outs[0], 2, 6, 20, 0, 0));

	/* Gemm with transB; K must match. */
	reset();
	x = TD("a", 0, 4, 512);
	y = TD("w", 1, 10, 512);
	in3[0] = x; in3[1] = y;
	node("Gemm", 2, in3, 1);
	v[0] = 1;
	A("transB", -1, v);
	CHECK(infer() == 0 && dims(outs[0], 2, 4, 10, 0, 0));
	node("Gemm", 2, in3, 1);	/* without transB: K 512 vs 10 */
	CHECK(infer() < 0);

	/* Batched MatMul broadcasting [2,1,5,8] x [3,8,4] -> [2,3,5,4]. */
	x = TD("p", 0, 2, 1, 5, 8);
	y = TD("q", 0, 3, 8, 4);
	in3[0] = x; in3[1] = y;
	node("MatMul", 2, in3, 1);
	CHECK(infer() == 0 && dims(outs[0], 4, 2, 3, 5, 4));
	/* A vector operand drops its dim: [8] x [3,8,4] -> [3,4]. */
	in3[0] = TD("vec", 0, 8);
	node("MatMul", 2, in3, 1);
	CHECK(infer() == 0 && dims(outs[0], 2, 3, 4, 0, 0));

	/* Squeeze: opset 11 attribute, opset 13 input, and no axes. */
	reset();
	x = TD("x", 0, 1, 3, 1, 5);
	node("Squeeze", 1, &x, 1);
	v[0] = 2;
	A("axes", 1, v);
	CHECK(infer() == 0 && dims(outs[0], 3, 1, 3, 5, 0));
	v[0] = -4;
	in3[0] = x; in3[1] = V("ax", 1, v);
	node("Squeeze", 2, in3, 1);
	CHECK(infer() == 0 && dims(outs[0], 3, 3, 1, 5, 0));
	node("Squeeze", 1, &x, 1);
	CHECK(infer() == 0 && dims(outs[0], 2, 3, 5, 0, 0));
	v[0] = 1;	/* squeezing a dim of 3 */
	in3[1] = V("ax1", 1, v);
	node("Squeeze", 2, in3, 1);
	CHECK(infer() < 0);
	/* Unsqueeze with axes as input: [1,3,1,5] -> [1,3,1,5,1]. */
	v[0] = -1;
	in3[1] = V("ax2", 1, v);
	node("Unsqueeze", 2, in3, 1);
	CHECK(infer() == 0 && M.t[outs[0]].rank == 5 &&
	    M.t[outs[0]].dims[4] == 1);

	/* Split: sizes as attribute (opset 11) or input (13), or equal. */
	reset();
	x = TD("x", 0, 1, 7, 4);
	node("Split", 1, &x, 2);
	v[0] = 1;
	A("axis", -1, v);
	v[0] = 3; v[1] = 4;
	A("split", 2, v);
	CHECK(infer() == 0 && dims(outs[0], 3, 1, 3, 4, 0) &&
	    dims(outs[1], 3, 1, 4, 4, 0));
	in3[0] = x; in3[1] = V("sp", 2, v);
	node("Split", 2, in3, 2);
	v[0] = 1;
	A("axis", -1, v);
	CHECK(infer() == 0 && dims(outs[1], 3, 1, 4, 4, 0));
	node("Split", 1, &x, 3);	/* 7 into 3: 3, 3, 1 (opset 18) */
	A("axis", -1, v);
	CHECK(infer() == 0 && dims(outs[2], 3, 1, 1, 4, 0));

	/* Slice with a negative step: rows 6, 4, 2, 0 of 7. */
	reset();
	x = TD("x", 0, 7, 12);
	v[0] = -1;
	in3[0] = x;
	in3[1] = V("st", 1, v);
	v[0] = INT64_MIN;
	in3[2] = V("en", 1, v);
	z = V("ax", 1, (int64_t[]){ 0 });
	{
		int in5[5] = { in3[0], in3[1], in3[2], z, -1 };

		in5[4] = V("step", 1, (int64_t[]){ -2 });
		node("Slice", 5, in5, 1);
		CHECK(infer() == 0 && dims(outs[0], 2, 4, 12, 0, 0));
		/* The constant folder agrees on the values. */
		M.t[x].isconst = 1;
		tensor_setval(&M.t[x], 84);
		for (r = 0; r < 84; r++)
			M.t[x].fv[r] = r;
		CHECK(fold() == 0 && M.t[outs[0]].hasval &&
		    M.t[outs[0]].fv[0] == 72 && M.t[outs[0]].fv[12] == 48);
	}

	/* Concat along axis 1, and a mismatch outside the axis. */
	reset();
	x = TD("x", 0, 1, 3, 8);
	y = TD("y", 0, 1, 5, 8);
	in3[0] = x; in3[1] = y;
	node("Concat", 2, in3, 1);
	v[0] = 1;
	A("axis", -1, v);
	CHECK(infer() == 0 && dims(outs[0], 3, 1, 8, 8, 0));
	node("Concat", 2, in3, 1);
	v[0] = 2;
	A("axis", -1, v);
	CHECK(infer() < 0);

	/* Resize by sizes (opset 11+) and by scales. */
	reset();
	x = TD("x", 0, 1, 2, 5, 6);
	v[0] = 1; v[1] = 2; v[2] = 9; v[3] = 20;
	in3[0] = x; in3[1] = -1;
	{
		int in4[4] = { x, -1, -1, V("sz", 4, v) };

		M.opset = 13;
		node("Resize", 4, in4, 1);
		CHECK(infer() == 0 && dims(outs[0], 4, 1, 2, 9, 20));
	}

	/* Conv: channel mismatch, groups and depthwise. */
	reset();
	x = TD("x", 0, 1, 4, 9, 9);
	y = TD("w", 1, 8, 2, 3, 3);
	in3[0] = x; in3[1] = y;
	node("Conv", 2, in3, 1);
	v[0] = 2;
	A("group", -1, v);
	v[0] = 2; v[1] = 2;
	A("strides", 2, v);
	CHECK(infer() == 0 && dims(outs[0], 4, 1, 8, 4, 4));
	node("Conv", 2, in3, 1);	/* group 1: 4 channels vs 2 */
	CHECK(infer() < 0);

	/*
	 * Constant folding as ONNX defines it.  Expand broadcasts its input,
	 * never its shape operand: the class token [1,1,4] to [2,1,4] by the
	 * shape [2,1,1] (which does not broadcast with the output itself).
	 */
	reset();
	x = TD("tok", 1, 1, 1, 4);
	tensor_setval(&M.t[x], 4);
	for (r = 0; r < 4; r++)
		M.t[x].fv[r] = r + 1;
	v[0] = 2; v[1] = 1; v[2] = 1;
	in3[0] = x; in3[1] = V("shape", 3, v);
	node("Expand", 2, in3, 1);
	CHECK(infer() == 0 && dims(outs[0], 3, 2, 1, 4, 0));
	CHECK(fold() == 0 && M.t[outs[0]].hasval &&
	    M.t[outs[0]].fv[0] == 1 && M.t[outs[0]].fv[7] == 4);
	/* Sum is variadic: all three operands count. */
	reset();
	v[0] = 1; v[1] = 2;
	in3[0] = V("a", 2, v);
	v[0] = 10; v[1] = 20;
	in3[1] = V("b", 2, v);
	v[0] = 100; v[1] = 200;
	in3[2] = V("c", 2, v);
	node("Sum", 3, in3, 1);
	CHECK(infer() == 0);
	CHECK(fold() == 0 && M.t[outs[0]].iv[0] == 111 &&
	    M.t[outs[0]].iv[1] == 222);
	/* ReduceSum of floats in floating point, not truncated. */
	reset();
	x = TD("f", 1, 2, 2);
	tensor_setval(&M.t[x], 4);
	for (r = 0; r < 4; r++)
		M.t[x].fv[r] = 0.25 * (r + 1);
	in3[0] = x;
	in3[1] = V("axes", 1, (int64_t[]){ 1 });
	node("ReduceSum", 2, in3, 1);
	CHECK(infer() == 0 && dims(outs[0], 2, 2, 1, 0, 0));
	CHECK(fold() == 0 && M.t[outs[0]].fv[0] == 0.75 &&
	    M.t[outs[0]].fv[1] == 1.75);
	/* Cast to bool: 0.5 is true. */
	node("Cast", 1, &x, 1);
	v[0] = DT_BOOL;
	A("to", -1, v);
	M.t[x].fv[0] = 0.5;
	CHECK(infer() == 0);
	CHECK(fold() == 0 && M.t[outs[0]].iv[0] == 1);
	/* ScatterND: a zero mask with rows written (Swin's attention mask). */
	reset();
	x = TD("mask", 1, 3, 2);
	M.t[x].dtype = DT_INT64;
	tensor_setval(&M.t[x], 6);
	y = TD("idx", 1, 2, 1);
	M.t[y].dtype = DT_INT64;
	tensor_setval(&M.t[y], 2);
	M.t[y].iv[0] = 2;
	M.t[y].iv[1] = -3;
	z = TD("upd", 1, 2, 2);
	M.t[z].dtype = DT_INT64;
	tensor_setval(&M.t[z], 4);
	for (r = 0; r < 4; r++)
		M.t[z].iv[r] = r + 1;
	in3[0] = x; in3[1] = y; in3[2] = z;
	node("ScatterND", 3, in3, 1);
	CHECK(infer() == 0 && dims(outs[0], 2, 3, 2, 0, 0));
	CHECK(fold() == 0 && M.t[outs[0]].iv[0] == 3 &&
	    M.t[outs[0]].iv[1] == 4 && M.t[outs[0]].iv[2] == 0 &&
	    M.t[outs[0]].iv[4] == 1 && M.t[outs[0]].iv[5] == 2);
	/* Tile repeats the values. */
	reset();
	v[0] = 7; v[1] = 8;
	in3[0] = V("t", 2, v);
	in3[1] = V("rep", 1, (int64_t[]){ 2 });
	node("Tile", 2, in3, 1);
	CHECK(infer() == 0 && dims(outs[0], 1, 4, 0, 0, 0));
	CHECK(fold() == 0 && M.t[outs[0]].iv[2] == 7 &&
	    M.t[outs[0]].iv[3] == 8);

	reset();
	free(M.t);
	return CHECK_DONE();
}
