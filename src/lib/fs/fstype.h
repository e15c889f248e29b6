/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What is true of each filesystem type: its statfs(2) magic, its name and what it keeps, in one
 * table (fstype.c).  Included from fattrs.h, after fflags.h.
 */
#ifndef FATTRS_FSTYPE_H
#define FATTRS_FSTYPE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct fattrs_kflag;

/* An answer the table gives: measured yes, measured no, or not known. */
enum fattrs_fsanswer {
	FATTRS_FS_UNKNOWN = 0,
	FATTRS_FS_YES,
	FATTRS_FS_NO,
};

/**
 * struct fattrs_fstype_kept - the kernel flags a type keeps, as measured:
 * set, they read back set.  [0]: regular files, [1]: directories.
 * @measured: the rest of the row means something (else: not measured)
 * @iflags, @xflags: FS_*_FL and FS_XFLAG_* bits kept
 * @imaybe, @xmaybe: bits not measured (neither kept nor not)
 */
struct fattrs_fstype_kept {
	bool measured;
	uint32_t iflags[2], xflags[2];
	uint32_t imaybe[2], xmaybe[2];
};

/**
 * struct fattrs_fstype - one filesystem type.  Rows come from the table
 * only (fattrs_fstype_find(), fattrs_fstype_by_magic()).
 * @name:       the type as libmount and findmnt(8) name it ("ext4",
 *              "fuse.sshfs"); "fuse" and "fuseblk" stand for every FUSE
 *              server without a row of its own
 *              (NULL: a row GNU stat's names only, by magic)
 * @magic:      statfs(2) f_type (ext2, ext3 and ext4 share one)
 * @gnu_name:   what GNU stat 9.1 calls the magic (%T: "ext2/ext3")
 * @user_xattr: user.* xattrs on regular files and directories
 * @tmpfile:    open(2) O_TMPFILE
 * @noreplace:  renameat2(2) RENAME_NOREPLACE
 * @links:      link(2)
 * @local:      the kernel alone changes it: no server or other client
 *              renames, links or changes flags behind the caller's back
 * @remote:     a server decides, per file, what it keeps (FUSE, network):
 *              no answer seen on one file holds for the next
 * @flags_trusted: keeps nodump, noatime and sync on every file of a type
 *              it takes them for, or refuses them loudly (or keeps no
 *              kernel flags at all): after one change of each was read
 *              back on a mount, the next need not be
 * @special_kflags: file_getattr(2) reaches the kernel flags of symlinks
 *              and special files too (xfs since 6.18)
 * @copy_up:    stacked (overlayfs): a change of a lower file copies it up,
 *              and what it keeps is its upper layer's
 * @kflags_per_file: whether a file has kernel flags at all may differ from
 *              one file to the next on a mount: a stacked filesystem asks
 *              each file's own layer (overlayfs), a FUSE server without a
 *              row may pass the calls on to branches of several types
 *              (mergerfs); elsewhere a refusal (ENOTTY, EOPNOTSUPP) for a
 *              file of a type holds for every such file of the mount
 * @tmpfile_loses_name: O_TMPFILE works, but a file made so, linked and
 *              renamed over another name, ends under neither (cifs 7.2
 *              against Samba 4.17, doc/kernel.md §6): never used there
 * @replace_removes_open: a rename over a file that this client holds open
 *              is refused by the server, and the client (Linux before 7.1,
 *              measured on 6.1 and 6.12 against Samba 4.17) removed the
 *              target first: it is gone once its opener closes it
 * @native:     the native attribute word to look for beyond
 *              system.ntfs_attrib (the SMB client's), or FATTRS_NATIVE_NONE
 * @kept:       the kernel flags it keeps
 */
struct fattrs_fstype {
	const char *name;
	uint32_t magic;
	const char *gnu_name;
	enum fattrs_fsanswer user_xattr, tmpfile, noreplace, links;
	bool local, remote, flags_trusted, special_kflags, copy_up, kflags_per_file, tmpfile_loses_name,
	     replace_removes_open;
	enum fattrs_native native;
	struct fattrs_fstype_kept kept;
};

/**
 * fattrs_fstype_by_magic() - a type by its statfs(2) f_type.  Where types
 * share a magic (ext2, ext3, ext4; tmpfs, devtmpfs; fuse, fuseblk), the
 * first row: what they have in common is what a magic can tell.
 *
 * Returns: the row, or NULL.
 */
const struct fattrs_fstype *fattrs_fstype_by_magic(uint32_t magic);

/**
 * fattrs_fstype_gnu_name() - what GNU stat(1) 9.1 calls statfs(2) magic
 * @magic (its %T: "ext2/ext3", "tmpfs", "fuseblk", ...).
 *
 * Returns: the name, or NULL for a magic GNU stat has no name for.
 */
const char *fattrs_fstype_gnu_name(uint32_t magic);

#endif /* FATTRS_FSTYPE_H */
