/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmpcreate's mktemp mode: a drop-in for mktemp(1) whose files start
 * unnamed (O_TMPFILE) and get their name only once ready.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tmpcreate.h"

/*
 * Make the file (or directory, or name) and return its path, or NULL; a
 * file comes with its object in *@ret_tf, its name held until printed.
 */
static char *mktemp_make(const struct tmpcreate_control *ctl, const struct fattrs_tmpl *tmpl,
			 struct fattrs_tmpfile **ret_tf, int *ret_hold)
{
	struct fattrs_tmpfile *tf = NULL;
	char why[256];
	char *path = NULL;
	int r;

	if (ctl->dry_run) {
		r = fattrs_tmpname_pick(AT_FDCWD, tmpl, &path);
	} else if (ctl->directory) {
		/* Held: removed on a signal until its name is printed. */
		cleanup_on_signals();
		r = fattrs_tmpdir_new_held(AT_FDCWD, tmpl, 0700, &path, ret_hold);
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
			cli_warn(0, _("chose name %s; nothing was created"), cli_quotef(path));
		} else if (ctl->directory) {
			cli_warn(0, _("created directory %s"), cli_quotef(path));
		} else {
			int err;
			enum fattrs_tmp_why w = fattrs_tmpfile_why(tf, &err);
			enum fattrs_tmp_method m = fattrs_tmpfile_method(tf);

			if (m == FATTRS_TMP_TMPFILE)
				cli_warn(0, _("created file %s with method tmpfile (%s); linked with %s"),
					 cli_quotef(path), why_words(w, err, why, sizeof(why)),
					 link_names[fattrs_tmpfile_via(tf)]);
			else
				cli_warn(0, _("created file %s with method named (%s)"),
					 cli_quotef(path), why_words(w, err, why, sizeof(why)));
		}
	}
out:
	*ret_tf = tf;
	return path;
}

int mktemp_main(struct tmpcreate_control *ctl, const char **args)
{
	size_t nargs = 0;
	const char *template = FATTRS_DEFAULT_TEMPLATE;
	struct fattrs_tmpfile *tf = NULL;
	int hold = -1;
	char *full = NULL, *path;
	struct fattrs_tmpl tmpl;
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

	switch (fattrs_tmpl_parse(template, ctl->suffix, &full, &tmpl)) {
	case FATTRS_TMPL_OK:
		break;
	case FATTRS_TMPL_NOMEM:
		cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
	case FATTRS_TMPL_SUFFIX_NEEDS_X:
		cli_die(CLI_EXIT_FAILURE, 0, _("with --suffix, template %s must end in X"),
			cli_quote(template));
	case FATTRS_TMPL_SUFFIX_SLASH:
		cli_die(CLI_EXIT_FAILURE, 0, _("invalid suffix %s, contains directory separator"),
			cli_quote(fattrs_tmpl_suffix(template, ctl->suffix)));
	case FATTRS_TMPL_FEW_X:
		if (ctl->suffix == NULL || asprintf(&full, "%s%s", template, ctl->suffix) < 0)
			full = NULL;
		cli_die(CLI_EXIT_FAILURE, 0, _("too few X's in template %s"),
			cli_quote(full != NULL ? full : template));
	}

	if (use_tmpdir) {
		const char *dir;
		const char *env = getenv_nonempty("TMPDIR");

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
		if (fattrs_tmpl_join(dir, &full, &tmpl) < 0)
			cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
	}

	/* Our own buffer: stdio then skips probing stdout (fstat, TCGETS). */
	static char outbuf[BUFSIZ];

	(void)setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	path = mktemp_make(ctl, &tmpl, &tf, &hold);
	if (path == NULL) {
		status = CLI_EXIT_FAILURE;
	} else {
		puts(path);
		/* A name nobody can read is a leak: remove what was made. */
		if (!ctl->dry_run && !cli_close_stdout(false)) {
			int err = errno;

			if (tf == NULL) {
				fattrs_tmpdir_release(hold);
				hold = -1;
				(void)rmdir(path);
			}
			if (!ctl->quiet)
				cli_warn(err, _("write error"));
			status = CLI_EXIT_FAILURE;
		} else if (tf != NULL) {
			fattrs_tmpfile_release(tf);
		}
	}
	fattrs_tmpdir_release(hold);
	fattrs_tmpfile_free(tf);
	free(path);
	free(full);
	return status;
}

