/* SPDX-License-Identifier: GPL-2.0-or-later */
/* statx(2) into the full layout of Linux 6.16, whatever the build headers say. */
#include "config.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "internal.h"

int fattrs_statx(int dirfd, const char *path, int flags, unsigned int mask,
		 struct fattrs_statx_buf *ret)
{
	struct fattrs_statx_buf stx;

	/* ESTALE: asked once more, as fattrs_openat() does. */
	if (syscall(SYS_statx, dirfd, path, flags, mask, &stx) < 0 &&
	    (errno != ESTALE || syscall(SYS_statx, dirfd, path, flags, mask, &stx) < 0))
		return negerrno();
	*ret = stx;
	return 0;
}

int fattrs_stat_mnt(int dirfd, const char *path, unsigned at_flags, struct stat *ret, uint64_t *ret_mnt_id)
{
	struct fattrs_statx_buf stx;
	int r = fattrs_statx(dirfd, path, (int)at_flags, STATX_BASIC_STATS | STATX_MNT_ID, &stx);

	*ret_mnt_id = 0;
	if (r == -ENOSYS)
		return fstatat(dirfd, path, ret, (int)(at_flags & ~(unsigned)(AT_STATX_FORCE_SYNC | AT_STATX_DONT_SYNC)));
	if (r < 0) {
		errno = -r;
		return -1;
	}
	*ret = (struct stat){ .st_mode = stx.stx_mode, .st_ino = stx.stx_ino, .st_nlink = stx.stx_nlink,
			      .st_uid = stx.stx_uid, .st_gid = stx.stx_gid, .st_size = (off_t)stx.stx_size,
			      .st_blocks = (blkcnt_t)stx.stx_blocks, .st_blksize = (blksize_t)stx.stx_blksize };
	ret->st_dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	ret->st_rdev = makedev(stx.stx_rdev_major, stx.stx_rdev_minor);
	ret->st_atim = (struct timespec){ .tv_sec = stx.stx_atime.tv_sec, .tv_nsec = stx.stx_atime.tv_nsec };
	ret->st_mtim = (struct timespec){ .tv_sec = stx.stx_mtime.tv_sec, .tv_nsec = stx.stx_mtime.tv_nsec };
	ret->st_ctim = (struct timespec){ .tv_sec = stx.stx_ctime.tv_sec, .tv_nsec = stx.stx_ctime.tv_nsec };
	if (stx.stx_mask & STATX_MNT_ID)
		*ret_mnt_id = stx.stx_mnt_id;
	return 0;
}
