/*
 * Diagnostics: the one-line "prog: where: what" format of every tool, and
 * the part of the command line every tool reads alike (-h, a bad option,
 * the operand count), which ends in the tool's usage().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"

static const char *progname = "pimflow";
/* Set once a write error on stdout has been reported, so it is reported once. */
static int stdout_reported;

void
pf_setprogname(const char *argv0)
{
	const char *p;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	p = strrchr(argv0, '/');
	progname = p != NULL ? p + 1 : argv0;
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

int
pf_getopt(int argc, char **argv, const char *opts, pf_usage_fn *usage)
{
	int ch = getopt(argc, argv, opts);

	if (ch == 'h')
		usage(PF_EXIT_OK);
	else if (ch == '?' || ch == ':')
		usage(PF_EXIT_USAGE);
	return ch;
}

int
pf_operands(int argc, char ***argv, int least, int most, pf_usage_fn *usage)
{
	argc -= optind;
	*argv += optind;
	if (argc < least || (most >= 0 && argc > most))
		usage(PF_EXIT_USAGE);
	return argc;
}
