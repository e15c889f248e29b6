/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: the argv rewriting before popt, cli_argv_rewrite() in
 * src/cli/options.c (GNU getopt's conventions), then popt itself on the result.
 * Checks that only long options change, and only by being written out in
 * full (the one option their prefix names) or by gaining the "=" of an
 * optional argument; that an abbreviation refused as ambiguous is one;
 * that rewriting again changes nothing; and that popt then parses without
 * fault, each optional argument coming from "=", never from the next word.
 * Then the COMMAND-mode rewriting, cli_argv_rewrite_command() with
 * tmpcreate's "output" and "scratch": it agrees with cli_argv_rewrite()
 * on every word before COMMAND (and everywhere when there is none), leaves
 * COMMAND and every word after it alone, refuses -o/--scratch after an
 * operand only when there is one before it, and popt with
 * POSIXMEHARDER on its result leaves exactly COMMAND [ARG]... over.
 * Input: the words of argv after argv[0], separated by NUL.
 * FUZZ_SOURCES: src/cli/options.c src/cli/msg.c src/cli/buf.c src/cli/inherit.c src/cli/quote.c src/cli/quotearg.c src/cli/parse.c
 * FUZZ_LIBS: -lpopt
 */
#include "config.h"

#include <errno.h>

#include "cli.h"
#include "fuzz.h"

#define MAX_ARGS 32

enum { OPT_NONE = 1, OPT_STRING, OPT_OPTIONAL };

/* tmpcreate's options (src/tmpcreate/tmpcreate.c) in shape, without --help's exit(). */
static const struct poptOption inner[] = {
	{ "directory", 'd', POPT_ARG_NONE, NULL, OPT_NONE, "", NULL },
	{ "dry-run", 'u', POPT_ARG_NONE, NULL, OPT_NONE, "", NULL },
	{ "suffix", '\0', POPT_ARG_STRING, NULL, OPT_STRING, "", "SUFF" },
	{ "tmpdir", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_OPTIONAL, "", "DIR" },
	{ NULL, 'p', POPT_ARG_STRING, NULL, OPT_STRING, "", "DIR" },
	{ NULL, 't', POPT_ARG_NONE, NULL, OPT_NONE, "", NULL },
	{ "backup", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_OPTIONAL, "", "SUFFIX" },
	{ NULL, 'b', POPT_ARG_NONE, NULL, OPT_NONE, "", NULL },
	{ "mode", 'm', POPT_ARG_STRING, NULL, OPT_STRING, "", "MODE" },
	{ "no-clobber", 'n', POPT_ARG_NONE, NULL, OPT_NONE, "", NULL },
	{ "no-dereference", 'P', POPT_ARG_NONE, NULL, OPT_NONE, "", NULL },
	{ "output", 'o', POPT_ARG_STRING, NULL, OPT_STRING, "", "FILE" },
	{ "preserve", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_OPTIONAL, "", "LIST" },
	{ "sync", '\0', POPT_ARG_STRING, NULL, OPT_STRING, "", "LEVEL" },
	POPT_TABLEEND
};

static const struct poptOption table[] = {
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, (void *)(uintptr_t)inner, 0, "", NULL },
	{ "json", '\0', POPT_ARG_NONE, NULL, OPT_NONE, "", NULL },
	{ "method", '\0', POPT_ARG_STRING, NULL, OPT_STRING, "", "METHOD" },
	{ "probe", '\0', POPT_ARG_NONE, NULL, OPT_NONE, "", NULL },
	{ "scratch", '\0', POPT_ARG_NONE, NULL, OPT_NONE, "", NULL },
	{ "verbose", 'v', POPT_ARG_NONE, NULL, OPT_NONE, "", NULL },
	CLI_VERSION_OPTION,
	POPT_TABLEEND
};

/* Every long name of @t, nested tables included, in @names; returns how many. */
static size_t long_names(const struct poptOption *t, const char **names, size_t n)
{
	for (; t->longName != NULL || t->shortName != '\0' || t->argInfo != 0; t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE)
			n = long_names(t->arg, names, n);
		else if (t->longName != NULL)
			names[n++] = t->longName;
	}
	return n;
}

static const char *names[64];
static size_t nnames;

/* How many long names start with the @len bytes at @p, and whether one is exactly them. */
static size_t prefix_of(const char *p, size_t len, bool *ret_exact, const char **ret_one)
{
	size_t n = 0;

	*ret_exact = false;
	for (size_t i = 0; i < nnames; i++) {
		if (strncmp(names[i], p, len) != 0)
			continue;
		n++;
		*ret_one = names[i];
		if (strlen(names[i]) == len)
			*ret_exact = true;
	}
	return n;
}

static bool optional_arg(const char *name)
{
	return strcmp(name, "tmpdir") == 0 || strcmp(name, "backup") == 0 ||
	       strcmp(name, "preserve") == 0;
}

/* What a changed word may be: @in written out in full, and/or with "=" added. */
static void check_changed(const char *in, const char *out)
{
	size_t len = strcspn(in + 2, "="), olen = strcspn(out + 2, "=");
	const char *one = NULL;
	bool exact;
	size_t n;

	FUZZ_CHECK(in[0] == '-' && in[1] == '-' && out[0] == '-' && out[1] == '-',
		   "'%s' became '%s'", in, out);
	n = prefix_of(in + 2, len, &exact, &one);
	FUZZ_CHECK(len > 0 && (exact || n == 1), "'%s' (%zu matches) became '%s'", in, n, out);
	if (!exact)
		FUZZ_CHECK(olen == strlen(one) && strncmp(out + 2, one, olen) == 0,
			   "'%s' became '%s', not '--%s'", in, out, one);
	else
		FUZZ_CHECK(olen == len && strncmp(out + 2, in + 2, len) == 0, "'%s' became '%s'", in, out);
	if (in[2 + len] == '=') {
		FUZZ_CHECK(strcmp(out + 2 + olen, in + 2 + len) == 0, "'%s' lost its argument: '%s'",
			   in, out);
	} else {
		/* No argument given: "=" only for an optional one. */
		const char *rest = out + 2 + olen;
		char name[64];

		FUZZ_CHECK(olen < sizeof(name), "long name");
		memcpy(name, out + 2, olen);
		name[olen] = '\0';
		FUZZ_CHECK(rest[0] == '\0' || (strcmp(rest, "=" CLI_OPTARG_NONE) == 0 && optional_arg(name)),
			   "'%s' became '%s'", in, out);
	}
}

static const char *const command_opts[] = { "output", "scratch", NULL };

/* Is @w an operand (popt's view: no leading '-', or "-" alone)? */
static bool operand(const char *w)
{
	return w[0] != '-' || w[1] == '\0';
}

/*
 * Does @w (as rewritten: long names in full) start COMMAND mode: --output,
 * --output=FILE, --scratch, or a short cluster with 'o' before any letter
 * that takes an argument (which would hold the rest)?
 */
static bool command_option(const char *w)
{
	if (w[0] != '-' || w[1] == '\0')
		return false;
	if (w[1] == '-')
		return strcmp(w, "--output") == 0 || strncmp(w, "--output=", 9) == 0 ||
		       strcmp(w, "--scratch") == 0 || strncmp(w, "--scratch=", 10) == 0;
	for (const char *c = w + 1; *c != '\0'; c++) {
		if (*c == 'o')
			return true;
		if (*c == 'p' || *c == 'm')
			return false;
	}
	return false;
}

/* Compare the COMMAND-mode rewriting of @argv with the plain one (see the top). */
static void check_command_mode(int argc, const char **argv)
{
	const char **cmd_out = NULL, **plain = NULL;
	int bad = -1, command = -1, pbad = -1;
	int r = cli_argv_rewrite_command(argc, argv, table, command_opts, &cmd_out, &bad, &command);
	int pr;
	poptContext pc;

	FUZZ_CHECK(r == 0 || r == -EINVAL || r == -EBADMSG, "command rewrite gave %d", r);
	if (r == -EBADMSG) {
		/* An -o/--scratch at argv[bad], after the operand argv[command]. */
		FUZZ_CHECK(command > 0 && command < bad && bad < argc && operand(argv[command]),
			   "-EBADMSG with option %d after operand %d", bad, command);
		/* Everything before it rewrites without COMMAND mode... */
		pr = cli_argv_rewrite(bad + 1, argv, table, &plain, &pbad);
		FUZZ_CHECK(pr == 0, "the words before a late option rewrite with %d", pr);
		FUZZ_CHECK(command_option(plain[bad]), "'%s' (from '%s') refused as starting COMMAND",
			   plain[bad], argv[bad]);
		cli_argv_free(bad + 1, argv, plain);
		return;
	}
	if (r == -EINVAL) {
		const char *w = argv[bad], *one = NULL;
		bool exact;

		FUZZ_CHECK(bad > 0 && bad < argc && w[0] == '-' && w[1] == '-' &&
			   prefix_of(w + 2, strcspn(w + 2, "="), &exact, &one) >= 2 && !exact,
			   "'%s' called ambiguous in COMMAND mode", bad > 0 && bad < argc ? w : "?");
		return;
	}
	FUZZ_CHECK(command >= 0 && command < argc, "COMMAND at %d of %d", command, argc);
	FUZZ_CHECK(cmd_out[0] == argv[0] && cmd_out[argc] == NULL, "argv[0] or the end changed");
	/* COMMAND [ARG]... is left alone, word for word. */
	for (int i = command > 0 ? command : argc; i < argc; i++)
		FUZZ_CHECK(cmd_out[i] == argv[i], "COMMAND's word %d '%s' became '%s'", i, argv[i], cmd_out[i]);
	/* Before it, the same as without COMMAND mode. */
	pr = cli_argv_rewrite(command > 0 ? command : argc, argv, table, &plain, &pbad);
	FUZZ_CHECK(pr == 0, "the words before COMMAND rewrite with %d", pr);
	for (int i = 0; i < (command > 0 ? command : argc); i++)
		FUZZ_CHECK(strcmp(plain[i], cmd_out[i]) == 0, "word %d: '%s' in COMMAND mode, '%s' without",
			   i, cmd_out[i], plain[i]);
	if (command > 0) {
		bool seen = false;

		/* COMMAND follows "--", or is an operand, after an option that starts COMMAND mode. */
		FUZZ_CHECK(strcmp(argv[command - 1], "--") == 0 || operand(argv[command]),
			   "COMMAND '%s' is neither an operand nor after --", argv[command]);
		for (int i = 1; i < command && !seen; i++)
			seen = command_option(plain[i]);
		FUZZ_CHECK(seen, "COMMAND at %d ('%s') with no -o or --scratch before it", command, argv[command]);
	}
	cli_argv_free(command > 0 ? command : argc, argv, plain);

	/* popt stops where COMMAND starts: what it leaves over is COMMAND [ARG]... exactly. */
	pc = poptGetContext("fuzz", argc, cmd_out, table, command > 0 ? POPT_CONTEXT_POSIXMEHARDER : 0);
	FUZZ_CHECK(pc != NULL, "poptGetContext");
	while ((r = poptGetNextOpt(pc)) > 0) {
		char *arg = poptGetOptArg(pc);

		if (r == OPT_STRING)
			FUZZ_CHECK(arg != NULL, "a required argument is missing");
		free(arg);
	}
	if (r == -1 && command > 0) {
		const char **rest = poptGetArgs(pc);
		int n = 0;

		for (; rest != NULL && rest[n] != NULL; n++)
			FUZZ_CHECK(command + n < argc && strcmp(rest[n], argv[command + n]) == 0,
				   "popt left '%s' where COMMAND's word %d is '%s'", rest[n], n,
				   command + n < argc ? argv[command + n] : "(none)");
		FUZZ_CHECK(command + n == argc, "popt left %d words of COMMAND's %d", n, argc - command);
	}
	pc = poptFreeContext(pc);
	cli_argv_free(argc, argv, cmd_out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *argv[MAX_ARGS + 2], **out = NULL, **again = NULL;
	char *words[MAX_ARGS], *block;
	size_t n = fuzz_split(data, size, words, MAX_ARGS, &block);
	int argc = (int)n + 1, bad = -1, r;
	poptContext pc;

	if (nnames == 0)
		nnames = long_names(table, names, 0);
	argv[0] = "tmpcreate";
	for (size_t i = 0; i < n; i++)
		argv[i + 1] = words[i];
	argv[argc] = NULL;

	check_command_mode(argc, argv);
	r = cli_argv_rewrite(argc, argv, table, &out, &bad);
	FUZZ_CHECK(r == 0 || r == -EINVAL, "rewrite gave %d", r);
	if (r == -EINVAL) {
		const char *w = argv[bad], *one = NULL;
		size_t len = strcspn(w + 2, "=");
		bool exact;

		FUZZ_CHECK(bad > 0 && bad < argc && w[0] == '-' && w[1] == '-' && len > 0,
			   "'%s' called ambiguous", bad > 0 && bad < argc ? w : "?");
		FUZZ_CHECK(prefix_of(w + 2, len, &exact, &one) >= 2 && !exact,
			   "'%s' is not ambiguous", w);
		free(block);
		return 0;
	}
	FUZZ_CHECK(out[0] == argv[0] && out[argc] == NULL, "argv[0] or the end changed");
	for (int i = 1; i < argc; i++) {
		FUZZ_CHECK(out[i] != NULL, "word %d lost", i);
		if (out[i] != argv[i])
			check_changed(argv[i], out[i]);
	}
	/* A second rewrite finds nothing to do. */
	r = cli_argv_rewrite(argc, out, table, &again, &bad);
	FUZZ_CHECK(r == 0, "rewriting the rewritten argv gave %d", r);
	for (int i = 0; i < argc; i++)
		FUZZ_CHECK(strcmp(again[i], out[i]) == 0, "'%s' rewritten again as '%s'", out[i], again[i]);
	cli_argv_free(argc, out, again);

	/* popt on the result: no fault, and an optional argument only ever from "=". */
	pc = poptGetContext("fuzz", argc, out, table, 0);
	FUZZ_CHECK(pc != NULL, "poptGetContext");
	while ((r = poptGetNextOpt(pc)) > 0) {
		char *arg = poptGetOptArg(pc);

		FUZZ_CHECK(r == OPT_NONE || r == OPT_STRING || r == OPT_OPTIONAL ||
			   r == CLI_OPT_VERSION, "popt returned %d", r);
		if (r == OPT_STRING)
			FUZZ_CHECK(arg != NULL, "a required argument is missing");
		if (r == OPT_OPTIONAL && arg != NULL) {
			bool from_eq = false;

			for (int i = 1; i < argc && !from_eq; i++) {
				const char *eq = strchr(out[i], '=');

				from_eq = out[i][0] == '-' && out[i][1] == '-' && eq != NULL &&
					  strcmp(eq + 1, arg) == 0;
			}
			FUZZ_CHECK(from_eq, "optional argument '%s' not given with '='", arg);
		}
		free(arg);
	}
	FUZZ_CHECK(r == -1 || poptBadOption(pc, POPT_BADOPTION_NOALIAS) != NULL,
		   "popt error %d without the option", r);
	pc = poptFreeContext(pc);
	cli_argv_free(argc, argv, out);
	free(block);
	return 0;
}
