/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the files of src/lib/tmp share: the temporary file, its names, its lock, its backup. */
#ifndef FATTRS_TMP_H
#define FATTRS_TMP_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "../internal.h"

/* As many names as mkstemp(3) tries (62^3) before it gives up with EEXIST. */
#define NAME_ATTEMPTS 238328

struct fattrs_tmpfile {
	int fd;
	int dirfd;
	mode_t mode;
	unsigned int flags;
	enum fattrs_tmp_method method;
	enum fattrs_tmp_why why;
	int why_errno;
	enum fattrs_link_via via;
	char *path;		/* NULL while unnamed */
	bool unpublished;	/* path is a scratch name to remove unless published */
	bool backup_failed;	/* the last publish failed making the backup */
	bool lost;		/* the last publish was reported done, and was not */
	char *kept;		/* then, the name its content is under, or NULL */
	bool keep;		/* the publish keeps the old file under a link of its own (keep.c) */
	const struct fattrs_fstype *fstype;	/* its filesystem's row, where known (NULL) */
	char *old_kept;		/* the last publish failed, and the old file is under this name */
	int slot;		/* index in the scratch registry, or -1 */
};

#define SCRATCH_SLOTS 16
#define SCRATCH_PENDING (-1)
#define SCRATCH_TRUSTED (-2)
#define SCRATCH_TRUSTED_DIR (-3)	/* the same for a directory (rmdir, if empty) */

/*
 * At most this many names made and lost again (NAME_LOST from @make) in a row:
 * where that keeps happening, something on the filesystem takes every name
 * (or the lock that keeps it means something else there), and trying on
 * would only cost round trips.
 */
#define LOST_ATTEMPTS 16
/* What @make returns for such a name (no errno: openat's own ESTALE stays one). */
#define NAME_LOST INT_MIN

/*
 * A reclaimer holds the lock of an empty hidden file RECLAIM_EMPTY_WAIT_MS
 * before it removes it (reclaim()); a writer whose lock came less than
 * RECLAIM_SAFE_LOCK_MS after its create began (open_excl()) cannot have
 * been removed so.  Time on each side is its own CLOCK_MONOTONIC.
 */
#define RECLAIM_EMPTY_WAIT_MS 200
#define RECLAIM_SAFE_LOCK_MS 100

struct named_args {
	mode_t mode;
	int fd;
	int slot;	/* registry slot once created, or -1 */
	bool scratch;
	bool lock;	/* flock the new file, and make sure the name is still it */
};

struct link_args {
	int fd;			/* link this descriptor ... */
	const char *src;	/* ... or, if not NULL, this existing name */
	enum fattrs_link_via via;
	bool scratch;		/* register the new name for signal clean-up */
	int slot;
};

/*
 * Keeping the current @path as @backup.  Either @backup did not exist and
 * is a new hard link of @path (@made: removed again if the replace fails),
 * or an older @backup exists: then it is left as it is until @path has
 * been replaced, and the old @path waits under a hidden name of its own
 * (@hidden), renamed over @backup only after the replace.  So a replace
 * that fails leaves @path and the older @backup as they were, and at no
 * moment is any version without a name.
 * The hidden name is made from @backup's name and this machine
 * (hidden_kind_for("~")), under the staging lock of that name
 * (stage_lock()), which is held until the hidden name is gone again
 * (renamed over @backup, or removed): so a writer that finds that name
 * while it holds the lock has found a dead writer's (kill -9), which it
 * reclaims (reclaim_backup_link()).  The hidden link itself is never
 * opened: cifs opens a hard link younger than its attribute cache with
 * EINVAL, and a file open on a Samba server cannot be renamed over there
 * (STATUS_ACCESS_DENIED), which the kernel's client answers by removing
 * the target first and renaming after, so a writer killed in between
 * left no @path at all.  Where no lock can be had (no flock(2), not
 * writable), a random name, which nobody takes for a dead writer's.
 */
struct backup {
	bool made;
	bool made_shares_ino;	/* @made: the new link has @path's inode number */
	int made_fd;	/* @made: O_PATH descriptor opened through @backup, or -1 */
	char *hidden;
	int slot;	/* registry slot of @hidden (signal clean-up) */
	char *lock_name;	/* the staging lock held, or NULL */
	int lock_fd;
	int lock_slot;
};

#define BACKUP_INIT { .slot = -1, .made_fd = -1, .lock_fd = -1, .lock_slot = -1 }

/*
 * The old @path under a link of its own (@name, hidden_kind_for("/k")),
 * while a replace is under way where the client may remove it in a
 * rename that then fails (keep_needed()).  @st: @path just before the
 * link was made (its nlink one less than with it).
 */
struct keep {
	char *name;
	struct stat st;
	int slot;	/* registry slot of @name (signal clean-up) */
};

#define KEEP_INIT { .name = NULL, .slot = -1 }

/* keep.c */
bool keep_needed(const struct fattrs_tmpfile *tf, uint64_t mnt_id);
int keep_old(int dirfd, const char *path, struct keep *k);
void keep_drop(int dirfd, struct keep *k);
char *keep_restore(int dirfd, const char *path, struct keep *k);

/* registry.c */
int make_registered(int dirfd, const char *path, int (*make)(int, const char *, void *),
		    void *data, int *ret_slot);
int scratch_register(int dirfd, const char *path, int fd);
void scratch_forget(int slot);
void scratch_set_fd(int slot, int fd);

/* names.c */
char *hidden_kind_for(const char *kind, const char *path, struct fattrs_tmpl *ret);
int try_names(int dirfd, const struct fattrs_tmpl *tmpl, char **ret_path,
	      int (*make)(int dirfd, const char *path, void *data), void *data);

/* reclaim.c */
int name_stat(int dirfd, const char *path, struct stat *st);
int open_lockable(int dirfd, const char *path, int flags);
int reclaim(int dirfd, const char *path);
int try_reclaimable(int dirfd, const struct fattrs_tmpl *tmpl, char **ret_path,
		    int (*make)(int dirfd, const char *path, void *data),
		    int (*reclaim_as)(int dirfd, const char *path, void *data), void *data);
void unlink_if(int dirfd, const char *path, const struct stat *st);

/* create.c */
int copy_all(int from, int to);
int link_fd(int fd, int dirfd, const char *path, enum fattrs_link_via *ret_via);
int make_link(int dirfd, const char *path, void *data);
int make_named(int dirfd, const char *path, void *data);
int relink_as_named(struct fattrs_tmpfile *tf, const struct fattrs_tmpl *tmpl, unsigned int sync);
void scratch_release(struct fattrs_tmpfile *tf);

/* backup.c */
int backup_prepare(int dirfd, const char *path, const char *backup, struct backup *b);
void backup_abort(int dirfd, const char *path, const char *backup, struct backup *b);
void backup_free(int dirfd, struct backup *b);
void backup_orphan(int dirfd, const char *path, const char *backup);

/* publish.c */
int rename_over(int dirfd, const char *from, const char *to, bool mine);
int replace_allowed(int dirfd, const char *path);

/**
 * fattrs_tmpdir_new() - create a directory with a random name (mkdtemp(3)).
 * @ret_path: the directory's path, @tmpl's with the X's filled in (free() it)
 *
 * Returns: 0, or -errno from mkdirat(2) (-EEXIST when every name was taken).
 */
int fattrs_tmpdir_new(int dirfd, const struct fattrs_tmpl *tmpl, mode_t mode,
		      char **ret_path);

#endif /* FATTRS_TMP_H */
