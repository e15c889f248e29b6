/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading and changing a file's kernel flags through file_getattr(2), file_setattr(2) or the
 * FS_IOC_* ioctls, each change read back (doc/design.md §3, doc/kernel.md §2).
 */
#include "config.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kflags-private.h"
#include "testing.h"

/*
 * Set when file_getattr(2) answered ENOSYS (or a test asked): from then
 * on the process uses the ioctls.  Atomic: a race between threads only
 * costs one more ENOSYS; a child after fork(2) has the same kernel.
 */
static _Atomic bool no_file_attr;

void fattrs_kattr_force_ioctl(bool on)
{
	no_file_attr = on;
}

/* Test hook: called between a word's read and its write (fattrs_kattr_test_hook()). */
static void (*_Atomic between_hook)(void *);
static void *_Atomic between_arg;

void fattrs_kattr_test_hook(void (*fn)(void *arg), void *arg)
{
	between_hook = fn;
	between_arg = arg;
}

/*
 * errno of a flags call as the return value: the answers that mean "no
 * flags here" become -EOPNOTSUPP.  ENOTTY comes from the ioctls on
 * filesystems without fileattr operations (and leaked from 6.17's system
 * calls); EINVAL on a read comes from FUSE servers (ntfs-3g) that do not
 * know the ioctls.  EINVAL on a write is the filesystem's own refusal.
 */
static int flags_errno(bool reading)
{
	if (errno == EOPNOTSUPP || errno == ENOTTY || (reading && errno == EINVAL))
		return -EOPNOTSUPP;
	return negerrno();
}

/* -------------------------------------------------------------- xflags */

/* file_getattr(2) or file_setattr(2) (@nr) of @t's file: 0, or -1 with errno set. */
static long sys_file_attr(long nr, struct target *t, struct fattrs_file_attr *fa)
{
	const char *path;
	unsigned at;
	int dfd, r = xflags_where(t, &dfd, &path, &at);

	if (r < 0) {
		errno = -r;
		return -1;
	}
	return syscall(nr, dfd, path, fa, sizeof(*fa), at);
}

/*
 * The xflags group as it was read: through file_getattr(2) into @fa, or
 * through FS_IOC_FSGETXATTR into @fsx (kept whole, padding included, to
 * be written back as it came).
 */
struct xword {
	unsigned via;
	struct fattrs_file_attr fa;
	struct fsxattr fsx;
};

static uint32_t xword_flags(const struct xword *w)
{
	return w->via == FATTRS_KVIA_FILE_GETATTR ? (uint32_t)w->fa.fa_xflags : w->fsx.fsx_xflags;
}

static int xflags_read(struct target *t, struct xword *w)
{
	int fd;

	if (!no_file_attr) {
		w->fa = (struct fattrs_file_attr){ .fa_xflags = 0 };
		if (sys_file_attr(__NR_file_getattr, t, &w->fa) == 0) {
			w->via = FATTRS_KVIA_FILE_GETATTR;
			return 0;
		}
		if (errno != ENOSYS && t->byname && flags_errno(true) == -EOPNOTSUPP) {
			/* No flags by the name itself: a symlink, a special file, or none here. */
			t->byname = false;
			return xflags_read(t, w);
		}
		if (errno != ENOSYS)
			return flags_errno(true);
		no_file_attr = true;
	}
	fd = target_fd(t);
	if (fd < 0)
		return fd;
	w->fsx = (struct fsxattr){ .fsx_xflags = 0 };
	if (ioctl(fd, FS_IOC_FSGETXATTR, &w->fsx) < 0)
		return flags_errno(true);
	w->via = FATTRS_KVIA_IOCTL;
	return 0;
}

/*
 * Write @w back the way it was read, with @xflags, every other field as it
 * was; except that a size hint whose flags are all cleared goes to 0 with
 * them, as 'xfs_io -c "extsize 0"' does: xfs refuses (EINVAL) a hint left
 * without its flag, so '-extsize' could never be done; and that a hint
 * whose flag stays set becomes @extsize or @cowextsize where not 0 (xfs
 * drops the flag of a hint of 0).
 */
/* One size hint for xflags_write(): 0 without its flag, else @want where given. */
static void size_hint(uint32_t *hint, bool flag_set, uint32_t want)
{
	if (!flag_set)
		*hint = 0;
	else if (want != 0)
		*hint = want;
}

static int xflags_write(struct target *t, struct xword *w, uint32_t xflags, uint32_t extsize,
			uint32_t cowextsize)
{
	bool ext = (xflags & (FS_XFLAG_EXTSIZE | FS_XFLAG_EXTSZINHERIT)) != 0;
	bool cow = (xflags & FS_XFLAG_COWEXTSIZE) != 0;

	if (w->via == FATTRS_KVIA_FILE_GETATTR) {
		size_hint(&w->fa.fa_extsize, ext, extsize);
		size_hint(&w->fa.fa_cowextsize, cow, cowextsize);
		w->fa.fa_xflags = xflags;
		w->fa.fa_nextents = 0;	/* read-only; the kernel ignores it */
		return sys_file_attr(__NR_file_setattr, t, &w->fa) == 0 ? 0 : flags_errno(false);
	}
	/* t->fd is open: the read used it. */
	size_hint(&w->fsx.fsx_extsize, ext, extsize);
	size_hint(&w->fsx.fsx_cowextsize, cow, cowextsize);
	w->fsx.fsx_xflags = xflags;
	return ioctl(t->fd, FS_IOC_FSSETXATTR, &w->fsx) == 0 ? 0 : flags_errno(false);
}

/* -------------------------------------------------------------- iflags */

static int iflags_read(struct target *t, uint32_t *ret)
{
	unsigned int v = 0;	/* the ioctl takes an int, not a long */
	int fd = target_fd(t);

	if (fd < 0)
		return fd;
	if (ioctl(fd, FS_IOC_GETFLAGS, &v) < 0)
		return flags_errno(true);
	*ret = v;
	return 0;
}

static int iflags_write(struct target *t, uint32_t flags)
{
	/*
	 * The kernel reads an int, but the ioctl number says long: the bytes
	 * beyond the int are zeroed, so that no checker (valgrind) sees
	 * uninitialised memory handed to the kernel.
	 */
	union {
		unsigned int v;
		unsigned long l;
	} arg = { .l = 0 };
	int fd = target_fd(t);

	if (fd < 0)
		return fd;
	arg.v = flags;
	return ioctl(fd, FS_IOC_SETFLAGS, &arg.v) == 0 ? 0 : flags_errno(false);
}

/* ------------------------------------------------------------- reading */

int fattrs_kattr_get(int dirfd, const char *path, unsigned at_flags, mode_t mode,
		     unsigned want, struct fattrs_kattr *ret)
{
	struct target t = target_init(dirfd, path, at_flags, mode, false);
	struct fattrs_kattr a = { .have = 0, .via = FATTRS_KVIA_NONE };
	int rx = 0, ri = 0;

	if ((at_flags & ~AT_ALLOWED) != 0 || want == 0 || (want & ~WANT_ALL) != 0)
		return -EINVAL;
	if (want & FATTRS_KATTR_XFLAGS) {
		struct xword w;

		rx = xflags_read(&t, &w);
		if (rx == 0 && w.via == FATTRS_KVIA_FILE_GETATTR) {
			a.xflags = (uint32_t)w.fa.fa_xflags;
			a.extsize = w.fa.fa_extsize;
			a.nextents = w.fa.fa_nextents;
			a.projid = w.fa.fa_projid;
			a.cowextsize = w.fa.fa_cowextsize;
		} else if (rx == 0) {
			a.xflags = w.fsx.fsx_xflags;
			a.extsize = w.fsx.fsx_extsize;
			a.nextents = w.fsx.fsx_nextents;
			a.projid = w.fsx.fsx_projid;
			a.cowextsize = w.fsx.fsx_cowextsize;
		}
		if (rx == 0) {
			a.have |= FATTRS_KATTR_XFLAGS;
			a.via = w.via;
		}
	}
	/* A real error (not "no flags here") ends it: the same would follow. */
	if ((want & FATTRS_KATTR_IFLAGS) && (rx == 0 || rx == -EOPNOTSUPP)) {
		ri = iflags_read(&t, &a.iflags);
		if (ri == 0)
			a.have |= FATTRS_KATTR_IFLAGS;
	}
	target_release(&t);
	if (rx < 0 && rx != -EOPNOTSUPP)
		return rx;
	if (ri < 0 && ri != -EOPNOTSUPP)
		return ri;
	if (a.have == 0)
		return -EOPNOTSUPP;
	*ret = a;
	return 0;
}

/* ------------------------------------------------------------ changing */

/*
 * What of (@set, @clear) is not in effect in @now: for a word that was
 * not changed (the filesystem refused) @now is the word as it was.
 */
static bool not_in_effect(uint32_t set, uint32_t clear, uint32_t now,
			  uint32_t *dropped_set, uint32_t *dropped_clear)
{
	*dropped_set |= set & ~now;
	*dropped_clear |= clear & now;
	return ((set & ~now) | (clear & now)) != 0;
}

/* A size hint of @w: the extent one (!@cow) or the copy-on-write one. */
static uint32_t xword_size(const struct xword *w, bool cow)
{
	if (w->via == FATTRS_KVIA_FILE_GETATTR)
		return cow ? w->fa.fa_cowextsize : w->fa.fa_extsize;
	return cow ? w->fsx.fsx_cowextsize : w->fsx.fsx_extsize;
}

/*
 * The size hints of @c not in effect in @w: their flags go to
 * @dropped's @xset.  Returns whether there are any.
 */
static bool sizes_dropped(const struct fattrs_kchange *c, const struct xword *w,
			  struct fattrs_kchange *dropped)
{
	uint32_t bits = 0;

	if (c->extsize != 0 && xword_size(w, false) != c->extsize)
		bits |= c->xset & (FS_XFLAG_EXTSIZE | FS_XFLAG_EXTSZINHERIT);
	if (c->cowextsize != 0 && xword_size(w, true) != c->cowextsize)
		bits |= c->xset & FS_XFLAG_COWEXTSIZE;
	dropped->xset |= bits;
	return bits != 0;
}

/* One word's change: 1 written, 0 nothing to do, or -errno. */
/* What of @res->dropped was added since @before: refused, not dropped after a read-back. */
static void refused_since(struct fattrs_kresult *res, const struct fattrs_kchange *before)
{
	res->refused.xset |= res->dropped.xset & ~before->xset;
	res->refused.xclear |= res->dropped.xclear & ~before->xclear;
	res->refused.iset |= res->dropped.iset & ~before->iset;
	res->refused.iclear |= res->dropped.iclear & ~before->iclear;
}

static int xflags_change(struct target *t, const struct fattrs_kchange *c, bool readback,
			 struct fattrs_kresult *res)
{
	struct fattrs_kchange *dropped = &res->dropped, before = res->dropped;
	struct xword w;
	uint32_t old, set = c->xset, clear = c->xclear;
	bool sizes, byname = t->byname;
	int r = xflags_read(t, &w);

	/* Not by the name after all, and not stat'ed: the file may be on another filesystem. */
	if (byname && !t->byname && t->mode == 0)
		readback = true;
	if (r == -EOPNOTSUPP) {
		dropped->xset |= set;
		dropped->xclear |= clear;
		refused_since(res, &before);
	}
	if (r < 0)
		return r;
	old = xword_flags(&w);
	/* A size to write that the file does not have yet. */
	sizes = sizes_dropped(c, &w, &(struct fattrs_kchange){ .xset = 0 });
	if (((old & ~clear) | set) == old && !sizes)
		return 0;
	if (between_hook != NULL)
		between_hook(between_arg);
	r = xflags_write(t, &w, (old & ~clear) | set, c->extsize, c->cowextsize);
	if (r == -EOPNOTSUPP) {
		(void)not_in_effect(set, clear, old, &dropped->xset, &dropped->xclear);
		dropped->xset |= set & (FS_XFLAG_EXTSIZE | FS_XFLAG_EXTSZINHERIT | FS_XFLAG_COWEXTSIZE) &
				 ((c->extsize != 0 ? FS_XFLAG_EXTSIZE | FS_XFLAG_EXTSZINHERIT : 0) |
				  (c->cowextsize != 0 ? FS_XFLAG_COWEXTSIZE : 0));
		refused_since(res, &before);
	}
	if (r < 0)
		return r;
	/* A new size is always read back: xfs may round or drop it. */
	if (!readback && !sizes)
		return 1;
	/* Read back: ext4 answers 0 for the xflags it drops. */
	r = xflags_read(t, &w);
	if (r < 0)
		return r;
	sizes = sizes_dropped(c, &w, dropped);
	return not_in_effect(set, clear, xword_flags(&w), &dropped->xset,
			     &dropped->xclear) || sizes ? -EOPNOTSUPP : 1;
}

static int iflags_change(struct target *t, uint32_t set, uint32_t clear,
			 struct fattrs_kresult *res)
{
	struct fattrs_kchange *dropped = &res->dropped, before = res->dropped;
	uint32_t old, now;
	int r = iflags_read(t, &old);

	if (r == -EOPNOTSUPP) {
		dropped->iset |= set;
		dropped->iclear |= clear;
		refused_since(res, &before);
	}
	if (r < 0)
		return r;
	if (((old & ~clear) | set) == old)
		return 0;
	if (between_hook != NULL)
		between_hook(between_arg);
	r = iflags_write(t, (old & ~clear) | set);
	if (r == -EOPNOTSUPP) {
		(void)not_in_effect(set, clear, old, &dropped->iset, &dropped->iclear);
		refused_since(res, &before);
	}
	if (r < 0)
		return r;
	r = iflags_read(t, &now);
	if (r < 0)
		return r;
	return not_in_effect(set, clear, now, &dropped->iset, &dropped->iclear) ? -EOPNOTSUPP : 1;
}

int fattrs_kattr_change(int dirfd, const char *path, unsigned at_flags, mode_t mode,
			const struct fattrs_kchange *change,
			struct fattrs_kchange *ret_dropped)
{
	return fattrs_kattr_change_flags(dirfd, path, at_flags, mode, change, 0, ret_dropped);
}

int fattrs_kattr_change_flags(int dirfd, const char *path, unsigned at_flags, mode_t mode,
			      const struct fattrs_kchange *change, unsigned flags,
			      struct fattrs_kchange *ret_dropped)
{
	struct fattrs_kresult res;
	int r = fattrs_kattr_change_result(dirfd, path, at_flags, mode, change, flags, &res);

	if (ret_dropped != NULL && (r >= 0 || r == -EOPNOTSUPP))
		*ret_dropped = res.dropped;
	return r;
}

enum fattrs_kfate fattrs_kresult_fate(const struct fattrs_kresult *res, const struct fattrs_kflag *f, bool on)
{
	bool x = f->xflag != 0;
	uint32_t bit = x ? f->xflag : f->iflag;
	uint32_t refused = x ? (on ? res->refused.xset : res->refused.xclear)
			     : (on ? res->refused.iset : res->refused.iclear);
	uint32_t dropped = x ? (on ? res->dropped.xset : res->dropped.xclear)
			     : (on ? res->dropped.iset : res->dropped.iclear);

	if (refused & bit)
		return FATTRS_KFATE_REFUSED;
	return (dropped & bit) ? FATTRS_KFATE_DROPPED : FATTRS_KFATE_DONE;
}

int fattrs_kattr_change_result(int dirfd, const char *path, unsigned at_flags, mode_t mode,
			       const struct fattrs_kchange *change, unsigned flags,
			       struct fattrs_kresult *ret)
{
	const struct fattrs_kchange *c = change;
	struct target t = target_init(dirfd, path, at_flags, mode, true);
	struct fattrs_kresult res = { .dropped = { .xset = 0 } };
	uint32_t ro_x, ro_i;
	bool x = (c->xset | c->xclear) != 0, i = (c->iset | c->iclear) != 0;
	bool i_first, unsupported = false, written = false;
	int r = 0;

	t.byname = (flags & FATTRS_KCHANGE_BY_NAME) != 0 && !target_is_dirfd(&t);
	t.same_mount = (flags & FATTRS_KCHANGE_SAME_MOUNT) != 0;
	readonly_masks(&ro_x, &ro_i);
	if ((at_flags & ~AT_ALLOWED) != 0 ||
	    (flags & ~(FATTRS_KCHANGE_NO_READBACK | FATTRS_KCHANGE_BY_NAME | FATTRS_KCHANGE_SAME_MOUNT)) != 0 ||
	    (c->xset & c->xclear) != 0 ||
	    (c->iset & c->iclear) != 0 || ((c->xset | c->xclear) & ro_x) != 0 ||
	    ((c->iset | c->iclear) & ro_i) != 0 ||
	    (c->extsize != 0 && !(c->xset & (FS_XFLAG_EXTSIZE | FS_XFLAG_EXTSZINHERIT))) ||
	    (c->cowextsize != 0 && !(c->xset & FS_XFLAG_COWEXTSIZE)))
		return -EINVAL;
	/*
	 * Once immutable or append is set, most filesystems refuse to change
	 * anything else: set them last, and clear them first.  Clearing
	 * immutable comes first even when the same change sets append: with
	 * immutable still set the other word could not be written at all,
	 * while append set first does not stop it (ext4, btrfs).
	 */
	i_first = ((c->xset & FATTRS_XFLAGS_LOCKING) != 0 &&
		   (c->xclear & FS_XFLAG_IMMUTABLE) == 0) ||
		  (c->iclear & (FS_IMMUTABLE_FL | FS_APPEND_FL)) != 0;
	for (int step = 0; step < 2; step++) {
		bool do_i = (step == 0) == i_first;

		if (do_i ? !i : !x)
			continue;
		r = do_i ? iflags_change(&t, c->iset, c->iclear, &res)
			 : xflags_change(&t, c, !(flags & FATTRS_KCHANGE_NO_READBACK), &res);
		if (r == -EOPNOTSUPP) {
			/* The other word may still be kept: try it too. */
			unsupported = true;
			r = 0;
		}
		if (r < 0)
			break;
		if (r > 0)
			written = true;
	}
	target_release(&t);
	if (r < 0)
		return r;
	if (ret != NULL)
		*ret = res;
	if (unsupported)
		return -EOPNOTSUPP;
	return written ? 1 : 0;
}

int fattrs_kattr_dir_byname(int dirfd, unsigned at_flags)
{
	const struct fattrs_fstype *t;
	struct stat st;
	struct statfs sfs;

	if (fstatat(dirfd, "", &st, AT_EMPTY_PATH) < 0 ||
	    (dirfd == AT_FDCWD ? statfs(".", &sfs) : fstatfs(dirfd, &sfs)) < 0)
		return negerrno();
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if ((st.st_uid != geteuid() && st.st_uid != 0) || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return 0;
	t = fattrs_fstype_by_magic((uint32_t)sfs.f_type);
	if (t == NULL || !t->local || !t->kept.measured)
		return 0;
	/* where symlinks keep flags, a followed name must fail the read by name */
	return !t->special_kflags || (at_flags & AT_SYMLINK_NOFOLLOW) != 0;
}
