/*
 * ONNX model loading for onnx2layers: the protobuf is decoded by the
 * protobuf-c code generated from the system's onnx.proto, and turned into
 * a table of named tensors and a list of nodes that refer to them by index.
 * Only dims are needed for weights; values are kept for small tensors
 * (shape arguments such as a Reshape's shape or a Slice's starts), which
 * later stages read and fold.  The data of every other tensor is cut out
 * of the file's bytes before protobuf-c decodes them (onnx_wire.h), so
 * weights are neither held nor copied.  External data is never opened.
 *
 * struct tensor and struct node also carry the fields the later stages
 * (shape inference, constant folding, emission) fill in, so one model
 * value travels through the whole tool.
 */
#ifndef PF_ONNX_LOAD_H
#define PF_ONNX_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "nameix.h"

/*
 * The decoded protobuf stays behind these opaque handles: only
 * onnx_load.c reads Onnx__* structures; every other module goes through
 * the accessors below.
 */
struct Onnx__ModelProto;
struct Onnx__GraphProto;
struct Onnx__NodeProto;
struct Onnx__TensorProto;

#define ONNX_MAXRANK	8	/* tensors of higher rank are an error */
/*
 * Values are kept for integer tensors of up to ONNX_MAXVAL elements and
 * floating-point ones of up to ONNX_MAXFVAL: what decides shapes (index
 * chains, Resize scales, Clip bounds) is small, and weights never need
 * their values.
 */
#define ONNX_MAXVAL	65536
/* Newest default-domain opset whose operator rules are implemented. */
#define ONNX_OPSET_MAX	20
#define ONNX_MAXFVAL	1024

/* ONNX TensorProto.DataType values used by name. */
enum {
	DT_UNDEF = 0, DT_FLOAT = 1, DT_UINT8 = 2, DT_INT8 = 3, DT_UINT16 = 4,
	DT_INT16 = 5, DT_INT32 = 6, DT_INT64 = 7, DT_STRING = 8, DT_BOOL = 9,
	DT_FLOAT16 = 10, DT_DOUBLE = 11, DT_UINT32 = 12, DT_UINT64 = 13,
	DT_BFLOAT16 = 16
};

struct tensor {
	const char	*name;		/* borrowed from the model */
	int32_t		 dtype;		/* DT_*, DT_UNDEF when unknown */
	int		 known;		/* rank and dims are set */
	int		 rank;
	int64_t		 dims[ONNX_MAXRANK];
	int		 isconst;	/* weight, or computed without data input */
	int		 isinit;	/* initializer */
	int		 isinput;	/* graph input that is not an initializer */
	int		 isweight;	/* such an input used only as a weight */
	int		 isout;		/* graph output */
	int		 hasval;	/* values below are valid */
	int64_t		 nval;
	int64_t		*iv;		/* integer and bool values, or NULL */
	double		*fv;		/* floating-point values, or NULL */
	int		 declrank;	/* declared shape (value_info), -1 none */
	int64_t		 decl[ONNX_MAXRANK];	/* -1 = symbolic or absent */
	int		 producer;	/* node index, -1 for graph inputs */
	int		 nuse;		/* consumers (graph output counts one) */
	/* Filled by the emitter (onnx_graph.c). */
	int		*src;		/* layers this tensor's data comes from */
	int		 nsrc;
	int		 layer;		/* layer whose direct output it is, or -1 */
};

struct node {
	struct Onnx__NodeProto *np;
	const char	*name;		/* node name, or a generated one */
	char		*genname;	/* owned storage of a generated name */
	const char	*op;		/* op_type, or what a quantized op is
					   read as (QLinearConv: Conv) */
	const char	*onnx_op;	/* op_type as written */
	int		 stdop;		/* default (ai.onnx) domain, or read
					   as an op of it */
	int32_t		 outtype;	/* output 0's type when not the
					   rule's (ConvInteger: int32), or 0 */
	size_t		 nin, nout;
	int		*in, *out;	/* tensor indices, -1 = omitted optional */
	/* Filled by the emitter (onnx_graph.c). */
	int		 skip;		/* absorbed into a pattern */
	int		 pat;		/* pattern this node ends, 0 none */
	int		 patin;		/* pattern's input tensor */
	int		 patw[2];	/* pattern's constant tensors, -1 none */
	const char	*patname;	/* name the pattern's row takes */
	int		 padfrom;	/* Pad node folded into this Conv, -1 */
};

struct model {
	const char	*file;		/* name used in diagnostics */
	struct Onnx__ModelProto *mp;
	struct pbchunk	*pb;		/* mp's memory (onnx_load.c) */
	struct Onnx__GraphProto *g;
	int64_t		 opset;		/* version of the default domain */
	struct tensor	*t;
	size_t		 nt, tcap;
	struct nameix	 names;		/* t's indices by name */
	struct node	*n;
	size_t		 nn;
	int		*order;		/* nodes in topological order */
	int		 reshaped;	/* -i gave input shapes: declared ones may be stale */
};

/*
 * Read and decode the model at path ("-": standard input), building the tensor table (graph
 * inputs, initializers, declared shapes, node outputs) and the node list.
 * Reports "file: ..." and returns -1 on an unreadable file, a protobuf
 * that does not decode, a model without graph, an invalid tensor or a
 * name used twice as an output.  m is valid for model_free either way.
 */
int model_load(struct model *m, const char *path);
/*
 * The same; strip 0 decodes every byte of the file, the data of all
 * tensors included (for comparing against the stripped reading).
 */
int model_load_opt(struct model *m, const char *path, int strip);
void model_free(struct model *m);

/*
 * If node ni replaced by the branch it takes, then_branch (then) or
 * else_branch: the branch's nodes appended to m->n (which may move),
 * with its initializers and declared shapes; ni becomes an Identity of
 * the branch's first output, and each further output an Identity of its
 * own after the branch's nodes.  The condition loses its consumer;
 * m->order is the caller's to extend.  Returns 0, or -1 reported (no
 * such branch, one with inputs or another count of outputs, a name
 * defined twice, an input nowhere defined).
 */
int model_splice(struct model *m, int ni, int then);

/* Index of the tensor called name, or -1. */
int model_find(const struct model *m, const char *name);

/* Number of elements of a tensor with known dims; -1 on overflow. */
int64_t tensor_numel(const struct tensor *t);
/* Whether a tensor with known dims holds no element (a dim is 0). */
int tensor_empty(const struct tensor *t);
/* Bytes of one element of an ONNX type (0 if it has no fixed size). */
int onnx_dtype_size(int32_t dtype);
/* Whether the type holds integers or bools (values kept in iv). */
int onnx_dtype_isint(int32_t dtype);
/* Whether values of a tensor of this type and element count are kept. */
int onnx_keepval(int32_t dtype, int64_t n);

/*
 * Allocate value storage for nval elements of the tensor's type (iv or
 * fv), replacing any held before, and set hasval.
 */
void tensor_setval(struct tensor *t, int64_t nval);
/* Forget t's values, keeping its dims (data missing or not foldable). */
void tensor_dropval(struct tensor *t);
/* Value i as int64 (floats truncated) or as double. */
int64_t tensor_ival(const struct tensor *t, int64_t i);
double tensor_fval(const struct tensor *t, int64_t i);

/*
 * Fill t (dims, dtype, values when stored and small) from a TensorProto
 * (for the loader's own modules and tests; others use attr_tensor).
 * where names it in diagnostics.  Returns -1 (reported) on negative dims,
 * an overflowing element count or data of the wrong length.
 */
int tensor_from_proto(struct tensor *t, const struct Onnx__TensorProto *tp,
    const char *file, const char *where);

/* Attribute access on a node; absent attributes yield the default. */
int attr_has(const struct node *n, const char *name);
int64_t attr_int(const struct node *n, const char *name, int64_t def);
double attr_float(const struct node *n, const char *name, double def);
/* Copy a string attribute into buf (truncated to size-1); def if absent. */
const char *attr_str(const struct node *n, const char *name, char *buf,
    size_t size, const char *def);
/* Integer list attribute: 0 and *v, *nv set, or -1 if absent. */
int attr_ints(const struct node *n, const char *name, const int64_t **v,
    size_t *nv);
/* Float list attribute: 0 and *v, *nv set, or -1 if absent. */
int attr_floats(const struct node *n, const char *name, const float **v,
    size_t *nv);

/* Graph attribute name of n (an If's branch), or NULL if absent. */
struct Onnx__GraphProto *attr_graph(const struct node *n, const char *name);
/*
 * Tensor attribute name of n into t (dims, dtype, values when stored and
 * small; t's value storage replaced): 1 done, 0 absent, -1 reported (a
 * negative dim, an overflowing count, data of the wrong length).
 */
int attr_tensor(const struct model *m, const struct node *n,
    const char *name, struct tensor *t);
/*
 * The value of Constant node n (value, value_float(s), value_int(s)) into
 * its output tensor t: 1 done, 0 no value attribute, -1 reported.
 */
int node_constant(const struct model *m, const struct node *n,
    struct tensor *t);
/* Domain of n as written in the model ("" for the default domain). */
const char *node_domain(const struct node *n);

/* Index of the first graph input that is not an initializer, or -1. */
int model_first_input(const struct model *m);
/* Name of symbolic dim d of graph input t as declared, or "?". */
const char *model_dimparam(const struct model *m, const struct tensor *t,
    int d);

/* Tensor of input i of a node, or NULL when absent or omitted. */
struct tensor *node_in(const struct model *m, const struct node *n, size_t i);
struct tensor *node_out(const struct model *m, const struct node *n, size_t i);

/* "3x224x224"-style rendering of a shape into buf. */
const char *tensor_shape_str(const struct tensor *t, char *buf, size_t size);

#endif
