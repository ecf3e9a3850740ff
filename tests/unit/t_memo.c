/*
 * lib/memo: what is put is got back under its key, bytes for bytes; a
 * key never put is not found; past MEMO_MAX entries the memo starts again
 * (bounded memory) and still answers right for what it holds.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "memo.h"

struct key {
	int64_t	a, b;
	char	s[5];
};

static void
mkkey(struct key *k, int64_t i)
{
	memset(k, 0, sizeof(*k));
	k->a = i;
	k->b = i * 7 - 3;
	k->s[i % 5] = (char)('a' + i % 26);
}

int
main(void)
{
	struct memo *m = memo_new(sizeof(struct key), sizeof(int64_t));
	struct key k;
	const int64_t *v;
	int64_t i, x, n = 0;

	mkkey(&k, 1);
	CHECK(memo_get(m, &k) == NULL);
	for (i = 0; i < 20000; i++) {
		mkkey(&k, i);
		x = i * i;
		memo_put(m, &k, &x);
	}
	for (i = 0; i < 20000; i++) {
		mkkey(&k, i);
		v = memo_get(m, &k);
		CHECK(v != NULL && *v == i * i);
	}
	/* one byte of the key differs: another key */
	mkkey(&k, 5);
	k.s[4] ^= 1;
	CHECK(memo_get(m, &k) == NULL);
	mkkey(&k, 20000);
	CHECK(memo_get(m, &k) == NULL);
	/* past MEMO_MAX it starts again: what it holds is still right */
	for (i = 20000; i < MEMO_MAX + 30000; i++) {
		mkkey(&k, i);
		x = i * i;
		memo_put(m, &k, &x);
	}
	for (i = 0; i < MEMO_MAX + 30000; i++) {
		mkkey(&k, i);
		if ((v = memo_get(m, &k)) != NULL) {
			CHECK(*v == i * i);
			n++;
		}
	}
	CHECK(n > 0 && n <= MEMO_MAX);
	mkkey(&k, MEMO_MAX + 29999);
	CHECK(memo_get(m, &k) != NULL);
	memo_free(m);
	memo_free(NULL);
	return CHECK_DONE();
}
