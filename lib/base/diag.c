/*
 * Diagnostics: the one-line "prog: where: what" format of every tool.
 */
#include <sys/resource.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"

static const char *progname = "pimflow";
/* Set once a write error on stdout has been reported, so it is reported once. */
static int stdout_reported;

/*
 * The stage record (PIMFLOW_STAGES, diag.h): when the process started
 * (monotonic clock) and where its line goes.
 */
static struct timespec started;
static const char *recpath;
/* pf_stage_ready has been called */
static int ready;

static void
stage_record(void)
{
	struct rusage ru;
	struct timespec now;
	char line[256];
	double wall, cpu;
	int fd, n;

	if (recpath == NULL || getrusage(RUSAGE_SELF, &ru) != 0 ||
	    clock_gettime(CLOCK_MONOTONIC, &now) != 0)
		return;
	wall = (double)(now.tv_sec - started.tv_sec) +
	    (double)(now.tv_nsec - started.tv_nsec) / 1e9;
	cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	n = snprintf(line, sizeof(line), "%s,%.6f,%.3f,%ld,%d\n", progname,
	    wall, cpu, (long)ru.ru_maxrss, ready);
	/* one write of one line on an appending descriptor: whole lines */
	if (n > 0 && (size_t)n < sizeof(line) &&
	    (fd = open(recpath, O_WRONLY | O_APPEND | O_CREAT, 0644)) >= 0) {
		if (write(fd, line, (size_t)n) != n) {
			/* the driver finds the line missing and says so */
		}
		close(fd);
	}
}

void
pf_setprogname(const char *argv0)
{
	static int hooked;
	const char *p;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	p = strrchr(argv0, '/');
	progname = p != NULL ? p + 1 : argv0;
	if (!hooked && (p = getenv("PIMFLOW_STAGES")) != NULL && *p != '\0' &&
	    clock_gettime(CLOCK_MONOTONIC, &started) == 0) {
		hooked = 1;
		recpath = p;
		atexit(stage_record);
	}
}

void
pf_stage_ready(void)
{
	ready = 1;
}

const char *
pf_progname(void)
{
	return progname;
}

/* Longest message of a diagnostic before it is cut. */
#define MSGMAX 240

static void
vreport(const char *where, long line, const char *kind, const char *fmt,
    va_list ap)
{
	char msg[MSGMAX + 1];
	int n;

	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	if (where != NULL) {
		if (line > 0)
			fprintf(stderr, "%s:%ld: ", where, line);
		else
			fprintf(stderr, "%s: ", where);
	}
	if (kind != NULL)
		fprintf(stderr, "%s: ", kind);
	/*
	 * A diagnostic stays one readable line: a message longer than
	 * MSGMAX (a quoted 1 MiB field) is cut, saying how long it was.
	 */
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n >= 0 && (size_t)n > MSGMAX)
		fprintf(stderr, "%.*s... (%d bytes cut)\n", (int)MSGMAX, msg,
		    n - (int)MSGMAX);
	else
		fprintf(stderr, "%s\n", msg);
}

void
pf_err(const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(where, 0, NULL, fmt, ap);
	va_end(ap);
}

void
pf_errl(const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(file, line, NULL, fmt, ap);
	va_end(ap);
}

void
pf_warn(const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(where, 0, "warning", fmt, ap);
	va_end(ap);
}

void
pf_warnl(const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(file, line, "warning", fmt, ap);
	va_end(ap);
}

void
pf_write_error(const char *where)
{
	int e = errno != 0 ? errno : EIO;

	if (where == NULL || strcmp(where, "<stdout>") == 0) {
		if (stdout_reported)
			return;
		stdout_reported = 1;
		where = "<stdout>";
	}
	pf_err(where, "%s", strerror(e));
}

int
pf_close_stdout(void)
{
	int bad;

	errno = 0;
	bad = fflush(stdout) != 0 || ferror(stdout);
	if (fclose(stdout) != 0)
		bad = 1;
	if (bad) {
		pf_write_error("<stdout>");
		return -1;
	}
	return 0;
}

const char *
pf_inname(const char *path)
{
	if (path == NULL || strcmp(path, "-") == 0)
		return "<stdin>";
	return path;
}
