/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a directory's filesystem supports, found by trying it (tmpcreate --probe); every name
 * made here is removed before returning.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "internal.h"

/* Not in the reserved user.fattr. namespace: probing must not look like a flag. */
#define PROBE_XATTR "user.tmpcreate.probe"

static int xattr_try(int fd)
{
	return fsetxattr(fd, PROBE_XATTR, "1", 1, 0) == 0 ? 0 : errno;
}

/*
 * A hard link of @from as @to, removed again at once.  Every signal is
 * blocked meanwhile, so that a signal's clean-up (which knows @from only)
 * never leaves @to behind.  (sshfs: link(2) needs the server's
 * hardlink@openssh.com extension.)
 */
static int hardlink_try(int dirfd, const char *from, const char *to)
{
	sigset_t all, old;
	int r = 0;

	(void)sigfillset(&all);
	(void)sigprocmask(SIG_BLOCK, &all, &old);
	if (linkat(dirfd, from, dirfd, to, 0) < 0)
		r = errno;
	else
		(void)unlinkat(dirfd, to, 0);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

/*
 * The answers that say nothing of what the filesystem can do, only that it
 * could not be asked: a FUSE connection aborted while a request waited
 * (ECONNABORTED) or before it was sent (ENOTCONN), a network filesystem's
 * lost server, the directory gone or replaced since it was looked at (an
 * sshfs whose server is gone unmounts itself).  Taken as a "no", a dead
 * mount would be reported as a filesystem without O_TMPFILE where no file
 * can be made.  EIO only where a file is made (@making): an sshfs that
 * lost its server answers so, but once a file is made, EIO is a FUSE
 * filesystem's "no" to a feature (rclone's WebDAV mount: links, xattrs).
 */
static bool unanswered(int e, bool making)
{
	if (e == EIO)
		return making;

	switch (e) {
	case ENOTCONN:
	case ECONNABORTED:
	case ECONNRESET:
	case ECONNREFUSED:
	case ESHUTDOWN:
	case ETIMEDOUT:
	case EHOSTDOWN:
	case EHOSTUNREACH:
	case ENETDOWN:
	case ENETUNREACH:
	case ESTALE:
	case ENOENT:
	case ENOTDIR:
		return true;
	default:
		return false;
	}
}

/* The first answer of @p that says the filesystem could not be asked, as -errno; else 0. */
static int probe_unanswered(const struct fattrs_probe *p)
{
	const int answers[] = {
		p->tmpfile_errno, p->link_errno, p->xattr_errno,
		p->create_errno, p->noreplace_errno, p->hardlink_errno,
	};

	for (size_t i = 0; i < sizeof(answers) / sizeof(answers[0]); i++)
		if (unanswered(answers[i], false))
			return -answers[i];
	return 0;
}

int fattrs_probe_dir(int dirfd, const char *dir, struct fattrs_probe *ret)
{
	struct fattrs_probe p = { .link_via = FATTRS_LINK_UNKNOWN };
	struct fattrs_statx_buf stx;
	struct fattrs_tmpfile *tf = NULL, *named = NULL;
	struct fattrs_tmpl tmpl;
	char *path, *other = NULL, *third = NULL;
	int r;

	r = fattrs_statx(dirfd, dir, 0, STATX_TYPE | STATX_MNT_ID, &stx);
	if (r < 0)
		return r;
	if (!S_ISDIR(stx.stx_mode))
		return -ENOTDIR;
	if (stx.stx_mask & STATX_MNT_ID)
		p.mnt_id = stx.stx_mnt_id;
	/* Append-only (chattr +a): a name made there could never be removed. */
	if (stx.stx_attributes & stx.stx_attributes_mask & STATX_ATTR_APPEND)
		return -EPERM;

	path = fattrs_tmpl_hidden(dir, &tmpl);
	if (path == NULL)
		return -ENOMEM;

	/* 1. O_TMPFILE, and how such a file gets a name. */
	/* Held: the name it is linked as is removed on a signal too, and by free. */
	r = fattrs_tmpfile_loses_name(dirfd, dir);
	if (r < 0 && unanswered(-r, false))
		goto out;
	p.tmpfile_loses_name = r > 0;
	if (p.tmpfile_loses_name) {
		/* The kernel's answer first, as -o asks it (tmp/create.c): no O_TMPFILE at all is that. */
		int fd = openat(dirfd, dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

		if (fd >= 0)
			(void)close(fd);
		else if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)
			p.tmpfile_loses_name = false;
	}
	r = p.tmpfile_loses_name ? -EOPNOTSUPP :
		fattrs_tmpfile_new(dirfd, &tmpl, 0600, FATTRS_TMP_TMPFILE, FATTRS_TMP_HOLD, &tf);
	if (r == 0) {
		p.xattr_errno = xattr_try(fattrs_tmpfile_fd(tf));
		r = fattrs_tmpfile_link(tf, &tmpl);
		if (r == 0 && fattrs_tmpfile_method(tf) == FATTRS_TMP_TMPFILE) {
			p.link_via = fattrs_tmpfile_via(tf);
		} else {
			p.link_via = FATTRS_LINK_NONE;
			p.link_errno = r < 0 ? -r : ENOENT;
		}
		tf = fattrs_tmpfile_free(tf);
	} else {
		/* EOPNOTSUPP: no O_TMPFILE; EROFS, EACCES...: nothing can be made here. */
		p.tmpfile_errno = -r;
		if (unanswered(-r, true))
			goto out;
	}

	/* 2. A named scratch file: RENAME_NOREPLACE (and xattrs, if not known). */
	r = fattrs_tmpfile_new(dirfd, &tmpl, 0600, FATTRS_TMP_NAMED, FATTRS_TMP_UNPUBLISHED, &named);
	if (r == 0) {
		if (p.tmpfile_errno != 0)
			p.xattr_errno = xattr_try(fattrs_tmpfile_fd(named));
		r = fattrs_tmpname_pick(dirfd, &tmpl, &other);
		if (r < 0)
			goto out;
		/* Renamed as a scratch file still: removed on a signal under either name. */
		p.noreplace_errno = -tmpfile_rename(named, other, RENAME_NOREPLACE);
		/* 3. A hard link of it. */
		r = fattrs_tmpname_pick(dirfd, &tmpl, &third);
		if (r < 0)
			goto out;
		p.hardlink_errno = hardlink_try(dirfd, fattrs_tmpfile_path(named), third);
	} else {
		if (unanswered(-r, true))
			goto out;
		p.create_errno = -r;
		p.noreplace_errno = -r;
		p.hardlink_errno = -r;
		if (p.tmpfile_errno != 0)
			p.xattr_errno = -r;
	}
	r = probe_unanswered(&p);
	if (r < 0)
		goto out;

	if (p.tmpfile_errno == 0 && p.link_via != FATTRS_LINK_NONE) {
		p.method = FATTRS_TMP_TMPFILE;
		p.why = FATTRS_TMP_WHY_SUPPORTED;
	} else {
		p.method = FATTRS_TMP_NAMED;
		p.why = p.tmpfile_loses_name ? FATTRS_TMP_WHY_LOSES_NAME :
			p.tmpfile_errno != 0 ? FATTRS_TMP_WHY_NO_TMPFILE : FATTRS_TMP_WHY_NO_LINK;
		if (p.create_errno != 0 && p.tmpfile_errno != EOPNOTSUPP)
			p.create_errno = p.tmpfile_errno != 0 ? p.tmpfile_errno : p.create_errno;
	}
	*ret = p;
out:
	named = fattrs_tmpfile_free(named);
	free(other);
	free(third);
	free(path);
	return r;
}
