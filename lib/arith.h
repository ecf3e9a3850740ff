/*
 * Overflow-checked 64-bit dimension arithmetic.  Every product of tensor
 * dimensions goes through these, so an absurd shape is an error, never a
 * silently wrapped number.  Each returns 0 on success and -1 on overflow
 * (leaving *r unspecified).
 */
#ifndef PF_ARITH_H
#define PF_ARITH_H

#include <stdint.h>

int ck_add(int64_t a, int64_t b, int64_t *r);
int ck_mul(int64_t a, int64_t b, int64_t *r);
/* *r = a*b*c...: product of n values. */
int ck_prod(const int64_t *v, int n, int64_t *r);
/* Ceiling division for a >= 0, b > 0. */
int64_t ceil_div(int64_t a, int64_t b);
/* Floor division that rounds toward minus infinity (b > 0). */
int64_t floor_div(int64_t a, int64_t b);

#endif
