/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel flags (doc/design.md §3): the one table of them, and reading and changing a file's
 * flags.  Included from fattrs.h.
 */
#ifndef FATTRS_KFLAGS_H
#define FATTRS_KFLAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ------------------------------------------------------------ the table */

/**
 * struct fattrs_kflag - one kernel flag: its name, chattr letter and bit in
 * each interface.  Rows come from fattrs_kflags_table() only.
 * @name:        lowercase name ("immutable", "nodump", "inline-data", ...)
 * @letter:      chattr(1)/lsattr(1) letter, '\0' if it has none
 * @xflag:       FS_XFLAG_* bit (file_getattr(2), FS_IOC_FSGETXATTR), 0 if none
 * @iflag:       FS_*_FL bit (FS_IOC_GETFLAGS), 0 if none
 * @statx_attr:  STATX_ATTR_* bit that statx(2) reports it with, 0 if none
 * @readonly:    reported by the kernel, never settable through this module
 * @description: a short English phrase for --list and man pages
 *
 * A flag with an @xflag is changed through the xflags word (the kernel
 * translates the bits both interfaces share), one with only an @iflag
 * through FS_IOC_GETFLAGS/SETFLAGS; fattrs_kattr_test() says which word
 * it is read from.
 */
struct fattrs_kflag {
	const char *name;
	char letter;
	uint32_t xflag;
	uint32_t iflag;
	uint64_t statx_attr;
	bool readonly;
	const char *description;
};

/**
 * fattrs_kflags_table() - every kernel flag, in display order (the most
 * used first, then lsattr's read-only ones, then those only xfs has).
 * @ret_n: set to the number of rows
 *
 * Names and letters are unique; each bit appears in one row at most.
 *
 * Returns: the first row of a static array.
 */
const struct fattrs_kflag *fattrs_kflags_table(size_t *ret_n);

/**
 * fattrs_kflag_find() - a flag by its name, or by its chattr letter when
 * @name is one character long (case matters: 's' is secrm, 'S' sync).
 *
 * Returns: the row, or NULL if @name names no flag.
 */
const struct fattrs_kflag *fattrs_kflag_find(const char *name);

/* ------------------------------------------------------- reading a file */

/* What struct fattrs_kattr holds (its @have) and what to read (@want). */
enum {
	FATTRS_KATTR_XFLAGS = 1 << 0,	/* xflags, extsize, nextents, projid, cowextsize */
	FATTRS_KATTR_IFLAGS = 1 << 1,	/* iflags */
};

/* How the xflags were read (struct fattrs_kattr's @via). */
enum {
	FATTRS_KVIA_NONE = 0,		/* they were not read */
	FATTRS_KVIA_FILE_GETATTR,	/* file_getattr(2), by path */
	FATTRS_KVIA_IOCTL,		/* FS_IOC_FSGETXATTR on an open descriptor */
};

/**
 * struct fattrs_kattr - a file's kernel attributes and how they were read.
 * @have:       FATTRS_KATTR_* bits: which of the fields below are valid
 * @via:        FATTRS_KVIA_* for the xflags group
 * @xflags:     FS_XFLAG_* word
 * @extsize:    extent size hint in bytes (xfs)
 * @nextents:   number of data extents (xfs; 0 elsewhere)
 * @projid:     project id
 * @cowextsize: copy-on-write extent size hint in bytes (xfs)
 * @iflags:     FS_*_FL word of FS_IOC_GETFLAGS
 */
struct fattrs_kattr {
	unsigned have;
	unsigned via;
	uint32_t xflags, extsize, nextents, projid, cowextsize;
	uint32_t iflags;
};

/**
 * fattrs_kattr_get() - read a file's kernel attributes.
 * @dirfd:    directory @path is relative to (or AT_FDCWD)
 * @path:     the file; "" (or NULL) with AT_EMPTY_PATH for @dirfd itself,
 *            which must then not be an O_PATH descriptor for the ioctls
 * @at_flags: AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH; anything else is -EINVAL
 * @mode:     the file's st_mode (its S_IFMT bits are what counts) as
 *            @path and @at_flags name it, if the caller has it; else 0,
 *            and the file is stat'ed when an open is needed, and only then
 * @want:     FATTRS_KATTR_XFLAGS and/or FATTRS_KATTR_IFLAGS
 * @ret:      filled in on success; its @have says which groups were read
 *
 * The xflags come from file_getattr(2), by path, without opening the file.
 * Where that system call is missing (ENOSYS, remembered for the process)
 * FS_IOC_FSGETXATTR is used, and FS_IOC_GETFLAGS always for the iflags.
 * The ioctls need an open descriptor, and nothing is opened that has not
 * been identified first on the descriptor that will be used: the file is
 * pinned with an O_PATH open (no side effects, whatever it is), fstat(2)
 * says what it is, and only a regular file or directory is then reopened
 * from that descriptor (/proc/self/fd/N; "." for a directory), read-only,
 * O_NONBLOCK|O_NOCTTY: a device's open or ioctl could have side effects.
 * Without /proc a regular file is reopened by its path and must be the
 * pinned inode (else -EAGAIN); that open comes before the check.  A stale
 * @mode does not matter.  file_getattr(2) itself
 * reports special files and symlinks where the filesystem keeps flags for
 * them (xfs since 6.18), so one group may be read and not the other.
 *
 * Returns: 0 if at least one group asked for was read and the other, if
 * asked for, is -EOPNOTSUPP (@ret's @have tells); -EOPNOTSUPP if the
 * filesystem keeps no flags for this file (ramfs, FUSE servers such as
 * ntfs-3g that answer EINVAL, ENOTTY, a special file or a symlink with
 * AT_SYMLINK_NOFOLLOW that cannot be asked); -EINVAL for bad @at_flags or
 * @want; or the kernel's -errno (-ENOENT, -ENOTDIR, -EACCES, -ELOOP,
 * -EBADF for an O_PATH @dirfd on the ioctl path, ...).  @ret is written
 * only when 0 is returned.
 */
int fattrs_kattr_get(int dirfd, const char *path, unsigned at_flags, mode_t mode,
		     unsigned want, struct fattrs_kattr *ret);

/**
 * fattrs_kattr_test() - whether flag @f is set in @a.
 *
 * The iflags word is asked first when @a has it and @f has a bit there
 * (verity and casefold have xflags only since 7.0 and 7.2), else the
 * xflags word.
 *
 * Returns: 1 if set, 0 if clear, -ENODATA if @a read neither word @f has
 * a bit in.
 */
int fattrs_kattr_test(const struct fattrs_kattr *a, const struct fattrs_kflag *f);

/* The locking flags' bits in the xflags word: immutable and append. */
#define FATTRS_XFLAGS_LOCKING (FS_XFLAG_IMMUTABLE | FS_XFLAG_APPEND)

/**
 * fattrs_kflag_locking() - whether @f is a locking flag (immutable,
 * append): set, it refuses changes to the file and its other flags, and
 * only CAP_LINUX_IMMUTABLE changes it.
 */
static inline bool fattrs_kflag_locking(const struct fattrs_kflag *f)
{
	return (f->xflag & FATTRS_XFLAGS_LOCKING) != 0;
}

/* Where flag @f is read with the fewest calls: statx(2), the xflags word or the iflags word. */
enum fattrs_kread {
	FATTRS_KREAD_STATX,	/* stx_attributes; stx_attributes_mask says whether the filesystem has it */
	FATTRS_KREAD_XFLAGS,	/* file_getattr(2) by name */
	FATTRS_KREAD_IFLAGS,	/* FS_IOC_GETFLAGS: an open(2) of the file */
};

/**
 * fattrs_kflag_read_by() - where flag @f is read with the fewest calls,
 * truthfully on this kernel.
 */
enum fattrs_kread fattrs_kflag_read_by(const struct fattrs_kflag *f);

/* ------------------------------------------------------ changing a file */

/**
 * struct fattrs_kchange - a change of flags, as (set, clear) bit masks of
 * each word.  A bit is in at most one of @xset and @xclear (@iset and
 * @iclear likewise).  Build it with fattrs_kchange_add(), or fill the
 * masks directly: bits no row of the table names are passed on to the
 * kernel as they are.
 * @xset:   FS_XFLAG_* bits to set
 * @xclear: FS_XFLAG_* bits to clear
 * @iset:   FS_*_FL bits to set
 * @iclear: FS_*_FL bits to clear
 * @extsize:    the extent size hint in bytes to write with FS_XFLAG_EXTSIZE
 *              or FS_XFLAG_EXTSZINHERIT in @xset (xfs); 0: as it is
 * @cowextsize: the same for FS_XFLAG_COWEXTSIZE
 */
struct fattrs_kchange {
	uint32_t xset, xclear;
	uint32_t iset, iclear;
	uint32_t extsize, cowextsize;
};

/**
 * fattrs_kchange_has() - whether @c sets @f (@on) or clears it (!@on), in
 * the word @f is changed through.
 */
bool fattrs_kchange_has(const struct fattrs_kchange *c, const struct fattrs_kflag *f, bool on);

/* Flags for fattrs_kattr_change_flags(). */
enum {
	/*
	 * Do not read the xflags word back after writing it: the caller
	 * knows this filesystem keeps every bit of the change on such a file
	 * (it saw it do so).  The iflags word is always read back, and so
	 * is the xflags word of a file of @mode 0 (not stat'ed) asked
	 * FATTRS_KCHANGE_BY_NAME that has no flags by its name (a symlink
	 * followed, a special file): it may be on another filesystem.
	 */
	FATTRS_KCHANGE_NO_READBACK = 1 << 0,
	/*
	 * Read and write the xflags word by @path, one name in @dirfd,
	 * rather than through a pinned descriptor: two system calls instead
	 * of four.  Only where fattrs_kattr_dir_byname() said 1 for @dirfd
	 * and this @at_flags: nobody but the caller and root can then put
	 * another file under that name between the read and the write.  The
	 * name is looked up without following a symlink; when that read
	 * finds no flags there (a symlink or special file, or a filesystem
	 * without them), the change goes the pinned way after all.
	 */
	FATTRS_KCHANGE_BY_NAME = 1 << 1,
	/*
	 * Pin the file only where the lookup of @path stays on @dirfd's
	 * mount (openat2(2) with RESOLVE_NO_XDEV): a name that leads to
	 * another mount (a symbolic link followed, a mount on the name, ".."
	 * out of the mount's root) gives -EXDEV before anything is read or
	 * written, and so does a kernel without openat2(2) (Linux < 5.6).
	 * For a caller that judged the filesystem by @dirfd's mount
	 * (fattrs_mounts_flags_trusted_at()) rather than by a stat of the
	 * file: on -EXDEV it stats the file and asks again without it.
	 */
	FATTRS_KCHANGE_SAME_MOUNT = 1 << 2,
};

/**
 * struct fattrs_kresult - what of a change is not in effect, and why.
 * @dropped: every part not known to be in effect afterwards (as
 *           fattrs_kattr_change()'s @ret_dropped)
 * @refused: the part of @dropped the filesystem refused: its word cannot
 *           be read or written on this file (EOPNOTSUPP, ENOTTY); the rest
 *           of @dropped was accepted and read back otherwise
 * @no_flags: the file keeps no kernel flags at all (set by
 *           fattrs_mntcache_kchange() only)
 */
struct fattrs_kresult {
	struct fattrs_kchange dropped, refused;
	bool no_flags;
};

/* What became of one flag of a change (fattrs_kresult_fate()). */
enum fattrs_kfate {
	FATTRS_KFATE_DONE = 0,	/* in effect, as far as the change knows */
	FATTRS_KFATE_REFUSED,	/* the filesystem refused it (it has no such flag here) */
	FATTRS_KFATE_DROPPED,	/* the filesystem said yes, and the read-back shows it not in effect */
};

/**
 * fattrs_kresult_fate() - what became of setting (@on) or clearing flag
 * @f in the change @res reports.
 */
enum fattrs_kfate fattrs_kresult_fate(const struct fattrs_kresult *res, const struct fattrs_kflag *f, bool on);

/**
 * fattrs_kattr_restore() - put back the kernel flags a file had in @before
 * (fattrs_kattr_get()) and lost since: on overlayfs the first change of a
 * lower file's xattr copies it up, and copy-up keeps only sync, noatime,
 * append and immutable of its flags (fs/overlayfs/copy_up.c).
 * @dirfd, @path, @at_flags, @mode: the file, as for fattrs_kattr_get()
 * @ret_lost: if not NULL, written when -errno is returned: the flags that
 *            could not be put back
 *
 * Returns: 0 if nothing was lost, 1 if what was is back, -errno from
 * reading the flags, or from the change (see @ret_lost).
 */
int fattrs_kattr_restore(int dirfd, const char *path, unsigned at_flags, mode_t mode,
			 const struct fattrs_kattr *before, struct fattrs_kchange *ret_lost);

/**
 * fattrs_kattr_dir_byname() - whether a change of a name in @dirfd may go
 * by that name (FATTRS_KCHANGE_BY_NAME).
 * @dirfd: a directory (O_PATH will do), or AT_FDCWD
 * @at_flags: the changes' (AT_SYMLINK_NOFOLLOW or 0)
 *
 * Yes when nobody but the caller and root can rename, link or unlink in
 * it: owned by the caller's effective uid or by root, not writable by
 * group or others (with a POSIX ACL the group bits are its mask, which
 * caps every other entry), on a local filesystem (ext2/3/4, btrfs, tmpfs,
 * xfs: on a network or FUSE one the server and its other clients change
 * it whatever the mode says).  On xfs, which keeps flags on symlinks
 * too, only with AT_SYMLINK_NOFOLLOW: following, a symlink must fail the
 * read by name for the change to go the pinned way.  Two system calls
 * (fstat, fstatfs): ask once per directory.
 *
 * Returns: 1 or 0, or -errno (-ENOTDIR for a @dirfd of no directory).
 */
int fattrs_kattr_dir_byname(int dirfd, unsigned at_flags);

/**
 * fattrs_kattr_set_procfd() - a descriptor of the caller's /proc/self/fd
 * directory, through which a change reaches the file it pinned: a lookup
 * of one name ("N", the pinned descriptor's number) instead of the four
 * of "/proc/self/fd/N", for each of the read and the write.
 * @fd: opened by the caller with O_RDONLY|O_DIRECTORY (and O_CLOEXEC), kept
 *      open while it changes flags, and used only by the process that
 *      opened it (after fork(2) it is the parent's table); -1 to stop
 *      using it, before it is closed.
 *
 * Returns: 0, or -EINVAL if @fd is no procfs directory (then nothing changes).
 */
int fattrs_kattr_set_procfd(int fd);

/* ------------------------------------------------------ a flag's state */

/**
 * fattrs_kflag_state() - what flag @f is on a file: the one answer of
 * xstat's fields and setfattrs --list FILE.
 * @f:     the flag
 * @stx:   the file's statx(2) (its stx_mode, stx_attributes and
 *         stx_attributes_mask), or NULL
 * @a:     the file's flags as fattrs_kattr_get() read them, or NULL
 * @aerr:  when @a is NULL, what fattrs_kattr_get() returned (-EOPNOTSUPP:
 *         the file keeps no kernel flags; other: they could not be read),
 *         or 0 when they were not asked for
 * @keeps: the filesystem type whose kept flags apply (struct
 *         fattrs_mntinfo's @keeps), or NULL when not known
 * @ret_support: if not NULL, whether the file can hold @f: FATTRS_FS_YES,
 *         FATTRS_FS_NO, or FATTRS_FS_UNKNOWN (not measured: a change is
 *         read back)
 *
 * A flag statx(2) reports (all but dax, whose statx bit is the state in
 * effect, not the flag) is asked of stx_attributes_mask: the filesystem
 * has it or it has not.  Any other is read from @a, and reads unsupported
 * where the word it lives in cannot be read there, or where it reads clear
 * and @keeps does not keep it (no system call says so: such a flag always
 * reads clear); where @keeps is not known or not measured, what @a says.
 *
 * Returns: FATTRS_STATE_SET, FATTRS_STATE_CLEAR, FATTRS_STATE_UNSUPPORTED, or
 * FATTRS_STATE_UNREADABLE (neither @stx nor @a can tell).
 */
enum fattrs_state fattrs_kflag_state(const struct fattrs_kflag *f, const struct fattrs_statx_buf *stx,
				     const struct fattrs_kattr *a, int aerr, const struct fattrs_fstype *keeps,
				     enum fattrs_fsanswer *ret_support);

#endif /* FATTRS_KFLAGS_H */
