/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The xattr calls of the fattrs flags, by directory descriptor, path and AT_ flags:
 * getxattrat(2) and the others, else the path calls (doc/kernel.md §5.3).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>		/* AT_FDCWD, F_GETFD */
#include <limits.h>		/* PATH_MAX */
#include <stdio.h>		/* snprintf */
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fflags-private.h"
#include "testing.h"

/*
 * Every xattr call names its file as the *at(2) calls do: a directory
 * descriptor (or AT_FDCWD), a path relative to it, and AT_SYMLINK_NOFOLLOW
 * and AT_EMPTY_PATH.  The system calls are getxattrat(2), setxattrat(2),
 * listxattrat(2) and removexattrat(2) (Linux 6.13, doc/kernel.md §5.3).
 * Where they are missing (ENOSYS: an older kernel, valgrind 3.19;
 * remembered for the process) the path calls do the same: by the path
 * itself from AT_FDCWD or when it is absolute, through the descriptor's
 * /proc/self/fd link otherwise ("/proc/self/fd/D/PATH"), and f*xattr(2)
 * on a descriptor itself with AT_EMPTY_PATH.  An O_PATH descriptor's own
 * file is refused by both (EBADF): it is reached through its
 * /proc/self/fd link, followed, which leads to exactly its inode.  Without
 * /proc, a name relative to a descriptor cannot be reached on such a
 * kernel: -ENOSYS.
 *
 * Atomic: a race between threads only costs one more ENOSYS; a child after
 * fork(2) has the same kernel.
 */
static _Atomic bool no_xattrat;

void fattrs_fflag_force_path(bool on)
{
	no_xattrat = on;
}

enum xop { XGET, XSET, XREMOVE, XLIST };

/* The xattr call @op on a descriptor of the file itself. */
static long xattr_fd(enum xop op, int fd, const char *name, void *buf, size_t size)
{
	switch (op) {
	case XGET:
		return fgetxattr(fd, name, buf, size);
	case XSET:
		return fsetxattr(fd, name, buf, size, 0);
	case XREMOVE:
		return fremovexattr(fd, name);
	default:
		return flistxattr(fd, buf, size);
	}
}

/* The xattr call @op by @path, following a symbolic link at its end unless @nofollow. */
static long xattr_path(enum xop op, const char *path, bool nofollow, const char *name, void *buf, size_t size)
{
	switch (op) {
	case XGET:
		return nofollow ? lgetxattr(path, name, buf, size) : getxattr(path, name, buf, size);
	case XSET:
		return nofollow ? lsetxattr(path, name, buf, size, 0) : setxattr(path, name, buf, size, 0);
	case XREMOVE:
		return nofollow ? lremovexattr(path, name) : removexattr(path, name);
	default:
		return nofollow ? llistxattr(path, buf, size) : listxattr(path, buf, size);
	}
}

/* "/proc/self/fd/N" and, if @path is not NULL, "/PATH" into @buf: 0, or -1 with errno set. */
int proc_path(char *buf, size_t len, int fd, const char *path)
{
	int n = path != NULL ? snprintf(buf, len, "/proc/self/fd/%d/%s", fd, path) :
			       snprintf(buf, len, "/proc/self/fd/%d", fd);

	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (!proc_usable()) {
		errno = ENOSYS;
		return -1;
	}
	return 0;
}

/* The call without the *xattrat system calls (above). */
static long xattr_fallback(enum xop op, int dirfd, const char *path, unsigned atf, const char *name,
			   void *buf, size_t size)
{
	char link[sizeof("/proc/self/fd//") + 3 * sizeof(int) + PATH_MAX];
	bool nofollow = (atf & AT_SYMLINK_NOFOLLOW) != 0;
	long r;

	if (path[0] == '\0' && !(atf & AT_EMPTY_PATH)) {
		errno = ENOENT;
		return -1;
	}
	if (path[0] == '\0' && dirfd == AT_FDCWD)
		return xattr_path(op, ".", false, name, buf, size);
	if (path[0] == '\0') {
		r = xattr_fd(op, dirfd, name, buf, size);
		if (r >= 0 || errno != EBADF)
			return r;
		/* O_PATH: the magic link reaches exactly its inode, whatever it is */
		if (fcntl(dirfd, F_GETFD) < 0 || proc_path(link, sizeof(link), dirfd, NULL) < 0)
			return -1;
		return xattr_path(op, link, false, name, buf, size);
	}
	if (dirfd == AT_FDCWD || path[0] == '/')
		return xattr_path(op, path, nofollow, name, buf, size);
	if (proc_path(link, sizeof(link), dirfd, path) < 0)
		return -1;
	return xattr_path(op, link, nofollow, name, buf, size);
}

static long sys_xattrat(enum xop op, int dirfd, const char *path, unsigned atf, const char *name,
			void *buf, size_t size)
{
	struct fattrs_xattr_args a = { .value = (uintptr_t)buf, .size = (uint32_t)size, .flags = 0 };

	switch (op) {
	case XGET:
		return syscall(__NR_getxattrat, dirfd, path, atf, name, &a, sizeof(a));
	case XSET:
		return syscall(__NR_setxattrat, dirfd, path, atf, name, &a, sizeof(a));
	case XREMOVE:
		return syscall(__NR_removexattrat, dirfd, path, atf, name);
	default:
		return syscall(__NR_listxattrat, dirfd, path, atf, buf, size);
	}
}

static long xattr_once(enum xop op, int dirfd, const char *path, unsigned atf, const char *name,
		       void *buf, size_t size)
{
	char link[sizeof("/proc/self/fd/") + 3 * sizeof(int)];
	long r;

	if (no_xattrat)
		return xattr_fallback(op, dirfd, path, atf, name, buf, size);
	r = sys_xattrat(op, dirfd, path, atf, name, buf, size);
	if (r < 0 && errno == EBADF && path[0] == '\0' && (atf & AT_EMPTY_PATH) && dirfd != AT_FDCWD &&
	    fcntl(dirfd, F_GETFD) >= 0) {
		/* An O_PATH descriptor, which these calls refuse too: its magic link, followed. */
		if (proc_path(link, sizeof(link), dirfd, NULL) < 0)
			return -1;
		r = sys_xattrat(op, AT_FDCWD, link, 0, name, buf, size);
	}
	if (r >= 0 || errno != ENOSYS)
		return r;
	no_xattrat = true;
	return xattr_fallback(op, dirfd, path, atf, name, buf, size);
}

/*
 * Each call is asked once more where the first answer is ESTALE, as
 * fattrs_openat() does: a network client (GlusterFS) whose cache still
 * names a file another client has just replaced answers that.
 */
static long xattr_call(enum xop op, int dirfd, const char *path, unsigned atf, const char *name,
		       void *buf, size_t size)
{
	long r;

	if (path == NULL)
		path = "";
	r = xattr_once(op, dirfd, path, atf, name, buf, size);
	if (r < 0 && errno == ESTALE)
		r = xattr_once(op, dirfd, path, atf, name, buf, size);
	return r;
}

ssize_t xgetxattr(int dirfd, const char *path, unsigned atf, const char *name, void *buf, size_t size)
{
	return (ssize_t)xattr_call(XGET, dirfd, path, atf, name, buf, size);
}

int xsetxattr(int dirfd, const char *path, unsigned atf, const char *name, const void *buf, size_t size)
{
	return xattr_call(XSET, dirfd, path, atf, name, (void *)(uintptr_t)buf, size) < 0 ? -1 : 0;
}

int xremovexattr(int dirfd, const char *path, unsigned atf, const char *name)
{
	return xattr_call(XREMOVE, dirfd, path, atf, name, NULL, 0) < 0 ? -1 : 0;
}

ssize_t xlistxattr(int dirfd, const char *path, unsigned atf, char *buf, size_t size)
{
	return (ssize_t)xattr_call(XLIST, dirfd, path, atf, NULL, buf, size);
}

/* The first guess of fattrs_xattr_get(): a security context fits, and most other values. */
#define XATTR_GET_FIRST 256

int fattrs_xattr_get(int dirfd, const char *path, unsigned at_flags, const char *name, char **ret_value,
		     size_t *ret_len)
{
	char *buf = NULL;
	size_t size = XATTR_GET_FIRST;
	ssize_t n;

	if ((at_flags & ~AT_ALLOWED) != 0)
		return -EINVAL;
	for (;;) {
		char *p = realloc(buf, size + 1);

		if (p == NULL) {
			free(buf);
			return -ENOMEM;
		}
		buf = p;
		n = xgetxattr(dirfd, path, at_flags, name, buf, size);
		if (n >= 0 || errno != ERANGE)
			break;
		/* Grown since the first call: ask its size, then read again. */
		n = xgetxattr(dirfd, path, at_flags, name, NULL, 0);
		if (n < 0)
			break;
		size = (size_t)n + 1;
	}
	if (n < 0) {
		int r = negerrno();

		free(buf);
		return r;
	}
	buf[n] = '\0';
	*ret_value = buf;
	if (ret_len != NULL)
		*ret_len = (size_t)n;
	return 0;
}
