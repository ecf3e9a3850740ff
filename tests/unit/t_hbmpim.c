/*
 * Unit tests of the HBM2-PIM engine (lib/pim/hbmpim_time.c) against Samsung
 * PIMSimulator (SAITPublic/PIMSimulator@b464dde) runs: the benchmark's own
 * figures (PIMBenchFixture gemv/add/mul/relu at 64 channels), worked cases
 * with and without a refresh inside, the per-channel command counts, and
 * the refresh-free closed forms of every kernel over a range of shapes.
 * hbm-pim.conf must load into exactly the built-in device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "hbmpim_model.h"
#include "hbmpim_time.h"
#include "check.h"

static struct hbmpim_dram d;

/* hbmpim_pim or hbmpim_base */
typedef int timer(const struct hbmpim_dram *, enum hbmpim_kernel, int64_t,
    int64_t, int64_t, int64_t, struct hbmpim_run *);

/* The cycles of kernel k as f times it on d, -1 when f refuses the shape. */
static int64_t
cycles(timer *f, enum hbmpim_kernel k, int64_t out, int64_t in, int64_t b,
    int64_t c)
{
	struct hbmpim_run r;

	if (f(&d, k, out, in, b, c, &r) < 0)
		return -1;
	return r.cycles;
}

#define pim(...)	cycles(hbmpim_pim, __VA_ARGS__)
#define base(...)	cycles(hbmpim_base, __VA_ARGS__)

/*
 * The benchmark's figures at 64 channels (PIMBenchFixture): kernel, out,
 * in, and the cycles with PIM and of the baseline.
 */
static const struct {
	enum hbmpim_kernel	k;
	int64_t			out, in, pim, base;
} bench[] = {
	{ HP_GEMV, 4096, 4096, 13166, 36082 },
	{ HP_ADD, 1 << 20, 0, 3349, 6651 },
	{ HP_MUL, 1 << 21, 0, 5926, 13255 },
	{ HP_RELU, 1 << 22, 0, 7665, 17504 },
};

/* Refresh-free closed forms (one channel computes 64 outputs per tile). */
static int64_t
gemv_p(int64_t n)
{
	return 419 + 388 * (n / 2) + 341 * ((n - 1) / 2);
}

static int64_t
tree_p(int64_t n)
{
	return 454 + 478 * (n / 2) + 431 * ((n - 1) / 2);
}

/* a shipped PIM config */
#define share(rel)	check_top("share/pimflow/pim/" rel)

int
main(int argc, char **argv)
{
	struct hbmpim_model m;
	struct hbmpim_run r;
	int64_t n, N, b;
	size_t i;

	(void)argc;
	pf_setprogname(argv[0]);
	hbmpim_dram_default(&d);

	/* the config file is the built-in device, value for value */
	CHECK(hbmpim_model_load(share("hbm-pim.conf"), &m) == 0);
	CHECK(memcmp(&m.dram, &d, sizeof(d)) == 0);
	CHECK_EQ_I(m.channels, 64);

	for (i = 0; i < sizeof(bench) / sizeof(bench[0]); i++) {
		CHECK_EQ_I(pim(bench[i].k, bench[i].out, bench[i].in, 1, 64),
		    bench[i].pim);
		CHECK_EQ_I(base(bench[i].k, bench[i].out, bench[i].in, 1, 64),
		    bench[i].base);
	}

	/* worked cases: no refresh, one refresh during a row switch, ... */
	CHECK(hbmpim_pim(&d, HP_GEMV, 512, 512, 1, 64, &r) == 0);
	CHECK_EQ_I(r.cycles, 1867);
	CHECK_EQ_I(r.rd, 288);
	CHECK_EQ_I(r.wr, 49);
	CHECK_EQ_I(r.act, 53);
	CHECK_EQ_I(r.pre, 53);
	CHECK_EQ_I(r.ref, 0);
	CHECK_EQ_I(pim(HP_GEMV, 4096, 128, 1, 32), 1169);
	CHECK_EQ_I(pim(HP_GEMV, 4096, 128, 1, 64), 750);
	CHECK_EQ_I(pim(HP_GEMV, 4096, 1024, 1, 64), 3662);
	/* ... fewer channels: more output tiles, same stream per channel */
	CHECK_EQ_I(pim(HP_GEMV, 4096, 4096, 1, 16), 51941);
	/* padding: the time depends only on the tile counts */
	CHECK_EQ_I(pim(HP_GEMV, 1000, 1000, 1, 16), pim(HP_GEMV, 1024, 1024, 1, 16));
	CHECK_EQ_I(pim(HP_GEMV, 1, 4096, 1, 64), 13166);
	/* per-channel counts: 32 + 64 n_it N reads, 7 + N (10 + 8 n_it) writes */
	CHECK(hbmpim_pim(&d, HP_GEMV, 4096, 4096, 1, 64, &r) == 0);
	CHECK_EQ_I(r.rd, 2080);
	CHECK_EQ_I(r.wr, 273);

	/* refresh off: the closed forms, exactly; batch and n_ot interchange */
	d.refresh = 0;
	CHECK_EQ_I(pim(HP_GEMV, 4096, 4096, 1, 64), 331 + 11742);
	for (n = 1; n <= 12; n++)
		for (N = 1; N <= 3; N++) {
			CHECK_EQ_I(pim(HP_GEMV, 64 * N, 128 * n, 1, 1),
			    331 + N * gemv_p(n));
			CHECK_EQ_I(pim(HP_GEMV, 64, 128 * n, N, 1),
			    331 + N * gemv_p(n));
		}
	CHECK_EQ_I(gemv_p(32), 11742);
	for (n = 31; n <= 64; n += 33)
		CHECK_EQ_I(pim(HP_GEMV, 128, 128 * n, 1, 1), 331 + 2 * gemv_p(n));
	CHECK_EQ_I(pim(HP_GEMV, 64, 128 * 128, 2, 1), 331 + 2 * gemv_p(128));
	for (n = 1; n <= 8; n++)
		for (N = 1; N <= 3; N++)
			CHECK_EQ_I(pim(HP_GEMV_TREE, 64 * N, 128 * n, 1, 1),
			    657 + N * tree_p(n));
	for (n = 1; n <= 20; n++) {
		CHECK_EQ_I(pim(HP_ADD, 2048 * n, 0, 1, 1), 409 + 322 * n);
		CHECK_EQ_I(pim(HP_MUL, 2048 * n, 0, 1, 1), 409 + 322 * n);
		CHECK_EQ_I(pim(HP_RELU, 2048 * n, 0, 1, 1), 409 + 204 * n);
	}
	/* eltwise tiles count batch x length; a remainder is dropped */
	CHECK_EQ_I(pim(HP_ADD, 2048, 0, 3, 1), 409 + 322 * 3);
	CHECK_EQ_I(pim(HP_ADD, 2048 * 3 + 100, 0, 1, 1), 409 + 322 * 3);
	d.refresh = 1;

	/* refresh adds at least a REF's worth per request, never removes */
	for (b = 1; b <= 4; b++) {
		int64_t with = pim(HP_GEMV, 4096, 4096, b, 64);

		d.refresh = 0;
		CHECK(with >= pim(HP_GEMV, 4096, 4096, b, 64) + 364 * b);
		d.refresh = 1;
	}

	/* shapes that have no tile, or no room, are refused */
	CHECK(pim(HP_ADD, 100, 0, 1, 64) == -1);
	CHECK(pim(HP_GEMV, 0, 128, 1, 64) == -1);
	CHECK(pim(HP_GEMV, 64, 0, 1, 64) == -1);
	CHECK(pim(HP_GEMV, 64 << 20, 1 << 20, 1, 1) == -1);
	return CHECK_DONE();
}
