/*
 * The seam of the PIM engines (pim_engine.h): a piece as a GEMV job, and
 * what a KV-cache piece appends.
 */
#include <stdint.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "layer.h"
#include "pim_engine.h"

int
pim_gemv_map(const struct layer *l, int per_group, const char *where,
    struct pim_gemv *g)
{
	int64_t v[4];

	memset(g, 0, sizeof(*g));
	g->inst = 1;
	/* A transposed conv runs its col2im GEMM (one GEMV per input pixel). */
	switch (l->transposed ? OP_GEMM : l->op) {
	case OP_CONV:
		g->ci = l->in_c;
		g->co = l->out_c;
		if (per_group && l->groups > 1) {
			g->ci /= l->groups;
			g->co /= l->groups;
			g->inst = l->groups;
		}
		/* A 3-D conv: depth taps join the rows, depths the pixels. */
		g->kh = l->kernel_h * l->kernel_d;
		g->kw = l->kernel_w;
		g->h = l->in_h;
		v[0] = l->batch; v[1] = l->out_h; v[2] = l->out_w;
		v[3] = l->out_d;
		if (ck_prod(v, 4, &g->p) < 0) {
			pf_err(where, "shape too large to schedule on pim");
			return -1;
		}
		return 0;
	case OP_GEMM:
	case OP_MATMUL:
		if (l->gemm_m < 1 || l->gemm_n < 1 || l->gemm_k < 1 ||
		    l->gemm_batch < 1) {
			pf_err(where, "column 'gemm_%s': must be positive on a pim row",
			    l->gemm_m < 1 ? "m" : l->gemm_n < 1 ? "n" :
			    l->gemm_k < 1 ? "k" : "batch");
			return -1;
		}
		g->ci = l->gemm_k;
		g->co = l->gemm_n;
		g->kh = g->kw = 1;
		g->p = g->h = l->gemm_m;
		g->inst = l->gemm_batch;
		return 0;
	default:
		pf_err(where, "column 'op': op '%s' cannot run on pim",
		    layer_opname(l->op));
		return -1;
	}
}

int64_t
pim_kv_append(const struct layer *l)
{
	if (!layer_is_kv(l))
		return 0;
	return l->kv_seq == 'n' ? l->gemm_k : l->kv_seq == 'k' ? l->gemm_n : 0;
}
