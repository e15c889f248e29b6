/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setfattrs (doc/design.md §3, §7): set and clear kernel flags and fattrs flags on any filesystem.
 * main(): the options, then each operand (operands.c); the rest is split by concern.
 */
#include "config.h"

#include <locale.h>

#include "setfattrs.h"

enum {
	OPT_DRY_RUN = 1,
	OPT_JSON,
	OPT_LIST,
	OPT_NO_DEREFERENCE,
	OPT_ONE_FILE_SYSTEM,
	OPT_RECURSIVE,
	OPT_REFERENCE,
	OPT_SILENT,
	OPT_VERBOSE,
};

/* Sorted by long name. */
const struct poptOption sf_options[] = {
	{ "dry-run", 'n', POPT_ARG_NONE, NULL, OPT_DRY_RUN,
	  "say what would change; change nothing", NULL },
	{ "json", '\0', POPT_ARG_NONE, NULL, OPT_JSON,
	  "print --list, -v and -n results as JSON, one object per line", NULL },
	{ "list", '\0', POPT_ARG_NONE, NULL, OPT_LIST,
	  "list every flag (with FILE: whether FILE can hold it)", NULL },
	{ "no-dereference", 'h', POPT_ARG_NONE, NULL, OPT_NO_DEREFERENCE,
	  "act on symbolic links themselves, not on what they point to", NULL },
	{ "one-file-system", 'x', POPT_ARG_NONE, NULL, OPT_ONE_FILE_SYSTEM,
	  "with -R, do not enter directories on other filesystems", NULL },
	{ "recursive", 'R', POPT_ARG_NONE, NULL, OPT_RECURSIVE,
	  "change directories and their contents; never follow symlinks inside", NULL },
	{ "reference", '\0', POPT_ARG_STRING, NULL, OPT_REFERENCE,
	  "make each FILE's flags RFILE's (those both can hold)", "RFILE" },
	{ "silent", 'f', POPT_ARG_NONE, NULL, OPT_SILENT,
	  "suppress most error messages", NULL },
	{ "verbose", 'v', POPT_ARG_NONE, NULL, OPT_VERBOSE,
	  "say, for each file, every flag that changed", NULL },
	CLI_VERSION_OPTION,
	POPT_AUTOHELP
	POPT_TABLEEND
};

#define OPERANDS "[OPTION...] [+-=]FLAG[,FLAG]... [[+-=]FLAG...]... FILE...\n" \
		 "  or:  setfattrs [OPTION...] --reference=RFILE FILE...\n" \
		 "  or:  setfattrs --list [--json] [FILE]"

/*
 * The argv given to popt, reachable from here until exit (a usage error
 * exits with it): volatile, so that the store is not dropped as never read.
 */
static const char **volatile split_popt_argv;

int main(int argc, const char **argv)
{
	struct setfattrs_control ctl = { .nfsteps = -1, .nostat = -1, .all_trusted = -1, .opdir = -1,
					 .byname = -1 };
	const char **popt_argv, **files, **rest;
	int popt_argc, rc, procfd = -1;
	bool ok = true;

	(void)setlocale(LC_ALL, "");
	cli_init(argv[0]);
	fattrs_flagops_init(&ctl.ops);
	popt_argv = split_popt_argv = calloc((size_t)argc + 1, sizeof(*popt_argv));
	if (popt_argv == NULL)
		cli_die(CLI_EXIT_FAILURE, ENOMEM, _("cannot start"));
	sf_split_args(&ctl, argc, argv, popt_argv, &popt_argc, &files);

	poptContext pc = cli_popt_context(popt_argc, popt_argv, sf_options, OPERANDS);

	while ((rc = poptGetNextOpt(pc)) > 0) {
		switch (rc) {
		case OPT_DRY_RUN: ctl.dry_run = true; break;
		case OPT_JSON: ctl.json = true; break;
		case OPT_LIST: ctl.list = true; break;
		case OPT_NO_DEREFERENCE: ctl.nofollow = true; break;
		case OPT_ONE_FILE_SYSTEM: ctl.one_fs = true; break;
		case OPT_RECURSIVE: ctl.recursive = true; break;
		case OPT_REFERENCE: ctl.reference = poptGetOptArg(pc); break;
		case OPT_SILENT: ctl.silent = true; break;
		case OPT_VERBOSE: ctl.verbose = true; break;
		case CLI_OPT_VERSION:
			poptFreeContext(pc);
			cli_version();
		}
	}
	if (rc < -1)
		cli_popt_fail(pc, rc);
	rest = poptGetArgs(pc);
	if (rest != NULL && rest[0] != NULL)
		cli_usage_error(_("unexpected operand %s"), cli_quote(rest[0]));

	if (ctl.list) {
		if (!fattrs_flagops_empty(&ctl.ops))
			cli_usage_error(_("--list takes no operations"));
		if (files[0] != NULL && files[1] != NULL)
			cli_usage_error(_("--list takes one FILE at most"));
		rc = sf_list_main(&ctl, files[0]);
		goto out;
	}
	if (ctl.reference != NULL && !fattrs_flagops_empty(&ctl.ops))
		cli_usage_error(_("--reference takes no operations"));
	if (ctl.reference == NULL && fattrs_flagops_empty(&ctl.ops) && ctl.not_op != NULL)
		sf_bad_operation(ctl.not_op, ctl.not_op_r, &ctl.not_op_e);
	if (ctl.reference == NULL && fattrs_flagops_empty(&ctl.ops))
		cli_usage_error(_("missing operation: give +FLAG, -FLAG or =FLAG,... (%s lists every flag)"),
				cli_quote_printf("%s --list", program_name));
	if (files[0] == NULL) {
		struct stat st;

		/* "setfattrs +d +d" meant for a file named "+d": say how to name it. */
		if (ctl.last_op != NULL && fstatat(AT_FDCWD, ctl.last_op, &st, AT_SYMLINK_NOFOLLOW) == 0)
			cli_usage_error(_("missing file operand: %s names a flag, so it is taken as an operation; name the file as %s (or after a -- that follows the operations)"),
					cli_quotef(ctl.last_op), cli_quotef_printf("./%s", ctl.last_op));
		cli_usage_error(_("missing file operand"));
	}
	if (ctl.reference != NULL)
		sf_reference_ops(&ctl);
	sf_check_ops(&ctl);
	/*
	 * A pinned file's kernel flags are read and written through its
	 * descriptor's /proc/self/fd link: one name looked up in this
	 * directory instead of four (a missing /proc: the library's own way).
	 */
	if (ctl.kops) {
		procfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (procfd >= 0 && fattrs_kattr_set_procfd(procfd) < 0) {
			(void)close(procfd);
			procfd = -1;
		}
	}
	for (size_t i = 0; files[i] != NULL; i++)
		ok &= setfattrs_operand(&ctl, files[i]);
	sf_leave_dir(&ctl);
	if (procfd >= 0) {
		(void)fattrs_kattr_set_procfd(-1);
		(void)close(procfd);
	}
	rc = ok ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
out:
	poptFreeContext(pc);
	free(files);
	free(popt_argv);
	free((void *)(uintptr_t)ctl.reference);
	fattrs_mntcache_free(ctl.mntcache);
	return rc;
}
