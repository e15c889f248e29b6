/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmpcreate: temporary files that cannot leak.  In its first mode a drop-in
 * for mktemp(1) whose files start unnamed (O_TMPFILE) and get their name
 * only once ready; --probe tells what a directory's filesystem supports.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fattrs.h"

enum {
	OPT_DIRECTORY = 1,
	OPT_DRY_RUN,
	OPT_JSON,
	OPT_METHOD,
	OPT_PROBE,
	OPT_QUIET,
	OPT_SUFFIX,
	OPT_T,
	OPT_TMPDIR,
	OPT_VERBOSE,
};

/* Sorted by long name; -p and -t have no long name of their own. */
static const struct poptOption options[] = {
	{ "directory", 'd', POPT_ARG_NONE, NULL, OPT_DIRECTORY,
	  "create a directory, not a file", NULL },
	{ "dry-run", 'u', POPT_ARG_NONE, NULL, OPT_DRY_RUN,
	  "do not create anything; merely print a name (unsafe)", NULL },
	{ "json", '\0', POPT_ARG_NONE, NULL, OPT_JSON,
	  "with --probe: one JSON object per directory", NULL },
	{ "method", '\0', POPT_ARG_STRING, NULL, OPT_METHOD,
	  "how files are made: auto (default), tmpfile or named", "auto|tmpfile|named" },
	{ "probe", '\0', POPT_ARG_NONE, NULL, OPT_PROBE,
	  "tell what each DIR's filesystem supports, and which method auto picks", NULL },
	{ "quiet", 'q', POPT_ARG_NONE, NULL, OPT_QUIET,
	  "suppress diagnostics about file/dir-creation failure", NULL },
	{ "suffix", '\0', POPT_ARG_STRING, NULL, OPT_SUFFIX,
	  "append SUFF to TEMPLATE; SUFF must not contain a slash", "SUFF" },
	{ "tmpdir", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_TMPDIR,
	  "interpret TEMPLATE relative to DIR ($TMPDIR if set, else /tmp)", "DIR" },
	{ NULL, 'p', POPT_ARG_STRING, NULL, OPT_TMPDIR,
	  "same as --tmpdir=DIR", "DIR" },
	{ NULL, 't', POPT_ARG_NONE, NULL, OPT_T,
	  "TEMPLATE is one name in $TMPDIR, else -p DIR, else /tmp [deprecated]", NULL },
	{ "verbose", 'v', POPT_ARG_NONE, NULL, OPT_VERBOSE,
	  "say which method made the file, and why", NULL },
	CLI_VERSION_OPTION,
	POPT_AUTOHELP
	POPT_TABLEEND
};

/* Indexed by enum fattrs_tmp_method: the words of --method. */
static const char *const method_words[] = {
	[FATTRS_TMP_AUTO] = "auto",
	[FATTRS_TMP_TMPFILE] = "tmpfile",
	[FATTRS_TMP_NAMED] = "named",
};

/* Indexed by enum fattrs_link_via. */
static const char *const link_words[] = {
	[FATTRS_LINK_UNKNOWN] = "unknown",
	[FATTRS_LINK_EMPTY_PATH] = "AT_EMPTY_PATH",
	[FATTRS_LINK_PROC] = "/proc/self/fd",
	[FATTRS_LINK_NONE] = "none",
};

struct tmpcreate_control {
	bool directory;
	bool dry_run;
	bool json;
	bool probe;
	bool quiet;
	bool deprecated_t;
	bool use_tmpdir;
	bool verbose;
	char *tmpdir;		/* -p DIR / --tmpdir=DIR; NULL or "" when not given */
	char *suffix;
	enum fattrs_tmp_method method;
};

static void set_string(char **slot, poptContext pc)
{
	free(*slot);
	*slot = poptGetOptArg(pc);
}

static enum fattrs_tmp_method parse_method(const char *word)
{
	for (size_t i = 0; i < sizeof(method_words) / sizeof(method_words[0]); i++) {
		if (strcmp(word, method_words[i]) == 0)
			return (enum fattrs_tmp_method)i;
	}
	cli_usage_error(_("invalid argument %s for '--method'; valid arguments are 'auto', 'tmpfile', 'named'"),
			cli_quote(word));
}

/* Why the method was chosen, as words for -v and --probe. */
static const char *why_words(enum fattrs_tmp_why why, int err, char *buf, size_t size)
{
	switch (why) {
	case FATTRS_TMP_WHY_SUPPORTED:
		return _("O_TMPFILE works here");
	case FATTRS_TMP_WHY_REQUESTED:
		return _("as --method asked");
	case FATTRS_TMP_WHY_NO_TMPFILE:
		(void)snprintf(buf, size, _("O_TMPFILE is not supported here: %s"), strerror(err));
		return buf;
	case FATTRS_TMP_WHY_NO_LINK:
		return _("an unnamed file cannot be given a name here (no AT_EMPTY_PATH, no /proc)");
	}
	return "";
}

static const char *getenv_nonempty(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? v : NULL;
}

/* ------------------------------------------------------------ mktemp mode */

static size_t count_trailing_x(const char *s, size_t len)
{
	size_t n = 0;

	while (len > 0 && s[len - 1] == 'X') {
		len--;
		n++;
	}
	return n;
}

/* Make the file (or directory, or name) and return its path, or NULL. */
static char *mktemp_make(const struct tmpcreate_control *ctl, const struct fattrs_tmpl *tmpl)
{
	struct fattrs_tmpfile *tf = NULL;
	char why[256];
	char *path = NULL;
	int r;

	if (ctl->dry_run) {
		r = fattrs_tmpname_pick(AT_FDCWD, tmpl, &path);
	} else if (ctl->directory) {
		r = fattrs_tmpdir_new(AT_FDCWD, tmpl, 0700, &path);
	} else {
		r = fattrs_tmpfile_new(AT_FDCWD, tmpl, 0600, ctl->method, 0, &tf);
		if (r == 0)
			r = fattrs_tmpfile_link(tf, tmpl);
		if (r == 0)
			path = strdup(fattrs_tmpfile_path(tf));
		if (r == 0 && path == NULL)
			r = -ENOMEM;
	}
	if (r < 0) {
		if (ctl->quiet)
			goto out;
		if (r == -EOPNOTSUPP && ctl->method == FATTRS_TMP_TMPFILE)
			cli_warn(0, _("failed to create file via template %s: %s; this filesystem has no O_TMPFILE (use --method=auto)"),
				 cli_quote(tmpl->path), strerror(EOPNOTSUPP));
		else
			cli_warn(-r, ctl->directory ? _("failed to create directory via template %s")
						    : _("failed to create file via template %s"),
				 cli_quote(tmpl->path));
		goto out;
	}
	if (ctl->verbose) {
		if (ctl->dry_run) {
			cli_warn(0, _("chose name %s; nothing was created"), cli_quote(path));
		} else if (ctl->directory) {
			cli_warn(0, _("created directory %s"), cli_quote(path));
		} else {
			int err;
			enum fattrs_tmp_why w = fattrs_tmpfile_why(tf, &err);
			enum fattrs_tmp_method m = fattrs_tmpfile_method(tf);

			if (m == FATTRS_TMP_TMPFILE)
				cli_warn(0, _("created file %s with method tmpfile (%s); linked with %s"),
					 cli_quote(path), why_words(w, err, why, sizeof(why)),
					 link_words[fattrs_tmpfile_via(tf)]);
			else
				cli_warn(0, _("created file %s with method named (%s)"),
					 cli_quote(path), why_words(w, err, why, sizeof(why)));
		}
	}
out:
	fattrs_tmpfile_free(tf);
	return path;
}

static int mktemp_main(struct tmpcreate_control *ctl, const char **args)
{
	size_t nargs = 0;
	const char *template = FATTRS_DEFAULT_TEMPLATE;
	char *full = NULL, *path;
	size_t len, suffix_len, x_count;
	bool use_tmpdir = ctl->use_tmpdir;
	int status = CLI_EXIT_OK;

	while (args != NULL && args[nargs] != NULL)
		nargs++;
	if (nargs >= 2)
		cli_usage_error(_("too many templates"));
	if (nargs == 0)
		use_tmpdir = true;
	else
		template = args[0];

	len = strlen(template);
	if (ctl->suffix != NULL) {
		if (len == 0 || template[len - 1] != 'X')
			cli_die(CLI_EXIT_FAILURE, 0, _("with --suffix, template %s must end in X"),
				cli_quote(template));
		suffix_len = strlen(ctl->suffix);
		if (asprintf(&full, "%s%s", template, ctl->suffix) < 0)
			cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
	} else {
		const char *x = strrchr(template, 'X');

		suffix_len = x != NULL ? strlen(x + 1) : 0;
		full = strdup(template);
		if (full == NULL)
			cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
	}
	len = strlen(full);
	if (suffix_len > 0 && memchr(full + len - suffix_len, '/', suffix_len) != NULL)
		cli_die(CLI_EXIT_FAILURE, 0, _("invalid suffix %s, contains directory separator"),
			cli_quote(full + len - suffix_len));
	x_count = count_trailing_x(full, len - suffix_len);
	if (x_count < FATTRS_TEMPLATE_MIN_X)
		cli_die(CLI_EXIT_FAILURE, 0, _("too few X's in template %s"), cli_quote(full));

	if (use_tmpdir) {
		const char *dir;
		const char *arg = ctl->tmpdir != NULL && *ctl->tmpdir != '\0' ? ctl->tmpdir : NULL;
		const char *env = getenv_nonempty("TMPDIR");
		char *joined;

		if (ctl->deprecated_t) {
			dir = env != NULL ? env : arg != NULL ? arg : FATTRS_DEFAULT_TMPDIR;
			if (strchr(full, '/') != NULL)
				cli_die(CLI_EXIT_FAILURE, 0,
					_("invalid template, %s, contains directory separator"),
					cli_quote(full));
		} else {
			dir = arg != NULL ? arg : env != NULL ? env : FATTRS_DEFAULT_TMPDIR;
			if (full[0] == '/')
				cli_die(CLI_EXIT_FAILURE, 0,
					_("invalid template, %s; with --tmpdir, it may not be absolute"),
					cli_quote(full));
		}
		joined = fattrs_path_join(dir, full);
		if (joined == NULL)
			cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
		free(full);
		full = joined;
		len = strlen(full);
	}

	const struct fattrs_tmpl tmpl = {
		.path = full,
		.x_off = len - suffix_len - x_count,
		.x_len = x_count,
	};
	path = mktemp_make(ctl, &tmpl);
	if (path == NULL) {
		status = CLI_EXIT_FAILURE;
	} else {
		puts(path);
		/* A name nobody can read is a leak: remove what was made. */
		if (!ctl->dry_run && !cli_close_stdout(false)) {
			int err = errno;

			(void)remove(path);
			if (!ctl->quiet)
				cli_warn(err, _("write error"));
			status = CLI_EXIT_FAILURE;
		}
	}
	free(path);
	free(full);
	return status;
}

/* ------------------------------------------------------------ --probe */

static void probe_print(const char *dir, const struct fattrs_probe *p,
			const struct fattrs_mount *mnt, bool json)
{
	char why[256];
	const char *reason = why_words(p->why, p->tmpfile_errno, why, sizeof(why));

	if (json) {
		struct cli_json j;

		cli_json_begin(&j, stdout);
		cli_json_str(&j, "dir", dir);
		cli_json_str(&j, "fstype", mnt != NULL ? mnt->fstype : NULL);
		cli_json_str(&j, "mount_point", mnt != NULL ? mnt->target : NULL);
		cli_json_str(&j, "source", mnt != NULL ? mnt->source : NULL);
		cli_json_bool(&j, "o_tmpfile", p->tmpfile_errno == 0);
		cli_json_str(&j, "o_tmpfile_error", p->tmpfile_errno ? strerror(p->tmpfile_errno) : NULL);
		if (p->tmpfile_errno == 0)
			cli_json_str(&j, "link", link_words[p->link_via]);
		else
			cli_json_null(&j, "link");
		cli_json_bool(&j, "rename_noreplace", p->noreplace_errno == 0);
		cli_json_bool(&j, "user_xattr", p->xattr_errno == 0);
		cli_json_str(&j, "method", method_words[p->method]);
		cli_json_str(&j, "reason", reason);
		cli_json_end(&j);
		return;
	}
	printf("%s:\n", dir);
	if (mnt != NULL)
		printf("  %-18s %s on %s (%s)\n", _("filesystem:"), mnt->fstype, mnt->target, mnt->source);
	else
		printf("  %-18s %s\n", _("filesystem:"), _("unknown"));
	if (p->tmpfile_errno == 0)
		printf("  %-18s %s\n", "O_TMPFILE:", _("yes"));
	else
		printf("  %-18s %s (%s)\n", "O_TMPFILE:", _("no"), strerror(p->tmpfile_errno));
	if (p->tmpfile_errno == 0 && p->link_via != FATTRS_LINK_NONE)
		printf("  %-18s %s\n", _("link unnamed:"), link_words[p->link_via]);
	else if (p->tmpfile_errno == 0)
		printf("  %-18s %s (%s)\n", _("link unnamed:"), _("impossible"), strerror(p->link_errno));
	else
		printf("  %-18s %s\n", _("link unnamed:"), _("not applicable"));
	if (p->noreplace_errno == 0)
		printf("  %-18s %s\n", "RENAME_NOREPLACE:", _("yes"));
	else
		printf("  %-18s %s (%s)\n", "RENAME_NOREPLACE:", _("no"), strerror(p->noreplace_errno));
	if (p->xattr_errno == 0)
		printf("  %-18s %s\n", _("user xattrs:"), _("yes"));
	else
		printf("  %-18s %s (%s)\n", _("user xattrs:"), _("no"), strerror(p->xattr_errno));
	printf("  %-18s %s (%s)\n", _("auto method:"), method_words[p->method], reason);
}

static int probe_main(const struct tmpcreate_control *ctl, const char **args)
{
	struct fattrs_mounts *mounts = fattrs_mounts_new();
	const char *fallback[2] = { NULL, NULL };
	bool ok = true;

	if (args == NULL || args[0] == NULL) {
		const char *env = getenv_nonempty("TMPDIR");

		fallback[0] = ctl->tmpdir != NULL && *ctl->tmpdir != '\0' ? ctl->tmpdir
			    : env != NULL ? env : FATTRS_DEFAULT_TMPDIR;
		args = fallback;
	}
	for (size_t i = 0; args[i] != NULL; i++) {
		struct fattrs_probe p;
		struct fattrs_mount mnt;
		int r = fattrs_probe_dir(AT_FDCWD, args[i], &p);

		if (r < 0) {
			cli_warn(-r, _("cannot probe %s"), cli_quote(args[i]));
			ok = false;
			continue;
		}
		if (!ctl->json && i > 0)
			putchar('\n');
		r = mounts != NULL && p.mnt_id != 0 ? fattrs_mounts_find(mounts, p.mnt_id, &mnt) : -ENOENT;
		probe_print(args[i], &p, r == 0 ? &mnt : NULL, ctl->json);
	}
	fattrs_mounts_free(mounts);
	return ok ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}

/* ------------------------------------------------------------ main */

int main(int argc, const char **argv)
{
	struct tmpcreate_control ctl = { .method = FATTRS_TMP_AUTO };
	poptContext pc;
	char *word = NULL;
	int rc, status;

	cli_init(argv[0]);
	pc = cli_popt_context(argc, argv, options,
			      "[TEMPLATE]\n       tmpcreate --probe [DIR]...");
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
			set_string(&ctl.tmpdir, pc);
			ctl.use_tmpdir = true;
			break;
		case OPT_METHOD:
			set_string(&word, pc);
			ctl.method = parse_method(word);
			break;
		case CLI_OPT_VERSION:
			poptFreeContext(pc);
			cli_version();
		}
	}
	if (rc < -1)
		cli_popt_fail(pc, rc);

	if (ctl.probe)
		status = probe_main(&ctl, poptGetArgs(pc));
	else
		status = mktemp_main(&ctl, poptGetArgs(pc));

	free(word);
	free(ctl.suffix);
	free(ctl.tmpdir);
	poptFreeContext(pc);
	return status;
}
