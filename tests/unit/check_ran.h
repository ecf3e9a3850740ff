/*
 * For the unit tests of random cases, after check.h: the cases a test
 * really ran (not skipped as shapes that do not apply) must pass a floor,
 * or a test that drifts into skipping everything would pass by testing
 * nothing.  CHECK_RAN prints the count and fails the test at or below the
 * floor.
 */
#ifndef PF_CHECK_RAN_H
#define PF_CHECK_RAN_H

#include <stdio.h>

#define CHECK_RAN(what, n, floor) \
	check_ran(__FILE__, __LINE__, (what), (long)(n), (long)(floor))

static inline void
check_ran(const char *file, int line, const char *what, long n, long floor)
{
	printf("%ld %s\n", n, what);
	if (n <= floor) {
		fprintf(stderr, "%s:%d: check failed: %ld %s, want more "
		    "than %ld\n", file, line, n, what, floor);
		check_failures++;
	}
}

#endif
