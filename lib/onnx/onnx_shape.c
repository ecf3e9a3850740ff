/*
 * Shape arithmetic shared by the per-op rules: broadcasting, conv and pool
 * windows, axes, integer arguments, output setting.
 */
#include <stdio.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "onnx_shape.h"

const struct tensor *
shape_need(const struct model *m, const struct node *n, size_t i)
{
	const struct tensor *t = node_in(m, n, i);

	if (t == NULL)
		pf_err(m->file, "node %s: %s needs input %zu", n->name, n->op,
		    i + 1);
	return t;
}

int
shape_broadcast(const int64_t *a, int ra, const int64_t *b, int rb,
    int64_t *out, int *ro)
{
	int64_t tmp[ONNX_MAXRANK];
	int r = ra > rb ? ra : rb, i;

	/* out may alias a or b. */
	for (i = 0; i < r; i++) {
		int64_t x = i < r - ra ? 1 : a[i - (r - ra)];
		int64_t y = i < r - rb ? 1 : b[i - (r - rb)];

		if (x == y || y == 1)
			tmp[i] = x;
		else if (x == 1)
			tmp[i] = y;
		else
			return -1;
	}
	for (i = 0; i < r; i++)
		out[i] = tmp[i];
	*ro = r;
	return 0;
}

int
window_axis(int64_t in, int64_t k, int64_t s, int64_t d, int64_t *pb,
    int64_t *pe, enum autopad ap, int ceil, int transposed, int64_t outpad,
    int64_t want, int64_t *out)
{
	int64_t ek, t, o;

	if (in < 1 || k < 1 || s < 1 || d < 1 || *pb < 0 || *pe < 0 ||
	    outpad < 0)
		return -1;
	/* Effective kernel extent (k-1)*d+1. */
	if (ck_mul(k - 1, d, &ek) < 0 || ck_add(ek, 1, &ek) < 0)
		return -1;
	if (transposed) {
		/* s*(in-1) + outpad + ek is the unpadded full output. */
		if (ck_mul(s, in - 1, &t) < 0 || ck_add(t, outpad, &t) < 0 ||
		    ck_add(t, ek, &t) < 0)
			return -1;
		if (want > 0 || ap == AP_SAME_UPPER || ap == AP_SAME_LOWER) {
			if (want <= 0 && ck_mul(in, s, &want) < 0)
				return -1;
			o = t - want;	/* total padding */
			if (o < 0)
				o = 0;
			if (ap == AP_SAME_LOWER) {
				*pe = o / 2;
				*pb = o - *pe;
			} else if (ap == AP_SAME_UPPER || want > 0) {
				*pb = o / 2;
				*pe = o - *pb;
			}
			*out = want;
			return 0;
		}
		if (ap == AP_VALID)
			*pb = *pe = 0;
		o = t - *pb - *pe;
		if (o < 1)
			return -1;
		*out = o;
		return 0;
	}
	if (ap == AP_SAME_UPPER || ap == AP_SAME_LOWER) {
		o = ceil_div(in, s);
		if (ck_mul(o - 1, s, &t) < 0 || ck_add(t, ek, &t) < 0)
			return -1;
		t -= in;	/* total padding */
		if (t < 0)
			t = 0;
		if (ap == AP_SAME_UPPER) {
			*pb = t / 2;
			*pe = t - *pb;
		} else {
			*pe = t / 2;
			*pb = t - *pe;
		}
		*out = o;
		return 0;
	}
	if (ap == AP_VALID)
		*pb = *pe = 0;
	if (ck_add(in, *pb, &t) < 0 || ck_add(t, *pe, &t) < 0)
		return -1;
	t -= ek;
	if (t < 0)
		return -1;
	if (ceil) {
		o = ceil_div(t, s) + 1;
		/* The last window must start inside the input or left pad. */
		if ((o - 1) * s >= in + *pb)
			o--;
	} else
		o = t / s + 1;
	*out = o;
	return 0;
}

static int
getlist(const struct node *n, const char *name, int64_t *v, int cnt,
    int64_t def)
{
	const int64_t *a;
	size_t na;
	int i;

	for (i = 0; i < cnt; i++)
		v[i] = def;
	if (attr_ints(n, name, &a, &na) < 0 || na == 0)
		return 0;
	if ((int)na != cnt)
		return -1;
	for (i = 0; i < cnt; i++)
		v[i] = a[i];
	return 0;
}

int
window_geom(const struct model *m, const struct node *n,
    const struct tensor *x, const int64_t *kdims, struct window *w)
{
	int64_t pads[6], op[3], os[3], ks[3];
	const int64_t *a;
	size_t na;
	char buf[32];
	const char *aps;
	enum autopad ap = AP_NOTSET;
	int i, nsp = x->rank - 2, transposed, ceil;

	memset(w, 0, sizeof(*w));
	if (nsp < 1 || nsp > 3) {
		pf_err(m->file, "node %s: %s input has rank %d, want 3 to 5",
		    n->name, n->op, x->rank);
		return -1;
	}
	w->nsp = nsp;
	transposed = strcmp(n->op, "ConvTranspose") == 0;
	ceil = (int)attr_int(n, "ceil_mode", 0);
	aps = attr_str(n, "auto_pad", buf, sizeof(buf), "NOTSET");
	if (strcmp(aps, "SAME_UPPER") == 0)
		ap = AP_SAME_UPPER;
	else if (strcmp(aps, "SAME_LOWER") == 0)
		ap = AP_SAME_LOWER;
	else if (strcmp(aps, "VALID") == 0)
		ap = AP_VALID;
	else if (strcmp(aps, "NOTSET") != 0 && *aps != '\0') {
		pf_err(m->file, "node %s: unknown auto_pad '%s'", n->name, aps);
		return -1;
	}
	if (getlist(n, "kernel_shape", ks, nsp, -1) < 0 ||
	    getlist(n, "strides", w->s, nsp, 1) < 0 ||
	    getlist(n, "dilations", w->d, nsp, 1) < 0 ||
	    getlist(n, "pads", pads, 2 * nsp, 0) < 0 ||
	    getlist(n, "output_padding", op, nsp, 0) < 0 ||
	    getlist(n, "output_shape", os, nsp, -1) < 0) {
		pf_err(m->file, "node %s: an attribute list does not have "
		    "one entry per spatial axis (%d)", n->name, nsp);
		return -1;
	}
	/* output_shape may also list the batch and channel dims. */
	if (attr_ints(n, "output_shape", &a, &na) == 0 &&
	    (int)na == nsp + 2)
		for (i = 0; i < nsp; i++)
			os[i] = a[i + 2];
	for (i = 0; i < nsp; i++) {
		w->k[i] = kdims != NULL ? kdims[i] : ks[i];
		if (kdims != NULL && ks[i] > 0 && ks[i] != kdims[i]) {
			pf_err(m->file, "node %s: kernel_shape %lld does not "
			    "match the weight's %lld", n->name,
			    (long long)ks[i], (long long)kdims[i]);
			return -1;
		}
		if (w->k[i] < 1) {
			pf_err(m->file, "node %s: %s has no kernel_shape",
			    n->name, n->op);
			return -1;
		}
		w->pb[i] = pads[i];
		w->pe[i] = pads[nsp + i];
		if (window_axis(x->dims[2 + i], w->k[i], w->s[i], w->d[i],
		    &w->pb[i], &w->pe[i], ap, ceil, transposed, op[i], os[i],
		    &w->out[i]) < 0) {
			pf_err(m->file, "node %s: %s window (kernel %lld, "
			    "stride %lld, dilation %lld, pads %lld/%lld) does "
			    "not fit input size %lld", n->name, n->op,
			    (long long)w->k[i], (long long)w->s[i],
			    (long long)w->d[i], (long long)pads[i],
			    (long long)pads[nsp + i],
			    (long long)x->dims[2 + i]);
			return -1;
		}
	}
	return 0;
}

int
shape_axis(const struct model *m, const struct node *n, int64_t a, int r,
    int *ax)
{
	if (a < -r || a >= r) {
		pf_err(m->file, "node %s: axis '%lld' is out of range for "
		    "rank %d", n->name, (long long)a, r);
		return -1;
	}
	*ax = (int)(a < 0 ? a + r : a);
	return 0;
}

int
shape_node_ints(const struct model *m, const struct node *n, const char *attr,
    int in, int64_t *v, int max, int *nv, int *present)
{
	const struct tensor *t = in >= 0 ? node_in(m, n, (size_t)in) : NULL;
	const int64_t *a;
	size_t na, i;

	*nv = 0;
	*present = 0;
	if (t != NULL) {
		if (!t->hasval) {
			pf_err(m->file, "node %s: input '%s' of %s must be a "
			    "constant whose values the model stores", n->name,
			    t->name, n->op);
			return -1;
		}
		if (t->nval > max) {
			pf_err(m->file, "node %s: input '%s' has %lld values, "
			    "at most %d expected", n->name, t->name,
			    (long long)t->nval, max);
			return -1;
		}
		for (i = 0; i < (size_t)t->nval; i++)
			v[i] = tensor_ival(t, (int64_t)i);
		*nv = (int)t->nval;
		*present = 1;
		return 0;
	}
	if (attr == NULL || attr_ints(n, attr, &a, &na) < 0)
		return 0;
	if (na > (size_t)max) {
		pf_err(m->file, "node %s: attribute '%s' has %zu values, at "
		    "most %d expected", n->name, attr, na, max);
		return -1;
	}
	for (i = 0; i < na; i++)
		v[i] = a[i];
	*nv = (int)na;
	*present = 1;
	return 0;
}

void
shape_setout(struct model *m, const struct node *n, size_t i, int32_t dtype,
    int rank, const int64_t *dims)
{
	struct tensor *t = node_out(m, n, i);

	if (t == NULL)
		return;
	t->dtype = dtype;
	t->rank = rank;
	if (rank > 0)
		memcpy(t->dims, dims, (size_t)rank * sizeof(*dims));
	t->known = 1;
}
