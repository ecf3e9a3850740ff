/*
 * Proof of the gemm/matmul splits of lib/plan/split_geom.c and of gemm pipeline
 * chains: a real matrix product (random integers, exact) computed whole
 * and as the pieces (token rows on axis m, columns on axis n), compared
 * element by element; MAC counts of the pieces add up to the layer's and
 * each device's weight bytes are its share (n) or the whole (m).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "layer.h"
#include "split_pipe.h"
#include "split_geom.h"
#include "task.h"
#include "check.h"

/*
 * y[g][r][c] = sum_k a[g][r][k] * b[g][k][c] over rows [r0, r0+m), columns
 * [c0, c0+n); a has M rows, b has N columns; b's batch stride is 0 for a
 * gemm's shared weight.
 */
static void
mm(int64_t gb, int64_t M, int64_t N, int64_t K, const int64_t *a,
    const int64_t *b, int64_t bstride, int64_t r0, int64_t m, int64_t c0,
    int64_t n, int64_t *y)
{
	int64_t g, r, c, k;

	for (g = 0; g < gb; g++)
	for (r = r0; r < r0 + m; r++)
	for (c = c0; c < c0 + n; c++) {
		int64_t s = 0;

		for (k = 0; k < K; k++)
			s += a[(g * M + r) * K + k] * b[g * bstride + k * N + c];
		y[(g * M + r) * N + c] = s;
	}
}

static int nchecked;

static void
test_split(int matmul)
{
	struct layer l;
	struct piece pc[2];
	int64_t *a, *b, *y, *z, units, gb, M, N, K, i, n;
	int iter, ax, r;

	for (iter = 0; iter < 200; iter++) {
		layer_init(&l);
		l.op = matmul ? OP_MATMUL : OP_GEMM;
		l.batch = rnd(1, 3);
		l.in_h = rnd(0, 2) ? rnd(1, 9) : 1;
		l.in_c = K = rnd(1, 7);
		l.out_c = N = rnd(1, 9);
		l.out_h = l.in_h;
		if (matmul) {
			l.in_w = l.out_w = rnd(1, 2);
			l.gemm_batch = l.batch * l.in_w;
			l.gemm_m = l.in_h;
			l.gemm_n = N;
			l.gemm_k = K;
		}
		CHECK(layer_derive(&l) == 0);
		gb = matmul ? l.gemm_batch : 1;
		M = l.gemm_m;
		a = malloc((size_t)(gb * M * K) * sizeof(*a));
		b = malloc((size_t)(gb * K * N) * sizeof(*b));
		y = malloc((size_t)(gb * M * N) * sizeof(*y));
		z = malloc((size_t)(gb * M * N) * sizeof(*z));
		for (i = 0; i < gb * M * K; i++)
			a[i] = rnd(-5, 5);
		for (i = 0; i < gb * K * N; i++)
			b[i] = rnd(-5, 5);
		mm(gb, M, N, K, a, b, matmul ? K * N : 0, 0, M, 0, N, y);
		for (ax = 0; ax < 2; ax++)
		for (r = 5; r < 100; r += 11) {
			enum task_axis axis = ax ? TA_N : TA_M;
			int64_t per, rows;

			if (split_axes[axis].divide(&l, r, pc, &units) < 0)
				continue;
			nchecked++;
			memset(z, 0x55, (size_t)(gb * M * N) * sizeof(*z));
			CHECK_EQ_I(pc[0].l.macs + pc[1].l.macs, l.macs);
			for (i = 0; i < 2; i++) {
				const struct layer *p = &pc[i].l;

				CHECK(p->batch >= 1 && p->in_h >= 1 &&
				    p->out_c >= 1);
				if (axis == TA_N) {
					CHECK_EQ_I(p->weight_bytes, matmul ? 0 :
					    p->in_c * p->out_c * 2);
					mm(gb, M, N, K, a, b, matmul ? K * N : 0,
					    0, M, pc[i].oc0, p->out_c, z);
					continue;
				}
				CHECK_EQ_I(p->weight_bytes, l.weight_bytes);
				/* rows: in_h, or whole batch entries when in_h is 1 */
				if (l.in_h == 1) {
					per = matmul ? l.in_w : 1;
					rows = p->batch;
					if (matmul)
						mm(rows * per, M, N, K,
						    a + pc[i].row0 * per * M * K,
						    b + pc[i].row0 * per * K * N,
						    K * N, 0, M, 0, N,
						    z + pc[i].row0 * per * M * N);
					else
						mm(1, M, N, K, a, b, 0,
						    pc[i].row0, rows, 0, N, z);
				} else {
					/* each batch entry's rows [row0, row0 + in_h) */
					int64_t g2;

					for (g2 = 0; g2 < l.batch * (matmul ?
					    l.in_w : 1); g2++)
						mm(1, matmul ? M : l.batch * M, N,
						    K, a + (matmul ? g2 * M * K : 0),
						    b + (matmul ? g2 * K * N : 0), 0,
						    (matmul ? 0 : g2 * l.in_h) +
						    pc[i].row0, p->in_h, 0, N,
						    z + (matmul ? g2 * M * N : 0));
				}
			}
			n = gb * M * N;
			CHECK(memcmp(y, z, (size_t)n * sizeof(*y)) == 0);
		}
		free(a); free(b); free(y); free(z);
	}
}

/* A two-gemm chain in S stages: rows flow without halo, each row once. */
static void
test_chain(void)
{
	struct layer c[2];
	struct piece pc[2 * PIPE_MAXSTAGE];
	int iter, S, n, k;

	for (iter = 0; iter < 100; iter++) {
		int64_t cover[2] = { 0, 0 };

		S = (int)rnd(2, 5);
		layer_init(&c[0]);
		c[0].op = OP_GEMM;
		c[0].id = 3;
		c[0].in_h = c[0].out_h = rnd(1, 12);
		c[0].in_c = rnd(1, 8);
		c[0].out_c = rnd(1, 8);
		c[1] = c[0];
		c[1].id = 4;
		c[1].in_c = c[0].out_c;
		c[1].out_c = rnd(1, 8);
		CHECK(layer_derive(&c[0]) == 0 && layer_derive(&c[1]) == 0);
		n = split_pipe_chain(c, 2, S, DEV_GPU, pc);
		if (c[0].in_h < S) {
			CHECK(n < 0);
			continue;
		}
		CHECK_EQ_I(n, 2 * S);
		for (k = 0; k < n; k++) {
			/* no halo: a piece reads exactly the rows it writes */
			CHECK_EQ_I(pc[k].in_row0, pc[k].row0);
			CHECK_EQ_I(pc[k].l.in_h, pc[k].l.out_h);
			/* stage = step - chain index, within 0..S-1 */
			CHECK(pc[k].step - pc[k].chain >= 0 &&
			    pc[k].step - pc[k].chain < S);
			CHECK_EQ_I(pc[k].dev, pc[k].chain == 0 ? DEV_GPU : DEV_PIM);
			cover[pc[k].chain] += pc[k].l.out_h;
			nchecked++;
		}
		CHECK_EQ_I(cover[0], c[0].out_h);
		CHECK_EQ_I(cover[1], c[1].out_h);
	}
}

int
main(int argc, char **argv)
{
	(void)argc;
	pf_setprogname(argv[0]);
	check_rng = 0x2545F4914F6CDD1DULL;
	test_split(0);
	test_split(1);
	test_chain();
	CHECK(nchecked > 1000);
	printf("%d pieces and splits checked\n", nchecked);
	return CHECK_DONE();
}
