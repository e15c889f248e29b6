/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of libfattrs share and the programs never call: helpers, and the library-only
 * parts of the public types.  Tools never include this.
 */
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

/* --------------------- names, paths and mounts only the library uses */

/**
 * fattrs_random_fill() - overwrite @len bytes of @buf with random letters
 * and digits ([A-Za-z0-9], the alphabet of mkstemp(3)).
 *
 * Randomness comes from getrandom(2), buffered so that one system call
 * serves many names.
 *
 * Returns: 0, or -errno if getrandom(2) failed (for example -ENOSYS).
 */
int fattrs_random_fill(char *buf, size_t len);

/**
 * fattrs_tmpl_hidden() - a template for a hidden scratch name in @dir
 * (FATTRS_HIDDEN_TEMPLATE joined to it).
 * @ret: filled in; its path is the returned string
 *
 * Returns: the malloc()ed path (free() it when done with @ret), or NULL
 * when out of memory.
 */
char *fattrs_tmpl_hidden(const char *dir, struct fattrs_tmpl *ret);

/**
 * fattrs_path_join() - join a directory and a name the way mktemp(1) does:
 * trailing slashes of @dir are dropped, one '/' separates them, and a
 * root @dir ("/") is not doubled.
 *
 * Returns: a malloc()ed string, or NULL on allocation failure.
 */
char *fattrs_path_join(const char *dir, const char *name);

/**
 * fattrs_mounts_each() - call @fn for each mount of the table, in its
 * order, until @fn returns other than 0.  The table is parsed on the first
 * call of any lookup.
 *
 * Returns: 0 when every call returned 0, else what @fn returned last, or
 * -errno as fattrs_mounts_find() (before any call of @fn).
 */
int fattrs_mounts_each(struct fattrs_mounts *m, int (*fn)(const struct fattrs_mount *mnt, void *arg), void *arg);

/* ----------------- the table of filesystem types, inside the library */

/**
 * fattrs_fstype_find() - a type by the name the mount table gives it.
 * @name: "ext4", "tmpfs", "fuse.sshfs", ...; NULL is allowed
 *
 * A FUSE type without a row of its own ("fuse.foo") is the "fuse" row.
 *
 * Returns: the row, or NULL for a type the table does not have.
 */
const struct fattrs_fstype *fattrs_fstype_find(const char *name);

/**
 * fattrs_fstype_keeps() - whether a file of @mode (its S_IFMT bits count)
 * on a filesystem of type @t keeps kernel flag @f: set, it reads back set.
 *
 * A flag statx(2) reports is better asked of stx_attributes_mask.
 *
 * Returns: 1 if kept, 0 if not (setting it fails, or succeeds and it reads
 * back clear: it always reads clear), -1 if not known (@t NULL or not
 * measured, a file neither regular nor a directory, a flag not measured
 * there).
 */
int fattrs_fstype_keeps(const struct fattrs_fstype *t, mode_t mode, const struct fattrs_kflag *f);

/* ------------------------- changing kernel flags, inside the library */

/**
 * fattrs_kchange_add() - add "set @f" (@on) or "clear @f" (!@on) to @c, in
 * the word @f is changed through (its xflag, else its iflag).  A later
 * change of the same flag replaces an earlier one.
 *
 * Returns: 0, or -EINVAL if @f is read-only (then @c is unchanged).
 */
int fattrs_kchange_add(struct fattrs_kchange *c, const struct fattrs_kflag *f, bool on);

/**
 * fattrs_kattr_change() - set and clear a file's kernel flags.
 * @dirfd, @path, @at_flags, @mode: the file, as for fattrs_kattr_get()
 * @change:      what to set and clear
 * @ret_dropped: if not NULL, written when the call returns 0, 1 or
 *               -EOPNOTSUPP: the requested changes not known to be in
 *               effect afterwards (@xset: asked to be set but clear, ...;
 *               all of a word's request where it cannot even be read);
 *               all zero unless -EOPNOTSUPP
 *
 * The file is pinned first (an O_PATH open, as for fattrs_kattr_get()),
 * and every read and write goes to that inode: a file renamed over @path
 * meanwhile is never handed the flags read from another.  The xflags are
 * read with file_getattr(2) and, if they differ from what is asked,
 * written back with file_setattr(2), extsize, projid and cowextsize as
 * they were (but for the sizes @change gives, and the size of a hint
 * whose flag is cleared, which goes to 0), both through the pinned descriptor's /proc/self/fd link
 * (which reaches exactly its inode, of any type; without /proc: "." of a
 * directory, or a reopened regular file; other files are -EOPNOTSUPP):
 * five system calls for a change (the pin, the read, the write, the read
 * back, the close), three for a no-op.  Without those system calls (ENOSYS) FS_IOC_FSGETXATTR and
 * FS_IOC_FSSETXATTR do the same on an open descriptor; the iflags always
 * go through FS_IOC_GETFLAGS and FS_IOC_SETFLAGS.  Nothing is written to a
 * word that would not change.  Every write is read back, because some
 * filesystems (ext4) answer 0 for flags they drop.  When both words
 * change, immutable and append are set last and cleared first, so that
 * the other word can still be written (clearing immutable goes first
 * even where the same change sets append).  A change that fails half-way
 * leaves the word already written as it is.
 *
 * Returns: 1 if something was written and stuck, 0 if nothing needed
 * writing; -EINVAL before any system call if @change names a read-only
 * flag (or bad @at_flags); -EOPNOTSUPP if the filesystem keeps no flags
 * for this file or did not keep some of the change (see @ret_dropped);
 * or the kernel's -errno: -EPERM (immutable or append without
 * CAP_LINUX_IMMUTABLE, or not the owner), -EACCES, -ENOENT, -EROFS,
 * -EINVAL (e.g. realtime without a realtime device on xfs), ...
 */
int fattrs_kattr_change(int dirfd, const char *path, unsigned at_flags, mode_t mode,
			const struct fattrs_kchange *change,
			struct fattrs_kchange *ret_dropped);

/**
 * fattrs_kattr_change_result() - fattrs_kattr_change_flags(), telling a
 * refusal from a flag said yes to and dropped.
 * @ret: if not NULL, written when the call returns 0, 1 or -EOPNOTSUPP
 *
 * Returns: as fattrs_kattr_change_flags().
 */
int fattrs_kattr_change_result(int dirfd, const char *path, unsigned at_flags, mode_t mode,
			       const struct fattrs_kchange *change, unsigned flags,
			       struct fattrs_kresult *ret);

/* ------------------------------ the fattrs flags, inside the library */

/**
 * fattrs_fflag_find() - look a flag up by its name ("offline"); the full
 * xattr name ("user.fattr.offline") is accepted too.  Case matters.
 *
 * Returns: the flag (an enum fattrs_fflag), or -1 when there is none.
 */
int fattrs_fflag_find(const char *name);

#endif /* FATTRS_INTERNAL_H */
