/*
 * Split geometry: a layer divided between GPU and PIM along one axis,
 * with exact halo rows and padding (see split_geom.h for the contracts and
 * pf-split(1) for the rules).
 */
#include <stdint.h>
#include <string.h>

#include "arith.h"
#include "split_geom.h"

const char *const split_rule_names[] = {
	"pim-dw", "pim-grouped", "pim-matmul", "split-dw", "split-grouped",
	"split-dil", "split-stride3", "pipe-stride", NULL
};

void
split_rules_init(struct split_rules *r)
{
	memset(r, 0, sizeof(*r));
	/*
	 * share/doc/pimflow-method.md §2: the published flow profiles every conv on
	 * PIM (its code generator ignores groups), never splits depthwise or
	 * grouped (group 32) or dilated convs, and never checks the stride of
	 * a split (calc_space is never called).
	 */
	r->pim_dw = 1;
	r->pim_grouped = 1;
	r->split_stride3 = 1;
}

int
split_rules_set(struct split_rules *r, const char *tok)
{
	int *f[] = { &r->pim_dw, &r->pim_grouped, &r->pim_matmul,
	    &r->split_dw, &r->split_grouped, &r->split_dil,
	    &r->split_stride3, &r->pipe_stride };
	int on = 1, i;

	if (strncmp(tok, "no-", 3) == 0) {
		on = 0;
		tok += 3;
	}
	for (i = 0; split_rule_names[i] != NULL; i++)
		if (strcmp(tok, split_rule_names[i]) == 0) {
			*f[i] = on;
			return 0;
		}
	return -1;
}

int
is_depthwise(const struct layer *l)
{
	return l->op == OP_CONV && l->groups > 1 && l->groups == l->in_c &&
	    l->groups == l->out_c;
}

int
pim_eligible(const struct layer *l, const struct split_rules *r)
{
	switch (l->op) {
	case OP_CONV:
		if (is_depthwise(l))
			return r->pim_dw;
		if (l->groups > 1)
			return r->pim_grouped;
		return 1;
	case OP_GEMM:
		return 1;
	case OP_MATMUL:
		/* a KV cache lives in PIM's banks: attention goes there whole */
		return r->pim_matmul || layer_is_kv(l);
	default:
		return 0;
	}
}

int64_t
split_nrows(const struct layer *l)
{
	if (l->op != OP_CONV && l->in_h == 1)
		return l->batch;
	return l->out_h;
}

/* What every split needs: a PIM layer, no KV cache, the group rules. */
static int
divisible(const struct layer *l, const struct split_rules *r)
{
	if (!pim_eligible(l, r) || layer_is_kv(l))
		return 0;
	return l->op != OP_CONV || (is_depthwise(l) ? r->split_dw :
	    l->groups <= 1 || r->split_grouped);
}

int
split_ok_h(const struct layer *l, const struct split_rules *r)
{
	if (!divisible(l, r) || l->op != OP_CONV)
		return 0;
	/*
	 * A transposed conv's output rows have another halo rule, not
	 * implemented: output channels only.
	 */
	if (l->transposed)
		return 0;
	/*
	 * A 3-D conv or pool is divided along output channels only (depth
	 * pieces are not implemented).
	 */
	if (l->in_d > 1 || l->out_d > 1 || l->kernel_d > 1)
		return 0;
	if (l->dil_h > 1 && !r->split_dil)
		return 0;
	if (l->stride_h > 2 && !r->split_stride3)
		return 0;
	return l->out_h > 1;
}

int
split_ok_n(const struct layer *l, const struct split_rules *r)
{
	if (!divisible(l, r))
		return 0;
	if (l->op == OP_CONV)
		return (l->groups > 1 ? l->groups : l->out_c) > 1;
	return l->out_c > 1;
}

int
split_ok_m(const struct layer *l, const struct split_rules *r)
{
	return divisible(l, r) && l->op != OP_CONV && split_nrows(l) > 1;
}

int
split_rows(const struct layer *l, int64_t o0, int64_t o1, struct layer *p,
    int64_t *in0)
{
	int64_t a, b, r0, r1, t;

	*p = *l;
	if (o0 < 0 || o1 <= o0 || o1 > split_nrows(l))
		return -1;
	if (l->op != OP_CONV) {
		/* Token rows need no halo: the piece reads exactly its rows. */
		*in0 = o0;
		if (l->in_h == 1) {
			p->batch = o1 - o0;
			if (l->op == OP_MATMUL &&
			    ck_mul(p->batch, p->in_w, &p->gemm_batch) < 0)
				return SPLIT_TOOBIG;
		} else {
			p->in_h = p->out_h = o1 - o0;
			if (l->op == OP_MATMUL)
				p->gemm_m = p->in_h;
		}
		return layer_derive(p) < 0 ? SPLIT_TOOBIG : 0;
	}
	/*
	 * Output row o reads unpadded input rows o*s - pt + j*d, j < k.  The
	 * piece reads [a, b] clipped to the input; what it loses at either end
	 * is its own padding, so its output height is exactly o1 - o0.
	 */
	if (ck_mul(o0, l->stride_h, &a) < 0 ||
	    ck_mul(o1 - 1, l->stride_h, &b) < 0 ||
	    ck_mul(l->kernel_h - 1, l->dil_h, &t) < 0 ||
	    ck_add(b, t, &b) < 0)
		return SPLIT_TOOBIG;
	a -= l->pad_top;
	b -= l->pad_top;
	r0 = a > 0 ? a : 0;
	r1 = b < l->in_h - 1 ? b : l->in_h - 1;
	if (r1 < r0)
		return -1;
	p->in_h = r1 - r0 + 1;
	p->pad_top = r0 - a;
	p->pad_bottom = b - r1;
	p->out_h = o1 - o0;
	*in0 = r0;
	return layer_derive(p) < 0 ? SPLIT_TOOBIG : 0;
}

/* ceil(x * ratio / 100), overflow-checked; SPLIT_TOOBIG on overflow. */
static int64_t
share(int64_t x, int ratio)
{
	int64_t v;

	if (ck_mul(x, ratio, &v) < 0)
		return SPLIT_TOOBIG;
	return ceil_div(v, 100);
}

/* The published h_gpu input rows, as the output rows centred in them. */
static int64_t
hrows(const struct layer *l, int ratio)
{
	int64_t h = share(l->in_h, ratio), q;

	/* keeps the doubled centre arithmetic below far from overflow */
	if (h < 0 || l->in_h > INT32_MAX || l->pad_top > INT32_MAX ||
	    l->kernel_h > INT32_MAX || l->dil_h > INT32_MAX)
		return SPLIT_TOOBIG;
	/* centre of output o: o*s - pt + (k-1)*d/2 < h, doubled to stay integral */
	q = 2 * h + 2 * l->pad_top - (l->kernel_h - 1) * l->dil_h;
	if (q <= 0)
		return 0;
	q = ceil_div(q, 2 * l->stride_h);
	return q < l->out_h ? q : l->out_h;
}

static int
split_chan(const struct layer *l, int ratio, struct piece pc[2],
    int64_t *units)
{
	int64_t g = l->groups, n, ocg, icg;

	if (l->op == OP_CONV && g > 1) {
		n = share(g, ratio);
		if (n == SPLIT_TOOBIG)
			return SPLIT_TOOBIG;
		if (n <= 0 || n >= g)
			return -1;
		ocg = l->out_c / g;
		icg = l->in_c / g;
		pc[0].l.groups = n;
		pc[1].l.groups = g - n;
		pc[0].l.out_c = n * ocg;
		pc[1].l.out_c = (g - n) * ocg;
		pc[0].l.in_c = n * icg;
		pc[1].l.in_c = (g - n) * icg;
		pc[1].oc0 = n * ocg;
		pc[1].ic0 = n * icg;
	} else {
		n = share(l->out_c, ratio);
		if (n == SPLIT_TOOBIG)
			return SPLIT_TOOBIG;
		if (n <= 0 || n >= l->out_c)
			return -1;
		pc[0].l.out_c = n;
		pc[1].l.out_c = l->out_c - n;
		pc[1].oc0 = n;
		if (l->op == OP_MATMUL) {
			pc[0].l.gemm_n = pc[0].l.out_c;
			pc[1].l.gemm_n = pc[1].l.out_c;
		}
	}
	*units = n;
	if (layer_derive(&pc[0].l) < 0 || layer_derive(&pc[1].l) < 0)
		return SPLIT_TOOBIG;
	return 0;
}

/* Both pieces start as the whole layer, pc[0] on the GPU; -1: no ratio. */
static int
pieces(const struct layer *l, int ratio, struct piece pc[2])
{
	int i;

	memset(pc, 0, 2 * sizeof(*pc));
	for (i = 0; i < 2; i++) {
		pc[i].l = *l;
		pc[i].dev = i == 0 ? DEV_GPU : DEV_PIM;
	}
	return ratio <= 0 || ratio >= 100 ? -1 : 0;
}

/* The GPU's first n of the layer's rows, PIM the rest. */
static int
by_rows(const struct layer *l, int64_t n, struct piece pc[2], int64_t *units)
{
	int64_t rows = split_nrows(l);
	int e;

	if (n == SPLIT_TOOBIG)
		return SPLIT_TOOBIG;
	if (n <= 0 || n >= rows)
		return -1;
	*units = n;
	if ((e = split_rows(l, 0, n, &pc[0].l, &pc[0].in_row0)) < 0 ||
	    (e = split_rows(l, n, rows, &pc[1].l, &pc[1].in_row0)) < 0)
		return e;
	pc[1].row0 = n;
	return 0;
}

int
split_by_h(const struct layer *l, int ratio, struct piece pc[2],
    int64_t *units)
{
	if (pieces(l, ratio, pc) < 0 || l->op != OP_CONV)
		return -1;
	return by_rows(l, hrows(l, ratio), pc, units);
}

int
split_by_n(const struct layer *l, int ratio, struct piece pc[2],
    int64_t *units)
{
	if (pieces(l, ratio, pc) < 0)
		return -1;
	return split_chan(l, ratio, pc, units);
}

int
split_by_m(const struct layer *l, int ratio, struct piece pc[2],
    int64_t *units)
{
	if (pieces(l, ratio, pc) < 0 || l->op == OP_CONV)
		return -1;
	return by_rows(l, share(split_nrows(l), ratio), pc, units);
}
