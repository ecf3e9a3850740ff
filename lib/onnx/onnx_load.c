/*
 * ONNX model loading: protobuf-c decoding, the tensor table and node
 * list; the values of small constant tensors are read by onnx_tensor.c,
 * the nodes' attributes by onnx_attr.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arith.h"
#include "diag.h"
#include "nameix.h"
#include "onnx.pb-c.h"
#include "onnx_load.h"
#include "onnx_wire.h"
#include "xalloc.h"

#define S(s) ((s) != NULL ? (s) : "")

int
model_find(const struct model *m, const char *name)
{
	return (int)nameix_find(&m->names, name);
}

/* Index of the tensor called name, added (unknown shape) if absent. */
static int
tensor_add(struct model *m, const char *name)
{
	struct tensor *t;
	long i;

	if ((i = nameix_add(&m->names, name, m->nt)) >= 0)
		return (int)i;
	if (m->nt == m->tcap) {
		m->tcap = m->tcap ? 2 * m->tcap : 64;
		m->t = xreallocarray(m->t, m->tcap, sizeof(*m->t));
	}
	t = &m->t[m->nt];
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->declrank = -1;
	t->producer = -1;
	t->layer = -1;
	return (int)m->nt++;
}

/* Declared shape from a ValueInfoProto into t->decl. */
static int
setdecl(struct model *m, struct tensor *t, const Onnx__ValueInfoProto *vi)
{
	const Onnx__TensorShapeProto *sp;
	size_t i;

	if (vi->type == NULL ||
	    vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
	    vi->type->tensor_type == NULL)
		return 0;
	if (vi->type->tensor_type->has_elem_type && t->dtype == DT_UNDEF)
		t->dtype = vi->type->tensor_type->elem_type;
	if ((sp = vi->type->tensor_type->shape) == NULL)
		return 0;
	if (sp->n_dim > ONNX_MAXRANK) {
		pf_err(m->file, "value '%s': rank %zu is above %d", t->name,
		    sp->n_dim, ONNX_MAXRANK);
		return -1;
	}
	t->declrank = (int)sp->n_dim;
	for (i = 0; i < sp->n_dim; i++) {
		const Onnx__TensorShapeProto__Dimension *d = sp->dim[i];

		t->decl[i] = -1;
		if (d->value_case ==
		    ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
			if (d->dim_value < 0) {
				pf_err(m->file, "input '%s': negative dim '%lld'",
				    t->name, (long long)d->dim_value);
				return -1;
			}
			t->decl[i] = d->dim_value;
		}
	}
	return 0;
}

/*
 * Read a whole stream that cannot be mapped (a pipe); -1 reported.
 */
static int
slurp(FILE *fp, const char *name, uint8_t **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0, r;
	uint8_t *b;

	b = xmalloc(cap);
	while ((r = fread(b + n, 1, cap - n, fp)) > 0) {
		n += r;
		if (n == cap)
			b = xreallocarray(b, cap *= 2, 1);
	}
	if (ferror(fp)) {
		pf_err(name, "read error: %s", strerror(errno));
		free(b);
		return -1;
	}
	*buf = b;
	*len = n;
	return 0;
}

/*
 * The model's bytes without the data of tensors whose values are not
 * kept (onnx_wire.h), in *buf (free it) of *len bytes; -1 reported.  A
 * regular file is read in pieces as the walk over it needs them, so the
 * weights, most of its size, are never read; any other stream is read
 * whole first.  With strip 0 the bytes are kept as they are (the fuzzing
 * harness compares both).  *len 0: empty; *buf NULL with *len 1: not a
 * protobuf.
 */
static int
readmodel(const char *path, const char *name, int strip, uint8_t **buf,
    size_t *len)
{
	FILE *fp;
	struct stat st;
	uint8_t *b = NULL;
	size_t n = 0;
	int err = 0, rc = 0;

	*buf = NULL;
	*len = 0;
	if (strcmp(path, "-") == 0)
		fp = stdin;
	else if ((fp = fopen(path, "rb")) == NULL) {
		pf_err(path, "%s", strerror(errno));
		return -1;
	}
	if (strip && fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0 && (uintmax_t)st.st_size < SIZE_MAX / 2 &&
	    lseek(fileno(fp), 0, SEEK_CUR) == 0) {
		if ((*buf = onnx_wire_strip_fd(fileno(fp), (size_t)st.st_size,
		    len, &err)) == NULL)
			*len = 1;
		if (err != 0) {
			pf_err(name, "read error: %s", strerror(err));
			rc = -1;
		}
	} else if ((rc = slurp(fp, name, &b, &n)) == 0) {
		if (n == 0 || !strip) {
			*buf = b;
			*len = n;
			b = NULL;
		} else if ((*buf = onnx_wire_strip(b, n, len)) == NULL)
			*len = 1;
		free(b);
	}
	if (fp != stdin)
		fclose(fp);
	return rc;
}

/*
 * Control characters in names would split a one-line diagnostic (and
 * mean nothing in a table): they become '?', everywhere alike, so
 * references between nodes still match.
 */
static void
clean(char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static void
cleanvi(Onnx__ValueInfoProto **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		clean(v[i]->name);
}

static void
cleanall(Onnx__GraphProto *g)
{
	size_t i, j;

	for (i = 0; i < g->n_node; i++) {
		Onnx__NodeProto *np = g->node[i];

		clean(np->name);
		clean(np->op_type);
		clean(np->domain);
		for (j = 0; j < np->n_input; j++)
			clean(np->input[j]);
		for (j = 0; j < np->n_output; j++)
			clean(np->output[j]);
	}
	for (i = 0; i < g->n_initializer; i++)
		clean(g->initializer[i]->name);
	cleanvi(g->input, g->n_input);
	cleanvi(g->output, g->n_output);
	cleanvi(g->value_info, g->n_value_info);
}

/* "base_k": the name of an unnamed node (one each: no formatter). */
static char *
genname(const char *base, size_t k)
{
	size_t bl = strlen(base);
	char tmp[24], *p = tmp + sizeof(tmp), *s;

	s = xmalloc(bl + 24);
	*--p = '\0';
	do {
		*--p = (char)('0' + k % 10);
		k /= 10;
	} while (k != 0);
	memcpy(s, base, bl);
	s[bl] = '_';
	memcpy(s + bl + 1, p, (size_t)(tmp + sizeof(tmp) - p));
	return s;
}

/* Node n made from np (inputs linked later), its outputs nout slots. */
static void
node_init(struct node *n, Onnx__NodeProto *np, size_t nin, size_t nout)
{
	n->np = np;
	n->op = n->onnx_op = S(np->op_type);
	n->stdop = np->domain == NULL || *np->domain == '\0' ||
	    strcmp(np->domain, "ai.onnx") == 0;
	n->padfrom = -1;
	n->patin = n->patw[0] = n->patw[1] = -1;
	n->nin = nin;
	n->nout = nout;
	n->in = xcalloc(nin ? nin : 1, sizeof(int));
	n->out = xcalloc(nout ? nout : 1, sizeof(int));
}

/*
 * The nodes of graph g appended to m->n, with room for more after them,
 * and their outputs defined; -1 reported.
 */
static int
buildnodes(struct model *m, const Onnx__GraphProto *g, size_t room)
{
	size_t base = m->nn, i, j;
	int k;

	m->n = xreallocarray(m->n, base + g->n_node + room + 1,
	    sizeof(*m->n));
	memset(m->n + base, 0, (g->n_node + room + 1) * sizeof(*m->n));
	m->nn = base + g->n_node;
	for (i = 0; i < g->n_node; i++) {
		Onnx__NodeProto *np = g->node[i];
		struct node *n = &m->n[base + i];

		node_init(n, np, np->n_input, np->n_output);
		if (np->name != NULL && *np->name != '\0')
			n->name = np->name;
		else
			n->name = n->genname = genname(*n->op ? n->op :
			    "node", base + i);
		for (j = 0; j < np->n_output; j++) {
			if (np->output[j] == NULL || *np->output[j] == '\0') {
				n->out[j] = -1;
				continue;
			}
			k = tensor_add(m, np->output[j]);
			if (m->t[k].producer >= 0 || m->t[k].isinit ||
			    m->t[k].isinput) {
				pf_err(m->file, "node %s: output '%s' is "
				    "already defined", n->name, np->output[j]);
				return -1;
			}
			m->t[k].producer = (int)(base + i);
			n->out[j] = k;
		}
	}
	return 0;
}

/*
 * Quantized ops read as the float op they compute: its operands taken
 * from where the quantized op keeps them, its attributes the same; the
 * scales and zero points only rescale.  ms: the com.microsoft domain
 * (onnxruntime's quantizer writes these).  QLinearConcat's inputs are
 * (Y_scale, Y_zero_point) then a (X, scale, zero_point) triple each.
 */
static const struct qop {
	const char	*op, *as;
	int		 ms;
	int		 nin, in[3];
	int32_t		 outtype;	/* 0: the float op's rule decides */
} qops[] = {
	{ "QLinearConv", "Conv", 0, 3, { 0, 3, 8 }, 0 },
	{ "ConvInteger", "Conv", 0, 2, { 0, 1, -1 }, DT_INT32 },
	{ "QLinearMatMul", "MatMul", 0, 2, { 0, 3, -1 }, 0 },
	{ "MatMulInteger", "MatMul", 0, 2, { 0, 1, -1 }, DT_INT32 },
	{ "QLinearAdd", "Add", 1, 2, { 0, 3, -1 }, 0 },
	{ "QLinearMul", "Mul", 1, 2, { 0, 3, -1 }, 0 },
	{ "QLinearAveragePool", "AveragePool", 1, 1, { 0, -1, -1 }, 0 },
	{ "QLinearGlobalAveragePool", "GlobalAveragePool", 1, 1,
	    { 0, -1, -1 }, 0 },
	{ "QLinearLeakyRelu", "LeakyRelu", 1, 1, { 0, -1, -1 }, 0 },
	{ "QLinearSigmoid", "Sigmoid", 1, 1, { 0, -1, -1 }, 0 },
	{ "QLinearConcat", "Concat", 1, -1, { 2, -1, -1 }, 0 },
};

/* Node n read as the float op of its quantized one: 1, else 0. */
static int
quantized(struct node *n)
{
	const char *d = n->np->domain;
	size_t i, j, k = 0;

	for (i = 0; i < sizeof(qops) / sizeof(qops[0]); i++)
		if (strcmp(n->op, qops[i].op) == 0 && (qops[i].ms ?
		    d != NULL && strcmp(d, "com.microsoft") == 0 : n->stdop))
			break;
	if (i == sizeof(qops) / sizeof(qops[0]))
		return 0;
	n->op = qops[i].as;
	n->stdop = 1;
	n->outtype = qops[i].outtype;
	if (qops[i].nin < 0) {
		for (j = (size_t)qops[i].in[0]; j < n->nin; j += 3)
			n->in[k++] = (int)j;
	} else
		for (j = 0; j < (size_t)qops[i].nin; j++)
			if (qops[i].in[j] >= 0 &&
			    (size_t)qops[i].in[j] < n->nin)
				n->in[k++] = qops[i].in[j];
	n->nin = k;
	return 1;
}

/*
 * The inputs of nodes lo.. are resolved after every output is known, so
 * a graph whose nodes are not in topological order still links up.
 */
static int
linkinputs(struct model *m, size_t lo)
{
	size_t i, j;
	int k;

	for (i = lo; i < m->nn; i++) {
		struct node *n = &m->n[i];
		int q = quantized(n);

		for (j = 0; j < n->nin; j++) {
			/* quantized: n->in[j] holds the operand's slot */
			const char *s = n->np->input[q ? (size_t)n->in[j] : j];

			if (s == NULL || *s == '\0') {
				n->in[j] = -1;
				continue;
			}
			if ((k = model_find(m, s)) < 0) {
				pf_err(m->file, "node %s: input '%s' is not a "
				    "graph input, initializer or node output",
				    n->name, s);
				return -1;
			}
			n->in[j] = k;
			m->t[k].nuse++;
		}
	}
	return 0;
}

/*
 * The decoded model's memory: protobuf-c's allocations are taken from
 * chunks, all freed with the model.  The decoder makes a few small
 * allocations a message (millions on a 100k-node graph), and malloc and
 * free of each were about a fifth of onnx2layers' instructions.  A
 * request of more than a quarter chunk gets a chunk of its own.
 */
struct pbchunk {
	struct pbchunk	*next;
	size_t		 used, cap;
	max_align_t	 mem[];
};

#define PBCHUNK	((size_t)256 * 1024)

static void *
pb_alloc(void *data, size_t size)
{
	struct pbchunk **head = data, *c = *head;
	size_t a = _Alignof(max_align_t), n = (size + a - 1) & ~(a - 1);
	void *p;

	if (n < size || n > SIZE_MAX - sizeof(*c))
		return NULL;
	if (c == NULL || c->cap - c->used < n) {
		size_t cap = n > PBCHUNK / 4 ? n : PBCHUNK;

		if ((c = malloc(sizeof(*c) + cap)) == NULL)
			return NULL;
		c->cap = cap;
		c->used = 0;
		if (n > PBCHUNK / 4 && *head != NULL) {
			/* behind the current chunk, which keeps its room */
			c->next = (*head)->next;
			(*head)->next = c;
			c->used = n;
			return c->mem;
		}
		c->next = *head;
		*head = c;
	}
	p = (unsigned char *)c->mem + c->used;
	c->used += n;
	return p;
}

/* Freed with the model (model_free), not piece by piece. */
static void
pb_free(void *data, void *p)
{
	(void)data;
	(void)p;
}

static void
pb_freeall(struct pbchunk *c)
{
	struct pbchunk *next;

	for (; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
}

int
model_load(struct model *m, const char *path)
{
	return model_load_opt(m, path, 1);
}

/*
 * The model's bytes read (stripped of the weights' data with strip) and
 * decoded into m->mp and m->g, with its names cleaned; -1 reported.
 */
static int
decode(struct model *m, const char *path, int strip)
{
	uint8_t *buf = NULL;
	size_t len = 0;

	if (readmodel(strcmp(path, "<stdin>") == 0 ? "-" : path, path, strip,
	    &buf, &len) < 0)
		return -1;
	if (len == 0) {
		pf_err(path, "empty file");
		free(buf);
		return -1;
	}
	if (buf != NULL) {
		ProtobufCAllocator pa = { pb_alloc, pb_free, &m->pb };

		m->mp = onnx__model_proto__unpack(&pa, len, buf);
	}
	free(buf);
	if (m->mp == NULL) {
		pf_err(path, "not an ONNX model: protobuf does not decode "
		    "(truncated or corrupt file?)");
		return -1;
	}
	if ((m->g = m->mp->graph) == NULL || m->g->n_node == 0) {
		pf_err(path, "not an ONNX model: %s", m->g == NULL ?
		    "no graph" : "graph has no nodes");
		return -1;
	}
	cleanall(m->g);
	return 0;
}

/* The default domain's opset into m->opset; -1 reported. */
static int
read_opset(struct model *m)
{
	size_t i;

	m->opset = -1;
	for (i = 0; i < m->mp->n_opset_import; i++) {
		const Onnx__OperatorSetIdProto *os = m->mp->opset_import[i];

		if ((os->domain == NULL || *os->domain == '\0' ||
		    strcmp(os->domain, "ai.onnx") == 0) && os->has_version)
			m->opset = os->version;
	}
	/*
	 * Without an import the operator versions are unknown (a model cut
	 * short often loses it, the field coming last), and an opset newer
	 * than the rules here may have changed what an op computes.
	 */
	if (m->opset < 0) {
		pf_err(m->file, "no opset_import for the default domain: "
		    "operator versions unknown (truncated file?)");
		return -1;
	}
	if (m->opset > ONNX_OPSET_MAX) {
		pf_err(m->file, "opset %lld is newer than %d, the newest this "
		    "tool knows", (long long)m->opset, ONNX_OPSET_MAX);
		return -1;
	}
	return 0;
}

/*
 * The tensor of the graph's what number i (an initializer, a graph
 * input), called name: its index, or -1 when it has no name (reported).
 */
static int
graph_tensor(struct model *m, const char *name, const char *what, size_t i)
{
	if (name == NULL || *name == '\0') {
		pf_err(m->file, "%s %zu has no name", what, i);
		return -1;
	}
	return tensor_add(m, name);
}

/* The initializers of g, their dims and small values; -1 reported. */
static int
add_initializers(struct model *m, const Onnx__GraphProto *g)
{
	char where[64];
	size_t i, nl;
	int k;

	for (i = 0; i < g->n_initializer; i++) {
		const Onnx__TensorProto *tp = g->initializer[i];

		if ((k = graph_tensor(m, tp->name, "initializer", i)) < 0)
			return -1;
		if (m->t[k].isinit || m->t[k].isinput ||
		    m->t[k].producer >= 0) {
			pf_err(m->file, "initializer '%s' is defined twice",
			    tp->name);
			return -1;
		}
		m->t[k].isinit = m->t[k].isconst = 1;
		/* "initializer '%.40s'" (one per weight: no formatter) */
		nl = strnlen(tp->name, 40);
		memcpy(where, "initializer '", 13);
		memcpy(where + 13, tp->name, nl);
		where[13 + nl] = '\'';
		where[14 + nl] = '\0';
		if (tensor_from_proto(&m->t[k], tp, m->file, where) < 0)
			return -1;
	}
	return 0;
}

/* The graph inputs that are not initializers, with their declared shapes. */
static int
add_inputs(struct model *m)
{
	const Onnx__GraphProto *g = m->g;
	size_t i;
	int k;

	for (i = 0; i < g->n_input; i++) {
		const Onnx__ValueInfoProto *vi = g->input[i];

		if ((k = graph_tensor(m, vi->name, "graph input", i)) < 0)
			return -1;
		if (!m->t[k].isinit) {
			m->t[k].isinput = 1;
			if (setdecl(m, &m->t[k], vi) < 0)
				return -1;
		}
	}
	return 0;
}

/*
 * The shapes g declares for node outputs (value_info) and its outputs,
 * which are the model's with isout.
 */
static int
add_declared(struct model *m, const Onnx__GraphProto *g, int isout)
{
	size_t i;
	int k;

	for (i = 0; i < g->n_value_info + g->n_output; i++) {
		const Onnx__ValueInfoProto *vi = i < g->n_value_info ?
		    g->value_info[i] : g->output[i - g->n_value_info];

		if (vi->name == NULL || (k = model_find(m, vi->name)) < 0)
			continue;
		if (m->t[k].isinit || m->t[k].isinput)
			continue;
		if (isout && i >= g->n_value_info) {
			m->t[k].isout = 1;
			m->t[k].nuse++;
		}
		if (setdecl(m, &m->t[k], vi) < 0)
			return -1;
	}
	return 0;
}

int
model_load_opt(struct model *m, const char *path, int strip)
{
	memset(m, 0, sizeof(*m));
	m->file = pf_inname(path);
	if (decode(m, m->file, strip) < 0 || read_opset(m) < 0 ||
	    add_initializers(m, m->g) < 0 || add_inputs(m) < 0 ||
	    buildnodes(m, m->g, 0) < 0 || add_declared(m, m->g, 1) < 0)
		return -1;
	return linkinputs(m, 0);
}

/* The branch output j of If node ni (a tensor of m) into its output. */
static int
branch_out(struct model *m, int ni, const Onnx__GraphProto *g,
    const char *which, size_t j)
{
	const char *s = g->output[j]->name;
	struct node *n = &m->n[ni];
	int k, out = n->out[j];

	if (s == NULL || (k = model_find(m, s)) < 0) {
		pf_err(m->file, "node %s: output %zu of its %s, '%s', is not "
		    "defined", n->name, j, which, S(s));
		return -1;
	}
	if (j > 0 && out < 0)
		return 0;
	if (j > 0) {
		/* an Identity of its own, after the branch's nodes */
		n = &m->n[m->nn];
		node_init(n, m->n[ni].np, 1, 1);
		n->name = n->genname = genname(m->n[ni].name, j);
		n->out[0] = out;
		m->t[out].producer = (int)m->nn++;
	}
	n->op = "Identity";
	n->stdop = 1;
	n->nin = 1;
	n->in[0] = k;
	m->t[k].nuse++;
	return 0;
}

int
model_splice(struct model *m, int ni, int then)
{
	const char *which = then ? "then_branch" : "else_branch";
	Onnx__GraphProto *g = attr_graph(&m->n[ni], which);
	size_t lo = m->nn, nout = m->n[ni].nout, j;
	int cond = m->n[ni].nin > 0 ? m->n[ni].in[0] : -1;

	if (g == NULL || nout == 0) {
		pf_err(m->file, "node %s: If has no %s", m->n[ni].name,
		    nout == 0 ? "outputs" : which);
		return -1;
	}
	if (g->n_input != 0 || g->n_output != nout) {
		pf_err(m->file, "node %s: its %s has %zu inputs and %zu "
		    "outputs, not 0 and %zu", m->n[ni].name, which,
		    g->n_input, g->n_output, nout);
		return -1;
	}
	cleanall(g);
	if (add_initializers(m, g) < 0 || buildnodes(m, g, nout) < 0 ||
	    add_declared(m, g, 0) < 0 || linkinputs(m, lo) < 0)
		return -1;
	for (j = 0; j < nout; j++)
		if (branch_out(m, ni, g, which, j) < 0)
			return -1;
	m->n[ni].nout = 1;
	if (cond >= 0)
		m->t[cond].nuse--;
	return 0;
}

void
model_free(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nt; i++) {
		free(m->t[i].iv);
		free(m->t[i].fv);
		free(m->t[i].src);
	}
	for (i = 0; i < m->nn; i++) {
		free(m->n[i].in);
		free(m->n[i].out);
		free(m->n[i].genname);
	}
	free(m->t);
	nameix_free(&m->names);
	free(m->n);
	free(m->order);
	pb_freeall(m->pb);
	memset(m, 0, sizeof(*m));
}
