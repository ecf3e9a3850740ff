/*
 * CSV tables, the numbers: cells formatted by hand (the cost tools write
 * millions of them) and read by the project's one rule for numbers
 * (integers where a column is a count, finite decimals where it is a
 * time, pf-formats(7)).
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvio.h"
#include "diag.h"

/* Decimal digits of u before end; returns where they start. */
static char *
udigits(char *end, uint64_t u)
{
	do {
		*--end = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	return end;
}

void
table_setint(struct table *t, size_t row, size_t col, int64_t v)
{
	uint64_t x, u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n = 1 + (v < 0);
	char *p;

	/* the digits written in place, from the last */
	for (x = u; x >= 10; x /= 10)
		n++;
	p = table_setplain(t, row, col, n) + n;
	p = udigits(p, u);
	if (v < 0)
		*--p = '-';
}

int
table_fmtfix(char *buf, size_t size, double v, int digits)
{
	static const double scale[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6 };
	char tmp[48], *p;
	double a = fabs(v), d, x, e, k, f;
	uint64_t u;
	size_t n;
	int i;

	/*
	 * What printf("%.*f") writes: the exact value of v rounded to
	 * digits decimals, ties to even.  x + e is 10^digits * |v| exactly
	 * (the fma gives the product's rounding error), so only a fraction
	 * of exactly one half needs e to decide.  Beyond 2^53 / 10^digits
	 * (and for NaN or infinities) printf itself.
	 */
	if (digits < 0 || digits > 6 ||
	    !(a < 9007199254740992.0 / scale[digits]))
		return snprintf(buf, size, "%.*f", digits, v);
	d = scale[digits];
	x = a * d;
	e = fma(a, d, -x);
	k = floor(x);
	f = x - k;
	if (f > 0.5 || (f == 0.5 && (e > 0 || (e == 0 &&
	    fmod(k, 2) != 0))))
		k += 1;
	u = (uint64_t)k;
	p = tmp + sizeof(tmp);
	for (i = 0; i < digits; i++) {
		*--p = (char)('0' + u % 10);
		u /= 10;
	}
	if (digits > 0)
		*--p = '.';
	p = udigits(p, u);
	if (signbit(v))
		*--p = '-';
	n = (size_t)(tmp + sizeof(tmp) - p);
	if (size > 0) {
		size_t m = n < size - 1 ? n : size - 1;

		memcpy(buf, p, m);
		buf[m] = '\0';
	}
	return (int)n;
}

int
table_fmtns(char *buf, size_t size, double v)
{
	return table_fmtfix(buf, size, v, 3);
}

void
table_setfix(struct table *t, size_t row, size_t col, double v, int digits)
{
	char buf[512];
	int n = table_fmtfix(buf, sizeof(buf), v, digits);
	size_t len = (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1;

	/* digits, a sign and a point; "inf" or "nan" at worst */
	if (len > 0)
		memcpy(table_setplain(t, row, col, len), buf, len);
	else
		table_setn(t, row, col, "", 0);
}

void
table_setns(struct table *t, size_t row, size_t col, double v)
{
	char buf[512];
	int n = table_fmtns(buf, sizeof(buf), v);
	size_t len = (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1;

	/* digits, a sign and a point; "inf" or "nan" at worst */
	if (len > 0)
		memcpy(table_setplain(t, row, col, len), buf, len);
	else
		table_setn(t, row, col, "", 0);
}

int
parse_int64(const char *s, int64_t *v)
{
	const unsigned char *p;
	char *end;
	long long x;
	int64_t u;
	unsigned d;
	int n;

	if (s == NULL)
		return -1;
	/* up to 18 digits cannot overflow: no strtoll for them */
	p = (const unsigned char *)s + (*s == '-' || *s == '+');
	if ((d = (unsigned)*p - '0') <= 9) {
		u = d;
		for (n = 1; n < 18 && (d = (unsigned)p[n] - '0') <= 9; n++)
			u = u * 10 + d;
		if (p[n] == '\0') {
			*v = *s == '-' ? -u : u;
			return 0;
		}
	}
	/* (strtoll would skip white space) */
	if (*s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*v = x;
	return 0;
}

int
parse_optint(const char *s, int opt, int64_t lo, int64_t hi,
    const char *what, int64_t *v)
{
	if (parse_int64(s, v) < 0 || *v < lo || *v > hi) {
		pf_err(NULL, "-%c: bad %s '%s'", opt, what, s);
		return -1;
	}
	return 0;
}

/*
 * The decimal syntax of pf-formats(7): [+-] digits [. digits] [e|E [+-]
 * digits], at least one digit before the exponent.  strtod alone also
 * takes hexadecimal ("0x1p4"), "inf", "nan" and "infinity".
 */
static int
is_decimal(const char *s)
{
	int digits = 0;

	if (*s == '+' || *s == '-')
		s++;
	for (; isdigit((unsigned char)*s); s++)
		digits++;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			digits++;
	if (digits == 0)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return 0;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return *s == '\0';
}

/*
 * Clinger's fast path for a decimal is_decimal has passed: at most 15
 * significant digits and no exponent make an integer below 2^53 over a
 * power of ten up to 10^22, both exact in a double, so their one rounded
 * quotient is the correctly rounded value strtod returns.  0 with *v, or
 * -1 for strtod to do it.
 */
static int
fast_decimal(const char *s, double *v)
{
#if FLT_EVAL_METHOD == 0
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
	    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
	    1e19, 1e20, 1e21, 1e22 };
	uint64_t m = 0;
	int neg = 0, nd = 0, frac = 0;
	double x;

	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	for (; *s >= '0' && *s <= '9'; s++) {
		if (m > 0 || *s != '0')
			nd++;
		m = m * 10 + (uint64_t)(*s - '0');
		if (nd > 15)
			return -1;
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++) {
			if (m > 0 || *s != '0')
				nd++;
			m = m * 10 + (uint64_t)(*s - '0');
			if (nd > 15 || ++frac > 22)
				return -1;
		}
	if (*s != '\0')
		return -1;
	x = (double)m / p10[frac];
	*v = neg ? -x : x;
	return 0;
#else
	(void)s;
	(void)v;
	return -1;
#endif
}

int
parse_double(const char *s, double *v)
{
	char *end;
	double x;

	if (s == NULL || *s == '\0' || !is_decimal(s))
		return -1;
	if (fast_decimal(s, v) == 0)
		return 0;
	errno = 0;
	x = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(x))
		return -1;
	*v = x;
	return 0;
}

long
table_line(const struct table *t, size_t row)
{
	return t->line[row] > 0 ? t->line[row] : (long)row + 2;
}

int
table_int(const struct table *t, size_t row, size_t col, int64_t *v)
{
	const char *s = table_get(t, row, col);

	if (*s == '\0') {
		pf_errl(t->fname, table_line(t, row), "column '%s': empty field",
		    t->cols[col]);
		return -1;
	}
	if (parse_int64(s, v) < 0) {
		pf_errl(t->fname, table_line(t, row),
		    "column '%s': not an integer: '%s'", t->cols[col], s);
		return -1;
	}
	return 0;
}

int
table_dbl(const struct table *t, size_t row, size_t col, double *v)
{
	const char *s = table_get(t, row, col);

	if (*s == '\0') {
		pf_errl(t->fname, table_line(t, row), "column '%s': empty field",
		    t->cols[col]);
		return -1;
	}
	if (parse_double(s, v) < 0) {
		pf_errl(t->fname, table_line(t, row),
		    "column '%s': not a number: '%s'", t->cols[col], s);
		return -1;
	}
	return 0;
}

int
table_int_opt(const struct table *t, size_t row, size_t col, int64_t def,
    int64_t *v)
{
	if (*table_get(t, row, col) == '\0') {
		*v = def;
		return 0;
	}
	return table_int(t, row, col, v);
}

int
table_dbl_opt(const struct table *t, size_t row, size_t col, double def,
    double *v)
{
	if (*table_get(t, row, col) == '\0') {
		*v = def;
		return 0;
	}
	return table_dbl(t, row, col, v);
}

int
table_int_in(const struct table *t, size_t row, size_t col, int64_t lo,
    int64_t hi, int64_t *v)
{
	if (table_int(t, row, col, v) < 0)
		return -1;
	if (*v < lo || *v > hi) {
		pf_errl(t->fname, table_line(t, row), "column '%s': must be "
		    "%lld to %lld, not '%s'", t->cols[col], (long long)lo,
		    (long long)hi, table_get(t, row, col));
		return -1;
	}
	return 0;
}

int
table_dbl_in(const struct table *t, size_t row, size_t col, double lo,
    double hi, double *v)
{
	if (table_dbl(t, row, col, v) < 0)
		return -1;
	if (*v < lo || *v > hi) {
		pf_errl(t->fname, table_line(t, row), "column '%s': must be "
		    "%g to %g, not '%s'", t->cols[col], lo, hi,
		    table_get(t, row, col));
		return -1;
	}
	return 0;
}
