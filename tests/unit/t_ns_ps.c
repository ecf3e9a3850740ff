/*
 * merge_ns_to_ps (solve_merge.h) reads the common "digits.ddd" form by hand:
 * on random and edge-case strings, valid or not, it must return what the
 * general parse (task_ns_to_ps, csvio_parse_double then llround) returns, the
 * same status and the same picoseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "solve_merge.h"
#include "task.h"

static int bad;

static void
same(const char *s)
{
	long long a = -7, b = -7;
	int ra = merge_ns_to_ps(s, &a), rb = task_ns_to_ps(s, MERGE_PIECE_MAX_NS, &b);

	if (ra != rb || (ra == 0 && a != b)) {
		if (bad++ < 10)
			fprintf(stderr, "'%s': %d %lld, want %d %lld\n", s, ra,
			    a, rb, b);
	}
}

int
main(void)
{
	static const char *const edge[] = { "", "0", "0.", ".5", "5.", "1.2",
	    "1.23", "1.234", "1.2345", "000.001", "-0", "-0.000", "+1.5",
	    "1e3", "1.5e2", "999999999999", "999999999999.999",
	    "1000000000000", "9000000000000", "9000000000000.001",
	    "12345678901234", "1..2", "1.2.3", "a", "1a", " 1", "1 ", "inf",
	    "nan", "0x10", "18446744073709551616", NULL };
	char s[64];
	int i, k, n;

	for (i = 0; edge[i] != NULL; i++)
		same(edge[i]);
	for (i = 0; i < 200000; i++) {
		n = 0;
		if (rnd(0, 20) == 0)
			s[n++] = "+-"[rnd(0, 1)];
		for (k = (int)rnd(0, 14); k > 0; k--)
			s[n++] = (char)('0' + rnd(0, 9));
		if (rnd(0, 3) > 0) {
			s[n++] = '.';
			for (k = (int)rnd(0, 5); k > 0; k--)
				s[n++] = (char)('0' + rnd(0, 9));
		}
		if (rnd(0, 30) == 0)
			s[n++] = "e.x- "[rnd(0, 4)];
		if (rnd(0, 30) == 0)
			s[n++] = (char)('0' + rnd(0, 9));
		s[n] = '\0';
		same(s);
	}
	CHECK_EQ_I(bad, 0);
	return CHECK_DONE();
}
