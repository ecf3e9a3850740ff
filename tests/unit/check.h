/*
 * Minimal assertion helpers for the unit tests: each failed check prints
 * file:line and the expression; main() returns the failure count.
 */
#ifndef PF_CHECK_H
#define PF_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int check_failures;

#define CHECK(e) do { \
	if (!(e)) { \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
		    __LINE__, #e); \
		check_failures++; \
	} \
} while (0)

#define CHECK_EQ_I(a, b) do { \
	long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
	if (check_a_ != check_b_) { \
		fprintf(stderr, "%s:%d: check failed: %s == %s (%lld != %lld)\n", \
		    __FILE__, __LINE__, #a, #b, check_a_, check_b_); \
		check_failures++; \
	} \
} while (0)

#define CHECK_DONE() (check_failures == 0 ? 0 : 1)

/*
 * Deterministic pseudo-random integers in [lo, hi] (xorshift64) for the
 * property tests; a test that wants its own sequence sets check_rng first.
 */
static uint64_t check_rng = 88172645463325252ULL;

static inline int64_t
rnd(int64_t lo, int64_t hi)
{
	check_rng ^= check_rng << 13;
	check_rng ^= check_rng >> 7;
	check_rng ^= check_rng << 17;
	return lo + (int64_t)(check_rng % (uint64_t)(hi - lo + 1));
}

/*
 * rel under the source tree ($TOP, else the current folder), in a buffer
 * the next call reuses.
 */
static inline const char *
check_top(const char *rel)
{
	static char buf[4096];
	const char *top = getenv("TOP");

	snprintf(buf, sizeof(buf), "%s/%s", top != NULL ? top : ".", rel);
	return buf;
}

/*
 * What a call reports: stderr goes to an unlinked temporary file from
 * capture_start() to capture_end(), which puts what was written in buf
 * (NUL-terminated, at most n - 1 bytes) and restores stderr.
 */
struct capture {
	int	saved, fd;
};

static inline int
capture_start(struct capture *c)
{
	char path[] = "/tmp/pf_checkXXXXXX";

	fflush(stderr);
	if ((c->fd = mkstemp(path)) < 0)
		return -1;
	unlink(path);
	c->saved = dup(2);
	dup2(c->fd, 2);
	return 0;
}

static inline void
capture_end(struct capture *c, char *buf, size_t n)
{
	ssize_t k;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	lseek(c->fd, 0, SEEK_SET);
	k = read(c->fd, buf, n - 1);
	buf[k < 0 ? 0 : k] = '\0';
	close(c->fd);
}

#endif
