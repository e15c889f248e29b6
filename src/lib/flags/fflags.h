/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The four fattrs(7) flags and every place one can live (doc/design.md §2).
 * Included from fattrs.h; do not include it on its own.
 */
#ifndef FATTRS_FFLAGS_H
#define FATTRS_FFLAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "compat/linux.h"

/* The reserved xattr namespace: a flag NAME is the xattr FATTRS_FFLAG_PREFIX NAME. */
#define FATTRS_FFLAG_PREFIX "user.fattr."

/* The value a set flag's xattr holds (one byte, no newline), and a tolerated clear one. */
#define FATTRS_FFLAG_VALUE_SET "1"
#define FATTRS_FFLAG_VALUE_CLEAR "0"

/* The four flags, in display order.  Do not reorder: tools index tables with them. */
enum fattrs_fflag {
	FATTRS_OFFLINE = 0,	/* the data lives elsewhere (in the cloud) */
	FATTRS_PINNED,		/* kept local; must not be evicted (opposite of offline) */
	FATTRS_INTEGRITY,	/* ask for the strongest integrity protection */
	FATTRS_NOSCRUB,		/* scratch data, not worth scrubbing (opposite of integrity) */
	FATTRS_NFFLAGS
};

/* Windows FILE_ATTRIBUTE_* bits of the four flags (doc/kernel.md §4.1). */
#define FATTRS_WINATTR_OFFLINE 0x00001000U
#define FATTRS_WINATTR_INTEGRITY_STREAM 0x00008000U
#define FATTRS_WINATTR_NO_SCRUB_DATA 0x00020000U
#define FATTRS_WINATTR_PINNED 0x00080000U

/**
 * struct fattrs_fflag_info - one row of the flag table.
 * @name:        the flag's name ("offline")
 * @xattr:       its name in the reserved namespace ("user.fattr.offline")
 * @winattr:     its Windows FILE_ATTRIBUTE_* bit in a native attribute word
 * @statx:       its STATX_ATTR_* bit when the build headers define one, else
 *               0 (no kernel has one today)
 * @opposite:    the flag that cannot be set at the same time
 * @description: one line for --list and help texts (English, untranslated)
 */
struct fattrs_fflag_info {
	const char *name;
	const char *xattr;
	uint32_t winattr;
	uint64_t statx;
	enum fattrs_fflag opposite;
	const char *description;
};

/**
 * fattrs_fflag_info() - the table row of @f.
 *
 * Returns: the row, or NULL when @f is not one of the four flags.
 */
const struct fattrs_fflag_info *fattrs_fflag_info(enum fattrs_fflag f);

/*
 * What a flag reads as: the one vocabulary of flag states, for both kinds
 * of flag (the four here, the kernel's: fattrs_kflag_state()).
 */
enum fattrs_state {
	FATTRS_STATE_CLEAR = 0,		/* no source says set */
	FATTRS_STATE_SET,		/* some source says set */
	FATTRS_STATE_INVALID,		/* the xattr holds a value other than "1" or "0", and no other source says set */
	FATTRS_STATE_UNSUPPORTED,	/* the file cannot carry the flag (file type, filesystem) */
	FATTRS_STATE_UNREADABLE,	/* it could not be read (an error other than "not supported") */
	FATTRS_STATE_UNKNOWN,		/* not read: not asked for, or the reading failed (the caller says so) */
};

/**
 * fattrs_state_name() - the word of state @s: "clear", "set", "invalid",
 * "unsupported", "not readable" (English, as xstat, setfattrs and their
 * JSON write them); "unknown" for FATTRS_STATE_UNKNOWN, which is no state
 * of the file and which the programs word in their own way.
 *
 * Returns: the word, or NULL for a value not in the enum.
 */
const char *fattrs_state_name(enum fattrs_state s);

/* ------------------------------------------------- filesystem capabilities */

/* The native Windows attribute word a filesystem exposes as an xattr. */
enum fattrs_native {
	FATTRS_NATIVE_NONE = 0,
	FATTRS_NATIVE_NTFS,	/* system.ntfs_attrib: ntfs-3g (keeps only OFFLINE of the four) and ntfs3 */
	FATTRS_NATIVE_CIFS,	/* user.cifs.dosattrib: the SMB client (whatever the server keeps) */
};

/* The native words' xattr names. */
#define FATTRS_NTFS_ATTRIB_XATTR "system.ntfs_attrib"
#define FATTRS_CIFS_ATTRIB_XATTR "user.cifs.dosattrib"

/**
 * struct fattrs_fsupport - where a filesystem can keep the four flags.
 * @user_xattr: it supports user.* xattrs (on regular files and directories)
 * @native:     the native attribute word it exposes, if any
 */
struct fattrs_fsupport {
	bool user_xattr;
	enum fattrs_native native;
};

/*
 * How the functions below name a file: as the *at(2) calls and
 * fattrs_kattr_get() do, @dirfd (a directory descriptor, O_PATH will do, or
 * AT_FDCWD), @path relative to it, and @at_flags: AT_SYMLINK_NOFOLLOW (do
 * not follow @path if it is a symbolic link) and AT_EMPTY_PATH ("" or NULL
 * names @dirfd's own file; anything else in @at_flags is -EINVAL).  The
 * xattrs are read and written with getxattrat(2), setxattrat(2),
 * listxattrat(2) and removexattrat(2) (Linux 6.13); without them (ENOSYS,
 * remembered for the process) with the path calls, by /proc/self/fd/D/PATH
 * for a name relative to a descriptor (-ENOSYS where /proc is missing too),
 * and with f*xattr(2) on @dirfd's own file.  Both kinds of call refuse an
 * O_PATH descriptor's own file (EBADF, Linux 6.18): it is reached through
 * its /proc/self/fd link instead, one call more.  doc/kernel.md §5.3.
 */

/**
 * fattrs_fsupport_probe() - find out what the filesystem of a file offers.
 * Meant to be called once per mount (the caller caches the answer by mount
 * id): every file of a mount gets the same answer.
 * @dirfd, @path, @at_flags: the file (above)
 * @ret:      filled in on success
 *
 * The kernel answers every user.* getxattr on a symlink or special file with
 * ENODATA whatever the filesystem, so the file probed is @path when it is a
 * regular file or directory, else the directory it is in (the target's
 * directory for a followed link; -EINVAL for a descriptor's own file, whose
 * directory is not known).  User xattrs: a getxattr of
 * "user.fattr.offline" answering a value or ENODATA means yes, EOPNOTSUPP
 * no (EACCES or EPERM on a regular file: its directory is tried instead,
 * for the native word too, the target's directory for a followed link;
 * where that cannot tell either, yes is assumed, so that the real
 * operation reports EACCES).  A followed link is resolved link by link
 * (fattrs_path_resolve()), so the directories above need not be
 * searchable.  Native word: a size query of
 * system.ntfs_attrib, then, only on an SMB mount (statfs(2) magic), of
 * user.cifs.dosattrib: an ordinary user xattr of that name elsewhere does
 * not count.  About 3-4 system calls.
 *
 * Returns: 0, or -errno: -ENOENT, -ENOTDIR, -EACCES (a path component),
 * -ELOOP, -ENOMEM, ...
 */
int fattrs_fsupport_probe(int dirfd, const char *path, unsigned at_flags, struct fattrs_fsupport *ret);

/* ------------------------------------------------------------- reading */

/* Where a flag read as set (struct fattrs_fflags.source), or was written or cleared. */
enum {
	FATTRS_FSRC_XATTR = 1 << 0,	/* user.fattr.NAME = "1" */
	FATTRS_FSRC_NATIVE = 1 << 1,	/* the bit in the native attribute word */
	FATTRS_FSRC_STATX = 1 << 2,	/* a STATX_ATTR_* bit in stx_attributes */
};

/**
 * struct fattrs_fflags - the four flags of one file, as fattrs_fflags_get()
 * read them.  Release with fattrs_fflags_release().
 * @state:       each flag's state
 * @source:      where each flag read as set (FATTRS_FSRC_* bits; 0 unless
 *               FATTRS_STATE_SET)
 * @invalid:     for each flag whose xattr holds an invalid value, a
 *               NUL-terminated copy of that value (for the warning; it may
 *               hold NUL bytes itself: use @invalid_len), else NULL.  Set
 *               even when another source makes the flag read FATTRS_STATE_SET,
 *               so the bad value can still be warned about
 * @invalid_len: the length of each @invalid value
 * @unknown:     the other names under FATTRS_FFLAG_PREFIX (full names), in
 *               the order listed; NULL when there are none
 * @n_unknown:   how many
 */
struct fattrs_fflags {
	enum fattrs_state state[FATTRS_NFFLAGS];
	unsigned int source[FATTRS_NFFLAGS];
	char *invalid[FATTRS_NFFLAGS];
	size_t invalid_len[FATTRS_NFFLAGS];
	char **unknown;
	size_t n_unknown;
};

/**
 * fattrs_fflags_get() - read the four flags of a file.
 * @dirfd, @path, @at_flags: the file (fattrs_fsupport_probe())
 * @mode:     @path's st_mode if the caller has it (from its own statx; its
 *            S_IFMT bits are what counts), else 0: the file type is then
 *            learnt with one more stat call
 * @fsup:     what the filesystem offers (fattrs_fsupport_probe()), or NULL to
 *            probe it here (costly: probe once per mount instead)
 * @stx:      the caller's statx of @path, or NULL; used only when the build
 *            headers define STATX_ATTR_* bits for the flags (none exist
 *            today) and stx_attributes_mask says the filesystem has them
 * @ret:      filled in on success; release it with fattrs_fflags_release()
 *
 * One listxattrat(2) (a buffer big enough for a few dozen names; a longer
 * list costs a size query and a retry, repeated if the list keeps growing),
 * one getxattrat(2) for each reserved name present (to validate its value),
 * and one of the native word when @fsup has one.  A flag reads as set when
 * any source says so.  Not a regular file or directory, or a filesystem
 * with neither user xattrs nor a native word: every flag reads
 * FATTRS_STATE_UNSUPPORTED, and that is not an error.
 *
 * Returns: 0, or -errno: -ENOENT, -EACCES, -ENOTDIR, -ELOOP, -ENOMEM,
 * -E2BIG (more names than listxattr(2) can return), ...
 */
int fattrs_fflags_get(int dirfd, const char *path, unsigned at_flags, mode_t mode, const struct fattrs_fsupport *fsup,
		      const struct fattrs_statx_buf *stx, struct fattrs_fflags *ret);

/** fattrs_fflags_release() - free what @f holds (not @f itself); @f may be NULL. */
void fattrs_fflags_release(struct fattrs_fflags *f);

/* ------------------------------------------------------------- writing */

/* Flags for fattrs_fflag_set(). */
enum {
	/*
	 * Do not check that the opposite flag is clear: the caller's same
	 * command has just cleared it.  Should another writer set it again
	 * before this flag is written, it is cleared again (the command's
	 * clear came after), so that the two never end set together.
	 */
	FATTRS_FFLAG_NO_OPPOSITE_CHECK = 1 << 0,
};

/**
 * fattrs_fflag_set() - set or clear one flag of a file.
 * @dirfd, @path, @at_flags: the file (fattrs_fsupport_probe())
 * @mode:      @path's st_mode if the caller has it (its S_IFMT bits are
 *             what counts), else 0 (the kernel's
 *             answer then tells the file type where it can; with a native
 *             word, or without user xattrs, the type is learnt with one
 *             more stat call)
 * @fsup:      what the filesystem offers (fattrs_fsupport_probe()), or NULL to
 *             probe it here
 * @flag:      which flag
 * @on:        true to set, false to clear
 * @flags:     FATTRS_FFLAG_NO_OPPOSITE_CHECK, or 0
 * @ret_where: if not NULL, where the flag now lives (set: FATTRS_FSRC_XATTR
 *             or FATTRS_FSRC_NATIVE) or was cleared from (clear: the
 *             sources it was found in; 0 when it was already clear)
 *
 * Set, with no native word: unless FATTRS_FFLAG_NO_OPPOSITE_CHECK, one
 * getxattrat(2) of the opposite's name (ENODATA: fine), then one
 * setxattrat(NAME, "1"): never a read-modify-write of a shared value, so
 * concurrent writers of different flags never lose each other's update;
 * then the opposite's name again (another writer may have set it between
 * the check and the write): if it is set now, NAME is removed again and
 * the answer is -EBUSY.  Of two writers setting opposites at once, each
 * writes then looks, so at least one sees the other: the two never end
 * set together (one or both fail).
 * Set, with a native word: under flock(2) on the file (open read-only),
 * the lock every fattrs writer of a native word takes (not on SMB, where
 * it would lock the data on the server; a file the caller cannot read, or
 * that another program keeps locked for 2 s, goes on without it), the word
 * is read (its opposite bit counts for the check too), written with the
 * bit (read-modify-write is unavoidable there) and read back; a read back
 * that shows another writer's word is tried again; a bit the filesystem
 * dropped (ntfs-3g keeps only OFFLINE of the four) goes to user.fattr.NAME
 * instead; then the opposite again, as above.
 * Clear: one removexattrat(2) (ENODATA: it was already clear), and the native
 * bit is cleared too (under the lock, read back): every source is
 * cleared.  Unknown names under the prefix are never touched.
 *
 * Returns: 0, or -errno:
 * -EEXIST   setting, and the opposite flag is set (or its xattr holds an
 *           invalid value): the remedy is to clear it in the same command
 *           ("-offline +pinned")
 * -EBUSY    setting, and another writer set the opposite flag at the same
 *           time: this flag was taken back (cleared again); the file has
 *           the other writer's flag, or neither
 * -EPERM    @path is not a regular file or directory: the kernel refuses
 *           user.* xattrs there, even for root (also: a sticky directory
 *           not owned by the caller)
 * -EOPNOTSUPP  the filesystem has no user xattrs, and no native word that
 *           can hold the flag
 * -EINVAL   @flag is not one of the four
 * -EIO      clearing: the native word still has the bit after a write that
 *           succeeded (the filesystem or server kept it)
 * -ENOENT, -EACCES, -EROFS, -ENOSPC, -EDQUOT, ... as the kernel says.
 */
int fattrs_fflag_set(int dirfd, const char *path, unsigned at_flags, mode_t mode, const struct fattrs_fsupport *fsup,
		     enum fattrs_fflag flag, bool on, unsigned int flags, unsigned int *ret_where);

#endif /* FATTRS_FFLAGS_H */
