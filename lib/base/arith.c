/*
 * Checked integer arithmetic for tensor dimensions: the divisions (the
 * checked sums and products are inline in arith.h).
 */
#include <stdint.h>

#include "arith.h"

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
