/*
 * Shape rules of the ops that compute (see onnx_shape_ops.h), for opsets
 * 9 to 18: arguments that moved from attributes to inputs (Clip, Reduce*
 * axes, TopK's k) are read from the input when present and from the
 * attribute otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "onnx_einsum.h"
#include "onnx_rnn.h"
#include "onnx_shape.h"
#include "onnx_shape_ops.h"

#define R ONNX_MAXRANK

/* Input i, which must be present. */
#define in shape_need

int
shape_ops_unary(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int32_t dt;
	int64_t d[R];
	int i;

	if (x == NULL)
		return -1;
	dt = x->dtype;
	if (strcmp(n->op, "Cast") == 0)
		dt = (int32_t)attr_int(n, "to", DT_FLOAT);
	else if (strcmp(n->op, "QuantizeLinear") == 0)
		/* the zero point's type; uint8 without one */
		dt = node_in(m, n, 2) != NULL ? node_in(m, n, 2)->dtype :
		    DT_UINT8;
	else if (strcmp(n->op, "DequantizeLinear") == 0)
		/* the scale's type (float before opset 19) */
		dt = node_in(m, n, 1) != NULL ? node_in(m, n, 1)->dtype :
		    DT_FLOAT;
	else if (strcmp(n->op, "Not") == 0 || strcmp(n->op, "IsNaN") == 0 ||
	    strcmp(n->op, "IsInf") == 0)
		dt = DT_BOOL;
	if (strcmp(n->op, "Softmax") == 0 || strcmp(n->op, "LogSoftmax") == 0 ||
	    strcmp(n->op, "Hardmax") == 0) {
		int ax;

		/* the default axis moved from 1 to -1 in opset 13 */
		if (shape_axis(m, n, attr_int(n, "axis", m->opset < 13 ? 1 :
		    -1), x->rank, &ax) < 0)
			return -1;
	}
	shape_setout(m, n, 0, dt, x->rank, x->dims);
	if (strcmp(n->op, "Dropout") == 0)
		shape_setout(m, n, 1, DT_BOOL, x->rank, x->dims);
	else if (strcmp(n->op, "BatchNormalization") == 0) {
		d[0] = x->rank > 1 ? x->dims[1] : 1;
		for (i = 1; i < 5; i++)
			shape_setout(m, n, (size_t)i, x->dtype, 1, d);
	} else if (strcmp(n->op, "LayerNormalization") == 0) {
		int ax;

		if (shape_axis(m, n, attr_int(n, "axis", -1), x->rank, &ax) < 0)
			return -1;
		for (i = 0; i < x->rank; i++)
			d[i] = i < ax ? x->dims[i] : 1;
		shape_setout(m, n, 1, DT_FLOAT, x->rank, d);
		shape_setout(m, n, 2, DT_FLOAT, x->rank, d);
	}
	return 0;
}

int
shape_ops_bcast(struct model *m, const struct node *n)
{
	char sa[128], sb[128];
	const struct tensor *t;
	int64_t d[R];
	int32_t dt;
	int r = 0, i;

	if (n->nin == 0 || in(m, n, 0) == NULL)
		return -1;
	for (i = 0; i < (int)n->nin; i++) {
		if ((t = in(m, n, (size_t)i)) == NULL)
			return -1;
		if (i == 0) {
			r = t->rank;
			memcpy(d, t->dims, sizeof(d));
		} else if (shape_broadcast(d, r, t->dims, t->rank, d, &r) < 0) {
			struct tensor tmp = *t;

			tmp.rank = r;
			memcpy(tmp.dims, d, sizeof(d));
			pf_err(m->file, "node %s: %s operands do not broadcast: "
			    "%s and %s", n->name, n->op,
			    tensor_shape_str(&tmp, sa, sizeof(sa)),
			    tensor_shape_str(t, sb, sizeof(sb)));
			return -1;
		}
	}
	dt = node_in(m, n, 0)->dtype;
	if (strcmp(n->op, "Where") == 0)
		dt = node_in(m, n, 1)->dtype;
	else if (strcmp(n->op, "Equal") == 0 || strcmp(n->op, "Less") == 0 ||
	    strcmp(n->op, "Greater") == 0 || strcmp(n->op, "And") == 0 ||
	    strcmp(n->op, "Or") == 0 || strcmp(n->op, "Xor") == 0 ||
	    strcmp(n->op, "LessOrEqual") == 0 ||
	    strcmp(n->op, "GreaterOrEqual") == 0)
		dt = DT_BOOL;
	shape_setout(m, n, 0, dt, r, d);
	return 0;
}

int
shape_ops_conv(struct model *m, const struct node *n)
{
	char sa[128], sb[128];
	const struct tensor *x = in(m, n, 0), *w = in(m, n, 1);
	int transposed = strcmp(n->op, "ConvTranspose") == 0;
	int64_t g = attr_int(n, "group", 1), d[R], cin, cout;
	struct window win;
	int i;

	if (x == NULL || w == NULL)
		return -1;
	if (w->rank != x->rank || x->rank < 3) {
		pf_err(m->file, "node %s: %s input %s and weight %s ranks "
		    "differ", n->name, n->op, tensor_shape_str(x, sa, sizeof(sa)),
		    tensor_shape_str(w, sb, sizeof(sb)));
		return -1;
	}
	if (g < 1) {
		pf_err(m->file, "node %s: group '%lld' is not positive",
		    n->name, (long long)g);
		return -1;
	}
	/* Conv weight: M x C/g x k; ConvTranspose: C x M/g x k. */
	if (transposed) {
		cin = w->dims[0];
		if (ck_mul(w->dims[1], g, &cout) < 0)
			return -1;
	} else {
		cout = w->dims[0];
		if (ck_mul(w->dims[1], g, &cin) < 0)
			return -1;
	}
	if (x->dims[1] != cin) {
		pf_err(m->file, "node %s: %s input has %lld channels, weight "
		    "expects %lld", n->name, n->op, (long long)x->dims[1],
		    (long long)cin);
		return -1;
	}
	if (cout % g != 0 || cin % g != 0) {
		pf_err(m->file, "node %s: group %lld does not divide the "
		    "channels %lld -> %lld", n->name, (long long)g,
		    (long long)cin, (long long)cout);
		return -1;
	}
	if (window_geom(m, n, x, w->dims + 2, &win) < 0)
		return -1;
	d[0] = x->dims[0];
	d[1] = cout;
	for (i = 0; i < win.nsp; i++)
		d[2 + i] = win.out[i];
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	return 0;
}

int
shape_ops_pool(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	struct window win;
	int64_t d[R];
	int i;

	if (x == NULL || window_geom(m, n, x, NULL, &win) < 0)
		return -1;
	d[0] = x->dims[0];
	d[1] = x->dims[1];
	for (i = 0; i < win.nsp; i++)
		d[2 + i] = win.out[i];
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	shape_setout(m, n, 1, DT_INT64, x->rank, d);
	return 0;
}

int
shape_ops_gpool(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t d[R];
	int i;

	if (x == NULL)
		return -1;
	if (x->rank < 3) {
		pf_err(m->file, "node %s: %s input has rank %d, want 3 or "
		    "more", n->name, n->op, x->rank);
		return -1;
	}
	for (i = 0; i < x->rank; i++)
		d[i] = i < 2 ? x->dims[i] : 1;
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	return 0;
}

int
shape_ops_gemm(struct model *m, const struct node *n)
{
	char sa[128], sb[128];
	const struct tensor *a = in(m, n, 0), *b = in(m, n, 1);
	int ta = (int)attr_int(n, "transA", 0), tb = (int)attr_int(n,
	    "transB", 0);
	int64_t d[2], k, kb;

	if (a == NULL || b == NULL)
		return -1;
	if (a->rank != 2 || b->rank != 2) {
		pf_err(m->file, "node %s: Gemm operands %s and %s are not "
		    "matrices", n->name, tensor_shape_str(a, sa, sizeof(sa)),
		    tensor_shape_str(b, sb, sizeof(sb)));
		return -1;
	}
	d[0] = a->dims[ta ? 1 : 0];
	k = a->dims[ta ? 0 : 1];
	kb = b->dims[tb ? 1 : 0];
	d[1] = b->dims[tb ? 0 : 1];
	if (k != kb) {
		pf_err(m->file, "node %s: Gemm input has %lld features, "
		    "weight expects %lld", n->name, (long long)k,
		    (long long)kb);
		return -1;
	}
	shape_setout(m, n, 0, a->dtype, 2, d);
	return 0;
}

int
shape_ops_matmul(struct model *m, const struct node *n)
{
	char sa[128], sb[128];
	const struct tensor *a = in(m, n, 0), *b = in(m, n, 1);
	int64_t da[R], db[R], d[R];
	int ra, rb, r, i;

	if (a == NULL || b == NULL)
		return -1;
	if (a->rank < 1 || b->rank < 1) {
		pf_err(m->file, "node %s: MatMul of a scalar", n->name);
		return -1;
	}
	ra = a->rank;
	rb = b->rank;
	memcpy(da, a->dims, sizeof(da));
	memcpy(db, b->dims, sizeof(db));
	if (ra == 1) {
		da[1] = da[0];
		da[0] = 1;
		ra = 2;
	}
	if (rb == 1) {
		db[1] = 1;
		rb = 2;
	}
	if (da[ra - 1] != db[rb - 2]) {
		if (b->isconst)
			pf_err(m->file, "node %s: MatMul input has %lld "
			    "features, weight expects %lld", n->name,
			    (long long)da[ra - 1], (long long)db[rb - 2]);
		else
			pf_err(m->file, "node %s: MatMul operands %s and %s "
			    "do not match", n->name,
			    tensor_shape_str(a, sa, sizeof(sa)),
			    tensor_shape_str(b, sb, sizeof(sb)));
		return -1;
	}
	if (shape_broadcast(da, ra - 2, db, rb - 2, d, &r) < 0) {
		pf_err(m->file, "node %s: MatMul batch dims of %s and %s do "
		    "not broadcast", n->name, tensor_shape_str(a, sa, sizeof(sa)),
		    tensor_shape_str(b, sb, sizeof(sb)));
		return -1;
	}
	if (a->rank > 1)
		d[r++] = da[ra - 2];
	if (b->rank > 1)
		d[r++] = db[rb - 1];
	(void)i;
	shape_setout(m, n, 0, a->dtype, r, d);
	return 0;
}

int
shape_ops_reduce(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t ax[R], d[R];
	int na, present, i, j, r = 0, mark[R] = { 0 };
	int keep = (int)attr_int(n, "keepdims", 1);
	int32_t dt;

	if (x == NULL)
		return -1;
	dt = x->dtype;
	if (strcmp(n->op, "ArgMax") == 0 || strcmp(n->op, "ArgMin") == 0) {
		ax[0] = attr_int(n, "axis", 0);
		na = 1;
		dt = DT_INT64;
	} else if (shape_node_ints(m, n, "axes", 1, ax, R, &na, &present) < 0)
		return -1;
	if (na == 0 && attr_int(n, "noop_with_empty_axes", 0)) {
		shape_setout(m, n, 0, dt, x->rank, x->dims);
		return 0;
	}
	for (i = 0; i < na; i++) {
		if (shape_axis(m, n, ax[i], x->rank, &j) < 0)
			return -1;
		mark[j] = 1;
	}
	for (i = 0; i < x->rank; i++) {
		if (!mark[i] && na > 0)
			d[r++] = x->dims[i];
		else if (keep)
			d[r++] = 1;
	}
	shape_setout(m, n, 0, dt, r, d);
	return 0;
}

int
shape_ops_topk(struct model *m, const struct node *n)
{
	const struct tensor *x = in(m, n, 0);
	int64_t k[1], d[R];
	int nk, p, ax;

	if (x == NULL || shape_node_ints(m, n, NULL, 1, k, 1, &nk, &p) < 0 ||
	    shape_axis(m, n, attr_int(n, "axis", -1), x->rank, &ax) < 0)
		return -1;
	if (nk == 0)
		k[0] = attr_int(n, "k", 1);
	memcpy(d, x->dims, sizeof(d));
	if (k[0] < 1 || k[0] > d[ax]) {
		pf_err(m->file, "node %s: TopK k '%lld' is out of range",
		    n->name, (long long)k[0]);
		return -1;
	}
	d[ax] = k[0];
	shape_setout(m, n, 0, x->dtype, x->rank, d);
	shape_setout(m, n, 1, DT_INT64, x->rank, d);
	return 0;
}

int
shape_ops_einsum(struct model *m, const struct node *n)
{
	struct einsum e;
	char eq[256], why[96];
	const char *s = attr_str(n, "equation", eq, sizeof(eq), "");

	if (n->nin != 2 || in(m, n, 0) == NULL || in(m, n, 1) == NULL) {
		pf_err(m->file, "node %s: Einsum '%s' with %zu operands is not "
		    "a matrix product", n->name, s, n->nin);
		return -1;
	}
	if (einsum_view(s, node_in(m, n, 0), node_in(m, n, 1), &e, why,
	    sizeof(why)) < 0) {
		pf_err(m->file, "node %s: Einsum '%s' is not a matrix product: "
		    "%s", n->name, s, why);
		return -1;
	}
	shape_setout(m, n, 0, node_in(m, n, 0)->dtype, e.rank, e.dims);
	return 0;
}

int
shape_ops_rnn(struct model *m, const struct node *n)
{
	struct rnn r;
	const struct tensor *x = node_in(m, n, 0);
	int64_t y[4], s[3];

	if (rnn_geom(m, n, &r) < 0)
		return -1;
	/* Y: [S, D, B, H] (layout 1: [B, S, D, H]); Y_h, Y_c: [D, B, H]. */
	y[0] = r.layout ? r.batch : r.seq;
	y[1] = r.layout ? r.seq : r.dirs;
	y[2] = r.layout ? r.dirs : r.batch;
	y[3] = r.hidden;
	s[0] = r.layout ? r.batch : r.dirs;
	s[1] = r.layout ? r.dirs : r.batch;
	s[2] = r.hidden;
	shape_setout(m, n, 0, x->dtype, 4, y);
	shape_setout(m, n, 1, x->dtype, 3, s);
	if (r.gates == 4)
		shape_setout(m, n, 2, x->dtype, 3, s);
	return 0;
}
