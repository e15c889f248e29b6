/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The helpers the three tools share for presentation: program name,
 * messages in the one grammar, quoting, exit codes, popt glue, JSON.
 */
#ifndef FATTRS_CLI_H
#define FATTRS_CLI_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <popt.h>

#define _(s) (s)

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
 * Call first in main().  Sets program_name and the locale, and makes the
 * process safe from what it inherited (cli_inherit_init()): a closed
 * descriptor 0, 1 or 2 gets /dev/null opened for the wrong direction, so
 * that no file of ours ever takes those numbers and using them fails with
 * EBADF; the signal dispositions and mask are recorded for
 * cli_exec_restore().  At exit, stdout and stderr are checked as gnulib's
 * close_stdout() does: output that was lost is "write error", exit 1; a
 * closed stderr with nothing written to it is no failure.
 */
void cli_init(const char *argv0);

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

/*
 * Quote a name for a message the way GNU tools do: 'NAME' (‘NAME’ in a
 * UTF-8 locale), with C escapes for control characters, backslashes, the
 * closing quote and bytes that are not printable characters, so that any
 * name reads back unambiguously.  The result lives until the fourth call
 * after this one.
 */
const char *cli_quote(const char *s);

/*
 * A name for human output: as it is when every character is printable and
 * unambiguous, else quoted as cli_quote() does.
 */
const char *cli_name(const char *s);

/* The common --version row: add CLI_VERSION_OPTION to each table. */
enum { CLI_OPT_VERSION = 0x7f00 };
#define CLI_VERSION_OPTION \
	{ "version", 'V', POPT_ARG_NONE, NULL, CLI_OPT_VERSION, \
	  "print version information and exit", NULL }

/* Print "PROG (fattrs) VERSION" and exit 0. */
__attribute__((noreturn)) void cli_version(void);

/*
 * A popt context over argv with the conventions of GNU getopt: an option
 * with an optional argument (POPT_ARGFLAG_OPTIONAL) takes it only as
 * --name=VALUE, never from the next word.
 */
poptContext cli_popt_context(int argc, const char **argv, const struct poptOption *table,
			     const char *operands);

/*
 * For tools whose operands may start with '-' (setfattrs: "-i" is an
 * operation): how many words an option word @w takes from argv, counting
 * itself: 2 when it needs the next word @next (may be NULL) as its
 * argument, 1 when it stands alone, 0 when @w is no option of @table.
 * "--" and every "--name" are options (popt words the unknown ones); "-X..."
 * is one only when every letter is a short option of @table.
 */
int cli_popt_option_words(const struct poptOption *table, const char *w, const char *next);

/*
 * argv as popt must read it to follow getopt's conventions (what
 * cli_popt_context() gives popt): abbreviated long options written out,
 * and "=" CLI_OPTARG_NONE added to an option whose argument is optional
 * and not given (cli_popt_optarg() turns that back into NULL).  Words
 * after "--" and option arguments are left alone.  *@ret_argv has @argc
 * words and a NULL; free it with cli_argv_free().  Returns 0, -EINVAL when
 * argv[*@ret_bad] is an ambiguous abbreviation, or -ENOMEM.
 */
int cli_argv_rewrite(int argc, const char **argv, const struct poptOption *table,
		     const char ***ret_argv, int *ret_bad);
void cli_argv_free(int argc, const char **argv, const char **rewritten);

/* What a bare optional-argument option carries after its '=' for popt. */
#define CLI_OPTARG_NONE "\x1f(none)\x1f"

/*
 * cli_argv_rewrite() for a tool that runs a COMMAND: once one of the long
 * options named in @command_opts (NULL-terminated, e.g. "output") is seen,
 * the first operand starts COMMAND, and it and every word after it are
 * left alone; *@ret_command is its index (0: no COMMAND mode, or no
 * COMMAND).  Returns -EBADMSG, with the option at argv[*@ret_bad] and the
 * operand before it at argv[*@ret_command], when such an option comes
 * after an operand.
 */
int cli_argv_rewrite_command(int argc, const char **argv, const struct poptOption *table,
			     const char *const *command_opts, const char ***ret_argv,
			     int *ret_bad, int *ret_command);

/*
 * cli_popt_context() for a tool that runs a COMMAND: once one of the long
 * options named in @command_opts (NULL-terminated; e.g. "output") has been
 * given, the first operand starts COMMAND and ends the options, as with
 * env(1), timeout(1) and nice(1): "tmpcreate -o f sort -n" runs "sort -n".
 * "--" still works.  Such an option after the first operand is a usage
 * error (that operand would otherwise have been taken for COMMAND's).
 */
poptContext cli_popt_context_command(int argc, const char **argv, const struct poptOption *table,
				     const char *operands, const char *const *command_opts);

/*
 * The argument of an option with POPT_ARGFLAG_OPTIONAL (use this, never
 * poptGetOptArg(), for those): NULL when it was given bare ("--backup"),
 * else what follows '=' (possibly empty), malloc'd.
 */
char *cli_popt_optarg(poptContext pc);

/* Report popt's error @rc in getopt's words, with the "Try" line; exit 1. */
__attribute__((noreturn)) void cli_popt_fail(poptContext pc, int rc);

/*
 * "invalid argument 'WORD' for '--OPTION'; valid arguments are 'a', 'b'",
 * the "Try" line, exit 1: the usage error for a word not in @words[@n].
 */
__attribute__((noreturn))
void cli_bad_word(const char *option, const char *word, const char *const *words, size_t n);

/* ---- parsing option arguments (src/cli/parse.c: no printing, links alone) ---- */

/* The index of @word in @words[@n], or -1. */
int cli_parse_word(const char *word, const char *const *words, size_t n);

/*
 * A comma-separated list of words from @words[@n] (at most 32): bit i of
 * *@ret_bits for words[i].  Returns 0, or -EINVAL with the element that is
 * no word at *@ret_bad_off, *@ret_bad_len bytes long: an empty list or an
 * empty element (as in "a,,b") is an error, of length 0.
 */
int cli_parse_list(const char *list, const char *const *words, size_t n,
		   unsigned int *ret_bits, size_t *ret_bad_off, size_t *ret_bad_len);

/*
 * GNU argmatch(): the index of @word in @names (exact, or an unambiguous
 * prefix); -1 when nothing matches, -2 when the prefix is ambiguous.
 */
int cli_argmatch(const char *word, const char *const *names, size_t n);

/* An octal mode, 0 to 07777.  Returns 0, or -EINVAL. */
int cli_parse_mode(const char *word, mode_t *ret_mode);

/* ---- running a COMMAND (src/cli/command.c) ---- */

/*
 * Start COMMAND with its stdout on @out_fd (-1: inherited), and with what
 * the program inherited (cli_exec_restore()); while it runs, the handler
 * of cli_fatal_signals() passes signals on to it.  An exec failure comes
 * back through a close-on-exec pipe as its errno.
 * Returns the child's pid, or -1 with *ret_exit set (125, 126 or 127) and
 * the error reported.
 */
pid_t cli_command_start(const char *const *cmd, int out_fd, int *ret_exit);

/* Wait for COMMAND: its exit status as a shell reports it (128 + signal when killed). */
int cli_command_wait(pid_t pid);

/* ---- what the process inherited (src/cli/inherit.c) ---- */

/* The start-up part of cli_init(), for programs that set up the rest themselves. */
void cli_inherit_init(void);

/* Was descriptor @fd (0, 1 or 2) closed when the program started? */
bool cli_fd_was_closed(int fd);

/*
 * Was @sig ignored when the program started (nohup, trap '' SIG, background
 * jobs)?  Known for the signals the tools ever change: SIGHUP, SIGINT,
 * SIGTERM, SIGPIPE and SIGCHLD (false for any other); asked of the kernel
 * the first time, so call it before the program changes @sig itself.
 */
bool cli_signal_was_ignored(int sig);

/* Before starting children: SIGCHLD inherited as ignored is set back to SIG_DFL. */
void cli_children_prepare(void);

/*
 * Die cleanly on SIGHUP, SIGINT, SIGTERM and SIGPIPE, each unless it was
 * ignored at start-up (no handler ever replaces an inherited SIG_IGN): pass
 * the signal on to the COMMAND running (not SIGPIPE, nor a signal from the
 * terminal, which reached COMMAND already), call @cleanup (which must be
 * async-signal-safe; NULL: none), then die of the signal.
 */
void cli_fatal_signals(void (*cleanup)(void));

/* Block the signals of cli_fatal_signals(); the old mask in *@ret_old. */
void cli_fatal_signals_block(sigset_t *ret_old);

/* Tell the fatal-signal handler which COMMAND runs (0: none). */
void cli_command_running(pid_t pid);

/*
 * Just before exec (in a child after fork, or in place of the program):
 * give back exactly what the program inherited: close the descriptors
 * that were closed, put back the disposition of each signal the tools
 * change (SIG_IGN where it was ignored, else SIG_DFL; exec keeps the
 * others as inherited) and the signal mask.  Async-signal-safe.
 */
void cli_exec_restore(void);

/* ---- output buffers (src/cli/buf.c) ---- */

/*
 * Bytes to be written out at once: zero-initialise it, append, write it
 * with cli_buf_write() (which empties it and keeps the memory), release
 * it with cli_buf_free().  Running out of memory ends the process
 * ("memory exhausted"), as every tool does.  Not NUL-terminated.
 */
struct cli_buf {
	char *p;
	size_t len, cap;
	size_t hold;	/* with @holding: bytes from here on are not to go out before the rest */
	bool holding;
};

void cli_buf_grow(struct cli_buf *b, size_t n);
void cli_buf_free(struct cli_buf *b);
/* Write and empty @b; false if fwrite() failed (the error is @out's, as for any stdio write). */
bool cli_buf_write(struct cli_buf *b, FILE *out);

/*
 * The buffer a message (cli_warn()) writes out first, to @out, so that
 * what was made before it comes before it, as when printing straight to
 * @out (NULL: none).  A buffer that holds (cli_buf_hold()) keeps back
 * what it got since then: a line that a lookup's warning should precede.
 */
void cli_buf_pending(struct cli_buf *b, FILE *out);
void cli_buf_flush_pending(void);
static inline void cli_buf_hold(struct cli_buf *b)
{
	b->hold = b->len;
	b->holding = true;
}

/* Room for @n more bytes. */
static inline void cli_buf_reserve(struct cli_buf *b, size_t n)
{
	if (b->cap - b->len < n)
		cli_buf_grow(b, n);
}

static inline void cli_buf_add(struct cli_buf *b, const void *s, size_t n)
{
	if (n == 0)
		return;	/* nothing to copy, and maybe nowhere yet: memcpy() wants a buffer */
	cli_buf_reserve(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static inline void cli_buf_addc(struct cli_buf *b, char c)
{
	cli_buf_reserve(b, 1);
	b->p[b->len++] = c;
}

static inline void cli_buf_adds(struct cli_buf *b, const char *s)
{
	cli_buf_add(b, s, strlen(s));
}

/* Digits of the largest uintmax_t in base 8, and then some. */
#define CLI_UINT_DIGITS 24
/*
 * @v in @base (8, 10 or 16; lowercase, no prefix), written backwards
 * ending just before @end (room for CLI_UINT_DIGITS): returns the length.
 * What printf's "%ju", "%jo" and "%jx" print, without printf.
 */
size_t cli_fmt_uint(char *end, uintmax_t v, unsigned int base);
void cli_buf_add_uint(struct cli_buf *b, uintmax_t v, unsigned int base);
/* "%jd" */
void cli_buf_add_int(struct cli_buf *b, intmax_t v);
/* @n bytes @c. */
void cli_buf_pad(struct cli_buf *b, char c, size_t n);
/* printf into @b, for the rare cases; returns what vsnprintf() returns. */
int cli_buf_printf(struct cli_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_buf_vprintf(struct cli_buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* ---- JSON (one object per line) ---- */

struct cli_json {
	FILE *out;
	struct cli_buf *buf;	/* cli_json_begin_buf(): written here, not to @out */
	bool first;
	char term;	/* what ends the object: '\n' (set by cli_json_begin()), or '\0' for -0 */
};

/* An object written to @out piece by piece (the caller may write there between calls). */
void cli_json_begin(struct cli_json *j, FILE *out);
/* An object appended to @buf: the caller writes it out (cli_buf_write()). */
void cli_json_begin_buf(struct cli_json *j, struct cli_buf *buf);
/*
 * Keys are escaped but not checked: they must be valid UTF-8 (the
 * program's own words).  A name from a file belongs in a value.
 */
void cli_json_key(struct cli_json *j, const char *key);
/*
 * A key written once and kept: @text is ',"KEY":' (@len bytes; the comma
 * is left out before the first member), KEY known to need no escape
 * (printable ASCII but '"' and '\\': cli_json_plain()).
 */
void cli_json_key_raw(struct cli_json *j, const char *text, size_t len);
bool cli_json_plain(const char *s);
/*
 * The values, each after its @key; a NULL @key: the key was written just
 * before (cli_json_key(), cli_json_key_raw()).
 * A string; bytes that are not valid UTF-8 make it an array of byte values.
 */
void cli_json_str(struct cli_json *j, const char *key, const char *value);
/* An array of @n strings, each as cli_json_str() writes it. */
void cli_json_str_array(struct cli_json *j, const char *key, char *const *values, size_t n);
void cli_json_bool(struct cli_json *j, const char *key, bool value);
void cli_json_int(struct cli_json *j, const char *key, long long value);
void cli_json_uint(struct cli_json *j, const char *key, unsigned long long value);
/* An integer as a string of its decimal digits ("123"): exact where jq rounds numbers. */
void cli_json_uint_str(struct cli_json *j, const char *key, unsigned long long value);
/* A timestamp, exact: {"sec":SEC,"nsec":NSEC}. */
void cli_json_timespec(struct cli_json *j, const char *key, long long sec, long nsec);
void cli_json_null(struct cli_json *j, const char *key);
void cli_json_end(struct cli_json *j);

/* ---- GNU quoting styles (QUOTING_STYLE; src/cli/quotearg.c) ---- */

/* In the order of GNU's names; do not reorder. */
enum cli_quoting_style {
	CLI_QS_LITERAL,
	CLI_QS_SHELL,
	CLI_QS_SHELL_ALWAYS,
	CLI_QS_SHELL_ESCAPE,
	CLI_QS_SHELL_ESCAPE_ALWAYS,
	CLI_QS_C,
	CLI_QS_C_MAYBE,
	CLI_QS_ESCAPE,
	CLI_QS_LOCALE,
	CLI_QS_CLOCALE,
};

/*
 * @arg quoted in @style exactly as GNU's quotearg does it (ls, stat %N,
 * coreutils' quoteaf() is CLI_QS_SHELL_ESCAPE_ALWAYS and quote() is
 * CLI_QS_LOCALE).  cli_quotearg()'s result lives until the fourth call
 * after it (it is @arg itself when the style changes nothing);
 * cli_quotearg_alloc()'s is malloc()ed (NULL: out of memory).
 */
const char *cli_quotearg(const char *arg, enum cli_quoting_style style);
char *cli_quotearg_alloc(const char *arg, size_t len, enum cli_quoting_style style);
const char *cli_quoting_style_name(enum cli_quoting_style style);
/* A style by name or unambiguous prefix; -1: no such style, -2: ambiguous. */
int cli_quoting_style_parse(const char *word);

#endif /* FATTRS_CLI_H */
