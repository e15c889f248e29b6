/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmpcreate (doc/design.md §4, §7): the options and the choice of mode; each mode has its file
 * (mktemp.c, output.c, scratch.c, probe.c), and what they share is in common.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <locale.h>
#include <string.h>

#include "cli.h"
#include "tmpcreate.h"

enum {
	OPT_BACKUP = 1,
	OPT_DIRECTORY,
	OPT_DRY_RUN,
	OPT_IF_CHANGED,
	OPT_JSON,
	OPT_METHOD,
	OPT_MODE,
	OPT_NO_CLOBBER,
	OPT_NO_DEREFERENCE,
	OPT_OUTPUT,
	OPT_PRESERVE,
	OPT_PROBE,
	OPT_QUIET,
	OPT_SCRATCH,
	OPT_SUFFIX,
	OPT_SYNC,
	OPT_T,
	OPT_TMPDIR,
	OPT_VERBOSE,
};

/* mktemp mode: the options of mktemp(1), sorted by long name. */
static struct poptOption mktemp_options[] = {
	{ "directory", 'd', POPT_ARG_NONE, NULL, OPT_DIRECTORY,
	  "create a directory, not a file", NULL },
	{ "dry-run", 'u', POPT_ARG_NONE, NULL, OPT_DRY_RUN,
	  "do not create anything; merely print a name (unsafe)", NULL },
	{ "quiet", 'q', POPT_ARG_NONE, NULL, OPT_QUIET,
	  "suppress diagnostics about file/dir-creation failure", NULL },
	{ "suffix", '\0', POPT_ARG_STRING, NULL, OPT_SUFFIX,
	  "append SUFF to TEMPLATE; SUFF must not contain a slash", "SUFF" },
	{ "tmpdir", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_TMPDIR,
	  "interpret TEMPLATE relative to DIR ($TMPDIR if set, else /tmp)", "DIR" },
	{ NULL, 'p', POPT_ARG_STRING, NULL, OPT_TMPDIR,
	  "same as --tmpdir=DIR (also the directory of --scratch and --probe)", "DIR" },
	{ NULL, 't', POPT_ARG_NONE, NULL, OPT_T,
	  "TEMPLATE is one name in $TMPDIR, else -p DIR, else /tmp [deprecated]", NULL },
	POPT_TABLEEND
};

/* GNU mktemp 9.1's long options, in the order of its table. */
static const char *const gnu_mktemp_options[] = {
	"directory", "quiet", "dry-run", "suffix", "tmpdir", "help", "version", NULL
};

/* -o mode: atomic output, sorted by long name. */
static struct poptOption output_options[] = {
	{ "backup", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_BACKUP,
	  "keep the old FILE as FILE~ (or FILE plus SUFFIX)", "SUFFIX" },
	{ NULL, 'b', POPT_ARG_NONE, NULL, OPT_BACKUP,
	  "like --backup, with the default suffix", NULL },
	{ "if-changed", '\0', POPT_ARG_NONE, NULL, OPT_IF_CHANGED,
	  "leave FILE (and its mtime) alone when the new bytes are the same", NULL },
	{ "mode", 'm', POPT_ARG_STRING, NULL, OPT_MODE,
	  "give FILE this octal mode (default: the old FILE's, else 0666 & ~umask)", "MODE" },
	{ "no-clobber", 'n', POPT_ARG_NONE, NULL, OPT_NO_CLOBBER,
	  "fail rather than replace an existing FILE (race-free)", NULL },
	{ "no-dereference", 'P', POPT_ARG_NONE, NULL, OPT_NO_DEREFERENCE,
	  "replace a symbolic link FILE itself, not its target", NULL },
	{ "output", 'o', POPT_ARG_STRING, NULL, OPT_OUTPUT,
	  "write standard input, or COMMAND's output, to FILE atomically", "FILE" },
	{ "preserve", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_PRESERVE,
	  "preserve only these of the old FILE's attributes: mode, ownership, xattr, flags, all (default: all the caller may preserve)",
	  "LIST" },
	{ "sync", '\0', POPT_ARG_STRING, NULL, OPT_SYNC,
	  "flush nothing (none), the data (data), or data and directory (full, the default)", "LEVEL" },
	POPT_TABLEEND
};

/* Options every mode shares, and the mode switches; sorted by long name. */
static const struct poptOption options[] = {
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, mktemp_options, 0,
	  "Creating a temporary file or directory (mktemp):", NULL },
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, output_options, 0,
	  "Atomic output (-o FILE):", NULL },
	{ "json", '\0', POPT_ARG_NONE, NULL, OPT_JSON,
	  "with --probe: one JSON object per directory", NULL },
	{ "method", '\0', POPT_ARG_STRING, NULL, OPT_METHOD,
	  "how files are made: auto (default), tmpfile or named", "METHOD" },
	{ "probe", '\0', POPT_ARG_NONE, NULL, OPT_PROBE,
	  "tell what each DIR's filesystem supports, and which method auto picks", NULL },
	{ "scratch", '\0', POPT_ARG_NONE, NULL, OPT_SCRATCH,
	  "run COMMAND with an unnamed scratch file ($TMPCREATE_FD, $TMPCREATE_FILE, {})", NULL },
	{ "verbose", 'v', POPT_ARG_NONE, NULL, OPT_VERBOSE,
	  "say which method made the file, and why", NULL },
	CLI_VERSION_OPTION,
	POPT_AUTOHELP
	POPT_TABLEEND
};

/* The options after which the first operand is COMMAND, and options end. */
static const char *const command_options[] = { "output", "scratch", NULL };

static void set_string(char **slot, poptContext pc)
{
	free(*slot);
	*slot = poptGetOptArg(pc);
}

/* An option with an optional argument: NULL when given bare. */
static void set_optarg(char **slot, poptContext pc)
{
	free(*slot);
	*slot = cli_popt_optarg(pc);
}

/* The index of @arg in @keywords, or a usage error naming --@option. */
#define PARSE_KEYWORD(option, arg, keywords) \
	parse_keyword(option, arg, keywords, ARRAY_SIZE(keywords))

static size_t parse_keyword(const char *option, const char *arg, const char *const *keywords, size_t n)
{
	int i = cli_parse_keyword(arg, keywords, n);

	if (i < 0)
		cli_bad_keyword(option, arg, keywords, n);
	return (size_t)i;
}

static unsigned int parse_preserve(const char *list)
{
	unsigned int bits;
	size_t off, len;

	/* Bare --preserve is all; an empty list, or an empty keyword in it, is a mistake (as cp says). */
	if (list == NULL)
		return FATTRS_PRESERVE_ALL;
	if (cli_parse_list(list, preserve_keywords, ARRAY_SIZE(preserve_keywords), &bits, &off, &len) < 0) {
		char *bad = strndup(list + off, len);

		if (bad == NULL)
			cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
		cli_bad_keyword("preserve", bad, preserve_keywords, ARRAY_SIZE(preserve_keywords));
	}
	/* The last keyword, "all", is every bit before it. */
	if (bits & (1U << (ARRAY_SIZE(preserve_keywords) - 1)))
		bits = FATTRS_PRESERVE_ALL;
	return bits;
}

static mode_t parse_mode(const char *arg)
{
	mode_t m;

	if (cli_parse_mode(arg, &m) < 0)
		cli_usage_error(_("invalid mode %s; give it in octal, such as 0644"), cli_quote(arg));
	return m;
}

/* ------------------------------------------------------------ main */

/* Options of one mode given in another are mistakes: say so rather than ignore them. */
static void check_modes(const struct tmpcreate_control *ctl)
{
	const struct {
		bool given;
		const char *name;
	} output_only[] = {
		{ ctl->backup != NULL, "--backup" },
		{ ctl->if_changed, "--if-changed" },
		{ ctl->mode_set, "--mode" },
		{ ctl->no_clobber, "--no-clobber" },
		{ ctl->no_dereference, "--no-dereference" },
		{ ctl->preserve_set, "--preserve" },
		{ ctl->sync_set, "--sync" },
	}, not_output[] = {
		{ ctl->tmpdir != NULL, "--tmpdir" },
	}, mktemp_only[] = {
		{ ctl->directory, "--directory" },
		{ ctl->dry_run, "--dry-run" },
		{ ctl->quiet, "--quiet" },
		{ ctl->suffix != NULL, "--suffix" },
		{ ctl->deprecated_t, "-t" },
	};

	if ((ctl->probe ? 1 : 0) + (ctl->output != NULL ? 1 : 0) + (ctl->scratch ? 1 : 0) > 1)
		cli_usage_error(_("--output, --scratch and --probe cannot be combined"));
	for (size_t i = 0; i < sizeof(output_only) / sizeof(output_only[0]); i++) {
		if (output_only[i].given && ctl->output == NULL)
			cli_usage_error(_("%s applies only to --output"), output_only[i].name);
	}
	for (size_t i = 0; i < sizeof(not_output) / sizeof(not_output[0]); i++) {
		if (not_output[i].given && ctl->output != NULL)
			cli_usage_error(_("%s does not apply to --output: FILE's own directory is used"),
					not_output[i].name);
	}
	for (size_t i = 0; i < sizeof(mktemp_only) / sizeof(mktemp_only[0]); i++) {
		if (mktemp_only[i].given && (ctl->output != NULL || ctl->scratch || ctl->probe))
			cli_usage_error(_("%s does not apply to --output, --scratch or --probe"),
					mktemp_only[i].name);
	}
	if (ctl->json && !ctl->probe)
		cli_usage_error(_("--json applies only to --probe"));
}

/*
 * "--backup .orig" is --backup with the default suffix, then COMMAND
 * ".orig": a COMMAND that reads as a suffix (it starts with '.' or '~' and
 * has no slash) after a -b or --backup without one is refused, saying so.
 */
static void check_backup_suffix(const struct tmpcreate_control *ctl, bool backup_bare,
				const char **cmd)
{
	if (!backup_bare || ctl->output == NULL || cmd == NULL || cmd[0] == NULL)
		return;
	if ((cmd[0][0] == '.' || cmd[0][0] == '~') && strchr(cmd[0], '/') == NULL)
		cli_usage_error(_("%s looks like a backup suffix, not a COMMAND: a suffix only follows %s, as in --backup=SUFFIX (to run a COMMAND of that name, write ./NAME)"),
				cli_quote(cmd[0]), cli_quote("="));
}

int main(int argc, const char **argv)
{
	struct tmpcreate_control ctl = {
		.method = FATTRS_TMP_AUTO,
		.preserve = FATTRS_PRESERVE_ALL,
		.sync = SYNC_FULL,
	};
	poptContext pc;
	char *arg = NULL;
	bool backup_bare = false;
	int rc, status;

	(void)setlocale(LC_ALL, "");
	cli_init(argv[0]);
	if (strcmp(program_name, "mktemp") == 0) {
		cli_name_messages_as_given(argv[0]);	/* as GNU's: "/usr/local/bin/mktemp: ..." */
		cli_abbreviate_among(gnu_mktemp_options);	/* "--s" is --suffix, as GNU's */
	}
	/* -o and --scratch: options end at COMMAND, the first operand (as with env). */
	pc = cli_popt_context_command(argc, argv, options,
				      "[OPTION...] [TEMPLATE]\n"
				      "  or:  tmpcreate -o FILE [OPTION...] [[--] COMMAND [ARG]...]\n"
				      "  or:  tmpcreate --scratch [OPTION...] [--] COMMAND [ARG]...\n"
				      "  or:  tmpcreate --probe [OPTION...] [DIR]...",
				      command_options);
	while ((rc = poptGetNextOpt(pc)) > 0) {
		switch (rc) {
		case OPT_DIRECTORY: ctl.directory = true; break;
		case OPT_DRY_RUN: ctl.dry_run = true; break;
		case OPT_JSON: ctl.json = true; break;
		case OPT_PROBE: ctl.probe = true; break;
		case OPT_QUIET: ctl.quiet = true; break;
		case OPT_T: ctl.deprecated_t = ctl.use_tmpdir = true; break;
		case OPT_VERBOSE: ctl.verbose = true; break;
		case OPT_SUFFIX: set_string(&ctl.suffix, pc); break;
		case OPT_TMPDIR:
			/* Bare --tmpdir, or an empty one: $TMPDIR, else /tmp. */
			set_optarg(&ctl.tmpdir, pc);
			ctl.use_tmpdir = true;
			break;
		case OPT_METHOD:
			set_string(&arg, pc);
			ctl.method = PARSE_KEYWORD("method", arg, method_keywords);
			break;
		case OPT_OUTPUT: set_string(&ctl.output, pc); break;
		case OPT_SCRATCH: ctl.scratch = true; break;
		case OPT_NO_CLOBBER: ctl.no_clobber = true; break;
		case OPT_NO_DEREFERENCE: ctl.no_dereference = true; break;
		case OPT_IF_CHANGED: ctl.if_changed = true; break;
		case OPT_BACKUP:
			/* -b and a bare --backup: the default suffix (never the next word). */
			set_optarg(&ctl.backup, pc);
			backup_bare = ctl.backup == NULL;
			if (backup_bare)
				ctl.backup = strdup("~");
			if (ctl.backup == NULL)
				cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
			if (*ctl.backup == '\0')
				cli_usage_error(_("invalid backup suffix %s: it must not be empty"),
						cli_quote(ctl.backup));
			if (strchr(ctl.backup, '/') != NULL)
				cli_usage_error(_("invalid backup suffix %s, contains directory separator"),
						cli_quote(ctl.backup));
			break;
		case OPT_MODE:
			set_string(&arg, pc);
			ctl.mode = parse_mode(arg);
			ctl.mode_set = true;
			break;
		case OPT_PRESERVE:
			set_optarg(&arg, pc);
			ctl.preserve = parse_preserve(arg);
			ctl.preserve_set = true;
			break;
		case OPT_SYNC:
			set_string(&arg, pc);
			ctl.sync = (enum sync_level)PARSE_KEYWORD("sync", arg, sync_keywords);
			ctl.sync_set = true;
			break;
		case CLI_OPT_VERSION:
			poptFreeContext(pc);
			cli_version();
		}
	}
	if (rc < -1)
		cli_popt_fail(pc, rc);

	check_modes(&ctl);
	check_backup_suffix(&ctl, backup_bare, poptGetArgs(pc));
	if (ctl.probe)
		status = probe_main(&ctl, poptGetArgs(pc));
	else if (ctl.output != NULL)
		status = output_main(&ctl, poptGetArgs(pc));
	else if (ctl.scratch)
		status = scratch_main(&ctl, poptGetArgs(pc));
	else
		status = mktemp_main(&ctl, poptGetArgs(pc));

	free(arg);
	free(ctl.suffix);
	free(ctl.tmpdir);
	free(ctl.output);
	free(ctl.backup);
	poptFreeContext(pc);
	return status;
}
