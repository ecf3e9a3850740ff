/*
 * Checked integer arithmetic for tensor dimensions.
 */
#include <stdint.h>

#include "arith.h"

int
ck_add(int64_t a, int64_t b, int64_t *r)
{
	return __builtin_add_overflow(a, b, r) ? -1 : 0;
}

int
ck_mul(int64_t a, int64_t b, int64_t *r)
{
	return __builtin_mul_overflow(a, b, r) ? -1 : 0;
}

int
ck_prod(const int64_t *v, int n, int64_t *r)
{
	int64_t p = 1;
	int i;

	for (i = 0; i < n; i++)
		if (ck_mul(p, v[i], &p) < 0)
			return -1;
	*r = p;
	return 0;
}

int64_t
ceil_div(int64_t a, int64_t b)
{
	return a / b + (a % b != 0 && (a > 0) == (b > 0));
}

int64_t
floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}
