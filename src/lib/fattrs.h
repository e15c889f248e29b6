/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libfattrs' public API: what tmpcreate, xstat and setfattrs call, and nothing else (internal.h
 * has the rest); what it promises callers, threads and fork(2) included: doc/design.md §1.
 */
#ifndef FATTRS_H
#define FATTRS_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "compat/linux.h"

/*
 * The folders' public headers: temporary files (tmp/), filesystems and mounts (fs/), the
 * attribute flags, the kernel's own (kflags.h) and the four of fattrs(7) (fflags.h).
 */
#include "tmp/tmpfile.h"
#include "fs/fs.h"
#include "flags/fflags.h"
#include "fs/fstype.h"
#include "flags/kflags.h"
#include "flags/flagops.h"

/* ------------------------------------------------------------ addressing */

/**
 * fattrs_at_nofollow() - the *at(2) flags that say whether the last
 * component of a path is followed: AT_SYMLINK_NOFOLLOW when @nofollow.
 */
static inline unsigned fattrs_at_nofollow(bool nofollow)
{
	return nofollow ? AT_SYMLINK_NOFOLLOW : 0;
}

/**
 * fattrs_caps_have() - whether capability @cap (CAP_*) is in the calling
 * thread's effective set (capget(2)): what some flag changes need
 * (CAP_LINUX_IMMUTABLE for immutable and append, CAP_SYS_RESOURCE for
 * journal), and what lets a file be reclaimed (CAP_FOWNER).
 *
 * Returns: true also when it cannot tell (capget(2) fails, @cap is
 * unknown), so that a message never blames a missing capability wrongly.
 */
bool fattrs_caps_have(unsigned cap);

/* ------------------------------------------------------------------ paths */

/**
 * fattrs_path_dir() - the directory part of @path: everything before the
 * last '/', "/" when that is the first character, "." when there is none.
 *
 * Returns: a malloc()ed string, or NULL on allocation failure.
 */
char *fattrs_path_dir(const char *path);

/**
 * fattrs_path_resolve() - follow @path while it is a symbolic link, as
 * shell redirection does: the result is the file a write would reach (which
 * need not exist: a dangling link's target is created).  Only the last
 * component is resolved each time; a relative target is taken relative to
 * the link's directory.
 * @ret: a malloc()ed path
 *
 * Returns: 0, -ELOOP after 40 links, -ENOMEM.
 */
int fattrs_path_resolve(int dirfd, const char *path, char **ret);

/**
 * fattrs_readlink() - the target of the symbolic link @path in @dirfd
 * (readlinkat(2); "" for a link open as @dirfd with O_PATH|O_NOFOLLOW),
 * into a buffer grown until it fits: @size_hint (st_size, 0 if not known)
 * is only where to start, for st_size is 0 for /proc's links and on some
 * FUSE filesystems.
 * @ret: the target, for the caller to free(3)
 *
 * Returns: 0, or -errno (-ENAMETOOLONG past 1 MiB).
 */
int fattrs_readlink(int dirfd, const char *path, uint64_t size_hint, char **ret);

/**
 * fattrs_openat() - openat(2) of a file named by a path, asked once more
 * where the first answer is ESTALE, as the kernel does for NFS.  On a
 * network filesystem (GlusterFS's FUSE client) a name another client has
 * just replaced can still lead to the file it named, which the server no
 * longer has, until this client's entry cache expires (about a second):
 * the second lookup mostly finds the new file.  Once only: a file that
 * stays stale is an error to report, not to wait for.
 *
 * Returns: the descriptor, or -errno.
 */
int fattrs_openat(int dirfd, const char *path, int flags, mode_t mode);

/**
 * fattrs_path_may_write() - whether shell redirection (open(2) with
 * O_CREAT) could write to the existing file @path: fs.protected_regular
 * refuses someone else's regular file in a sticky directory that is
 * world-writable (1), or group-writable too (2), unless the directory's
 * owner owns it; as the kernel's may_create_in_sticky().  Without /proc
 * the setting is taken as 1.
 *
 * Returns: 0 (also when @path or its directory cannot be looked at: the
 * caller's next step says why), -EACCES, -ENOMEM.
 */
int fattrs_path_may_write(int dirfd, const char *path);

/* ------------------------------------------------------------ copying */

enum {
	/*
	 * The caller will fsync(2) @out: send the bytes to the disk while
	 * copying (sync_file_range(2)), so that flush and copy overlap and at
	 * most a few MiB are dirty.  A writeback error fails the copy (-EIO):
	 * once reported here, fsync(2) would not report it again.  Silently
	 * off where @out cannot do it (a pipe, a socket) and for O_APPEND.
	 */
	FATTRS_COPY_FLUSH = 1 << 0,
};

/**
 * fattrs_copy_fd() - copy everything @in has left (to end of file or of
 * input) to @out's current position, without holding it in memory: splice(2)
 * from a pipe (grown to 1 MiB), copy_file_range(2) or sendfile(2) from a
 * regular file, a 128 KiB read/write loop otherwise.
 * @flags:          FATTRS_COPY_FLUSH, or 0
 * @ret_bytes:      if not NULL, how many bytes were copied
 * @ret_read_errno: if not NULL and the copy failed on reading @in, that
 *                  errno (0 when it failed on writing)
 *
 * Returns: 0, or -errno (-ENOSPC, -EDQUOT, -EIO, -EFBIG, ...).
 */
int fattrs_copy_fd(int in, int out, unsigned flags, uint64_t *ret_bytes, int *ret_read_errno);

/**
 * fattrs_content_equal() - compare two files' bytes from offset 0.
 *
 * Returns: 1 if equal, 0 if not, or -errno.
 */
int fattrs_content_equal(int a, int b);

/* ------------------------------------------------------------ preserving */

/* What fattrs_preserve() keeps.  Do not reorder: tools index word tables with the bit numbers. */
enum {
	FATTRS_PRESERVE_MODE = 1 << 0,
	FATTRS_PRESERVE_OWNER = 1 << 1,
	FATTRS_PRESERVE_XATTR = 1 << 2,	/* xattrs and ACLs, user.fattr.* flags included */
	FATTRS_PRESERVE_KFLAGS = 1 << 3,	/* kernel flags: fattrs_preserve_kflags(), not fattrs_preserve() */
	FATTRS_PRESERVE_ALL = (1 << 4) - 1,
};

/**
 * fattrs_preserve() - give @dst_fd what @src_fd has: owner and group, then
 * xattrs and ACLs (what /etc/xattr.conf does not say to skip), then mode.
 * @what:       FATTRS_PRESERVE_* bits
 * @ret_failed: if not NULL, the bits that could not be kept
 *
 * Goes on after a failure.  Set-id bits are kept only where @dst_fd ends up
 * with @src_fd's owner and group.
 *
 * Returns: 0, or the -errno of the first failure (-EPERM, -EOPNOTSUPP,
 * -ENOSPC, ...).
 */
int fattrs_preserve(int src_fd, int dst_fd, unsigned int what, unsigned int *ret_failed);

/**
 * fattrs_preserve_stat() - fattrs_preserve() for a source the caller could
 * not open (an unreadable file to replace): its owner, group and mode from
 * @src (statx(2) with STATX_BASIC_STATS); its xattrs cannot be read, so
 * FATTRS_PRESERVE_XATTR fails with -EACCES.
 *
 * Returns: as fattrs_preserve().
 */
int fattrs_preserve_stat(const struct fattrs_statx_buf *src, int dst_fd, unsigned int what,
			 unsigned int *ret_failed);

/**
 * fattrs_preserve_kflags() - give @dst_fd, while it is still empty, the
 * kernel flags of the file @path that say how its data is kept: nodump,
 * noatime, sync, nocow (which only an empty file takes), compress,
 * nocompress, notail and dax, and its project id.  Never immutable or
 * append.  @path (relative to @dirfd, not followed; "" for @dirfd
 * itself, an open file) is read with file_getattr(2), so it need not be
 * readable.
 *
 * Returns: 0 (also when @path's filesystem keeps no flags), -EOPNOTSUPP
 * when @dst_fd's filesystem did not keep some of them, or -errno
 * (-EPERM: dax or the project id without the privilege, ...).
 */
int fattrs_preserve_kflags(int dirfd, const char *path, int dst_fd);

/**
 * fattrs_new_file_mode() - the mode open(2) with O_CREAT and @mode gives
 * a new file in @dir: @mode less the umask, or, where @dir has a default
 * ACL, @mode limited by that ACL's owner, mask (or group) and other
 * entries, the umask not applying (as the kernel's
 * posix_acl_create_masq()).
 * @ret: the mode
 *
 * Returns: 0, or -errno from opening @dir.
 */
int fattrs_new_file_mode(int dirfd, const char *dir, mode_t mode, mode_t *ret);

/* ------------------------------------------------------ extended attributes */

/**
 * fattrs_xattr_get() - the value of the extended attribute @name of the
 * file @dirfd and @path name, read as the fattrs(7) flags are read:
 * getxattrat(2), else the path calls (doc/design.md §3).  Implemented in
 * flags/xattrat.c, with the calls the flags use.
 * @at_flags:  AT_SYMLINK_NOFOLLOW for a symbolic link's own attribute,
 *             AT_EMPTY_PATH for @dirfd's own file, or 0
 * @ret_value: a malloc()ed copy of the value, with a NUL after it (a value
 *             may hold NULs of its own)
 * @ret_len:   if not NULL, the value's length, the added NUL not counted
 *
 * Returns: 0, or -errno: -ENODATA (no such attribute), -EOPNOTSUPP (none
 * on this file or file system), -ENOENT, -EACCES, -ENOTDIR, -ELOOP,
 * -ENOMEM, -EINVAL for other @at_flags.
 */
int fattrs_xattr_get(int dirfd, const char *path, unsigned at_flags, const char *name, char **ret_value,
		     size_t *ret_len);

/* ------------------------------------------------------------ tree walk */

/* fattrs_walk() flags. */
enum {
	FATTRS_WALK_XDEV = 1 << 0,	/* do not enter directories on other filesystems */
	FATTRS_WALK_LAZY = 1 << 1,	/* no stat of names the directory says are no directory */
};

/* What a fattrs_walk_fn returns to go on but not enter this directory. */
#define FATTRS_WALK_SKIP 1

/**
 * struct fattrs_walk_entry - one name met by fattrs_walk().
 * @dirfd:      the directory it is in (valid during the call only)
 * @name:       its name there (one component)
 * @path:       the root as given, then the names down to it, for messages
 * @st:         its statx(2) (STATX_BASIC_STATS) with AT_SYMLINK_NOFOLLOW, as a
 *              struct stat (fstatat(2) where statx is missing); NULL under
 *              FATTRS_WALK_LAZY for a name whose directory entry says what it
 *              is, other than a directory (its d_type, which @type then holds)
 * @mnt_id:     its mount id (STATX_MNT_ID), from the same call; 0 when not
 *              known (no @st, or a kernel before 5.8)
 * @type:       its type (S_IFMT bits): from @st, or from the directory entry
 * @dir_serial: changes whenever @dirfd is another directory, or reopened
 * @depth:      1 for the root's entries
 */
struct fattrs_walk_entry {
	int dirfd;
	const char *name;
	const char *path;
	const struct stat *st;
	uint64_t mnt_id;
	mode_t type;
	unsigned long dir_serial;
	size_t depth;
};

/* Called for each name: 0 to go on, FATTRS_WALK_SKIP not to enter it, -errno to stop. */
typedef int (*fattrs_walk_fn)(const struct fattrs_walk_entry *e, void *arg);
/* What a fattrs_walk_err_fn is told of (@err says why). */
enum fattrs_walk_err {
	FATTRS_WALK_ERR_DIR,		/* @path, a directory, cannot be read or entered */
	FATTRS_WALK_ERR_ENTRY,		/* @path cannot be stat'ed or opened: -ENOENT, gone since listed */
	FATTRS_WALK_ERR_REPLACED,	/* @path is no longer the directory stat'ed: not entered (-ESTALE) */
	FATTRS_WALK_ERR_BACK,		/* the walk cannot go back up from @path: the rest is abandoned */
};

/* Called for what could not be read or entered; the walk goes on (but after FATTRS_WALK_ERR_BACK). */
typedef void (*fattrs_walk_err_fn)(const char *path, int err, enum fattrs_walk_err what, void *arg);

/**
 * fattrs_walk() - visit everything below the directory @dirfd, parents
 * before their contents.
 * @dirfd: the root directory (not visited itself; not closed)
 * @root:  its name, the start of every entry's @path
 * @flags: FATTRS_WALK_XDEV, FATTRS_WALK_LAZY, or 0
 * @fn:    called for each entry
 * @err:   called for each directory that cannot be read or entered
 *         (-EACCES, ...); may be NULL
 * @arg:   passed to both
 *
 * Every step is relative to the descriptor of the directory being read:
 * openat(2) with O_NOFOLLOW|O_DIRECTORY, so a symlink met inside is
 * visited (as itself) but never followed, and no path is ever resolved
 * from the top again.  One directory descriptor is open at a time,
 * whatever the depth: a directory's names are read whole before its
 * first subdirectory is entered, and it is reopened on the way back as
 * that subdirectory's "..", which must be the same device and inode (a
 * subdirectory moved elsewhere meanwhile ends the walk with -ESTALE,
 * reported through @err with that subdirectory's path).
 * A name that vanishes while the walk runs is reported through @err
 * (FATTRS_WALK_ERR_ENTRY, -ENOENT) and skipped; a directory is entered
 * only if it is still the one stat'ed and given to @fn (device and inode),
 * else reported (FATTRS_WALK_ERR_REPLACED) and skipped.
 *
 * Returns: 0, or -errno: what @fn returned to stop, -ENOMEM, -ESTALE,
 * or why @dirfd itself cannot be read.
 */
int fattrs_walk(int dirfd, const char *root, unsigned int flags, fattrs_walk_fn fn, fattrs_walk_err_fn err,
		void *arg);

#endif /* FATTRS_H */
