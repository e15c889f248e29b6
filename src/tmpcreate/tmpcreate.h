/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmpcreate's private header: the control struct main() fills from the options, the word tables,
 * the helpers more than one mode uses, and one entry point per mode (MODE.c).
 */
#ifndef FATTRS_TMPCREATE_H
#define FATTRS_TMPCREATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "fattrs.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum sync_level { SYNC_NONE, SYNC_DATA, SYNC_FULL };

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

/* Indexed by enum fattrs_tmp_method: the keywords of --method. */
extern const char *const method_keywords[3];
/* Indexed by enum fattrs_link_via: its names in -v and --probe. */
extern const char *const link_names[4];
/* Indexed by the bit number of FATTRS_PRESERVE_*: the keywords of --preserve. */
extern const char *const preserve_keywords[5];
/* Indexed by enum sync_level: the keywords of --sync. */
extern const char *const sync_keywords[3];

/* Why the method was chosen, as words for -v and --probe. */
const char *why_words(enum fattrs_tmp_why why, int err, char *buf, size_t size);

/* $NAME if set and not empty, else NULL. */
const char *getenv_nonempty(const char *name);

/* -p DIR / --tmpdir=DIR if given and not empty, else NULL. */
const char *tmpdir_arg(const struct tmpcreate_control *ctl);

/* The directory --tmpdir means: -p DIR, else $TMPDIR, else /tmp. */
const char *tmpdir_of(const struct tmpcreate_control *ctl);

/* Remove held and scratch names on the fatal signals not ignored at start (cli_fatal_signals()). */
void cleanup_on_signals(void);

/* -v: "PROG: WHAT 'NAME' with method M (why)". */
void say_method(const struct fattrs_tmpfile *tf, const char *what, const char *name);

/*
 * An unnamed file in @dir (or a hidden named one, removed on the usual
 * signals): the start of -o and --scratch.  Reports its own failure.
 */
struct fattrs_tmpfile *scratch_new(const struct tmpcreate_control *ctl, const char *dir);

/*
 * The same for -o @file (in @dir): a named one is locked and takes @file's
 * own hidden name first, where the next writer can reclaim it after a
 * kill -9 (FATTRS_TMP_RECLAIM).
 */
struct fattrs_tmpfile *scratch_new_for(const struct tmpcreate_control *ctl, const char *dir,
				       const char *file);
/*
 * A scratch file in @dir under a random name that is neither locked nor
 * taken for a dead writer's: for a file COMMAND opens by its name while it
 * runs (on cifs a lock is a byte-range lock, which would refuse COMMAND).
 */
struct fattrs_tmpfile *scratch_new_unlocked(const struct tmpcreate_control *ctl, const char *dir);

/* The modes; each returns the exit status.  @args: the operands (may be NULL). */
int mktemp_main(struct tmpcreate_control *ctl, const char **args);
int output_main(const struct tmpcreate_control *ctl, const char **cmd);
int scratch_main(const struct tmpcreate_control *ctl, const char **cmd);
int probe_main(const struct tmpcreate_control *ctl, const char **args);

#endif /* FATTRS_TMPCREATE_H */
