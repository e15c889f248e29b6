/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel ABI newer than the build headers (Debian 12's are Linux 6.1's): each value once,
 * under #ifndef, with the kernel version it comes from (doc/style.md, Kernel compatibility).
 */
#ifndef FATTRS_COMPAT_LINUX_H
#define FATTRS_COMPAT_LINUX_H

#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <linux/fs.h>	/* FS_IOC_*, FS_XFLAG_*, FS_*_FL: backfilled below */

/* ---- include/uapi/linux/fcntl.h ---- */
#ifndef O_TMPFILE
# define O_TMPFILE (020000000 | O_DIRECTORY)	/* Linux 3.11 */
#endif
#ifndef AT_EMPTY_PATH
# define AT_EMPTY_PATH 0x1000			/* Linux 2.6.39 */
#endif
#ifndef AT_STATX_FORCE_SYNC
# define AT_STATX_FORCE_SYNC 0x2000		/* Linux 4.11 */
#endif
#ifndef AT_STATX_DONT_SYNC
# define AT_STATX_DONT_SYNC 0x4000		/* Linux 4.11 */
#endif
#ifndef RENAME_NOREPLACE
# define RENAME_NOREPLACE (1 << 0)		/* Linux 3.15, include/uapi/linux/fs.h */
#endif
#ifndef RENAME_EXCHANGE
# define RENAME_EXCHANGE (1 << 1)		/* Linux 3.15, include/uapi/linux/fs.h */
#endif

/* ---- include/uapi/linux/stat.h ---- */
#ifndef STATX_MNT_ID
# define STATX_MNT_ID 0x00001000U		/* Linux 5.8 */
#endif
#ifndef STATX_DIOALIGN
# define STATX_DIOALIGN 0x00002000U		/* Linux 6.1 */
#endif
#ifndef STATX_MNT_ID_UNIQUE
# define STATX_MNT_ID_UNIQUE 0x00004000U	/* Linux 6.8 */
#endif
#ifndef STATX_SUBVOL
# define STATX_SUBVOL 0x00008000U		/* Linux 6.10 */
#endif
#ifndef STATX_WRITE_ATOMIC
# define STATX_WRITE_ATOMIC 0x00010000U		/* Linux 6.11 */
#endif
#ifndef STATX_DIO_READ_ALIGN
# define STATX_DIO_READ_ALIGN 0x00020000U	/* Linux 6.14 */
#endif
#ifndef STATX_ATTR_WRITE_ATOMIC
# define STATX_ATTR_WRITE_ATOMIC 0x00400000	/* Linux 6.11 */
#endif

/*
 * struct statx as of Linux 6.16 (unchanged through 7.2-rc1).  The 6.1
 * header's struct statx stops at stx_dio_offset_align, so the full layout
 * is carried under another name.
 */
struct fattrs_statx_timestamp {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t __reserved;
};

struct fattrs_statx_buf {
	uint32_t stx_mask;
	uint32_t stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink;
	uint32_t stx_uid;
	uint32_t stx_gid;
	uint16_t stx_mode;
	uint16_t __spare0[1];
	uint64_t stx_ino;
	uint64_t stx_size;
	uint64_t stx_blocks;
	uint64_t stx_attributes_mask;
	struct fattrs_statx_timestamp stx_atime;
	struct fattrs_statx_timestamp stx_btime;
	struct fattrs_statx_timestamp stx_ctime;
	struct fattrs_statx_timestamp stx_mtime;
	uint32_t stx_rdev_major;
	uint32_t stx_rdev_minor;
	uint32_t stx_dev_major;
	uint32_t stx_dev_minor;
	uint64_t stx_mnt_id;
	uint32_t stx_dio_mem_align;		/* Linux 6.1 */
	uint32_t stx_dio_offset_align;		/* Linux 6.1 */
	uint64_t stx_subvol;			/* Linux 6.10 */
	uint32_t stx_atomic_write_unit_min;	/* Linux 6.11 */
	uint32_t stx_atomic_write_unit_max;	/* Linux 6.11 */
	uint32_t stx_atomic_write_segments_max;	/* Linux 6.11 */
	uint32_t stx_dio_read_offset_align;	/* Linux 6.14 */
	uint32_t stx_atomic_write_unit_max_opt;	/* Linux 6.16 */
	uint32_t __spare2[1];
	uint64_t __spare3[8];
};

_Static_assert(sizeof(struct fattrs_statx_buf) == 256, "struct statx is 256 bytes");

/* ---- include/uapi/linux/stat.h: stx_attributes ---- */
#ifndef STATX_ATTR_VERITY
# define STATX_ATTR_VERITY 0x00100000		/* Linux 5.5 */
#endif
#ifndef STATX_ATTR_DAX
# define STATX_ATTR_DAX 0x00200000		/* Linux 5.8 */
#endif

/* ---- include/uapi/linux/fs.h ---- */
#ifndef FS_XFLAG_VERITY
# define FS_XFLAG_VERITY 0x00020000		/* Linux 7.0, read-only */
#endif
#ifndef FS_XFLAG_CASEFOLD
# define FS_XFLAG_CASEFOLD 0x00040000		/* Linux 7.2, read-only */
#endif
#ifndef FS_XFLAG_CASENONPRESERVING
# define FS_XFLAG_CASENONPRESERVING 0x00080000	/* Linux 7.2, read-only */
#endif

/*
 * struct file_attr of file_getattr(2)/file_setattr(2), Linux 6.17
 * (FILE_ATTR_SIZE_VER0).  The kernel zero-fills a larger buffer and
 * rejects a smaller one, so this size is the one to pass.
 */
struct fattrs_file_attr {
	uint64_t fa_xflags;	/* FS_XFLAG_* */
	uint32_t fa_extsize;
	uint32_t fa_nextents;	/* get only */
	uint32_t fa_projid;
	uint32_t fa_cowextsize;
};

_Static_assert(sizeof(struct fattrs_file_attr) == 24, "struct file_attr is 24 bytes");

/* ---- arch/x86/entry/syscalls, include/uapi/asm-generic/unistd.h ---- */
#ifndef __NR_file_getattr
# if defined(__alpha__)
#  define __NR_file_getattr 578			/* Linux 6.17 */
#  define __NR_file_setattr 579			/* Linux 6.17 */
# else
#  define __NR_file_getattr 468			/* Linux 6.17 */
#  define __NR_file_setattr 469			/* Linux 6.17 */
# endif
#endif
#ifndef __NR_setxattrat
# if defined(__alpha__)
#  define __NR_setxattrat 573			/* Linux 6.13 */
#  define __NR_getxattrat 574			/* Linux 6.13 */
#  define __NR_listxattrat 575			/* Linux 6.13 */
#  define __NR_removexattrat 576		/* Linux 6.13 */
# else
#  define __NR_setxattrat 463			/* Linux 6.13 */
#  define __NR_getxattrat 464			/* Linux 6.13 */
#  define __NR_listxattrat 465			/* Linux 6.13 */
#  define __NR_removexattrat 466		/* Linux 6.13 */
# endif
#endif

/*
 * struct xattr_args of setxattrat(2)/getxattrat(2), Linux 6.13
 * (XATTR_ARGS_SIZE_VER0): the value's address and size, and the
 * setxattr(2) flags (0 for a get).  include/uapi/linux/xattr.h.
 */
struct fattrs_xattr_args {
	uint64_t value;		/* __aligned_u64: a user pointer */
	uint32_t size;
	uint32_t flags;
};

_Static_assert(sizeof(struct fattrs_xattr_args) == 16, "struct xattr_args is 16 bytes");

#endif /* FATTRS_COMPAT_LINUX_H */
