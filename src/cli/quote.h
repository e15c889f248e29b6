/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File names in messages and human output: quoted as GNU tools quote
 * them (src/cli/quote.c), and GNU's quoting styles (src/cli/quotearg.c).
 */
#ifndef FATTRS_CLI_QUOTE_H
#define FATTRS_CLI_QUOTE_H

#include <stddef.h>

/*
 * Quote a name for a message the way GNU tools do: 'NAME' (‘NAME’ in a
 * UTF-8 locale), with C escapes for control characters, backslashes, the
 * closing quote and bytes that are not printable characters, so that any
 * name reads back unambiguously.  The result lives until the fourth call
 * after this one.
 */
const char *cli_quote(const char *s);

/*
 * The text printf(@fmt, ...) makes, quoted as cli_quote() quotes a word:
 * what a message suggests typing (a flag, "-pinned +offline", "PROG
 * --list") in the same quotes as the word the user typed, in every
 * locale.  Keeps errno; the result lives as cli_quote()'s does ("?": out
 * of memory).
 */
const char *cli_quote_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Quote a file name for a message as coreutils' quoteaf() does, in every
 * locale: 'NAME', shell-escaped ('a'$'\n''b') where it holds what a shell
 * would take otherwise (CLI_QS_SHELL_ESCAPE_ALWAYS).  ls, chmod, stat and
 * xstat name files so; cli_quote() is for what coreutils quotes with
 * quote() (an option's argument, a template, a command), ‘NAME’ in a UTF-8
 * locale.  Keeps errno.  The result lives until the fourth call of
 * cli_quotearg() after this one.
 */
const char *cli_quotef(const char *s);

/*
 * The text printf(@fmt, ...) makes, quoted as cli_quotef() quotes a file
 * name: a file name a message suggests ("./+d").  Keeps errno; the result
 * lives as cli_quotef()'s does ("?": out of memory).
 */
const char *cli_quotef_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A name for human output: as it is when every character is printable and
 * unambiguous, else quoted as cli_quote() does.
 */
const char *cli_name(const char *s);

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

#endif /* FATTRS_CLI_QUOTE_H */
