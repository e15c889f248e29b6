/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xstat (doc/design.md §7): file and filesystem status, a drop-in for GNU stat 9.1; run as "stat",
 * its messages say "stat:", so scripts and GNU's own tests see no difference.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <locale.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "cli.h"
#include "fattrs.h"
#include "format.h"
#include "view.h"

enum {
	OPT_FORMAT = 1,
	OPT_PRINTF,
	OPT_TERSE,
	OPT_FILE_SYSTEM,
	OPT_DEREFERENCE,
	OPT_CACHED,
	OPT_FILES0_FROM,
	OPT_JSON,
	OPT_NULL,
	OPT_ALL,
	OPT_HELP,
	OPT_USAGE,
};

static const struct poptOption options[] = {
	{ "dereference", 'L', POPT_ARG_NONE, NULL, OPT_DEREFERENCE,
	  "follow links", NULL },
	{ "file-system", 'f', POPT_ARG_NONE, NULL, OPT_FILE_SYSTEM,
	  "display file system status instead of file status", NULL },
	{ "cached", '\0', POPT_ARG_STRING, NULL, OPT_CACHED,
	  "how to use cached attributes (useful on remote file systems): always, never or default",
	  "MODE" },
	{ "format", 'c', POPT_ARG_STRING, NULL, OPT_FORMAT,
	  "use the specified FORMAT instead of the default; output a newline after each use of FORMAT",
	  "FORMAT" },
	{ "printf", '\0', POPT_ARG_STRING, NULL, OPT_PRINTF,
	  "like --format, but interpret backslash escapes, and do not output a mandatory trailing newline",
	  "FORMAT" },
	{ "terse", 't', POPT_ARG_NONE, NULL, OPT_TERSE,
	  "print the information in terse form", NULL },
	{ "files0-from", '\0', POPT_ARG_STRING, NULL, OPT_FILES0_FROM,
	  "read the names of the files from F, each ended by a NUL byte (- for standard input)", "F" },
	{ "json", '\0', POPT_ARG_NONE, NULL, OPT_JSON,
	  "print one JSON object per file, one per line, keyed by the %{name} names", NULL },
	{ "all", 'a', POPT_ARG_NONE, NULL, OPT_ALL,
	  "without a format, the whole default view; with --json, also the fields marked (-a) below", NULL },
	{ "null", '0', POPT_ARG_NONE, NULL, OPT_NULL,
	  "end each output record (--format, --json) with a NUL byte, not a newline", NULL },
	CLI_VERSION_OPTION,
	{ "help", '?', POPT_ARG_NONE, NULL, OPT_HELP, "show this help message and exit", NULL },
	{ "usage", '\0', POPT_ARG_NONE, NULL, OPT_USAGE, "display a brief usage message and exit", NULL },
	POPT_TABLEEND
};

/* GNU stat 9.1's long options, in the order of its table. */
static const char *const gnu_stat_options[] = {
	"dereference", "file-system", "format", "printf", "terse", "cached", "help", "version", NULL
};

static const char *const cached_words[] = { "default", "never", "always" };
static const int cached_flags[] = { 0, AT_STATX_FORCE_SYNC, AT_STATX_DONT_SYNC };

struct xstat_control {
	char *format;
	bool printf_mode;	/* --printf: escapes, no trailing newline */
	bool terse;
	bool fs;
	bool follow;
	int sync_flags;
	char *files0_from;
	bool json;
	bool null;	/* -0: records end with NUL */
	bool all;	/* -a/--all: the fields marked FMT_F_ALL too */
};

/* GNU argmatch's complaint about @word (freed here) for --@option, and exit. */
__attribute__((noreturn))
static void bad_word(const char *option, char *word, int why, const char *const *words, size_t n)
{
	char opt[64];

	snprintf(opt, sizeof(opt), "--%s", option);
	cli_warn(0, why == -2 ? _("ambiguous argument %s for %s") : _("invalid argument %s for %s"),
		 cli_quotearg(word, CLI_QS_LOCALE), cli_quotearg(opt, CLI_QS_LOCALE));
	fputs(_("Valid arguments are:"), stderr);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "\n  - %s", cli_quotearg(words[i], CLI_QS_LOCALE));
	fputc('\n', stderr);
	cli_try_help();
	free(word);
	exit(CLI_EXIT_FAILURE);
}

/*
 * The one place that says which output a run without a format gets:
 * under the name "stat" GNU stat 9.1's, byte for byte; under any other
 * name the default view (view.c), except with -f and -t, whose
 * outputs stay GNU's.
 */
static bool gnu_default_view(const struct xstat_control *ctl)
{
	return strcmp(program_name, "stat") == 0 || ctl->fs || ctl->terse;
}

/* libselinux's is_selinux_enabled(), enough for the choice of format: selinuxfs is mounted. */
static bool selinux_enabled(void)
{
	const struct fattrs_fstype *t;
	struct statfs sfs;

	return fattrs_statfs(AT_FDCWD, "/sys/fs/selinux", 0, &sfs) == 0 &&
	       (t = fattrs_fstype_by_magic((uint32_t)sfs.f_type)) != NULL &&
	       t->name != NULL && strcmp(t->name, "selinuxfs") == 0;
}

/* GNU stat 9.1's default formats. */
static char *default_format(bool fs, bool terse, bool device)
{
	const char *f;
	char *s;

	/* _(): under the name stat, the texts of GNU's catalog, where GNU translates them */
	if (fs) {
		f = terse ? "%n %i %l %t %s %S %b %f %a %c %d\n"
			  : _("  File: \"%n\"\n"
			      "    ID: %-8i Namelen: %-7l Type: %T\n"
			      "Block size: %-10s Fundamental block size: %S\n"
			      "Blocks: Total: %-10b Free: %-10f Available: %a\n"
			      "Inodes: Total: %-10c Free: %d\n");
		return strdup(f);
	}
	if (terse)
		return strdup(selinux_enabled() ? "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o %C\n"
						: "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n");
	if (asprintf(&s, "%s%s%s%s%s",
		     _("  File: %N\n"
		       "  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"),
		     device ? _("Device: %Hd,%Ld\tInode: %-10i  Links: %-5h Device type: %Hr,%Lr\n")
			    : _("Device: %Hd,%Ld\tInode: %-10i  Links: %h\n"),
		     _("Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"),
		     selinux_enabled() ? _("Context: %C\n") : "",
		     _("Access: %x\n"
		       "Modify: %y\n"
		       "Change: %z\n"
		       " Birth: %w\n")) < 0)
		return NULL;
	return s;
}

/* %N's quoting: QUOTING_STYLE, else shell-escape-always (GNU reads it only for a "%N"). */
static int env_quoting_style(void)
{
	const char *q = getenv("QUOTING_STYLE");
	int i;

	if (q == NULL)
		return CLI_QS_SHELL_ESCAPE_ALWAYS;
	i = cli_quoting_style_parse(q);
	if (i >= 0)
		return i;
	cli_warn(0, _("ignoring invalid value of environment variable QUOTING_STYLE: %s"),
		 cli_quotearg(q, CLI_QS_LOCALE));
	return CLI_QS_SHELL_ESCAPE_ALWAYS;
}

struct run {
	const struct xstat_control *ctl;
	struct fmt *fmt, *fmt_dev;	/* fmt_dev: for block and character devices */
	unsigned int mask;
	const char *trailer;
	int term;		/* after the trailer: '\0' for -0, or -1 for nothing */
	struct fmt_ctx *ctx;
	struct view *view;	/* the default view (else NULL) */
};

/* One file's output, once its statx is in @file. */
static bool output(struct run *r, struct fmt_file *file)
{
	const struct fmt *fmt = r->fmt;
	bool ok;

	if (r->ctl->json)
		return fmt_json(file, stdout, r->ctl->all, r->ctl->null ? '\0' : '\n');
	if (r->view != NULL)
		return view_render(r->view, file, stdout);
	if (S_ISBLK(file->stx->stx_mode) || S_ISCHR(file->stx->stx_mode))
		fmt = r->fmt_dev;
	ok = fmt_render(fmt, file, stdout, r->trailer);
	if (r->term >= 0)
		putchar(r->term);
	return ok;
}

static bool do_stat(struct run *r, const char *name)
{
	struct fattrs_statx_buf stx;
	struct fmt_file file = { .name = name, .stx = &stx, .ctx = r->ctx };
	int dirfd = AT_FDCWD, flags = (int)fattrs_at_nofollow(!r->ctl->follow);
	const char *path = name;
	bool ok;
	int e;

	if (strcmp(name, "-") == 0) {
		dirfd = STDIN_FILENO;
		path = "";
		flags = AT_EMPTY_PATH;
	}
	if (dirfd == STDIN_FILENO && cli_fd_was_closed(STDIN_FILENO))
		e = -EBADF;	/* as GNU stat finds it, not the /dev/null standing in */
	else if (dirfd != STDIN_FILENO && cli_path_closed_fd(name, r->ctl->follow) >= 0)
		e = -ENOENT;	/* /dev/fd/0 of a closed stdin: the same */
	else
		e = fattrs_statx(dirfd, path, flags | r->ctl->sync_flags, r->mask, &stx);
	if (e < 0) {
		if (dirfd == STDIN_FILENO)
			cli_warn(-e, _("cannot stat standard input"));
		else
			cli_warn(-e, _("cannot statx %s"), cli_quotearg(name, CLI_QS_SHELL_ESCAPE_ALWAYS));
		return false;
	}
	file.dirfd = dirfd;
	file.path = path;
	file.at_flags = flags | r->ctl->sync_flags;
	ok = output(r, &file);
	fmt_file_release(&file);
	return ok;
}

static bool do_statfs(struct run *r, const char *name)
{
	struct statfs sfs;
	struct fmt_file file = { .name = name, .sfs = &sfs, .ctx = r->ctx };
	bool ok;
	int e;

	if (strcmp(name, "-") == 0) {
		cli_warn(0, _("using %s to denote standard input does not work in file system mode"),
			 cli_quotearg(name, CLI_QS_SHELL_ESCAPE_ALWAYS));
		return false;
	}
	e = fattrs_statfs(AT_FDCWD, name, 0, &sfs);
	if (e < 0) {
		cli_warn(-e, _("cannot read file system information for %s"),
			 cli_quotearg(name, CLI_QS_SHELL_ESCAPE_ALWAYS));
		return false;
	}
	ok = fmt_render(r->fmt, &file, stdout, r->trailer);
	if (r->term >= 0)
		putchar(r->term);
	return ok;
}

static bool do_one(struct run *r, const char *name)
{
	return r->ctl->fs ? do_statfs(r, name) : do_stat(r, name);
}

/* --files0-from=F: every NUL-terminated name in F. */
static bool do_files0(struct run *r, const char *from)
{
	FILE *in;
	char *name = NULL;
	size_t alloc = 0, count = 0;
	ssize_t n;
	bool ok = true;

	if (strcmp(from, "-") == 0)
		in = stdin;
	else if (cli_path_closed_fd(from, true) >= 0)
		in = NULL, errno = ENOENT;	/* not the /dev/null standing in */
	else
		in = fopen(from, "re");
	if (in == NULL)
		cli_die(CLI_EXIT_FAILURE, errno, _("cannot open %s for reading"),
			cli_quotearg(from, CLI_QS_SHELL_ESCAPE_ALWAYS));
	while ((n = getdelim(&name, &alloc, '\0', in)) > 0) {
		count++;
		/* GNU's rule (du, wc): every byte is part of a name, a newline too. */
		if (name[0] == '\0') {
			cli_warn(0, _("%s:%zu: invalid zero-length file name"),
				 cli_quotearg(from, CLI_QS_SHELL_ESCAPE_ALWAYS), count);
			ok = false;
			continue;
		}
		if (in == stdin && strcmp(name, "-") == 0) {
			/* GNU's rule (du, wc): standard input is already the list. */
			cli_warn(0, _("when reading file names from stdin, no file name of %s allowed"),
				 cli_quotearg(name, CLI_QS_LOCALE));
			ok = false;
			continue;
		}
		ok &= do_one(r, name);
	}
	if (ferror(in))
		cli_die(CLI_EXIT_FAILURE, errno, _("cannot read file names from %s"),
			cli_quotearg(from, CLI_QS_SHELL_ESCAPE_ALWAYS));
	free(name);
	if (in != stdin)
		fclose(in);
	return ok;
}

static void help(poptContext pc)
{
	poptPrintHelp(pc, stdout, 0);
	fputs(_("\nThe valid format sequences for files (without --file-system):\n\n"), stdout);
	fmt_help(stdout, FMT_FILE);
	fputs(_("\nValid format sequences for file systems:\n\n"), stdout);
	fmt_help(stdout, FMT_FS);
	fputs(_("\n--terse is equivalent to the following FORMAT:\n"
		"    %n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o (and %C with SELinux)\n"
		"--terse --file-system is equivalent to the following FORMAT:\n"
		"    %n %i %l %t %s %S %b %f %a %c %d\n"
		"\nNamed directives for files (also the keys of --json; \"-\" when not available):\n\n"), stdout);
	fmt_help_fields(stdout);
}

int main(int argc, const char **argv)
{
	struct xstat_control ctl = { 0 };
	struct run r = { .ctl = &ctl };
	poptContext pc;
	const char **args;
	char *word;
	bool ok = true;
	int rc, i;

	(void)setlocale(LC_ALL, "");
	cli_init(argv[0]);
	if (strcmp(program_name, "stat") == 0) {
		cli_text_domain("coreutils");		/* GNU stat's own words, in its language */
		cli_name_messages_as_given(argv[0]);	/* as GNU's: "/usr/local/bin/stat: ..." */
		cli_abbreviate_among(gnu_stat_options);	/* "--fi" is --file-system, as GNU's */
	}
	pc = cli_popt_context(argc, argv, options, "[OPTION...] FILE...");
	while ((rc = poptGetNextOpt(pc)) > 0) {
		switch (rc) {
		case OPT_FORMAT:
			free(ctl.format);	/* the last of --format and --printf wins */
			ctl.format = poptGetOptArg(pc);
			ctl.printf_mode = false;
			break;
		case OPT_PRINTF:
			free(ctl.format);
			ctl.format = poptGetOptArg(pc);
			ctl.printf_mode = true;
			break;
		case OPT_TERSE: ctl.terse = true; break;
		case OPT_FILE_SYSTEM: ctl.fs = true; break;
		case OPT_DEREFERENCE: ctl.follow = true; break;
		case OPT_CACHED:
			word = poptGetOptArg(pc);
			i = cli_argmatch(word, cached_words, 3);
			if (i < 0) {
				/* bad_word() exits: nothing of ours may be left for LeakSanitizer */
				poptFreeContext(pc);
				free(ctl.format);
				free(ctl.files0_from);
				bad_word("cached", word, i, cached_words, 3);
			}
			ctl.sync_flags = cached_flags[i];
			free(word);
			break;
		case OPT_FILES0_FROM:
			free(ctl.files0_from);
			ctl.files0_from = poptGetOptArg(pc);
			break;
		case OPT_JSON: ctl.json = true; break;
		case OPT_NULL: ctl.null = true; break;
		case OPT_ALL: ctl.all = true; break;
		case OPT_HELP:
			help(pc);
			poptFreeContext(pc);
			exit(CLI_EXIT_OK);
		case OPT_USAGE:
			poptPrintUsage(pc, stdout, 0);
			poptFreeContext(pc);
			exit(CLI_EXIT_OK);
		case CLI_OPT_VERSION:
			poptFreeContext(pc);
			cli_version();
		}
	}
	if (rc < -1)
		cli_popt_fail(pc, rc);
	args = poptGetArgs(pc);
	if (ctl.files0_from != NULL && args != NULL && args[0] != NULL) {
		cli_warn(0, _("extra operand %s"), cli_quotearg(args[0], CLI_QS_LOCALE));
		fputs(_("file operands cannot be combined with --files0-from\n"), stderr);
		cli_try_help();
		exit(CLI_EXIT_FAILURE);
	}
	if (ctl.files0_from == NULL && (args == NULL || args[0] == NULL))
		cli_usage_error(_("missing operand"));
	if (ctl.json && (ctl.format != NULL || ctl.terse || ctl.fs)) {
		free(ctl.format);
		free(ctl.files0_from);
		poptFreeContext(pc);
		cli_usage_error(_("--json cannot be combined with --format, --printf, --terse or --file-system"));
	}

	r.ctx = fmt_ctx_new();
	if (r.ctx == NULL)
		cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
	fmt_ctx_set_follow(r.ctx, ctl.follow);
	r.term = -1;
	if (ctl.json) {
		r.mask = fmt_json_statx_mask(ctl.all);
	} else if (ctl.format != NULL) {
		unsigned int flags = ctl.printf_mode ? FMT_ESCAPES : 0;

		if (strstr(ctl.format, "%N") != NULL)
			fmt_ctx_set_quoting(r.ctx, env_quoting_style());
		r.fmt = fmt_parse(ctl.format, ctl.fs ? FMT_FS : FMT_FILE, flags);
		r.fmt_dev = r.fmt;
		r.trailer = ctl.printf_mode ? "" : ctl.null ? "" : "\n";
		if (!ctl.printf_mode && ctl.null)
			r.term = '\0';
	} else {
		char *f = default_format(ctl.fs, ctl.terse, false);
		char *fd = default_format(ctl.fs, ctl.terse, true);

		if (f == NULL || fd == NULL)
			cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
		if (gnu_default_view(&ctl)) {
			r.fmt = fmt_parse(f, ctl.fs ? FMT_FS : FMT_FILE, 0);
			r.fmt_dev = fmt_parse(fd, ctl.fs ? FMT_FS : FMT_FILE, 0);
			r.trailer = "";
		} else {
			/* GNU's lines begin the view */
			r.view = view_new(ctl.all, f, fd);
			if (r.view == NULL)
				cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
			r.mask = view_statx_mask(r.view);
		}
		free(f);
		free(fd);
	}
	if (!ctl.json && r.view == NULL) {
		if (r.fmt == NULL || r.fmt_dev == NULL)
			cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
		r.mask = fmt_statx_mask(r.fmt) | fmt_statx_mask(r.fmt_dev);
		if (r.fmt != r.fmt_dev)
			r.mask |= STATX_TYPE;
	}

	if (ctl.files0_from != NULL)
		ok = do_files0(&r, ctl.files0_from);
	else
		for (size_t k = 0; args[k] != NULL; k++)
			ok &= do_one(&r, args[k]);

	if (r.fmt_dev != r.fmt)
		fmt_free(r.fmt_dev);	/* fmt_free(NULL) is a no-op (--json) */
	fmt_free(r.fmt);
	view_free(r.view);
	fmt_ctx_free(r.ctx);
	free(ctl.format);
	free(ctl.files0_from);
	poptFreeContext(pc);
	return ok ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}
