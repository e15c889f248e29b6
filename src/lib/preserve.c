/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keeping what a replaced file had: owner and group, xattrs and ACLs
 * (libattr's attr_copy_fd(), honouring /etc/xattr.conf's "skip" entries),
 * and mode — in that order, since chown(2) clears set-id bits and
 * security.capability, and an ACL rewrites the group bits of the mode.
 */
#include "config.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <attr/error_context.h>
#include <attr/libattr.h>

#include "internal.h"

/* Everything but what xattr.conf says to skip: ACLs ("permissions") included. */
static int xattr_check(const char *name, struct error_context *ctx)
{
	return attr_copy_action(name, ctx) != ATTR_ACTION_SKIP;
}

int fattrs_preserve(int src_fd, int dst_fd, unsigned int what, unsigned int *ret_failed)
{
	struct stat st;
	unsigned int failed = 0;
	int first = 0;

	if (fstat(src_fd, &st) < 0)
		return negerrno();

	if (what & FATTRS_PRESERVE_OWNER) {
		if (fchown(dst_fd, st.st_uid, st.st_gid) < 0) {
			int r = negerrno();

			/* As cp(1) does: keep at least the group if we may. */
			(void)fchown(dst_fd, (uid_t)-1, st.st_gid);
			failed |= FATTRS_PRESERVE_OWNER;
			first = first ? first : r;
		}
	}
	if (what & FATTRS_PRESERVE_XATTR) {
		errno = 0;
		if (attr_copy_fd("", src_fd, "", dst_fd, xattr_check, NULL) != 0) {
			failed |= FATTRS_PRESERVE_XATTR;
			first = first ? first : negerrno();
		}
	}
	if (what & FATTRS_PRESERVE_MODE) {
		mode_t mode = st.st_mode & 07777;

		struct stat dst;

		/* Set-id bits only ever go with the owner and group they were set for. */
		if (fstat(dst_fd, &dst) < 0 || dst.st_uid != st.st_uid || dst.st_gid != st.st_gid)
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
