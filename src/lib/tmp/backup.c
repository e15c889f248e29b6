/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keeping the replaced file as its backup (--backup), without a moment where it has no name.
 * (doc/design.md §4)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmp.h"

struct backup_link_args {
	const char *src;	/* the file linked (@path) */
	const char *backup;
	int slot;	/* registry slot of the name made */
};

static int link_name(int dirfd, const char *path, void *data)
{
	return linkat(dirfd, data, dirfd, path, 0) == 0 ? 0 : negerrno();
}

/* Link @a->src as @path, registered for signal clean-up. */
static int link_staged(int dirfd, const char *path, void *data)
{
	struct backup_link_args *a = data;

	return make_registered(dirfd, path, link_name, (void *)(uintptr_t)a->src, &a->slot);
}

/*
 * @hidden, a backup's hidden link found while its staging lock is held
 * here: a dead writer's.  Still @path's or @backup's file (that writer
 * was killed before its replace, or the link is the leftover of a rename
 * between two links of one file), it goes.  Else it is the only name of
 * the file that writer replaced (killed between its two renames, or
 * between the removal and the rename that cifs makes of a replace): it
 * becomes @backup, as that writer would have made it, rather than be
 * lost.  Returns 0 when the name is free, -EEXIST when it stays.
 */
static int reclaim_backup_link(int dirfd, const char *hidden, void *data)
{
	struct backup_link_args *a = data;
	struct stat h, st;
	int r;

	if (name_stat(dirfd, hidden, &h) < 0)
		return errno == ENOENT ? 0 : -EEXIST;
	if (!S_ISREG(h.st_mode))
		return -EEXIST;
	if ((name_stat(dirfd, a->src, &st) == 0 && same_inode(&h, &st)) ||
	    (name_stat(dirfd, a->backup, &st) == 0 && same_inode(&h, &st)))
		return unlinkat(dirfd, hidden, 0) == 0 || errno == ENOENT ? 0 : -EEXIST;
	r = rename_over(dirfd, hidden, a->backup, true);
	return r == 0 || r == -ENOENT ? 0 : -EEXIST;
}

/*
 * The staging lock of @backup's hidden link: flock(LOCK_EX) on a file of
 * a name of its own (hidden_kind_for("~l")), made if missing, held from
 * before the hidden link is made until it is gone again, then removed.
 * Under this lock a writer killed anywhere leaves names the next writer
 * reclaims: this lock file (taken, then removed), or a hidden link (found
 * under the lock, so a dead writer's).  The name is checked to be still
 * the file locked (a holder removes it before it lets go), so only a
 * holder ever removes it.
 * Returns the locked descriptor, or -ENOLCK when no lock can be had here
 * (not a regular file, not writable, no flock(2)).
 */
static int stage_lock(int dirfd, const char *name, int *ret_slot)
{
	for (int i = 0; i < 8; i++) {
		struct stat mine, there;
		int fd, r;

		if (fstatat(dirfd, name, &there, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(there.st_mode))
			return -ENOLCK;
		fd = open_lockable(dirfd, name, O_CREAT);
		if (fd < 0)
			return -ENOLCK;
		if (fstat(fd, &mine) < 0 || !S_ISREG(mine.st_mode)) {
			(void)close(fd);
			return -ENOLCK;
		}
		while ((r = flock(fd, LOCK_EX)) < 0 && errno == EINTR)
			;
		if (r < 0) {
			/* No lock here, so no holder either: what this made goes again. */
			unlink_if(dirfd, name, &mine);
			(void)close(fd);
			return -ENOLCK;
		}
		if (name_stat(dirfd, name, &there) == 0 && same_inode(&mine, &there)) {
			*ret_slot = scratch_register(dirfd, name, fd);
			return fd;
		}
		(void)close(fd);	/* removed by its holder meanwhile: again */
	}
	return -ENOLCK;
}

static void stage_unlock(int dirfd, const char *name, int fd, int slot)
{
	scratch_forget(slot);
	(void)unlinkat(dirfd, name, 0);
	(void)close(fd);
}

/*
 * @backup was just made, a new link of @path: remember it, so that a
 * replace that fails removes it again, and nothing else.
 * By inode number alone that cannot be told everywhere: FUSE filesystems
 * that number inodes per name (sshfs without -o use_ino; libfuse's
 * high-level API) give each link a number of its own, and nlink 1, so
 * @backup never looks like a link of @path there, and size or times would
 * be guesses.  What does stay true on every filesystem is the kernel's
 * inode behind the name this process made: an O_PATH descriptor opened
 * through @backup right after the link pins it (and, being O_PATH, sends
 * FUSE no open: libfuse does not hide the name when it is unlinked), and
 * @backup still resolves to it unless something was renamed or linked
 * over it on this machine since.  Where the new link does share @path's
 * number (every local filesystem), FILE~ is in addition removed only
 * while it still is FILE, as before.
 */
static void backup_made(int dirfd, const char *path, const char *backup, struct backup *b)
{
	struct stat mine, st;

	b->made = true;
	b->made_fd = openat(dirfd, backup, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	b->made_shares_ino = b->made_fd < 0 ||
		(fstat(b->made_fd, &mine) == 0 && fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		 same_inode(&mine, &st));
}

/*
 * @path is missing: nothing to keep.  But a writer killed in the middle of
 * the replace that cifs makes of a rename over a file open on the server
 * (the target removed first, then the rename) left the file it replaced
 * only under its hidden backup name: that becomes @backup now, as that
 * writer would have made it.  One forced stat when there is no such name.
 */
void backup_orphan(int dirfd, const char *path, const char *backup)
{
	struct backup_link_args a = { .src = path, .backup = backup, .slot = -1 };
	struct fattrs_tmpl tmpl, ltmpl;
	char *hidden = hidden_kind_for("~", backup, &tmpl), *lname = NULL;
	struct stat st;
	int fd, slot = -1;

	if (hidden != NULL && name_stat(dirfd, hidden, &st) == 0 &&
	    (lname = hidden_kind_for("~l", backup, &ltmpl)) != NULL &&
	    (fd = stage_lock(dirfd, lname, &slot)) >= 0) {
		(void)reclaim_backup_link(dirfd, hidden, &a);
		stage_unlock(dirfd, lname, fd, slot);
	}
	free(lname);
	free(hidden);
}

static int backup_prepare_once(int dirfd, const char *path, const char *backup, struct backup *b)
{
	struct backup_link_args a = { .src = path, .backup = backup, .slot = -1 };
	struct fattrs_tmpl tmpl, ltmpl;
	struct stat st;
	char *hidden;
	int r;

	*b = (struct backup) BACKUP_INIT;
	if (linkat(dirfd, path, dirfd, backup, 0) == 0) {
		backup_made(dirfd, path, backup, b);
		return 0;
	}
	if (errno == ENOENT) {
		/* Nothing to keep when @path is missing; a missing backup directory is an error. */
		if (name_stat(dirfd, path, &st) == 0 || errno != ENOENT)
			return -ENOENT;
		backup_orphan(dirfd, path, backup);
		return 0;
	}
	if (errno != EEXIST)
		return negerrno();
	/* What renaming over the older backup would say, said before anything is replaced. */
	if (fstatat(dirfd, backup, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
		return -EISDIR;
	r = replace_allowed(dirfd, backup);
	if (r < 0)
		return r;
	hidden = hidden_kind_for("~", backup, &tmpl);
	b->lock_name = hidden != NULL ? hidden_kind_for("~l", backup, &ltmpl) : NULL;
	if (b->lock_name == NULL) {
		free(hidden);
		return -ENOMEM;
	}
	b->lock_fd = stage_lock(dirfd, b->lock_name, &b->lock_slot);
	if (b->lock_fd >= 0) {
		r = try_reclaimable(dirfd, &tmpl, &b->hidden, link_staged, reclaim_backup_link, &a);
	} else {
		/* Not lockable here: a random name, which nobody takes for a dead writer's. */
		struct link_args l = { .src = path, .scratch = true, .slot = -1 };

		free(b->lock_name);
		b->lock_name = NULL;
		r = try_names(dirfd, &tmpl, &b->hidden, make_link, &l);
		a.slot = l.slot;
	}
	free(hidden);
	b->slot = a.slot;
	return r;
}

/*
 * A link of @path fails with ENOENT, though @path is there, when another
 * writer renames its new file over @path at that moment: the old file,
 * found by the name, lost its last link before the link was made.  @path
 * is then looked at again (a new file by now), a few times; a backup
 * directory that is missing fails each time.
 */
int backup_prepare(int dirfd, const char *path, const char *backup, struct backup *b)
{
	struct stat st;
	int r;

	for (int i = 0;; i++) {
		r = backup_prepare_once(dirfd, path, backup, b);
		if (r != -ENOENT || i == 7 || name_stat(dirfd, path, &st) < 0)
			return r;
		backup_free(dirfd, b);
	}
}

/* Gives up what @b holds; the staging lock last, once @b->hidden is gone or given up. */
void backup_free(int dirfd, struct backup *b)
{
	scratch_forget(b->slot);
	b->slot = -1;
	if (b->made_fd >= 0)
		(void)close(b->made_fd);
	b->made_fd = -1;
	free(b->hidden);
	b->hidden = NULL;
	if (b->lock_name != NULL)
		stage_unlock(dirfd, b->lock_name, b->lock_fd, b->lock_slot);
	free(b->lock_name);
	b->lock_name = NULL;
	b->lock_fd = b->lock_slot = -1;
}

/* The replace failed (or never happened): @path and @backup as they were. */
void backup_abort(int dirfd, const char *path, const char *backup, struct backup *b)
{
	struct stat st, mine;

	/* The link made is removed only while @backup still is it (backup_made()). */
	if (b->made && b->made_fd >= 0 &&
	    (fstat(b->made_fd, &mine) < 0 || fstatat(dirfd, backup, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	     !same_inode(&mine, &st)))
		b->made = false;
	if (b->made && !b->made_shares_ino)
		(void)unlinkat(dirfd, backup, 0);
	else if (b->made && fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
		unlink_if(dirfd, backup, &st);
	if (b->hidden != NULL)
		(void)unlinkat(dirfd, b->hidden, 0);
	backup_free(dirfd, b);
}
