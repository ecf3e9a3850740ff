/*
 * Recurrent op geometry (see onnx_rnn.h).
 */
#include <stdio.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "onnx_rnn.h"

int
rnn_geom(const struct model *m, const struct node *n, struct rnn *r)
{
	const struct tensor *x = node_in(m, n, 0), *w = node_in(m, n, 1);
	const struct tensor *rr = node_in(m, n, 2), *t;
	char buf[32], sa[64], sb[64];
	const char *dir;
	int64_t gh;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->gates = strcmp(n->op, "LSTM") == 0 ? 4 : strcmp(n->op, "GRU") == 0 ?
	    3 : 1;
	if (x == NULL || w == NULL || rr == NULL) {
		pf_err(m->file, "node %s: %s needs inputs X, W and R", n->name,
		    n->op);
		return -1;
	}
	r->layout = (int)attr_int(n, "layout", 0);
	dir = attr_str(n, "direction", buf, sizeof(buf), "forward");
	if (strcmp(dir, "bidirectional") == 0)
		r->dirs = 2;
	else if (strcmp(dir, "forward") == 0 || strcmp(dir, "reverse") == 0) {
		r->dirs = 1;
		r->reverse = dir[0] == 'r';
	} else {
		pf_err(m->file, "node %s: unknown direction '%s'", n->name, dir);
		return -1;
	}
	if (x->rank != 3 || w->rank != 3 || rr->rank != 3 ||
	    (r->layout != 0 && r->layout != 1)) {
		pf_err(m->file, "node %s: %s wants X, W and R of rank 3 (X %s, "
		    "W %s)", n->name, n->op, tensor_shape_str(x, sa, sizeof(sa)),
		    tensor_shape_str(w, sb, sizeof(sb)));
		return -1;
	}
	r->seq = x->dims[r->layout ? 1 : 0];
	r->batch = x->dims[r->layout ? 0 : 1];
	r->in = x->dims[2];
	r->hidden = attr_int(n, "hidden_size", w->dims[1] / r->gates);
	if (r->hidden < 1 || ck_mul(r->hidden, r->gates, &gh) < 0 ||
	    w->dims[0] != r->dirs || w->dims[1] != gh || w->dims[2] != r->in ||
	    rr->dims[0] != r->dirs || rr->dims[1] != gh ||
	    rr->dims[2] != r->hidden) {
		pf_err(m->file, "node %s: %s weights W %s and R %s do not fit "
		    "%d direction(s), hidden size %lld, input size %lld",
		    n->name, n->op, tensor_shape_str(w, sa, sizeof(sa)),
		    tensor_shape_str(rr, sb, sizeof(sb)), r->dirs,
		    (long long)r->hidden, (long long)r->in);
		return -1;
	}
	/* initial_h (5) and, for LSTM, initial_c (6): [D, B, H]. */
	for (i = 5; i < 7 && i < n->nin; i++) {
		int64_t b = r->layout ? 0 : 1, d = r->layout ? 1 : 0;

		if ((t = node_in(m, n, i)) == NULL)
			continue;
		if (t->rank != 3 || t->dims[d] != r->dirs ||
		    t->dims[b] != r->batch || t->dims[2] != r->hidden) {
			pf_err(m->file, "node %s: %s initial state '%s' is %s, "
			    "want %d directions, batch %lld, hidden %lld",
			    n->name, n->op, t->name, tensor_shape_str(t, sa,
			    sizeof(sa)), r->dirs, (long long)r->batch,
			    (long long)r->hidden);
			return -1;
		}
	}
	return 0;
}
