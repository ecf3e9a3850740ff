/*
 * Minimal assertion helpers for the unit tests: each failed check prints
 * file:line and the expression; main() returns the failure count.
 */
#ifndef PF_CHECK_H
#define PF_CHECK_H

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

#endif
