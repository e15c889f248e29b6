/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the files of libfattrs only; tools never include this. */
#ifndef FATTRS_INTERNAL_H
#define FATTRS_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "fattrs.h"

/* Fill the template's run of X's in @buf (a copy of tmpl->path). */
int tmpl_randomize(char *buf, const struct fattrs_tmpl *tmpl);

/*
 * Rename @tf's named file to @path (renameat2(2) with @flags) in its
 * directory; it stays removable by fattrs_tmpfile_free() and the signal
 * clean-up under its new name, with no moment where a signal misses it.
 * Returns 0 or -errno (the file keeps its old name then).
 */
struct fattrs_tmpfile;
int tmpfile_rename(struct fattrs_tmpfile *tf, const char *path, unsigned int flags);

/* "/proc/self/fd/N" for any descriptor N fits in PROC_FD_PATH_MAX bytes. */
#define PROC_FD_PATH_MAX (sizeof("/proc/self/fd/") + 3 * sizeof(int))
void proc_fd_path(char *buf, int fd);

/* Whether @a and @b are the same file: device and inode number. */
bool same_inode(const struct stat *a, const struct stat *b);

/*
 * Open @path relative to @dirfd with @flags and check that it is the inode
 * @dev/@ino (an fstat(2) of what was opened).  Returns the descriptor, or
 * @mismatch when it is another inode (the descriptor closed), or -errno.
 */
int open_same_inode(int dirfd, const char *path, int flags, dev_t dev, ino_t ino, int mismatch);

/*
 * openat(2) of @path in @dirfd with @flags that stays on @dirfd's mount:
 * openat2(2) with RESOLVE_NO_XDEV (Linux 5.6, doc/kernel.md §2.6).  A
 * lookup that would cross a mount point (a symbolic link to another
 * mount, an absolute one where "/" is another mount, a mount on the name
 * itself, ".." out of the mount's root) gives -EXDEV, and so does a
 * kernel without openat2 (ENOSYS, remembered for the process): then the
 * caller cannot know where the name leads, and must look.  Asked once
 * more on ESTALE, as fattrs_openat().  Returns the descriptor, or -errno.
 */
int openat_same_mount(int dirfd, const char *path, int flags);

/*
 * statfs(2) of the file @dirfd, @path and @atf (AT_EMPTY_PATH,
 * AT_SYMLINK_NOFOLLOW) name, following a symbolic link as statfs(2) does
 * unless told not to.  Returns 0 or -errno.
 */
struct statfs;
int statfs_at(int dirfd, const char *path, unsigned atf, struct statfs *ret);

/*
 * Whether the filesystem of @dirfd and @path (followed; "" for @dirfd
 * itself) has O_TMPFILE files that lose their name in a rename
 * (fattrs_fstype's @tmpfile_loses_name): O_TMPFILE is never used there.
 * Returns 1 or 0, or -errno from statfs(2).
 */
int fattrs_tmpfile_loses_name(int dirfd, const char *path);

/*
 * Whether /proc/self/fd is procfs (asked once per process): a magic link
 * there reaches exactly the inode a descriptor holds (flags/ktarget.c).
 */
bool proc_usable(void);

/* errno as a negative return value, never 0 */
static inline int negerrno(void)
{
	return errno > 0 ? -errno : -EIO;
}

#endif /* FATTRS_INTERNAL_H */
