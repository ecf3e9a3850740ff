/*
 * Streaming kernels: memory-bound layers, direct convolutions, layout and
 * epilogue kernels.  See gpu_ops.h for the model.
 */
#include <math.h>
#include <string.h>

#include "gpu_model.h"
#include "gpu_ops.h"

int
gpu_stream_occupancy(const struct gpu_model *m)
{
	double o = floor(m->max_threads_per_sm / m->stream_threads);

	if (o > m->max_ctas_per_sm)
		o = m->max_ctas_per_sm;
	return o < 1 ? 1 : (int)o;
}

double
gpu_cuda_rate(const struct gpu_model *m, const char *dtype)
{
	if (strcmp(dtype, "fp16") == 0 || strcmp(dtype, "bf16") == 0)
		return m->cuda_fp16;
	return m->cuda_fp32;
}

void
gpu_stream_cost(const struct gpu_mach *g, const struct gpu_stream *s,
    struct gpu_kern *k)
{
	const struct gpu_model *m = g->m;
	double per_cta = m->stream_threads * m->stream_elems_per_thread;
	double elems = s->elems < 1 ? 1 : s->elems;
	double ctas = ceil(elems / per_cta);
	double busy, bytes, var, dram, l2, sm;

	memset(k, 0, sizeof(*k));
	k->occ = gpu_stream_occupancy(m);
	k->ctas = ctas;
	k->waves = ceil(ctas / (m->sms * k->occ));
	k->splitk = 1;
	k->kernels = 1;
	/*
	 * Elements handled by the busiest SM, counting every CTA as full
	 * (an edge CTA takes as long as a full one): idle SMs on small grids.
	 */
	busy = ceil(ctas / m->sms) * per_cta;
	k->math = s->rate > 0 ?
	    busy * (s->flops / elems) / (s->rate * m->eff_math) : 0;
	bytes = s->dram_rd + s->l2_rd + s->dram_wr;
	dram = (s->dram_rd + s->dram_wr) / (g->dram_bpc * m->eff_dram);
	l2 = bytes / (g->l2_bpc * m->eff_l2);
	var = bytes - s->shared_rd;
	sm = (busy * (var / elems) + s->shared_rd) / m->sm_l2_bytes_per_cycle;
	k->mem = fmax(dram, fmax(l2, sm));
	k->cycles = fmax(k->math, k->mem) + m->fill_cycles;
	k->dram_bytes = s->dram_rd + s->dram_wr;
	k->l2_bytes = bytes;
}

void
gpu_memop_stream(const struct gpu_model *m, const struct layer *l, int in_l2,
    struct gpu_stream *s)
{
	double esz = dtype_bytes(l->dtype);
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
	s->rate = gpu_cuda_rate(m, l->dtype);
}

void
gpu_direct_conv_stream(const struct gpu_model *m, const struct layer *l,
    int in_l2, struct gpu_stream *s)
{
	double esz = dtype_bytes(l->dtype);
	double in = (double)l->in_bytes;

	if (esz <= 0)
		esz = 2;
	memset(s, 0, sizeof(*s));
	s->flops = 2.0 * (double)l->macs;
	s->rate = gpu_cuda_rate(m, l->dtype);
	s->dram_rd = (double)l->weight_bytes + (in_l2 ? 0 : in);
	s->shared_rd = (double)l->weight_bytes;
	s->l2_rd = in_l2 ? in : 0;
	s->dram_wr = (double)l->out_bytes;
	s->elems = (double)l->out_bytes / esz;
}

void
gpu_copy_stream(double bytes, int esz, int in_l2, struct gpu_stream *s)
{
	memset(s, 0, sizeof(*s));
	s->dram_rd = in_l2 ? 0 : bytes;
	s->l2_rd = in_l2 ? bytes : 0;
	s->dram_wr = bytes;
	s->elems = bytes / (esz > 0 ? esz : 2);
}
