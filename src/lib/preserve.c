/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keeping what a replaced file had: owner and group, xattrs and ACLs, and mode, in that order
 * (doc/design.md §4).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <linux/fs.h>

#include <attr/error_context.h>
#include <attr/libattr.h>

#include "internal.h"

/* Everything but what xattr.conf says to skip: ACLs ("permissions") included. */
static int xattr_check(const char *name, struct error_context *ctx)
{
	return attr_copy_action(name, ctx) != ATTR_ACTION_SKIP;
}

/*
 * fattrs_preserve() for a source of owner @uid:@gid and mode @mode, open as
 * @src_fd, or not open (-1): then its xattrs cannot be read (-EACCES).
 */
static int preserve_as(uid_t uid, gid_t gid, mode_t mode, int src_fd, int dst_fd, unsigned int what,
		       unsigned int *ret_failed)
{
	unsigned int failed = 0;
	int first = 0;

	if (what & FATTRS_PRESERVE_OWNER) {
		if (fchown(dst_fd, uid, gid) < 0) {
			int r = negerrno();

			/*
			 * As cp(1) does: keep at least the group if we may.  Its
			 * own failure adds nothing: the owner already failed.
			 */
			bool group_kept = fchown(dst_fd, (uid_t)-1, gid) == 0;

			(void)group_kept;
			failed |= FATTRS_PRESERVE_OWNER;
			first = first ? first : r;
		}
	}
	if (what & FATTRS_PRESERVE_XATTR) {
		errno = 0;
		if (src_fd < 0) {
			failed |= FATTRS_PRESERVE_XATTR;
			first = first ? first : -EACCES;
		} else if (attr_copy_fd("", src_fd, "", dst_fd, xattr_check, NULL) != 0) {
			failed |= FATTRS_PRESERVE_XATTR;
			first = first ? first : negerrno();
		}
	}
	if (what & FATTRS_PRESERVE_MODE) {
		struct stat dst;

		mode &= 07777;
		/* Set-id bits only ever go with the owner and group they were set for. */
		if (fstat(dst_fd, &dst) < 0 || dst.st_uid != uid || dst.st_gid != gid)
			mode &= ~(mode_t)(S_ISUID | S_ISGID);
		if (fchmod(dst_fd, mode) < 0) {
			failed |= FATTRS_PRESERVE_MODE;
			first = first ? first : negerrno();
		}
	}
	if (ret_failed != NULL)
		*ret_failed = failed;
	return first;
}

int fattrs_preserve(int src_fd, int dst_fd, unsigned int what, unsigned int *ret_failed)
{
	struct stat st;

	if (fstat(src_fd, &st) < 0)
		return negerrno();
	return preserve_as(st.st_uid, st.st_gid, st.st_mode, src_fd, dst_fd, what, ret_failed);
}

int fattrs_preserve_stat(const struct fattrs_statx_buf *src, int dst_fd, unsigned int what,
			 unsigned int *ret_failed)
{
	return preserve_as(src->stx_uid, src->stx_gid, src->stx_mode, -1, dst_fd, what, ret_failed);
}

/*
 * Kernel flags that say how a file's data is kept, carried to a file that
 * replaces it.  Not immutable or append: such a file is never replaced
 * (the caller refuses it), and a new file must stay writable until done.
 */
static const char *const carried_kflags[] = {
	"nodump", "noatime", "sync", "nocow", "compress", "nocompress", "notail", "dax",
};

int fattrs_preserve_kflags(int dirfd, const char *path, int dst_fd)
{
	struct fattrs_kchange c = { 0 };
	struct fattrs_kattr a;
	struct fsxattr fsx;
	bool any = false;
	int r;

	r = fattrs_kattr_get(dirfd, path, path == NULL || *path == '\0' ? AT_EMPTY_PATH : AT_SYMLINK_NOFOLLOW,
			     S_IFREG, FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &a);
	if (r == -EOPNOTSUPP)
		return 0;	/* the old file's filesystem keeps none */
	if (r < 0)
		return r;
	for (size_t i = 0; i < sizeof(carried_kflags) / sizeof(carried_kflags[0]); i++) {
		const struct fattrs_kflag *f = fattrs_kflag_find(carried_kflags[i]);

		if (f != NULL && fattrs_kattr_test(&a, f) == 1 && fattrs_kchange_add(&c, f, true) == 0)
			any = true;
	}
	r = any ? fattrs_kattr_change(dst_fd, "", AT_EMPTY_PATH, S_IFREG, &c, NULL) : 0;
	if (r > 0)
		r = 0;
	/* The project id (xfs, ext4 with quotas): a number, not a flag. */
	if ((a.have & FATTRS_KATTR_XFLAGS) && a.projid != 0 &&
	    ioctl(dst_fd, FS_IOC_FSGETXATTR, &fsx) == 0 && fsx.fsx_projid != a.projid) {
		fsx.fsx_projid = a.projid;
		if (ioctl(dst_fd, FS_IOC_FSSETXATTR, &fsx) < 0 && r == 0)
			r = negerrno();
	}
	return r;
}

/* ACL tags and the header of system.posix_acl_* values (linux/posix_acl_xattr.h). */
#define ACL_XATTR_VERSION 0x0002
#define ACL_TAG_USER_OBJ 0x01
#define ACL_TAG_GROUP_OBJ 0x04
#define ACL_TAG_MASK 0x10
#define ACL_TAG_OTHER 0x20

int fattrs_new_file_mode(int dirfd, const char *dir, mode_t mode, mode_t *ret)
{
	unsigned char buf[8192];
	int fd = openat(dirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	unsigned user = 7, group = 7, mask = 8, other = 7;
	ssize_t n;

	if (fd < 0)
		return negerrno();
	n = fgetxattr(fd, "system.posix_acl_default", buf, sizeof(buf));
	(void)close(fd);
	if (n < 4 || buf[0] != (ACL_XATTR_VERSION & 0xff) || buf[1] != 0) {
		/* No default ACL: the umask applies. */
		mode_t mask_now = umask(0);

		(void)umask(mask_now);
		*ret = mode & ~mask_now & 07777;
		return 0;
	}
	/*
	 * As the kernel's posix_acl_create_masq(): the umask does not apply;
	 * the mode is @mode limited by the ACL's owner, mask (or group, with
	 * no mask) and other entries.
	 */
	for (ssize_t off = 4; off + 8 <= n; off += 8) {
		unsigned tag = buf[off] | (unsigned)buf[off + 1] << 8;
		unsigned perm = (buf[off + 2] | (unsigned)buf[off + 3] << 8) & 7;

		if (tag == ACL_TAG_USER_OBJ)
			user = perm;
		else if (tag == ACL_TAG_GROUP_OBJ)
			group = perm;
		else if (tag == ACL_TAG_MASK)
			mask = perm;
		else if (tag == ACL_TAG_OTHER)
			other = perm;
	}
	*ret = (mode & 07000) | (mode & (mode_t)(user << 6 | (mask != 8 ? mask : group) << 3 | other));
	return 0;
}
