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

/*
 * share/doc/pimflow-method.md §2: the published flow profiles every conv on
 * PIM (its code generator ignores groups), never splits depthwise or
 * grouped (group 32) or dilated convs, and never checks the stride of a
 * split (calc_space is never called).
 */
const struct split_rules split_rules_published = {
	.pim_dw = 1,
	.pim_grouped = 1,
	.split_stride3 = 1,
};

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
split_is_depthwise(const struct layer *l)
{
	return l->op == OP_CONV && l->groups > 1 && l->groups == l->in_c &&
	    l->groups == l->out_c;
}

int
split_pim_eligible(const struct layer *l, const struct split_rules *r)
{
	switch (l->op) {
	case OP_CONV:
		if (split_is_depthwise(l))
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
	if (!split_pim_eligible(l, r) || layer_is_kv(l))
		return 0;
	return l->op != OP_CONV || (split_is_depthwise(l) ? r->split_dw :
	    l->groups <= 1 || r->split_grouped);
}

int
split_ok_h(const struct layer *l, const struct split_rules *r)
{
	if (!divisible(l, r) || l->op != OP_CONV)
		return 0;
	/*
	 * A 3-D conv or pool is divided along depth (axis d) or output
	 * channels, not rows.
	 */
	if (l->in_d > 1 || l->out_d > 1 || l->kernel_d > 1)
		return 0;
	if (l->dil_h > 1 && !r->split_dil)
		return 0;
	/* a transposed conv's stride spreads, never skips */
	if (l->stride_h > 2 && !r->split_stride3 && !l->transposed)
		return 0;
	return l->out_h > 1;
}

int
split_ok_d(const struct layer *l, const struct split_rules *r)
{
	/* depth slices of a forward 3-D conv, the rows' rule */
	if (!divisible(l, r) || l->op != OP_CONV || l->transposed ||
	    l->out_d <= 1)
		return 0;
	if (l->dil_d > 1 && !r->split_dil)
		return 0;
	if (l->stride_d > 2 && !r->split_stride3)
		return 0;
	return 1;
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

/*
 * Input rows [*r0, *r0 + *n) and the piece's own pads of output rows
 * [o0, o1) of a forward window along one axis: input length in, kernel
 * k, stride s, dilation d, leading pad pb.  Output row o reads unpadded
 * input rows o*s - pb + j*d, j < k; the piece reads [a, b] clipped to the
 * input, and what it loses at either end is its own padding, so its
 * output length is exactly o1 - o0.  Returns 0, -1 when it reads no
 * input row, SPLIT_TOOBIG on overflow.
 */
static int
fwd_rows(int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb,
    int64_t o0, int64_t o1, int64_t *r0, int64_t *n, int64_t *pt,
    int64_t *pe)
{
	int64_t a, b, t, lo, hi;

	if (ck_mul(o0, s, &a) < 0 || ck_mul(o1 - 1, s, &b) < 0 ||
	    ck_mul(k - 1, d, &t) < 0 || ck_add(b, t, &b) < 0)
		return SPLIT_TOOBIG;
	a -= pb;
	b -= pb;
	lo = a > 0 ? a : 0;
	hi = b < in - 1 ? b : in - 1;
	if (hi < lo)
		return -1;
	*r0 = lo;
	*n = hi - lo + 1;
	*pt = lo - a;
	*pe = b - hi;
	return 0;
}

/* Floor and ceiling of a / b for b > 0 and any sign of a. */
static int64_t
fdiv(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static int64_t
cdiv(int64_t a, int64_t b)
{
	return a >= 0 ? (a + b - 1) / b : -(-a / b);
}

/*
 * The same for a transposed window (pf-split(1), axis h, its halo
 * rule): input row i scatters into output rows i*s - pb + j*d,
 * j < k, so output rows [o0, o1) take input rows
 * i0 = max(0, min(ceil((o0 + pb - (k-1)*d) / s), floor((o0 + pb) / s)))
 * to i1 = min(in - 1, floor((o1 - 1 + pb) / s)); the piece is a
 * transposed conv of its own over them whose leading pad
 * o0 + pb - i0*s crops the rows before o0, and whose trailing pad crops
 * the rows past o1 - 1 (when the last row i1 reaches no further than
 * o1 - 1, its output_padding, implied by its out_h, adds the rows no
 * input reaches).  Returns 0, -1 when no input row reaches the piece,
 * SPLIT_TOOBIG on overflow.
 */
static int
tr_rows(int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb,
    int64_t o0, int64_t o1, int64_t *r0, int64_t *n, int64_t *pt,
    int64_t *pe)
{
	int64_t span, lo, hi, a, last;

	if (ck_mul(k - 1, d, &span) < 0 || o1 > INT64_MAX - pb ||
	    o0 + pb < span - INT64_MAX)
		return SPLIT_TOOBIG;
	lo = cdiv(o0 + pb - span, s);
	a = fdiv(o0 + pb, s);
	if (a < lo)
		lo = a;
	if (lo < 0)
		lo = 0;
	hi = fdiv(o1 - 1 + pb, s);
	if (hi > in - 1)
		hi = in - 1;
	/* no input row reaches [o0, o1) */
	if (hi < lo || hi * s - pb + span < o0)
		return -1;
	if (ck_mul(lo, s, &a) < 0 || ck_mul(hi, s, &last) < 0 ||
	    ck_add(last, span, &last) < 0)
		return SPLIT_TOOBIG;
	*r0 = lo;
	*n = hi - lo + 1;
	*pt = o0 + pb - a;
	last -= pb;
	*pe = last > o1 - 1 ? last - (o1 - 1) : 0;
	return 0;
}

int
split_rows(const struct layer *l, int64_t o0, int64_t o1, struct layer *p,
    int64_t *in0)
{
	int64_t n;
	int e;

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
	e = (l->transposed ? tr_rows : fwd_rows)(l->in_h, l->kernel_h,
	    l->stride_h, l->dil_h, l->pad_top, o0, o1, in0, &n, &p->pad_top,
	    &p->pad_bottom);
	if (e < 0)
		return e;
	p->in_h = n;
	p->out_h = o1 - o0;
	return layer_derive(p) < 0 ? SPLIT_TOOBIG : 0;
}

int
split_depth(const struct layer *l, int64_t o0, int64_t o1, struct layer *p,
    int64_t *in0)
{
	int64_t n;
	int e;

	*p = *l;
	if (l->op != OP_CONV || l->transposed || o0 < 0 || o1 <= o0 ||
	    o1 > l->out_d)
		return -1;
	e = fwd_rows(l->in_d, l->kernel_d, l->stride_d, l->dil_d,
	    l->pad_front, o0, o1, in0, &n, &p->pad_front, &p->pad_back);
	if (e < 0)
		return e;
	p->in_d = n;
	p->out_d = o1 - o0;
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

/*
 * The published h_gpu = ceil(in * ratio / 100) input rows, as the output
 * rows whose receptive-field centre lies in them (one forward axis:
 * input length in, leading pad pb, kernel k, dilation d, stride s).
 */
static int64_t
centred(int64_t in, int64_t out, int64_t pb, int64_t k, int64_t d,
    int64_t s, int ratio)
{
	int64_t h = share(in, ratio), q;

	/* keeps the doubled centre arithmetic below far from overflow */
	if (h < 0 || in > INT32_MAX || pb > INT32_MAX || k > INT32_MAX ||
	    d > INT32_MAX)
		return SPLIT_TOOBIG;
	/* centre of output o: o*s - pb + (k-1)*d/2 < h, doubled to stay integral */
	q = 2 * h + 2 * pb - (k - 1) * d;
	if (q <= 0)
		return 0;
	q = ceil_div(q, 2 * s);
	return q < out ? q : out;
}

/*
 * Output rows of the GPU's piece: for a forward conv the rows centred in
 * the published h_gpu input rows; a transposed conv's rows are its
 * output's own, ceil(out_h * ratio / 100) of them.
 */
static int64_t
hrows(const struct layer *l, int ratio)
{
	if (l->transposed)
		return share(l->out_h, ratio);
	return centred(l->in_h, l->out_h, l->pad_top, l->kernel_h, l->dil_h,
	    l->stride_h, ratio);
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

int
split_by_d(const struct layer *l, int ratio, struct piece pc[2],
    int64_t *units)
{
	int64_t n;
	int e;

	if (pieces(l, ratio, pc) < 0 || l->op != OP_CONV || l->transposed)
		return -1;
	n = centred(l->in_d, l->out_d, l->pad_front, l->kernel_d, l->dil_d,
	    l->stride_d, ratio);
	if (n == SPLIT_TOOBIG)
		return SPLIT_TOOBIG;
	if (n <= 0 || n >= l->out_d)
		return -1;
	*units = n;
	if ((e = split_depth(l, 0, n, &pc[0].l, &pc[0].in_row0)) < 0 ||
	    (e = split_depth(l, n, l->out_d, &pc[1].l, &pc[1].in_row0)) < 0)
		return e;
	pc[1].row0 = n;
	return 0;
}

const struct split_axis_def split_axes[TA_NAXIS] = {
	{ 'h', split_ok_h, split_by_h },
	{ 'n', split_ok_n, split_by_n },
	{ 'm', split_ok_m, split_by_m },
	{ 'd', split_ok_d, split_by_d },
};
