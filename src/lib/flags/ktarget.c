/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file a kernel flags call is about: pinned by an O_PATH descriptor, reached through
 * /proc/self/fd, reopened for the ioctls (doc/kernel.md §2).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "kflags-private.h"
#include "testing.h"

struct target target_init(int dirfd, const char *path, unsigned at_flags, mode_t mode, bool pin)
{
	return (struct target){ .dirfd = dirfd, .path = path != NULL ? path : "",
				.at_flags = at_flags, .pin = pin,
				.mode = (mode & S_IFMT) != 0 ? mode : 0, .pfd = -1, .fd = -1 };
}

bool target_is_dirfd(const struct target *t)
{
	return (t->at_flags & AT_EMPTY_PATH) && t->path[0] == '\0';
}

/* Close what this module opened; the caller's @dirfd, used as it is, stays open. */
void target_release(struct target *t)
{
	if (t->fd >= 0 && t->fd != t->pfd && t->fd != t->dirfd)
		(void)close(t->fd);
	if (t->pfd >= 0 && t->pfd != t->dirfd)
		(void)close(t->pfd);
	t->fd = t->pfd = -1;
}

/*
 * Whether /proc/self/fd is procfs, asked once per process: a magic link
 * there reaches exactly the inode a descriptor holds, whatever its type.
 */
static _Atomic int proc_state = -1;

static bool is_proc(const struct statfs *sfs)
{
	const struct fattrs_fstype *t = fattrs_fstype_by_magic((uint32_t)sfs->f_type);

	return t != NULL && t->name != NULL && strcmp(t->name, "proc") == 0;
}

bool proc_usable(void)
{
	struct statfs sfs;

	if (proc_state < 0)
		proc_state = statfs("/proc/self/fd", &sfs) == 0 && is_proc(&sfs);
	return proc_state == 1;
}

void fattrs_kattr_force_no_proc(bool on)
{
	proc_state = on ? 0 : -1;
}

/* The caller's /proc/self/fd (fattrs_kattr_set_procfd()), or -1. */
static _Atomic int procfd = -1;

int fattrs_kattr_set_procfd(int fd)
{
	struct statfs sfs;

	if (fd >= 0 && (fstatfs(fd, &sfs) < 0 || !is_proc(&sfs)))
		return -EINVAL;
	procfd = fd;
	return 0;
}

/* Where the pinned descriptor's magic link is: @t->proc from *@dfd. */
static const char *proc_link(const struct target *t, int *dfd)
{
	int fd = procfd;	/* read once: another thread may set it */

	if (fd >= 0) {
		*dfd = fd;
		return t->proc + sizeof("/proc/self/fd/") - 1;
	}
	*dfd = AT_FDCWD;
	return t->proc;
}

/* Pin the file: one O_PATH descriptor (or the caller's own), opened once. */
static int target_pin(struct target *t)
{
	int fl;

	if (t->pfd >= 0)
		return 0;
	if (target_is_dirfd(t) && t->dirfd != AT_FDCWD) {
		fl = fcntl(t->dirfd, F_GETFL);
		if (fl < 0)
			return negerrno();
		t->pfd = t->dirfd;
		t->opath = (fl & O_PATH) != 0;
	} else {
		fl = O_PATH | O_CLOEXEC;
		if (t->at_flags & AT_SYMLINK_NOFOLLOW)
			fl |= O_NOFOLLOW;
		/* AT_FDCWD is no descriptor: the working directory is opened as ".". */
		t->pfd = t->same_mount ? openat_same_mount(t->dirfd, target_is_dirfd(t) ? "." : t->path, fl)
				       : fattrs_openat(t->dirfd, target_is_dirfd(t) ? "." : t->path, fl, 0);
		if (t->pfd < 0)
			return t->pfd;
		t->opath = true;
	}
	proc_fd_path(t->proc, t->pfd);
	return 0;
}

/* What the pinned descriptor is: its type, device and inode. */
static int target_identify(struct target *t)
{
	struct stat st;
	int r = target_pin(t);

	if (r < 0 || t->identified)
		return r;
	if (fstat(t->pfd, &st) < 0)
		return negerrno();
	t->mode = st.st_mode;
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	t->identified = true;
	return 0;
}

/*
 * Without /proc, a regular file can only be opened by its path again: the
 * open happens before it can be checked (a device put there meanwhile is
 * opened, though never used), and what was opened must be the pinned file.
 */
static int reopen_by_path(struct target *t, int flags)
{
	if (t->at_flags & AT_SYMLINK_NOFOLLOW)
		flags |= O_NOFOLLOW;
	/* -EAGAIN: replaced since it was pinned */
	return open_same_inode(t->dirfd, target_is_dirfd(t) ? "." : t->path, flags, t->dev, t->ino, -EAGAIN);
}

/*
 * A real descriptor of the file for the ioctls: only of a regular file or
 * a directory (a device's open or ioctl can have side effects, a fifo's
 * open blocks), read-only, non-blocking, made from the pinned descriptor
 * once fstat(2) has said what it is.  -EOPNOTSUPP for anything else,
 * symlinks under AT_SYMLINK_NOFOLLOW included.
 */
int target_fd(struct target *t)
{
	int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	int r;

	if (t->fd >= 0)
		return t->fd;
	r = target_identify(t);
	if (r == -ELOOP && (t->at_flags & AT_SYMLINK_NOFOLLOW))
		return -EOPNOTSUPP;	/* an O_PATH open of a symlink does not fail: defensive */
	if (r < 0)
		return r;
	if (!S_ISREG(t->mode) && !S_ISDIR(t->mode))
		return -EOPNOTSUPP;
	if (!t->opath) {
		t->fd = t->pfd;
		return t->fd;
	}
	if (S_ISDIR(t->mode)) {
		t->fd = openat(t->pfd, ".", flags | O_DIRECTORY);
	} else if (procfd >= 0 || proc_usable()) {
		int dfd;
		const char *link = proc_link(t, &dfd);

		t->fd = openat(dfd, link, flags);
	} else {
		return t->fd = reopen_by_path(t, flags);
	}
	return t->fd >= 0 ? t->fd : negerrno();
}

/*
 * Where file_getattr(2)/file_setattr(2) find the file: by the caller's
 * path for a read; for a change, the pinned descriptor: itself when it is
 * a real one, else its /proc/self/fd link (which reaches exactly that
 * inode, of any type), else "." of a directory, else a real descriptor of
 * a regular file.  -EOPNOTSUPP for other files without /proc: they cannot
 * be reached through the pinned descriptor.
 */
int xflags_where(struct target *t, int *dfd, const char **path, unsigned *at)
{
	int r;

	if (!t->pin || t->byname) {
		*dfd = t->dirfd;
		*path = t->path;
		*at = t->at_flags | (t->byname ? AT_SYMLINK_NOFOLLOW : 0);
		return 0;
	}
	r = target_pin(t);
	if (r < 0)
		return r;
	*at = 0;
	if (!t->opath) {
		*dfd = t->pfd;
		*path = "";
		*at = AT_EMPTY_PATH;
		return 0;
	}
	if (procfd >= 0 || proc_usable()) {
		*path = proc_link(t, dfd);
		return 0;
	}
	r = target_identify(t);
	if (r < 0)
		return r;
	if (S_ISDIR(t->mode)) {
		*dfd = t->pfd;
		*path = ".";
		return 0;
	}
	r = target_fd(t);
	if (r < 0)
		return r;
	*dfd = r;
	*path = "";
	*at = AT_EMPTY_PATH;
	return 0;
}
