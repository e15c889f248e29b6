/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Publishing a finished file under its name: linkat(2), renameat(2), checked on the server.
 * (doc/design.md §4)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/capability.h>

#include "tmp.h"

/*
 * renameat(2) that leaves nothing behind: between two links of one inode
 * (FILE~ a hard link of FILE, or two writers' backups of one FILE) it
 * succeeds and does nothing, and @from would stay forever.
 * Where links share an inode number, @from still being @to's file says
 * so.  sshfs (without -o use_ino) numbers inodes per name, so two links
 * never look alike there; and the kernel, which believes the rename, has
 * moved @from's inode to @to: a @from that is still there is looked up
 * afresh.  Then the lock tells: @from is one of this process's hidden
 * names (locked by a writer of this machine while it lives, see
 * reclaim()), so a @from that nobody holds locked is the rename's
 * leftover -- or a dead writer's, which anyone may reclaim -- and a
 * locked one a live writer's new file, left alone.
 */
int rename_over(int dirfd, const char *from, const char *to, bool mine)
{
	struct stat a, b;

	if (renameat(dirfd, from, dirfd, to) < 0)
		return negerrno();
	if (fstatat(dirfd, from, &a, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	/*
	 * A name that only this process makes while it runs (@mine: a random
	 * one, or a backup link made under its staging lock, which no other
	 * writer makes meanwhile) still there is this rename's leftover.
	 */
	if (mine || (fstatat(dirfd, to, &b, AT_SYMLINK_NOFOLLOW) == 0 && same_inode(&a, &b)))
		(void)unlinkat(dirfd, from, 0);
	else
		(void)reclaim(dirfd, from);
	return 0;
}

/*
 * Before anything is made beside an existing @path: would replacing it be
 * refused?  Then say so now, while nothing is left to clean up:
 * - an append-only directory takes new names but never removes one (the
 *   hidden name could not be removed when the rename is refused);
 * - in a sticky directory, someone else's file may be replaced only by
 *   the directory's owner or with CAP_FOWNER, and a backup link made
 *   first would be someone else's file there, which the caller could not
 *   remove either.
 */
int replace_allowed(int dirfd, const char *path)
{
	struct fattrs_statx_buf d;
	struct stat f;
	char *dir = fattrs_path_dir(path);
	int r;

	if (dir == NULL)
		return -ENOMEM;
	r = fattrs_statx(dirfd, dir, 0, STATX_TYPE | STATX_MODE | STATX_UID, &d);
	free(dir);
	if (r < 0)
		return 0;	/* the operations themselves will say */
	if (d.stx_attributes & d.stx_attributes_mask & STATX_ATTR_APPEND)
		return -EPERM;
	if (!(d.stx_mode & S_ISVTX) || fstatat(dirfd, path, &f, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (f.st_uid == geteuid() || d.stx_uid == geteuid() || fattrs_caps_have(CAP_FOWNER))
		return 0;
	return -EPERM;
}

/*
 * Rename @from over @path, then the old @path's hidden link over @backup.
 * Every signal is blocked meanwhile: between the two renames the hidden
 * name is the old file's only name, which a clean-up must not remove.
 * Returns 0; or -errno with @path as it was (*@ret_backup_failed set when
 * it was the backup's rename that failed, and the replace was undone); or,
 * when the backup's rename and undoing the replace both failed, -errno
 * with *@ret_replaced set too: @path is the new file and the old one keeps
 * its hidden name.
 */
static int replace_commit(int dirfd, const char *from, const char *path, const char *backup,
			  struct backup *b, bool *ret_backup_failed, bool *ret_replaced)
{
	sigset_t all, old;
	int r;

	*ret_replaced = false;
	*ret_backup_failed = false;
	if (b->hidden == NULL)
		return rename_over(dirfd, from, path, false);
	(void)sigfillset(&all);
	(void)sigprocmask(SIG_BLOCK, &all, &old);
	r = rename_over(dirfd, from, path, false);
	if (r == 0) {
		scratch_forget(b->slot);
		b->slot = -1;
		r = rename_over(dirfd, b->hidden, backup, true);
		if (r < 0) {
			*ret_backup_failed = true;
			/* Put everything back: the new file under @from again, the old one as @path. */
			if (renameat2(dirfd, b->hidden, dirfd, path, RENAME_EXCHANGE) == 0 &&
			    renameat(dirfd, b->hidden, dirfd, from) == 0) {
				free(b->hidden);
				b->hidden = NULL;
			} else {
				*ret_replaced = true;
			}
		} else {
			free(b->hidden);
			b->hidden = NULL;
		}
	}
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

static int sync_dir_of(int dirfd, const char *path)
{
	char *dir = fattrs_path_dir(path);
	int fd, r = 0;

	if (dir == NULL)
		return -ENOMEM;
	fd = openat(dirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		r = negerrno();
	if (fd >= 0)
		(void)close(fd);
	free(dir);
	return r;
}

/* Publish a named scratch file as @path. */
static int publish_named(struct fattrs_tmpfile *tf, const char *path, const char *backup,
			 unsigned int flags)
{
	int dirfd = tf->dirfd;
	struct backup b = BACKUP_INIT;
	struct keep k = KEEP_INIT;
	bool replaced = false;
	int r;

	if (flags & FATTRS_PUBLISH_NOCLOBBER) {
		if (renameat2(dirfd, tf->path, dirfd, path, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
			return negerrno();
		/* No RENAME_NOREPLACE here (FUSE without RENAME2): link(2) is just as exclusive. */
		if (linkat(dirfd, tf->path, dirfd, path, 0) == 0) {
			(void)unlinkat(dirfd, tf->path, 0);
			return 0;
		}
		if (errno == EEXIST || (errno != EPERM && errno != EOPNOTSUPP && errno != EMLINK))
			return negerrno();
		/*
		 * No hard links either: looking first and renaming after could
		 * replace a file made in between.  Refuse rather than risk it.
		 */
		return -EOPNOTSUPP;
	}
	if (backup != NULL) {
		struct stat st;

		if (fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			r = replace_allowed(dirfd, path);
			if (r < 0)
				return r;
		}
		r = backup_prepare(dirfd, path, backup, &b);
		if (r < 0) {
			backup_free(dirfd, &b);
			tf->backup_failed = true;
			return r;
		}
	}
	/* Only the holder of FILE's first hidden name keeps FILE so (keep_old()). */
	if (tf->keep) {
		struct fattrs_tmpl tmpl;
		char *first = fattrs_tmpl_hidden_for(path, &tmpl);

		if (first != NULL && strcmp(first, tf->path) == 0)
			(void)keep_old(dirfd, path, &k);
		free(first);
	}
	r = replace_commit(dirfd, tf->path, path, backup, &b, &tf->backup_failed, &replaced);
	if (replaced)
		scratch_release(tf);	/* its scratch name is FILE's now */
	if (r < 0 && !replaced) {
		tf->old_kept = keep_restore(dirfd, path, &k);
		backup_abort(dirfd, path, backup, &b);
	}
	keep_drop(dirfd, &k);
	backup_free(dirfd, &b);
	return r;
}

/*
 * Publish an unnamed file as @path.  *@ret_hidden: the hidden name it was
 * linked under first and renamed from, if any (the caller frees it).
 */
static int publish_unnamed(struct fattrs_tmpfile *tf, const char *path, const char *backup,
			   unsigned int flags, char **ret_hidden)
{
	struct link_args a = { .fd = tf->fd, .scratch = true, .slot = -1 };
	struct fattrs_tmpl tmpl;
	char *hidden, *tmp = NULL;
	struct backup b = BACKUP_INIT;
	bool replaced = false;
	int r;

	/* A new name: linkat(2) itself refuses to replace anything (EEXIST). */
	if (backup == NULL || (flags & FATTRS_PUBLISH_NOCLOBBER)) {
		r = link_fd(tf->fd, tf->dirfd, path, &tf->via);
		if (r == 0 || r != -EEXIST || (flags & FATTRS_PUBLISH_NOCLOBBER))
			return r;
	}
	r = replace_allowed(tf->dirfd, path);
	if (r < 0)
		return r;
	/*
	 * An existing name: link beside it under a hidden name of its own,
	 * then rename over it.  The file is locked first, so that a kill -9
	 * between the two leaves a name the next writer of @path can tell
	 * from a live one's, and reclaim; where it cannot be locked, a random
	 * name.
	 */
	hidden = fattrs_tmpl_hidden_for(path, &tmpl);
	if (hidden == NULL)
		return -ENOMEM;
	if (flock(tf->fd, LOCK_EX | LOCK_NB) == 0)
		r = try_reclaimable(tf->dirfd, &tmpl, &tmp, make_link, NULL, &a);
	else
		r = try_names(tf->dirfd, &tmpl, &tmp, make_link, &a);
	if (r == 0) {
		tf->via = a.via;
		if (backup != NULL) {
			r = backup_prepare(tf->dirfd, path, backup, &b);
			tf->backup_failed = r < 0;
		}
		if (r == 0)
			r = replace_commit(tf->dirfd, tmp, path, backup, &b, &tf->backup_failed, &replaced);
		if (r < 0 && !replaced) {
			(void)unlinkat(tf->dirfd, tmp, 0);
			backup_abort(tf->dirfd, path, backup, &b);
		}
		backup_free(tf->dirfd, &b);
	}
	scratch_forget(a.slot);
	if (r == 0)
		*ret_hidden = tmp;
	else
		free(tmp);
	free(hidden);
	return r;
}

/*
 * Save @tf's content under a new name beside @path (a random hidden one,
 * made with O_EXCL, synced, and asked of the server to be that file).
 * Returns the name, or NULL when it could not be saved.
 */
static char *publish_keep_copy(struct fattrs_tmpfile *tf, const char *path)
{
	struct named_args a = { .mode = 0600, .fd = -1, .slot = -1 };
	struct fattrs_tmpl tmpl;
	struct stat mine, there;
	char *hidden = fattrs_tmpl_hidden_for(path, &tmpl), *name = NULL;
	bool saved;

	if (hidden == NULL || try_names(tf->dirfd, &tmpl, &name, make_named, &a) < 0) {
		free(hidden);
		return NULL;
	}
	free(hidden);
	saved = copy_all(tf->fd, a.fd) == 0 && fsync(a.fd) == 0 && fstat(a.fd, &mine) == 0 &&
		name_stat(tf->dirfd, name, &there) == 0 && same_inode(&mine, &there) &&
		there.st_size == mine.st_size;
	(void)close(a.fd);
	if (!saved) {
		(void)unlinkat(tf->dirfd, name, 0);
		free(name);
		return NULL;
	}
	return name;
}

/*
 * The publish was reported done: does @path, asked of the server, still
 * name the file it replaced (@old, when there was one), or nothing?  A
 * network filesystem has been seen to answer a rename with success and
 * keep neither name (cifs on Linux 7.2, of a file made with O_TMPFILE),
 * and a client may believe a rename that its server did otherwise.  Any
 * other file there is a later writer's, whose publish came after this
 * one (and on sshfs inode numbers follow names, so this file's own number
 * is not asked for).  Asked only where @mine, this file, is not on a
 * block device (a device number with a major number): there the kernel
 * did the rename itself.  When the publish did not happen, the content is
 * saved under a new random name, which no later run reclaims (@hidden,
 * the name it was renamed from, may be one that the next writer of @path
 * would: it goes), reported by fattrs_tmpfile_lost(), and the publish
 * fails with -EIO.
 */
static int publish_check(struct fattrs_tmpfile *tf, const char *path, const char *hidden,
			 const struct stat *mine, const struct stat *old)
{
	struct stat there;

	if (name_stat(tf->dirfd, path, &there) == 0) {
		if (old == NULL || !same_inode(&there, old) || same_inode(&there, mine))
			return 0;
	} else if (errno != ENOENT) {
		return 0;	/* no answer: nothing to say it was not done */
	}
	tf->lost = true;
	tf->kept = publish_keep_copy(tf, path);
	/* Saved: the name it was renamed from goes, if it still is this file. */
	if (tf->kept != NULL && hidden != NULL)
		unlink_if(tf->dirfd, hidden, mine);
	return -EIO;
}

bool fattrs_tmpfile_backup_failed(const struct fattrs_tmpfile *tf)
{
	return tf->backup_failed;
}

const char *fattrs_tmpfile_old_kept(const struct fattrs_tmpfile *tf)
{
	return tf->old_kept;
}

bool fattrs_tmpfile_lost(const struct fattrs_tmpfile *tf, const char **ret_kept)
{
	*ret_kept = tf->kept;
	return tf->lost;
}

int fattrs_tmpfile_publish(struct fattrs_tmpfile *tf, const char *path, const char *backup,
			   unsigned int flags)
{
	char *copy = strdup(path), *linked = NULL;
	struct stat mine, old;
	uint64_t mnt_id = 0;
	bool check, had_old = false;
	int r;

	if (copy == NULL)
		return -ENOMEM;
	tf->backup_failed = false;
	tf->lost = false;
	free(tf->kept);
	tf->kept = NULL;
	free(tf->old_kept);
	tf->old_kept = NULL;
	/*
	 * What @path is before, for publish_check(): the caller has just
	 * looked at it, so mostly from the client's caches, no request.
	 */
	check = fattrs_stat_mnt(tf->fd, "", AT_EMPTY_PATH, &mine, &mnt_id) == 0 && major(mine.st_dev) == 0;
	if (check || backup != NULL)
		had_old = fstatat(tf->dirfd, path, &old, AT_SYMLINK_NOFOLLOW) == 0;
	if (backup != NULL && !had_old && errno == ENOENT) {
		backup_orphan(tf->dirfd, path, backup);
		backup = NULL;
	}
	/* A replace where the client may remove the old file in a rename it fails (keep.c). */
	tf->keep = check && had_old && S_ISREG(old.st_mode) && !(flags & FATTRS_PUBLISH_NOCLOBBER) &&
		   keep_needed(tf, mnt_id);
	if (tf->path == NULL) {
		r = publish_unnamed(tf, path, backup, flags, &linked);
		if (r == -ENOLINK) {
			/* No way to link an unnamed file here: go on as a named scratch one. */
			struct fattrs_tmpl tmpl;
			char *hidden = fattrs_tmpl_hidden_for(path, &tmpl);

			tf->flags |= FATTRS_TMP_UNPUBLISHED | FATTRS_TMP_RECLAIM;
			r = hidden != NULL ? relink_as_named(tf, &tmpl, flags) : -ENOMEM;
			free(hidden);
			if (r == 0)
				r = publish_named(tf, path, backup, flags);
		}
	} else {
		r = publish_named(tf, path, backup, flags);
	}
	if (r == 0 && check)
		r = publish_check(tf, path, linked != NULL ? linked : tf->path, &mine,
				  had_old ? &old : NULL);
	free(linked);
	if (r < 0) {
		if (tf->lost)
			scratch_release(tf);	/* what was kept stays, and is named */
		free(copy);
		return r;
	}
	/* Published: no hidden name left to tell a live writer by. */
	(void)flock(tf->fd, LOCK_UN);
	scratch_release(tf);
	free(tf->path);
	tf->path = copy;
	if (flags & FATTRS_PUBLISH_SYNC_DIR)
		return sync_dir_of(tf->dirfd, path);
	return 0;
}
