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
#include "csvio_arena.h"
#include "diag.h"

/* "00" to "99": the digits are made two at a time. */
static const char dig2[201] =
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Decimal digits of u before end; returns where they start. */
static char *
udigits(char *end, uint64_t u)
{
	while (u >= 100) {
		end -= 2;
		memcpy(end, dig2 + 2 * (u % 100), 2);
		u /= 100;
	}
	if (u >= 10) {
		end -= 2;
		memcpy(end, dig2 + 2 * u, 2);
	} else
		*--end = (char)('0' + u);
	return end;
}

void
csvio_setint(struct table *t, size_t row, size_t col, int64_t v)
{
	static const uint64_t p10[] = { 1, 10, 100, 1000, 10000, 100000,
	    1000000, 10000000, 100000000, 1000000000, 10000000000,
	    100000000000, 1000000000000, 10000000000000, 100000000000000,
	    1000000000000000, 10000000000000000, 100000000000000000,
	    1000000000000000000, 10000000000000000000u };
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n = 1;
	char *p;

	/* the digits written in place, from the last */
	while (n < 20 && u >= p10[n])
		n++;
	n += v < 0;
	csvio_touch(t, row, col);
	p = csvio_celltext(t, n, 1);
	t->cells[row * t->stride + col] = p;
	p = udigits(p + n, u);
	if (v < 0)
		*--p = '-';
}

/*
 * What printf("%.*f", digits, v) writes, made before end: returns where
 * it starts, or NULL past the range done here (|v| from 2^53 / 10^digits
 * on, NaN, infinities, digits outside 0 to 6), left to printf.
 */
static char *
fixdigits(char *end, double v, int digits)
{
	/* 2^53 / 10^digits, below which 10^digits * |v| has an exact floor */
	static const double lim[] = { 9007199254740992.0,
	    9007199254740992.0 / 10, 9007199254740992.0 / 100,
	    9007199254740992.0 / 1e3, 9007199254740992.0 / 1e4,
	    9007199254740992.0 / 1e5, 9007199254740992.0 / 1e6 };
	static const double scale[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6 };
	double a = fabs(v), d, x, f;
	uint64_t u;
	char *p = end;
	int i;

	/*
	 * The exact value of v rounded to digits decimals, ties to even.
	 * x = 10^digits * |v| rounded, u its floor (x < 2^53: the cast is
	 * exact), f the fraction, exact too; only a fraction of exactly one
	 * half needs the product's rounding error e (the fma) to decide.
	 */
	if (digits < 0 || digits > 6 || !(a < lim[digits]))
		return NULL;
	d = scale[digits];
	x = a * d;
	u = (uint64_t)x;
	f = x - (double)u;
	if (f > 0.5 || (f == 0.5 && (fma(a, d, -x) > 0 ||
	    (fma(a, d, -x) == 0 && (u & 1) != 0))))
		u++;
	for (i = digits; i >= 2; i -= 2) {
		p -= 2;
		memcpy(p, dig2 + 2 * (u % 100), 2);
		u /= 100;
	}
	if (i > 0) {
		*--p = (char)('0' + u % 10);
		u /= 10;
	}
	if (digits > 0)
		*--p = '.';
	p = udigits(p, u);
	if (signbit(v))
		*--p = '-';
	return p;
}

int
csvio_fmtfix(char *buf, size_t size, double v, int digits)
{
	char tmp[48], *p;
	size_t n;

	if ((p = fixdigits(tmp + sizeof(tmp), v, digits)) == NULL)
		return snprintf(buf, size, "%.*f", digits, v);
	n = (size_t)(tmp + sizeof(tmp) - p);
	if (size > 0) {
		size_t m = n < size - 1 ? n : size - 1;

		memcpy(buf, p, m);
		buf[m] = '\0';
	}
	return (int)n;
}

int
csvio_fmtns(char *buf, size_t size, double v)
{
	return csvio_fmtfix(buf, size, v, 3);
}

void
csvio_setfix(struct table *t, size_t row, size_t col, double v, int digits)
{
	char buf[512], *p, *c;
	size_t len;
	int n;

	/* digits, a sign and a point; "inf" or "nan" at worst */
	if ((p = fixdigits(buf + sizeof(buf), v, digits)) != NULL)
		len = (size_t)(buf + sizeof(buf) - p);
	else {
		n = snprintf(buf, sizeof(buf), "%.*f", digits, v);
		len = (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1;
		p = buf;
	}
	if (len > 0) {
		c = csvio_celltext(t, len, 1);
		csvio_touch(t, row, col);
		t->cells[row * t->stride + col] = c;
		csvio_copyshort(c, p, len);
	} else
		csvio_setn(t, row, col, "", 0);
}

void
csvio_setns(struct table *t, size_t row, size_t col, double v)
{
	csvio_setfix(t, row, col, v, 3);
}

/*
 * csvio_parse_int64's fast path: an optional sign and up to 18 digits, which
 * cannot overflow (each byte tested once: unsigned difference from '0';
 * a longer run wraps harmlessly and is refused).  0 with *v, or -1 for
 * the general path.
 */
static inline int
int64_fast(const char *s, int64_t *v)
{
	uint64_t neg = *s == '-', u;
	const unsigned char *p = (const unsigned char *)s + (neg || *s == '+');
	const unsigned char *q = p + 1;
	unsigned d;

	if ((u = (unsigned)*p - '0') > 9)
		return -1;
	for (; (d = (unsigned)*q - '0') <= 9; q++)
		u = u * 10 + d;
	if (*q != '\0' || q - p > 18)
		return -1;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

/* csvio_parse_int64 past its fast path: strtoll, without its white space. */
static int
int64_slow(const char *s, int64_t *v)
{
	char *end;
	long long x;

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
csvio_parse_int64(const char *s, int64_t *v)
{
	if (s == NULL)
		return -1;
	return int64_fast(s, v) == 0 ? 0 : int64_slow(s, v);
}

int
csvio_parse_int_in(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
	return csvio_parse_int64(s, v) < 0 || *v < lo || *v > hi ? -1 : 0;
}

int
csvio_parse_optint(const char *s, int opt, int64_t lo, int64_t hi,
    const char *what, int64_t *v)
{
	if (csvio_parse_int_in(s, lo, hi, v) < 0) {
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

/* The powers of ten exact in a double. */
static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
    1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22 };

/*
 * Clinger's fast path, in one pass: [+-] digits [. digits], at least one
 * digit, at most 15 significant and 22 after the point, no exponent, make
 * an integer below 2^53 over a power of ten up to 10^22, both exact in a
 * double, so their one rounded quotient is the correctly rounded value
 * strtod returns.  0 with *v, or -1 for the general path (is_decimal,
 * then strtod), which then refuses or takes it.
 */
static int
double_fast(const char *s, double *v)
{
#if FLT_EVAL_METHOD == 0
	const unsigned char *p = (const unsigned char *)s +
	    (*s == '-' || *s == '+');
	const unsigned char *q = p, *f = NULL;
	uint64_t m = 0;
	unsigned d;
	int nd = 0;
	double x;

	/* (past 15 significant digits m wraps harmlessly: refused below) */
	for (; (d = (unsigned)*p - '0') <= 9; p++) {
		m = m * 10 + d;
		nd += m != 0;
	}
	if (*p == '.')
		for (f = ++p; (d = (unsigned)*p - '0') <= 9; p++) {
			m = m * 10 + d;
			nd += m != 0;
		}
	if (*p != '\0' || nd > 15 || p - q - (f != NULL) == 0 ||
	    (f != NULL && p - f > 22))
		return -1;
	x = (double)m / p10[f != NULL ? p - f : 0];
	*v = *s == '-' ? -x : x;
	return 0;
#else
	(void)s;
	(void)v;
	return -1;
#endif
}

int
csvio_parse_double(const char *s, double *v)
{
	char *end;
	double x;

	if (s == NULL)
		return -1;
	if (double_fast(s, v) == 0)
		return 0;
	if (*s == '\0' || !is_decimal(s))
		return -1;
	errno = 0;
	x = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(x))
		return -1;
	*v = x;
	return 0;
}

int
csvio_parse_double_in(const char *s, double lo, double hi, double *v)
{
	return csvio_parse_double(s, v) < 0 || !(*v >= lo && *v <= hi) ? -1 :
	    0;
}

long
csvio_line(const struct table *t, size_t row)
{
	return t->line[row] > 0 ? t->line[row] : (long)row + 2;
}

/*
 * Cell (row, col), which did not read as what (a kind of number): an
 * empty field or a bad one reported; -1.
 */
static int
badnum(const struct table *t, size_t row, size_t col, const char *what)
{
	const char *s = csvio_get(t, row, col);

	if (*s == '\0')
		pf_errl(t->fname, csvio_line(t, row), "column '%s': empty field",
		    t->cols[col]);
	else
		pf_errl(t->fname, csvio_line(t, row),
		    "column '%s': not %s: '%s'", t->cols[col], what, s);
	return -1;
}

/*
 * csvio_int past its fast path, out of line so that the fast path saves
 * no registers.
 */
static int __attribute__((noinline))
int_slow(const struct table *t, size_t row, size_t col, int64_t *v)
{
	const char *s = csvio_get(t, row, col);

	if (*s != '\0' && int64_slow(s, v) == 0)
		return 0;
	return badnum(t, row, col, "an integer");
}

int
csvio_int(const struct table *t, size_t row, size_t col, int64_t *v)
{
	const char *s = t->cells[row * t->stride + col];

	if (s != NULL && int64_fast(s, v) == 0)
		return 0;
	return int_slow(t, row, col, v);
}

int
csvio_dbl(const struct table *t, size_t row, size_t col, double *v)
{
	const char *s = csvio_get(t, row, col);

	if (*s != '\0' && csvio_parse_double(s, v) == 0)
		return 0;
	return badnum(t, row, col, "a number");
}

int
csvio_int_opt(const struct table *t, size_t row, size_t col, int64_t def,
    int64_t *v)
{
	if (*csvio_get(t, row, col) == '\0') {
		*v = def;
		return 0;
	}
	return csvio_int(t, row, col, v);
}

int
csvio_dbl_opt(const struct table *t, size_t row, size_t col, double def,
    double *v)
{
	if (*csvio_get(t, row, col) == '\0') {
		*v = def;
		return 0;
	}
	return csvio_dbl(t, row, col, v);
}

/*
 * Cell (row, col), read, lies outside its range "lo to hi" (the bounds as
 * the column's kind of number prints them): reported; -1.
 */
static int
outside(const struct table *t, size_t row, size_t col, const char *range)
{
	pf_errl(t->fname, csvio_line(t, row), "column '%s': must be %s, not "
	    "'%s'", t->cols[col], range, csvio_get(t, row, col));
	return -1;
}

int
csvio_int_in(const struct table *t, size_t row, size_t col, int64_t lo,
    int64_t hi, int64_t *v)
{
	char range[48];

	if (csvio_int(t, row, col, v) < 0)
		return -1;
	if (*v >= lo && *v <= hi)
		return 0;
	snprintf(range, sizeof(range), "%lld to %lld", (long long)lo,
	    (long long)hi);
	return outside(t, row, col, range);
}

int
csvio_dbl_in(const struct table *t, size_t row, size_t col, double lo,
    double hi, double *v)
{
	char range[64];

	if (csvio_dbl(t, row, col, v) < 0)
		return -1;
	if (*v >= lo && *v <= hi)
		return 0;
	snprintf(range, sizeof(range), "%g to %g", lo, hi);
	return outside(t, row, col, range);
}
