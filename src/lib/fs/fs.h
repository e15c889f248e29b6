/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a file's filesystem and mount are: probes, statx(2), the mount table and what each
 * mount keeps.  Included from fattrs.h, after tmp/tmpfile.h; do not include it on its own.
 */
#ifndef FATTRS_FS_H
#define FATTRS_FS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* ---------------------------------------------------------------- probe */

/**
 * struct fattrs_probe - what a directory's filesystem supports.
 * @tmpfile_errno:   0 if open(O_TMPFILE) works there, else its errno
 * @link_via:        how an unnamed file is linked there
 * @link_errno:      errno of the last link attempt that failed (0 if none)
 * @noreplace_errno: 0 if renameat2(RENAME_NOREPLACE) works, else its errno
 * @hardlink_errno:  0 if a hard link of a file can be made there (link(2):
 *                   what --no-clobber falls back on without RENAME_NOREPLACE),
 *                   else its errno
 * @xattr_errno:     0 if user.* xattrs can be set on a file there, else errno
 * @create_errno:    0 if a file can be made there at all, else the errno
 *                   that stops every method (EROFS, EACCES, ...)
 * @method:          what FATTRS_TMP_AUTO would use there
 * @why:             why
 * @mnt_id:          the directory's mount id (stx_mnt_id), 0 if unknown
 */
struct fattrs_probe {
	int tmpfile_errno;
	enum fattrs_link_via link_via;
	int link_errno;
	int noreplace_errno;
	int hardlink_errno;
	int xattr_errno;
	int create_errno;
	enum fattrs_tmp_method method;
	enum fattrs_tmp_why why;
	uint64_t mnt_id;
	bool tmpfile_loses_name;	/* O_TMPFILE not tried: see FATTRS_TMP_WHY_LOSES_NAME */
};

/**
 * fattrs_probe_dir() - find out what @dir supports by trying it.
 *
 * Creates only unnamed files or hidden random names, and removes every one
 * before it returns: the directory is left as it was.  A directory where
 * nothing can be made (read-only, no permission, /proc) is still probed:
 * @create_errno says why.
 *
 * Returns: 0, or -errno when @dir cannot be looked at (-ENOENT, -ENOTDIR,
 * -EACCES on a path component, ...), or when a try gets no answer from its
 * filesystem, only an error that says nothing of what it can do
 * (-ECONNABORTED, -ENOTCONN: a FUSE connection aborted, a network
 * filesystem's server gone; -EIO where a file is made, -ESTALE; -ENOENT:
 * @dir gone meanwhile).
 */
int fattrs_probe_dir(int dirfd, const char *dir, struct fattrs_probe *ret);

/* ---------------------------------------------------------------- statx */

/**
 * fattrs_statx() - statx(2) into the full 6.16 layout.
 *
 * Returns: 0, or -errno (-ENOSYS before Linux 4.11).
 */
int fattrs_statx(int dirfd, const char *path, int flags, unsigned int mask,
		 struct fattrs_statx_buf *ret);

/**
 * fattrs_stat_mnt() - stat(2) of @path in @dirfd (@at_flags: 0 or
 * AT_SYMLINK_NOFOLLOW, and AT_STATX_FORCE_SYNC to ask the server rather
 * than the client's caches) through statx(2), so that the mount id comes
 * with it at no cost: *@ret_mnt_id, 0 where statx or its mount id is
 * missing (fstatat(2) then, without the AT_STATX_* flags).
 *
 * Returns: 0, or -1 with errno set, as fstatat(2).
 */
int fattrs_stat_mnt(int dirfd, const char *path, unsigned at_flags, struct stat *ret, uint64_t *ret_mnt_id);

struct statfs;

/**
 * fattrs_statfs() - statfs(2) of the file @dirfd and @path name, following
 * a symbolic link as statfs(2) does unless @at_flags says not to.
 * @at_flags: 0, or AT_EMPTY_PATH for @dirfd's own file when @path is ""
 *            (the working directory for AT_FDCWD); AT_SYMLINK_NOFOLLOW: a
 *            link's own file system
 *
 * Returns: 0, or -errno as statfs(2): -ENOENT for a @path of "" without
 * AT_EMPTY_PATH, -EACCES, -ENOTDIR, -ELOOP, -ENOSYS where the file system
 * has no statfs.
 */
int fattrs_statfs(int dirfd, const char *path, unsigned at_flags, struct statfs *ret);

/* ---------------------------------------------------------------- mounts */

/**
 * struct fattrs_mount - one entry of the mount table.  The strings belong
 * to the table and live until fattrs_mounts_free().
 * @id:      the (reusable) mount id
 * @target:  the mount point
 * @fstype:  the file system type
 * @source:  what was mounted (a device, ...), as mountinfo has it
 * @options: the per-mount (VFS) options
 * @fs_options: the filesystem's own (superblock) options ("upperdir=...")
 * @root:    the directory of the file system mounted there ("/", or a
 *           bind mount's subdirectory: findmnt's FSROOT)
 */
struct fattrs_mount {
	uint64_t id;
	const char *target;
	const char *fstype;
	const char *source;
	const char *options;
	const char *fs_options;
	const char *root;
};

struct fattrs_mounts;

/**
 * fattrs_mounts_new() - a lazily parsed view of /proc/self/mountinfo.
 * Nothing is read, and libmount is not even loaded, until the first lookup.
 *
 * Returns: the object, or NULL when out of memory.
 */
struct fattrs_mounts *fattrs_mounts_new(void);

/** fattrs_mounts_free() - release the table.  Returns: NULL. */
struct fattrs_mounts *fattrs_mounts_free(struct fattrs_mounts *m);

/**
 * fattrs_mounts_find() - look up a mount by its (reusable) mount id, as
 * statx(STATX_MNT_ID) returns it.  The table is parsed on the first call,
 * and parsed again when @id is not in it (something was mounted since):
 * at most 16 times per @m, and once per id a fresh table lacked.  The
 * strings of every lookup stay valid until fattrs_mounts_free().
 *
 * Returns: 0, -ENOENT if no such mount, -ELIBACC if libmount cannot be
 * loaded, or another -errno from reading the table.
 */
int fattrs_mounts_find(struct fattrs_mounts *m, uint64_t id, struct fattrs_mount *ret);

/**
 * fattrs_mounts_flags_trusted() - whether every mount of the table is of a
 * type whose kernel flags may be trusted after one read-back (struct
 * fattrs_fstype's @flags_trusted): then which mount a file is on does not
 * decide whether a change of nodump, noatime or sync sticks.
 *
 * Returns: 1 or 0, or -errno as fattrs_mounts_find().
 */
int fattrs_mounts_flags_trusted(struct fattrs_mounts *m);

/**
 * fattrs_mounts_flags_trusted_at() - fattrs_mounts_flags_trusted() for
 * the files in and below directory @dirfd (AT_FDCWD: the working
 * directory) only: whether its own mount, and every mount of the table
 * strictly below its path, are of such a type.  A file there is on one of
 * those mounts, but through a symlink followed.  The path of @dirfd is
 * read from /proc/self/fd (getcwd(3) for AT_FDCWD): one not reachable
 * from the root, a mount not in the table or a statx(2) without its mount
 * id say 0.
 *
 * Returns: 1 or 0, or -errno (of the statx, readlink or getcwd, or as
 * fattrs_mounts_find()).
 */
int fattrs_mounts_flags_trusted_at(struct fattrs_mounts *m, int dirfd);

/* Where fattrs_mntpoint_find() stopped, with the errno it returned. */
enum fattrs_mntpoint_err {
	FATTRS_MNTPOINT_ERR_CWD = 1,	/* the working directory cannot be kept */
	FATTRS_MNTPOINT_ERR_ENTER,	/* @start cannot be entered */
	FATTRS_MNTPOINT_ERR_STAT_UP,	/* the ".." of a directory on the way cannot be stat'ed */
	FATTRS_MNTPOINT_ERR_ENTER_UP,	/* the ".." of a directory on the way cannot be entered */
	FATTRS_MNTPOINT_ERR_NAME,	/* the mount point found has no name (deleted, unreachable) */
};

/**
 * struct fattrs_mntpoint - what fattrs_mntpoint_find() found.
 * @path:     the mount point, malloc()ed; NULL when the call failed
 * @start:    the directory the walk started from (the file itself, or its
 *            directory), malloc()ed, for messages; may be NULL
 * @err:      where the walk stopped, when the call failed
 * @back_err: 0, or the errno that returning to the working directory
 *            gave (GNU stat stops there)
 */
struct fattrs_mntpoint {
	char *path;
	char *start;
	enum fattrs_mntpoint_err err;
	int back_err;
};

/**
 * fattrs_mntpoint_find() - the mount point GNU stat(1) 9.1's %m names:
 * from @file's directory (@file itself if @is_dir) up through ".." while
 * the device stays the same, as gnulib's find_mount_point() walks.  The
 * walk goes by directory descriptors and never changes the working
 * directory, but needs what GNU's chdir(2) needs: search permission on
 * each directory entered, and a working directory GNU could come back to
 * (@ret->back_err).  Without GNU's bind mount lookup: a bind mount of a
 * directory of the same file system is walked out of.  The mount point is
 * named by its /proc/self/fd link, as getcwd(2) names a directory (without
 * /proc: by the start's canonical name, less a component for each "..").
 * @file:   the file, as named on the command line
 * @is_dir: whether it is a directory (followed, if it is a symbolic link
 *          that is followed)
 * @ret:    what was found; fattrs_mntpoint_release() it, whatever the call
 *          returned
 *
 * Returns: 0, or -errno with @ret->err saying where it stopped: -ENOENT,
 * -EACCES, -ENOTDIR, -ELOOP, -ENOMEM, -ENOSYS (no /proc to name the mount
 * point by), ...
 */
int fattrs_mntpoint_find(const char *file, bool is_dir, struct fattrs_mntpoint *ret);

/** fattrs_mntpoint_release() - free what @mp holds (not @mp itself). */
void fattrs_mntpoint_release(struct fattrs_mntpoint *mp);

/* ---------------------------------------------------- what a mount keeps */

/**
 * struct fattrs_mntinfo - what one mount is, for the questions of what it
 * keeps.  The strings belong to the mount table.
 * @mnt_id: the (reusable) mount id
 * @fstype: its type as the mount table has it, NULL when the mount is not
 *          in the table (or libmount cannot be loaded)
 * @type:   the table's row of that type (fattrs_fstype_find()), or NULL
 * @keeps:  the row whose kernel flags a file there keeps: @type's own, or
 *          an overlay's upper layer's (found by its upperdir option);
 *          NULL when not known
 */
struct fattrs_fstype;

struct fattrs_mntinfo {
	uint64_t mnt_id;
	const char *fstype;
	const struct fattrs_fstype *type;
	const struct fattrs_fstype *keeps;
};

struct fattrs_mntcache;
struct fattrs_fsupport;
struct fattrs_kattr;
struct fattrs_kchange;
struct fattrs_kresult;

/**
 * fattrs_mntcache_new() - a cache of what each mount keeps, by mount id.
 * @mounts: the mount table to look mounts up in (the caller's, which must
 *          outlive the cache), or NULL for one of the cache's own
 *
 * Returns: the object, or NULL when out of memory.
 */
struct fattrs_mntcache *fattrs_mntcache_new(struct fattrs_mounts *mounts);

/** fattrs_mntcache_free() - release the cache.  Returns: NULL. */
struct fattrs_mntcache *fattrs_mntcache_free(struct fattrs_mntcache *c);

/** fattrs_mntcache_mounts() - the mount table the cache looks mounts up in. */
struct fattrs_mounts *fattrs_mntcache_mounts(struct fattrs_mntcache *c);

/**
 * fattrs_mntcache_get() - what mount @mnt_id (statx(2) STATX_MNT_ID) is,
 * looked up on the first call for it (a mount not in the table is cached
 * as one of no known type).
 *
 * Returns: 0, -EINVAL for a @mnt_id of 0, or -ENOMEM.
 */
int fattrs_mntcache_get(struct fattrs_mntcache *c, uint64_t mnt_id, struct fattrs_mntinfo *ret);

/**
 * fattrs_mntcache_fsupport() - where mount @mnt_id keeps the fattrs(7)
 * flags: fattrs_fsupport_probe() of a file on it (@dirfd, @path,
 * @at_flags, as that takes them), on the first call for it.  A @mnt_id of
 * 0 (not known) probes every time.
 * @ret_type: if not NULL, the table's row of the file's statfs(2) magic
 *            (the first of its magic: enough to know an overlay or FUSE),
 *            or NULL; one statfs(2) more, once per mount
 *
 * Returns: 0, or -errno as fattrs_fsupport_probe() (nothing cached then).
 */
int fattrs_mntcache_fsupport(struct fattrs_mntcache *c, uint64_t mnt_id, int dirfd, const char *path,
			     unsigned at_flags, struct fattrs_fsupport *ret, const struct fattrs_fstype **ret_type);

/**
 * fattrs_mntcache_kattr_get() - fattrs_kattr_get() of a file on mount
 * @mnt_id, without asking a mount again what it answered already: once a
 * word of @want (FATTRS_KATTR_XFLAGS, FATTRS_KATTR_IFLAGS) read "no flags
 * here" on a file of a type, the same word of the next such file there is
 * not asked (one round trip less per file and word on a network mount).
 * Not where that answer may differ per file (fattrs_fstype's
 * @kflags_per_file: overlayfs, a FUSE server without a row, a type not in
 * the table), nor for a @mnt_id or @mode of 0 (not known).
 *
 * Returns: as fattrs_kattr_get() (-EOPNOTSUPP when no word of @want is
 * kept there).
 */
int fattrs_mntcache_kattr_get(struct fattrs_mntcache *c, uint64_t mnt_id, int dirfd, const char *path,
			      unsigned at_flags, mode_t mode, unsigned want, struct fattrs_kattr *ret);

/**
 * fattrs_mntcache_kchange() - change a file's kernel flags
 * (fattrs_kattr_change_result()) with the read-back rule and the retries
 * every caller needs.
 * @mnt_id, @mode: the file's mount id (0 if not known) and st_mode; 0 and
 *        0 for a file not stat'ed, only where fattrs_mounts_flags_trusted()
 *        said 1, or fattrs_mounts_flags_trusted_at() of @dirfd with
 *        FATTRS_KCHANGE_SAME_MOUNT
 * @flags: FATTRS_KCHANGE_BY_NAME, FATTRS_KCHANGE_SAME_MOUNT, both or 0 (the
 *        read-back is this function's)
 * @ret:  if not NULL, written when the call returns 0, 1 or -EOPNOTSUPP:
 *        what is not in effect, what of it was refused, and whether the
 *        file keeps no kernel flags at all
 *
 * The read-back rule: a change of nodump, noatime or sync only, each of
 * which was seen kept on this mount for this file type before, is not
 * read back (a filesystem that kept one on a file of a type keeps it on
 * every such file); the first of each is, and every change on a
 * filesystem where a server decides per file (FUSE, network), of a type
 * the table does not know, or on a mount not known (@mnt_id 0, @mode not
 * 0).  When the
 * filesystem refuses a change of several flags (tmpfs refuses the whole
 * write for one it does not have), each is tried alone (clears, sets,
 * then immutable and append), so that what can be is applied and @ret
 * names exactly what is not.
 *
 * Returns: 1 if something was written and all of it is in effect, 0 if
 * nothing needed writing, -EOPNOTSUPP if some of it is not (see @ret), or
 * -errno as fattrs_kattr_change() (-EINVAL for other @flags).
 */
int fattrs_mntcache_kchange(struct fattrs_mntcache *c, uint64_t mnt_id, int dirfd, const char *path, unsigned at_flags,
			    mode_t mode, const struct fattrs_kchange *change, unsigned flags, struct fattrs_kresult *ret);

#endif /* FATTRS_FS_H */
