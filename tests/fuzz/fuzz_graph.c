/*
 * Structure-aware libFuzzer harness for onnx2layers: the bytes are read as
 * a small program that builds an ONNX graph (opset, input shape, then
 * nodes drawn from the ops onnx2layers knows plus an unknown one, their
 * inputs taken from earlier tensors or new small initializers, their
 * attributes from the bytes), packed with protobuf-c and fed through the
 * same path as fuzz_onnx.c (onnx_layers(), as onnx2layers).  Bit flips of a
 * real model rarely reach the shape rules with odd attributes; this does.
 * With FUZZ_GRAPH_SAVE=file set, each model is also written there, which
 * turns a crash input into an .onnx reproducer:
 *   FUZZ_GRAPH_SAVE=crash.onnx fuzz-out/bin/fuzz_graph CRASHFILE
 * Built by tests/fuzz/run.sh; not part of the normal build.
 */
#define FZ_PROG "fuzz_graph"
#include "fuzz_model.h"
#include "onnx_load.h"
#include "onnx.pb-c.h"

/* Input bytes, read one at a time; 0 once exhausted. */
static const uint8_t *in;
static size_t inlen, inpos;

static unsigned
u8(void)
{
	return inpos < inlen ? in[inpos++] : 0;
}

/* Everything allocated for one model, freed together. */
static void **arena;
static size_t narena, carena;

static void *
al(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (p == NULL)
		abort();
	if (narena == carena) {
		carena = carena ? 2 * carena : 256;
		if ((arena = realloc(arena, carena * sizeof(*arena))) == NULL)
			abort();
	}
	arena[narena++] = p;
	return p;
}

static char *
str(const char *s)
{
	char *p = al(strlen(s) + 1);

	strcpy(p, s);
	return p;
}

/* A dim: mostly small, sometimes 0, negative or huge. */
static int64_t
dim(void)
{
	unsigned b = u8();

	switch (b) {
	case 255: return 0;
	case 254: return -1;
	case 253: return (int64_t)1 << 40;
	case 252: return INT64_MAX;
	default: return 1 + b % 9;
	}
}

/* A small signed integer for attribute and shape values. */
static int64_t
sval(void)
{
	unsigned b = u8();

	if (b == 255)
		return INT64_MIN;
	if (b == 254)
		return INT64_MAX;
	return (int64_t)(int8_t)b;
}

static Onnx__TensorProto *
newtensor(const char *name)
{
	Onnx__TensorProto *t = al(sizeof(*t));
	int64_t n = 1;
	size_t i, r = u8() % 4;
	int isint = u8() & 1;

	onnx__tensor_proto__init(t);
	t->name = str(name);
	t->n_dims = r;
	t->dims = al(r * sizeof(int64_t));
	for (i = 0; i < r; i++) {
		t->dims[i] = dim();
		if (t->dims[i] > 0 && t->dims[i] < 4096 && n < 4096)
			n *= t->dims[i];
		else
			n = -1;
	}
	t->has_data_type = 1;
	t->data_type = isint ? DT_INT64 : DT_FLOAT;
	/* Values for small tensors (or, on purpose, the wrong count). */
	if (n >= 0 && n <= 64) {
		size_t cnt = (size_t)n + (u8() == 7);

		if (isint) {
			t->n_int64_data = cnt;
			t->int64_data = al(cnt * sizeof(int64_t));
			for (i = 0; i < cnt; i++)
				t->int64_data[i] = sval();
		} else {
			t->n_float_data = cnt;
			t->float_data = al(cnt * sizeof(float));
			for (i = 0; i < cnt; i++)
				t->float_data[i] = (float)sval() / 4;
		}
	}
	return t;
}

enum { A_INT, A_INTS, A_FLOAT, A_STR, A_TENSOR };

static const struct attrdef {
	const char	*name;
	int		 type;
} attrdefs[] = {
	{ "kernel_shape", A_INTS }, { "strides", A_INTS }, { "pads", A_INTS },
	{ "dilations", A_INTS }, { "group", A_INT }, { "auto_pad", A_STR },
	{ "output_padding", A_INTS }, { "output_shape", A_INTS },
	{ "ceil_mode", A_INT }, { "count_include_pad", A_INT },
	{ "transA", A_INT }, { "transB", A_INT }, { "alpha", A_FLOAT },
	{ "beta", A_FLOAT }, { "axis", A_INT }, { "axes", A_INTS },
	{ "keepdims", A_INT }, { "perm", A_INTS }, { "split", A_INTS },
	{ "starts", A_INTS }, { "ends", A_INTS }, { "min", A_FLOAT },
	{ "max", A_FLOAT }, { "value_ints", A_INTS }, { "value", A_TENSOR },
	{ "to", A_INT }, { "mode", A_STR }, { "size", A_INT },
	{ "epsilon", A_FLOAT }, { "scales", A_INTS }, { "allowzero", A_INT },
	{ "num_outputs", A_INT }, { "start", A_INT }, { "end", A_INT },
	{ "batch_dims", A_INT },
};
#define NATTRDEF (sizeof(attrdefs) / sizeof(attrdefs[0]))

/* Op, input count range, outputs, attributes worth trying (by name). */
static const struct opdef {
	const char	*op;
	int		 minin, maxin, nout;
	const char	*attrs;
} ops[] = {	/* at most MAXIN inputs */
	{ "Conv", 2, 3, 1, "kernel_shape strides pads dilations group auto_pad" },
	{ "ConvTranspose", 2, 3, 1,
	    "kernel_shape strides pads dilations group output_padding output_shape auto_pad" },
	{ "MaxPool", 1, 1, 1,
	    "kernel_shape strides pads dilations ceil_mode auto_pad" },
	{ "AveragePool", 1, 1, 1,
	    "kernel_shape strides pads ceil_mode count_include_pad auto_pad" },
	{ "GlobalAveragePool", 1, 1, 1, "" },
	{ "Gemm", 2, 3, 1, "transA transB alpha beta" },
	{ "MatMul", 2, 2, 1, "" },
	{ "Add", 2, 2, 1, "" }, { "Mul", 2, 2, 1, "" }, { "Sub", 2, 2, 1, "" },
	{ "Div", 2, 2, 1, "" }, { "Pow", 2, 2, 1, "" },
	{ "Relu", 1, 1, 1, "" }, { "Sigmoid", 1, 1, 1, "" },
	{ "Erf", 1, 1, 1, "" }, { "Sqrt", 1, 1, 1, "" },
	{ "Clip", 1, 3, 1, "min max" }, { "HardSigmoid", 1, 1, 1, "alpha beta" },
	{ "Softmax", 1, 1, 1, "axis" },
	{ "BatchNormalization", 5, 5, 1, "epsilon" },
	{ "LayerNormalization", 1, 3, 1, "axis epsilon" },
	{ "ReduceMean", 1, 2, 1, "axes keepdims" },
	{ "Concat", 1, 4, 1, "axis" }, { "Split", 1, 2, 2, "axis split num_outputs" },
	{ "Slice", 1, 5, 1, "starts ends axes" }, { "Gather", 2, 2, 1, "axis" },
	{ "Reshape", 2, 2, 1, "allowzero" }, { "Flatten", 1, 1, 1, "axis" },
	{ "Transpose", 1, 1, 1, "perm" }, { "Squeeze", 1, 2, 1, "axes" },
	{ "Unsqueeze", 1, 2, 1, "axes" }, { "Shape", 1, 1, 1, "start end" },
	{ "Constant", 0, 0, 1, "value value_ints" },
	{ "ConstantOfShape", 1, 1, 1, "value" },
	{ "Identity", 1, 1, 1, "" }, { "Dropout", 1, 3, 1, "" },
	{ "Pad", 1, 3, 1, "pads mode" }, { "Resize", 1, 4, 1, "mode" },
	{ "Upsample", 1, 2, 1, "mode scales" }, { "Cast", 1, 1, 1, "to" },
	{ "Expand", 2, 2, 1, "" }, { "Range", 3, 3, 1, "" },
	{ "Where", 3, 3, 1, "" }, { "Equal", 2, 2, 1, "" },
	{ "LRN", 1, 1, 1, "size alpha beta" }, { "Sum", 1, 3, 1, "" },
	{ "QuantizeLinear", 1, 3, 1, "axis" },
	{ "DequantizeLinear", 1, 3, 1, "axis" },
	{ "QLinearConv", 8, 9, 1, "kernel_shape strides pads group" },
	{ "ConvInteger", 2, 4, 1, "kernel_shape pads" },
	{ "QLinearMatMul", 8, 8, 1, "" }, { "MatMulInteger", 2, 4, 1, "" },
	{ "NonZero", 1, 1, 1, "" }, { "GatherND", 2, 2, 1, "batch_dims" },
	{ "Size", 1, 1, 1, "" }, { "Greater", 2, 2, 1, "" },
	{ "If", 1, 1, 2, "" },	/* branches: newbranch() */
	{ "FooBar", 1, 2, 1, "" },
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))
#define MAXIN 9		/* the most inputs an op above takes (QLinearConv) */

static Onnx__AttributeProto *
newattr(const struct attrdef *d)
{
	static const char *const pads[] = { "NOTSET", "SAME_UPPER",
	    "SAME_LOWER", "VALID", "bogus" };
	static const char *const modes[] = { "constant", "reflect", "edge",
	    "nearest", "linear" };
	Onnx__AttributeProto *a = al(sizeof(*a));
	size_t i, n;
	const char *s;

	onnx__attribute_proto__init(a);
	a->name = str(d->name);
	a->has_type = 1;
	switch (d->type) {
	case A_INT:
		a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
		a->has_i = 1;
		a->i = u8() < 230 ? (int64_t)(u8() % 4) : sval();
		break;
	case A_FLOAT:
		a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
		a->has_f = 1;
		a->f = (float)sval() / 8;
		break;
	case A_INTS:
		a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
		n = u8() % 7;
		a->n_ints = n;
		a->ints = al(n * sizeof(int64_t));
		for (i = 0; i < n; i++) {
			unsigned b = u8();

			a->ints[i] = b < 240 ? (int64_t)(b % 8) - 1 : sval();
		}
		break;
	case A_STR:
		a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
		s = strcmp(d->name, "auto_pad") == 0 ? pads[u8() % 5] :
		    modes[u8() % 5];
		a->has_s = 1;
		a->s.len = strlen(s);
		a->s.data = (uint8_t *)str(s);
		break;
	case A_TENSOR:
		a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
		a->t = newtensor("");
		break;
	}
	return a;
}

static Onnx__ValueInfoProto *
newvi(const char *name, int rank)
{
	Onnx__ValueInfoProto *v = al(sizeof(*v));
	Onnx__TypeProto *tp = al(sizeof(*tp));
	Onnx__TypeProto__Tensor *tt = al(sizeof(*tt));
	Onnx__TensorShapeProto *sh = al(sizeof(*sh));
	int i;

	onnx__value_info_proto__init(v);
	onnx__type_proto__init(tp);
	onnx__type_proto__tensor__init(tt);
	onnx__tensor_shape_proto__init(sh);
	v->name = str(name);
	v->type = tp;
	tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	tp->tensor_type = tt;
	tt->has_elem_type = 1;
	tt->elem_type = DT_FLOAT;
	if (rank < 0)
		return v;
	tt->shape = sh;
	sh->n_dim = (size_t)rank;
	sh->dim = al((size_t)rank * sizeof(*sh->dim));
	for (i = 0; i < rank; i++) {
		Onnx__TensorShapeProto__Dimension *d = al(sizeof(*d));

		onnx__tensor_shape_proto__dimension__init(d);
		if (u8() == 99) {
			d->value_case =
			    ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
			d->dim_param = str("N");
		} else {
			d->value_case =
			    ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
			d->dim_value = dim();
		}
		sh->dim[i] = d;
	}
	return v;
}

/* The tensor names a graph's nodes may read, and where they go. */
struct scope {
	Onnx__GraphProto *g;		/* initializers go here */
	char		**names;
	size_t		  nnames, maxt;
};

#define BRANCHN	2	/* the most nodes a branch holds */
/* Names a node can add: its inputs as new initializers, two outputs. */
#define NODENAMES	(MAXIN + 2)

static Onnx__NodeProto *newnode(struct scope *, const char *, int);

/*
 * An If's branch (attribute name) of 0..BRANCHN nodes reading the
 * outer names and its own; outputs mostly nout of its names (or
 * outer ones), sometimes another count.  Its names leave scope after.
 */
static Onnx__AttributeProto *
newbranch(struct scope *sc, const char *name, const char *pfx, size_t nout)
{
	Onnx__AttributeProto *a = al(sizeof(*a));
	Onnx__GraphProto *g = al(sizeof(*g));
	struct scope b = *sc;
	size_t n = u8() % (BRANCHN + 1), i;
	char buf[32];

	onnx__attribute_proto__init(a);
	onnx__graph_proto__init(g);
	a->name = str(name);
	a->has_type = 1;
	a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
	a->g = g;
	g->name = str(pfx);
	b.g = g;
	g->node = al((n ? n : 1) * sizeof(*g->node));
	g->initializer = al((n ? n : 1) * MAXIN * sizeof(*g->initializer));
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%s%zu", pfx, i);
		g->node[g->n_node++] = newnode(&b, buf, 1);
	}
	if (u8() < 30)
		nout = u8() % 3;
	g->n_output = nout;
	g->output = al((nout ? nout : 1) * sizeof(*g->output));
	for (i = 0; i < nout; i++)
		g->output[i] = newvi(b.names[u8() < 200 ? b.nnames - 1 - i %
		    b.nnames : u8() % b.nnames], -1);
	return a;
}

/*
 * A node called name (its outputs tname_k) of an op drawn from the
 * bytes, its inputs from sc's names or new initializers; an If at depth
 * 0 gets branches, deeper it becomes an Identity.
 */
static Onnx__NodeProto *
newnode(struct scope *sc, const char *name, int depth)
{
	const struct opdef *od = &ops[u8() % NOPS];
	Onnx__NodeProto *np = al(sizeof(*np));
	size_t nin, nout, j;
	const char *a;
	char buf[48];
	int isif;

	if ((isif = strcmp(od->op, "If") == 0) && depth > 0)
		od = &ops[0];
	nin = (size_t)od->minin + u8() % (size_t)(od->maxin - od->minin + 1);
	nout = isif && depth == 0 ? 1 + u8() % 2 : (size_t)od->nout;
	onnx__node_proto__init(np);
	np->op_type = str(od->op);
	np->name = str(name);
	np->n_input = nin;
	np->input = al(nin * sizeof(char *));
	for (j = 0; j < nin; j++) {
		unsigned b = u8();

		if (b < 160 || sc->nnames >= sc->maxt - 1) {
			np->input[j] = sc->names[b % sc->nnames];
		} else if (b < 250) {
			/* A new initializer. */
			snprintf(buf, sizeof(buf), "w%s_%zu", name, j);
			sc->g->initializer[sc->g->n_initializer++] =
			    newtensor(buf);
			np->input[j] = sc->names[sc->nnames++] = str(buf);
		} else {
			np->input[j] = str(b == 250 ? "" : "dangling");
		}
	}
	np->n_output = nout;
	np->output = al(nout * sizeof(char *));
	for (j = 0; j < nout; j++) {
		snprintf(buf, sizeof(buf), "t%s_%zu", name, j);
		np->output[j] = str(buf);
	}
	/* Attributes: each of the op's own with probability 1/2. */
	np->attribute = al(8 * sizeof(*np->attribute));
	if (isif && depth == 0) {
		snprintf(buf, sizeof(buf), "%st", name);
		np->attribute[np->n_attribute++] = newbranch(sc, "then_branch",
		    buf, nout);
		snprintf(buf, sizeof(buf), "%se", name);
		np->attribute[np->n_attribute++] = newbranch(sc, "else_branch",
		    buf, nout);
	}
	for (a = od->attrs; *a != '\0' && np->n_attribute < 8; ) {
		size_t len = strcspn(a, " "), k;

		for (k = 0; k < NATTRDEF; k++)
			if (strlen(attrdefs[k].name) == len &&
			    strncmp(attrdefs[k].name, a, len) == 0)
				break;
		if (k < NATTRDEF && (u8() & 1))
			np->attribute[np->n_attribute++] =
			    newattr(&attrdefs[k]);
		a += len;
		a += strspn(a, " ");
	}
	/* Its outputs in scope only now (a branch may not read them). */
	for (j = 0; j < nout; j++)
		sc->names[sc->nnames++] = np->output[j];
	return np;
}

/* Build a model from the input bytes into *mp (arena-owned). */
static void
build(Onnx__ModelProto *mp)
{
	static const int64_t opsets[] = { 9, 10, 11, 13, 17, 18 };
	Onnx__GraphProto *g = al(sizeof(*g));
	Onnx__OperatorSetIdProto *os = al(sizeof(*os));
	struct scope sc;
	size_t nn, i;
	char buf[32];

	onnx__model_proto__init(mp);
	onnx__graph_proto__init(g);
	onnx__operator_set_id_proto__init(os);
	mp->has_ir_version = 1;
	mp->ir_version = 8;
	os->domain = str("");
	os->has_version = 1;
	os->version = opsets[u8() % 6];
	mp->n_opset_import = 1;
	mp->opset_import = al(sizeof(*mp->opset_import));
	mp->opset_import[0] = os;
	mp->graph = g;
	g->name = str("g");

	nn = 1 + u8() % 12;
	/* a node's names, and the most two branches add for a while */
	sc.g = g;
	sc.maxt = 2 + nn * NODENAMES + 2 * BRANCHN * NODENAMES;
	sc.names = al(sc.maxt * sizeof(*sc.names));
	sc.nnames = 0;
	g->n_input = 1;
	g->input = al(sizeof(*g->input));
	g->input[0] = newvi("x", 2 + (int)(u8() % 3));
	sc.names[sc.nnames++] = str("x");
	g->node = al(nn * sizeof(*g->node));
	g->initializer = al(nn * MAXIN * sizeof(*g->initializer));
	for (i = 0; i < nn; i++) {
		snprintf(buf, sizeof(buf), "n%zu", i);
		g->node[g->n_node++] = newnode(&sc, buf, 0);
	}
	g->n_output = 1;
	g->output = al(sizeof(*g->output));
	g->output[0] = newvi(sc.names[sc.nnames - 1], -1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Onnx__ModelProto mp;
	const char *save = getenv("FUZZ_GRAPH_SAVE");
	uint8_t *pb;
	size_t n, i;
	int keep;

	in = data;
	inlen = size;
	inpos = 0;
	keep = u8() & 1;
	build(&mp);
	n = onnx__model_proto__get_packed_size(&mp);
	pb = al(n);
	onnx__model_proto__pack(&mp, pb);
	if (save != NULL)
		(void)fz_save(save, pb, n);
	fz_layers(pb, n, keep);
	for (i = 0; i < narena; i++)
		free(arena[i]);
	narena = 0;
	return 0;
}
