/*
 * Winograd convolutions of the GPU model; see gpu_wino.h.
 */
#include <math.h>
#include <string.h>

#include "gpu_gemm.h"
#include "gpu_ops.h"
#include "gpu_wino.h"

/*
 * One F(m x m, r x r).  Transform costs in FP operations: for each
 * alpha x alpha (or alpha x r) tile the 2-D transform is two passes of
 * 1-D transforms, one per column then one per row, and a 1-D transform
 * costs one addition (or FMA, a constant folded in) per non-zero of each
 * row of its matrix beyond the first.  With the matrices of Lavin and
 * Gray's F(2,3) this gives their 32 (data), 28 (filter) and 24
 * (inverse) operations of F(2x2,3x3); F(4,3) and F(2,5) use the points
 * 0, 1, -1, 2, -2 and infinity:
 *   F(4,3)  B^T rows' non-zeros 3,4,4,4,4,3: 16 per 1-D, 2 x 6 x 16 = 192
 *           G   rows 1,3,3,3,3,1: 8 per 1-D, 3 x 8 + 6 x 8 = 72
 *           A^T rows 5,4,4,5: 14 per 1-D, 6 x 14 + 4 x 14 = 140
 *   F(2,5)  B^T as F(4,3) (same points): 192
 *           G   rows 1,5,5,5,5,1: 16 per 1-D, 5 x 16 + 6 x 16 = 176
 *           A^T rows 5,5: 8 per 1-D, 6 x 8 + 2 x 8 = 64
 */
struct wino {
	int	m, r;		/* output tile side, filter side */
	double	data, filt, inv; /* ops per tile per channel / per filter */
};

static const struct wino f2x3 = { 2, 3, 32, 28, 24 };
static const struct wino f4x3 = { 4, 3, 192, 72, 140 };
static const struct wino f2x5 = { 2, 5, 192, 176, 64 };

int
gpu_wino_ok(const struct gpu_model *m, const struct layer *l, enum gpu_wino w)
{
	if (m->build.winograd == 0 || w == GPU_WINO_NONE ||
	    l->op != OP_CONV || l->transposed || l->groups != 1 ||
	    strcmp(l->dtype, "fp32") != 0 ||
	    (m->build.tf32 != 0 && m->tc_tf32 > 0))
		return 0;
	if (l->kernel_d != 1 || l->in_d > 1 || l->stride_h != 1 ||
	    l->stride_w != 1 || l->dil_h != 1 || l->dil_w != 1 ||
	    l->kernel_h != l->kernel_w)
		return 0;
	return l->kernel_h == 3 || (l->kernel_h == 5 && w == GPU_WINO_NONFUSED);
}

/*
 * source: fitted to gpu-measured-conv-train.csv (its 26 fp32 3x3 rows'
 * algorithm labels: fused for C <= 128 with C N P Q <= 1.6e6, non-fused
 * at C = 128 with 3.2e6 and at every C >= 256; the bound set between)
 */
#define WINO_FUSED_MAX_C	128
#define WINO_FUSED_MAX_WORK	(2.0 * 1024 * 1024)

enum gpu_wino
gpu_wino_forced(const struct gpu_model *m, const struct layer *l)
{
	double work = (double)l->in_c * (double)l->batch *
	    (double)l->out_h * (double)l->out_w;

	if (!gpu_wino_ok(m, l, GPU_WINO_FUSED) || l->kernel_h != 3 ||
	    l->in_c <= 4)
		return GPU_WINO_NONE;
	return l->in_c <= WINO_FUSED_MAX_C && work <= WINO_FUSED_MAX_WORK ?
	    GPU_WINO_FUSED : GPU_WINO_NONFUSED;
}

/* Add a streaming kernel's parts to k; returns its cycles. */
static double
stream(const struct gpu_mach *g, const struct gpu_stream *s,
    struct gpu_kern *k)
{
	struct gpu_kern sk;

	gpu_ops_stream_cost(g, s, &sk);
	k->dram_bytes += sk.dram_bytes;
	k->l2_bytes += sk.l2_bytes;
	k->kernels++;
	return sk.cycles;
}

/*
 * The sizes of one Winograd convolution: its transform f, the tiles, the
 * channels in and out, the bytes of the transformed input, filter and
 * output, and what of L2 an input may take.
 */
struct wino_size {
	const struct wino	*f;
	double			 a2, esz, tiles, c, n, rate;
	double			 tin, tfl, tout, fit;
};

static void
wino_size(const struct gpu_mach *g, const struct layer *l, enum gpu_wino w,
    struct wino_size *z)
{
	const struct gpu_model *m = g->m;
	double a;

	z->f = w == GPU_WINO_FUSED ? &f2x3 : l->kernel_h == 5 ? &f2x5 : &f4x3;
	a = (double)(z->f->m + z->f->r - 1);
	z->a2 = a * a;
	z->esz = 4;
	z->tiles = (double)l->batch * ceil((double)l->out_h / z->f->m) *
	    ceil((double)l->out_w / z->f->m);
	z->c = (double)l->in_c;
	z->n = (double)l->out_c;
	z->rate = m->cuda_fp32;
	z->tin = z->a2 * z->tiles * z->c * z->esz;
	z->tfl = z->a2 * z->c * z->n * z->esz;
	z->tout = z->a2 * z->tiles * z->n * z->esz;
	z->fit = m->l2_input_fraction * g->l2_bytes;
}

/* A transform kernel reading rd bytes (from L2 when l2), writing wr. */
static double
transform(const struct gpu_mach *g, const struct wino_size *z, double rd,
    int l2, double wr, double flops, struct gpu_kern *k)
{
	struct gpu_stream s;

	memset(&s, 0, sizeof(s));
	s.dram_rd = l2 ? 0 : rd;
	s.l2_rd = l2 ? rd : 0;
	s.dram_wr = wr;
	s.elems = wr / z->esz;
	s.flops = flops;
	s.rate = z->rate;
	return stream(g, &s, k);
}

/*
 * The batched GEMMs' problem: fused, the multiplies read the layer's
 * input and filter and write its output (the transforms in the same
 * CTA); non-fused, the transformed tensors.
 */
static void
wino_gemm(const struct gpu_model *m, const struct layer *l,
    const struct wino_size *z, enum gpu_wino w, int in_l2, struct gpu_gemm *p)
{
	memset(p, 0, sizeof(*p));
	p->g = z->a2;
	p->m = z->tiles;
	p->n = z->n;
	p->k = z->c;
	p->esz = (int)z->esz;
	p->rate = z->rate;
	p->eff = m->wino_eff_math;
	p->tiles = m->tiles32;
	p->ntiles = m->ntiles32;
	if (w == GPU_WINO_FUSED) {
		p->a_bytes = gpu_ops_conv_input_touched(l);
		p->a_in_l2 = in_l2;
		p->b_bytes = (double)l->weight_bytes;
		p->c_bytes = (double)l->out_bytes;
	} else {
		p->a_bytes = z->tin;
		p->a_in_l2 = z->tin <= z->fit;
		p->b_bytes = z->tfl;
		p->c_bytes = z->tout;
	}
}

double
gpu_wino_cost(const struct gpu_mach *g, const struct layer *l,
    enum gpu_wino w, int in_l2, struct gpu_kern *k)
{
	const struct gpu_model *m = g->m;
	struct wino_size z;
	struct gpu_gemm p;
	struct gpu_kern pre;
	const struct wino *f;
	/* aux: the transform kernels' cycles */
	double xf, aux = 0, cyc;

	memset(k, 0, sizeof(*k));
	wino_size(g, l, w, &z);
	f = z.f;
	if (w != GPU_WINO_FUSED) {
		/* Filter transform, then input transform. */
		aux += transform(g, &z, (double)l->weight_bytes, 0, z.tfl,
		    z.c * z.n * f->filt, k);
		aux += transform(g, &z, (double)l->in_bytes, in_l2, z.tin,
		    z.tiles * z.c * f->data, k);
	}
	wino_gemm(m, l, &z, w, in_l2, &p);
	/* the GEMMs' kernel is the conv's shape; the transforms' add to it */
	pre = *k;
	gpu_gemm_cost(g, &p, k);
	k->dram_bytes += pre.dram_bytes;
	k->l2_bytes += pre.l2_bytes;
	k->kernels += pre.kernels;
	cyc = k->cycles;
	if (w == GPU_WINO_FUSED) {
		/*
		 * The transforms run on the same CUDA cores as the multiplies,
		 * each tile and filter transformed once, spread over the SMs.
		 */
		xf = (z.tiles * z.c * f->data + z.c * z.n * f->filt + z.tiles *
		    z.n * f->inv) / (m->sms * z.rate * m->wino_eff_math);
		cyc += xf;
		k->shape.math += xf;
	} else
		aux += transform(g, &z, z.tout, z.tout <= z.fit,
		    (double)l->out_bytes, z.tiles * z.n * f->inv, k);
	/* the GEMMs' cycles hold a split-K reduction's, their own aux */
	k->aux_cycles = aux + k->aux_cycles;
	k->cycles = cyc + aux;
	return k->cycles;
}
