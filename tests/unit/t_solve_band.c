/*
 * The error band's generator and classes: splitmix64 gives its published
 * sequence for seed 0 (so a seed gives the same draws on every platform),
 * its normals have mean 0 and variance 1, and the kernel classes of
 * pf-merge's per-class columns are those solve_band.h states.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "solve_band.h"
#include "check.h"

int
main(void)
{
	/* splitmix64 from state 0: its reference implementation's outputs */
	static const uint64_t ref[3] = { 0xe220a8397b1dcdafULL,
		0x6e789e6aa1b965f4ULL, 0x06c45d188009454fULL };
	uint64_t s = 0;
	double sum = 0, sq = 0, z;
	int i, n = 200000;

	for (i = 0; i < 3; i++)
		CHECK(solve_band_rng_next(&s) == ref[i]);
	s = 42;
	for (i = 0; i < n; i++) {
		z = solve_band_rng_normal(&s);
		sum += z;
		sq += z * z;
	}
	/* 5 standard errors: 0.011 for the mean, 0.016 for the variance */
	CHECK(fabs(sum / n) < 0.012);
	CHECK(fabs(sq / n - 1.0) < 0.016);
	CHECK(solve_band_class_of("gemm", "", "") == BC_GEMM);
	CHECK(solve_band_class_of("matmul", "1", "64") == BC_GEMM);
	CHECK(solve_band_class_of("conv", "1", "64") == BC_CONV);
	CHECK(solve_band_class_of("conv", "2", "64") == BC_CONV);
	CHECK(solve_band_class_of("conv", "64", "64") == BC_DW);
	CHECK(solve_band_class_of("conv", "1", "1") == BC_CONV);
	CHECK(solve_band_class_of("eltwise", "", "") == BC_ELT);
	CHECK(solve_band_class_of("pool", "", "") == BC_ELT);
	CHECK(solve_band_dev(K_BASE) == 0 && solve_band_dev(K_GPU) == 0 &&
	    solve_band_dev(K_PIM) == 1 && solve_band_dev(K_SPLIT) == 2 &&
	    solve_band_dev(K_PIPE) == 3 && solve_band_dev(K_DAG) == 4);
	return check_failures != 0;
}
