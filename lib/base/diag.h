/*
 * Diagnostics and exit statuses shared by every tool.
 *
 * One line per problem on stderr, "prog: where: what", where "where" is
 * "file:line" for tables (line 1 is the header), "file: node NAME" for
 * models, or absent.  The program name is the one piece of process-wide
 * state: it is set once by main() and read by every module that reports.
 */
#ifndef PF_DIAG_H
#define PF_DIAG_H

#include <stdio.h>

enum pf_exit {
	PF_EXIT_OK = 0,		/* success */
	PF_EXIT_DATA = 1,	/* bad input data or runtime failure */
	PF_EXIT_USAGE = 2	/* bad command line */
};

/* Remember the basename of argv0 as the program name for diagnostics. */
void pf_setprogname(const char *argv0);
const char *pf_progname(void);

/* "prog: where: message"; where may be NULL ("prog: message"). */
void pf_err(const char *where, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "prog: file:line: message". */
void pf_errl(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "prog: where: warning: message". */
void pf_warn(const char *where, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "prog: file:line: warning: message". */
void pf_warnl(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Report a failed write, right after it failed: "prog: where: strerror"
 * (errno; EIO when it is 0).  where NULL means "<stdout>", which is
 * reported at most once per process, whichever of this and
 * pf_close_stdout() sees the error first.
 */
void pf_write_error(const char *where);

/*
 * Flush and close stdout, reporting a write error once.  Returns 0 or -1.
 * Every tool calls it last, so a full disk or closed pipe is never silent.
 */
int pf_close_stdout(void);

/* The name a diagnostic uses for an input operand ("<stdin>" for "-"). */
const char *pf_inname(const char *path);

/*
 * A tool's usage(): prints its synopsis, on stdout for PF_EXIT_OK and on
 * stderr otherwise, and exits with that status; it never returns.
 */
typedef void pf_usage_fn(int rc);

/*
 * getopt(3) with every tool's -h ("h" in opts): the next option, or -1
 * after the last.  -h ends in usage(PF_EXIT_OK); an unknown option or a
 * missing argument (getopt has said which) in usage(PF_EXIT_USAGE).
 */
int pf_getopt(int argc, char **argv, const char *opts, pf_usage_fn *usage);

/*
 * The operands after the options getopt read: *argv moved to the first,
 * their count returned.  Fewer than least or more than most (-1: no
 * limit) end in usage(PF_EXIT_USAGE).
 */
int pf_operands(int argc, char ***argv, int least, int most,
    pf_usage_fn *usage);

#endif
