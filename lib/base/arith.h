/*
 * Overflow-checked 64-bit dimension arithmetic.  Every product of tensor
 * dimensions goes through these, so an absurd shape is an error, never a
 * silently wrapped number.  Each returns 0 on success and -1 on overflow
 * (leaving *r unspecified).
 */
#ifndef PF_ARITH_H
#define PF_ARITH_H

#include <stdint.h>

/*
 * Inline: pf-split derives the counts of every piece it writes (millions
 * of products), and a call costs more than the multiplication.
 */
static inline int
ck_add(int64_t a, int64_t b, int64_t *r)
{
	return __builtin_add_overflow(a, b, r) ? -1 : 0;
}

static inline int
ck_mul(int64_t a, int64_t b, int64_t *r)
{
	return __builtin_mul_overflow(a, b, r) ? -1 : 0;
}

/* *r = a*b*c...: product of n values. */
static inline int
ck_prod(const int64_t *v, int n, int64_t *r)
{
	int64_t p = 1;
	int i;

	for (i = 0; i < n; i++)
		if (__builtin_mul_overflow(p, v[i], &p))
			return -1;
	*r = p;
	return 0;
}
/* Ceiling division for a >= 0, b > 0. */
int64_t ceil_div(int64_t a, int64_t b);
/* Floor division that rounds toward minus infinity (b > 0). */
int64_t floor_div(int64_t a, int64_t b);

#endif
