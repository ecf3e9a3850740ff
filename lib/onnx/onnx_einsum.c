/*
 * Einsum as a matrix product.  Labels are letters; the dims "..." stands for
 * hidden labels numbered from the right, so that they broadcast
 * as numpy does (a missing or size-1 ellipsis dim is absent from that
 * operand).  Products are checked.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "arith.h"
#include "onnx_einsum.h"

#define NL	(52 + ONNX_MAXRANK)	/* letters, then ellipsis dims */

/* One operand or the output: its labels in order. */
struct term {
	int	 n;
	int	 lab[ONNX_MAXRANK];
	int	 ell;		/* position of "..." among the labels, -1 */
};

static int
label(int c)
{
	if (c >= 'a' && c <= 'z')
		return c - 'a';
	if (c >= 'A' && c <= 'Z')
		return 26 + c - 'A';
	return -1;
}

/* Parse one term from *p up to ',', '-' or the end. */
static int
term(const char **p, struct term *t)
{
	const char *s = *p;

	t->n = 0;
	t->ell = -1;
	for (; *s != '\0' && *s != ',' && *s != '-'; s++) {
		if (isspace((unsigned char)*s))
			continue;
		if (strncmp(s, "...", 3) == 0) {
			if (t->ell >= 0)
				return -1;
			t->ell = t->n;
			s += 2;
			continue;
		}
		if (label(*s) < 0 || t->n == ONNX_MAXRANK)
			return -1;
		t->lab[t->n++] = label(*s);
	}
	*p = s;
	return 0;
}

/*
 * The labels and sizes of an operand of rank r: the ellipsis expands to
 * r - n hidden labels, the last one numbered 0.
 */
static int
expand(const struct term *t, const struct tensor *x, int *lab, int64_t *sz,
    int *ne)
{
	int e = x->rank - t->n, i, j = 0;

	if (e < 0 || (e > 0 && t->ell < 0))
		return -1;
	*ne = t->ell >= 0 ? e : 0;
	for (i = 0; i < t->n; i++) {
		if (i == t->ell)
			for (; j - i < e; j++)
				lab[j] = 52 + (e - 1 - (j - i));
		lab[j++] = t->lab[i];
	}
	if (t->ell == t->n)
		for (; j < x->rank; j++)
			lab[j] = 52 + (x->rank - 1 - j);
	for (i = 0; i < x->rank; i++)
		sz[i] = x->dims[i];
	return 0;
}

/* Where each label stands (1-based position in the output) and its size. */
struct labels {
	int	 ina[NL], inb[NL], ino[NL];
	int64_t	 size[NL];
	int	 nell;		/* ellipsis dims of the output */
};

/*
 * Record the labels of one operand (lab, sz of rank r) in in[] and their
 * sizes; a size-1 ellipsis dim broadcasts (absent from it).  other is the
 * operand read before, whose sizes must agree, or NULL.
 */
static int
operand_sizes(struct labels *L, const int *lab, const int64_t *sz, int r,
    int *in, const int *other, char *why, size_t whysize)
{
	int i;

	for (i = 0; i < r; i++) {
		if (in[lab[i]]++) {
			snprintf(why, whysize, "a label repeats in one operand");
			return -1;
		}
		if (lab[i] >= 52 && sz[i] == 1) {
			in[lab[i]] = 0;
			continue;
		}
		if (other != NULL && other[lab[i]] && L->size[lab[i]] != sz[i]) {
			snprintf(why, whysize, "a label has sizes %lld and %lld",
			    (long long)L->size[lab[i]], (long long)sz[i]);
			return -1;
		}
		L->size[lab[i]] = sz[i];
	}
	return 0;
}

/* The output term after "->" at p: the labels' output positions. */
static int
output_explicit(struct labels *L, const char *p, struct einsum *e, char *why,
    size_t whysize)
{
	struct term to;
	int i, l;

	if (p[1] != '>') {
		snprintf(why, whysize, "'-' is not '->'");
		return -1;
	}
	p += 2;
	if (term(&p, &to) < 0 || *p != '\0') {
		snprintf(why, whysize, "the output term is malformed");
		return -1;
	}
	if (to.ell < 0 && L->nell > 0) {
		snprintf(why, whysize, "the output drops the '...' dims");
		return -1;
	}
	if (to.n + L->nell > ONNX_MAXRANK) {
		snprintf(why, whysize, "the output rank is above %d",
		    ONNX_MAXRANK);
		return -1;
	}
	for (i = 0, e->rank = 0; i <= to.n; i++) {
		if (i == to.ell)
			for (l = L->nell - 1; l >= 0; l--)
				L->ino[52 + l] = ++e->rank;
		if (i < to.n) {
			if (L->ino[to.lab[i]] ||
			    (!L->ina[to.lab[i]] && !L->inb[to.lab[i]])) {
				snprintf(why, whysize, "an output label "
				    "repeats or is in no operand");
				return -1;
			}
			L->ino[to.lab[i]] = ++e->rank;
		}
	}
	return 0;
}

/* Implicit output: the ellipsis, then the labels seen once, sorted. */
static void
output_implicit(struct labels *L, struct einsum *e)
{
	int l;

	for (l = L->nell - 1; l >= 0; l--)
		L->ino[52 + l] = ++e->rank;
	for (l = 0; l < 52; l++)
		if (L->ina[l] + L->inb[l] == 1)
			L->ino[l] = ++e->rank;
}

/*
 * The output's dims; a label summed must be in both operands, and the
 * ellipsis dims are never summed.
 */
static int
output_dims(const struct labels *L, struct einsum *e, char *why,
    size_t whysize)
{
	int l;

	for (l = 0; l < NL; l++) {
		if (L->ino[l])
			e->dims[L->ino[l] - 1] = L->size[l];
		if (l >= 52 && l - 52 < L->nell)
			continue;
		if ((L->ina[l] || L->inb[l]) && !L->ino[l] &&
		    !(L->ina[l] && L->inb[l])) {
			snprintf(why, whysize, "a label is summed over one "
			    "operand only");
			return -1;
		}
	}
	for (l = 52; l < 52 + L->nell; l++)
		if ((L->ina[l] || L->inb[l]) && !L->ino[l]) {
			snprintf(why, whysize, "the '...' dims are summed");
			return -1;
		}
	return 0;
}

/* The GEMM view: each label's size into batch, m, n or k. */
static int
gemm_view(const struct labels *L, struct einsum *e, char *why, size_t whysize)
{
	int l;

	e->batch = e->m = e->n = e->k = e->lead = 1;
	for (l = 0; l < NL; l++) {
		int a = L->ina[l], b = L->inb[l], o = L->ino[l];
		int64_t *t = NULL;

		if (a && b)
			t = o ? &e->batch : &e->k;
		else if (a && o)
			t = &e->m;
		else if (b && o)
			t = &e->n;
		if (t != NULL && ck_mul(*t, L->size[l], t) < 0) {
			snprintf(why, whysize, "a dim product overflows");
			return -1;
		}
		if (o == 1 && a && b)
			e->lead = L->size[l];
	}
	return 0;
}

int
einsum_view(const char *eq, const struct tensor *a, const struct tensor *b,
    struct einsum *e, char *why, size_t whysize)
{
	struct term ta, tb;
	struct labels L;
	int la[ONNX_MAXRANK], lb[ONNX_MAXRANK], ea, eb, i;
	int64_t sa[ONNX_MAXRANK], sb[ONNX_MAXRANK];
	const char *p = eq;

	memset(e, 0, sizeof(*e));
	memset(&L, 0, sizeof(L));
	if (term(&p, &ta) < 0 || *p != ',' || (p++, term(&p, &tb)) < 0 ||
	    (*p != '\0' && *p != '-')) {
		snprintf(why, whysize, "it does not have two operands");
		return -1;
	}
	if (a == NULL || b == NULL || expand(&ta, a, la, sa, &ea) < 0 ||
	    expand(&tb, b, lb, sb, &eb) < 0) {
		snprintf(why, whysize, "the labels do not match the operand "
		    "ranks");
		return -1;
	}
	L.nell = ea > eb ? ea : eb;
	for (i = 0; i < NL; i++)
		L.size[i] = 1;
	if (operand_sizes(&L, la, sa, a->rank, L.ina, NULL, why, whysize) < 0 ||
	    operand_sizes(&L, lb, sb, b->rank, L.inb, L.ina, why, whysize) < 0)
		return -1;
	if (*p == '-') {
		if (output_explicit(&L, p, e, why, whysize) < 0)
			return -1;
	} else
		output_implicit(&L, e);
	if (output_dims(&L, e, why, whysize) < 0)
		return -1;
	return gemm_view(&L, e, why, whysize);
}
