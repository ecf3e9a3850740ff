/*
 * Graph passes: topological order, graph input shapes, inference driver.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "onnx_consteval.h"
#include "diag.h"
#include "onnx_graph.h"
#include "onnx_graph_keep.h"
#include "onnx_ops.h"
#include "onnx_shape.h"
#include "xalloc.h"

int
graph_parse_shape(char *s, struct input_shape *is)
{
	char *eq = strrchr(s, '='), *p, *end;
	long long v;

	memset(is, 0, sizeof(*is));
	if (eq == s)
		return -1;
	p = eq != NULL ? eq + 1 : s;
	for (;;) {
		if (is->rank == ONNX_MAXRANK || *p < '0' || *p > '9')
			return -1;
		v = strtoll(p, &end, 10);
		if (v < 1 || v > INT64_MAX / 2)
			return -1;
		is->dims[is->rank++] = v;
		if (*end == '\0')
			break;
		if (*end != 'x' && *end != 'X' && *end != ',')
			return -1;
		p = end + 1;
	}
	/* Split off the name only once the whole option is valid. */
	if (eq != NULL) {
		*eq = '\0';
		is->name = s;
	}
	return 0;
}

/* Min-heap of node indices, for Kahn's algorithm with file-order ties. */
static void
hpush(int *h, int *n, int v)
{
	int i = (*n)++, p;

	while (i > 0 && h[p = (i - 1) / 2] > v) {
		h[i] = h[p];
		i = p;
	}
	h[i] = v;
}

static int
hpop(int *h, int *n)
{
	int top = h[0], v = h[--*n], i = 0, c;

	while ((c = 2 * i + 1) < *n) {
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = v;
	return top;
}

/*
 * Report a node on a cycle among nodes lo..hi-1 with indeg[i - lo] > 0.
 */
static void
cycle(const struct model *m, int lo, int hi, const int *indeg)
{
	int *seen = xcalloc((size_t)(hi - lo), sizeof(int)), i, j, p, next;
	size_t k;

	for (i = lo; i < hi && indeg[i - lo] == 0; i++)
		;
	/* Walk back along unfinished producers until a node repeats. */
	while (!seen[i - lo]) {
		seen[i - lo] = 1;
		next = -1;
		for (k = 0; k < m->n[i].nin && next < 0; k++) {
			j = m->n[i].in[k];
			if (j >= 0 && (p = m->t[j].producer) >= lo && p < hi &&
			    indeg[p - lo] > 0)
				next = p;
		}
		if (next < 0)
			break;
		i = next;
	}
	pf_err(m->file, "node %s: graph has a cycle through this node",
	    m->n[i].name);
	free(seen);
}

/* The producer of input k of node i when it is one of lo..hi-1, or -1. */
static int
producer_in(const struct model *m, int i, size_t k, int lo, int hi)
{
	int t = m->n[i].in[k], p;

	if (t < 0 || (p = m->t[t].producer) < lo || p >= hi)
		return -1;
	return p;
}

/*
 * Nodes lo..hi-1 into order[0..hi-lo) in topological order among
 * themselves, ties in file order (Kahn's algorithm on consumer lists in
 * CSR form: off[p]..off[p+1] in adj).  Returns 0, or -1 on a cycle
 * (reported).
 */
static int
toposort(const struct model *m, int lo, int hi, int *order)
{
	size_t nn = (size_t)(hi - lo), k;
	int *indeg, *heap, *cnt, *off, *adj, nh = 0, no = 0, ok = 1, i, p;

	for (i = lo; i < hi && ok; i++)
		for (k = 0; k < m->n[i].nin; k++)
			if ((p = producer_in(m, i, k, lo, hi)) >= i)
				ok = 0;
	if (ok) {
		for (i = lo; i < hi; i++)
			order[i - lo] = i;
		return 0;
	}
	indeg = xcalloc(nn, sizeof(int));
	cnt = xcalloc(nn + 1, sizeof(int));
	off = xcalloc(nn + 1, sizeof(int));
	for (i = lo; i < hi; i++)
		for (k = 0; k < m->n[i].nin; k++)
			if ((p = producer_in(m, i, k, lo, hi)) >= 0) {
				cnt[p - lo]++;
				indeg[i - lo]++;
			}
	for (k = 0; k < nn; k++)
		off[k + 1] = off[k] + cnt[k];
	adj = xcalloc((size_t)off[nn] + 1, sizeof(int));
	memset(cnt, 0, (nn + 1) * sizeof(int));
	for (i = lo; i < hi; i++)
		for (k = 0; k < m->n[i].nin; k++)
			if ((p = producer_in(m, i, k, lo, hi)) >= 0)
				adj[off[p - lo] + cnt[p - lo]++] = i;
	heap = xcalloc(nn, sizeof(int));
	for (i = lo; i < hi; i++)
		if (indeg[i - lo] == 0)
			hpush(heap, &nh, i);
	while (nh > 0) {
		int v = hpop(heap, &nh), e;

		order[no++] = v;
		for (e = off[v - lo]; e < off[v - lo + 1]; e++)
			if (--indeg[adj[e] - lo] == 0)
				hpush(heap, &nh, adj[e]);
	}
	if (no < (int)nn)
		cycle(m, lo, hi, indeg);
	free(indeg);
	free(cnt);
	free(off);
	free(adj);
	free(heap);
	return no < (int)nn ? -1 : 0;
}

int
graph_order(struct model *m)
{
	m->order = xcalloc(m->nn, sizeof(int));
	return toposort(m, 0, (int)m->nn, m->order);
}

/* Whether input slot k of op holds a weight rather than data. */
static int
weightslot(const char *op, size_t k)
{
	static const char *const w1[] = {
		"Conv", "ConvTranspose", "Gemm", "MatMul", "BatchNormalization",
		"InstanceNormalization", "LayerNormalization",
		"GroupNormalization", "PRelu", NULL
	};
	int i;

	if (strcmp(op, "Gather") == 0)
		return k == 0;
	for (i = 0; w1[i] != NULL; i++)
		if (strcmp(op, w1[i]) == 0)
			return k >= 1;
	return 0;
}

static void
listinputs(const struct model *m, char *buf, size_t size)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < m->nt && off < size; i++)
		if (m->t[i].isinput && !m->t[i].isweight)
			off += (size_t)snprintf(buf + off, size - off, "%s'%s'",
			    off ? ", " : "", m->t[i].name);
	if (off == 0)
		snprintf(buf, size, "none");
}


/*
 * A -i template for an input of known rank: its known dims as numbers,
 * each unknown one as a letter (N for the first, D<j> after it).
 */
static void
shapehint(const struct tensor *t, char *buf, size_t n)
{
	size_t len = 0;
	int j;

	buf[0] = '\0';
	for (j = 0; j < t->declrank && len + 24 < n; j++) {
		if (j > 0)
			buf[len++] = 'x';
		if (t->decl[j] >= 0)
			len += (size_t)snprintf(buf + len, n - len, "%lld",
			    (long long)t->decl[j]);
		else if (j == 0)
			len += (size_t)snprintf(buf + len, n - len, "N");
		else
			len += (size_t)snprintf(buf + len, n - len, "D%d", j);
	}
}
/*
 * A Gather by a constant index selects from its data (one layer of a
 * decoder's stacked KV cache), unlike an embedding lookup by token ids.
 */
static int
constpick(const struct model *m, const struct node *n)
{
	int ix;

	if (strcmp(n->op, "Gather") != 0 || n->nin < 2 || (ix = n->in[1]) < 0)
		return 0;
	if (m->t[ix].isinit)
		return 1;
	return m->t[ix].producer >= 0 &&
	    strcmp(m->n[m->t[ix].producer].op, "Constant") == 0;
}

/*
 * A graph input is a weight when every use is a weight slot, except the
 * first one: exporters list the data inputs first (W*x with x as
 * MatMul's second operand stays data).  *ndata counts the data inputs,
 * *one is the last of them.
 */
static void
find_weights(struct model *m, int *ndata, int *one)
{
	size_t i, k;
	int j, *data;

	data = xcalloc(m->nt ? m->nt : 1, sizeof(int));
	for (i = 0; i < m->nn; i++)
		for (k = 0; k < m->n[i].nin; k++)
			if (m->n[i].in[k] >= 0 &&
			    (!weightslot(m->n[i].op, k) ||
			    constpick(m, &m->n[i])))
				data[m->n[i].in[k]] = 1;
	if ((j = model_first_input(m)) >= 0)
		data[j] = 1;
	for (i = 0; i < m->nt; i++) {
		struct tensor *t = &m->t[i];

		if (!t->isinput)
			continue;
		if (t->nuse > 0 && !data[i] && !t->isout)
			t->isweight = t->isconst = 1;
		else {
			(*ndata)++;
			*one = (int)i;
		}
	}
	free(data);
}

/* The shapes given with -i replace the declared ones. */
static int
given_shapes(struct model *m, const struct input_shape *is, int nis,
    int ndata, int one)
{
	char buf[512];
	int j;

	for (j = 0; j < nis; j++) {
		int ti = is[j].name != NULL ? model_find(m, is[j].name) : one;
		struct tensor *t;

		if (is[j].name == NULL && ndata != 1) {
			listinputs(m, buf, sizeof(buf));
			pf_err(m->file, "-i without a name needs exactly one "
			    "data input; the model has %d: %s", ndata, buf);
			return -1;
		}
		if (ti < 0 || !m->t[ti].isinput) {
			listinputs(m, buf, sizeof(buf));
			pf_err(m->file, "-i '%s': no graph input has that "
			    "name (inputs: %s)", is[j].name, buf);
			return -1;
		}
		t = &m->t[ti];
		m->reshaped = 1;
		t->declrank = is[j].rank;
		memcpy(t->decl, is[j].dims, sizeof(t->decl));
	}
	return 0;
}

/* Input t's shape from its declared one, which must be whole. */
static int
input_shape(const struct model *m, struct tensor *t)
{
	char hint[256];
	int j;

	if (t->declrank < 0) {
		pf_err(m->file, "input '%s' has no declared shape: give it "
		    "with -i %s=NxCxHxW", t->name, t->name);
		return -1;
	}
	for (j = 0; j < t->declrank; j++) {
		if (t->decl[j] < 0) {
			shapehint(t, hint, sizeof(hint));
			pf_err(m->file, "input '%s': dim %d ('%s') is unknown: "
			    "give the shape with -i %s=%s", t->name, j,
			    model_dimparam(m, t, j), t->name, hint);
			return -1;
		}
		if (t->decl[j] == 0) {
			pf_err(m->file, "input '%s': dim %d is zero", t->name, j);
			return -1;
		}
	}
	t->rank = t->declrank;
	memcpy(t->dims, t->decl, sizeof(t->dims));
	t->known = 1;
	if (t->dtype == DT_UNDEF)
		t->dtype = DT_FLOAT;
	if (tensor_numel(t) < 0) {
		pf_err(m->file, "input '%s': element count overflows 64 bits",
		    t->name);
		return -1;
	}
	return 0;
}

int
graph_inputs(struct model *m, const struct input_shape *is, int nis)
{
	size_t i;
	int ndata = 0, one = -1;

	find_weights(m, &ndata, &one);
	if (given_shapes(m, is, nis, ndata, one) < 0)
		return -1;
	for (i = 0; i < m->nt; i++)
		if (m->t[i].isinput && m->t[i].nuse > 0 &&
		    input_shape(m, &m->t[i]) < 0)
			return -1;
	return 0;
}

/* t's computed shape agrees with its declared one (symbolic dims agree). */
static int
declared_ok(const struct tensor *t)
{
	int j;

	if (t->declrank != t->rank)
		return 0;
	for (j = 0; j < t->rank; j++)
		if (t->decl[j] >= 0 && t->decl[j] != t->dims[j])
			return 0;
	return 1;
}

/*
 * Whether every input of n has a known shape (reported where one has
 * not): 1 and *allconst set when every input is constant, or -1.
 */
static int
inputs_known(const struct model *m, const struct node *n, int *allconst)
{
	size_t i;

	*allconst = 1;
	for (i = 0; i < n->nin; i++) {
		const struct tensor *t = node_in(m, n, i);

		if (t != NULL && !t->known) {
			pf_err(m->file, "node %s: shape of input '%s' is "
			    "unknown", n->name, t->name);
			return -1;
		}
		if (t != NULL && !t->isconst)
			*allconst = 0;
	}
	return 1;
}

/*
 * Output t of n as inferred: known, countable, as declared, no negative
 * dim; constant when allconst (or a Shape, Size or Constant).  A zero
 * dim is legal (torch.roll by 0 exports an empty Slice): such a tensor
 * costs nothing (onnx_emit.c).  Returns 0, or -1 reported.
 */
static int
output_ok(const struct model *m, const struct node *n, struct tensor *t,
    int allconst)
{
	char buf[160], dbuf[160];
	struct tensor d;
	int j;

	if (!t->known) {
		pf_err(m->file, "node %s: cannot infer the shape of output "
		    "'%s'", n->name, t->name);
		return -1;
	}
	if (tensor_numel(t) < 0) {
		pf_err(m->file, "node %s: output '%s' of shape %s has more "
		    "elements than 64 bits count", n->name, t->name,
		    tensor_shape_str(t, buf, sizeof(buf)));
		return -1;
	}
	/*
	 * A shape the model declares (value_info, graph outputs) for its own
	 * input shapes must be the one computed: a model that contradicts
	 * itself is refused, not read one way or the other.
	 */
	if (!m->reshaped && t->declrank >= 0 && !declared_ok(t)) {
		d = *t;
		d.rank = t->declrank;
		memcpy(d.dims, t->decl, sizeof(d.dims));
		pf_err(m->file, "node %s: output '%s' has shape %s, the model "
		    "declares %s", n->name, t->name,
		    tensor_shape_str(t, buf, sizeof(buf)),
		    tensor_shape_str(&d, dbuf, sizeof(dbuf)));
		return -1;
	}
	for (j = 0; j < t->rank; j++)
		if (t->dims[j] < 0) {
			pf_err(m->file, "node %s: output '%s' has a negative "
			    "dim (shape %s)", n->name, t->name,
			    tensor_shape_str(t, buf, sizeof(buf)));
			return -1;
		}
	t->isconst = allconst || strcmp(n->op, "Shape") == 0 ||
	    strcmp(n->op, "Size") == 0 || strcmp(n->op, "Constant") == 0;
	return 0;
}

/*
 * Infer the output shapes and types of node ni from its inputs (which
 * must be known) by its op's rule, and mark outputs constant when every
 * input is.  An unknown op is reported with the hint about -k unless keep
 * is set, in which case graph_keepshape() gives its outputs' shapes.  Returns
 * 0, or -1 reported.
 */
static int
infer1(struct model *m, int ni, int keep)
{
	const struct onnx_op *op;
	struct node *n = &m->n[ni];
	size_t i;
	int allconst;

	if (inputs_known(m, n, &allconst) < 0)
		return -1;
	op = n->stdop ? onnx_op_find(n->op) : NULL;
	if (op != NULL && op->shape(m, n) < 0)
		return -1;
	/* A quantized op read as a float one may write another type. */
	if (op != NULL && n->outtype != 0 && n->nout >= 1 && n->out[0] >= 0)
		m->t[n->out[0]].dtype = n->outtype;
	if (op == NULL) {
		if (!keep) {
			pf_err(m->file, "node %s: unsupported op '%s%s%s' (use "
			    "-k to keep it as an 'other' row)", n->name,
			    node_domain(n), n->stdop ? "" : ".", n->op);
			return -1;
		}
		if (graph_keepshape(m, n) < 0)
			return -1;
		allconst = 0;
	}
	for (i = 0; i < n->nout; i++)
		if (n->out[i] >= 0 && output_ok(m, n, &m->t[n->out[i]],
		    allconst) < 0)
			return -1;
	return 0;
}

/*
 * The If node at m->order[i], when its condition is a constant, replaced
 * by the branch it takes (model_splice), the branch's nodes ordered in
 * its place: 1.  Any other node: 0.  -1 reported (a condition known only
 * at run time without keep, which leaves such an If to -k's rule).
 */
static int
branch(struct model *m, size_t i, int keep)
{
	int ni = m->order[i], *order;
	const struct node *n = &m->n[ni];
	const struct tensor *c = node_in(m, n, 0);
	size_t lo = m->nn, add;

	if (!n->stdop || strcmp(n->op, "If") != 0)
		return 0;
	if (c == NULL || !c->known || !c->hasval || c->nval != 1) {
		if (keep)
			return 0;
		pf_err(m->file, "node %s: If's condition%s%s%s is known only "
		    "at run time (use -k to keep the If as an 'other' row "
		    "of its declared shapes)", n->name, c ? " '" : "",
		    c ? c->name : "", c ? "'" : "");
		return -1;
	}
	if (model_splice(m, ni, tensor_ival(c, 0) != 0) < 0)
		return -1;
	/* order[0..i), the branch's nodes, ni, the rest */
	add = m->nn - lo;
	order = xcalloc(m->nn, sizeof(int));
	memcpy(order, m->order, i * sizeof(int));
	if (toposort(m, (int)lo, (int)m->nn, order + i) < 0) {
		free(order);
		return -1;
	}
	order[i + add] = ni;
	memcpy(order + i + add + 1, m->order + i + 1,
	    (lo - i - 1) * sizeof(int));
	free(m->order);
	m->order = order;
	return 1;
}

int
graph_infer(struct model *m, int keep)
{
	size_t i, nn0 = m->nn;
	int pass, r;

	/*
	 * Constant nodes first (they read nothing), so that what a consumer
	 * of an unknown op fixes (a Reshape's shape) is known when the op
	 * is reached (graph_keepshape).  The nodes of an If's branch are
	 * taken in their order where the If stood, Constants included.
	 */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < m->nn; i++) {
			int ni = m->order[i];
			const struct node *n = &m->n[ni];

			if ((size_t)ni < nn0 && (n->stdop && n->nin == 0 &&
			    strcmp(n->op, "Constant") == 0) != !pass)
				continue;
			while (pass == 1 && (r = branch(m, i, keep)) != 0)
				if (r < 0)
					return -1;
			ni = m->order[i];
			if (infer1(m, ni, keep) < 0 ||
			    consteval_node(m, &m->n[ni]) < 0)
				return -1;
		}
	return 0;
}
