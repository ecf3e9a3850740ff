/*
 * csvio_fmtns, csvio_fmtfix and csvio_setint against printf: the cost
 * tools' numbers are formatted by hand, and must be byte for byte what
 * "%.3f", "%.*f" (0 to 6 digits) and PRId64 give (ties at exactly half a
 * unit of the last digit to even, negative zero, values past the fast
 * range), on values of every magnitude; and csvio_parse_double's own reading
 * of short decimals against strtod.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvio.h"

static int bad;

static void
one(double v)
{
	char a[512], b[512];
	int na = csvio_fmtns(a, sizeof(a), v);
	int nb = snprintf(b, sizeof(b), "%.3f", v);

	if (na != nb || strcmp(a, b) != 0) {
		if (bad++ < 10)
			fprintf(stderr, "%.17g: '%s', printf '%s'\n", v, a, b);
	}
}

/* csvio_fmtfix with every number of digits it takes. */
static void
fix(double v)
{
	char a[512], b[512];
	int d, na, nb;

	for (d = 0; d <= 6; d++) {
		na = csvio_fmtfix(a, sizeof(a), v, d);
		nb = snprintf(b, sizeof(b), "%.*f", d, v);
		if ((na != nb || strcmp(a, b) != 0) && bad++ < 10)
			fprintf(stderr, "%.17g, %d digits: '%s', printf '%s'\n",
			    v, d, a, b);
	}
}

int
main(void)
{
	static const double fixed[] = { 0, -0.0, 0.0005, 0.0015, 0.0025,
	    1.0005, 2.5e-4, 0.00049999999999999999, 1e-300, 4.9e-324,
	    999.9995, 999.9985, 123456789.0005, 9007199254739.999,
	    9007199254740.0, 9007199254741.5, 1e15, 1e300, -1e300, -0.0004,
	    -0.0005, -0.0015, -12.3456, 0.1, 0.7, 1.0625, 1.1875 };
	struct table t;
	char buf[64];
	size_t i, r, c;
	int k;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		one(fixed[i]);
		one(-fixed[i]);
		fix(fixed[i]);
		fix(-fixed[i]);
	}
	fix(9007199254.7409915);	/* past 2^53 / 1e6: printf's own */
	fix(0.0000005);
	fix(0.0000015);
	fix(2.5);
	fix(3.5);
	one(INFINITY);
	one(-INFINITY);
	one(NAN);
	/* Every magnitude, and values at exact halves of a thousandth. */
	for (k = 0; k < 200000; k++) {
		double m = (double)rnd(0, 1 << 30) / (1 << 30);
		double v = ldexp(m, (int)rnd(-40, 50));

		one(v);
		one(-v);
		one((double)rnd(0, 1000000000) / 1000 + 0.0005);
		one((double)rnd(0, 4000000) / 8);	/* k/8: exact ties */
		one(nextafter((double)rnd(0, 1000000) / 1000 + 0.0005, 0));
		if (k % 4 == 0) {
			fix(v);
			fix((double)rnd(0, 1000000000) / 1000000 + 0.0000005);
			fix((double)rnd(0, 4000000) / 64);	/* exact ties */
			fix((double)rnd(0, 100000) + 0.5);
		}
	}
	CHECK_EQ_I(bad, 0);

	/*
	 * csvio_parse_double takes decimals of up to 15 digits without strtod:
	 * the same double, bit for bit, as strtod on every length, leading
	 * zeros, signs, and fractions of up to 22 digits (past those, strtod).
	 */
	for (k = 0; k < 400000; k++) {
		char in[64];
		double a, b;
		int nd = (int)rnd(1, 18), fr = (int)rnd(0, 24), j, n = 0;

		if (k % 3 == 0)
			in[n++] = k % 2 ? '-' : '+';
		for (j = 0; j < (int)rnd(0, 3) && k % 5 == 0; j++)
			in[n++] = '0';
		for (j = 0; j < nd; j++) {
			if (j == nd - fr && j > 0)
				in[n++] = '.';
			in[n++] = (char)('0' + (j == 0 && k % 7 ? rnd(1, 9) : rnd(0, 9)));
		}
		in[n] = '\0';
		if (csvio_parse_double(in, &a) < 0 || (b = strtod(in, NULL),
		    memcmp(&a, &b, sizeof(a)) != 0)) {
			if (bad++ < 10)
				fprintf(stderr, "csvio_parse_double '%s': %.17g, strtod %.17g\n",
				    in, a, strtod(in, NULL));
		}
	}
	CHECK_EQ_I(bad, 0);
	{
		static const char *const edge[] = { "0", "-0", "+0.000",
		    "999999999999999", "9999999999999999", "0.1", "0.3",
		    "123456789012345.6", "1.0000000000000000000001",
		    "0.0000000000000000000001", "9007199254740993",
		    "4503599627370497.5", "13965.568", "-0.0", "5.", ".5",
		    "-.5", "+5.", "000000000000000000000001.5",
		    "1.0000000000000000000000", "0.1000000000000000000000",
		    "123456789012345", "-123456789012345.0", "1e5", "1.5E-3",
		    "-0" };
		double a, b;

		for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
			CHECK(csvio_parse_double(edge[i], &a) == 0);
			b = strtod(edge[i], NULL);
			CHECK(memcmp(&a, &b, sizeof(a)) == 0);
		}
	}
	{
		/* refused, on the fast path or past it */
		static const char *const no[] = { "", "+", "-", ".", "-.",
		    "+.e1", "1..5", "1.5.", "1.5x", "x1", " 1", "1 ", "0x10",
		    "inf", "nan", "-infinity", "1e", "1e+", "--1", "+-1",
		    "1,5", "1e400", "5.e", "\t1" };
		double a;

		for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
			CHECK(csvio_parse_double(no[i], &a) == -1);
	}

	/* Integers, through a table. */
	csvio_init(&t, "t");
	c = csvio_addcol(&t, "v");
	for (k = 0; k < 2000; k++) {
		int64_t v = k == 0 ? INT64_MIN : k == 1 ? INT64_MAX :
		    k == 2 ? 0 : (int64_t)(rnd(0, INT64_MAX / 2) >> rnd(0, 62)) *
		    (rnd(0, 1) ? 1 : -1);

		r = csvio_addrow(&t);
		csvio_setint(&t, r, c, v);
		snprintf(buf, sizeof(buf), "%" PRId64, v);
		CHECK(strcmp(csvio_get(&t, r, c), buf) == 0);
	}
	/*
	 * csvio_setns and csvio_setfix write their cells without
	 * csvio_fmtfix's buffer: the same text as printf, through a table.
	 */
	for (k = 0; k < 20000; k++) {
		static const double odd[] = { 0, -0.0, -0.0004, 0.0005, 2.5,
		    9007199254740.0, 9007199254741.5, 1e300, -1e300,
		    INFINITY, -INFINITY, NAN };
		double v = k < (int)(sizeof(odd) / sizeof(odd[0])) ? odd[k] :
		    k % 3 == 0 ? (double)rnd(-4000000, 4000000) / 64 :
		    ldexp((double)rnd(0, 1 << 30) / (1 << 30),
		    (int)rnd(-40, 60)) * (k % 2 ? -1 : 1);
		int d = (int)(k % 7);
		char want[512];

		r = csvio_addrow(&t);
		csvio_setns(&t, r, c, v);
		snprintf(want, sizeof(want), "%.3f", v);
		if (strcmp(csvio_get(&t, r, c), want) != 0 && bad++ < 10)
			fprintf(stderr, "setns %.17g: '%s', printf '%s'\n", v,
			    csvio_get(&t, r, c), want);
		csvio_setfix(&t, r, c, v, d);
		snprintf(want, sizeof(want), "%.*f", d, v);
		if (strcmp(csvio_get(&t, r, c), want) != 0 && bad++ < 10)
			fprintf(stderr, "setfix %.17g, %d: '%s', printf '%s'\n",
			    v, d, csvio_get(&t, r, c), want);
	}
	CHECK_EQ_I(bad, 0);
	/* setns through a table, and cells written twice. */
	r = csvio_addrow(&t);
	csvio_setns(&t, r, c, 2.0005);
	CHECK(strcmp(csvio_get(&t, r, c), "2.000") == 0 ||
	    strcmp(csvio_get(&t, r, c), "2.001") == 0);
	snprintf(buf, sizeof(buf), "%.3f", 2.0005);
	CHECK(strcmp(csvio_get(&t, r, c), buf) == 0);
	csvio_set(&t, r, c, "x");
	CHECK(strcmp(csvio_get(&t, r, c), "x") == 0);
	CHECK(strcmp(csvio_get(&t, csvio_addrow(&t), c), "") == 0);
	csvio_free(&t);
	return CHECK_DONE();
}
