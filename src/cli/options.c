/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * popt glue with GNU getopt's conventions: long options may be abbreviated, optional arguments
 * come only as --name=VALUE, and usage errors are worded as getopt words them.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "quote.h"
#include "options.h"
#include "buf.h"

/* The table row for long option @name (up to @len bytes), or NULL. */
static const struct poptOption *find_long(const struct poptOption *t, const char *name, size_t len)
{
	for (; t->longName != NULL || t->shortName != '\0' || t->argInfo != 0; t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE) {
			const struct poptOption *r = find_long(t->arg, name, len);

			if (r != NULL)
				return r;
			continue;
		}
		if (t->longName != NULL && strlen(t->longName) == len &&
		    strncmp(t->longName, name, len) == 0)
			return t;
	}
	return NULL;
}

static const struct poptOption *find_short(const struct poptOption *t, char c)
{
	for (; t->longName != NULL || t->shortName != '\0' || t->argInfo != 0; t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE) {
			const struct poptOption *r = find_short(t->arg, c);

			if (r != NULL)
				return r;
			continue;
		}
		if (t->shortName == c)
			return t;
	}
	return NULL;
}

/* cli_abbreviate_among(): the long names that may be abbreviated (NULL: every one). */
static const char *const *abbreviable;

void cli_abbreviate_among(const char *const *names)
{
	abbreviable = names;
}

/* Collect the long options that start with @name (@len bytes), up to @max. */
static size_t find_prefix(const struct poptOption *t, const char *name, size_t len,
			  const struct poptOption **found, size_t n, size_t max)
{
	if (abbreviable != NULL && n == 0) {
		/* a GNU tool's own options only, in its order (getopt's message lists them so) */
		for (size_t i = 0; abbreviable[i] != NULL; i++) {
			const struct poptOption *o = find_long(t, abbreviable[i], strlen(abbreviable[i]));

			if (o != NULL && strncmp(abbreviable[i], name, len) == 0 && n < max)
				found[n++] = o;
		}
		return n;
	}
	for (; t->longName != NULL || t->shortName != '\0' || t->argInfo != 0; t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE) {
			n = find_prefix(t->arg, name, len, found, n, max);
			continue;
		}
		if (t->longName != NULL && strncmp(t->longName, name, len) == 0 && n < max)
			found[n++] = t;
	}
	return n;
}

/*
 * getopt's abbreviations: "--dir" is "--directory" when no other long
 * option starts so.  *@ret is @w, or a new string when expanded.
 * Returns 0, -EINVAL for an ambiguous prefix, or -ENOMEM.
 */
static int expand_long(const struct poptOption *table, const char *w, const char **ret)
{
	const struct poptOption *found[2];
	const char *eq = strchr(w + 2, '=');
	size_t len = eq != NULL ? (size_t)(eq - (w + 2)) : strlen(w + 2);
	char *full;

	*ret = w;
	if (len == 0 || find_long(table, w + 2, len) != NULL)
		return 0;
	switch (find_prefix(table, w + 2, len, found, 0, 2)) {
	case 0:
		return 0;	/* popt reports it as unrecognized */
	case 1:
		break;
	default:
		return -EINVAL;
	}
	full = malloc(strlen(found[0]->longName) + strlen(w + 2 + len) + 3);
	if (full == NULL)
		return -ENOMEM;
	strcpy(full, "--");
	strcat(full, found[0]->longName);
	strcat(full, w + 2 + len);
	*ret = full;
	return 0;
}

static bool takes_arg(const struct poptOption *o)
{
	unsigned int type = o->argInfo & POPT_ARG_MASK;

	return type != POPT_ARG_NONE && type != POPT_ARG_VAL;
}

int cli_popt_option_words(const struct poptOption *table, const char *w, const char *next)
{
	if (w[0] != '-' || w[1] == '\0')
		return 0;
	if (w[1] == '-') {
		const char *eq = strchr(w + 2, '=');
		size_t len = eq != NULL ? (size_t)(eq - (w + 2)) : strlen(w + 2);
		const struct poptOption *found[2], *o = find_long(table, w + 2, len);

		if (o == NULL && len > 0 && find_prefix(table, w + 2, len, found, 0, 2) == 1)
			o = found[0];
		if (o != NULL && eq == NULL && takes_arg(o) && !(o->argInfo & POPT_ARGFLAG_OPTIONAL) &&
		    next != NULL)
			return 2;
		return 1;
	}
	for (const char *c = w + 1; *c != '\0'; c++) {
		const struct poptOption *s = find_short(table, *c);

		if (s == NULL)
			return 0;
		if (takes_arg(s))
			return c[1] == '\0' && next != NULL ? 2 : 1;
	}
	return 1;
}

void cli_argv_free(int argc, const char **argv, const char **rewritten)
{
	if (rewritten == NULL)
		return;
	for (int i = 0; i < argc; i++) {
		if (rewritten[i] != argv[i])
			free((void *)(uintptr_t)rewritten[i]);
	}
	free(rewritten);
}

/* Is @o one of the long names in @command_opts (NULL-terminated; NULL: none)? */
static bool starts_command(const struct poptOption *o, const char *const *command_opts)
{
	for (size_t i = 0; o != NULL && o->longName != NULL && command_opts != NULL &&
			   command_opts[i] != NULL; i++) {
		if (strcmp(o->longName, command_opts[i]) == 0)
			return true;
	}
	return false;
}

static bool is_operand(const char *w)
{
	return w[0] != '-' || w[1] == '\0';
}

int cli_argv_rewrite_command(int argc, const char **argv, const struct poptOption *table,
			     const char *const *command_opts, const char ***ret_argv,
			     int *ret_bad, int *ret_command)
{
	const char **copy = calloc((size_t)argc + 1, sizeof(*copy));
	int first_operand = 0, command = 0, late = 0;
	bool command_mode = false;
	int r = 0;

	if (copy == NULL)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		const struct poptOption *o = NULL;

		copy[i] = w;
		if (i == 0)
			continue;
		if (strcmp(w, "--") == 0 || (command_mode && is_operand(w))) {
			/* In COMMAND mode the first operand ends the options, as with env(1). */
			if (command_mode)
				command = strcmp(w, "--") == 0 ? i + 1 : i;
			for (i++; i < argc; i++)
				copy[i] = argv[i];
			break;
		}
		if (is_operand(w)) {
			if (first_operand == 0)
				first_operand = i;
			continue;
		}
		if (w[1] == '-') {
			const char *eq;

			r = expand_long(table, w, &copy[i]);
			if (r < 0) {
				*ret_bad = i;
				copy[i] = argv[i];
				break;
			}
			w = copy[i];
			eq = strchr(w, '=');
			o = find_long(table, w + 2, eq != NULL ? (size_t)(eq - (w + 2)) : strlen(w + 2));
			if (starts_command(o, command_opts)) {
				if (first_operand != 0) {
					late = i;
					r = -EBADMSG;
					break;
				}
				command_mode = true;
			}
			if (eq != NULL)
				o = NULL;
		}
		if (o != NULL && (o->argInfo & POPT_ARGFLAG_OPTIONAL)) {
			/* getopt: "--tmpdir DIR" is --tmpdir with no argument, then an operand. */
			char *bare = malloc(strlen(w) + sizeof("=" CLI_OPTARG_NONE));

			if (bare == NULL) {
				r = -ENOMEM;
				break;
			}
			strcpy(bare, w);
			strcat(bare, "=" CLI_OPTARG_NONE);
			if (w != argv[i])
				free((void *)(uintptr_t)w);	/* an expanded abbreviation */
			copy[i] = bare;
		} else if (o != NULL && takes_arg(o) && i + 1 < argc) {
			copy[i + 1] = argv[i + 1];
			i++;
		} else if (w[1] != '-') {
			/* A cluster whose last option takes the next word as its argument. */
			const struct poptOption *sh = NULL;
			const char *c;

			for (c = w + 1; *c != '\0'; c++) {
				sh = find_short(table, *c);
				if (starts_command(sh, command_opts)) {
					if (first_operand != 0) {
						late = i;
						r = -EBADMSG;
						break;
					}
					command_mode = true;
				}
				if (sh == NULL || takes_arg(sh))
					break;
			}
			if (r < 0)
				break;
			/* Only when that option is the cluster's last letter: "-p-p" holds its argument. */
			if (sh != NULL && takes_arg(sh) && c[0] != '\0' && c[1] == '\0' && i + 1 < argc) {
				copy[i + 1] = argv[i + 1];
				i++;
			}
		}
	}
	if (r == -EBADMSG) {
		/* The option that came too late, and the operand it came after. */
		*ret_bad = late;
		*ret_command = first_operand;
	}
	if (r < 0) {
		/* Words not reached are NULL: free(NULL) does nothing. */
		cli_argv_free(argc, argv, copy);
		return r;
	}
	/* Only "--" with nothing after it: COMMAND mode, but no COMMAND. */
	*ret_command = command_mode && command < argc ? command : 0;
	*ret_argv = copy;
	return 0;
}

int cli_argv_rewrite(int argc, const char **argv, const struct poptOption *table,
		     const char ***ret_argv, int *ret_bad)
{
	int command;

	return cli_argv_rewrite_command(argc, argv, table, NULL, ret_argv, ret_bad, &command);
}

/* The table popt was given, for the error messages. */
static const struct poptOption *parse_table;
/* The rewritten argv, freed with the process. */
static const char **argv_copy;
/*
 * The context made last, reachable from here until exit: a usage error
 * exits with it in use, and a leak checker must not take that for a leak
 * (volatile, so that the store is not dropped as never read).
 */
static volatile poptContext context_in_use;

poptContext cli_popt_context_command(int argc, const char **argv, const struct poptOption *table,
				     const char *operands, const char *const *command_opts)
{
	poptContext pc;
	int bad = 0, command = 0;

	switch (cli_argv_rewrite_command(argc, argv, table, command_opts, &argv_copy, &bad, &command)) {
	case 0:
		break;
	case -EINVAL: {
		const struct poptOption *found[16];
		const char *w = argv[bad];
		size_t len = strcspn(w + 2, "=");
		size_t n = find_prefix(table, w + 2, len, found, 0, sizeof(found) / sizeof(found[0]));

		(void)fflush(stdout);
		fprintf(stderr, cli_getopt_text("%s: option '%s%s' is ambiguous; possibilities:"),
			cli_message_name(), "--", w + 2);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, " '%s%s'", "--", found[i]->longName);
		fputc('\n', stderr);
		cli_try_help();
		exit(CLI_EXIT_FAILURE);
	}
	case -EBADMSG:
		cli_usage_error(_("option %s must come before %s (COMMAND starts at the first operand)"),
				cli_quote(argv[bad]), cli_quote(argv[command]));
	default:
		cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
	}
	parse_table = table;
	/* COMMAND mode: popt stops at the first operand; it and all after are COMMAND. */
	pc = context_in_use = poptGetContext(PACKAGE_NAME, argc, argv_copy, table,
					     command > 0 ? POPT_CONTEXT_POSIXMEHARDER : 0);
	if (pc == NULL)
		cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
	poptSetOtherOptionHelp(pc, operands);
	return pc;
}

poptContext cli_popt_context(int argc, const char **argv, const struct poptOption *table,
			     const char *operands)
{
	return cli_popt_context_command(argc, argv, table, operands, NULL);
}

char *cli_popt_optarg(poptContext pc)
{
	char *arg = poptGetOptArg(pc);

	if (arg != NULL && strcmp(arg, CLI_OPTARG_NONE) == 0) {
		free(arg);
		return NULL;
	}
	return arg;
}

void cli_popt_fail(poptContext pc, int rc)
{
	const char *word = poptBadOption(pc, POPT_BADOPTION_NOALIAS);
	bool is_long = word != NULL && word[0] == '-' && word[1] == '-';
	size_t namelen = 0;
	char name[256] = "";	/* a long option's name, without "--" and "=VALUE" */

	if (word == NULL)
		word = "";
	if (is_long) {
		const char *eq = strchr(word, '=');

		namelen = eq != NULL ? (size_t)(eq - word) : strlen(word);
	}

	if (is_long && namelen > 2)
		snprintf(name, sizeof(name), "%.*s", (int)(namelen - 2), word + 2);
	(void)fflush(stdout);
	switch (rc) {
	case POPT_ERROR_BADOPT:
		if (is_long) {
			fprintf(stderr, cli_getopt_text("%s: unrecognized option '%s%s'\n"), cli_message_name(),
				"--", word + 2);
		} else {
			char bad = word[1];

			for (const char *c = word + 1; *c != '\0'; c++) {
				const struct poptOption *s = find_short(parse_table, *c);

				if (s == NULL) {
					bad = *c;
					break;
				}
				if (takes_arg(s))
					break;
			}
			fprintf(stderr, cli_getopt_text("%s: invalid option -- '%c'\n"), cli_message_name(), bad);
		}
		break;
	case POPT_ERROR_NOARG:
		if (is_long)
			fprintf(stderr, cli_getopt_text("%s: option '%s%s' requires an argument\n"),
				cli_message_name(), "--", name);
		else
			fprintf(stderr, cli_getopt_text("%s: option requires an argument -- '%c'\n"),
				cli_message_name(), word[0] != '\0' ? word[strlen(word) - 1] : '?');
		break;
	case POPT_ERROR_UNWANTEDARG:
		fprintf(stderr, cli_getopt_text("%s: option '%s%s' doesn't allow an argument\n"),
			cli_message_name(), "--", name);
		break;
	default:
		cli_warn(0, "%s: %s", word, poptStrerror(rc));
		break;
	}
	cli_try_help();
	poptFreeContext(pc);
	exit(CLI_EXIT_FAILURE);
}

void cli_bad_keyword(const char *option, const char *arg, const char *const *keywords, size_t n)
{
	char valid[256] = "";
	char name[64];

	/* Each keyword in the quotes of @arg's, as GNU's argmatch lists them. */
	for (size_t i = 0; i < n; i++)
		(void)snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), "%s%s",
			       i ? ", " : "", cli_quote(keywords[i]));
	(void)snprintf(name, sizeof(name), "--%s", option);
	cli_usage_error(_("invalid argument %s for %s; valid arguments are %s"),
			cli_quote(arg), cli_quote(name), valid);
}

void cli_version(void)
{
	printf("%s (%s) %s\n", program_name, PACKAGE_NAME, PACKAGE_VERSION);
	exit(CLI_EXIT_OK);
}
