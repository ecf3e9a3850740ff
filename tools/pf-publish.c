/*
 * pf-publish: put a finished result folder in place of an older one in
 * one step (pimflow's publishing, pf-publish(1)).  With an existing
 * target the two are exchanged atomically (renameat2 RENAME_EXCHANGE), so
 * at every instant the target holds either the complete old result or
 * the complete new one, and the old one is left under the new folder's
 * former name for the caller to remove; without a target the new folder
 * is renamed, which is atomic too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"

static void
usage(void)
{
	fprintf(stderr, "usage: %s newdir target\n", pf_progname());
	exit(PF_EXIT_USAGE);
}

int
main(int argc, char **argv)
{
	struct stat st;

	pf_setprogname(argv[0]);
	if (argc != 3)
		usage();
	if (lstat(argv[2], &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			pf_err(argv[2], "exists and is not a folder: not replaced");
			return PF_EXIT_DATA;
		}
		if (renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2],
		    RENAME_EXCHANGE) != 0) {
			pf_err(argv[2], "cannot exchange with %s: %s", argv[1],
			    strerror(errno));
			return PF_EXIT_DATA;
		}
		return PF_EXIT_OK;
	}
	if (errno != ENOENT) {
		pf_err(argv[2], "%s", strerror(errno));
		return PF_EXIT_DATA;
	}
	/* RENAME_NOREPLACE: a folder that appeared meanwhile is not replaced */
	if (renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2],
	    RENAME_NOREPLACE) != 0) {
		pf_err(argv[2], "cannot rename %s to it: %s", argv[1],
		    strerror(errno));
		return PF_EXIT_DATA;
	}
	return PF_EXIT_OK;
}
