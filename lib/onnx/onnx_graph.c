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

/* Report a node on a cycle among the nodes with indeg > 0. */
static void
cycle(const struct model *m, const int *indeg)
{
	int *seen = xcalloc(m->nn, sizeof(int)), i, j, next;
	size_t k;

	for (i = 0; i < (int)m->nn && indeg[i] == 0; i++)
		;
	/* Walk back along unfinished producers until a node repeats. */
	while (!seen[i]) {
		seen[i] = 1;
		next = -1;
		for (k = 0; k < m->n[i].nin && next < 0; k++) {
			j = m->n[i].in[k];
			if (j >= 0 && m->t[j].producer >= 0 &&
			    indeg[m->t[j].producer] > 0)
				next = m->t[j].producer;
		}
		if (next < 0)
			break;
		i = next;
	}
	pf_err(m->file, "node %s: graph has a cycle through this node",
	    m->n[i].name);
	free(seen);
}

int
graph_order(struct model *m)
{
	int *indeg, *heap, *cnt, *off, *adj, nh = 0, no = 0, ok = 1, i, p;
	size_t k;

	m->order = xcalloc(m->nn, sizeof(int));
	for (i = 0; i < (int)m->nn && ok; i++)
		for (k = 0; k < m->n[i].nin; k++)
			if (m->n[i].in[k] >= 0 &&
			    m->t[m->n[i].in[k]].producer >= i)
				ok = 0;
	if (ok) {
		for (i = 0; i < (int)m->nn; i++)
			m->order[i] = i;
		return 0;
	}
	/* Consumer lists in CSR form: off[p]..off[p+1] in adj. */
	indeg = xcalloc(m->nn, sizeof(int));
	cnt = xcalloc(m->nn + 1, sizeof(int));
	off = xcalloc(m->nn + 1, sizeof(int));
	for (i = 0; i < (int)m->nn; i++)
		for (k = 0; k < m->n[i].nin; k++)
			if (m->n[i].in[k] >= 0 &&
			    (p = m->t[m->n[i].in[k]].producer) >= 0) {
				cnt[p]++;
				indeg[i]++;
			}
	for (i = 0; i < (int)m->nn; i++)
		off[i + 1] = off[i] + cnt[i];
	adj = xcalloc((size_t)off[m->nn] + 1, sizeof(int));
	memset(cnt, 0, (m->nn + 1) * sizeof(int));
	for (i = 0; i < (int)m->nn; i++)
		for (k = 0; k < m->n[i].nin; k++)
			if (m->n[i].in[k] >= 0 &&
			    (p = m->t[m->n[i].in[k]].producer) >= 0)
				adj[off[p] + cnt[p]++] = i;
	heap = xcalloc(m->nn, sizeof(int));
	for (i = 0; i < (int)m->nn; i++)
		if (indeg[i] == 0)
			hpush(heap, &nh, i);
	while (nh > 0) {
		int v = hpop(heap, &nh), e;

		m->order[no++] = v;
		for (e = off[v]; e < off[v + 1]; e++)
			if (--indeg[adj[e]] == 0)
				hpush(heap, &nh, adj[e]);
	}
	if (no < (int)m->nn)
		cycle(m, indeg);
	free(indeg);
	free(cnt);
	free(off);
	free(adj);
	free(heap);
	return no < (int)m->nn ? -1 : 0;
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

int
graph_inputs(struct model *m, const struct input_shape *is, int nis)
{
	char buf[512];
	size_t i, k;
	int j, ndata = 0, one = -1, *data;

	/*
	 * A graph input is a weight when every use is a weight slot, except
	 * the first one: exporters list the data inputs first (W*x with x
	 * as MatMul's second operand stays data).
	 */
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
			ndata++;
			one = (int)i;
		}
	}
	free(data);
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
	for (i = 0; i < m->nt; i++) {
		struct tensor *t = &m->t[i];

		if (!t->isinput || t->nuse == 0)
			continue;
		if (t->declrank < 0) {
			pf_err(m->file, "input '%s' has no declared shape: give "
			    "it with -i %s=NxCxHxW", t->name, t->name);
			return -1;
		}
		for (j = 0; j < t->declrank; j++) {
			if (t->decl[j] < 0) {
				char hint[256];

				shapehint(t, hint, sizeof(hint));
				pf_err(m->file, "input '%s': dim %d ('%s') is "
				    "unknown: give the shape with -i %s=%s",
				    t->name, j, model_dimparam(m, t, j), t->name,
				    hint);
				return -1;
			}
			if (t->decl[j] == 0) {
				pf_err(m->file, "input '%s': dim %d is zero",
				    t->name, j);
				return -1;
			}
		}
		t->rank = t->declrank;
		memcpy(t->dims, t->decl, sizeof(t->dims));
		t->known = 1;
		if (t->dtype == DT_UNDEF)
			t->dtype = DT_FLOAT;
		if (tensor_numel(t) < 0) {
			pf_err(m->file, "input '%s': element count overflows "
			    "64 bits", t->name);
			return -1;
		}
	}
	return 0;
}

/*
 * What the consumers of tensor ti (an output of an unknown op) fix about
 * its shape: a Conv or ConvTranspose its rank and channels (dim 1) by its
 * weights, a Gemm its rank (2) and K, a MatMul its last dim K by the
 * other operand, a Reshape to a constant shape (no 0, no -1) its element
 * count.  The first consumer that fixes something is taken (its own
 * shape rule later checks the shape against the rest).
 */
struct fix {
	const struct node *by;		/* NULL: no consumer fixes anything */
	int	 rank;			/* -1: not fixed (MatMul) */
	int	 dim;			/* index of the fixed dim, -1 last */
	int64_t	 val;			/* its value */
	int	 numel;			/* Reshape: only the count, as tgt */
	int	 tgtrank;
	int64_t	 tgt[ONNX_MAXRANK];
};

static int
fixdim(const struct model *m, const struct node *c, size_t slot,
    struct fix *f)
{
	const struct tensor *b = node_in(m, c, slot == 0 ? 1 : 0);
	int64_t v;
	int i;

	if (!c->stdop || slot != 0 || b == NULL || !b->known)
		return 0;
	if ((strcmp(c->op, "Conv") == 0 || strcmp(c->op, "ConvTranspose") ==
	    0) && b->rank >= 3) {
		f->rank = b->rank;
		f->dim = 1;
		if (c->op[4] == '\0') {
			if (ck_mul(b->dims[1], attr_int(c, "group", 1), &v) < 0)
				return 0;
			f->val = v;
		} else
			f->val = b->dims[0];
	} else if (strcmp(c->op, "Gemm") == 0 && b->rank == 2) {
		f->rank = 2;
		f->dim = attr_int(c, "transA", 0) ? 0 : 1;
		f->val = b->dims[attr_int(c, "transB", 0) ? 1 : 0];
	} else if (strcmp(c->op, "MatMul") == 0 && b->rank >= 1) {
		f->rank = -1;
		f->dim = -1;
		f->val = b->dims[b->rank > 1 ? b->rank - 2 : 0];
	} else if (strcmp(c->op, "Reshape") == 0 && b->hasval &&
	    b->rank == 1 && b->nval >= 1 && b->nval <= ONNX_MAXRANK) {
		for (i = 0; i < (int)b->nval; i++)
			if ((f->tgt[i] = tensor_ival(b, i)) < 1)
				return 0;
		f->tgtrank = (int)b->nval;
		f->numel = 1;
	} else
		return 0;
	f->by = c;
	return 1;
}

static void
fixof(const struct model *m, int ti, struct fix *f)
{
	size_t i, j;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < m->nn; i++)
		for (j = 0; j < m->n[i].nin; j++)
			if (m->n[i].in[j] == ti && fixdim(m, &m->n[i], j, f))
				return;
}

/*
 * Output i of unknown op n, which has no declared shape, by what its
 * consumers fix (fixof) and, for the rest, its data input x (NULL unless
 * n has exactly one input that is not constant); with nothing fixed, x's
 * shape when it is n's only output in use (the op taken as
 * shape-preserving).  A warning says what was assumed; what cannot be
 * inferred is reported, naming the output and what is missing.
 */
static int
keepout(struct model *m, const struct node *n, size_t i,
    const struct tensor *x, int ndata, int nused)
{
	const struct tensor *t = node_out(m, n, i);
	int64_t d[ONNX_MAXRANK], cnt;
	struct fix f;
	char buf[160], what[128], why[128];
	int r, j;

	fixof(m, n->out[i], &f);
	if (f.by != NULL && f.numel) {
		struct tensor tmp;

		memset(&tmp, 0, sizeof(tmp));
		tmp.known = 1;
		tmp.rank = f.tgtrank;
		memcpy(tmp.dims, f.tgt, sizeof(tmp.dims));
		cnt = tensor_numel(&tmp);
		if (cnt < 0) {
			pf_err(m->file, "node %s: the shape Reshape '%s' gives "
			    "output '%s' of unknown op '%s' overflows 64 bits",
			    n->name, f.by->name, t->name, n->op);
			return -1;
		}
		if (x != NULL && tensor_numel(x) == cnt) {
			shape_setout(m, n, i, x->dtype, x->rank, x->dims);
			pf_warn(m->file, "node %s: unknown op '%s': output '%s' "
			    "taken as %s like input '%s', whose element count "
			    "Reshape '%s' fixes; the model declares no output "
			    "shape", n->name, n->op, t->name,
			    tensor_shape_str(x, buf, sizeof(buf)), x->name,
			    f.by->name);
			return 0;
		}
		shape_setout(m, n, i, x != NULL ? x->dtype : DT_FLOAT,
		    tmp.rank, tmp.dims);
		pf_warn(m->file, "node %s: unknown op '%s': output '%s' taken "
		    "as %s, the element count Reshape '%s' fixes; the model "
		    "declares no output shape", n->name, n->op, t->name,
		    tensor_shape_str(&tmp, buf, sizeof(buf)), f.by->name);
		return 0;
	}
	if (f.by != NULL) {
		r = f.rank >= 0 ? f.rank : x != NULL ? x->rank : -1;
		if (x == NULL || x->rank != r || r < 1) {
			size_t off;

			if (f.rank >= 0) {
				off = (size_t)snprintf(what, sizeof(what), "its "
				    "rank (%d) and dim %d (%lld), not dims",
				    f.rank, f.dim, (long long)f.val);
				for (j = 0; j < f.rank && off < sizeof(what); j++)
					if (j != f.dim)
						off += (size_t)snprintf(what + off,
						    sizeof(what) - off, "%s %d",
						    j == 0 || (j == 1 &&
						    f.dim == 0) ? "" : ",", j);
			} else
				snprintf(what, sizeof(what), "its last dim "
				    "(%lld), not its rank", (long long)f.val);
			if (x != NULL)
				snprintf(why, sizeof(why), "input '%s' has rank %d",
				    x->name, x->rank);
			else
				snprintf(why, sizeof(why), "%d inputs are not "
				    "constant", ndata);
			pf_err(m->file, "node %s: unsupported op '%s': output "
			    "'%s' has no declared shape; %s '%s' fixes %s (%s): "
			    "declare it in value_info",
			    n->name, n->op, t->name, f.by->op, f.by->name,
			    what, why);
			return -1;
		}
		memcpy(d, x->dims, sizeof(d));
		j = f.dim >= 0 ? f.dim : r - 1;
		d[j] = f.val;
		shape_setout(m, n, i, x->dtype, r, d);
		pf_warn(m->file, "node %s: unknown op '%s': output '%s' taken "
		    "as %s (dim %d from %s '%s', the others like input '%s'); "
		    "the model declares no output shape", n->name, n->op,
		    t->name, tensor_shape_str(node_out(m, n, i), buf, sizeof(buf)),
		    j, f.by->op, f.by->name, x->name);
		return 0;
	}
	if (x != NULL && nused == 1) {
		shape_setout(m, n, i, x->dtype, x->rank, x->dims);
		pf_warn(m->file, "node %s: unknown op '%s' taken as "
		    "shape-preserving (output %s like input '%s'); the model "
		    "declares no output shape", n->name, n->op,
		    tensor_shape_str(x, buf, sizeof(buf)), x->name);
		return 0;
	}
	if (x == NULL)
		pf_err(m->file, "node %s: unsupported op '%s': output '%s' has "
		    "no declared shape, no consumer fixes it and %d inputs "
		    "are not constant (so it is not taken as shape-preserving): "
		    "declare it in value_info", n->name, n->op, t->name, ndata);
	else
		pf_err(m->file, "node %s: unsupported op '%s': output '%s' has "
		    "no declared shape, no consumer fixes it and %d outputs "
		    "are in use (so it is not taken as shape-preserving): "
		    "declare it in value_info", n->name, n->op, t->name, nused);
	return -1;
}

/*
 * Output shapes of an unknown op kept with -k: the declared ones where
 * the model has them; an output nothing reads is taken as a scalar; the
 * others by keepout().  Returns 0 or -1.
 */
static int
keepshape(struct model *m, const struct node *n)
{
	const struct tensor *x = NULL;
	size_t i;
	int j, ndata = 0, nused = 0;

	for (i = 0; i < n->nin; i++) {
		const struct tensor *t = node_in(m, n, i);

		if (t != NULL && !t->isconst) {
			ndata++;
			x = t;
		}
	}
	if (ndata != 1)
		x = NULL;
	for (i = 0; i < n->nout; i++) {
		const struct tensor *t = node_out(m, n, i);

		if (t != NULL && (t->nuse > 0 || t->isout))
			nused++;
	}
	for (i = 0; i < n->nout; i++) {
		struct tensor *t = node_out(m, n, i);

		if (t == NULL)
			continue;
		for (j = 0; j < t->declrank; j++)
			if (t->decl[j] < 1)
				break;
		if (t->declrank >= 0 && j == t->declrank)
			shape_setout(m, n, i, t->dtype ? t->dtype : DT_FLOAT,
			    t->declrank, t->decl);
		else if (t->nuse == 0 && !t->isout)
			shape_setout(m, n, i, x != NULL ? x->dtype : DT_FLOAT,
			    0, NULL);
		else if (keepout(m, n, i, x, ndata, nused) < 0)
			return -1;
	}
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
 * Infer the output shapes and types of node ni from its inputs (which
 * must be known) by its op's rule, and mark outputs constant when every
 * input is.  An unknown op is reported with the hint about -k unless keep
 * is set, in which case keepshape() gives its outputs' shapes.  Returns 0, or -1 reported.
 */
static int
infer1(struct model *m, int ni, int keep)
{
	const struct onnx_op *op;
	struct node *n = &m->n[ni];
	char buf[160];
	size_t i;
	int allconst = 1;

	for (i = 0; i < n->nin; i++) {
		struct tensor *t = node_in(m, n, i);

		if (t == NULL)
			continue;
		if (!t->known) {
			pf_err(m->file, "node %s: shape of input '%s' is "
			    "unknown", n->name, t->name);
			return -1;
		}
		if (!t->isconst)
			allconst = 0;
	}
	op = n->stdop ? onnx_op_find(n->op) : NULL;
	if (op != NULL && op->shape(m, n) < 0)
		return -1;
	if (op == NULL) {
		if (!keep) {
			pf_err(m->file, "node %s: unsupported op '%s%s%s' (use "
			    "-k to keep it as an 'other' row)", n->name,
			    node_domain(n),
			    n->stdop ? "" : ".", n->op);
			return -1;
		}
		if (keepshape(m, n) < 0)
			return -1;
		allconst = 0;
	}
	for (i = 0; i < n->nout; i++) {
		struct tensor *t = node_out(m, n, i);
		int j;

		if (t == NULL)
			continue;
		if (!t->known) {
			pf_err(m->file, "node %s: cannot infer the shape of "
			    "output '%s'", n->name, t->name);
			return -1;
		}
		if (tensor_numel(t) < 0) {
			pf_err(m->file, "node %s: output '%s' of shape %s has "
			    "more elements than 64 bits count", n->name,
			    t->name, tensor_shape_str(t, buf, sizeof(buf)));
			return -1;
		}
		/*
		 * A shape the model declares (value_info, graph outputs) for
		 * its own input shapes must be the one computed: a model that
		 * contradicts itself is refused, not read one way or the other.
		 */
		if (!m->reshaped && t->declrank >= 0 && !declared_ok(t)) {
			char dbuf[160];
			struct tensor d = *t;

			d.rank = t->declrank;
			memcpy(d.dims, t->decl, sizeof(d.dims));
			pf_err(m->file, "node %s: output '%s' has shape %s, the "
			    "model declares %s", n->name, t->name,
			    tensor_shape_str(t, buf, sizeof(buf)),
			    tensor_shape_str(&d, dbuf, sizeof(dbuf)));
			return -1;
		}
		for (j = 0; j < t->rank; j++)
			if (t->dims[j] < 0) {
				pf_err(m->file, "node %s: output '%s' has a "
				    "negative dim (shape %s)", n->name,
				    t->name, tensor_shape_str(t, buf, sizeof(buf)));
				return -1;
			}
		t->isconst = allconst || strcmp(n->op, "Shape") == 0 ||
		    strcmp(n->op, "Size") == 0 || strcmp(n->op, "Constant") == 0;
		for (j = 0; j < t->rank && !t->isconst; j++)
			if (t->dims[j] < 1) {
				pf_err(m->file, "node %s: output '%s' has a "
				    "zero dim (shape %s)", n->name, t->name,
				    tensor_shape_str(t, buf, sizeof(buf)));
				return -1;
			}
	}
	return 0;
}

int
graph_infer(struct model *m, int keep)
{
	size_t i;
	int pass;

	/*
	 * Constant nodes first (they read nothing), so that what a consumer
	 * of an unknown op fixes (a Reshape's shape) is known when the op
	 * is reached (keepshape).
	 */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < m->nn; i++) {
			int ni = m->order[i];
			const struct node *n = &m->n[ni];

			if ((n->stdop && n->nin == 0 &&
			    strcmp(n->op, "Constant") == 0) != !pass)
				continue;
			if (infer1(m, ni, keep) < 0 ||
			    consteval_node(m, &m->n[ni]) < 0)
				return -1;
		}
	return 0;
}
