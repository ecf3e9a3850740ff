/*
 * Streaming kernels: memory-bound layers, direct convolutions, layout and
 * epilogue kernels.  See gpu_ops.h for the model.
 */
#include <math.h>
#include <string.h>

#include "gpu_model.h"
#include "gpu_ops.h"

int
gpu_ops_stream_occupancy(const struct gpu_model *m)
{
	double o = floor(m->max_threads_per_sm / m->stream_threads);

	if (o > m->max_ctas_per_sm)
		o = m->max_ctas_per_sm;
	return o < 1 ? 1 : (int)o;
}

double
gpu_ops_cuda_rate(const struct gpu_model *m, const char *dtype)
{
	if (strcmp(dtype, "fp16") == 0 || strcmp(dtype, "bf16") == 0)
		return m->cuda_fp16;
	return m->cuda_fp32;
}

void
gpu_ops_stream_cost(const struct gpu_mach *g, const struct gpu_stream *s,
    struct gpu_kern *k)
{
	const struct gpu_model *m = g->m;
	double per_cta = m->stream_threads * m->stream_elems_per_thread;
	double elems = s->elems < 1 ? 1 : s->elems;
	double ctas = ceil(elems / per_cta);
	double busy, bytes, var, dram, l2, sm;

	memset(k, 0, sizeof(*k));
	k->shape.occ = gpu_ops_stream_occupancy(m);
	k->shape.ctas = ctas;
	k->shape.waves = ceil(ctas / (m->sms * k->shape.occ));
	k->shape.splitk = 1;
	k->kernels = 1;
	/*
	 * Elements handled by the busiest SM, counting every CTA as full
	 * (an edge CTA takes as long as a full one): idle SMs on small grids.
	 */
	busy = ceil(ctas / m->sms) * per_cta;
	k->shape.math = s->rate > 0 ?
	    busy * (s->flops / elems) / (s->rate * m->eff_math) : 0;
	bytes = s->dram_rd + s->l2_rd + s->dram_wr;
	dram = (s->dram_rd + s->dram_wr) / (g->dram_bpc * m->eff_dram);
	l2 = bytes / (g->l2_bpc * m->eff_l2);
	var = bytes - s->shared_rd;
	sm = (busy * (var / elems) + s->shared_rd) / m->sm_l2_bytes_per_cycle;
	k->shape.mem = fmax(dram, fmax(l2, sm));
	k->cycles = fmax(k->shape.math, k->shape.mem) + m->fill_cycles +
	    g->fixed;
	k->dram_bytes = s->dram_rd + s->dram_wr;
	k->l2_bytes = bytes;
}

void
gpu_ops_memop_stream(const struct gpu_model *m, const struct layer *l, int in_l2,
    struct gpu_stream *s)
{
	double esz = layer_dtype_bytes(l->dtype);
	double in = (double)l->in_bytes, out = (double)l->out_bytes;
	double wgt = (double)l->weight_bytes;

	if (esz <= 0)
		esz = 2;
	memset(s, 0, sizeof(*s));
	/* A gather reads the rows it emits, not the whole table. */
	if (l->op == OP_EMBED && wgt > out)
		wgt = out;
	s->dram_rd = wgt + (in_l2 ? 0 : in);
	s->l2_rd = in_l2 ? in : 0;
	s->dram_wr = out;
	/* Gathered rows are the embed's own stream, not shared weights. */
	s->shared_rd = l->op == OP_EMBED ? 0 : wgt;
	s->elems = fmax(in, out) / esz;
	/*
	 * Arithmetic is never what bounds these ops; it is counted as one
	 * operation per input element (per window element for pooling) so
	 * that a CUDA-core-starved config still shows it.
	 */
	if (l->op == OP_POOL)
		s->flops = (out / esz) * (double)l->kernel_h *
		    (double)l->kernel_w;
	else
		s->flops = in / esz;
	s->rate = gpu_ops_cuda_rate(m, l->dtype);
}

/* Input positions of one axis that out outputs touch (gpu_ops.h). */
static double
touched(int64_t in, int64_t out, int64_t k, int64_t s, int64_t d)
{
	double t, ke = (double)((k - 1) * d + 1);

	if (in <= 0 || out <= 0 || k <= 0 || s <= 0 || d <= 0)
		return (double)in;
	if (d == 1)
		t = k >= s ? (double)(out - 1) * (double)s + (double)k :
		    (double)out * (double)k;
	else
		t = s == 1 ? (double)(out - 1) + ke : (double)out * (double)k;
	return fmin((double)in, t);
}

double
gpu_ops_conv_input_touched(const struct layer *l)
{
	double b = (double)l->in_bytes;

	if (l->op != OP_CONV || l->transposed)
		return b;
	if (l->in_h > 0)
		b *= touched(l->in_h, l->out_h, l->kernel_h, l->stride_h,
		    l->dil_h) / (double)l->in_h;
	if (l->in_w > 0)
		b *= touched(l->in_w, l->out_w, l->kernel_w, l->stride_w,
		    l->dil_w) / (double)l->in_w;
	if (l->in_d > 1)
		b *= touched(l->in_d, l->out_d, l->kernel_d, l->stride_d,
		    l->dil_d) / (double)l->in_d;
	return b;
}

/* Output block of one direct-conv CTA: pixels per side, channels. */
#define DW_TILE	8
#define DW_CH	32

void
gpu_ops_direct_conv_cost(const struct gpu_mach *g, const struct layer *l,
    int in_l2, struct gpu_kern *k)
{
	const struct gpu_model *m = g->m;
	double esz = layer_dtype_bytes(l->dtype), cpg_in, cpg_out, ch, cin, th, tw;
	double ctas, busy, flops, stage, in, out, w, dram, l2, sm, math;

	if (esz <= 0)
		esz = 2;
	memset(k, 0, sizeof(*k));
	cpg_in = (double)(l->in_c / l->groups);
	cpg_out = (double)(l->out_c / l->groups);
	/* Output channels per CTA and the input channels they read. */
	ch = fmin(DW_CH, (double)l->out_c);
	cin = ceil(ch / cpg_out) * cpg_in;
	/* Input rows and columns an 8 x 8 output block touches. */
	th = fmin((double)l->in_h, (fmin(DW_TILE, (double)l->out_h) - 1) *
	    (double)l->stride_h + (double)((l->kernel_h - 1) * l->dil_h + 1));
	tw = fmin((double)l->in_w, (fmin(DW_TILE, (double)l->out_w) - 1) *
	    (double)l->stride_w + (double)((l->kernel_w - 1) * l->dil_w + 1));
	ctas = (double)l->batch * ceil((double)l->out_h / DW_TILE) *
	    ceil((double)l->out_w / DW_TILE) * ceil((double)l->out_c / ch);
	k->shape.occ = gpu_ops_stream_occupancy(m);
	k->shape.ctas = ctas;
	k->shape.waves = ceil(ctas / (m->sms * k->shape.occ));
	k->shape.splitk = 1;
	k->kernels = 1;
	busy = ceil(ctas / m->sms);
	flops = 2.0 * (double)l->macs / ctas;
	math = busy * flops / (gpu_ops_cuda_rate(m, l->dtype) * m->eff_math_cuda);
	/* Staged per CTA: input block with halo, filters, output block. */
	stage = (th * tw * cin + ch * cpg_in * (double)(l->kernel_h *
	    l->kernel_w) + DW_TILE * DW_TILE * ch) * esz;
	in = gpu_ops_conv_input_touched(l);
	w = (double)l->weight_bytes;
	out = (double)l->out_bytes;
	dram = ((in_l2 ? 0 : in) + w + out) / (g->dram_bpc * m->eff_dram);
	l2 = ctas * stage / (g->l2_bpc * m->eff_l2);
	sm = busy * stage / m->sm_l2_bytes_per_cycle;
	k->shape.math = math;
	k->shape.mem = fmax(dram, fmax(l2, sm));
	/* a library conv call: the conv's per-call floor (conv_fixed_ns) */
	k->cycles = fmax(k->shape.math, k->shape.mem) + m->fill_cycles +
	    g->conv_fixed;
	k->dram_bytes = (in_l2 ? 0 : in) + w + out;
	k->l2_bytes = ctas * stage;
}

void
gpu_ops_copy_stream(double bytes, int esz, int in_l2, struct gpu_stream *s)
{
	memset(s, 0, sizeof(*s));
	s->dram_rd = in_l2 ? 0 : bytes;
	s->l2_rd = in_l2 ? bytes : 0;
	s->dram_wr = bytes;
	s->elems = bytes / (esz > 0 ? esz : 2);
}
