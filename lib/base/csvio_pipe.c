/*
 * CSV tables, the pipes between the stages: a pipe's buffer enlarged to
 * PIPE_BYTES (Linux's default is 64 KiB, so a stage writing a 300 MB
 * table wakes the next one every 64 KiB, and each switch costs both
 * sides cache and system time; with 1 MiB the stages run in longer
 * stretches).  Linux only: fcntl(F_SETPIPE_SZ) is a GNU extension, hence
 * _GNU_SOURCE here and only here; elsewhere this does nothing.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include "csvio.h"

/*
 * /proc/sys/fs/pipe-max-size's default: what an unprivileged process may
 * ask for without the call failing.
 */
#define PIPE_BYTES	(1024 * 1024)

void
csvio_pipe_grow(FILE *fp)
{
#ifdef F_SETPIPE_SZ
	struct stat sb;
	int fd = fileno(fp), have;

	if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISFIFO(sb.st_mode))
		return;
	if ((have = fcntl(fd, F_GETPIPE_SZ)) < 0 || have >= PIPE_BYTES)
		return;
	/*
	 * It fails past pipe-max-size or once the user's pipes hold
	 * pipe-user-pages-soft: the pipe then keeps its size, which only
	 * costs speed.
	 */
	(void)fcntl(fd, F_SETPIPE_SZ, PIPE_BYTES);
#else
	(void)fp;
#endif
}
