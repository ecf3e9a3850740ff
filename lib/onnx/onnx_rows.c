/*
 * The rows of layers.csv as layer emission builds them: the layout of a
 * tensor as (batch, c, h, w), byte counts, preds, and the geometry of
 * each kind of layer (conv and pool windows, GEMM views of weight and
 * activation products and Einsum, the recurrent steps of LSTM/GRU/RNN,
 * embeddings).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "onnx_einsum.h"
#include "onnx_rnn.h"
#include "onnx_rows.h"
#include "onnx_shape.h"
#include "xalloc.h"

/* Element size in bytes: integer tensors keep theirs, floats use -t. */
static int64_t
esz(const struct em *e, const struct tensor *t)
{
	return onnx_dtype_isint(t->dtype) ? onnx_dtype_size(t->dtype) : e->esz;
}

static int
bytes(const struct em *e, const struct tensor *t, int64_t *acc)
{
	int64_t b;

	if (ck_mul(tensor_numel(t), esz(e, t), &b) < 0 || tensor_numel(t) < 0 ||
	    ck_add(*acc, b, acc) < 0)
		return -1;
	return 0;
}

/*
 * (batch, c, h, w) of a tensor: rank 4 NCHW; rank 3 [N,S,D] (chan: a
 * Conv1d/pool [N,C,L]); rank 2 [N,D]; rank 1 [D]; higher ranks fold their
 * extra leading dims into batch.
 */
static int
layout(const struct tensor *t, int chan, int64_t *b, int64_t *c, int64_t *h,
    int64_t *w)
{
	const int64_t *d = t->dims;
	int r = t->rank;

	*b = *c = *h = *w = 1;
	switch (r) {
	case 0:
		return 0;
	case 1:
		*c = d[0];
		return 0;
	case 2:
		*b = d[0];
		*c = d[1];
		return 0;
	case 3:
		*b = d[0];
		if (chan) {
			*c = d[1];
			*w = d[2];
		} else {
			*h = d[1];
			*c = d[2];
		}
		return 0;
	default:
		if (ck_prod(d, r - 3, b) < 0)
			return -1;
		*c = d[r - 3];
		*h = d[r - 2];
		*w = d[r - 1];
		return 0;
	}
}

static int intcmp(const void *, const void *);

/*
 * Union of the source layers of tensors ts (n of them) into dst, sorted:
 * gathered, sorted and made distinct, so a node of many inputs (a Sum of
 * 200k operands) costs n log n, not n squared.
 */
void
rows_srcunion(struct model *m, const int *ts, size_t n, struct tensor *dst)
{
	int *buf, nb = 0, i;
	size_t k, cap = 0;

	for (k = 0; k < n; k++)
		if (ts[k] >= 0 && !m->t[ts[k]].isconst)
			cap += (size_t)m->t[ts[k]].nsrc;
	buf = xcalloc(cap ? cap : 1, sizeof(int));
	for (k = 0; k < n; k++) {
		const struct tensor *t;

		if (ts[k] < 0 || (t = &m->t[ts[k]])->isconst)
			continue;
		for (i = 0; i < t->nsrc; i++)
			buf[nb++] = t->src[i];
	}
	if (nb > 1) {
		int j = 0;

		qsort(buf, (size_t)nb, sizeof(int), intcmp);
		for (i = 1; i < nb; i++)
			if (buf[i] != buf[j])
				buf[++j] = buf[i];
		nb = j + 1;
	}
	free(dst->src);
	dst->src = buf;
	dst->nsrc = nb;
	dst->layer = -1;
}

static int
intcmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

struct row *
rows_new(struct em *e, const struct node *n, enum layer_op op)
{
	struct row *r;

	if (e->nrows == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 64;
		e->rows = xreallocarray(e->rows, e->cap, sizeof(*e->rows));
	}
	r = &e->rows[e->nrows];
	memset(r, 0, sizeof(*r));
	layer_init(&r->l);
	r->l.id = (int64_t)e->nrows;
	r->l.op = op;
	rows_strcpy(r->l.dtype, sizeof(r->l.dtype), e->dtype);
	r->name = n->patname != NULL ? n->patname : n->name;
	r->onnx_op = n->onnx_op;
	if (n->patname != NULL) {
		size_t i;

		for (i = 0; i < e->m->nn; i++)
			if (e->m->n[i].name == n->patname)
				r->onnx_op = e->m->n[i].onnx_op;
	}
	e->nrows++;
	return r;
}

/*
 * The ids v[0..n-1] as "%d" separated by blanks into d (room for 12 bytes
 * an id and the end), without the formatter: one per row of a large graph.
 */
static void
putids(char *d, const int *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char tmp[12], *p = tmp + sizeof(tmp);
		/* (unsigned: -INT_MIN does not fit an int) */
		unsigned u = v[i] < 0 ? 0u - (unsigned)v[i] : (unsigned)v[i];

		if (i > 0)
			*d++ = ' ';
		do {
			*--p = (char)('0' + u % 10);
			u /= 10;
		} while (u != 0);
		if (v[i] < 0)
			*--p = '-';
		memcpy(d, p, (size_t)(tmp + sizeof(tmp) - p));
		d += tmp + sizeof(tmp) - p;
	}
	*d = '\0';
}

/* preds: the sorted distinct source layers of the data tensors ts. */
static void
preds(struct em *e, struct row *r, const int *ts, size_t n)
{
	struct tensor tmp;
	size_t cap;

	memset(&tmp, 0, sizeof(tmp));
	rows_srcunion(e->m, ts, n, &tmp);
	qsort(tmp.src, (size_t)tmp.nsrc, sizeof(int), intcmp);
	cap = (size_t)tmp.nsrc * 12 + 1;
	r->preds = xmalloc(cap);
	putids(r->preds, tmp.src, (size_t)tmp.nsrc);
	free(tmp.src);
}

static int
overflow(const struct em *e, const struct node *n)
{
	pf_err(e->m->file, "node %s: a byte or MAC count overflows 64 bits",
	    n->name);
	return -1;
}

/*
 * Geometry every row shares: in_* from the first data tensor, out_* from
 * the output, byte counts of the data tensors ts (activations into
 * in_bytes, constants into weight_bytes) and the output, preds.
 */
int
rows_generic(struct em *e, const struct node *n, struct row *r, const int *ts,
    size_t nts, int chan)
{
	struct model *m = e->m;
	const struct tensor *o = node_out(m, n, 0), *x = NULL;
	struct layer *l = &r->l;
	int64_t ob;
	size_t i;

	/* The geometry of the first output that is not empty (Split). */
	for (i = 1; i < n->nout && (o == NULL || tensor_empty(o)); i++)
		if (node_out(m, n, i) != NULL)
			o = node_out(m, n, i);
	for (i = 0; i < nts && x == NULL; i++)
		if (ts[i] >= 0 && !m->t[ts[i]].isconst &&
		    !tensor_empty(&m->t[ts[i]]))
			x = &m->t[ts[i]];
	for (i = 0; i < nts && x == NULL; i++)
		if (ts[i] >= 0 && !tensor_empty(&m->t[ts[i]]))
			x = &m->t[ts[i]];
	/*
	 * No operand, or only empty ones (a kept op whose inputs are all
	 * absent, a Pad of nothing): the input geometry is the output's,
	 * with no input bytes.
	 */
	if (x == NULL)
		x = o;
	if (layout(o, chan, &ob, &l->out_c, &l->out_h, &l->out_w) < 0 ||
	    layout(x, chan, &l->batch, &l->in_c, &l->in_h, &l->in_w) < 0)
		return overflow(e, n);
	/* Conv and pool rows of rank 5: [N, C, D, H, W]. */
	if (chan && o->rank == 5 && x->rank == 5) {
		ob = l->batch = x->dims[0];
		l->in_c = x->dims[1];
		l->in_d = x->dims[2];
		l->out_c = o->dims[1];
		l->out_d = o->dims[2];
	}
	l->in_bytes = l->weight_bytes = l->out_bytes = 0;
	for (i = 0; i < nts; i++) {
		const struct tensor *t;

		if (ts[i] < 0)
			continue;
		t = &m->t[ts[i]];
		if (bytes(e, t, t->isconst ? &l->weight_bytes :
		    &l->in_bytes) < 0)
			return overflow(e, n);
	}
	if (bytes(e, o, &l->out_bytes) < 0)
		return overflow(e, n);
	preds(e, r, ts, nts);
	return 0;
}

/* Conv and pool windows: kernel, stride, pads, dilation into the row. */
static int
windowrow(struct em *e, const struct node *n, struct row *r)
{
	struct model *m = e->m;
	const struct tensor *x = node_in(m, n, 0), *w = node_in(m, n, 1);
	struct layer *l = &r->l;
	struct window win;
	int64_t pp[2 * ONNX_MAXRANK] = { 0 };
	int np, pr, hi, wi, rank = x->rank;

	if (window_geom(m, n, x, strncmp(n->op, "Conv", 4) == 0 ?
	    w->dims + 2 : NULL, &win) < 0)
		return -1;
	if (n->padfrom >= 0 && shape_node_ints(m, &m->n[n->padfrom], "pads", 1, pp,
	    2 * ONNX_MAXRANK, &np, &pr) < 0)
		return -1;
	/* A 1-D window lies along w; a 3-D one has depth first. */
	hi = win.nsp - 2;
	wi = win.nsp - 1;
	if (win.nsp == 3) {
		l->kernel_d = win.k[0];
		l->stride_d = win.s[0];
		l->dil_d = win.d[0];
		l->pad_front = win.pb[0] + pp[2];
		l->pad_back = win.pe[0] + pp[rank + 2];
	}
	if (hi >= 0) {
		l->kernel_h = win.k[hi];
		l->stride_h = win.s[hi];
		l->dil_h = win.d[hi];
		l->pad_top = win.pb[hi] + pp[2 + hi];
		l->pad_bottom = win.pe[hi] + pp[rank + 2 + hi];
	}
	l->kernel_w = win.k[wi];
	l->stride_w = win.s[wi];
	l->dil_w = win.d[wi];
	l->pad_left = win.pb[wi] + pp[2 + wi];
	l->pad_right = win.pe[wi] + pp[rank + 2 + wi];
	return 0;
}

int
rows_conv(struct em *e, const struct node *n)
{
	struct model *m = e->m;
	struct row *r = rows_new(e, n, OP_CONV);
	int ts[1];

	ts[0] = n->padfrom >= 0 ? m->n[n->padfrom].in[0] : n->in[0];
	if (rows_generic(e, n, r, ts, 1, 1) < 0 || windowrow(e, n, r) < 0)
		return -1;
	r->l.groups = attr_int(n, "group", 1);
	/* The col2im view (layer_derive), in the optional column. */
	r->l.transposed = strcmp(n->op, "ConvTranspose") == 0;
	if (layer_derive(&r->l) < 0)
		return overflow(e, n);
	return 0;
}

int
rows_pool(struct em *e, const struct node *n, int global)
{
	struct row *r = rows_new(e, n, OP_POOL);

	if (rows_generic(e, n, r, n->in, n->nin, 1) < 0)
		return -1;
	if (global) {
		r->l.kernel_h = r->l.in_h;
		r->l.kernel_w = r->l.in_w;
		r->l.kernel_d = r->l.in_d;
		return 0;
	}
	return windowrow(e, n, r);
}

/* A weight product: activation [.., K] times constant [K, N]. */
int
rows_gemm(struct em *e, const struct node *n)
{
	struct model *m = e->m;
	const struct tensor *a = node_in(m, n, 0), *o = node_out(m, n, 0);
	struct row *r = rows_new(e, n, OP_GEMM);
	struct layer *l = &r->l;
	int64_t k;

	if (rows_generic(e, n, r, n->in, 1, 0) < 0)
		return -1;
	k = a->dims[a->rank - 1];
	if (strcmp(n->op, "Gemm") == 0 && attr_int(n, "transA", 0)) {
		l->batch = a->dims[1];
		k = a->dims[0];
	} else if (a->rank == 1)
		l->batch = 1;
	else {
		l->batch = a->dims[0];
		if (ck_prod(a->dims + 1, a->rank - 2, &l->in_h) < 0)
			return overflow(e, n);
	}
	l->in_c = k;
	l->in_w = l->out_w = 1;
	l->out_h = l->in_h;
	l->out_c = o->dims[o->rank - 1];
	if (layer_derive(l) < 0)
		return overflow(e, n);
	return 0;
}

/* A product of two activations (attention Q*K^T, scores*V). */
int
rows_matmul(struct em *e, const struct node *n)
{
	struct model *m = e->m;
	const struct tensor *a = node_in(m, n, 0), *b = node_in(m, n, 1);
	const struct tensor *o = node_out(m, n, 0);
	struct row *r = rows_new(e, n, OP_MATMUL);
	struct layer *l = &r->l;
	int64_t v[4];
	int ts[2];

	ts[0] = n->in[0];
	ts[1] = n->in[1];
	if (rows_generic(e, n, r, ts, 2, 0) < 0)
		return -1;
	if (strcmp(n->op, "Gemm") == 0) {
		int ta = (int)attr_int(n, "transA", 0);

		l->gemm_m = a->dims[ta ? 1 : 0];
		l->gemm_k = a->dims[ta ? 0 : 1];
		l->gemm_batch = 1;
	} else {
		l->gemm_m = a->rank > 1 ? a->dims[a->rank - 2] : 1;
		l->gemm_k = a->dims[a->rank - 1];
		if (ck_prod(o->dims, o->rank - (a->rank > 1) - (b->rank > 1),
		    &l->gemm_batch) < 0)
			return overflow(e, n);
	}
	l->gemm_n = b->rank > 1 ? o->dims[o->rank - 1] : 1;
	l->batch = o->rank >= 3 ? o->dims[0] : 1;
	l->in_w = l->out_w = l->gemm_batch / l->batch;
	l->in_h = l->out_h = l->gemm_m;
	l->in_c = l->gemm_k;
	l->out_c = l->gemm_n;
	v[0] = l->gemm_batch;
	v[1] = l->gemm_m;
	v[2] = l->gemm_n;
	v[3] = l->gemm_k;
	if (ck_prod(v, 4, &l->macs) < 0)
		return overflow(e, n);
	/* Both operands are inputs as stored; nothing is a weight. */
	if (ck_add(l->in_bytes, l->weight_bytes, &l->in_bytes) < 0)
		return overflow(e, n);
	l->weight_bytes = 0;
	return 0;
}

/*
 * Einsum as a matrix product: of an activation by a constant weight with
 * no batch labels, a gemm row ([M, K] by [K, N]); else a matmul row with
 * the equation's exact GEMM view.
 */
int
rows_einsum(struct em *e, const struct node *n)
{
	struct model *m = e->m;
	const struct tensor *a = node_in(m, n, 0), *b = node_in(m, n, 1);
	struct einsum v;
	struct row *r;
	struct layer *l;
	char eq[256], why[96];
	int64_t p[4];
	int ts[2];

	if (einsum_view(attr_str(n, "equation", eq, sizeof(eq), ""), a, b, &v,
	    why, sizeof(why)) < 0)
		return -1;	/* shape_ops_einsum reported it already */
	ts[0] = n->in[0];
	ts[1] = n->in[1];
	if (v.batch == 1 && a->isconst != b->isconst) {
		r = rows_new(e, n, OP_GEMM);
		l = &r->l;
		if (rows_generic(e, n, r, ts, 2, 0) < 0)
			return -1;
		l->batch = 1;
		l->in_h = l->out_h = a->isconst ? v.n : v.m;
		l->in_w = l->out_w = 1;
		l->in_c = v.k;
		l->out_c = a->isconst ? v.m : v.n;
		return layer_derive(l) < 0 ? overflow(e, n) : 0;
	}
	r = rows_new(e, n, OP_MATMUL);
	l = &r->l;
	if (rows_generic(e, n, r, ts, 2, 0) < 0)
		return -1;
	l->gemm_batch = v.batch;
	l->gemm_m = v.m;
	l->gemm_n = v.n;
	l->gemm_k = v.k;
	l->batch = v.lead;
	l->in_w = l->out_w = v.batch / v.lead;
	l->in_h = l->out_h = v.m;
	l->in_c = v.k;
	l->out_c = v.n;
	p[0] = v.batch;
	p[1] = v.m;
	p[2] = v.n;
	p[3] = v.k;
	if (ck_prod(p, 4, &l->macs) < 0 ||
	    ck_add(l->in_bytes, l->weight_bytes, &l->in_bytes) < 0)
		return overflow(e, n);
	l->weight_bytes = 0;
	return 0;
}

/*
 * preds of a first recurrent step: its projection row and the sources of
 * the initial states st (ns of them, -1 omitted), sorted and distinct.
 */
static void
statepreds(struct em *e, struct row *r, int64_t proj, const int *st,
    size_t ns)
{
	struct tensor tmp;
	int *ids;
	size_t n = 0, cap;
	int i;

	memset(&tmp, 0, sizeof(tmp));
	rows_srcunion(e->m, st, ns, &tmp);
	ids = xcalloc((size_t)tmp.nsrc + 1, sizeof(int));
	ids[n++] = (int)proj;
	for (i = 0; i < tmp.nsrc; i++)
		if (tmp.src[i] != (int)proj)
			ids[n++] = tmp.src[i];
	qsort(ids, n, sizeof(int), intcmp);
	cap = n * 12 + 1;
	r->preds = xmalloc(cap);
	putids(r->preds, ids, n);
	free(ids);
	free(tmp.src);
}

/* Name "<node>/<dir>/<what>" for a row of a recurrent node. */
static void
rnnname(struct row *r, const struct node *n, int dirs, int d,
    const char *what, int64_t t)
{
	size_t len = strlen(n->name) + 48;

	r->ownname = xmalloc(len);
	snprintf(r->ownname, len, "%s%s%s/%s", n->name, dirs == 2 ? "/" : "",
	    dirs == 2 ? (d ? "rev" : "fwd") : "", what);
	if (t >= 0)
		snprintf(r->ownname + strlen(r->ownname), len -
		    strlen(r->ownname), "%lld", (long long)t);
	r->name = r->ownname;
}

/*
 * LSTM, GRU, RNN as the layers they compute, per direction: the input
 * projection of the whole sequence as one gemm row (X [S*B, I] by W^T
 * [I, G*H]), then one gemm row per step for the recurrent product
 * (h [B, H] by R^T [H, G*H], a GEMV at batch 1) whose gate nonlinearities
 * and state update are its act ("lstm", "gru", "rnn"), each step after
 * the one before, the reverse direction from the last step.  A step
 * reads h (and c), the projected inputs of its step and R, and writes h
 * (and c).  The outputs come from the last step of every direction.
 */
int
rows_rnn(struct em *e, const struct node *n)
{
	struct model *m = e->m;
	struct rnn g;
	int64_t gh, t, prev, v[4];
	int d, last[2], ts[1];
	size_t i, cap = 48;
	const char *act;

	if (rnn_geom(m, n, &g) < 0)
		return -1;
	act = g.gates == 4 ? "lstm" : g.gates == 3 ? "gru" : "rnn";
	gh = g.hidden * g.gates;
	for (d = 0; d < g.dirs; d++) {
		struct row *r = rows_new(e, n, OP_GEMM);
		struct layer *l = &r->l;
		int64_t proj = (int64_t)r->l.id;

		rnnname(r, n, g.dirs, d, "W", -1);
		ts[0] = n->in[0];
		if (rows_generic(e, n, r, ts, 1, 0) < 0)
			return -1;
		l->batch = g.batch;
		l->in_h = l->out_h = g.seq;
		l->in_w = l->out_w = 1;
		l->in_c = g.in;
		l->out_c = gh;
		if (layer_derive(l) < 0)
			return overflow(e, n);
		prev = -1;
		for (t = 0; t < g.seq; t++) {
			int64_t step = g.reverse || d == 1 ? g.seq - 1 - t : t;

			r = rows_new(e, n, OP_GEMM);
			l = &r->l;
			rnnname(r, n, g.dirs, d, "t", step);
			l->batch = g.batch;
			l->in_h = l->out_h = l->in_w = l->out_w = 1;
			l->in_c = g.hidden;
			l->out_c = gh;
			rows_strcpy(l->act, sizeof(l->act), act);
			if (layer_derive(l) < 0)
				return overflow(e, n);
			/* h (and c) in and out, the step's projected gates. */
			v[0] = g.batch; v[1] = g.hidden; v[2] = e->esz;
			v[3] = g.gates == 4 ? 2 : 1;
			if (ck_prod(v, 4, &l->out_bytes) < 0)
				return overflow(e, n);
			v[1] = gh;
			if (ck_prod(v, 3, &l->in_bytes) < 0 ||
			    ck_add(l->in_bytes, l->out_bytes, &l->in_bytes) < 0)
				return overflow(e, n);
			if (prev < 0)
				statepreds(e, r, proj, n->in + 5, n->nin > 6 ?
				    2 : n->nin > 5 ? 1 : 0);
			else {
				r->preds = xmalloc(cap);
				snprintf(r->preds, cap, "%lld %lld",
				    (long long)proj, (long long)prev);
			}
			prev = (int64_t)r->l.id;
		}
		last[d] = (int)prev;
	}
	for (i = 0; i < n->nout; i++) {
		struct tensor *o = node_out(m, n, i);

		if (o == NULL)
			continue;
		free(o->src);
		o->src = xcalloc(2, sizeof(int));
		o->nsrc = g.dirs;
		for (d = 0; d < g.dirs; d++)
			o->src[d] = last[d];
		o->layer = g.dirs == 1 ? last[0] : -1;
	}
	e->srcset = 1;
	return 0;
}

/* Gather of a constant table [V, D] by activation indices. */
int
rows_embed(struct em *e, const struct node *n)
{
	struct model *m = e->m;
	const struct tensor *ix = node_in(m, n, 1), *o = node_out(m, n, 0);
	struct row *r = rows_new(e, n, OP_EMBED);
	struct layer *l = &r->l;
	int64_t b, c, h, w;

	if (rows_generic(e, n, r, n->in, 2, 0) < 0)
		return -1;
	/* The ids tensor read as a token tensor [N, S] of one channel. */
	if (layout(ix, 0, &l->batch, &c, &l->in_h, &l->in_w) < 0)
		return overflow(e, n);
	if (ix->rank == 2) {
		l->in_h = c;
		l->in_w = 1;
	} else if (ix->rank == 1) {
		l->batch = 1;
		l->in_h = c;
	}
	l->in_c = 1;
	if (layout(o, 0, &b, &l->out_c, &h, &w) < 0)
		return overflow(e, n);
	l->out_h = l->in_h;
	l->out_w = l->in_w;
	return 0;
}

