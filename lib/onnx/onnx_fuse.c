/*
 * Fusion patterns that span several nodes, found before emission: each
 * is marked on its last node (pat, patin, patname) and its other nodes
 * are flagged skip, so the emitter sees one activation or norm.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "onnx_fuse.h"
#include "onnx_shape.h"
#include "xalloc.h"

/* Node ni is a default-domain op; binary ops must have two inputs. */
static int
isop(const struct fuse *e, int ni, const char *op)
{
	const struct node *n;

	if (ni < 0)
		return 0;
	n = &e->m->n[ni];
	if (!n->stdop || strcmp(n->op, op) != 0 || n->nin < 1 || n->nout < 1)
		return 0;
	if ((strcmp(op, "Sub") == 0 || strcmp(op, "Div") == 0 ||
	    strcmp(op, "Mul") == 0 || strcmp(op, "Add") == 0 ||
	    strcmp(op, "Pow") == 0) && n->nin != 2)
		return 0;
	return 1;
}

/* The only consumer of tensor ti, or -1 (none, several, graph output). */
int
fuse_only(const struct fuse *e, int ti)
{
	if (ti < 0 || e->nusers[ti] != 1 || e->m->t[ti].isout)
		return -1;
	return e->users[ti][0];
}

/* The input of a two-input node that is not ti, or -1. */
static int
other(const struct node *n, int ti)
{
	if (n->nin != 2)
		return -1;
	if (n->in[0] == ti && n->in[1] != ti)
		return n->in[1];
	if (n->in[1] == ti && n->in[0] != ti)
		return n->in[0];
	return -1;
}

static int
isconst(const struct fuse *e, int ti)
{
	return ti >= 0 && e->m->t[ti].isconst;
}

static int
out0(const struct fuse *e, int ni)
{
	return e->m->n[ni].nout > 0 ? e->m->n[ni].out[0] : -1;
}

static void
mark(struct fuse *e, int fin, enum pat p, int x, const int *skip, int nskip)
{
	struct node *f = &e->m->n[fin];
	int i;

	f->pat = p;
	f->patin = x;
	for (i = 0; i < nskip; i++) {
		e->m->n[skip[i]].skip = 1;
		e->final[skip[i]] = fin;
	}
}

/* x*0.5*(1+erf(x/sqrt2)) in either of the two orders exporters write. */
static void
pat_gelu(struct fuse *e, int ei)
{
	struct model *m = e->m;
	int d = m->n[ei].in[0], di, x, a, m1, y, m2, h, sk[4];

	if (d < 0 || (di = m->t[d].producer) < 0 || fuse_only(e, d) != ei ||
	    !(isop(e, di, "Div") || isop(e, di, "Mul")) ||
	    m->n[di].nin != 2 || !isconst(e, m->n[di].in[1]) ||
	    isconst(e, x = m->n[di].in[0]))
		return;
	if (!isop(e, a = fuse_only(e, out0(e, ei)), "Add") ||
	    !isconst(e, other(&m->n[a], out0(e, ei))) ||
	    !isop(e, m1 = fuse_only(e, out0(e, a)), "Mul"))
		return;
	y = other(&m->n[m1], out0(e, a));
	sk[0] = di;
	sk[1] = ei;
	sk[2] = a;
	if (y == x) {
		if (!isop(e, m2 = fuse_only(e, out0(e, m1)), "Mul") ||
		    !isconst(e, other(&m->n[m2], out0(e, m1))))
			return;
		sk[3] = m1;
		mark(e, m2, PAT_GELU, x, sk, 4);
		m->n[m2].patname = m->n[ei].name;
	} else if (y >= 0 && isop(e, h = m->t[y].producer, "Mul") &&
	    fuse_only(e, y) == m1 && isconst(e, other(&m->n[h], x))) {
		sk[3] = h;
		mark(e, m1, PAT_GELU, x, sk, 4);
		m->n[m1].patname = m->n[ei].name;
	}
}

/* Tensor ti is a constant scalar within rel of want. */
static int
cval(const struct fuse *e, int ti, double want, double rel)
{
	const struct tensor *t;

	if (!isconst(e, ti) || !(t = &e->m->t[ti])->hasval || t->nval != 1)
		return 0;
	return fabs(tensor_fval(t, 0) - want) <= rel * fabs(want);
}

/* The single-use producer of ti if it is op with a constant scalar want. */
static int
cprod(const struct fuse *e, int ti, int user, const char *op, double want,
    double rel, int *x)
{
	int p;

	if (ti < 0 || (p = e->m->t[ti].producer) < 0 || !isop(e, p, op) ||
	    fuse_only(e, ti) != user)
		return -1;
	if (cval(e, e->m->n[p].in[1], want, rel))
		*x = e->m->n[p].in[0];
	else if (cval(e, e->m->n[p].in[0], want, rel) &&
	    strcmp(op, "Div") != 0 && strcmp(op, "Sub") != 0 &&
	    strcmp(op, "Pow") != 0)
		*x = e->m->n[p].in[1];
	else
		return -1;
	return p;
}

/*
 * The end of "... * 0.5" in either order after g = (1 + f) (the GELU
 * tail): Mul(g, h) with h = x*0.5, or Mul(g, x) then *0.5.  Returns the
 * final node and adds the half-Mul to sk, or -1.
 */
static int
halftail(struct fuse *e, int g, int x, int *sk, int *ns)
{
	struct model *m = e->m;
	int mu = fuse_only(e, g), y, h, hx, m2;

	if (!isop(e, mu, "Mul") || (y = other(&m->n[mu], g)) < 0)
		return -1;
	if (y == x) {
		if (!isop(e, m2 = fuse_only(e, out0(e, mu)), "Mul") ||
		    !cval(e, other(&m->n[m2], out0(e, mu)), 0.5, 1e-6))
			return -1;
		sk[(*ns)++] = mu;
		return m2;
	}
	if ((h = cprod(e, y, mu, "Mul", 0.5, 1e-6, &hx)) < 0 || hx != x)
		return -1;
	sk[(*ns)++] = h;
	return mu;
}

/*
 * GELU's tanh form 0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3))), as GPT-2
 * writes it, anchored at the Tanh.
 */
static void
pat_gelu_tanh(struct fuse *e, int ti)
{
	struct model *m = e->m;
	int sk[8], ns = 0, m2, a1, x, x2, m1, p, px, ad, one, fin;

	if ((m2 = cprod(e, m->n[ti].in[0], ti, "Mul", 0.7978845608, 1e-3,
	    &a1)) < 0 || a1 < 0 || (a1 = m->t[a1].producer) < 0 ||
	    !isop(e, a1, "Add") || fuse_only(e, out0(e, a1)) != m2)
		return;
	/* a1 = x + 0.044715 * x^3, either operand order. */
	for (x = 0; x < 2; x++) {
		int c = m->n[a1].in[1 - x];

		x2 = m->n[a1].in[x];
		if ((m1 = cprod(e, c, a1, "Mul", 0.044715, 1e-3, &p)) >= 0 &&
		    (p = cprod(e, p, m1, "Pow", 3, 1e-9, &px)) >= 0 &&
		    px == x2)
			break;
	}
	if (x == 2)
		return;
	x = x2;
	if (!isop(e, ad = fuse_only(e, out0(e, ti)), "Add") ||
	    !cval(e, one = other(&m->n[ad], out0(e, ti)), 1, 1e-9))
		return;
	sk[ns++] = p;
	sk[ns++] = m1;
	sk[ns++] = a1;
	sk[ns++] = m2;
	sk[ns++] = ti;
	sk[ns++] = ad;
	if ((fin = halftail(e, out0(e, ad), x, sk, &ns)) < 0)
		return;
	mark(e, fin, PAT_GELU, x, sk, ns);
	m->n[fin].patname = m->n[ti].name;
}

/* Clip node ci bounds its input to [0, 6] (attributes or inputs). */
static int
relu6(const struct fuse *e, int ci)
{
	const struct node *c = &e->m->n[ci];

	if (c->nin >= 3)
		return cval(e, c->in[1], 0, 0) && c->in[1] >= 0 &&
		    cval(e, c->in[2], 6, 0);
	return attr_float(c, "min", -1) == 0 && attr_float(c, "max", 0) == 6;
}

/*
 * x*sigmoid(1.702x) (the sigmoid form of GELU) at a Sigmoid, and
 * x*relu6(x+3)/6 (HardSwish written out) at a Clip, the /6 before or
 * after the product (or a Mul by 1/6).
 */
static void
pat_scaled(struct fuse *e, int si)
{
	struct model *m = e->m;
	int sk[4], ns = 0, x, pre, mu, d, fin, hs = strcmp(m->n[si].op, "Clip")
	    == 0;

	if (hs ? !relu6(e, si) || (pre = cprod(e, m->n[si].in[0], si, "Add",
	    3, 0, &x)) < 0 : (pre = cprod(e, m->n[si].in[0], si, "Mul", 1.702,
	    1e-3, &x)) < 0)
		return;
	if (x < 0 || isconst(e, x))
		return;
	sk[ns++] = pre;
	sk[ns++] = si;
	mu = fuse_only(e, out0(e, si));
	if (!hs) {
		if (!isop(e, mu, "Mul") || other(&m->n[mu], out0(e, si)) != x)
			return;
		fin = mu;
	} else if (isop(e, mu, "Mul") && other(&m->n[mu], out0(e, si)) == x) {
		d = fuse_only(e, out0(e, mu));
		if (!(isop(e, d, "Div") && m->n[d].in[0] == out0(e, mu) &&
		    cval(e, m->n[d].in[1], 6, 0)) && !(isop(e, d, "Mul") &&
		    cval(e, other(&m->n[d], out0(e, mu)), 1.0 / 6, 1e-6)))
			return;
		sk[ns++] = mu;
		fin = d;
	} else {
		d = mu;
		if (!(isop(e, d, "Div") && m->n[d].in[0] == out0(e, si) &&
		    cval(e, m->n[d].in[1], 6, 0)) && !(isop(e, d, "Mul") &&
		    cval(e, other(&m->n[d], out0(e, si)), 1.0 / 6, 1e-6)))
			return;
		if (!isop(e, mu = fuse_only(e, out0(e, d)), "Mul") ||
		    other(&m->n[mu], out0(e, d)) != x)
			return;
		sk[ns++] = d;
		fin = mu;
	}
	mark(e, fin, hs ? PAT_HSWISH : PAT_GELU, x, sk, ns);
	m->n[fin].patname = m->n[pre].name;
}

/* Sigmoid(x)*x = silu, HardSigmoid(x)*x = hardswish. */
static void
pat_gate(struct fuse *e, int si, enum pat p)
{
	struct model *m = e->m;
	int x = m->n[si].in[0], mu;

	if (p == PAT_HSWISH &&
	    (fabs(attr_float(&m->n[si], "alpha", 0.2) - 1.0 / 6) > 1e-3 ||
	    fabs(attr_float(&m->n[si], "beta", 0.5) - 0.5) > 1e-6))
		return;
	if (x < 0 || !isop(e, mu = fuse_only(e, out0(e, si)), "Mul") ||
	    other(&m->n[mu], out0(e, si)) != x)
		return;
	mark(e, mu, p, x, &si, 1);
	m->n[mu].patname = m->n[si].name;
}

/* Decomposed LayerNorm starting at its first ReduceMean. */
static void
pat_norm(struct fuse *e, int r1)
{
	struct model *m = e->m;
	struct node *R1 = &m->n[r1];
	int x = R1->in[0], s, so, p, dv, r2, ad, q, fin, mu, b, sk[9], ns = 0;
	int64_t ax[ONNX_MAXRANK];
	int na, pr;

	if (R1->nin > 1 && R1->in[1] >= 0 && !m->t[R1->in[1]].hasval)
		return;
	if (x < 0 || shape_node_ints(m, R1, "axes", 1, ax, ONNX_MAXRANK, &na,
	    &pr) < 0 || na != 1 ||
	    (ax[0] != -1 && ax[0] != m->t[x].rank - 1))
		return;
	if (!isop(e, s = fuse_only(e, out0(e, r1)), "Sub") ||
	    m->n[s].in[0] != x || m->n[s].in[1] != out0(e, r1))
		return;
	so = out0(e, s);
	if (so < 0 || e->nusers[so] != 2 || m->t[so].isout)
		return;
	p = e->users[so][0];
	dv = e->users[so][1];
	if (isop(e, p, "Div")) {
		p = dv;
		dv = e->users[so][0];
	}
	if (!isop(e, p, "Pow") || m->n[p].in[0] != so ||
	    !isconst(e, m->n[p].in[1]) || !isop(e, dv, "Div") ||
	    m->n[dv].in[0] != so)
		return;
	if (!isop(e, r2 = fuse_only(e, out0(e, p)), "ReduceMean") ||
	    !isop(e, ad = fuse_only(e, out0(e, r2)), "Add") ||
	    !isconst(e, other(&m->n[ad], out0(e, r2))) ||
	    !isop(e, q = fuse_only(e, out0(e, ad)), "Sqrt") ||
	    fuse_only(e, out0(e, q)) != dv || m->n[dv].in[1] != out0(e, q))
		return;
	sk[ns++] = r1;
	sk[ns++] = s;
	sk[ns++] = p;
	sk[ns++] = r2;
	sk[ns++] = ad;
	sk[ns++] = q;
	fin = dv;
	if (isop(e, mu = fuse_only(e, out0(e, dv)), "Mul") &&
	    isconst(e, other(&m->n[mu], out0(e, dv)))) {
		sk[ns++] = fin;
		m->n[mu].patw[0] = other(&m->n[mu], out0(e, dv));
		fin = mu;
		if (isop(e, b = fuse_only(e, out0(e, mu)), "Add") &&
		    isconst(e, other(&m->n[b], out0(e, mu)))) {
			sk[ns++] = fin;
			m->n[b].patw[0] = m->n[mu].patw[0];
			m->n[b].patw[1] = other(&m->n[b], out0(e, mu));
			fin = b;
		}
	}
	mark(e, fin, PAT_NORM, x, sk, ns);
	m->n[fin].patname = R1->name;
}

/* A zero constant Pad of spatial axes feeding only a Conv's data input. */
static void
pat_pad(struct fuse *e, int pi)
{
	struct model *m = e->m;
	struct node *P = &m->n[pi];
	const struct tensor *x = node_in(m, P, 0), *v = node_in(m, P, 2);
	int64_t p[2 * ONNX_MAXRANK];
	char buf[16];
	int np, pr, c, i;

	if (x == NULL || x->isconst || node_in(m, P, 3) != NULL ||
	    strcmp(attr_str(P, "mode", buf, sizeof(buf), "constant"),
	    "constant") != 0 || attr_float(P, "value", 0) != 0 ||
	    (v != NULL && (!v->hasval || v->nval != 1 ||
	    tensor_fval(v, 0) != 0)))
		return;
	if (P->nin > 1 && P->in[1] >= 0 && !m->t[P->in[1]].hasval)
		return;
	if (shape_node_ints(m, P, "pads", 1, p, 2 * ONNX_MAXRANK, &np, &pr) < 0 ||
	    np != 2 * x->rank || x->rank < 3)
		return;
	for (i = 0; i < x->rank; i++)
		if (p[i] < 0 || p[x->rank + i] < 0 ||
		    (i < 2 && (p[i] != 0 || p[x->rank + i] != 0)))
			return;
	if (!isop(e, c = fuse_only(e, out0(e, pi)), "Conv") ||
	    m->n[c].in[0] != out0(e, pi) ||
	    strcmp(attr_str(&m->n[c], "auto_pad", buf, sizeof(buf), "NOTSET"),
	    "NOTSET") != 0)
		return;
	m->n[c].padfrom = pi;
	P->skip = 1;
	e->final[pi] = c;
}

static void
users(struct fuse *e)
{
	struct model *m = e->m;
	size_t i, k;
	int t, pass, *cnt, *last;

	/*
	 * Two passes, counting then filling, with the last node seen per
	 * tensor (nodes come in index order, so a node using t twice is
	 * caught there): a tensor with 200k consumers costs 200k steps,
	 * not 200k squared.
	 */
	e->users = xcalloc(m->nt ? m->nt : 1, sizeof(int *));
	e->nusers = xcalloc(m->nt ? m->nt : 1, sizeof(int));
	cnt = xcalloc(m->nt ? m->nt : 1, sizeof(int));
	last = xcalloc(m->nt ? m->nt : 1, sizeof(int));	/* node + 1 */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < m->nn; i++)
			for (k = 0; k < m->n[i].nin; k++) {
				if ((t = m->n[i].in[k]) < 0 ||
				    last[t] == (int)i + 1)
					continue;
				last[t] = (int)i + 1;
				if (pass == 0)
					cnt[t]++;
				else
					e->users[t][e->nusers[t]++] = (int)i;
			}
		if (pass == 0)
			for (i = 0; i < m->nt; i++) {
				if (cnt[i] > 0)
					e->users[i] = xcalloc((size_t)cnt[i],
					    sizeof(int));
				last[i] = 0;
			}
	}
	free(cnt);
	free(last);
}

void
fuse_init(struct fuse *e, struct model *m)
{
	size_t i;

	e->m = m;
	users(e);
	e->final = xcalloc(m->nn ? m->nn : 1, sizeof(int));
	for (i = 0; i < m->nn; i++) {
		int ni = m->order[i];
		struct node *n = &m->n[ni];

		if (n->skip || n->pat || !n->stdop || n->nin == 0 ||
		    n->in[0] < 0 || m->t[n->in[0]].isconst)
			continue;
		if (strcmp(n->op, "Erf") == 0)
			pat_gelu(e, ni);
		else if (strcmp(n->op, "Tanh") == 0)
			pat_gelu_tanh(e, ni);
		else if (strcmp(n->op, "Sigmoid") == 0) {
			pat_gate(e, ni, PAT_SILU);
			if (!n->skip)
				pat_scaled(e, ni);
		} else if (strcmp(n->op, "Clip") == 0)
			pat_scaled(e, ni);
		else if (strcmp(n->op, "HardSigmoid") == 0)
			pat_gate(e, ni, PAT_HSWISH);
		else if (strcmp(n->op, "ReduceMean") == 0)
			pat_norm(e, ni);
		else if (strcmp(n->op, "Pad") == 0)
			pat_pad(e, ni);
	}
}

/* Consumers of tensor ti once patterns are collapsed (graph output: 1). */
int
fuse_users(const struct fuse *e, int ti)
{
	int seen[64], ns = 0, i, j, u;

	if (e->m->t[ti].isout)
		return 2;
	for (i = 0; i < e->nusers[ti]; i++) {
		u = e->users[ti][i];
		if (e->m->n[u].skip)
			u = e->final[u];
		for (j = 0; j < ns && seen[j] != u; j++)
			;
		if (j == ns) {
			if (ns == 64)
				return ns;
			seen[ns++] = u;
		}
	}
	return ns;
}

void
fuse_free(struct fuse *e)
{
	size_t i;

	for (i = 0; e->users != NULL && i < e->m->nt; i++)
		free(e->users[i]);
	free(e->users);
	free(e->nusers);
	free(e->final);
	memset(e, 0, sizeof(*e));
}
