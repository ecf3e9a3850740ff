/*
 * Proof of the split geometry of lib/plan/split_geom.c and lib/plan/split_pipe.c: a real
 * convolution (random integer data, direct loops, so results are exact)
 * is computed whole and as the pieces the library describes, and the two
 * outputs must be identical element by element.  Shapes are random over
 * odd and even heights, strides 1-3, dilation 1-3, asymmetric pads,
 * grouped and depthwise convs; pipelines are chains of 2-4 such convs in
 * 2-4 stages, executed step by step with a check that every input row a
 * piece reads was produced at an earlier step.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "layer.h"
#include "split_pipe.h"
#include "task.h"
#include "split_geom.h"
#include "check.h"
#include "check_ran.h"

#define IX(t, b, c, h, w) ((((b) * (t).c_ + (c)) * (t).h_ + (h)) * (t).w_ + (w))

struct tensor {
	int64_t	 b_, c_, h_, w_;
	int64_t	*v;
};

static void
talloc(struct tensor *t, int64_t b, int64_t c, int64_t h, int64_t w)
{
	t->b_ = b; t->c_ = c; t->h_ = h; t->w_ = w;
	t->v = calloc((size_t)(b * c * h * w), sizeof(int64_t));
}

/*
 * Direct convolution of l over x (rows x_row0.., channels x_c0..) with
 * weights w (out_c of them from w_oc0), written to y rows y_row0..,
 * channels y_c0...  Independent of lib/: only the struct's fields.
 */
static void
conv(const struct layer *l, const struct tensor *x, int64_t x_row0,
    int64_t x_c0, const int64_t *w, int64_t w_oc0, struct tensor *y,
    int64_t y_row0, int64_t y_c0)
{
	int64_t cpg = l->in_c / l->groups, opg = l->out_c / l->groups;
	int64_t b, oc, oh, ow, ic, i, j;

	for (b = 0; b < l->batch; b++)
	for (oc = 0; oc < l->out_c; oc++)
	for (oh = 0; oh < l->out_h; oh++)
	for (ow = 0; ow < l->out_w; ow++) {
		int64_t acc = 0, g = oc / opg;

		for (ic = 0; ic < cpg; ic++)
		for (i = 0; i < l->kernel_h; i++)
		for (j = 0; j < l->kernel_w; j++) {
			int64_t h = oh * l->stride_h - l->pad_top + i * l->dil_h;
			int64_t ww = ow * l->stride_w - l->pad_left + j * l->dil_w;
			int64_t wv;

			if (h < 0 || h >= l->in_h || ww < 0 || ww >= l->in_w)
				continue;
			wv = w[(((w_oc0 + oc) * cpg + ic) * l->kernel_h + i) *
			    l->kernel_w + j];
			acc += wv * x->v[IX(*x, b, x_c0 + g * cpg + ic,
			    x_row0 + h, ww)];
		}
		y->v[IX(*y, b, y_c0 + oc, y_row0 + oh, ow)] = acc;
	}
}

static int64_t
outdim(int64_t in, int64_t p0, int64_t p1, int64_t k, int64_t d, int64_t s)
{
	int64_t e = in + p0 + p1 - d * (k - 1) - 1;

	return e < 0 ? 0 : e / s + 1;
}

/* A random conv of the given input shape; 0 if its output would be empty. */
static int
randconv(struct layer *l, int64_t batch, int64_t in_c, int64_t h, int64_t w)
{
	int64_t g;

	layer_init(l);
	l->op = OP_CONV;
	l->batch = batch; l->in_c = in_c; l->in_h = h; l->in_w = w;
	switch (rnd(0, 3)) {
	case 0: g = in_c; break;			/* depthwise */
	case 1: g = in_c % 2 == 0 ? 2 : 1; break;	/* grouped */
	default: g = 1; break;
	}
	l->groups = g;
	l->out_c = g == in_c && rnd(0, 1) ? in_c : g * rnd(1, 3);
	l->kernel_h = rnd(1, 5); l->kernel_w = rnd(1, 3);
	l->stride_h = rnd(1, 3); l->stride_w = rnd(1, 2);
	l->dil_h = rnd(0, 3) == 0 ? rnd(2, 3) : 1;
	l->dil_w = rnd(1, 2);
	l->pad_top = rnd(0, 3); l->pad_bottom = rnd(0, 3);
	l->pad_left = rnd(0, 2); l->pad_right = rnd(0, 2);
	l->out_h = outdim(h, l->pad_top, l->pad_bottom, l->kernel_h,
	    l->dil_h, l->stride_h);
	l->out_w = outdim(w, l->pad_left, l->pad_right, l->kernel_w,
	    l->dil_w, l->stride_w);
	if (l->out_h < 1 || l->out_w < 1)
		return 0;
	return layer_derive(l) == 0;
}

static void
randfill(struct tensor *t)
{
	int64_t i, n = t->b_ * t->c_ * t->h_ * t->w_;

	for (i = 0; i < n; i++)
		t->v[i] = rnd(-4, 4);
}

static int64_t *
randweights(const struct layer *l)
{
	int64_t n = l->out_c * (l->in_c / l->groups) * l->kernel_h *
	    l->kernel_w, i;
	int64_t *w = malloc((size_t)n * sizeof(*w));

	for (i = 0; i < n; i++)
		w[i] = rnd(-3, 3);
	return w;
}

/* A piece must be a self-consistent conv of its own. */
static void
check_piece_conv(const struct layer *p)
{
	struct layer q = *p;

	CHECK(p->in_h >= 1 && p->out_h >= 1 && p->in_c >= 1 && p->out_c >= 1);
	CHECK_EQ_I(p->out_h, outdim(p->in_h, p->pad_top, p->pad_bottom,
	    p->kernel_h, p->dil_h, p->stride_h));
	CHECK_EQ_I(p->out_w, outdim(p->in_w, p->pad_left, p->pad_right,
	    p->kernel_w, p->dil_w, p->stride_w));
	CHECK(layer_derive(&q) == 0);
	CHECK(memcmp(&q, p, sizeof(q)) == 0);
}

static int nsplit, npipe, npub;

/* Published InputSplit GPU output rows for same-padded convs (§3). */
static void
check_published(const struct layer *l, int ratio, const struct piece *pc)
{
	int64_t k = l->kernel_h, p = l->pad_top, s = l->stride_h;
	int64_t hg = (l->in_h * ratio + 99) / 100, ps = (hg - 1) % s;
	int64_t len = hg + p + k / 2 - ps;

	if (l->pad_top != l->pad_bottom || k % 2 == 0 || p != k / 2 ||
	    l->dil_h != 1 || s > 2)
		return;
	CHECK_EQ_I(pc[0].l.out_h, (len - k) / s + 1);
	/* PIM slice starts at padded row hg + p - k/2 + ps_pim */
	CHECK_EQ_I(pc[1].in_row0 + p - pc[1].l.pad_top,
	    hg + p - k / 2 + ((s - hg % s) % s));
	npub++;
}

static void
test_split(void)
{
	struct layer l;
	struct tensor x, y, z;
	struct piece pc[2];
	int64_t *w, units;
	int axis, ratio, i;
	int iter;

	for (iter = 0; iter < 300; iter++) {
		if (!randconv(&l, rnd(1, 2), rnd(1, 6), rnd(1, 13), rnd(1, 5)))
			continue;
		talloc(&x, l.batch, l.in_c, l.in_h, l.in_w);
		talloc(&y, l.batch, l.out_c, l.out_h, l.out_w);
		talloc(&z, l.batch, l.out_c, l.out_h, l.out_w);
		randfill(&x);
		w = randweights(&l);
		conv(&l, &x, 0, 0, w, 0, &y, 0, 0);
		for (axis = 0; axis < 2; axis++)
		for (ratio = 1; ratio < 100; ratio += 7) {
			enum task_axis ax = axis == 0 ? TA_H : TA_N;

			if (split_axes[ax].divide(&l, ratio, pc, &units) < 0)
				continue;
			nsplit++;
			memset(z.v, 0x55, (size_t)(z.b_ * z.c_ * z.h_ * z.w_) *
			    sizeof(int64_t));
			for (i = 0; i < 2; i++) {
				const struct piece *q = &pc[i];

				check_piece_conv(&q->l);
				CHECK(q->in_row0 >= 0 &&
				    q->in_row0 + q->l.in_h <= l.in_h);
				conv(&q->l, &x, q->in_row0, q->ic0, w, q->oc0,
				    &z, q->row0, q->oc0);
			}
			if (ax == TA_H) {
				CHECK_EQ_I(pc[0].l.out_h + pc[1].l.out_h, l.out_h);
				CHECK_EQ_I(pc[1].row0, pc[0].l.out_h);
				check_published(&l, ratio, pc);
			} else {
				CHECK_EQ_I(pc[0].l.out_c + pc[1].l.out_c, l.out_c);
				CHECK_EQ_I(pc[0].l.weight_bytes +
				    pc[1].l.weight_bytes, l.weight_bytes);
			}
			CHECK(memcmp(y.v, z.v, (size_t)(y.b_ * y.c_ * y.h_ *
			    y.w_) * sizeof(int64_t)) == 0);
		}
		free(w); free(x.v); free(y.v); free(z.v);
	}
}

static void
test_pipe(void)
{
	struct layer ch[4];
	struct tensor t[5], u[5];
	struct piece pc[4 * 4];
	int64_t *w[4], *done[5];
	int iter, L, S, n, i, k, ok;

	for (iter = 0; iter < 1500; iter++) {
		L = (int)rnd(2, 4);
		S = (int)rnd(2, 4);
		ok = randconv(&ch[0], 1, rnd(1, 4), rnd(6, 24), rnd(1, 3));
		for (i = 1; ok && i < L; i++)
			ok = randconv(&ch[i], 1, ch[i - 1].out_c,
			    ch[i - 1].out_h, ch[i - 1].out_w);
		if (!ok)
			continue;
		n = split_pipe_chain(ch, L, S, iter % 2 ? DEV_GPU : DEV_PIM, pc);
		if (n < 0)
			continue;
		CHECK_EQ_I(n, L * S);
		npipe++;
		talloc(&t[0], 1, ch[0].in_c, ch[0].in_h, ch[0].in_w);
		talloc(&u[0], 1, 1, 1, 1);
		randfill(&t[0]);
		done[0] = NULL;
		for (i = 0; i < L; i++) {
			w[i] = randweights(&ch[i]);
			talloc(&t[i + 1], 1, ch[i].out_c, ch[i].out_h, ch[i].out_w);
			talloc(&u[i + 1], 1, ch[i].out_c, ch[i].out_h, ch[i].out_w);
			conv(&ch[i], &t[i], 0, 0, w[i], 0, &t[i + 1], 0, 0);
			done[i + 1] = malloc((size_t)ch[i].out_h * sizeof(int64_t));
			for (k = 0; k < ch[i].out_h; k++)
				done[i + 1][k] = -1;
		}
		for (k = 0; k < n; k++) {
			const struct piece *q = &pc[k];
			int c = q->chain;
			const struct tensor *src = c == 0 ? &t[0] : &u[c];
			int64_t r;

			CHECK(k == 0 || pc[k - 1].step <= q->step);
			CHECK_EQ_I(q->dev, (c % 2 == 0) == (iter % 2 == 1) ?
			    DEV_GPU : DEV_PIM);
			check_piece_conv(&q->l);
			/* every input row was produced at an earlier step */
			for (r = q->in_row0; c > 0 &&
			    r < q->in_row0 + q->l.in_h; r++)
				CHECK(done[c][r] >= 0 && done[c][r] < q->step);
			for (r = q->row0; r < q->row0 + q->l.out_h; r++) {
				CHECK(done[c + 1][r] < 0);	/* no row twice */
				done[c + 1][r] = q->step;
			}
			conv(&q->l, src, q->in_row0, 0, w[c], 0, &u[c + 1],
			    q->row0, 0);
		}
		CHECK(pc[n - 1].step == L + S - 2);
		for (i = 1; i <= L; i++) {
			for (k = 0; k < ch[i - 1].out_h; k++)
				CHECK(done[i][k] >= 0);
			CHECK(memcmp(t[i].v, u[i].v, (size_t)(t[i].c_ *
			    t[i].h_ * t[i].w_) * sizeof(int64_t)) == 0);
		}
		for (i = 0; i <= L; i++) {
			free(t[i].v); free(u[i].v);
			free(done[i]);
			if (i < L)
				free(w[i]);
		}
	}
}

int
main(int argc, char **argv)
{
	(void)argc;
	pf_setprogname(argv[0]);
	check_rng = 88172645463325252ULL;
	test_split();
	test_pipe();
	/* the random shapes must exercise the code, not skip it */
	CHECK_RAN("splits", nsplit, 1000);
	CHECK_RAN("pipelines", npipe, 100);
	CHECK_RAN("published-rule checks", npub, 50);
	return CHECK_DONE();
}
