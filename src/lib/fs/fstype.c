/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of filesystem types (fstype.h): statfs(2) magic, name as libmount has it, and what
 * each keeps, as measured (doc/kernel.md §2.5).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

#define BASE_IFLAGS (FS_IMMUTABLE_FL | FS_APPEND_FL | FS_NODUMP_FL | FS_NOATIME_FL)
#define BASE_XFLAGS (FS_XFLAG_IMMUTABLE | FS_XFLAG_APPEND | FS_XFLAG_NODUMP | FS_XFLAG_NOATIME)

/* ext2/3/4 files: s u c S i a d A j t x; their read-only ones apart */
#define EXT_FILE (FS_SECRM_FL | FS_UNRM_FL | FS_COMPR_FL | FS_SYNC_FL | BASE_IFLAGS | FS_JOURNAL_DATA_FL | \
		  FS_NOTAIL_FL | FS_DAX_FL)
#define EXT_DIR (EXT_FILE | FS_DIRSYNC_FL | FS_TOPDIR_FL | FS_PROJINHERIT_FL | FS_INDEX_FL)
#define EXT4_RO (FS_EXTENT_FL | FS_INLINE_DATA_FL | FS_ENCRYPT_FL | FS_VERITY_FL)
#define EXT_X (BASE_XFLAGS | FS_XFLAG_SYNC | FS_XFLAG_DAX)

#define BTRFS_FILE (FS_COMPR_FL | FS_SYNC_FL | BASE_IFLAGS | FS_NOCOMP_FL | FS_NOCOW_FL | FS_VERITY_FL)
#define XFS_FILE_I (FS_SYNC_FL | BASE_IFLAGS | FS_DAX_FL)
#define XFS_X (BASE_XFLAGS | FS_XFLAG_SYNC | FS_XFLAG_DAX | FS_XFLAG_NODEFRAG | FS_XFLAG_FILESTREAM | \
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
#define MAGIC_SELINUX 0xF97CFF8C

/* The answers of the table (enum fattrs_fsanswer), short enough for its rows. */
#define YES FATTRS_FS_YES
#define NO FATTRS_FS_NO

/* A local filesystem the kernel measured every answer of. */
#define LOCAL(xattr) .user_xattr = (xattr), .tmpfile = YES, .noreplace = YES, .links = YES, \
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
	{ .name = "tmpfs", .magic = MAGIC_TMPFS, .gnu_name = "tmpfs", LOCAL(YES),
	  .kept = { .measured = true, .iflags = { BASE_IFLAGS, BASE_IFLAGS }, .xflags = { BASE_XFLAGS, BASE_XFLAGS },
		    .imaybe = { 0, FS_CASEFOLD_FL } } },
	{ .name = "devtmpfs", .magic = MAGIC_TMPFS, .gnu_name = "tmpfs", PSEUDO },
	{ .name = "ext4", .magic = MAGIC_EXT, .gnu_name = "ext2/ext3", LOCAL(YES),
	  .kept = { .measured = true, .iflags = { EXT_FILE | EXT4_RO, EXT_DIR | EXT4_RO },
		    .xflags = { EXT_X, EXT_X | FS_XFLAG_PROJINHERIT },
		    .imaybe = { 0, FS_CASEFOLD_FL } } },
	{ .name = "ext3", .magic = MAGIC_EXT, .gnu_name = "ext2/ext3", LOCAL(YES),
	  .kept = { .measured = true, .iflags = { EXT_FILE, EXT_DIR },
		    .xflags = { EXT_X, EXT_X | FS_XFLAG_PROJINHERIT } } },
	{ .name = "ext2", .magic = MAGIC_EXT, .gnu_name = "ext2/ext3", LOCAL(YES),
	  .kept = { .measured = true, .iflags = { EXT_FILE, EXT_DIR },
		    .xflags = { EXT_X, EXT_X | FS_XFLAG_PROJINHERIT } } },
	{ .name = "btrfs", .magic = MAGIC_BTRFS, .gnu_name = "btrfs", LOCAL(YES),
	  .kept = { .measured = true, .iflags = { BTRFS_FILE, BTRFS_FILE | FS_DIRSYNC_FL },
		    .xflags = { BASE_XFLAGS | FS_XFLAG_SYNC, BASE_XFLAGS | FS_XFLAG_SYNC } } },
	{ .name = "xfs", .magic = MAGIC_XFS, .gnu_name = "xfs", LOCAL(YES), .special_kflags = true,
	  .kept = { .measured = true, .iflags = { XFS_FILE_I, XFS_FILE_I | FS_PROJINHERIT_FL },
		    .xflags = { XFS_X | FS_XFLAG_EXTSIZE | FS_XFLAG_PREALLOC,
				XFS_X | FS_XFLAG_RTINHERIT | FS_XFLAG_PROJINHERIT | FS_XFLAG_NOSYMLINKS |
				FS_XFLAG_EXTSZINHERIT },
		    .xmaybe = { XFS_X_MAYBE, XFS_X_MAYBE | FS_XFLAG_PREALLOC } } },
	/* ramfs: no user xattrs (EOPNOTSUPP), no kernel flags (ENOTTY) */
	{ .name = "ramfs", .magic = MAGIC_RAMFS, .gnu_name = "ramfs", LOCAL(NO) },
	/* overlayfs (6.10 for O_TMPFILE): its layers decide the rest */
	{ .name = "overlay", .magic = MAGIC_OVERLAY, .gnu_name = "overlayfs", .tmpfile = YES, .noreplace = YES, .links = YES,
	  .local = true, .copy_up = true, .kflags_per_file = true },
	/* FUSE: the server decides; the servers the tests mount have rows */
	{ .name = "fuse", .magic = MAGIC_FUSE, .gnu_name = "fuseblk", REMOTE, .kflags_per_file = true },
	{ .name = "fuseblk", .magic = MAGIC_FUSE, .gnu_name = "fuseblk", REMOTE, .kflags_per_file = true },
	{ .name = "fuse.sshfs", .magic = MAGIC_FUSE, .gnu_name = "fuseblk", .user_xattr = NO, .tmpfile = NO, .noreplace = NO,
	  .links = YES, REMOTE },
	{ .name = "fuse.glusterfs", .magic = MAGIC_FUSE, .gnu_name = "fuseblk", .user_xattr = YES, .tmpfile = NO, .noreplace = NO,
	  .links = YES, REMOTE },
	{ .name = "fuse.rclone", .magic = MAGIC_FUSE, .gnu_name = "fuseblk", .user_xattr = NO, .tmpfile = NO, .noreplace = NO,
	  .links = NO, REMOTE },
	/*
	 * The SMB client (O_TMPFILE since 7.1, never used: tmpfile_loses_name)
	 * and its DOS attribute word; the NFS client (RFC 8276 user xattrs).
	 * Kernel flags measured on 6.1, 6.12 and 7.2 against Samba 4.17 and
	 * knfsd (tests/vm): none kept; cifs passes compression to the server.
	 */
	{ .name = "cifs", .magic = MAGIC_CIFS, .gnu_name = "cifs", .tmpfile = NO, .noreplace = YES,
	  .links = YES, REMOTE, .native = FATTRS_NATIVE_CIFS, .tmpfile_loses_name = true,
	  .replace_removes_open = true,
	  .kept = { .measured = true, .imaybe = { FS_COMPR_FL, FS_COMPR_FL } } },
	{ .name = "smb3", .magic = MAGIC_SMB2, .gnu_name = "smb2", .tmpfile = NO, .noreplace = YES,
	  .links = YES, REMOTE, .native = FATTRS_NATIVE_CIFS, .tmpfile_loses_name = true,
	  .replace_removes_open = true,
	  .kept = { .measured = true, .imaybe = { FS_COMPR_FL, FS_COMPR_FL } } },
	{ .name = "nfs", .magic = MAGIC_NFS, .gnu_name = "nfs", .tmpfile = NO, .noreplace = NO,
	  .links = YES, REMOTE, .kept = { .measured = true } },
	{ .name = "nfs4", .magic = MAGIC_NFS, .gnu_name = "nfs", .tmpfile = NO, .noreplace = NO,
	  .links = YES, REMOTE, .kept = { .measured = true } },
	{ .name = "9p", .magic = MAGIC_V9FS, .gnu_name = "v9fs", REMOTE },
	/* sysfs: getxattr of a user.* name says ENODATA, setxattr EOPNOTSUPP */
	{ .name = "sysfs", .magic = MAGIC_SYSFS, .gnu_name = "sysfs", .user_xattr = NO, .tmpfile = NO, PSEUDO },
	{ .name = "proc", .magic = MAGIC_PROC, .gnu_name = "proc", .user_xattr = NO, PSEUDO },
	{ .name = "devpts", .magic = MAGIC_DEVPTS, .gnu_name = "devpts", .user_xattr = NO, .tmpfile = NO, PSEUDO },
	{ .name = "cgroup", .magic = MAGIC_CGROUP, .gnu_name = "cgroupfs", PSEUDO },
	{ .name = "cgroup2", .magic = MAGIC_CGROUP2, .gnu_name = "cgroup2fs", PSEUDO },
	{ .name = "mqueue", .magic = MAGIC_MQUEUE, .gnu_name = "mqueue", PSEUDO },
	{ .name = "securityfs", .magic = MAGIC_SECURITYFS, .gnu_name = "securityfs", PSEUDO },
	{ .name = "debugfs", .magic = MAGIC_DEBUGFS, .gnu_name = "debugfs", PSEUDO },
	{ .name = "tracefs", .magic = MAGIC_TRACEFS, .gnu_name = "tracefs", PSEUDO },
	{ .name = "pstore", .magic = MAGIC_PSTORE, .gnu_name = "pstorefs", PSEUDO },
	{ .name = "bpf", .magic = MAGIC_BPF, .gnu_name = "bpf_fs", PSEUDO },
	{ .name = "configfs", .magic = MAGIC_CONFIGFS, .gnu_name = "configfs", PSEUDO },
	{ .name = "hugetlbfs", .magic = MAGIC_HUGETLBFS, .gnu_name = "hugetlbfs", PSEUDO },
	{ .name = "binfmt_misc", .magic = MAGIC_BINFMT_MISC, .gnu_name = "binfmt_misc", PSEUDO },
	{ .name = "fusectl", .magic = MAGIC_FUSECTL, .gnu_name = "fusectl", PSEUDO },
	{ .name = "nsfs", .magic = MAGIC_NSFS, .gnu_name = "nsfs", PSEUDO },
	/* not measured: not in the trusted set */
	{ .name = "selinuxfs", .magic = MAGIC_SELINUX, .gnu_name = "selinux", .local = true },
	/*
	 * The other types GNU stat 9.1 has a name for (%%T), by magic only:
	 * no program here asks more of them.
	 */
	{ .magic = 0x5A3C69F0, .gnu_name = "aafs" }, { .magic = 0x61636673, .gnu_name = "acfs" },
	{ .magic = 0xADF5, .gnu_name = "adfs" }, { .magic = 0xADFF, .gnu_name = "affs" },
	{ .magic = 0x5346414F, .gnu_name = "afs" }, { .magic = 0x09041934, .gnu_name = "anon-inode FS" },
	{ .magic = 0x61756673, .gnu_name = "aufs" }, { .magic = 0x0187, .gnu_name = "autofs" },
	{ .magic = 0x13661366, .gnu_name = "balloon-kvm-fs" },
	{ .magic = 0x42465331, .gnu_name = "befs" }, { .magic = 0x62646576, .gnu_name = "bdevfs" },
	{ .magic = 0x1BADFACE, .gnu_name = "bfs" }, { .magic = 0x6C6F6F70, .gnu_name = "binderfs" },
	{ .magic = 0x73727279, .gnu_name = "btrfs_test" }, { .magic = 0x00C36400, .gnu_name = "ceph" },
	{ .magic = 0x73757245, .gnu_name = "coda" }, { .magic = 0x012FF7B7, .gnu_name = "coh" },
	{ .magic = 0x28CD3D45, .gnu_name = "cramfs" }, { .magic = 0x453DCD28, .gnu_name = "cramfs-wend" },
	{ .magic = 0x64646178, .gnu_name = "daxfs" }, { .magic = 0x1373, .gnu_name = "devfs" },
	{ .magic = 0x454D444D, .gnu_name = "devmem" }, { .magic = 0x444D4142, .gnu_name = "dma-buf-fs" },
	{ .magic = 0xF15F, .gnu_name = "ecryptfs" }, { .magic = 0xDE5E81E4, .gnu_name = "efivarfs" },
	{ .magic = 0x00414A53, .gnu_name = "efs" }, { .magic = 0xE0F5E1E2, .gnu_name = "erofs" },
	{ .magic = 0x2011BAB0, .gnu_name = "exfat" }, { .magic = 0x5DF5, .gnu_name = "exofs" },
	{ .magic = 0x137D, .gnu_name = "ext" }, { .magic = 0xEF51, .gnu_name = "ext2" },
	{ .magic = 0xF2F52010, .gnu_name = "f2fs" }, { .magic = 0x4006, .gnu_name = "fat" },
	{ .magic = 0x19830326, .gnu_name = "fhgfs" }, { .magic = 0x0BAD1DEA, .gnu_name = "futexfs" },
	{ .magic = 0x01161970, .gnu_name = "gfs/gfs2" }, { .magic = 0x47504653, .gnu_name = "gpfs" },
	{ .magic = 0x4244, .gnu_name = "hfs" }, { .magic = 0x482B, .gnu_name = "hfs+" },
	{ .magic = 0x4858, .gnu_name = "hfsx" }, { .magic = 0x00C0FFEE, .gnu_name = "hostfs" },
	{ .magic = 0xF995E849, .gnu_name = "hpfs" }, { .magic = 0x11307854, .gnu_name = "inodefs" },
	{ .magic = 0x013111A8, .gnu_name = "ibrix" }, { .magic = 0x2BAD1DEA, .gnu_name = "inotifyfs" },
	{ .magic = 0x9660, .gnu_name = "isofs" }, { .magic = 0x4004, .gnu_name = "isofs" },
	{ .magic = 0x4000, .gnu_name = "isofs" }, { .magic = 0x07C0, .gnu_name = "jffs" },
	{ .magic = 0x72B6, .gnu_name = "jffs2" }, { .magic = 0x3153464A, .gnu_name = "jfs" },
	{ .magic = 0x6B414653, .gnu_name = "k-afs" }, { .magic = 0xC97E8168, .gnu_name = "logfs" },
	{ .magic = 0x0BD00BD0, .gnu_name = "lustre" }, { .magic = 0x5346314D, .gnu_name = "m1fs" },
	{ .magic = 0x137F, .gnu_name = "minix" }, { .magic = 0x138F, .gnu_name = "minix (30 char.)" },
	{ .magic = 0x2468, .gnu_name = "minix v2" },
	{ .magic = 0x2478, .gnu_name = "minix v2 (30 char.)" }, { .magic = 0x4D5A, .gnu_name = "minix3" },
	{ .magic = 0x4D44, .gnu_name = "msdos" }, { .magic = 0x564C, .gnu_name = "novell" },
	{ .magic = 0x6E667364, .gnu_name = "nfsd" }, { .magic = 0x3434, .gnu_name = "nilfs" },
	{ .magic = 0x5346544E, .gnu_name = "ntfs" }, { .magic = 0x9FA1, .gnu_name = "openprom" },
	{ .magic = 0x7461636F, .gnu_name = "ocfs2" }, { .magic = 0xAAD7AAEA, .gnu_name = "panfs" },
	{ .magic = 0x50495045, .gnu_name = "pipefs" }, { .magic = 0xC7571590, .gnu_name = "ppc-cmm-fs" },
	{ .magic = 0x7C7C6673, .gnu_name = "prl_fs" }, { .magic = 0x002F, .gnu_name = "qnx4" },
	{ .magic = 0x68191122, .gnu_name = "qnx6" }, { .magic = 0x07655821, .gnu_name = "rdt" },
	{ .magic = 0x52654973, .gnu_name = "reiserfs" }, { .magic = 0x7275, .gnu_name = "romfs" },
	{ .magic = 0x67596969, .gnu_name = "rpc_pipefs" },
	{ .magic = 0x5DCA2DF5, .gnu_name = "sdcardfs" }, { .magic = 0x5345434D, .gnu_name = "secretmem" },
	{ .magic = 0x43415D53, .gnu_name = "smackfs" },
	{ .magic = 0x517B, .gnu_name = "smb" }, { .magic = 0xBEEFDEAD, .gnu_name = "snfs" },
	{ .magic = 0x534F434B, .gnu_name = "sockfs" }, { .magic = 0x73717368, .gnu_name = "squashfs" },
	{ .magic = 0x012FF7B6, .gnu_name = "sysv2" }, { .magic = 0x012FF7B5, .gnu_name = "sysv4" },
	{ .magic = 0x24051905, .gnu_name = "ubifs" }, { .magic = 0x15013346, .gnu_name = "udf" },
	{ .magic = 0x00011954, .gnu_name = "ufs" }, { .magic = 0x54190100, .gnu_name = "ufs" },
	{ .magic = 0x9FA2, .gnu_name = "usbdevfs" }, { .magic = 0x786F4256, .gnu_name = "vboxsf" },
	{ .magic = 0xBACBACBC, .gnu_name = "vmhgfs" }, { .magic = 0xA501FCF5, .gnu_name = "vxfs" },
	{ .magic = 0x565A4653, .gnu_name = "vzfs" }, { .magic = 0x53464846, .gnu_name = "wslfs" },
	{ .magic = 0xABBA1974, .gnu_name = "xenfs" }, { .magic = 0x012FF7B4, .gnu_name = "xenix" },
	{ .magic = 0x012FD16D, .gnu_name = "xia" }, { .magic = 0x0033, .gnu_name = "z3fold" },
	{ .magic = 0x2FC12FC1, .gnu_name = "zfs" }, { .magic = 0x5A4F4653, .gnu_name = "zonefs" },
	{ .magic = 0x58295829, .gnu_name = "zsmallocfs" },
};

#define N_FSTYPES (sizeof(fstypes) / sizeof(fstypes[0]))

const struct fattrs_fstype *fattrs_fstype_find(const char *name)
{
	if (name == NULL)
		return NULL;
	for (size_t i = 0; i < N_FSTYPES; i++) {
		if (fstypes[i].name != NULL && strcmp(name, fstypes[i].name) == 0)
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

const char *fattrs_fstype_gnu_name(uint32_t magic)
{
	const struct fattrs_fstype *t = fattrs_fstype_by_magic(magic);

	return t != NULL ? t->gnu_name : NULL;
}

int fattrs_fstype_keeps(const struct fattrs_fstype *t, mode_t mode, const struct fattrs_kflag *f)
{
	const struct fattrs_fstype_kept *k = t != NULL ? &t->kept : NULL;
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
