/*
 * Proof of the split geometry of a transposed convolution (ConvTranspose,
 * the conv row with transposed = 1) and of a 3-D conv's depth pieces: a
 * real transposed convolution (integer data, direct scatter loops, so
 * results are exact) is computed whole and as the output-channel and
 * output-row pieces lib/plan/split_geom.c describes, each run as a transposed
 * convolution of its own over its input rows, and joined; the outputs
 * must be identical element by element, channel pieces' MACs must add up
 * to the layer's col2im count and row pieces' to at least it (their halo
 * rows are scattered twice).  Shapes are random: strides 1-3, kernels
 * 1-4, dilation 1-2, asymmetric pads, output_padding below the stride,
 * groups 1-2, every output-row cut.  A 3-D conv (direct loops) is
 * computed whole and as its depth pieces (axis d) at every ratio, random
 * depth stride, dilation and pads.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "layer.h"
#include "split_geom.h"
#include "task.h"
#include "check.h"
#include "check_ran.h"

/*
 * Where tap k of window position o lands along one axis, stride s,
 * leading pad pad, dilation d: a transposed conv's output row from its
 * input row, and a conv's input row from its output row.
 */
static int64_t
tap(int64_t o, int64_t s, int64_t pad, int64_t k, int64_t d)
{
	return o * s - pad + k * d;
}

/*
 * Where tap k (depth, row, column) of p's window at position o lands, as
 * an offset in a box of n[0] x n[1] x n[2] elements, or -1 outside it: a
 * conv's input element from its output position, a transposed conv's
 * output element from its input position.
 */
static int64_t
land(const struct layer *p, const int64_t o[3], const int64_t k[3],
    const int64_t n[3])
{
	int64_t d = tap(o[0], p->stride_d, p->pad_front, k[0], p->dil_d);
	int64_t h = tap(o[1], p->stride_h, p->pad_top, k[1], p->dil_h);
	int64_t w = tap(o[2], p->stride_w, p->pad_left, k[2], p->dil_w);

	if (d < 0 || d >= n[0] || h < 0 || h >= n[1] || w < 0 || w >= n[2])
		return -1;
	return (d * n[1] + h) * n[2] + w;
}

/*
 * Rows y0..y0+p->out_h of y (oc_total channels of full_h rows) from the
 * transposed conv p over input rows x0..x0+p->in_h of x (full_in_h rows),
 * with the weights of output channels oc0..: x is [in_c][full_in_h][in_w],
 * w is [in_c][ocg_total][kh][kw], y is [oc_total][full_h][out_w].  Only
 * the struct's fields are read, never lib/.
 */
static void
deconv(const struct layer *p, const int64_t *x, int64_t full_in_h,
    int64_t x0, const int64_t *w, int64_t ocg_total, int64_t oc0,
    int64_t *y, int64_t full_h, int64_t y0)
{
	int64_t g, ic, o, ih, iw, kh, kw, ocg = p->out_c / p->groups;
	int64_t icg = p->in_c / p->groups, box[3] = { 1, p->out_h, p->out_w };

	for (g = 0; g < p->groups; g++)
		for (ic = 0; ic < icg; ic++)
			for (o = 0; o < ocg; o++)
				for (ih = 0; ih < p->in_h; ih++)
					for (iw = 0; iw < p->in_w; iw++)
						for (kh = 0; kh < p->kernel_h; kh++)
							for (kw = 0; kw < p->kernel_w; kw++) {
	int64_t at = land(p, (int64_t[3]){ 0, ih, iw },
	    (int64_t[3]){ 0, kh, kw }, box);
	int64_t c = g * icg + ic, oc = oc0 + g * ocg + o;
	int64_t wo = (oc0 + o) % ocg_total;	/* within-group weight column */

	if (at < 0)
		continue;
	y[(oc * full_h + y0) * p->out_w + at] +=
	    x[(c * full_in_h + x0 + ih) * p->in_w + iw] *
	    w[((c * ocg_total + wo) * p->kernel_h + kh) * p->kernel_w + kw];
							}
}

/*
 * Depth slices y0.. of y ([out_c][full_od][out_h][out_w]) from the 3-D
 * conv p over input slices x0.. of x ([in_c][full_id][in_h][in_w]); w is
 * [out_c][in_c][kd][kh][kw] (groups 1).
 */
static void
conv3(const struct layer *p, const int64_t *x, int64_t full_id, int64_t x0,
    const int64_t *w, int64_t *y, int64_t full_od, int64_t y0)
{
	int64_t oc, od, oh, ow, ic, a, b, c;
	int64_t box[3] = { p->in_d, p->in_h, p->in_w };

	for (oc = 0; oc < p->out_c; oc++)
	for (od = 0; od < p->out_d; od++)
	for (oh = 0; oh < p->out_h; oh++)
	for (ow = 0; ow < p->out_w; ow++) {
		int64_t acc = 0;

		for (ic = 0; ic < p->in_c; ic++)
		for (a = 0; a < p->kernel_d; a++)
		for (b = 0; b < p->kernel_h; b++)
		for (c = 0; c < p->kernel_w; c++) {
			int64_t at = land(p, (int64_t[3]){ od, oh, ow },
			    (int64_t[3]){ a, b, c }, box);

			if (at < 0)
				continue;
			acc += w[(((oc * p->in_c + ic) * p->kernel_d + a) *
			    p->kernel_h + b) * p->kernel_w + c] *
			    x[(ic * full_id + x0) * p->in_h * p->in_w + at];
		}
		y[((oc * full_od + y0 + od) * p->out_h + oh) * p->out_w + ow] =
		    acc;
	}
}

static int64_t
outdim(int64_t in, int64_t p0, int64_t p1, int64_t k, int64_t d, int64_t s)
{
	int64_t e = in + p0 + p1 - d * (k - 1) - 1;

	return e < 0 ? 0 : e / s + 1;
}

static void
depth_trials(const struct split_rules *rules)
{
	int trial, ratio;

	for (trial = 0; trial < 150; trial++) {
		struct layer l;
		int64_t *x, *w, *y0, *y1, n, i, ek, prev = -1;

		layer_init(&l);
		l.op = OP_CONV;
		l.in_c = rnd(1, 3);
		l.out_c = rnd(1, 3);
		l.in_d = rnd(2, 9);
		l.in_h = rnd(1, 3);
		l.in_w = rnd(1, 3);
		l.kernel_d = rnd(1, 3);
		l.kernel_h = rnd(1, 2);
		l.kernel_w = rnd(1, 2);
		l.stride_d = rnd(1, 3);
		l.dil_d = rnd(1, 2);
		ek = (l.kernel_d - 1) * l.dil_d + 1;
		l.pad_front = rnd(0, ek - 1);
		l.pad_back = rnd(0, ek - 1);
		l.pad_top = rnd(0, l.kernel_h - 1);
		l.pad_left = rnd(0, l.kernel_w - 1);
		l.out_d = outdim(l.in_d, l.pad_front, l.pad_back, l.kernel_d,
		    l.dil_d, l.stride_d);
		l.out_h = outdim(l.in_h, l.pad_top, l.pad_bottom, l.kernel_h,
		    1, 1);
		l.out_w = outdim(l.in_w, l.pad_left, l.pad_right, l.kernel_w,
		    1, 1);
		if (l.out_d < 2 || l.out_h < 1 || l.out_w < 1)
			continue;
		CHECK(layer_derive(&l) == 0);
		CHECK(!split_axes[TA_H].eligible(&l, rules));
		if (l.dil_d > 1 && !rules->split_dil)
			continue;
		CHECK(split_axes[TA_D].eligible(&l, rules));
		x = calloc((size_t)(l.in_c * l.in_d * l.in_h * l.in_w),
		    sizeof(*x));
		n = l.out_c * l.in_c * l.kernel_d * l.kernel_h * l.kernel_w;
		w = calloc((size_t)n, sizeof(*w));
		for (i = 0; i < l.in_c * l.in_d * l.in_h * l.in_w; i++)
			x[i] = rnd(-3, 3);
		for (i = 0; i < n; i++)
			w[i] = rnd(-3, 3);
		n = l.out_c * l.out_d * l.out_h * l.out_w;
		y0 = calloc((size_t)n, sizeof(*y0));
		y1 = calloc((size_t)n, sizeof(*y1));
		conv3(&l, x, l.in_d, 0, w, y0, l.out_d, 0);
		for (ratio = 5; ratio < 100; ratio += 5) {
			struct piece pc[2];
			int64_t units, j;

			if (split_axes[TA_D].divide(&l, ratio, pc, &units) < 0 ||
			    units == prev)
				continue;
			prev = units;
			memset(y1, 0, (size_t)n * sizeof(*y1));
			CHECK_EQ_I(pc[0].l.out_d + pc[1].l.out_d, l.out_d);
			for (j = 0; j < 2; j++) {
				const struct layer *p = &pc[j].l;

				CHECK(p->in_d >= 1 && pc[j].in_row0 >= 0 &&
				    pc[j].in_row0 + p->in_d <= l.in_d);
				CHECK(outdim(p->in_d, p->pad_front, p->pad_back,
				    p->kernel_d, p->dil_d, p->stride_d) ==
				    p->out_d);
				conv3(p, x, l.in_d, pc[j].in_row0, w, y1, l.out_d,
				    pc[j].row0);
			}
			CHECK(memcmp(y0, y1, (size_t)n * sizeof(*y0)) == 0);
		}
		free(x);
		free(w);
		free(y0);
		free(y1);
	}
}

int
main(int argc, char **argv)
{
	struct split_rules rules;
	int trial, ratio, rowsplits = 0;

	(void)argc;
	pf_setprogname(argv[0]);
	rules = split_rules_published;
	rules.split_grouped = 1;
	rules.split_dil = 1;
	for (trial = 0; trial < 200; trial++) {
		struct layer l;
		int64_t *x, *w, *y0, *y1, n, i, ek, o0, o1;
		int ax;

		layer_init(&l);
		l.op = OP_CONV;
		l.transposed = 1;
		l.groups = rnd(1, 2);
		l.in_c = l.groups * (rnd(1, 3));
		l.out_c = l.groups * (rnd(2, 6));
		l.in_h = rnd(1, 6);
		l.in_w = rnd(1, 6);
		l.kernel_h = rnd(1, 4);
		l.kernel_w = rnd(1, 4);
		l.stride_h = rnd(1, 3);
		l.stride_w = rnd(1, 3);
		l.dil_h = rnd(1, 2);
		l.dil_w = 1;
		ek = (l.kernel_h - 1) * l.dil_h + 1;
		l.pad_top = rnd(0, ek - 1);
		l.pad_bottom = rnd(0, ek - 1);
		l.pad_left = rnd(0, l.kernel_w - 1);
		l.pad_right = rnd(0, l.kernel_w - 1);
		/* output_padding: rows past the last one any input reaches */
		l.out_h = (l.in_h - 1) * l.stride_h - l.pad_top - l.pad_bottom +
		    ek + rnd(0, l.stride_h - 1);
		l.out_w = (l.in_w - 1) * l.stride_w - l.pad_left - l.pad_right +
		    l.kernel_w;
		if (l.out_h < 1 || l.out_w < 1)
			continue;
		CHECK(layer_derive(&l) == 0);
		/* col2im: every input pixel meets every weight once. */
		CHECK_EQ_I(l.macs, l.in_h * l.in_w * l.in_c * (l.out_c /
		    l.groups) * l.kernel_h * l.kernel_w);
		CHECK(split_axes[TA_H].eligible(&l, &rules) == (l.out_h > 1));
		CHECK(split_axes[TA_N].eligible(&l, &rules));
		CHECK(!split_axes[TA_D].eligible(&l, &rules));
		x = calloc((size_t)(l.in_c * l.in_h * l.in_w), sizeof(*x));
		n = l.in_c * (l.out_c / l.groups) * l.kernel_h * l.kernel_w;
		w = calloc((size_t)n, sizeof(*w));
		for (i = 0; i < l.in_c * l.in_h * l.in_w; i++)
			x[i] = rnd(-3, 3);
		for (i = 0; i < n; i++)
			w[i] = rnd(-3, 3);
		n = l.out_c * l.out_h * l.out_w;
		y0 = calloc((size_t)n, sizeof(*y0));
		y1 = calloc((size_t)n, sizeof(*y1));
		deconv(&l, x, l.in_h, 0, w, l.out_c / l.groups, 0, y0, l.out_h,
		    0);
		for (ratio = 10; ratio < 100; ratio += 20) {
			struct piece pc[2];
			int64_t units, macs = 0;

			memset(y1, 0, (size_t)n * sizeof(*y1));
			if (split_axes[TA_N].divide(&l, ratio, pc, &units) < 0)
				continue;
			for (ax = 0; ax < 2; ax++) {
				struct layer *p = &pc[ax].l;

				CHECK(p->transposed && p->out_h == l.out_h &&
				    p->out_w == l.out_w);
				macs += p->macs;
				if (l.groups == 1)
					deconv(p, x, l.in_h, 0, w, l.out_c,
					    pc[ax].oc0, y1, l.out_h, 0);
			}
			CHECK_EQ_I(macs, l.macs);
			if (l.groups == 1)
				CHECK(memcmp(y0, y1, (size_t)n * sizeof(*y0)) ==
				    0);
		}
		/*
		 * Every cut of the output rows: the pieces as transposed convs
		 * of their own over their input rows, joined, are the layer.
		 */
		for (o0 = 1; o0 < l.out_h; o0++) {
			struct layer p[2];
			int64_t in0[2], macs = 0, ok = 1;

			memset(y1, 0, (size_t)n * sizeof(*y1));
			for (o1 = 0; o1 < 2 && ok; o1++) {
				int64_t lo = o1 ? o0 : 0, hi = o1 ? l.out_h : o0;
				int e = split_rows(&l, lo, hi, &p[o1], &in0[o1]);

				CHECK(e != SPLIT_TOOBIG);
				if (e < 0) {
					ok = 0;
					break;
				}
				CHECK(p[o1].transposed && p[o1].out_h == hi - lo);
				CHECK(p[o1].pad_top >= 0 && p[o1].pad_bottom >= 0);
				CHECK(in0[o1] >= 0 && in0[o1] + p[o1].in_h <=
				    l.in_h);
				/* its own output_padding stays below the stride */
				CHECK(p[o1].out_h - ((p[o1].in_h - 1) *
				    p[o1].stride_h - p[o1].pad_top -
				    p[o1].pad_bottom + ek) < l.stride_h);
				CHECK(p[o1].out_h - ((p[o1].in_h - 1) *
				    p[o1].stride_h - p[o1].pad_top -
				    p[o1].pad_bottom + ek) >= 0);
				macs += p[o1].macs;
				deconv(&p[o1], x, l.in_h, in0[o1], w,
				    l.out_c / l.groups, 0, y1, l.out_h, lo);
			}
			if (!ok)
				continue;
			rowsplits++;
			CHECK(macs >= l.macs);
			CHECK(memcmp(y0, y1, (size_t)n * sizeof(*y0)) == 0);
		}
		for (ratio = 10; ratio < 100; ratio += 10) {
			struct piece pc[2];
			int64_t units;

			if (split_axes[TA_H].divide(&l, ratio, pc, &units) < 0)
				continue;
			CHECK_EQ_I(pc[0].l.out_h, units);
			CHECK_EQ_I(pc[1].row0, units);
			CHECK_EQ_I(pc[0].l.out_h + pc[1].l.out_h, l.out_h);
		}
		free(x);
		free(w);
		free(y0);
		free(y1);
	}
	/* most random layers have every cut; the rows were really tested */
	CHECK_RAN("output-row cuts", rowsplits, 200);
	depth_trials(&rules);
	{
		/* C3D's conv2: 8x16x16 by 3x3x3, 32 -> 64 channels. */
		struct layer l;
		struct piece pc[2];
		int64_t units;

		layer_init(&l);
		l.op = OP_CONV;
		l.in_c = 32;
		l.out_c = 64;
		l.in_h = l.in_w = l.out_h = l.out_w = 16;
		l.in_d = l.out_d = 8;
		l.kernel_h = l.kernel_w = l.kernel_d = 3;
		l.pad_top = l.pad_bottom = l.pad_left = l.pad_right = 1;
		l.pad_front = l.pad_back = 1;
		CHECK(layer_derive(&l) == 0);
		CHECK_EQ_I(l.gemm_m, 8 * 16 * 16);
		CHECK_EQ_I(l.gemm_k, 32 * 27);
		CHECK_EQ_I(l.macs, (int64_t)8 * 16 * 16 * 64 * 32 * 27);
		CHECK_EQ_I(l.in_bytes, (int64_t)32 * 8 * 16 * 16 * 2);
		CHECK_EQ_I(l.weight_bytes, (int64_t)64 * 32 * 27 * 2);
		CHECK(!split_axes[TA_H].eligible(&l, &rules));
		CHECK(split_axes[TA_N].eligible(&l, &rules));
		CHECK(split_axes[TA_D].eligible(&l, &rules));
		CHECK(split_axes[TA_N].divide(&l, 50, pc, &units) == 0);
		CHECK_EQ_I(pc[0].l.macs + pc[1].l.macs, l.macs);
		CHECK(pc[0].l.out_d == 8 && pc[1].l.kernel_d == 3);
		/* depth 50 %: 4 input slices, the output slices centred in them */
		CHECK(split_axes[TA_D].divide(&l, 50, pc, &units) == 0);
		CHECK_EQ_I(units, 4);
		CHECK(pc[0].l.out_d == 4 && pc[0].l.in_d == 5 &&
		    pc[0].l.pad_front == 1 && pc[0].l.pad_back == 0);
		CHECK(pc[1].l.out_d == 4 && pc[1].l.in_d == 5 &&
		    pc[1].in_row0 == 3 && pc[1].l.pad_front == 0 &&
		    pc[1].l.pad_back == 1);
	}
	return CHECK_DONE();
}
