/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setfattrs: what the other files look up (flag rows, type words, mounts, whether a file
 * needs a stat of its own); a leaf: it calls nothing else of setfattrs.
 */
#include "config.h"

#include "setfattrs.h"

/* ------------------------------------------------------------ flags */

/*
 * One flag, kernel or fattrs(7), as an index: kernel rows first, in table
 * order, then the four.
 */
static const struct fattrs_kflag *ktable;
static size_t nktable;

size_t sf_n_kflags(void)
{
	if (ktable == NULL)
		ktable = fattrs_kflags_table(&nktable);
	return nktable;
}

const struct fattrs_kflag *sf_krow(size_t i)
{
	if (ktable == NULL)
		ktable = fattrs_kflags_table(&nktable);
	return &ktable[i];
}

const char *sf_flag_name(size_t i)
{
	size_t n = sf_n_kflags();

	return i < n ? sf_krow(i)->name : fattrs_fflag_info((enum fattrs_fflag)(i - n))->name;
}

/* Whether @f is one of xfs's size hints: xfs keeps it set only with a size. */
bool sf_is_sizehint(const struct fattrs_kflag *f)
{
	return (f->xflag & (FS_XFLAG_EXTSIZE | FS_XFLAG_EXTSZINHERIT | FS_XFLAG_COWEXTSIZE)) != 0;
}

/* What a file not stat'ed offers for the fattrs flags (sf_want_nostat()). */
const struct fattrs_fsupport sf_nostat_fsupport = { .user_xattr = true, .native = FATTRS_NATIVE_NONE };

/* The library's per-mount cache, made on first use (NULL: out of memory). */
struct fattrs_mntcache *sf_mntcache(struct setfattrs_control *ctl)
{
	if (ctl->mntcache == NULL)
		ctl->mntcache = fattrs_mntcache_new(NULL);
	return ctl->mntcache;
}

/*
 * What @p's filesystem offers for the fattrs flags, and its type by magic:
 * the library probes each mount once; for a file not stat'ed
 * (sf_want_nostat()): user xattrs, no native word, no overlayfs, as on
 * every filesystem mounted then.
 */
static int fsupport_of(struct setfattrs_control *ctl, const struct file_plan *p, struct fattrs_fsupport *ret,
		   const struct fattrs_fstype **ret_type)
{
	struct fattrs_mntcache *mc;

	if (p->mode == 0) {
		*ret = sf_nostat_fsupport;
		if (ret_type != NULL)
			*ret_type = NULL;
		return 0;
	}
	mc = sf_mntcache(ctl);
	if (mc == NULL)
		return -ENOMEM;
	return fattrs_mntcache_fsupport(mc, p->mnt_id, p->dirfd, p->path, fattrs_at_nofollow(p->nofollow), ret,
					ret_type);
}

int sf_fsupport_for(struct setfattrs_control *ctl, const struct file_plan *p, struct fattrs_fsupport *ret)
{
	return fsupport_of(ctl, p, ret, NULL);
}

/*
 * Whether a file (named, or met by -R) can go without a stat of its own:
 * nothing needs the file's type or device before the change (no '=', -v,
 * -n, --json, --reference), and neither the read-back policy nor the
 * fattrs flags need the device: the file is on a mount of a type that
 * keeps nodump, noatime and sync or refuses them, so after the first
 * change of each in the run was read back, the later ones are trusted
 * whatever such filesystem a file is on; and none of those types has a
 * native attribute word or is overlayfs, so a fattrs flag is its user.*
 * xattr there (a filesystem without user xattrs says EOPNOTSUPP, a file
 * type that cannot carry one EPERM).  Which mounts a file can be on is
 * decided per directory (sf_nostat_at()).  The library goes by name or
 * pins each file with an O_PATH open, and never opens a device or a
 * fifo; the type is asked only when a change fails, for the message.
 */
static bool nostat_options(const struct setfattrs_control *ctl)
{
	return !(ctl->ops.assign || ctl->verbose || ctl->dry_run || ctl->json || ctl->reference != NULL);
}

/*
 * Decide sf_want_nostat() for the files changed from directory @dirfd
 * (AT_FDCWD: the working directory) and, with -R, below it: where every
 * mount of the table is of a trusted type (fattrs_mounts_flags_trusted(),
 * asked once), always.  Else where the directory's own mount and every
 * mount below its path are (fattrs_mounts_flags_trusted_at()), for a
 * name in it (not @away: a path, or ".."), because each change then stays
 * on that mount or learns that it would not before it writes: kernel
 * flags are pinned only where the name stays on it
 * (FATTRS_KCHANGE_SAME_MOUNT), and fattrs flags go by the name itself,
 * which is on it or a mount point below it, while a symlink there refuses
 * them (EPERM); either way a name that leads elsewhere is stat'ed after
 * all (setfattrs_file()).  For an @away name only kernel flags: the pin
 * checks every step of the path.  A FUSE or network mount elsewhere costs
 * nothing here.
 */
void sf_nostat_at(struct setfattrs_control *ctl, int dirfd, bool away)
{
	struct fattrs_mounts *m;

	ctl->nostat = 0;
	if (!nostat_options(ctl) || sf_mntcache(ctl) == NULL)
		return;
	m = fattrs_mntcache_mounts(ctl->mntcache);
	if (ctl->all_trusted < 0)
		ctl->all_trusted = fattrs_mounts_flags_trusted(m) == 1;
	ctl->nostat = ctl->all_trusted == 1 ||
		      ((!away || !ctl->fops) && fattrs_mounts_flags_trusted_at(m, dirfd) == 1);
}

bool sf_want_nostat(struct setfattrs_control *ctl)
{
	return ctl->nostat == 1 && nostat_options(ctl);
}

/* Whether @p's file is on overlayfs (known once its filesystem was probed for the fattrs flags). */
bool sf_on_overlay(struct setfattrs_control *ctl, const struct file_plan *p)
{
	struct fattrs_fsupport fsup;
	const struct fattrs_fstype *t;

	return fsupport_of(ctl, p, &fsup, &t) == 0 && t != NULL && t->copy_up;
}

/* ------------------------------------------------------------ mounts */

const char *sf_type_word(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return _("regular file");
	case S_IFDIR: return _("directory");
	case S_IFLNK: return _("symbolic link");
	case S_IFIFO: return _("fifo");
	case S_IFSOCK: return _("socket");
	case S_IFCHR: return _("character device");
	case S_IFBLK: return _("block device");
	default: return _("file");
	}
}

/* The mount table's entry of mount @mnt_id (the table read once): 0, or -errno. */
int sf_mount_info(struct setfattrs_control *ctl, uint64_t mnt_id, struct fattrs_mntinfo *ret)
{
	struct fattrs_mntcache *mc = sf_mntcache(ctl);

	return mc == NULL ? -ENOMEM : fattrs_mntcache_get(mc, mnt_id, ret);
}

/* The filesystem type ("ext4") of the file @stx describes, from the mount table; NULL if unknown. */
const char *sf_mount_type(struct setfattrs_control *ctl, const struct fattrs_statx_buf *stx)
{
	struct fattrs_mntinfo mi;

	if (!(stx->stx_mask & STATX_MNT_ID) || sf_mount_info(ctl, stx->stx_mnt_id, &mi) < 0)
		return NULL;
	return mi.fstype;
}

/*
 * The filesystem type of @path as findmnt(8) names it ("ext4", "fuseblk",
 * "fuse.sshfs"), or "this" when it cannot be told.  A FUSE mount without
 * a subtype says nothing of its server: where the server is known by what
 * the mount keeps (ntfs-3g's native attribute word), it is named after
 * the type, "fuseblk (ntfs-3g)".  @path is also a path from the working
 * directory (the fattrs flags' probe goes by it).
 */
const char *sf_fs_type(struct setfattrs_control *ctl, int dirfd, const char *path, bool nofollow)
{
	static char named[64];
	struct fattrs_statx_buf stx;
	struct fattrs_fsupport fsup;
	const char *type;

	if (fattrs_statx(dirfd, path, fattrs_at_nofollow(nofollow), STATX_MNT_ID, &stx) < 0)
		return "this";
	type = sf_mount_type(ctl, &stx);
	if (type == NULL)
		return "this";
	if ((strcmp(type, "fuse") == 0 || strcmp(type, "fuseblk") == 0) && ctl->mntcache != NULL &&
	    fattrs_mntcache_fsupport(ctl->mntcache, stx.stx_mnt_id, dirfd, path, fattrs_at_nofollow(nofollow),
				     &fsup, NULL) == 0 &&
	    fsup.native == FATTRS_NATIVE_NTFS) {
		(void)snprintf(named, sizeof(named), "%s (ntfs-3g)", type);
		return named;
	}
	return type;
}
