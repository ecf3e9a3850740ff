/*
 * Einsum equations that are matrix products: two operands whose labels
 * are each batch (in both operands and the output), m (first operand and
 * output), n (second operand and output) or k (both operands, summed),
 * in any order (transposes are free), with "..." for broadcast batch
 * dims and the implicit output form (no "->").  Everything else (one or
 * three operands, a label repeated in one operand, a label summed over
 * one operand only) is not a matrix product and is refused.
 */
#ifndef PF_ONNX_EINSUM_H
#define PF_ONNX_EINSUM_H

#include <stddef.h>
#include <stdint.h>

#include "onnx_load.h"

struct einsum {
	int	 rank;			/* output rank and dims */
	int64_t	 dims[ONNX_MAXRANK];
	/* GEMM view: products of the batch, m, n and k label sizes. */
	int64_t	 batch, m, n, k;
	int64_t	 lead;		/* size of the output's first label when it
				   is a batch label, else 1 */
};

/*
 * Read equation eq over operands a and b (shapes known) into *e.
 * Returns 0, or -1 with the reason (lower case, no period) in why.
 */
int einsum_view(const char *eq, const struct tensor *a,
    const struct tensor *b, struct einsum *e, char *why, size_t whysize);

#endif
