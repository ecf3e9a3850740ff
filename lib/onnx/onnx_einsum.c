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

int
einsum_view(const char *eq, const struct tensor *a, const struct tensor *b,
    struct einsum *e, char *why, size_t whysize)
{
	struct term ta, tb, to;
	int la[ONNX_MAXRANK], lb[ONNX_MAXRANK], ea, eb, nell, i, l;
	int64_t sa[ONNX_MAXRANK], sb[ONNX_MAXRANK], size[NL];
	int ina[NL] = { 0 }, inb[NL] = { 0 }, ino[NL] = { 0 };
	const char *p = eq;

	memset(e, 0, sizeof(*e));
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
	nell = ea > eb ? ea : eb;
	for (i = 0; i < NL; i++)
		size[i] = 1;
	/* Sizes; a size-1 ellipsis dim broadcasts (absent from it). */
	for (i = 0; i < a->rank; i++) {
		if (ina[la[i]]++) {
			snprintf(why, whysize, "a label repeats in one operand");
			return -1;
		}
		if (la[i] < 52 || sa[i] != 1) {
			size[la[i]] = sa[i];
		} else
			ina[la[i]] = 0;
	}
	for (i = 0; i < b->rank; i++) {
		if (inb[lb[i]]++) {
			snprintf(why, whysize, "a label repeats in one operand");
			return -1;
		}
		if (lb[i] >= 52 && sb[i] == 1) {
			inb[lb[i]] = 0;
			continue;
		}
		if (ina[lb[i]] && size[lb[i]] != sb[i]) {
			snprintf(why, whysize, "a label has sizes %lld and %lld",
			    (long long)size[lb[i]], (long long)sb[i]);
			return -1;
		}
		size[lb[i]] = sb[i];
	}
	if (*p == '-') {
		if (p[1] != '>') {
			snprintf(why, whysize, "'-' is not '->'");
			return -1;
		}
		p += 2;
		if (term(&p, &to) < 0 || *p != '\0') {
			snprintf(why, whysize, "the output term is malformed");
			return -1;
		}
		if (to.ell < 0 && nell > 0) {
			snprintf(why, whysize, "the output drops the '...' dims");
			return -1;
		}
		if (to.n + nell > ONNX_MAXRANK) {
			snprintf(why, whysize, "the output rank is above %d",
			    ONNX_MAXRANK);
			return -1;
		}
		for (i = 0, e->rank = 0; i <= to.n; i++) {
			if (i == to.ell)
				for (l = nell - 1; l >= 0; l--)
					ino[52 + l] = ++e->rank;
			if (i < to.n) {
				if (ino[to.lab[i]] ||
				    (!ina[to.lab[i]] && !inb[to.lab[i]])) {
					snprintf(why, whysize, "an output label "
					    "repeats or is in no operand");
					return -1;
				}
				ino[to.lab[i]] = ++e->rank;
			}
		}
	} else {
		/* Implicit: the ellipsis, then labels seen once, sorted. */
		for (l = nell - 1; l >= 0; l--)
			ino[52 + l] = ++e->rank;
		for (l = 0; l < 52; l++)
			if (ina[l] + inb[l] == 1)
				ino[l] = ++e->rank;
	}
	for (l = 0; l < NL; l++) {
		if (ino[l])
			e->dims[ino[l] - 1] = size[l];
		if (l >= 52 && l - 52 < nell)
			continue;
		if ((ina[l] || inb[l]) && !ino[l] && !(ina[l] && inb[l])) {
			snprintf(why, whysize, "a label is summed over one "
			    "operand only");
			return -1;
		}
	}
	for (l = 52; l < 52 + nell; l++)
		if ((ina[l] || inb[l]) && !ino[l]) {
			snprintf(why, whysize, "the '...' dims are summed");
			return -1;
		}
	e->batch = e->m = e->n = e->k = e->lead = 1;
	for (l = 0; l < NL; l++) {
		int64_t *t = NULL;

		if (ina[l] && inb[l])
			t = ino[l] ? &e->batch : &e->k;
		else if (ina[l] && ino[l])
			t = &e->m;
		else if (inb[l] && ino[l])
			t = &e->n;
		if (t != NULL && ck_mul(*t, size[l], t) < 0) {
			snprintf(why, whysize, "a dim product overflows");
			return -1;
		}
		if (ino[l] == 1 && ina[l] && inb[l])
			e->lead = size[l];
	}
	return 0;
}
