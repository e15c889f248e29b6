/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of filesystem types (fstype.h): statfs(2) magic, name as
 * libmount has it, and what each keeps.  No system call says whether a
 * filesystem keeps user xattrs, a kernel flag, O_TMPFILE, RENAME_NOREPLACE
 * or links short of trying; the table says it once, from measurements
 * (doc/kernel.md; tests/lib/fstype.bats checks the rows of the types the
 * tests mount against what the kernel does).
 *
 * The kernel flags each type keeps: FS_IOC_GETFLAGS and file_getattr(2)
 * read a flag a filesystem ignores as clear, and FS_IOC_SETFLAGS and
 * file_setattr(2) often accept it and drop it.  So xstat and setfattrs
 * --list FILE read the answer from the table, by the mount's type string
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

#include <errno.h>
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

/* statfs(2) magic numbers (linux/magic.h, fs/smb/client/cifsglob.h) */
#define MAGIC_TMPFS 0x01021994
#define MAGIC_RAMFS 0x858458F6
#define MAGIC_EXT 0xEF53	/* ext2, ext3 and ext4 */
#define MAGIC_XFS 0x58465342
#define MAGIC_BTRFS 0x9123683E
#define MAGIC_OVERLAY 0x794C7630
#define MAGIC_FUSE 0x65735546
#define MAGIC_CIFS 0xFF534D42
#define MAGIC_SMB2 0xFE534D42
#define MAGIC_NFS 0x6969
#define MAGIC_V9FS 0x01021997
#define MAGIC_SYSFS 0x62656572
#define MAGIC_PROC 0x9FA0
#define MAGIC_DEVPTS 0x1CD1
#define MAGIC_CGROUP 0x0027E0EB
#define MAGIC_CGROUP2 0x63677270
#define MAGIC_MQUEUE 0x19800202
#define MAGIC_SECURITYFS 0x73636673
#define MAGIC_DEBUGFS 0x64626720
#define MAGIC_TRACEFS 0x74726163
#define MAGIC_PSTORE 0x6165676C
#define MAGIC_BPF 0xCAFE4A11
#define MAGIC_CONFIGFS 0x62656570
#define MAGIC_HUGETLBFS 0x958458F6
#define MAGIC_BINFMT_MISC 0x42494E4D
#define MAGIC_FUSECTL 0x65735543
#define MAGIC_NSFS 0x6E736673

#define Y FATTRS_FS_YES
#define N FATTRS_FS_NO

/* A local filesystem the kernel measured every answer of. */
#define LOCAL(xattr) .user_xattr = (xattr), .tmpfile = Y, .noreplace = Y, .links = Y, \
		     .local = true, .flags_trusted = true
/* A kernel-internal filesystem: keeps no kernel flags, or refuses them loudly. */
#define PSEUDO .local = true, .flags_trusted = true
/* A FUSE server or a network filesystem (doc/kernel.md §6). */
#define REMOTE .remote = true

/*
 * The table.  Where types share a magic the one fattrs_fstype_by_magic()
 * finds comes first.  What a row does not say is FATTRS_FS_UNKNOWN.
 */
static const struct fattrs_fstype fstypes[] = {
	{ .name = "tmpfs", .magic = MAGIC_TMPFS, LOCAL(Y),
	  .kept = { .measured = true, .iflags = { T_BASE, T_BASE }, .xflags = { X_BASE, X_BASE },
		    .imaybe = { 0, FS_CASEFOLD_FL } } },
	{ .name = "devtmpfs", .magic = MAGIC_TMPFS, PSEUDO },
	{ .name = "ext4", .magic = MAGIC_EXT, LOCAL(Y),
	  .kept = { .measured = true, .iflags = { EXT_FILE | EXT4_RO, EXT_DIR | EXT4_RO },
		    .xflags = { EXT_X, EXT_X | FS_XFLAG_PROJINHERIT },
		    .imaybe = { 0, FS_CASEFOLD_FL } } },
	{ .name = "ext3", .magic = MAGIC_EXT, LOCAL(Y),
	  .kept = { .measured = true, .iflags = { EXT_FILE, EXT_DIR },
		    .xflags = { EXT_X, EXT_X | FS_XFLAG_PROJINHERIT } } },
	{ .name = "ext2", .magic = MAGIC_EXT, LOCAL(Y),
	  .kept = { .measured = true, .iflags = { EXT_FILE, EXT_DIR },
		    .xflags = { EXT_X, EXT_X | FS_XFLAG_PROJINHERIT } } },
	{ .name = "btrfs", .magic = MAGIC_BTRFS, LOCAL(Y),
	  .kept = { .measured = true, .iflags = { BTRFS_FILE, BTRFS_FILE | FS_DIRSYNC_FL },
		    .xflags = { X_BASE | FS_XFLAG_SYNC, X_BASE | FS_XFLAG_SYNC } } },
	{ .name = "xfs", .magic = MAGIC_XFS, LOCAL(Y), .special_kflags = true,
	  .kept = { .measured = true, .iflags = { XFS_FILE_I, XFS_FILE_I | FS_PROJINHERIT_FL },
		    .xflags = { XFS_X | FS_XFLAG_EXTSIZE | FS_XFLAG_PREALLOC,
				XFS_X | FS_XFLAG_RTINHERIT | FS_XFLAG_PROJINHERIT | FS_XFLAG_NOSYMLINKS |
				FS_XFLAG_EXTSZINHERIT },
		    .xmaybe = { XFS_X_MAYBE, XFS_X_MAYBE | FS_XFLAG_PREALLOC } } },
	/* ramfs: no user xattrs (EOPNOTSUPP), no kernel flags (ENOTTY) */
	{ .name = "ramfs", .magic = MAGIC_RAMFS, LOCAL(N) },
	/* overlayfs (6.10 for O_TMPFILE): its layers decide the rest */
	{ .name = "overlay", .magic = MAGIC_OVERLAY, .tmpfile = Y, .noreplace = Y, .links = Y,
	  .local = true, .copy_up = true },
	/* FUSE: the server decides; the servers the tests mount have rows */
	{ .name = "fuse", .magic = MAGIC_FUSE, REMOTE },
	{ .name = "fuseblk", .magic = MAGIC_FUSE, REMOTE },
	{ .name = "fuse.sshfs", .magic = MAGIC_FUSE, .user_xattr = N, .tmpfile = N, .noreplace = N,
	  .links = Y, REMOTE },
	{ .name = "fuse.glusterfs", .magic = MAGIC_FUSE, .user_xattr = Y, .tmpfile = N, .noreplace = N,
	  .links = Y, REMOTE },
	{ .name = "fuse.rclone", .magic = MAGIC_FUSE, .user_xattr = N, .tmpfile = N, .noreplace = N,
	  .links = N, REMOTE },
	/* the SMB client (O_TMPFILE since 7.1): its DOS attribute word */
	{ .name = "cifs", .magic = MAGIC_CIFS, .tmpfile = N, REMOTE, .native = FATTRS_NATIVE_CIFS },
	{ .name = "smb3", .magic = MAGIC_SMB2, .tmpfile = N, REMOTE, .native = FATTRS_NATIVE_CIFS },
	{ .name = "nfs", .magic = MAGIC_NFS, .tmpfile = N, REMOTE },
	{ .name = "nfs4", .magic = MAGIC_NFS, .tmpfile = N, REMOTE },
	{ .name = "9p", .magic = MAGIC_V9FS, REMOTE },
	/* sysfs: getxattr of a user.* name says ENODATA, setxattr EOPNOTSUPP */
	{ .name = "sysfs", .magic = MAGIC_SYSFS, .user_xattr = N, .tmpfile = N, PSEUDO },
	{ .name = "proc", .magic = MAGIC_PROC, .user_xattr = N, PSEUDO },
	{ .name = "devpts", .magic = MAGIC_DEVPTS, .user_xattr = N, .tmpfile = N, PSEUDO },
	{ .name = "cgroup", .magic = MAGIC_CGROUP, PSEUDO },
	{ .name = "cgroup2", .magic = MAGIC_CGROUP2, PSEUDO },
	{ .name = "mqueue", .magic = MAGIC_MQUEUE, PSEUDO },
	{ .name = "securityfs", .magic = MAGIC_SECURITYFS, PSEUDO },
	{ .name = "debugfs", .magic = MAGIC_DEBUGFS, PSEUDO },
	{ .name = "tracefs", .magic = MAGIC_TRACEFS, PSEUDO },
	{ .name = "pstore", .magic = MAGIC_PSTORE, PSEUDO },
	{ .name = "bpf", .magic = MAGIC_BPF, PSEUDO },
	{ .name = "configfs", .magic = MAGIC_CONFIGFS, PSEUDO },
	{ .name = "hugetlbfs", .magic = MAGIC_HUGETLBFS, PSEUDO },
	{ .name = "binfmt_misc", .magic = MAGIC_BINFMT_MISC, PSEUDO },
	{ .name = "fusectl", .magic = MAGIC_FUSECTL, PSEUDO },
	{ .name = "nsfs", .magic = MAGIC_NSFS, PSEUDO },
};

#define N_FSTYPES (sizeof(fstypes) / sizeof(fstypes[0]))

const struct fattrs_fstype *fattrs_fstype_find(const char *name)
{
	if (name == NULL)
		return NULL;
	for (size_t i = 0; i < N_FSTYPES; i++) {
		if (strcmp(name, fstypes[i].name) == 0)
			return &fstypes[i];
	}
	/* a FUSE server without a row: what FUSE is */
	if (strncmp(name, "fuse.", 5) == 0)
		return fattrs_fstype_find("fuse");
	return NULL;
}

const struct fattrs_fstype *fattrs_fstype_by_magic(uint32_t magic)
{
	for (size_t i = 0; i < N_FSTYPES; i++) {
		if (fstypes[i].magic == magic)
			return &fstypes[i];
	}
	return NULL;
}

const struct fattrs_fskeep *fattrs_fskeep_find(const char *fstype)
{
	const struct fattrs_fstype *t = fattrs_fstype_find(fstype);

	return t != NULL && t->kept.measured ? &t->kept : NULL;
}

int fattrs_fskeep_test(const struct fattrs_fskeep *k, mode_t mode, const struct fattrs_kflag *f)
{
	int d;

	if (k == NULL || !k->measured || (!S_ISREG(mode) && !S_ISDIR(mode)))
		return -1;
	d = S_ISDIR(mode);
	if ((f->iflag & k->iflags[d]) || (f->xflag & k->xflags[d]))
		return 1;
	if ((f->iflag & k->imaybe[d]) || (f->xflag & k->xmaybe[d]))
		return -1;
	return 0;
}

int fattrs_fstype_keeps(const struct fattrs_fstype *t, mode_t mode, const struct fattrs_kflag *f)
{
	return fattrs_fskeep_test(t != NULL ? &t->kept : NULL, mode, f);
}

enum fattrs_fstate fattrs_kflag_state(const struct fattrs_kflag *f, const struct fattrs_statx_buf *stx,
				      const struct fattrs_kattr *a, int aerr, const struct fattrs_fstype *keeps,
				      enum fattrs_fsanswer *ret_support)
{
	/* statx's DAX bit is the state in effect, in every mask: not the flag */
	uint64_t sx = f->statx_attr == STATX_ATTR_DAX ? 0 : f->statx_attr;
	enum fattrs_fsanswer support = FATTRS_FS_UNKNOWN;
	enum fattrs_fstate s;
	int v;

	if (sx != 0 && stx != NULL) {
		if (stx->stx_attributes_mask & sx) {
			support = FATTRS_FS_YES;
			s = (stx->stx_attributes & sx) ? FATTRS_FSET : FATTRS_FCLEAR;
		} else {
			support = FATTRS_FS_NO;
			s = FATTRS_FUNSUPPORTED;
		}
		goto out;
	}
	if (a == NULL) {
		if (aerr == -EOPNOTSUPP) {
			support = FATTRS_FS_NO;
			s = FATTRS_FUNSUPPORTED;
		} else {
			s = FATTRS_FUNREADABLE;
		}
		goto out;
	}
	v = fattrs_kattr_test(a, f);
	if (v < 0) {
		/* the word it lives in cannot be read here */
		support = FATTRS_FS_NO;
		s = FATTRS_FUNSUPPORTED;
	} else if (v == 1) {
		support = FATTRS_FS_YES;
		s = FATTRS_FSET;
	} else {
		int k = fattrs_fstype_keeps(keeps, stx != NULL ? stx->stx_mode : 0, f);

		support = k == 1 ? FATTRS_FS_YES : k == 0 ? FATTRS_FS_NO : FATTRS_FS_UNKNOWN;
		s = k == 0 ? FATTRS_FUNSUPPORTED : FATTRS_FCLEAR;
	}
out:
	if (ret_support != NULL)
		*ret_support = support;
	return s;
}
