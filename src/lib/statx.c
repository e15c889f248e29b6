/* SPDX-License-Identifier: GPL-2.0-or-later */
/* statx(2) into the full layout of Linux 6.16, whatever the build headers say. */
#include "config.h"

#include <errno.h>
#include <sys/syscall.h>
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
