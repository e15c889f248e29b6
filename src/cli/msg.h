/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages in the one grammar (doc/design.md §6), the program name, exit codes, and the check
 * of stdout and stderr at exit (msg.c).
 */
#ifndef FATTRS_CLI_MSG_H
#define FATTRS_CLI_MSG_H

#include <stdarg.h>
#include <stdbool.h>

/*
 * A message's text: @msgid itself, or under a GNU tool's name its
 * translation from that tool's own catalog (cli_text_domain()), so that
 * what GNU's tool says in a language is said in the same words.
 */
#define _(s) cli_gettext(s)
const char *cli_gettext(const char *msgid) __attribute__((format_arg(1)));

/*
 * Translate _() texts with @domain's catalog ("coreutils": GNU stat's own
 * words, /usr/share/locale/LANG/LC_MESSAGES/coreutils.mo); the texts it
 * lacks stay English.  NULL (the default): every text English.  The
 * program calls setlocale(3) first.
 */
void cli_text_domain(const char *domain);
/* getopt's own messages (glibc's catalog, "libc"), translated when cli_text_domain() is set. */
const char *cli_getopt_text(const char *msgid) __attribute__((format_arg(1)));

/* Exit codes, documented in every man page's EXIT STATUS. */
enum {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILURE = 1,		/* an operand failed, or bad usage */
	CLI_EXIT_CANCELED = 125,	/* tmpcreate -o FILE -- COMMAND: tmpcreate itself failed */
	CLI_EXIT_CANNOT_INVOKE = 126,	/* COMMAND was found but cannot be run */
	CLI_EXIT_ENOENT = 127,		/* COMMAND was not found */
};

/* The basename of argv[0], as messages and --help show it. */
extern const char *program_name;

/*
 * Call first in main(), after setlocale(3).  Sets program_name, and makes the
 * process safe from what it inherited (cli_inherit_init()): a closed
 * descriptor 0, 1 or 2 gets /dev/null opened for the wrong direction, so
 * that no file of ours ever takes those numbers and using them fails with
 * EBADF; the signal dispositions and mask are recorded for
 * cli_exec_restore().  At exit, stdout and stderr are checked as gnulib's
 * close_stdout() does: output that was lost is "write error", exit 1; a
 * closed stderr with nothing written to it is no failure.
 */
void cli_init(const char *argv0);

/*
 * Under a GNU tool's name (stat, mktemp), messages name the program as
 * @argv0 gives it ("/usr/local/bin/stat: cannot statx ..."), as GNU's
 * tools do; program_name stays the basename (--version, choices by name).
 */
void cli_name_messages_as_given(const char *argv0);
/* The program's name in messages: program_name, or argv[0] as given. */
const char *cli_message_name(void);

/*
 * @fn runs before each message, to write out first what was made before
 * it (cli_buf_pending() sets it; NULL: nothing).
 */
void cli_before_message(void (*fn)(void));

/* "PROG: MESSAGE" or "PROG: MESSAGE: strerror(err)" on stderr (err 0: none). */
void cli_warn(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_vwarn(int err, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* cli_warn(), then exit(status). */
__attribute__((noreturn, format(printf, 3, 4)))
void cli_die(int status, int err, const char *fmt, ...);

/* cli_warn(0, ...), the "Try 'PROG --help'" line, exit 1. */
__attribute__((noreturn, format(printf, 1, 2)))
void cli_usage_error(const char *fmt, ...);

/* Just the "Try 'PROG --help' for more information." line. */
void cli_try_help(void);

/*
 * Whether a message lost to a closed or failing stderr makes the exit
 * status 1 (the default, as in GNU tools).  A mode whose exit status
 * tells what it did (tmpcreate -o: FILE was written or not) turns it off.
 */
void cli_lost_messages_fail(bool fail);

/*
 * Close stdout now and report a failure as "PROG: write error: ..." (when
 * @report).  Returns false if anything written was lost.  Afterwards the
 * check at exit only looks at stderr.
 */
bool cli_close_stdout(bool report);

#endif /* FATTRS_CLI_MSG_H */
