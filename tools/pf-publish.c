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
 * pf-publish -s lock template... target: both, one process for a whole
 * run (pimflow's coprocess).  The lock file is opened and locked here
 * (again when it proves stale, twice at most), held until the end, the
 * folders made and their names printed; then standard input is read to
 * its end: "publish\n" puts the first folder in place of target (as
 * below) and removes the old result, the other folders and the lock
 * file; anything else, the caller's end without a word included, removes
 * the folders and the lock file.  INT, TERM and HUP are ignored: the end
 * of standard input decides, so whatever ends the caller, its folders go.
 * Exit 3 (locked) and 4 (still stale) as -b, 5 when the lock file cannot
 * be opened, each saying nothing, 1 when a folder cannot be made: each
 * printed as an empty line and the status, and given once the caller's
 * input has ended; after the names, 0 when published or abandoned, 1
 * when publishing failed (one line; the folders go too).
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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "xalloc.h"

enum {
	EXIT_LOCKED = 3,	/* -b, -s: another process holds the lock */
	EXIT_STALE = 4,		/* -b, -s: the lock file was removed or replaced */
	EXIT_NOLOCK = 5		/* -s: the lock file cannot be opened */
};

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-r path]... newdir target\n"
	    "       %s -b lock template...\n"
	    "       %s -s lock template... target\n", pf_progname(),
	    pf_progname(), pf_progname());
	exit(PF_EXIT_USAGE);
}

/* Lock fd, not waiting, and check it is still the file named LOCK. */
static int
take(int fd, const char *lock)
{
	struct stat held, named;

	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK)
			return EXIT_LOCKED;
		pf_err(lock, "cannot lock: %s", strerror(errno));
		return PF_EXIT_DATA;
	}
	if (fstat(fd, &held) != 0) {
		pf_err(lock, "%s", strerror(errno));
		return PF_EXIT_DATA;
	}
	if (stat(lock, &named) != 0 || named.st_dev != held.st_dev ||
	    named.st_ino != held.st_ino)
		return EXIT_STALE;
	return PF_EXIT_OK;
}

/*
 * -b and -s: lock fd (standard input for -b), make the folders, print
 * their names; *made gets them (NULL for -b).
 */
static int
begin(int fd, const char *lock, char **templates, int n, char ***made)
{
	char **dirs;
	int i, j, rc;

	for (i = 0; i < n; i++) {
		size_t len = strlen(templates[i]);

		if (len < 6 || strcmp(templates[i] + len - 6, "XXXXXX") != 0) {
			pf_err(templates[i], "template does not end in XXXXXX");
			return PF_EXIT_USAGE;
		}
	}
	if ((rc = take(fd, lock)) != PF_EXIT_OK)
		return rc;
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
	for (i = 0; i < n; i++)
		if (rc == PF_EXIT_OK)
			printf("%s\n", dirs[i]);
	if (rc == PF_EXIT_OK && (made != NULL ? fflush(stdout) != 0 :
	    pf_close_stdout() < 0))
		rc = PF_EXIT_DATA;
	if (rc == PF_EXIT_OK && made != NULL) {
		*made = dirs;
		return rc;
	}
	for (i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
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

/*
 * -s: lock, folders, names; then what standard input says.  The lock
 * file is removed while still held, as at the end of every run.
 */
static int
serve(const char *lock, char **templates, int n, const char *target)
{
	char **dirs = NULL, buf[16];
	size_t got = 0;
	ssize_t k;
	int fd = -1, i, try, rc = EXIT_STALE;

	(void)signal(SIGINT, SIG_IGN);
	(void)signal(SIGTERM, SIG_IGN);
	(void)signal(SIGHUP, SIG_IGN);
	for (try = 0; try < 3 && rc == EXIT_STALE; try++) {
		if (fd >= 0)
			close(fd);
		if ((fd = open(lock, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
		    0666)) < 0) {
			rc = EXIT_NOLOCK;
			break;
		}
		rc = begin(fd, lock, templates, n, &dirs);
	}
	if (rc != PF_EXIT_OK) {
		/*
		 * An empty line (no name is empty), then the status, and the
		 * end of the caller's input waited for, so that a caller
		 * reading this never finds the process gone before it has
		 * read what it says.
		 */
		printf("\n%d\n", rc);
		(void)fflush(stdout);
		while ((k = read(STDIN_FILENO, buf, sizeof(buf))) > 0 ||
		    (k < 0 && errno == EINTR))
			;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	/* the caller's word, to the end of its input */
	while ((k = read(STDIN_FILENO, buf + got, sizeof(buf) - got)) > 0 ||
	    (k < 0 && errno == EINTR))
		if (k > 0 && (got += (size_t)k) == sizeof(buf))
			got = sizeof(buf) - 1;	/* too long: not the word */
	rc = PF_EXIT_OK;
	if (got == 8 && memcmp(buf, "publish\n", 8) == 0)
		rc = publish(dirs[0], target);
	for (i = 0; i < n; i++) {
		remove_tree(dirs[i]);
		free(dirs[i]);
	}
	free(dirs);
	(void)unlink(lock);
	close(fd);
	return rc;
}

int
main(int argc, char **argv)
{
	const char *lock = NULL;
	char **rm;
	int c, nrm = 0, rc, srv = 0;

	pf_setprogname(argv[0]);
	rm = xcalloc((size_t)argc, sizeof *rm);
	while ((c = getopt(argc, argv, "b:r:s:")) != -1) {
		switch (c) {
		case 'b':
			lock = optarg;
			break;
		case 's':
			lock = optarg;
			srv = 1;
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
		if (argc < 1 + srv || nrm > 0)
			usage();
		free(rm);
		if (srv)
			return serve(lock, argv, argc - 1, argv[argc - 1]);
		return begin(STDIN_FILENO, lock, argv, argc, NULL);
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
