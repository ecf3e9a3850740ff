/*
 * pf-publish: the two ends of pimflow's publishing (pf-publish(1)), each
 * one process instead of the two or three a shell needs.
 *
 * pf-publish -b lock template...: begin.  The file open on standard
 * input, which the caller keeps open for the whole run, is locked (flock,
 * not waiting) and checked to be still the file named lock; then a
 * private folder is made from each template (mkdtemp) and the names
 * printed, one a line.  Exit 3
 * when another process holds the lock, 4 when lock no longer names the
 * file locked (its holder removed it on the way out: open it again).
 *
 * pf-publish [-r path]... newdir target: put a finished result folder in
 * place of an older one in one step.  With an existing target the two
 * are exchanged atomically (renameat2 RENAME_EXCHANGE), so at every
 * instant the target holds either the complete old result or the
 * complete new one, and the old one is left under the new folder's
 * former name; without a target the new folder is renamed, which is
 * atomic too.  Then every -r path is removed with everything in it (a
 * missing one is no error): the old result, the caller's scratch files,
 * its lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "xalloc.h"

enum {
	EXIT_LOCKED = 3,	/* -b: another process holds the lock */
	EXIT_STALE = 4		/* -b: the lock file was removed or replaced */
};

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-r path]... newdir target\n"
	    "       %s -b lock template...\n", pf_progname(), pf_progname());
	exit(PF_EXIT_USAGE);
}

/* -b: lock standard input, check it is still LOCK, make the folders. */
static int
begin(const char *lock, char **templates, int n)
{
	struct stat held, named;
	char **dirs;
	int i, j, rc = PF_EXIT_OK;

	for (i = 0; i < n; i++) {
		size_t len = strlen(templates[i]);

		if (len < 6 || strcmp(templates[i] + len - 6, "XXXXXX") != 0) {
			pf_err(templates[i], "template does not end in XXXXXX");
			return PF_EXIT_USAGE;
		}
	}
	if (flock(STDIN_FILENO, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK)
			return EXIT_LOCKED;
		pf_err(lock, "cannot lock: %s", strerror(errno));
		return PF_EXIT_DATA;
	}
	if (fstat(STDIN_FILENO, &held) != 0) {
		pf_err(lock, "%s", strerror(errno));
		return PF_EXIT_DATA;
	}
	if (stat(lock, &named) != 0 || named.st_dev != held.st_dev ||
	    named.st_ino != held.st_ino)
		return EXIT_STALE;
	dirs = xcalloc((size_t)n, sizeof *dirs);
	for (i = 0; i < n; i++) {
		dirs[i] = xstrdup(templates[i]);
		if (mkdtemp(dirs[i]) == NULL) {
			pf_err(templates[i], "cannot create the folder: %s",
			    strerror(errno));
			/* what was made goes; the lock is ours, its file goes
			 * as at the end of a run */
			for (j = 0; j < i; j++)
				(void)rmdir(dirs[j]);
			(void)unlink(lock);
			rc = PF_EXIT_DATA;
			n = i + 1;
			break;
		}
	}
	for (i = 0; i < n; i++) {
		if (rc == PF_EXIT_OK)
			printf("%s\n", dirs[i]);
		free(dirs[i]);
	}
	free(dirs);
	if (rc == PF_EXIT_OK && pf_close_stdout() < 0)
		rc = PF_EXIT_DATA;
	return rc;
}

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	if ((flag == FTW_DP || flag == FTW_DNR ? rmdir(path) : unlink(path))
	    != 0 && errno != ENOENT) {
		pf_warn(path, "cannot remove: %s", strerror(errno));
	}
	return 0;
}

/* PATH and everything in it, links not followed; missing is fine. */
static void
remove_tree(const char *path)
{
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0 &&
	    errno != ENOENT) {
		pf_warn(path, "cannot remove: %s", strerror(errno));
	}
}

static int
publish(const char *newdir, const char *target)
{
	struct stat st;

	if (lstat(target, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			pf_err(target, "exists and is not a folder: not replaced");
			return PF_EXIT_DATA;
		}
		if (renameat2(AT_FDCWD, newdir, AT_FDCWD, target,
		    RENAME_EXCHANGE) != 0) {
			pf_err(target, "cannot exchange with %s: %s", newdir,
			    strerror(errno));
			return PF_EXIT_DATA;
		}
		return PF_EXIT_OK;
	}
	if (errno != ENOENT) {
		pf_err(target, "%s", strerror(errno));
		return PF_EXIT_DATA;
	}
	/* RENAME_NOREPLACE: a folder that appeared meanwhile is not replaced */
	if (renameat2(AT_FDCWD, newdir, AT_FDCWD, target,
	    RENAME_NOREPLACE) != 0) {
		pf_err(target, "cannot rename %s to it: %s", newdir,
		    strerror(errno));
		return PF_EXIT_DATA;
	}
	return PF_EXIT_OK;
}

int
main(int argc, char **argv)
{
	const char *lock = NULL;
	char **rm;
	int c, nrm = 0, rc;

	pf_setprogname(argv[0]);
	rm = xcalloc((size_t)argc, sizeof *rm);
	while ((c = getopt(argc, argv, "b:r:")) != -1) {
		switch (c) {
		case 'b':
			lock = optarg;
			break;
		case 'r':
			rm[nrm++] = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (lock != NULL) {
		if (argc < 1 || nrm > 0)
			usage();
		free(rm);
		return begin(lock, argv, argc);
	}
	if (argc != 2)
		usage();
	rc = publish(argv[0], argv[1]);
	/* the removals only once the result is in place; a leftover is a
	 * warning: the result is published */
	for (c = 0; rc == PF_EXIT_OK && c < nrm; c++)
		remove_tree(rm[c]);
	free(rm);
	return rc;
}
