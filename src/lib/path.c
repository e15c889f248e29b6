/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Paths: joined and split as mktemp(1) does, symlinks followed to a file to
 * write, and files opened by a directory and a name (same inode, same mount).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "internal.h"

char *fattrs_path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	size_t keep = n;
	const char *sep = "/";
	char *ret;

	while (keep > 0 && dir[keep - 1] == '/')
		keep--;
	if (keep == 0) {
		/* "/" or "//": the root; its slashes are kept, none added */
		keep = n;
		sep = "";
	} else if (name[0] == '/') {
		sep = "";
	}
	if (asprintf(&ret, "%.*s%s%s", (int)keep, dir, sep, name) < 0)
		return NULL;
	return ret;
}

char *fattrs_path_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* Linux's limit on symbolic links followed in one lookup. */
#define MAX_SYMLINKS 40

/*
 * The value of /proc/sys/fs/NAME, or @unknown when it cannot be read (no
 * /proc).  Read each time it matters, which is rarely: a link or a file
 * someone else owns in a sticky directory.
 */
static int fs_sysctl(const char *name, int unknown)
{
	char path[64], buf[16];
	int fd, v = unknown;
	ssize_t n;

	(void)snprintf(path, sizeof(path), "/proc/sys/fs/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return unknown;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		v = atoi(buf);
	}
	(void)close(fd);
	return v;
}

/*
 * fs.protected_symlinks, as the kernel's may_follow_link() applies it to
 * the link @lnk found in the directory @dir: a link in a sticky
 * world-writable directory is followed only by its owner, or when the
 * directory's owner owns it too.  Without /proc the rule is taken as on
 * (the setting every distribution ships).
 */
static bool may_follow(const struct stat *dir, const struct stat *lnk)
{
	if (lnk->st_uid == geteuid())
		return true;
	if ((dir->st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return true;
	if (dir->st_uid == lnk->st_uid)
		return true;
	return fs_sysctl("protected_symlinks", 1) == 0;
}

int fattrs_path_may_write(int dirfd, const char *path)
{
	char *dir = fattrs_path_dir(path);
	struct stat d, f;
	int level, r = 0;

	if (dir == NULL)
		return -ENOMEM;
	if (fstatat(dirfd, dir, &d, 0) < 0 || fstatat(dirfd, path, &f, AT_SYMLINK_NOFOLLOW) < 0)
		goto out;
	/* As the kernel's may_create_in_sticky(), for a regular file. */
	if (!(d.st_mode & S_ISVTX) || !S_ISREG(f.st_mode) || d.st_uid == f.st_uid ||
	    f.st_uid == geteuid() || !(d.st_mode & (S_IWOTH | S_IWGRP)))
		goto out;
	level = fs_sysctl("protected_regular", 1);
	if (level >= 1 && ((d.st_mode & S_IWOTH) || level >= 2))
		r = -EACCES;
out:
	free(dir);
	return r;
}

int fattrs_readlink(int dirfd, const char *path, uint64_t size_hint, char **ret)
{
	size_t size = size_hint > 0 && size_hint < 4096 ? (size_t)size_hint + 1 : 256;

	for (;;) {
		char *buf = malloc(size);
		ssize_t n;

		if (buf == NULL)
			return -ENOMEM;
		n = readlinkat(dirfd, path, buf, size);
		if (n < 0) {
			int r = -errno;

			free(buf);
			return r;
		}
		if ((size_t)n < size) {
			buf[n] = '\0';
			*ret = buf;
			return 0;
		}
		free(buf);
		if (size >= (size_t)1 << 20)
			return -ENAMETOOLONG;
		size *= 2;
	}
}

/*
 * One step: if @cur names a symbolic link, its target in *@ret_next
 * (relative targets joined to the link's directory); NULL when @cur is not
 * a link (or not there, or its directory cannot be reached: the caller's
 * next step reports that).  The link and its directory are looked at
 * through descriptors, so what is checked is what is read.
 */
static int follow_once(int dirfd, const char *cur, char **ret_next)
{
	const char *slash = strrchr(cur, '/');
	const char *name = slash != NULL ? slash + 1 : cur;
	char *dir = fattrs_path_dir(cur), *target = NULL;
	struct stat dst, lst;
	int dfd = -1, lfd = -1, r = 0;

	*ret_next = NULL;
	if (dir == NULL)
		return -ENOMEM;
	if (*name == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		goto out;
	dfd = openat(dirfd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		goto out;
	lfd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (lfd < 0 || fstat(lfd, &lst) < 0 || fstat(dfd, &dst) < 0)
		goto out;
	if (!S_ISLNK(lst.st_mode))
		goto out;
	if (!may_follow(&dst, &lst)) {
		r = -EACCES;
		goto out;
	}
	r = fattrs_readlink(lfd, "", 0, &target);
	if (r < 0 || target == NULL)
		goto out;
	if (target[0] == '/') {
		*ret_next = target;
		target = NULL;
	} else {
		*ret_next = fattrs_path_join(dir, target);
		if (*ret_next == NULL)
			r = -ENOMEM;
	}
out:
	if (lfd >= 0)
		(void)close(lfd);
	if (dfd >= 0)
		(void)close(dfd);
	free(target);
	free(dir);
	return r;
}

int fattrs_path_resolve(int dirfd, const char *path, char **ret)
{
	char *cur = strdup(path);

	if (cur == NULL)
		return -ENOMEM;
	for (int i = 0; i <= MAX_SYMLINKS; i++) {
		char *next;
		int r = follow_once(dirfd, cur, &next);

		if (r < 0) {
			free(cur);
			return r;
		}
		if (next == NULL) {
			/* Not a link (or not there: a dangling link's target is created). */
			*ret = cur;
			return 0;
		}
		free(cur);
		cur = next;
	}
	free(cur);
	return -ELOOP;
}

/* "/proc/self/fd/N" into @buf (PROC_FD_PATH_MAX): per file, so no printf. */
void proc_fd_path(char *buf, int fd)
{
	static const char pre[] = "/proc/self/fd/";
	char digits[3 * sizeof(int)];
	size_t n = 0;
	unsigned v = (unsigned)fd;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	memcpy(buf, pre, sizeof(pre) - 1);
	buf += sizeof(pre) - 1;
	while (n > 0)
		*buf++ = digits[--n];
	*buf = '\0';
}

bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int open_same_inode(int dirfd, const char *path, int flags, dev_t dev, ino_t ino, int mismatch)
{
	struct stat st;
	int fd = openat(dirfd, path, flags), r;

	if (fd < 0)
		return negerrno();
	if (fstat(fd, &st) < 0) {
		r = negerrno();
		(void)close(fd);
		return r;
	}
	if (st.st_dev != dev || st.st_ino != ino) {
		(void)close(fd);
		return mismatch;
	}
	return fd;
}

int fattrs_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	int fd = openat(dirfd, path, flags, mode);

	if (fd < 0 && errno == ESTALE)
		fd = openat(dirfd, path, flags, mode);
	return fd < 0 ? negerrno() : fd;
}

/* Whether openat2(2) answered ENOSYS once (Linux < 5.6, or a filter that refuses it). */
static _Atomic bool no_openat2;

int openat_same_mount(int dirfd, const char *path, int flags)
{
	struct open_how how = { .flags = (uint64_t)flags, .resolve = RESOLVE_NO_XDEV };
	long fd;

	if (no_openat2)
		return -EXDEV;
	fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	if (fd < 0 && errno == ESTALE)
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS) {
		no_openat2 = true;
		return -EXDEV;
	}
	return fd < 0 ? negerrno() : (int)fd;
}

/*
 * statfs(2) of the file @dirfd, @path and @atf name.  statfs(2) follows
 * symbolic links, and so does this but with AT_SYMLINK_NOFOLLOW: then a
 * link is asked of its own file system.  A name relative to a descriptor,
 * or not followed, is pinned for fstatfs(2) (three calls instead of one).
 */
int statfs_at(int dirfd, const char *path, unsigned atf, struct statfs *ret)
{
	bool nofollow = (atf & AT_SYMLINK_NOFOLLOW) != 0;
	int fd, r;

	if (path[0] == '\0' && (atf & AT_EMPTY_PATH) && dirfd != AT_FDCWD)
		return fstatfs(dirfd, ret) < 0 ? negerrno() : 0;
	if ((dirfd == AT_FDCWD && path[0] == '\0') || (!nofollow && (dirfd == AT_FDCWD || path[0] == '/')))
		return statfs(path[0] != '\0' ? path : ".", ret) < 0 ? negerrno() : 0;
	fd = fattrs_openat(dirfd, path, O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0), 0);
	if (fd < 0)
		return fd;
	r = fstatfs(fd, ret) < 0 ? negerrno() : 0;
	(void)close(fd);
	return r;
}

int fattrs_statfs(int dirfd, const char *path, unsigned at_flags, struct statfs *ret)
{
	if (path[0] == '\0' && !(at_flags & AT_EMPTY_PATH))
		return -ENOENT;
	return statfs_at(dirfd, path, at_flags, ret);
}
