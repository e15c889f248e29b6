/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Temporary files and directories made (O_TMPFILE, else a named file), linked and released.
 * (doc/design.md §4)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "tmp.h"

/*
 * How unnamed files get linked in this process, learned on the first link:
 * AT_EMPTY_PATH is tried first; after it has failed once, only /proc is
 * tried; after both have failed, auto creates named files from the start.
 * What was learned stays true in a child after fork(2) (same kernel,
 * credentials and mounts); threads share it, atomically.
 */
static _Atomic enum fattrs_link_via link_known = FATTRS_LINK_UNKNOWN;

/*
 * -EPERM when the directory of @path is append-only: a name made there can
 * never be removed or renamed away again (chattr +a).
 */
static int dir_refuses_removal(int dirfd, const char *path)
{
	struct fattrs_statx_buf stx;
	char *dir = fattrs_path_dir(path);
	int r;

	if (dir == NULL)
		return -ENOMEM;
	r = fattrs_statx(dirfd, dir, 0, STATX_TYPE, &stx);
	free(dir);
	if (r == 0 && (stx.stx_attributes & stx.stx_attributes_mask & STATX_ATTR_APPEND))
		return -EPERM;
	return 0;
}

/*
 * flock(2) failed because another open file holds the lock: EWOULDBLOCK,
 * or EACCES where the cifs client turns flock(2) into SMB byte-range
 * locks.  Any other error means there are no such locks here.
 */
static bool lock_held_elsewhere(int err)
{
	return err == EWOULDBLOCK || err == EACCES;
}

/* Milliseconds of CLOCK_MONOTONIC. */
static int64_t monotonic_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The server's word on whether the file open as @fd still has a name,
 * where cached attributes may not say (GlusterFS's client answers a
 * forced stat of a file another client removed from its cache: one link,
 * the same inode): a change of the mode to the mode it has, which the
 * server must carry out.  False only when it says the file is gone.
 */
static bool still_there(int fd, const struct stat *st)
{
	return fchmod(fd, st->st_mode & 07777) == 0 || (errno != ESTALE && errno != ENOENT);
}

/*
 * Create @path exclusively; with @a->lock, lock it and make sure the name
 * still is this file.  Before the lock, another writer may have taken the
 * name for a dead one's and removed it (reclaim()): then the name is not
 * (or no longer) this file, and another is tried.  That writer holds the
 * lock RECLAIM_EMPTY_WAIT_MS before it removes an empty file, so a lock
 * had sooner after the create cannot come after a removal.  A lock had
 * later is checked with the server (still_there()), not with this
 * client's caches.  The lock is taken once: a second flock(2) on the same
 * open file is not a no-op everywhere (on cifs it is a second byte-range
 * lock, which the first one refuses: EACCES).
 * Returns 0; -EEXIST when the name is taken; NAME_LOST when the name was
 * made but lost again (nothing of it left here); or -errno.
 */
static int open_excl(int dirfd, const char *path, void *data)
{
	struct named_args *a = data;
	struct stat mine, there;
	int64_t start = monotonic_ms();

	a->fd = openat(dirfd, path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, a->mode);
	if (a->fd < 0)
		return negerrno();
	if (!a->lock)
		return 0;
	if (flock(a->fd, LOCK_EX | LOCK_NB) < 0) {
		if (!lock_held_elsewhere(errno))
			return 0;	/* no locks here: nobody can reclaim it either */
		/* A reclaimer holds it, and removes the name: give it up. */
	} else if (fstat(a->fd, &mine) == 0 && name_stat(dirfd, path, &there) == 0 &&
		   same_inode(&mine, &there) && there.st_nlink > 0 &&
		   (monotonic_ms() - start < RECLAIM_SAFE_LOCK_MS || still_there(a->fd, &mine))) {
		return 0;
	}
	if (fstat(a->fd, &mine) == 0)
		unlink_if(dirfd, path, &mine);
	(void)close(a->fd);
	a->fd = -1;
	return NAME_LOST;
}

int make_named(int dirfd, const char *path, void *data)
{
	struct named_args *a = data;
	int r;

	if (!a->scratch)
		return open_excl(dirfd, path, a);
	a->slot = scratch_register(dirfd, path, SCRATCH_PENDING);
	r = open_excl(dirfd, path, a);
	if (r < 0) {
		scratch_forget(a->slot);
		a->slot = -1;
	} else if (a->slot >= 0) {
		scratch_set_fd(a->slot, a->fd);
	}
	return r;
}

static int open_named(struct fattrs_tmpfile *tf, const struct fattrs_tmpl *tmpl)
{
	struct named_args a = {
		.mode = tf->mode,
		.fd = -1,
		.slot = -1,
		.scratch = (tf->flags & (FATTRS_TMP_UNPUBLISHED | FATTRS_TMP_HOLD)) != 0,
		.lock = (tf->flags & FATTRS_TMP_RECLAIM) != 0,
	};
	char *path;
	int r;

	if (tf->flags & FATTRS_TMP_UNPUBLISHED) {
		/* A scratch name in an append-only directory could never be removed again. */
		r = dir_refuses_removal(tf->dirfd, tmpl->path);
		if (r < 0)
			return r;
	}
	r = a.lock ? try_reclaimable(tf->dirfd, tmpl, &path, make_named, NULL, &a)
		   : try_names(tf->dirfd, tmpl, &path, make_named, &a);

	if (r < 0)
		return r;
	tf->fd = a.fd;
	tf->path = path;
	tf->slot = a.slot;
	tf->unpublished = a.scratch;
	tf->method = FATTRS_TMP_NAMED;
	return 0;
}

/* The name is published (or given up): stop treating it as scratch. */
void scratch_release(struct fattrs_tmpfile *tf)
{
	scratch_forget(tf->slot);
	tf->slot = -1;
	tf->unpublished = false;
}

static int open_unnamed(int dirfd, const char *tmpl_path, mode_t mode)
{
	char *dir = fattrs_path_dir(tmpl_path);
	int fd;

	if (dir == NULL)
		return -ENOMEM;
	fd = openat(dirfd, dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
	if (fd < 0)
		fd = negerrno();
	free(dir);
	return fd;
}

/* fattrs_tmpfile_loses_name(), and the row asked for in *@ret (NULL: none). */
static int loses_name(int dirfd, const char *path, const struct fattrs_fstype **ret)
{
	struct statfs sf;
	const struct fattrs_fstype *t;
	int r = statfs_at(dirfd, path, path[0] == '\0' ? AT_EMPTY_PATH : 0, &sf);

	*ret = NULL;
	if (r < 0)
		return r;
	*ret = t = fattrs_fstype_by_magic((uint32_t)sf.f_type);
	return t != NULL && t->tmpfile_loses_name;
}

int fattrs_tmpfile_loses_name(int dirfd, const char *path)
{
	const struct fattrs_fstype *t;

	return loses_name(dirfd, path, &t);
}

/* The errors that mean "this filesystem (or kernel) has no O_TMPFILE". */
static bool no_tmpfile(int r)
{
	return r == -EOPNOTSUPP || r == -EISDIR || r == -EINVAL;
}

int fattrs_tmpfile_new(int dirfd, const struct fattrs_tmpl *tmpl, mode_t mode,
		       enum fattrs_tmp_method method, unsigned int flags,
		       struct fattrs_tmpfile **ret)
{
	struct fattrs_tmpfile *tf = calloc(1, sizeof(*tf));
	int r;

	if (tf == NULL)
		return -ENOMEM;
	*tf = (struct fattrs_tmpfile) {
		.fd = -1,
		.dirfd = dirfd,
		.mode = mode,
		.flags = flags,
		.method = method,
		.why = FATTRS_TMP_WHY_REQUESTED,
		.slot = -1,
	};

	if (tmpl->path[0] != '\0' && tmpl->path[strlen(tmpl->path) - 1] == '/') {
		/* "name/" can only be a directory, as open(O_CREAT) would say. */
		free(tf);
		return -EISDIR;
	}
	if (method == FATTRS_TMP_AUTO && link_known == FATTRS_LINK_NONE) {
		tf->why = FATTRS_TMP_WHY_NO_LINK;
		method = FATTRS_TMP_NAMED;
	}
	if (method == FATTRS_TMP_NAMED) {
		r = open_named(tf, tmpl);
		goto done;
	}

	r = open_unnamed(dirfd, tmpl->path, mode);
	if (r >= 0 && loses_name(r, "", &tf->fstype) > 0) {
		(void)close(r);
		if (method == FATTRS_TMP_AUTO) {
			tf->why = FATTRS_TMP_WHY_LOSES_NAME;
			r = open_named(tf, tmpl);
			goto done;
		}
		r = -EOPNOTSUPP;
	}
	if (r >= 0) {
		tf->fd = r;
		tf->method = FATTRS_TMP_TMPFILE;
		if (method == FATTRS_TMP_AUTO)
			tf->why = FATTRS_TMP_WHY_SUPPORTED;
		r = 0;
	} else if (method == FATTRS_TMP_AUTO && no_tmpfile(r)) {
		tf->why = FATTRS_TMP_WHY_NO_TMPFILE;
		tf->why_errno = -r;
		r = open_named(tf, tmpl);
	} else if (r == -EISDIR || r == -EINVAL) {
		/* What kernels without O_TMPFILE answer: say it plainly. */
		r = -EOPNOTSUPP;
	}
done:
	if (r < 0) {
		free(tf);
		return r;
	}
	*ret = tf;
	return 0;
}

struct fattrs_tmpfile *fattrs_tmpfile_free(struct fattrs_tmpfile *tf)
{
	if (tf == NULL)
		return NULL;
	if (tf->unpublished) {
		scratch_forget(tf->slot);
		(void)unlinkat(tf->dirfd, tf->path, 0);
	}
	if (tf->fd >= 0)
		(void)close(tf->fd);
	free(tf->path);
	free(tf->kept);
	free(tf->old_kept);
	free(tf);
	return NULL;
}

int fattrs_tmpfile_fd(const struct fattrs_tmpfile *tf)
{
	return tf->fd;
}

enum fattrs_tmp_method fattrs_tmpfile_method(const struct fattrs_tmpfile *tf)
{
	return tf->method;
}

enum fattrs_tmp_why fattrs_tmpfile_why(const struct fattrs_tmpfile *tf, int *ret_errno)
{
	if (ret_errno != NULL)
		*ret_errno = tf->why_errno;
	return tf->why;
}

enum fattrs_link_via fattrs_tmpfile_via(const struct fattrs_tmpfile *tf)
{
	return tf->via;
}

const char *fattrs_tmpfile_path(const struct fattrs_tmpfile *tf)
{
	return tf->path;
}

/* Link descriptor @fd as @path, the cheapest way known to work here. */
int link_fd(int fd, int dirfd, const char *path, enum fattrs_link_via *ret_via)
{
	char proc[PROC_FD_PATH_MAX];
	int r = -ENOENT;

	if (link_known != FATTRS_LINK_PROC) {
		if (linkat(fd, "", dirfd, path, AT_EMPTY_PATH) == 0) {
			*ret_via = link_known = FATTRS_LINK_EMPTY_PATH;
			return 0;
		}
		r = negerrno();
		/* ENOENT: not our descriptor's to link (kernel < 6.10, no capability). */
		if (r != -ENOENT)
			return r;
	}
	proc_fd_path(proc, fd);
	if (linkat(AT_FDCWD, proc, dirfd, path, AT_SYMLINK_FOLLOW) == 0) {
		*ret_via = link_known = FATTRS_LINK_PROC;
		return 0;
	}
	r = negerrno();
	/*
	 * ENOENT both ways: no /proc either, or not linkable at all.  Say
	 * "cannot link"; the named method then finds out whether the
	 * directory itself is gone.
	 */
	return r == -ENOENT ? -ENOLINK : r;
}

static int link_one(int dirfd, const char *path, void *data)
{
	struct link_args *a = data;

	if (a->src != NULL)
		return linkat(dirfd, a->src, dirfd, path, 0) == 0 ? 0 : negerrno();
	return link_fd(a->fd, dirfd, path, &a->via);
}

int make_link(int dirfd, const char *path, void *data)
{
	struct link_args *a = data;
	int r;

	if (!a->scratch)
		return link_one(dirfd, path, a);
	if (a->src != NULL)
		return make_registered(dirfd, path, link_one, a, &a->slot);
	/* Registered first, checked against the descriptor by the handler. */
	a->slot = scratch_register(dirfd, path, a->fd);
	r = link_one(dirfd, path, a);
	if (r < 0) {
		scratch_forget(a->slot);
		a->slot = -1;
	}
	return r;
}

/* Copy everything from @from to @to, from offset 0. */
int copy_all(int from, int to)
{
	loff_t in = 0, out = 0;

	for (;;) {
		ssize_t n = copy_file_range(from, &in, to, &out, 1 << 30, 0);

		if (n == 0)
			return 0;
		if (n > 0)
			continue;
		if (errno != EXDEV && errno != ENOSYS && errno != EOPNOTSUPP && errno != EINVAL)
			return negerrno();
		break;
	}
	for (;;) {
		char buf[65536];
		ssize_t n = pread(from, buf, sizeof(buf), in);

		if (n < 0)
			return negerrno();
		if (n == 0)
			return 0;
		for (ssize_t done = 0; done < n; ) {
			ssize_t w = pwrite(to, buf + done, (size_t)(n - done), out);

			if (w < 0)
				return negerrno();
			done += w;
			out += w;
		}
		in += n;
	}
}

/*
 * No way to link an unnamed file: remake it under a name, with its data
 * and what attributes it was given.
 */
int relink_as_named(struct fattrs_tmpfile *tf, const struct fattrs_tmpl *tmpl, unsigned int sync)
{
	int old = tf->fd;
	int r;

	tf->via = FATTRS_LINK_NONE;
	r = open_named(tf, tmpl);
	if (r < 0) {
		tf->fd = old;
		tf->method = FATTRS_TMP_TMPFILE;
		return r;
	}
	/*
	 * The directory takes names, so linking itself failed: remember it.
	 * (When the directory was gone, it says nothing about other files.)
	 */
	link_known = FATTRS_LINK_NONE;
	/* Its kernel flags while the copy is empty (nocow takes only then), the rest after. */
	(void)fattrs_preserve_kflags(old, "", tf->fd);
	r = copy_all(old, tf->fd);
	if (r == 0)
		(void)fattrs_preserve(old, tf->fd, FATTRS_PRESERVE_ALL, NULL);
	/* The copy is what gets the name: flushed as the original was. */
	if (r == 0 && (sync & FATTRS_PUBLISH_FSYNC) && fsync(tf->fd) < 0)
		r = negerrno();
	else if (r == 0 && (sync & FATTRS_PUBLISH_FDATASYNC) && fdatasync(tf->fd) < 0)
		r = negerrno();
	if (r < 0) {
		scratch_forget(tf->slot);
		tf->slot = -1;
		tf->unpublished = false;
		(void)unlinkat(tf->dirfd, tf->path, 0);
		(void)close(tf->fd);
		free(tf->path);
		tf->path = NULL;
		tf->fd = old;
		tf->method = FATTRS_TMP_TMPFILE;
		return r;
	}
	(void)close(old);
	tf->why = FATTRS_TMP_WHY_NO_LINK;
	tf->why_errno = ENOENT;
	return 0;
}

int fattrs_tmpfile_link(struct fattrs_tmpfile *tf, const struct fattrs_tmpl *tmpl)
{
	bool hold = (tf->flags & FATTRS_TMP_HOLD) != 0;
	struct link_args a = { .fd = tf->fd, .scratch = hold, .slot = -1 };
	char *path;
	int r;

	if (tf->path != NULL) {
		/* Named from the start: it already has its name. */
		if (!hold)
			scratch_release(tf);
		return 0;
	}
	r = try_names(tf->dirfd, tmpl, &path, make_link, &a);
	if (r == -ENOLINK) {
		r = relink_as_named(tf, tmpl, 0);
		if (r == 0 && !hold)
			scratch_release(tf);
		return r;
	}
	if (r < 0)
		return r;
	tf->path = path;
	tf->via = a.via;
	if (hold) {
		/* The registry points at @path, which the object now owns. */
		tf->slot = a.slot;
		tf->unpublished = true;
	}
	return 0;
}

void fattrs_tmpfile_release(struct fattrs_tmpfile *tf)
{
	scratch_release(tf);
}

struct dir_args {
	mode_t mode;
	int slot;	/* -1, or where the held directory is registered */
	bool hold;
};

static int make_dir(int dirfd, const char *path, void *data)
{
	struct dir_args *a = data;
	sigset_t all, old;
	int r;

	if (!a->hold)
		return mkdirat(dirfd, path, a->mode) == 0 ? 0 : negerrno();
	/* Made and registered with every signal blocked: no moment unaccounted for. */
	(void)sigfillset(&all);
	(void)sigprocmask(SIG_BLOCK, &all, &old);
	r = mkdirat(dirfd, path, a->mode) == 0 ? 0 : negerrno();
	if (r == 0)
		a->slot = scratch_register(dirfd, path, SCRATCH_TRUSTED_DIR);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

int fattrs_tmpdir_new(int dirfd, const struct fattrs_tmpl *tmpl, mode_t mode, char **ret_path)
{
	struct dir_args a = { .mode = mode, .slot = -1 };

	return try_names(dirfd, tmpl, ret_path, make_dir, &a);
}

int fattrs_tmpdir_new_held(int dirfd, const struct fattrs_tmpl *tmpl, mode_t mode, char **ret_path,
			   int *ret_hold)
{
	struct dir_args a = { .mode = mode, .slot = -1, .hold = true };
	int r = try_names(dirfd, tmpl, ret_path, make_dir, &a);

	if (r == 0)
		*ret_hold = a.slot;
	return r;
}

void fattrs_tmpdir_release(int hold)
{
	scratch_forget(hold);
}

int tmpfile_rename(struct fattrs_tmpfile *tf, const char *path, unsigned int flags)
{
	char *copy = strdup(path);
	int slot = -1;

	if (copy == NULL)
		return -ENOMEM;
	if (tf->path == NULL) {
		free(copy);
		return -EINVAL;
	}
	/* Registered under the new name first: a signal at any moment finds the file. */
	if (tf->unpublished)
		slot = scratch_register(tf->dirfd, copy, tf->fd);
	if (renameat2(tf->dirfd, tf->path, tf->dirfd, copy, flags) < 0) {
		int r = negerrno();

		scratch_forget(slot);
		free(copy);
		return r;
	}
	scratch_forget(tf->slot);
	tf->slot = slot;
	free(tf->path);
	tf->path = copy;
	return 0;
}
