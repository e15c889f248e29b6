/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a file's filesystem offers the fattrs flags: user xattrs, a native Windows attribute
 * word (doc/design.md §2).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "fflags-private.h"

/* 1 if user.* xattrs work on @path, 0 if not, or -errno (-EACCES: cannot tell). */
static int probe_user_xattr(int dirfd, const char *path, unsigned atf)
{
	if (xgetxattr(dirfd, path, atf, fflag_table[FATTRS_OFFLINE].xattr, NULL, 0) >= 0 || errno == ENODATA)
		return 1;
	if (errno == EOPNOTSUPP)
		return 0;
	return negerrno();
}

/* The native word beyond system.ntfs_attrib that a filesystem of @sfs may have. */
static enum fattrs_native native_of(const struct statfs *sfs)
{
	const struct fattrs_fstype *t = fattrs_fstype_by_magic((uint32_t)sfs->f_type);

	return t != NULL ? t->native : FATTRS_NATIVE_NONE;
}

/*
 * The table's row for the FUSE mount of @path by the type the mount table
 * gives it ("fuse.rclone"): FUSE servers share one statfs(2) magic.  NULL
 * when not known.
 */
static const struct fattrs_fstype *fuse_row(int dirfd, const char *path, unsigned atf)
{
	const struct fattrs_fstype *t = NULL;
	struct fattrs_mounts *m;
	struct fattrs_mount mnt;
	struct statx stx;

	if (statx(dirfd, path, (int)atf, STATX_MNT_ID, &stx) < 0 ||
	    !(stx.stx_mask & STATX_MNT_ID))
		return NULL;
	m = fattrs_mounts_new();
	if (m != NULL && fattrs_mounts_find(m, stx.stx_mnt_id, &mnt) == 0)
		t = fattrs_fstype_find(mnt.fstype);
	(void)fattrs_mounts_free(m);
	return t;
}

/*
 * The directory of the file @path names in @dirfd, into *@dir (replacing
 * what it held): through a followed link, of the file the link leads to,
 * which may be elsewhere, resolved link by link into *@real (kept for a
 * second call; not realpath(3), which fails where a directory above is not
 * searchable); with AT_SYMLINK_NOFOLLOW, of the name itself.
 */
static int dir_of(int dirfd, const char *path, unsigned at_flags, char **real, char **dir)
{
	if (!(at_flags & AT_SYMLINK_NOFOLLOW) && *real == NULL) {
		int r = fattrs_path_resolve(dirfd, path, real);

		if (r < 0)
			return r;
	}
	free(*dir);
	*dir = fattrs_path_dir(*real != NULL ? *real : path);
	return *dir != NULL ? 0 : -ENOMEM;
}

int fattrs_fsupport_probe(int dirfd, const char *path, unsigned at_flags, struct fattrs_fsupport *ret)
{
	struct fattrs_fsupport fsup = { .user_xattr = false, .native = FATTRS_NATIVE_NONE };
	const struct fattrs_fstype *t;
	const char *target;
	unsigned atf = at_flags;	/* @target's */
	char *real = NULL, *dir = NULL;
	struct statfs sfs;
	bool have_sfs;
	mode_t mode;
	int r;

	if ((at_flags & ~AT_ALLOWED) != 0)
		return -EINVAL;
	if (path == NULL)
		path = "";
	target = path;
	r = file_mode(dirfd, path, at_flags, &mode);
	if (r < 0)
		return r;
	if (!type_can_carry(mode)) {
		/* A descriptor's own file: its directory is not known. */
		if (path[0] == '\0')
			return -EINVAL;
		r = dir_of(dirfd, path, at_flags, &real, &dir);
		if (r < 0)
			goto out;
		/* The directory itself, whatever links lead to it. */
		target = dir;
		atf = 0;
	}

	/*
	 * Where the table knows the type keeps no user xattrs, that is the
	 * answer: sysfs answers a getxattr with ENODATA, as if it had them,
	 * and refuses every setxattr with EOPNOTSUPP.
	 */
	have_sfs = statfs_at(dirfd, target, atf, &sfs) == 0;
	t = have_sfs ? fattrs_fstype_by_magic((uint32_t)sfs.f_type) : NULL;
	if (t != NULL && t->user_xattr == FATTRS_FS_NO)
		r = 0;
	else
		r = probe_user_xattr(dirfd, target, atf);
	/*
	 * A FUSE server may answer what it does not implement with EIO
	 * (rclone's mount does, for every xattr call): where the table says
	 * its type keeps no user xattrs, that is what the EIO means.  The
	 * mount table is read only then.
	 */
	if (r == -EIO && t != NULL && t->remote && t->user_xattr == FATTRS_FS_UNKNOWN) {
		const struct fattrs_fstype *u = fuse_row(dirfd, target, atf);

		if (u != NULL && u->user_xattr == FATTRS_FS_NO)
			r = 0;
	}
	/*
	 * A file's directory is on its mount; a directory's parent may not be.
	 * Through a followed link, that is the directory of the file it leads
	 * to, not the link's own: it may be on another mount.  A descriptor's
	 * own file (AT_EMPTY_PATH) has no directory known: it cannot tell.
	 */
	if ((r == -EACCES || r == -EPERM) && S_ISREG(mode) && path[0] != '\0') {
		r = dir_of(dirfd, path, at_flags, &real, &dir);
		if (r < 0)
			goto out;
		/* The native word is asked there too: the file refused to be read. */
		target = dir;
		atf = 0;
		r = probe_user_xattr(dirfd, target, atf);
	}
	if (r == -EACCES || r == -EPERM)
		r = 1;	/* cannot tell: let the real operation say EACCES */
	if (r < 0)
		goto out;
	fsup.user_xattr = r == 1;

	if (xgetxattr(dirfd, target, atf, FATTRS_NTFS_ATTRIB_XATTR, NULL, 0) >= 0) {
		fsup.native = FATTRS_NATIVE_NTFS;
	} else if (have_sfs && native_of(&sfs) == FATTRS_NATIVE_CIFS &&
		   xgetxattr(dirfd, target, atf, FATTRS_CIFS_ATTRIB_XATTR, NULL, 0) >= 0) {
		fsup.native = FATTRS_NATIVE_CIFS;
	}
	*ret = fsup;
	r = 0;
out:
	free(real);
	free(dir);
	return r;
}

/* @fsup, or what the filesystem of the file offers (a probe into @probed): NULL with *@ret = -errno. */
const struct fattrs_fsupport *fsupport_or_probe(int dirfd, const char *path, unsigned atf,
						const struct fattrs_fsupport *fsup, struct fattrs_fsupport *probed,
						int *ret)
{
	*ret = 0;
	if (fsup != NULL)
		return fsup;
	*ret = fattrs_fsupport_probe(dirfd, path, atf, probed);
	return *ret < 0 ? NULL : probed;
}
