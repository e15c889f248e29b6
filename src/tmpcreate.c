/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmpcreate: temporary files that cannot leak.  Four modes: a drop-in for
 * mktemp(1) whose files start unnamed (O_TMPFILE) and get their name only
 * once ready; -o FILE, output published only when complete; --scratch, an
 * unnamed file for a command; --probe, what a directory's filesystem
 * supports.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "fattrs.h"

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
	  "keep only these of the old FILE's attributes: mode, ownership, xattr, all (default: all the caller may keep)",
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

/* Indexed by the bit number of FATTRS_PRESERVE_*: the words of --preserve. */
static const char *const preserve_words[] = { "mode", "ownership", "xattr", "all" };

enum sync_level { SYNC_NONE, SYNC_DATA, SYNC_FULL };
static const char *const sync_words[] = {
	[SYNC_NONE] = "none",
	[SYNC_DATA] = "data",
	[SYNC_FULL] = "full",
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
	bool scratch;
	bool no_clobber;
	bool no_dereference;
	bool if_changed;
	bool mode_set;
	bool preserve_set;	/* --preserve given: failing to keep those is an error */
	bool sync_set;
	char *tmpdir;		/* -p DIR / --tmpdir=DIR; NULL or "" when not given */
	char *suffix;
	char *output;		/* -o FILE */
	char *backup;		/* the backup suffix, or NULL for no backup */
	mode_t mode;
	unsigned int preserve;	/* FATTRS_PRESERVE_* */
	enum sync_level sync;
	enum fattrs_tmp_method method;
};

static void set_string(char **slot, poptContext pc)
{
	free(*slot);
	*slot = poptGetOptArg(pc);
}

/* The index of @word in @words, or a usage error naming --@option. */
static size_t parse_word(const char *option, const char *word, const char *const *words, size_t n)
{
	char valid[256] = "";

	for (size_t i = 0; i < n; i++) {
		if (strcmp(word, words[i]) == 0)
			return i;
	}
	for (size_t i = 0; i < n; i++)
		(void)snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), "%s'%s'",
			       i ? ", " : "", words[i]);
	char name[64];

	(void)snprintf(name, sizeof(name), "--%s", option);
	cli_usage_error(_("invalid argument %s for %s; valid arguments are %s"),
			cli_quote(word), cli_quote(name), valid);
}

#define PARSE_WORD(option, word, words) \
	parse_word(option, word, words, sizeof(words) / sizeof(words[0]))

static unsigned int parse_preserve(const char *list)
{
	unsigned int bits = 0;
	char *copy, *save = NULL;

	if (list == NULL || *list == '\0')
		return FATTRS_PRESERVE_ALL;
	copy = strdup(list);
	if (copy == NULL)
		cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
	for (char *w = strtok_r(copy, ",", &save); w != NULL; w = strtok_r(NULL, ",", &save)) {
		size_t i = PARSE_WORD("preserve", w, preserve_words);

		/* The last word, "all", is every bit before it. */
		bits |= i == sizeof(preserve_words) / sizeof(preserve_words[0]) - 1
			? (unsigned int)FATTRS_PRESERVE_ALL : 1U << i;
	}
	free(copy);
	return bits;
}

static mode_t parse_mode(const char *word)
{
	char *end;
	unsigned long m = strtoul(word, &end, 8);

	if (*word == '\0' || *end != '\0' || m > 07777)
		cli_usage_error(_("invalid mode %s; give it in octal, such as 0644"), cli_quote(word));
	return (mode_t)m;
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
		return _("an unnamed file cannot be linked here: AT_EMPTY_PATH and /proc/self/fd both failed");
	}
	return "";
}

static const char *getenv_nonempty(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? v : NULL;
}

/* -p DIR / --tmpdir=DIR if given and not empty, else NULL. */
static const char *tmpdir_arg(const struct tmpcreate_control *ctl)
{
	return ctl->tmpdir != NULL && *ctl->tmpdir != '\0' ? ctl->tmpdir : NULL;
}

/* The directory --tmpdir means: -p DIR, else $TMPDIR, else /tmp. */
static const char *tmpdir_of(const struct tmpcreate_control *ctl)
{
	const char *env = getenv_nonempty("TMPDIR");

	return tmpdir_arg(ctl) != NULL ? tmpdir_arg(ctl) : env != NULL ? env : FATTRS_DEFAULT_TMPDIR;
}

/* Held and scratch names are removed on these signals; unnamed files need nothing. */
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static void cleanup_handler(int sig)
{
	fattrs_tmpfile_cleanup_signal();
	(void)signal(sig, SIG_DFL);
	(void)raise(sig);
}

static void cleanup_on_signals(void)
{
	struct sigaction sa = { .sa_handler = cleanup_handler };

	(void)sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); i++)
		(void)sigaction(cleanup_signals[i], &sa, NULL);
}


/* ------------------------------------------------------------ mktemp mode */

/* The last component of @s, trailing slashes included (as gnulib's last_component()). */
static const char *last_component(const char *s)
{
	const char *base = s;
	bool slash = false;

	while (*base == '/')
		base++;
	for (const char *p = base; *p != '\0'; p++) {
		if (*p == '/') {
			slash = true;
		} else if (slash) {
			base = p;
			slash = false;
		}
	}
	return base;
}

static size_t count_trailing_x(const char *s, size_t len)
{
	size_t n = 0;

	while (len > 0 && s[len - 1] == 'X') {
		len--;
		n++;
	}
	return n;
}

/*
 * Make the file (or directory, or name) and return its path, or NULL; a
 * file comes with its object in *@ret_tf, its name held until printed.
 */
static char *mktemp_make(const struct tmpcreate_control *ctl, const struct fattrs_tmpl *tmpl,
			 struct fattrs_tmpfile **ret_tf)
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
		/* Held: removed on a signal, or if its name cannot be printed. */
		cleanup_on_signals();
		r = fattrs_tmpfile_new(AT_FDCWD, tmpl, 0600, ctl->method, FATTRS_TMP_HOLD, &tf);
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
	*ret_tf = tf;
	return path;
}

static int mktemp_main(struct tmpcreate_control *ctl, const char **args)
{
	size_t nargs = 0;
	const char *template = FATTRS_DEFAULT_TEMPLATE;
	struct fattrs_tmpfile *tf = NULL;
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
	if (suffix_len > 0 && last_component(full + len - suffix_len) != full + len - suffix_len)
		cli_die(CLI_EXIT_FAILURE, 0, _("invalid suffix %s, contains directory separator"),
			cli_quote(full + len - suffix_len));
	x_count = count_trailing_x(full, len - suffix_len);
	if (x_count < FATTRS_TEMPLATE_MIN_X)
		cli_die(CLI_EXIT_FAILURE, 0, _("too few X's in template %s"), cli_quote(full));

	if (use_tmpdir) {
		const char *dir;
		const char *env = getenv_nonempty("TMPDIR");
		char *joined;

		if (ctl->deprecated_t) {
			/* -t: $TMPDIR wins over -p DIR. */
			dir = env != NULL ? env : tmpdir_arg(ctl) != NULL ? tmpdir_arg(ctl)
									    : FATTRS_DEFAULT_TMPDIR;
			if (strchr(full, '/') != NULL)
				cli_die(CLI_EXIT_FAILURE, 0,
					_("invalid template, %s, contains directory separator"),
					cli_quote(full));
		} else {
			dir = tmpdir_of(ctl);
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
	/* Our own buffer: stdio then skips probing stdout (fstat, TCGETS). */
	static char outbuf[BUFSIZ];

	(void)setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	path = mktemp_make(ctl, &tmpl, &tf);
	if (path == NULL) {
		status = CLI_EXIT_FAILURE;
	} else if (tf != NULL && fattrs_tmpfile_fd(tf) == STDOUT_FILENO) {
		/* stdout was closed: the file took its number, and its name cannot be told. */
		if (!ctl->quiet)
			cli_warn(EBADF, _("write error"));
		status = CLI_EXIT_FAILURE;
	} else {
		puts(path);
		/* A name nobody can read is a leak: remove what was made. */
		if (!ctl->dry_run && !cli_close_stdout(false)) {
			int err = errno;

			if (tf == NULL)
				(void)rmdir(path);
			if (!ctl->quiet)
				cli_warn(err, _("write error"));
			status = CLI_EXIT_FAILURE;
		} else if (tf != NULL) {
			fattrs_tmpfile_keep(tf);
		}
	}
	fattrs_tmpfile_free(tf);
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
		if (p->create_errno != 0)
			cli_json_null(&j, "rename_noreplace");
		else
			cli_json_bool(&j, "rename_noreplace", p->noreplace_errno == 0);
		if (p->create_errno != 0 && p->tmpfile_errno != 0)
			cli_json_null(&j, "user_xattr");
		else
			cli_json_bool(&j, "user_xattr", p->xattr_errno == 0);
		cli_json_bool(&j, "writable", p->create_errno == 0);
		cli_json_str(&j, "create_error", p->create_errno ? strerror(p->create_errno) : NULL);
		if (p->create_errno == 0) {
			cli_json_str(&j, "method", method_words[p->method]);
			cli_json_str(&j, "reason", reason);
		} else {
			cli_json_null(&j, "method");
			cli_json_null(&j, "reason");
		}
		cli_json_end(&j);
		return;
	}
	printf("%s:\n", cli_name(dir));
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
	if (p->create_errno != 0)
		printf("  %-18s %s\n", "RENAME_NOREPLACE:", _("unknown"));
	else if (p->noreplace_errno == 0)
		printf("  %-18s %s\n", "RENAME_NOREPLACE:", _("yes"));
	else
		printf("  %-18s %s (%s)\n", "RENAME_NOREPLACE:", _("no"), strerror(p->noreplace_errno));
	if (p->create_errno != 0 && p->tmpfile_errno != 0)
		printf("  %-18s %s\n", _("user xattrs:"), _("unknown"));
	else if (p->xattr_errno == 0)
		printf("  %-18s %s\n", _("user xattrs:"), _("yes"));
	else
		printf("  %-18s %s (%s)\n", _("user xattrs:"), _("no"), strerror(p->xattr_errno));
	if (p->create_errno == 0)
		printf("  %-18s %s (%s)\n", _("auto method:"), method_words[p->method], reason);
	else
		printf("  %-18s %s (%s)\n", _("auto method:"), _("none: no file can be made here"),
		       strerror(p->create_errno));
}

static int probe_main(const struct tmpcreate_control *ctl, const char **args)
{
	struct fattrs_mounts *mounts = fattrs_mounts_new();
	const char *fallback[2] = { NULL, NULL };
	bool ok = true;

	if (args == NULL || args[0] == NULL) {
		fallback[0] = tmpdir_of(ctl);
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

/* ------------------------------------------------------------ scratch files */

/* -v: "PROG: WHAT 'NAME' with method M (why)". */
static void say_method(const struct fattrs_tmpfile *tf, const char *what, const char *name)
{
	char why[256];
	int err;
	enum fattrs_tmp_why w = fattrs_tmpfile_why(tf, &err);

	cli_warn(0, _("%s %s with method %s (%s)"), what, cli_quote(name),
		 method_words[fattrs_tmpfile_method(tf)], why_words(w, err, why, sizeof(why)));
}

/*
 * An unnamed file in @dir (or a hidden named one, removed on the usual
 * signals): the start of -o and --scratch.  Reports its own failure.
 */
static struct fattrs_tmpfile *scratch_new(const struct tmpcreate_control *ctl, const char *dir)
{
	struct fattrs_tmpfile *tf = NULL;
	struct fattrs_tmpl tmpl;
	char *path = fattrs_tmpl_hidden(dir, &tmpl);
	int r = path != NULL ? 0 : -ENOMEM;

	cleanup_on_signals();
	if (r == 0)
		r = fattrs_tmpfile_new(AT_FDCWD, &tmpl, 0600, ctl->method, FATTRS_TMP_SCRATCH, &tf);
	free(path);
	if (r == -EOPNOTSUPP && ctl->method == FATTRS_TMP_TMPFILE)
		cli_warn(0, _("cannot create a temporary file in %s: %s; this filesystem has no O_TMPFILE (use --method=auto)"),
			 cli_quote(dir), strerror(EOPNOTSUPP));
	else if (r < 0)
		cli_warn(-r, _("cannot create a temporary file in %s"), cli_quote(dir));
	return r < 0 ? NULL : tf;
}

/* ------------------------------------------------------------ running COMMAND */

/*
 * Start COMMAND with its stdout on @out_fd (-1: inherited).  An exec
 * failure comes back through a close-on-exec pipe as its errno.
 * Returns the child's pid, or -1 with *ret_exit set (126 or 127) and the
 * error reported.
 */
static pid_t command_start(const char **cmd, int out_fd, int *ret_exit)
{
	int errpipe[2];
	int err = 0;
	pid_t pid;

	if (pipe2(errpipe, O_CLOEXEC) < 0) {
		cli_warn(errno, _("cannot run %s"), cli_quote(cmd[0]));
		*ret_exit = CLI_EXIT_CANCELED;
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		(void)close(errpipe[0]);
		if (out_fd >= 0 && (dup2(out_fd, STDOUT_FILENO) < 0 || close(out_fd) < 0))
			_exit(CLI_EXIT_CANCELED);
		(void)signal(SIGPIPE, SIG_DFL);
		execvp(cmd[0], (char *const *)(uintptr_t)cmd);
		err = errno;
		(void)!write(errpipe[1], &err, sizeof(err));
		_exit(err == ENOENT ? CLI_EXIT_ENOENT : CLI_EXIT_CANNOT_INVOKE);
	}
	(void)close(errpipe[1]);
	if (pid < 0) {
		cli_warn(errno, _("cannot run %s"), cli_quote(cmd[0]));
		(void)close(errpipe[0]);
		*ret_exit = CLI_EXIT_CANCELED;
		return -1;
	}
	if (read(errpipe[0], &err, sizeof(err)) == (ssize_t)sizeof(err)) {
		(void)close(errpipe[0]);
		(void)waitpid(pid, NULL, 0);
		cli_warn(err, _("cannot run %s"), cli_quote(cmd[0]));
		*ret_exit = err == ENOENT ? CLI_EXIT_ENOENT : CLI_EXIT_CANNOT_INVOKE;
		return -1;
	}
	(void)close(errpipe[0]);
	return pid;
}

/* COMMAND's exit status as a shell reports it (128 + signal when killed). */
static int command_wait(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return CLI_EXIT_CANCELED;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}

/* ------------------------------------------------------------ -o FILE */

/*
 * Give the new file its attributes: what the old file had, where kept (an
 * unreadable old file still gives its mode and owner), then --mode; a new
 * file gets 0666 & ~umask, as shell redirection gives it.
 */
static bool output_attributes(const struct tmpcreate_control *ctl, const struct fattrs_statx_buf *old,
			      int old_fd, int new_fd, const char *file)
{
	unsigned int what = old != NULL ? ctl->preserve : 0;
	unsigned int failed = 0;
	int r = 0;

	if (ctl->mode_set)
		what &= ~(unsigned int)FATTRS_PRESERVE_MODE;
	if (what != 0 && old_fd >= 0) {
		r = fattrs_preserve(old_fd, new_fd, what, &failed);
	} else if (what != 0) {
		if ((what & FATTRS_PRESERVE_OWNER) && fchown(new_fd, old->stx_uid, old->stx_gid) < 0) {
			r = -errno;
			failed |= FATTRS_PRESERVE_OWNER;
		}
		if ((what & FATTRS_PRESERVE_MODE) && fchmod(new_fd, old->stx_mode & 07777) < 0) {
			r = r ? r : -errno;
			failed |= FATTRS_PRESERVE_MODE;
		}
		if (what & FATTRS_PRESERVE_XATTR) {
			r = r ? r : -EACCES;
			failed |= FATTRS_PRESERVE_XATTR;
		}
	}
	/* By default keep what the caller may; what --preserve names must be kept. */
	if (failed != 0 && ctl->preserve_set) {
		for (size_t i = 0; i < sizeof(preserve_words) / sizeof(preserve_words[0]); i++) {
			if (failed & (1U << i)) {
				cli_warn(-r, _("cannot keep the %s of %s"), preserve_words[i], cli_quote(file));
				return false;
			}
		}
	}
	if ((what & FATTRS_PRESERVE_MODE) && !(failed & FATTRS_PRESERVE_MODE))
		return true;

	mode_t mode = ctl->mode;

	if (!ctl->mode_set) {
		mode_t mask = umask(0);

		(void)umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(new_fd, mode) < 0) {
		cli_warn(errno, _("cannot set the mode of %s"), cli_quote(file));
		return false;
	}
	return true;
}

/* Refuse what cannot be replaced before any data is read: say why. */
static bool output_check_target(const char *file, const struct fattrs_statx_buf *stx)
{
	uint64_t set = stx->stx_attributes & stx->stx_attributes_mask;

	if (S_ISDIR(stx->stx_mode)) {
		cli_warn(EISDIR, _("cannot write %s"), cli_quote(file));
		return false;
	}
	if (!S_ISREG(stx->stx_mode) && !S_ISLNK(stx->stx_mode)) {
		/* A fifo or a device is written into, never replaced: that is not atomic output. */
		cli_warn(0, _("cannot replace %s: not a regular file; use shell redirection for fifos and devices"),
			 cli_quote(file));
		return false;
	}
	if (set & STATX_ATTR_IMMUTABLE) {
		cli_warn(0, _("cannot replace %s: it is immutable; tmpcreate never clears flags (see chattr(1))"),
			 cli_quote(file));
		return false;
	}
	if (set & STATX_ATTR_APPEND) {
		cli_warn(0, _("cannot replace %s: it is append-only; tmpcreate never clears flags (see chattr(1))"),
			 cli_quote(file));
		return false;
	}
	return true;
}

static int output_main(const struct tmpcreate_control *ctl, const char **cmd)
{
	const char *file = ctl->output;
	int fail = cmd != NULL && cmd[0] != NULL ? CLI_EXIT_CANCELED : CLI_EXIT_FAILURE;
	struct fattrs_tmpfile *tf = NULL;
	struct fattrs_statx_buf old;
	char *target = NULL, *dir = NULL, *backup = NULL;
	int old_fd = -1, in_fd = STDIN_FILENO, pipefd[2] = { -1, -1 };
	bool exists;
	pid_t pid = -1;
	uint64_t bytes = 0;
	int status = fail, r, read_errno = 0;

	if (*file == '\0') {
		cli_warn(ENOENT, _("cannot write %s"), cli_quote(file));
		return fail;
	}
	/* A closed stdin would hand its number to the next file opened, and be read from. */
	if ((cmd == NULL || cmd[0] == NULL) && fcntl(STDIN_FILENO, F_GETFD) < 0) {
		cli_warn(errno, _("cannot read %s"), _("standard input"));
		return fail;
	}
	r = ctl->no_dereference ? ((target = strdup(file)) != NULL ? 0 : -ENOMEM)
				: fattrs_path_resolve(AT_FDCWD, file, &target);
	if (r < 0) {
		cli_warn(-r, _("cannot write %s"), cli_quote(file));
		return fail;
	}
	r = fattrs_statx(AT_FDCWD, target, AT_SYMLINK_NOFOLLOW,
			 STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID | STATX_SIZE, &old);
	exists = r == 0;
	if (r < 0 && r != -ENOENT) {
		cli_warn(-r, _("cannot write %s"), cli_quote(file));
		goto out;
	}
	if (exists && !output_check_target(file, &old))
		goto out;
	if (exists && ctl->no_clobber) {
		cli_warn(EEXIST, _("cannot write %s"), cli_quote(file));
		goto out;
	}
	if (exists && S_ISREG(old.stx_mode) && (ctl->preserve != 0 || ctl->if_changed))
		old_fd = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	dir = fattrs_path_dir(target);
	if (dir == NULL)
		cli_die(fail, 0, _("memory exhausted"));
	tf = scratch_new(ctl, dir);
	if (tf == NULL)
		goto out;

	if (cmd != NULL && cmd[0] != NULL) {
		if (pipe2(pipefd, O_CLOEXEC) < 0) {
			cli_warn(errno, _("cannot run %s"), cli_quote(cmd[0]));
			goto out;
		}
		pid = command_start(cmd, pipefd[1], &status);
		(void)close(pipefd[1]);
		if (pid < 0)
			goto out;
		in_fd = pipefd[0];
	}
	/* With a sync to come, the disk writes while we copy. */
	r = fattrs_copy_fd(in_fd, fattrs_tmpfile_fd(tf), ctl->sync != SYNC_NONE ? FATTRS_COPY_FLUSH : 0,
			   &bytes, &read_errno);
	if (pid > 0) {
		/* Stop reading: a COMMAND still writing gets SIGPIPE; then reap it. */
		(void)close(pipefd[0]);
		pipefd[0] = -1;
		int cst = command_wait(pid);

		pid = -1;
		if (r == 0 && cst != 0) {
			status = cst;
			if (ctl->verbose)
				cli_warn(0, _("%s was left untouched: COMMAND exited with status %d"),
					 cli_quote(file), cst);
			goto out;
		}
	}
	if (r < 0) {
		/* Our failure came first, whatever COMMAND made of it. */
		if (read_errno != 0)
			cli_warn(read_errno, _("cannot read %s"),
				 cmd != NULL && cmd[0] != NULL ? _("COMMAND's output") : _("standard input"));
		else
			cli_warn(-r, _("cannot write %s"), cli_quote(file));
		goto out;
	}

	if (ctl->if_changed && old_fd >= 0 && (uint64_t)old.stx_size == bytes &&
	    fattrs_content_equal(old_fd, fattrs_tmpfile_fd(tf)) == 1) {
		if (ctl->verbose)
			cli_warn(0, _("%s is unchanged; left as it was"), cli_quote(file));
		status = CLI_EXIT_OK;
		goto out;
	}
	if (!output_attributes(ctl, exists && S_ISREG(old.stx_mode) ? &old : NULL, old_fd,
			       fattrs_tmpfile_fd(tf), file))
		goto out;
	/* The data (and size) on disk before the file has a name; full adds the inode. */
	if ((ctl->sync == SYNC_DATA ? fdatasync(fattrs_tmpfile_fd(tf)) :
	     ctl->sync == SYNC_FULL ? fsync(fattrs_tmpfile_fd(tf)) : 0) < 0) {
		cli_warn(errno, _("cannot sync %s"), cli_quote(file));
		goto out;
	}
	if (ctl->backup != NULL && asprintf(&backup, "%s%s", target, ctl->backup) < 0)
		cli_die(fail, 0, _("memory exhausted"));
	r = fattrs_tmpfile_publish(tf, target, exists ? backup : NULL,
				   (ctl->no_clobber ? FATTRS_PUBLISH_NOCLOBBER : 0) |
				   (ctl->sync == SYNC_FULL ? FATTRS_PUBLISH_SYNC_DIR : 0));
	if (r < 0) {
		/* Published, but the directory's fsync failed: the name may not last. */
		bool named = fattrs_tmpfile_path(tf) != NULL &&
			     strcmp(fattrs_tmpfile_path(tf), target) == 0;

		cli_warn(-r, named ? _("cannot sync the directory of %s") : _("cannot write %s"),
			 cli_quote(file));
		goto out;
	}
	if (ctl->verbose)
		say_method(tf, exists ? _("replaced") : _("created"), file);
	status = CLI_EXIT_OK;
out:
	if (pipefd[0] >= 0)
		(void)close(pipefd[0]);
	if (pid > 0)
		(void)command_wait(pid);
	if (old_fd >= 0)
		(void)close(old_fd);
	fattrs_tmpfile_free(tf);
	free(backup);
	free(dir);
	free(target);
	return status;
}

/* ------------------------------------------------------------ --scratch */

/* @arg with every "{}" in it replaced by @path (as find -exec does). */
static char *subst_braces(const char *arg, const char *path)
{
	size_t n = 0, plen = strlen(path);
	char *ret, *p;

	for (const char *q = strstr(arg, "{}"); q != NULL; q = strstr(q + 2, "{}"))
		n++;
	ret = malloc(strlen(arg) + n * plen + 1);
	if (ret == NULL)
		return NULL;
	p = ret;
	for (const char *q; (q = strstr(arg, "{}")) != NULL; arg = q + 2) {
		memcpy(p, arg, (size_t)(q - arg));
		p += q - arg;
		memcpy(p, path, plen);
		p += plen;
	}
	strcpy(p, arg);
	return ret;
}

static int scratch_main(const struct tmpcreate_control *ctl, const char **cmd)
{
	const char *dir = tmpdir_of(ctl);
	struct fattrs_tmpfile *tf;
	char fdstr[3 * sizeof(int) + 1], file[sizeof("/dev/fd/") + 3 * sizeof(int)];
	size_t n = 0;
	int fd, r;

	if (cmd == NULL || cmd[0] == NULL)
		cli_usage_error(_("--scratch needs a COMMAND to run"));
	tf = scratch_new(ctl, dir);
	if (tf == NULL)
		return CLI_EXIT_CANCELED;
	/* A descriptor COMMAND inherits; a named file loses its name at once. */
	fd = fcntl(fattrs_tmpfile_fd(tf), F_DUPFD, 3);
	if (fd < 0) {
		cli_warn(errno, _("cannot create a temporary file in %s"), cli_quote(dir));
		fattrs_tmpfile_free(tf);
		return CLI_EXIT_CANCELED;
	}
	if (ctl->verbose)
		say_method(tf, _("scratch file in"), dir);
	fattrs_tmpfile_free(tf);

	(void)snprintf(fdstr, sizeof(fdstr), "%d", fd);
	(void)snprintf(file, sizeof(file), "/dev/fd/%d", fd);
	if (setenv("TMPCREATE_FD", fdstr, 1) < 0 || setenv("TMPCREATE_FILE", file, 1) < 0)
		cli_die(CLI_EXIT_CANCELED, errno, _("cannot set the environment"));
	while (cmd[n] != NULL)
		n++;
	const char **argv = calloc(n + 1, sizeof(*argv));

	if (argv == NULL)
		cli_die(CLI_EXIT_CANCELED, 0, _("memory exhausted"));
	for (size_t i = 0; i < n; i++) {
		argv[i] = subst_braces(cmd[i], file);
		if (argv[i] == NULL)
			cli_die(CLI_EXIT_CANCELED, 0, _("memory exhausted"));
	}
	(void)fflush(stdout);
	(void)signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], (char *const *)(uintptr_t)argv);
	r = errno;
	cli_warn(r, _("cannot run %s"), cli_quote(argv[0]));
	for (size_t i = 0; i < n; i++)
		free((void *)(uintptr_t)argv[i]);
	free(argv);
	return r == ENOENT ? CLI_EXIT_ENOENT : CLI_EXIT_CANNOT_INVOKE;
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

int main(int argc, const char **argv)
{
	struct tmpcreate_control ctl = {
		.method = FATTRS_TMP_AUTO,
		.preserve = FATTRS_PRESERVE_ALL,
		.sync = SYNC_FULL,
	};
	poptContext pc;
	char *word = NULL;
	int rc, status;

	cli_init(argv[0]);
	pc = cli_popt_context(argc, argv, options,
			      "[OPTION...] [TEMPLATE]\n"
			      "  or:  tmpcreate -o FILE [OPTION...] [-- COMMAND [ARG]...]\n"
			      "  or:  tmpcreate --scratch [OPTION...] -- COMMAND [ARG]...\n"
			      "  or:  tmpcreate --probe [OPTION...] [DIR]...");
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
			ctl.method = PARSE_WORD("method", word, method_words);
			break;
		case OPT_OUTPUT: set_string(&ctl.output, pc); break;
		case OPT_SCRATCH: ctl.scratch = true; break;
		case OPT_NO_CLOBBER: ctl.no_clobber = true; break;
		case OPT_NO_DEREFERENCE: ctl.no_dereference = true; break;
		case OPT_IF_CHANGED: ctl.if_changed = true; break;
		case OPT_BACKUP:
			set_string(&ctl.backup, pc);
			if (ctl.backup == NULL || *ctl.backup == '\0') {
				free(ctl.backup);
				ctl.backup = strdup("~");
			}
			if (strchr(ctl.backup, '/') != NULL)
				cli_usage_error(_("invalid backup suffix %s, contains directory separator"),
						cli_quote(ctl.backup));
			break;
		case OPT_MODE:
			set_string(&word, pc);
			ctl.mode = parse_mode(word);
			ctl.mode_set = true;
			break;
		case OPT_PRESERVE:
			set_string(&word, pc);
			ctl.preserve = parse_preserve(word);
			ctl.preserve_set = true;
			break;
		case OPT_SYNC:
			set_string(&word, pc);
			ctl.sync = (enum sync_level)PARSE_WORD("sync", word, sync_words);
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
	if (ctl.probe)
		status = probe_main(&ctl, poptGetArgs(pc));
	else if (ctl.output != NULL)
		status = output_main(&ctl, poptGetArgs(pc));
	else if (ctl.scratch)
		status = scratch_main(&ctl, poptGetArgs(pc));
	else
		status = mktemp_main(&ctl, poptGetArgs(pc));

	free(word);
	free(ctl.suffix);
	free(ctl.tmpdir);
	free(ctl.output);
	free(ctl.backup);
	poptFreeContext(pc);
	return status;
}
