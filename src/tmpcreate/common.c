/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What tmpcreate's modes share: the options' word tables, the temporary directory, -v's words,
 * and the scratch file -o and --scratch start from.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tmpcreate.h"

const char *const method_keywords[] = {
	[FATTRS_TMP_AUTO] = "auto",
	[FATTRS_TMP_TMPFILE] = "tmpfile",
	[FATTRS_TMP_NAMED] = "named",
};

const char *const link_names[] = {
	[FATTRS_LINK_UNKNOWN] = "unknown",
	[FATTRS_LINK_EMPTY_PATH] = "AT_EMPTY_PATH",
	[FATTRS_LINK_PROC] = "/proc/self/fd",
	[FATTRS_LINK_NONE] = "none",
};

const char *const preserve_keywords[] = { "mode", "ownership", "xattr", "flags", "all" };

const char *const sync_keywords[] = {
	[SYNC_NONE] = "none",
	[SYNC_DATA] = "data",
	[SYNC_FULL] = "full",
};

/* Why the method was chosen, as words for -v and --probe. */
const char *why_words(enum fattrs_tmp_why why, int err, char *buf, size_t size)
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
	case FATTRS_TMP_WHY_LOSES_NAME:
		return _("O_TMPFILE files lose their name in a rename on this filesystem");
	}
	return "";
}

const char *getenv_nonempty(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? v : NULL;
}

/* -p DIR / --tmpdir=DIR if given and not empty, else NULL. */
const char *tmpdir_arg(const struct tmpcreate_control *ctl)
{
	return ctl->tmpdir != NULL && *ctl->tmpdir != '\0' ? ctl->tmpdir : NULL;
}

/* The directory --tmpdir means: -p DIR, else $TMPDIR, else /tmp. */
const char *tmpdir_of(const struct tmpcreate_control *ctl)
{
	const char *env = getenv_nonempty("TMPDIR");

	return tmpdir_arg(ctl) != NULL ? tmpdir_arg(ctl) : env != NULL ? env : FATTRS_DEFAULT_TMPDIR;
}

/* Held and scratch names are removed on fatal signals; unnamed files need nothing. */
void cleanup_on_signals(void)
{
	cli_fatal_signals(fattrs_tmpfile_cleanup_signal);
}

/* -v: "PROG: WHAT 'NAME' with method M (why)". */
void say_method(const struct fattrs_tmpfile *tf, const char *what, const char *name)
{
	char why[256];
	int err;
	enum fattrs_tmp_why w = fattrs_tmpfile_why(tf, &err);

	cli_warn(0, _("%s %s with method %s (%s)"), what, cli_quotef(name),
		 method_keywords[fattrs_tmpfile_method(tf)], why_words(w, err, why, sizeof(why)));
}

static struct fattrs_tmpfile *scratch_make(const struct tmpcreate_control *ctl, const char *dir,
					   const char *file, unsigned int flags);

struct fattrs_tmpfile *scratch_new(const struct tmpcreate_control *ctl, const char *dir)
{
	return scratch_make(ctl, dir, NULL, FATTRS_TMP_RECLAIM);
}

struct fattrs_tmpfile *scratch_new_for(const struct tmpcreate_control *ctl, const char *dir,
				       const char *file)
{
	return scratch_make(ctl, dir, file, FATTRS_TMP_RECLAIM);
}

struct fattrs_tmpfile *scratch_new_unlocked(const struct tmpcreate_control *ctl, const char *dir)
{
	return scratch_make(ctl, dir, NULL, 0);
}

/* @flags: FATTRS_TMP_RECLAIM or 0 (a random name, never locked). */
static struct fattrs_tmpfile *scratch_make(const struct tmpcreate_control *ctl, const char *dir,
					   const char *file, unsigned int flags)
{
	struct fattrs_tmpfile *tf = NULL;
	struct fattrs_tmpl tmpl;
	/* Named (no O_TMPFILE): a name the next run tries first, and reclaims if its writer died. */
	char *path = file != NULL ? fattrs_tmpl_hidden_for(file, &tmpl) : fattrs_tmpl_hidden_scratch(dir, &tmpl);
	int r = path != NULL ? 0 : -ENOMEM;

	cleanup_on_signals();
	if (r == 0)
		r = fattrs_tmpfile_new(AT_FDCWD, &tmpl, 0600, ctl->method,
				       FATTRS_TMP_UNPUBLISHED | flags, &tf);
	free(path);
	if (r == -EOPNOTSUPP && ctl->method == FATTRS_TMP_TMPFILE)
		cli_warn(0, _("cannot create a temporary file in %s: %s; this filesystem has no O_TMPFILE (use --method=auto)"),
			 cli_quotef(dir), strerror(EOPNOTSUPP));
	else if (r < 0)
		cli_warn(-r, _("cannot create a temporary file in %s"), cli_quotef(dir));
	return r < 0 ? NULL : tf;
}
