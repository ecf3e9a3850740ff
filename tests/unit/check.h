/*
 * Minimal assertion helpers for the unit tests: each failed check prints
 * file:line and the expression; main() returns the failure count.
 */
#ifndef PF_CHECK_H
#define PF_CHECK_H

#include <stdint.h>
#include <stdio.h>

static int check_failures;

#define CHECK(e) do { \
	if (!(e)) { \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
		    __LINE__, #e); \
		check_failures++; \
	} \
} while (0)

#define CHECK_EQ_I(a, b) do { \
	long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
	if (check_a_ != check_b_) { \
		fprintf(stderr, "%s:%d: check failed: %s == %s (%lld != %lld)\n", \
		    __FILE__, __LINE__, #a, #b, check_a_, check_b_); \
		check_failures++; \
	} \
} while (0)

#define CHECK_DONE() (check_failures == 0 ? 0 : 1)

/*
 * Deterministic pseudo-random integers in [lo, hi] (xorshift64) for the
 * property tests; a test that wants its own sequence sets check_rng first.
 */
static uint64_t check_rng = 88172645463325252ULL;

static inline int64_t
rnd(int64_t lo, int64_t hi)
{
	check_rng ^= check_rng << 13;
	check_rng ^= check_rng >> 7;
	check_rng ^= check_rng << 17;
	return lo + (int64_t)(check_rng % (uint64_t)(hi - lo + 1));
}

#endif
