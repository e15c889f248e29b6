/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel flags: the one table, and reading and changing them through file_getattr(2),
 * file_setattr(2) or the FS_IOC_* ioctls (doc/design.md §3, doc/kernel.md §2).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "testing.h"

/*
 * The table.  Display order, do not sort: what chattr users set most,
 * then the rest of chattr's settable letters, then what lsattr only
 * reports, then the flags only xfs has (no letters).  Every consumer
 * (parsing, --list, xstat, completions, man page checks) derives from it.
 */
static const struct fattrs_kflag kflags[] = {
	{ .name = "immutable", .letter = 'i', .xflag = FS_XFLAG_IMMUTABLE,
	  .iflag = FS_IMMUTABLE_FL, .statx_attr = STATX_ATTR_IMMUTABLE,
	  .description = "file cannot be modified, deleted, renamed or linked" },
	{ .name = "append", .letter = 'a', .xflag = FS_XFLAG_APPEND,
	  .iflag = FS_APPEND_FL, .statx_attr = STATX_ATTR_APPEND,
	  .description = "file can only be opened for appending" },
	{ .name = "nodump", .letter = 'd', .xflag = FS_XFLAG_NODUMP,
	  .iflag = FS_NODUMP_FL, .statx_attr = STATX_ATTR_NODUMP,
	  .description = "file is skipped by dump(8) backups" },
	{ .name = "noatime", .letter = 'A', .xflag = FS_XFLAG_NOATIME,
	  .iflag = FS_NOATIME_FL,
	  .description = "access time is not updated" },
	{ .name = "sync", .letter = 'S', .xflag = FS_XFLAG_SYNC,
	  .iflag = FS_SYNC_FL,
	  .description = "changes are written to disk synchronously" },
	{ .name = "dirsync", .letter = 'D', .iflag = FS_DIRSYNC_FL,
	  .description = "directory changes are written to disk synchronously" },
	{ .name = "nocow", .letter = 'C', .iflag = FS_NOCOW_FL,
	  .description = "no copy-on-write (set on empty files or directories)" },
	{ .name = "compress", .letter = 'c', .iflag = FS_COMPR_FL,
	  .statx_attr = STATX_ATTR_COMPRESSED,
	  .description = "file is compressed by the filesystem" },
	{ .name = "nocompress", .letter = 'm', .iflag = FS_NOCOMP_FL,
	  .description = "file is never compressed" },
	{ .name = "projinherit", .letter = 'P', .xflag = FS_XFLAG_PROJINHERIT,
	  .iflag = FS_PROJINHERIT_FL,
	  .description = "new entries inherit the directory's project id" },
	/* STATX_ATTR_DAX is the state in effect, which this flag asks for. */
	{ .name = "dax", .letter = 'x', .xflag = FS_XFLAG_DAX,
	  .iflag = FS_DAX_FL, .statx_attr = STATX_ATTR_DAX,
	  .description = "file is accessed directly, bypassing the page cache" },
	{ .name = "secrm", .letter = 's', .iflag = FS_SECRM_FL,
	  .description = "blocks are to be zeroed on deletion (not implemented)" },
	{ .name = "undelete", .letter = 'u', .iflag = FS_UNRM_FL,
	  .description = "contents are to be kept for undeletion (not implemented)" },
	{ .name = "journal", .letter = 'j', .iflag = FS_JOURNAL_DATA_FL,
	  .description = "data is written through the journal" },
	{ .name = "notail", .letter = 't', .iflag = FS_NOTAIL_FL,
	  .description = "tail is not merged with other files' tails" },
	{ .name = "topdir", .letter = 'T', .iflag = FS_TOPDIR_FL,
	  .description = "directory is the top of a hierarchy for the allocator" },
	{ .name = "extents", .letter = 'e', .iflag = FS_EXTENT_FL, .readonly = true,
	  .description = "file is mapped with extents" },
	{ .name = "index", .letter = 'I', .iflag = FS_INDEX_FL, .readonly = true,
	  .description = "directory is indexed by hashed trees" },
	{ .name = "encrypted", .letter = 'E', .iflag = FS_ENCRYPT_FL,
	  .statx_attr = STATX_ATTR_ENCRYPTED, .readonly = true,
	  .description = "file is encrypted by the filesystem" },
	{ .name = "verity", .letter = 'V', .xflag = FS_XFLAG_VERITY,
	  .iflag = FS_VERITY_FL, .statx_attr = STATX_ATTR_VERITY, .readonly = true,
	  .description = "file is protected by fs-verity" },
	{ .name = "casefold", .letter = 'F', .xflag = FS_XFLAG_CASEFOLD,
	  .iflag = FS_CASEFOLD_FL, .readonly = true,
	  .description = "names in the directory are looked up case-insensitively" },
	{ .name = "inline-data", .letter = 'N', .iflag = FS_INLINE_DATA_FL, .readonly = true,
	  .description = "data is stored in the inode" },
	{ .name = "realtime", .xflag = FS_XFLAG_REALTIME,
	  .description = "data is on the realtime device" },
	{ .name = "rtinherit", .xflag = FS_XFLAG_RTINHERIT,
	  .description = "new files in the directory get realtime" },
	{ .name = "nosymlinks", .xflag = FS_XFLAG_NOSYMLINKS,
	  .description = "no symbolic links can be made in the directory" },
	{ .name = "extsize", .xflag = FS_XFLAG_EXTSIZE,
	  .description = "file has an extent size hint" },
	{ .name = "extszinherit", .xflag = FS_XFLAG_EXTSZINHERIT,
	  .description = "new files in the directory get its extent size hint" },
	{ .name = "nodefrag", .xflag = FS_XFLAG_NODEFRAG,
	  .description = "file is skipped by the defragmenter" },
	{ .name = "filestream", .xflag = FS_XFLAG_FILESTREAM,
	  .description = "directory uses the filestream allocator" },
	{ .name = "cowextsize", .xflag = FS_XFLAG_COWEXTSIZE,
	  .description = "file has a copy-on-write extent size hint" },
	{ .name = "prealloc", .xflag = FS_XFLAG_PREALLOC, .readonly = true,
	  .description = "file has preallocated extents" },
	{ .name = "casenonpreserving", .xflag = FS_XFLAG_CASENONPRESERVING, .readonly = true,
	  .description = "directory does not keep the case of names" },
	{ .name = "hasattr", .xflag = FS_XFLAG_HASATTR, .readonly = true,
	  .description = "file has extended attributes" },
};

#define N_KFLAGS (sizeof(kflags) / sizeof(kflags[0]))

/* struct fattrs_flagops has a slot for each row. */
_Static_assert(N_KFLAGS <= FATTRS_KFLAGS_MAX, "FATTRS_KFLAGS_MAX is too small for the table");

#define AT_ALLOWED (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)
#define WANT_ALL (FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS)

/*
 * Set when file_getattr(2) answered ENOSYS (or a test asked): from then
 * on the process uses the ioctls.  Atomic: a race between threads only
 * costs one more ENOSYS; a child after fork(2) has the same kernel.
 */
static _Atomic bool no_file_attr;

const struct fattrs_kflag *fattrs_kflags_table(size_t *ret_n)
{
	*ret_n = N_KFLAGS;
	return kflags;
}

const struct fattrs_kflag *fattrs_kflag_find(const char *name)
{
	bool letter = name[0] != '\0' && name[1] == '\0';

	for (size_t i = 0; i < N_KFLAGS; i++) {
		if (letter ? kflags[i].letter == name[0] : strcmp(kflags[i].name, name) == 0)
			return &kflags[i];
	}
	return NULL;
}

void fattrs_kattr_force_ioctl(bool on)
{
	no_file_attr = on;
}

int fattrs_kattr_test(const struct fattrs_kattr *a, const struct fattrs_kflag *f)
{
	/*
	 * The iflags word first: verity and casefold have xflags only since
	 * 7.0 and 7.2, and an older kernel leaves those bits clear.
	 */
	if (f->iflag != 0 && (a->have & FATTRS_KATTR_IFLAGS))
		return (a->iflags & f->iflag) != 0;
	if (f->xflag != 0 && (a->have & FATTRS_KATTR_XFLAGS))
		return (a->xflags & f->xflag) != 0;
	return -ENODATA;
}

/* The flag words an FS_XFLAG_* bit of file_getattr(2) mirrors (the kernel translates them). */
#define XFLAGS_SHARED (FS_XFLAG_SYNC | FS_XFLAG_IMMUTABLE | FS_XFLAG_APPEND | FS_XFLAG_NODUMP | \
		       FS_XFLAG_NOATIME | FS_XFLAG_DAX | FS_XFLAG_PROJINHERIT)

enum fattrs_kread fattrs_kflag_read_by(const struct fattrs_kflag *f)
{
	/*
	 * statx(2) reports a few flags, with stx_attributes_mask saying
	 * whether the filesystem has them at all: no other call.  Its DAX bit
	 * is the state in effect, not the flag that asks for it.
	 */
	if (f->statx_attr != 0 && f->statx_attr != STATX_ATTR_DAX)
		return FATTRS_KREAD_STATX;
	/* verity and casefold have xflags only in kernels newer than 6.18. */
	if (f->xflag != 0 && (f->iflag == 0 || (f->xflag & XFLAGS_SHARED)))
		return FATTRS_KREAD_XFLAGS;
	return FATTRS_KREAD_IFLAGS;
}

int fattrs_kchange_add(struct fattrs_kchange *c, const struct fattrs_kflag *f, bool on)
{
	bool x = f->xflag != 0;
	uint32_t *set = x ? &c->xset : &c->iset;
	uint32_t *clear = x ? &c->xclear : &c->iclear;
	uint32_t bit = x ? f->xflag : f->iflag;

	if (f->readonly)
		return -EINVAL;
	*(on ? set : clear) |= bit;
	*(on ? clear : set) &= ~bit;
	return 0;
}

bool fattrs_kchange_has(const struct fattrs_kchange *c, const struct fattrs_kflag *f, bool on)
{
	if (f->xflag != 0)
		return ((on ? c->xset : c->xclear) & f->xflag) != 0;
	return ((on ? c->iset : c->iclear) & f->iflag) != 0;
}

/* ------------------------------------------------------------ the file */

/*
 * The file a call is about.  A change works through one descriptor
 * pinned at the start (an O_PATH open, which has no side effects on any
 * file type): the flags are read and written back on that inode, never on
 * whatever the path names by the time of the write.  The ioctls need a
 * real descriptor, opened only once the pinned one has been identified as
 * a regular file or directory: from the pinned one itself (/proc/self/fd,
 * or "." for a directory), never by the path again.
 */
struct target {
	int dirfd;
	const char *path;
	unsigned at_flags;
	mode_t mode;	/* 0 until known */
	bool pin;	/* a change: the xflags go through the pinned descriptor too */
	bool byname;	/* but by the name itself, not followed (FATTRS_KCHANGE_BY_NAME) */
	bool same_mount;	/* pinned only on @dirfd's mount (FATTRS_KCHANGE_SAME_MOUNT) */
	int pfd;	/* the pinned descriptor, -1 until pinned; may be the caller's dirfd */
	bool opath;	/* pfd is an O_PATH descriptor */
	dev_t dev;	/* pfd's, once identified */
	ino_t ino;
	bool identified;
	int fd;		/* the real descriptor for the ioctls, -1 until opened; may be pfd */
	char proc[sizeof("/proc/self/fd/") + 3 * sizeof(int)];
};

/* Test hook: called between a word's read and its write (fattrs_kattr_test_hook()). */
static void (*_Atomic between_hook)(void *);
static void *_Atomic between_arg;

void fattrs_kattr_test_hook(void (*fn)(void *arg), void *arg)
{
	between_hook = fn;
	between_arg = arg;
}

static struct target target_init(int dirfd, const char *path, unsigned at_flags, mode_t mode, bool pin)
{
	return (struct target){ .dirfd = dirfd, .path = path != NULL ? path : "",
				.at_flags = at_flags, .pin = pin,
				.mode = (mode & S_IFMT) != 0 ? mode : 0, .pfd = -1, .fd = -1 };
}

static bool target_is_dirfd(const struct target *t)
{
	return (t->at_flags & AT_EMPTY_PATH) && t->path[0] == '\0';
}

/* Close what this module opened; the caller's @dirfd, used as it is, stays open. */
static void target_release(struct target *t)
{
	if (t->fd >= 0 && t->fd != t->pfd && t->fd != t->dirfd)
		(void)close(t->fd);
	if (t->pfd >= 0 && t->pfd != t->dirfd)
		(void)close(t->pfd);
	t->fd = t->pfd = -1;
}

/*
 * Whether /proc/self/fd is procfs, asked once per process: a magic link
 * there reaches exactly the inode a descriptor holds, whatever its type.
 */
static _Atomic int proc_state = -1;

static bool is_proc(const struct statfs *sfs)
{
	const struct fattrs_fstype *t = fattrs_fstype_by_magic((uint32_t)sfs->f_type);

	return t != NULL && t->name != NULL && strcmp(t->name, "proc") == 0;
}

bool proc_usable(void)
{
	struct statfs sfs;

	if (proc_state < 0)
		proc_state = statfs("/proc/self/fd", &sfs) == 0 && is_proc(&sfs);
	return proc_state == 1;
}

void fattrs_kattr_force_no_proc(bool on)
{
	proc_state = on ? 0 : -1;
}

/* The caller's /proc/self/fd (fattrs_kattr_set_procfd()), or -1. */
static _Atomic int procfd = -1;

int fattrs_kattr_set_procfd(int fd)
{
	struct statfs sfs;

	if (fd >= 0 && (fstatfs(fd, &sfs) < 0 || !is_proc(&sfs)))
		return -EINVAL;
	procfd = fd;
	return 0;
}

/* Where the pinned descriptor's magic link is: @t->proc from *@dfd. */
static const char *proc_link(const struct target *t, int *dfd)
{
	int fd = procfd;	/* read once: another thread may set it */

	if (fd >= 0) {
		*dfd = fd;
		return t->proc + sizeof("/proc/self/fd/") - 1;
	}
	*dfd = AT_FDCWD;
	return t->proc;
}

/* "/proc/self/fd/N" into @buf (sizeof(struct target.proc)): per file, so no printf. */
static void proc_fd_path(char *buf, int fd)
{
	static const char pre[] = "/proc/self/fd/";
	char digits[3 * sizeof(int)];
	size_t n = 0;
	unsigned v = (unsigned)fd;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	memcpy(buf, pre, sizeof(pre) - 1);
	buf += sizeof(pre) - 1;
	while (n > 0)
		*buf++ = digits[--n];
	*buf = '\0';
}

/* Pin the file: one O_PATH descriptor (or the caller's own), opened once. */
static int target_pin(struct target *t)
{
	int fl;

	if (t->pfd >= 0)
		return 0;
	if (target_is_dirfd(t) && t->dirfd != AT_FDCWD) {
		fl = fcntl(t->dirfd, F_GETFL);
		if (fl < 0)
			return negerrno();
		t->pfd = t->dirfd;
		t->opath = (fl & O_PATH) != 0;
	} else {
		fl = O_PATH | O_CLOEXEC;
		if (t->at_flags & AT_SYMLINK_NOFOLLOW)
			fl |= O_NOFOLLOW;
		/* AT_FDCWD is no descriptor: the working directory is opened as ".". */
		t->pfd = t->same_mount ? openat_same_mount(t->dirfd, target_is_dirfd(t) ? "." : t->path, fl)
				       : fattrs_openat(t->dirfd, target_is_dirfd(t) ? "." : t->path, fl, 0);
		if (t->pfd < 0)
			return t->pfd;
		t->opath = true;
	}
	proc_fd_path(t->proc, t->pfd);
	return 0;
}

/* What the pinned descriptor is: its type, device and inode. */
static int target_identify(struct target *t)
{
	struct stat st;
	int r = target_pin(t);

	if (r < 0 || t->identified)
		return r;
	if (fstat(t->pfd, &st) < 0)
		return negerrno();
	t->mode = st.st_mode;
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	t->identified = true;
	return 0;
}

/*
 * Without /proc, a regular file can only be opened by its path again: the
 * open happens before it can be checked (a device put there meanwhile is
 * opened, though never used), and what was opened must be the pinned file.
 */
static int reopen_by_path(struct target *t, int flags)
{
	if (t->at_flags & AT_SYMLINK_NOFOLLOW)
		flags |= O_NOFOLLOW;
	/* -EAGAIN: replaced since it was pinned */
	return open_same_inode(t->dirfd, target_is_dirfd(t) ? "." : t->path, flags, t->dev, t->ino, -EAGAIN);
}

/*
 * A real descriptor of the file for the ioctls: only of a regular file or
 * a directory (a device's open or ioctl can have side effects, a fifo's
 * open blocks), read-only, non-blocking, made from the pinned descriptor
 * once fstat(2) has said what it is.  -EOPNOTSUPP for anything else,
 * symlinks under AT_SYMLINK_NOFOLLOW included.
 */
static int target_fd(struct target *t)
{
	int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	int r;

	if (t->fd >= 0)
		return t->fd;
	r = target_identify(t);
	if (r == -ELOOP && (t->at_flags & AT_SYMLINK_NOFOLLOW))
		return -EOPNOTSUPP;	/* an O_PATH open of a symlink does not fail: defensive */
	if (r < 0)
		return r;
	if (!S_ISREG(t->mode) && !S_ISDIR(t->mode))
		return -EOPNOTSUPP;
	if (!t->opath) {
		t->fd = t->pfd;
		return t->fd;
	}
	if (S_ISDIR(t->mode)) {
		t->fd = openat(t->pfd, ".", flags | O_DIRECTORY);
	} else if (procfd >= 0 || proc_usable()) {
		int dfd;
		const char *link = proc_link(t, &dfd);

		t->fd = openat(dfd, link, flags);
	} else {
		return t->fd = reopen_by_path(t, flags);
	}
	return t->fd >= 0 ? t->fd : negerrno();
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

/*
 * Where file_getattr(2)/file_setattr(2) find the file: by the caller's
 * path for a read; for a change, the pinned descriptor: itself when it is
 * a real one, else its /proc/self/fd link (which reaches exactly that
 * inode, of any type), else "." of a directory, else a real descriptor of
 * a regular file.  -EOPNOTSUPP for other files without /proc: they cannot
 * be reached through the pinned descriptor.
 */
static int xflags_where(struct target *t, int *dfd, const char **path, unsigned *at)
{
	int r;

	if (!t->pin || t->byname) {
		*dfd = t->dirfd;
		*path = t->path;
		*at = t->at_flags | (t->byname ? AT_SYMLINK_NOFOLLOW : 0);
		return 0;
	}
	r = target_pin(t);
	if (r < 0)
		return r;
	*at = 0;
	if (!t->opath) {
		*dfd = t->pfd;
		*path = "";
		*at = AT_EMPTY_PATH;
		return 0;
	}
	if (procfd >= 0 || proc_usable()) {
		*path = proc_link(t, dfd);
		return 0;
	}
	r = target_identify(t);
	if (r < 0)
		return r;
	if (S_ISDIR(t->mode)) {
		*dfd = t->pfd;
		*path = ".";
		return 0;
	}
	r = target_fd(t);
	if (r < 0)
		return r;
	*dfd = r;
	*path = "";
	*at = AT_EMPTY_PATH;
	return 0;
}

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

/* The bits of each word that the table marks read-only. */
static void readonly_masks(uint32_t *ret_x, uint32_t *ret_i)
{
	/* The table is constant: computed once (a race computes the same twice). */
	static _Atomic uint32_t rx, ri;
	static _Atomic bool done;
	uint32_t x = 0, i = 0;

	if (done) {
		*ret_x = rx;
		*ret_i = ri;
		return;
	}
	for (size_t k = 0; k < N_KFLAGS; k++) {
		if (kflags[k].readonly) {
			x |= kflags[k].xflag;
			i |= kflags[k].iflag;
		}
	}
	rx = x;
	ri = i;
	done = true;
	*ret_x = x;
	*ret_i = i;
}

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

int fattrs_kattr_restore(int dirfd, const char *path, unsigned at_flags, mode_t mode,
			 const struct fattrs_kattr *before, struct fattrs_kchange *ret_lost)
{
	struct fattrs_kattr after;
	struct fattrs_kchange back = { .xset = 0 };
	bool lost = false;
	int r;

	r = fattrs_kattr_get(dirfd, path, at_flags, mode, WANT_ALL, &after);
	if (r < 0)
		return r;
	for (size_t i = 0; i < N_KFLAGS; i++) {
		const struct fattrs_kflag *f = &kflags[i];

		if (!f->readonly && fattrs_kattr_test(before, f) == 1 && fattrs_kattr_test(&after, f) == 0) {
			(void)fattrs_kchange_add(&back, f, true);
			lost = true;
		}
	}
	if (!lost)
		return 0;
	r = fattrs_kattr_change(dirfd, path, at_flags, mode, &back, NULL);
	if (r >= 0)
		return 1;
	if (ret_lost != NULL)
		*ret_lost = back;
	return r;
}
