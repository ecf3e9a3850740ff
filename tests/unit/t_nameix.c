/*
 * Unit tests of the name index: lookups against a plain list searched
 * name by name, through growth, clearing and names whose hashes collide
 * in the slot bits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nameix.h"
#include "check.h"

#define N	5000

static char names[N][16];

/* The index of s among names[0..n) by a plain search, or -1. */
static long
plain(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return (long)i;
	return -1;
}

int
main(void)
{
	struct nameix ix = { 0 };
	char buf[16];
	size_t i, n = 0;
	long want;

	CHECK_EQ_I(nameix_find(&ix, "a"), -1);
	/* names drawn from few letters repeat: each add against the list */
	for (i = 0; i < N; i++) {
		snprintf(buf, sizeof(buf), "t%d", (int)rnd(0, 3000));
		want = plain(buf, n);
		if (want < 0) {
			memcpy(names[n], buf, sizeof(buf));
			CHECK_EQ_I(nameix_add(&ix, names[n], n), -1);
			n++;
		} else
			CHECK_EQ_I(nameix_add(&ix, buf, 99999), want);
	}
	CHECK_EQ_I(ix.n, n);
	CHECK(2 * ix.n <= ix.cap);
	for (i = 0; i <= 3000; i++) {
		snprintf(buf, sizeof(buf), "t%d", (int)i);
		CHECK_EQ_I(nameix_find(&ix, buf), plain(buf, n));
		CHECK_EQ_I(nameix_findh(&ix, buf, nameix_hash(buf)),
		    plain(buf, n));
	}
	CHECK_EQ_I(nameix_find(&ix, ""), -1);
	CHECK_EQ_I(nameix_find(&ix, "t"), -1);

	/* cleared: every name gone; a table left far too large given back */
	nameix_clear(&ix);
	CHECK_EQ_I(ix.n, 0);
	CHECK(ix.cap >= 2 * n);
	CHECK_EQ_I(nameix_find(&ix, names[0]), -1);
	CHECK_EQ_I(nameix_add(&ix, names[1], 7), -1);
	CHECK_EQ_I(nameix_find(&ix, names[1]), 7);
	CHECK_EQ_I(nameix_find(&ix, names[0]), -1);
	nameix_clear(&ix);
	CHECK_EQ_I(ix.cap, 16);
	CHECK_EQ_I(nameix_find(&ix, names[1]), -1);
	CHECK_EQ_I(nameix_add(&ix, names[2], 3), -1);
	CHECK_EQ_I(nameix_find(&ix, names[2]), 3);

	/* one hash for every name: probes decide by the names alone */
	nameix_free(&ix);
	nameix_reserve(&ix, 100);
	CHECK(ix.cap >= 200);
	for (i = 0; i < 100; i++)
		CHECK_EQ_I(nameix_addh(&ix, names[i], 42, i), -1);
	for (i = 0; i < 100; i++) {
		CHECK_EQ_I(nameix_findh(&ix, names[i], 42), i);
		CHECK_EQ_I(nameix_addh(&ix, names[i], 42, 0), i);
	}
	CHECK_EQ_I(nameix_findh(&ix, names[100], 42), -1);
	nameix_free(&ix);
	CHECK(ix.slot == NULL && ix.cap == 0 && ix.n == 0);
	return CHECK_DONE();
}
