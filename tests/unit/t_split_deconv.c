/*
 * Proof of the split geometry of a transposed convolution (ConvTranspose,
 * the conv row with transposed = 1): a real transposed convolution
 * (integer data, direct scatter loops, so results are exact) is computed
 * whole and as the output-channel pieces lib/split_geom.c describes, run
 * as transposed convolutions of their own, and joined; the outputs must
 * be identical element by element, the pieces' MACs must add up to the
 * layer's col2im count, and no output-row split is offered (its halo
 * rule is not implemented).  Shapes are random: strides 1-3, kernels
 * 1-4, dilation 1-2, asymmetric pads, groups 1-2.  Also the counts of a
 * 3-D conv (depth columns): its col2im-free GEMM view, and output-channel
 * pieces only, whose MACs add up.
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

/*
 * y[oc0 + o] (o < p->out_c) of the transposed conv p over x, with the
 * weights of output channels w_oc0..: x is [in_c][in_h][in_w], w is
 * [in_c][oc_total/g][kh][kw], y is [oc_total][out_h][out_w].  Only the
 * struct's fields are read, never lib/.
 */
static void
deconv(const struct layer *p, const int64_t *x, const int64_t *w,
    int64_t ocg_total, int64_t oc0, int64_t *y)
{
	int64_t g, ic, o, ih, iw, kh, kw, ocg = p->out_c / p->groups;
	int64_t icg = p->in_c / p->groups;

	for (g = 0; g < p->groups; g++)
		for (ic = 0; ic < icg; ic++)
			for (o = 0; o < ocg; o++)
				for (ih = 0; ih < p->in_h; ih++)
					for (iw = 0; iw < p->in_w; iw++)
						for (kh = 0; kh < p->kernel_h; kh++)
							for (kw = 0; kw < p->kernel_w; kw++) {
	int64_t oh = ih * p->stride_h - p->pad_top + kh * p->dil_h;
	int64_t ow = iw * p->stride_w - p->pad_left + kw * p->dil_w;
	int64_t c = g * icg + ic, oc = oc0 + g * ocg + o;
	int64_t wo = (oc0 + o) % ocg_total;	/* within-group weight column */

	if (oh < 0 || oh >= p->out_h || ow < 0 || ow >= p->out_w)
		continue;
	y[(oc * p->out_h + oh) * p->out_w + ow] +=
	    x[(c * p->in_h + ih) * p->in_w + iw] *
	    w[((c * ocg_total + wo) * p->kernel_h + kh) * p->kernel_w + kw];
							}
}

int
main(int argc, char **argv)
{
	struct split_rules rules;
	int trial, ratio;

	(void)argc;
	pf_setprogname(argv[0]);
	split_rules_init(&rules);
	rules.split_grouped = 1;
	for (trial = 0; trial < 200; trial++) {
		struct layer l;
		int64_t *x, *w, *y0, *y1, n, i, ek;
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
		l.out_h = (l.in_h - 1) * l.stride_h - l.pad_top - l.pad_bottom +
		    ek;
		l.out_w = (l.in_w - 1) * l.stride_w - l.pad_left - l.pad_right +
		    l.kernel_w;
		if (l.out_h < 1 || l.out_w < 1)
			continue;
		CHECK(layer_derive(&l) == 0);
		/* col2im: every input pixel meets every weight once. */
		CHECK_EQ_I(l.macs, l.in_h * l.in_w * l.in_c * (l.out_c /
		    l.groups) * l.kernel_h * l.kernel_w);
		CHECK(!task_axes[TA_H].eligible(&l, &rules));
		CHECK(task_axes[TA_N].eligible(&l, &rules));
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
		deconv(&l, x, w, l.out_c / l.groups, 0, y0);
		for (ratio = 10; ratio < 100; ratio += 20) {
			struct piece pc[2];
			int64_t units, macs = 0;

			memset(y1, 0, (size_t)n * sizeof(*y1));
			if (task_axes[TA_N].divide(&l, ratio, pc, &units) < 0)
				continue;
			for (ax = 0; ax < 2; ax++) {
				struct layer *p = &pc[ax].l;

				CHECK(p->transposed && p->out_h == l.out_h &&
				    p->out_w == l.out_w);
				macs += p->macs;
				if (l.groups == 1)
					deconv(p, x, w, l.out_c, pc[ax].oc0, y1);
			}
			CHECK_EQ_I(macs, l.macs);
			if (l.groups == 1)
				CHECK(memcmp(y0, y1, (size_t)n * sizeof(*y0)) ==
				    0);
		}
		free(x);
		free(w);
		free(y0);
		free(y1);
	}
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
		CHECK(!task_axes[TA_H].eligible(&l, &rules));
		CHECK(task_axes[TA_N].eligible(&l, &rules));
		CHECK(task_axes[TA_N].divide(&l, 50, pc, &units) == 0);
		CHECK_EQ_I(pc[0].l.macs + pc[1].l.macs, l.macs);
		CHECK(pc[0].l.out_d == 8 && pc[1].l.kernel_d == 3);
	}
	return CHECK_DONE();
}
