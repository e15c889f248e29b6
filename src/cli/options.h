/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * popt with GNU getopt's conventions and messages: abbreviations, optional
 * arguments, options that start a COMMAND, --version (src/cli/options.c).
 */
#ifndef FATTRS_CLI_OPTIONS_H
#define FATTRS_CLI_OPTIONS_H

#include <stddef.h>
#include <popt.h>

/* The common --version row: add CLI_VERSION_OPTION to each table. */
enum { CLI_OPT_VERSION = 0x7f00 };
#define CLI_VERSION_OPTION \
	{ "version", 'V', POPT_ARG_NONE, NULL, CLI_OPT_VERSION, \
	  "print version information and exit", NULL }

/*
 * Under a GNU tool's name (stat, mktemp): long options abbreviate only
 * among @names (NULL-terminated: GNU's own long options, in the order of
 * its table, which getopt's "is ambiguous; possibilities:" follows), so
 * that every abbreviation means what it means to GNU's tool.  The other
 * options of the table are still taken, written in full.  Call before
 * cli_popt_context(); NULL: every long option (the default).
 */
void cli_abbreviate_among(const char *const *names);

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
 * "invalid argument 'ARG' for '--OPTION'; valid arguments are 'a', 'b'",
 * the "Try" line, exit 1: the usage error for an @arg not in @keywords[@n].
 */
__attribute__((noreturn))
void cli_bad_keyword(const char *option, const char *arg, const char *const *keywords, size_t n);

#endif /* FATTRS_CLI_OPTIONS_H */
