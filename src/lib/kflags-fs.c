/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which kernel flags each file system type keeps (kflags.h:
 * fattrs_fskeep_find(), fattrs_fskeep_test()).  No system call says so:
 * FS_IOC_GETFLAGS and file_getattr(2) read a flag a file system ignores
 * as clear, and FS_IOC_SETFLAGS and file_setattr(2) often accept it and
 * drop it.  So xstat and setfattrs --list FILE read the answer from this
 * table, measured on Linux 6.18 (see below), by the mount's type string
 * (ext2, ext3 and ext4 share one statfs magic, and differ).
 *
 * Measured (2026-12-04, 6.18, as root without CAP_SYS_RESOURCE): on a
 * fresh file and a fresh directory per bit, FS_IOC_SETFLAGS with one more
 * FS_*_FL bit, and file_setattr(2) with one more FS_XFLAG_* bit (extsize
 * 64k with EXTSIZE, EXTSZINHERIT, COWEXTSIZE), each read back with
 * FS_IOC_GETFLAGS and file_getattr(2); cross-checked with chattr/lsattr
 * and xfs_io -c lsattr (tests/xstat/kept.bats, tests/setfattrs/list.bats).
 * "kept": reads back set; everything else returned 0 and read back clear,
 * or failed with EOPNOTSUPP or EINVAL.  Images as tests/helpers/fs.bash
 * makes them (mkfs defaults).
 *
 *   type   file (FS_*_FL letters)      dir adds   xflags kept
 *   tmpfs  i a d A                     -          immutable append nodump noatime
 *   ext4   s u c S i a d A t x (j: EPERM  D T P    those, sync, dax;
 *          without CAP_SYS_RESOURCE)              dir: projinherit
 *   ext3   as ext4 (the ext4 driver)   D T P      as ext4
 *   ext2   as ext4 (extents: EINVAL)   D T P      as ext4
 *   btrfs  c S i a d A m C             D          immutable append sync nodump noatime
 *   xfs    S i a d A x                 P          file: those, extsize nodefrag
 *                                                 filestream dax cowextsize (rtinherit
 *                                                 projinherit nosymlinks: dropped;
 *                                                 extszinherit: EINVAL); dir: those
 *                                                 but extsize (EINVAL), and rtinherit
 *                                                 projinherit nosymlinks extszinherit
 *   ramfs, ntfs-3g: neither call works (ENOTTY, EINVAL): kattr_get says so.
 *   overlay: its upper layer's (measured over tmpfs and ext4): not in the
 *   table, the type does not say which.
 *
 * Not measured, so not claimed either way ("maybe"): realtime on xfs (it
 * needs a realtime device), casenonpreserving there (7.2), casefold on
 * tmpfs and ext4 directories (a kernel with CONFIG_UNICODE; this one has
 * none).  The read-only flags ext4 sets itself (extents, index on
 * directories, inline-data, encrypted, verity, casefold) are kept where the
 * feature can be on: ext4, not ext2 or ext3 (incompatible features, which
 * those types refuse to mount), index on directories everywhere on ext.
 * Special files and symlinks: not in the table.
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "internal.h"

#define T_I FS_IMMUTABLE_FL
#define T_A FS_APPEND_FL
#define T_D FS_NODUMP_FL
#define T_AT FS_NOATIME_FL
#define T_BASE (T_I | T_A | T_D | T_AT)
#define X_BASE (FS_XFLAG_IMMUTABLE | FS_XFLAG_APPEND | FS_XFLAG_NODUMP | FS_XFLAG_NOATIME)

/* ext2/3/4 files: s u c S i a d A j t x; their read-only ones apart */
#define EXT_FILE (FS_SECRM_FL | FS_UNRM_FL | FS_COMPR_FL | FS_SYNC_FL | T_BASE | FS_JOURNAL_DATA_FL | \
		  FS_NOTAIL_FL | FS_DAX_FL)
#define EXT_DIR (EXT_FILE | FS_DIRSYNC_FL | FS_TOPDIR_FL | FS_PROJINHERIT_FL | FS_INDEX_FL)
#define EXT4_RO (FS_EXTENT_FL | FS_INLINE_DATA_FL | FS_ENCRYPT_FL | FS_VERITY_FL)
#define EXT_X (X_BASE | FS_XFLAG_SYNC | FS_XFLAG_DAX)

#define BTRFS_FILE (FS_COMPR_FL | FS_SYNC_FL | T_BASE | FS_NOCOMP_FL | FS_NOCOW_FL | FS_VERITY_FL)
#define XFS_FILE_I (FS_SYNC_FL | T_BASE | FS_DAX_FL)
#define XFS_X (X_BASE | FS_XFLAG_SYNC | FS_XFLAG_DAX | FS_XFLAG_NODEFRAG | FS_XFLAG_FILESTREAM | \
	       FS_XFLAG_COWEXTSIZE | FS_XFLAG_HASATTR)
#define XFS_X_MAYBE (FS_XFLAG_REALTIME | FS_XFLAG_CASENONPRESERVING)

/*
 * struct fattrs_fskeep - what one file system type keeps.
 * [0]: regular files, [1]: directories.  @iflags, @xflags: kept; @imaybe,
 * @xmaybe: not measured (neither kept nor not).
 */
struct fattrs_fskeep {
	const char *fstype;
	uint32_t iflags[2], xflags[2];
	uint32_t imaybe[2], xmaybe[2];
};

static const struct fattrs_fskeep fskeep[] = {
	{ .fstype = "tmpfs",
	  .iflags = { T_BASE, T_BASE }, .xflags = { X_BASE, X_BASE },
	  .imaybe = { 0, FS_CASEFOLD_FL } },
	{ .fstype = "ext4",
	  .iflags = { EXT_FILE | EXT4_RO, EXT_DIR | EXT4_RO },
	  .xflags = { EXT_X, EXT_X | FS_XFLAG_PROJINHERIT },
	  .imaybe = { 0, FS_CASEFOLD_FL } },
	{ .fstype = "ext3",
	  .iflags = { EXT_FILE, EXT_DIR }, .xflags = { EXT_X, EXT_X | FS_XFLAG_PROJINHERIT } },
	{ .fstype = "ext2",
	  .iflags = { EXT_FILE, EXT_DIR }, .xflags = { EXT_X, EXT_X | FS_XFLAG_PROJINHERIT } },
	{ .fstype = "btrfs",
	  .iflags = { BTRFS_FILE, BTRFS_FILE | FS_DIRSYNC_FL },
	  .xflags = { X_BASE | FS_XFLAG_SYNC, X_BASE | FS_XFLAG_SYNC } },
	{ .fstype = "xfs",
	  .iflags = { XFS_FILE_I, XFS_FILE_I | FS_PROJINHERIT_FL },
	  .xflags = { XFS_X | FS_XFLAG_EXTSIZE | FS_XFLAG_PREALLOC,
		      XFS_X | FS_XFLAG_RTINHERIT | FS_XFLAG_PROJINHERIT | FS_XFLAG_NOSYMLINKS |
		      FS_XFLAG_EXTSZINHERIT },
	  .xmaybe = { XFS_X_MAYBE, XFS_X_MAYBE | FS_XFLAG_PREALLOC } },
};

const struct fattrs_fskeep *fattrs_fskeep_find(const char *fstype)
{
	if (fstype == NULL)
		return NULL;
	for (size_t i = 0; i < sizeof(fskeep) / sizeof(fskeep[0]); i++)
		if (strcmp(fstype, fskeep[i].fstype) == 0)
			return &fskeep[i];
	return NULL;
}

int fattrs_fskeep_test(const struct fattrs_fskeep *k, mode_t mode, const struct fattrs_kflag *f)
{
	int d;

	if (k == NULL || (!S_ISREG(mode) && !S_ISDIR(mode)))
		return -1;
	d = S_ISDIR(mode);
	if ((f->iflag & k->iflags[d]) || (f->xflag & k->xflags[d]))
		return 1;
	if ((f->iflag & k->imaybe[d]) || (f->xflag & k->xmaybe[d]))
		return -1;
	return 0;
}
