/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The four fattrs(7) flags: the table, and reading and writing them in every place one can live.
 * doc/design.md §2 is the contract; doc/kernel.md §4 and §5 the traps.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>		/* AT_FDCWD, O_PATH */
#include <limits.h>		/* XATTR_LIST_MAX, XATTR_SIZE_MAX (from linux/limits.h) */
#include <stdio.h>		/* snprintf */
#include <stdlib.h>
#include <string.h>
#include <time.h>		/* nanosleep */
#include <sys/stat.h>
#include <sys/file.h>		/* flock */
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "testing.h"

/*
 * A private constant (not in compat/linux.h: it is Windows ABI, not uapi).
 */
#define WINATTR_NORMAL 0x00000080U	/* alone means "no other bit"; 0 means "no change" to SMB */

/*
 * The STATX_ATTR_* hook: no kernel defines these yet (doc/kernel.md §1.6).  When
 * the build headers ever do, the table picks them up.
 */
#ifdef STATX_ATTR_OFFLINE
# define FFLAG_STATX_OFFLINE STATX_ATTR_OFFLINE
#else
# define FFLAG_STATX_OFFLINE 0
#endif
#ifdef STATX_ATTR_PINNED
# define FFLAG_STATX_PINNED STATX_ATTR_PINNED
#else
# define FFLAG_STATX_PINNED 0
#endif
#ifdef STATX_ATTR_INTEGRITY
# define FFLAG_STATX_INTEGRITY STATX_ATTR_INTEGRITY
#else
# define FFLAG_STATX_INTEGRITY 0
#endif
#ifdef STATX_ATTR_NOSCRUB
# define FFLAG_STATX_NOSCRUB STATX_ATTR_NOSCRUB
#else
# define FFLAG_STATX_NOSCRUB 0
#endif

/*
 * A name list of this size holds a few dozen names (security.selinux, the
 * two ACLs, the four flags and more), so most files cost one llistxattr(2);
 * a longer list costs a size query and a retry.
 */
#define LIST_FAST 1024
/*
 * A value read into this many bytes is "1" or "0" or, if invalid, short
 * enough to quote in a warning; a longer one is fetched in full.
 */
#define VALUE_FAST 64

/* Display order: do not sort. */
static const struct fattrs_fflag_info fflag_table[FATTRS_NFFLAGS] = {
	[FATTRS_OFFLINE] = {
		.name = "offline",
		.xattr = FATTRS_FFLAG_PREFIX "offline",
		.winattr = FATTRS_WINATTR_OFFLINE,
		.statx = FFLAG_STATX_OFFLINE,
		.opposite = FATTRS_PINNED,
		.description = "the data lives elsewhere (in the cloud); reading it may be slow",
	},
	[FATTRS_PINNED] = {
		.name = "pinned",
		.xattr = FATTRS_FFLAG_PREFIX "pinned",
		.winattr = FATTRS_WINATTR_PINNED,
		.statx = FFLAG_STATX_PINNED,
		.opposite = FATTRS_OFFLINE,
		.description = "keep the data local: it must not be evicted to the cloud",
	},
	[FATTRS_INTEGRITY] = {
		.name = "integrity",
		.xattr = FATTRS_FFLAG_PREFIX "integrity",
		.winattr = FATTRS_WINATTR_INTEGRITY_STREAM,
		.statx = FFLAG_STATX_INTEGRITY,
		.opposite = FATTRS_NOSCRUB,
		.description = "ask for the strongest integrity protection of the data",
	},
	[FATTRS_NOSCRUB] = {
		.name = "noscrub",
		.xattr = FATTRS_FFLAG_PREFIX "noscrub",
		.winattr = FATTRS_WINATTR_NO_SCRUB_DATA,
		.statx = FFLAG_STATX_NOSCRUB,
		.opposite = FATTRS_INTEGRITY,
		.description = "scratch data: not worth scrubbing or protecting",
	},
};

const struct fattrs_fflag_info *fattrs_fflag_info(enum fattrs_fflag f)
{
	if ((unsigned int)f >= FATTRS_NFFLAGS)
		return NULL;
	return &fflag_table[f];
}

int fattrs_fflag_find(const char *name)
{
	if (name == NULL)
		return -1;
	if (strncmp(name, FATTRS_FFLAG_PREFIX, strlen(FATTRS_FFLAG_PREFIX)) == 0)
		name += strlen(FATTRS_FFLAG_PREFIX);
	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		if (strcmp(name, fflag_table[i].name) == 0)
			return i;
	}
	return -1;
}

const char *fattrs_state_name(enum fattrs_state s)
{
	static const char *const names[] = {
		[FATTRS_STATE_CLEAR] = "clear",
		[FATTRS_STATE_SET] = "set",
		[FATTRS_STATE_INVALID] = "invalid",
		[FATTRS_STATE_UNSUPPORTED] = "unsupported",
		[FATTRS_STATE_UNREADABLE] = "not readable",
		[FATTRS_STATE_UNKNOWN] = "unknown",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : NULL;
}

enum fattrs_state fattrs_fflag_value(const void *v, size_t len)
{
	if (len != 1 || v == NULL)
		return FATTRS_STATE_INVALID;
	if (*(const char *)v == FATTRS_FFLAG_VALUE_SET[0])
		return FATTRS_STATE_SET;
	if (*(const char *)v == FATTRS_FFLAG_VALUE_CLEAR[0])
		return FATTRS_STATE_CLEAR;
	return FATTRS_STATE_INVALID;
}

/* ------------------------------------------------------------- helpers */

/*
 * Every xattr call names its file as the *at(2) calls do: a directory
 * descriptor (or AT_FDCWD), a path relative to it, and AT_SYMLINK_NOFOLLOW
 * and AT_EMPTY_PATH.  The system calls are getxattrat(2), setxattrat(2),
 * listxattrat(2) and removexattrat(2) (Linux 6.13, doc/kernel.md §5.3).
 * Where they are missing (ENOSYS: an older kernel, valgrind 3.19;
 * remembered for the process) the path calls do the same: by the path
 * itself from AT_FDCWD or when it is absolute, through the descriptor's
 * /proc/self/fd link otherwise ("/proc/self/fd/D/PATH"), and f*xattr(2)
 * on a descriptor itself with AT_EMPTY_PATH.  An O_PATH descriptor's own
 * file is refused by both (EBADF): it is reached through its
 * /proc/self/fd link, followed, which leads to exactly its inode.  Without
 * /proc, a name relative to a descriptor cannot be reached on such a
 * kernel: -ENOSYS.
 *
 * Atomic: a race between threads only costs one more ENOSYS; a child after
 * fork(2) has the same kernel.
 */
static _Atomic bool no_xattrat;

void fattrs_fflag_force_path(bool on)
{
	no_xattrat = on;
}

#define AT_ALLOWED (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)

enum xop { XGET, XSET, XREMOVE, XLIST };

/* The xattr call @op on a descriptor of the file itself. */
static long xattr_fd(enum xop op, int fd, const char *name, void *buf, size_t size)
{
	switch (op) {
	case XGET:
		return fgetxattr(fd, name, buf, size);
	case XSET:
		return fsetxattr(fd, name, buf, size, 0);
	case XREMOVE:
		return fremovexattr(fd, name);
	default:
		return flistxattr(fd, buf, size);
	}
}

/* The xattr call @op by @path, following a symbolic link at its end unless @nofollow. */
static long xattr_path(enum xop op, const char *path, bool nofollow, const char *name, void *buf, size_t size)
{
	switch (op) {
	case XGET:
		return nofollow ? lgetxattr(path, name, buf, size) : getxattr(path, name, buf, size);
	case XSET:
		return nofollow ? lsetxattr(path, name, buf, size, 0) : setxattr(path, name, buf, size, 0);
	case XREMOVE:
		return nofollow ? lremovexattr(path, name) : removexattr(path, name);
	default:
		return nofollow ? llistxattr(path, buf, size) : listxattr(path, buf, size);
	}
}

/* "/proc/self/fd/N" and, if @path is not NULL, "/PATH" into @buf: 0, or -1 with errno set. */
static int proc_path(char *buf, size_t len, int fd, const char *path)
{
	int n = path != NULL ? snprintf(buf, len, "/proc/self/fd/%d/%s", fd, path) :
			       snprintf(buf, len, "/proc/self/fd/%d", fd);

	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (!proc_usable()) {
		errno = ENOSYS;
		return -1;
	}
	return 0;
}

/* The call without the *xattrat system calls (above). */
static long xattr_fallback(enum xop op, int dirfd, const char *path, unsigned atf, const char *name,
			   void *buf, size_t size)
{
	char link[sizeof("/proc/self/fd//") + 3 * sizeof(int) + PATH_MAX];
	bool nofollow = (atf & AT_SYMLINK_NOFOLLOW) != 0;
	long r;

	if (path[0] == '\0' && !(atf & AT_EMPTY_PATH)) {
		errno = ENOENT;
		return -1;
	}
	if (path[0] == '\0' && dirfd == AT_FDCWD)
		return xattr_path(op, ".", false, name, buf, size);
	if (path[0] == '\0') {
		r = xattr_fd(op, dirfd, name, buf, size);
		if (r >= 0 || errno != EBADF)
			return r;
		/* O_PATH: the magic link reaches exactly its inode, whatever it is */
		if (fcntl(dirfd, F_GETFD) < 0 || proc_path(link, sizeof(link), dirfd, NULL) < 0)
			return -1;
		return xattr_path(op, link, false, name, buf, size);
	}
	if (dirfd == AT_FDCWD || path[0] == '/')
		return xattr_path(op, path, nofollow, name, buf, size);
	if (proc_path(link, sizeof(link), dirfd, path) < 0)
		return -1;
	return xattr_path(op, link, nofollow, name, buf, size);
}

static long sys_xattrat(enum xop op, int dirfd, const char *path, unsigned atf, const char *name,
			void *buf, size_t size)
{
	struct fattrs_xattr_args a = { .value = (uintptr_t)buf, .size = (uint32_t)size, .flags = 0 };

	switch (op) {
	case XGET:
		return syscall(__NR_getxattrat, dirfd, path, atf, name, &a, sizeof(a));
	case XSET:
		return syscall(__NR_setxattrat, dirfd, path, atf, name, &a, sizeof(a));
	case XREMOVE:
		return syscall(__NR_removexattrat, dirfd, path, atf, name);
	default:
		return syscall(__NR_listxattrat, dirfd, path, atf, buf, size);
	}
}

static long xattr_once(enum xop op, int dirfd, const char *path, unsigned atf, const char *name,
		       void *buf, size_t size)
{
	char link[sizeof("/proc/self/fd/") + 3 * sizeof(int)];
	long r;

	if (no_xattrat)
		return xattr_fallback(op, dirfd, path, atf, name, buf, size);
	r = sys_xattrat(op, dirfd, path, atf, name, buf, size);
	if (r < 0 && errno == EBADF && path[0] == '\0' && (atf & AT_EMPTY_PATH) && dirfd != AT_FDCWD &&
	    fcntl(dirfd, F_GETFD) >= 0) {
		/* An O_PATH descriptor, which these calls refuse too: its magic link, followed. */
		if (proc_path(link, sizeof(link), dirfd, NULL) < 0)
			return -1;
		r = sys_xattrat(op, AT_FDCWD, link, 0, name, buf, size);
	}
	if (r >= 0 || errno != ENOSYS)
		return r;
	no_xattrat = true;
	return xattr_fallback(op, dirfd, path, atf, name, buf, size);
}

/*
 * Each call is asked once more where the first answer is ESTALE, as
 * fattrs_openat() does: a network client (GlusterFS) whose cache still
 * names a file another client has just replaced answers that.
 */
static long xattr_call(enum xop op, int dirfd, const char *path, unsigned atf, const char *name,
		       void *buf, size_t size)
{
	long r;

	if (path == NULL)
		path = "";
	r = xattr_once(op, dirfd, path, atf, name, buf, size);
	if (r < 0 && errno == ESTALE)
		r = xattr_once(op, dirfd, path, atf, name, buf, size);
	return r;
}

static ssize_t xgetxattr(int dirfd, const char *path, unsigned atf, const char *name, void *buf, size_t size)
{
	return (ssize_t)xattr_call(XGET, dirfd, path, atf, name, buf, size);
}

static int xsetxattr(int dirfd, const char *path, unsigned atf, const char *name, const void *buf, size_t size)
{
	return xattr_call(XSET, dirfd, path, atf, name, (void *)(uintptr_t)buf, size) < 0 ? -1 : 0;
}

static int xremovexattr(int dirfd, const char *path, unsigned atf, const char *name)
{
	return xattr_call(XREMOVE, dirfd, path, atf, name, NULL, 0) < 0 ? -1 : 0;
}

static ssize_t xlistxattr(int dirfd, const char *path, unsigned atf, char *buf, size_t size)
{
	return (ssize_t)xattr_call(XLIST, dirfd, path, atf, NULL, buf, size);
}

/* The first guess of fattrs_xattr_get(): a security context fits, and most other values. */
#define XATTR_GET_FIRST 256

int fattrs_xattr_get(int dirfd, const char *path, unsigned at_flags, const char *name, char **ret_value,
		     size_t *ret_len)
{
	char *buf = NULL;
	size_t size = XATTR_GET_FIRST;
	ssize_t n;

	if ((at_flags & ~AT_ALLOWED) != 0)
		return -EINVAL;
	for (;;) {
		char *p = realloc(buf, size + 1);

		if (p == NULL) {
			free(buf);
			return -ENOMEM;
		}
		buf = p;
		n = xgetxattr(dirfd, path, at_flags, name, buf, size);
		if (n >= 0 || errno != ERANGE)
			break;
		/* Grown since the first call: ask its size, then read again. */
		n = xgetxattr(dirfd, path, at_flags, name, NULL, 0);
		if (n < 0)
			break;
		size = (size_t)n + 1;
	}
	if (n < 0) {
		int r = negerrno();

		free(buf);
		return r;
	}
	buf[n] = '\0';
	*ret_value = buf;
	if (ret_len != NULL)
		*ret_len = (size_t)n;
	return 0;
}

/* The kernel allows user.* xattrs only on these (fs/xattr.c xattr_permission()). */
static bool type_can_carry(mode_t mode)
{
	return S_ISREG(mode) || S_ISDIR(mode);
}

static int file_mode(int dirfd, const char *path, unsigned atf, mode_t *ret)
{
	struct stat st;

	if (fstatat(dirfd, path != NULL ? path : "", &st, (int)atf) < 0)
		return negerrno();
	*ret = st.st_mode;
	return 0;
}

static const char *native_xattr(enum fattrs_native native)
{
	return native == FATTRS_NATIVE_CIFS ? FATTRS_CIFS_ATTRIB_XATTR : FATTRS_NTFS_ATTRIB_XATTR;
}

/*
 * Read the native word: 4 bytes, host byte order.  The buffer is exactly 4
 * bytes: ntfs-3g answers a smaller one with EIO, not ERANGE.
 */
static int native_read(int dirfd, const char *path, unsigned atf, enum fattrs_native native, uint32_t *ret)
{
	uint32_t w;
	ssize_t n = xgetxattr(dirfd, path, atf, native_xattr(native), &w, sizeof(w));

	if (n < 0)
		return negerrno();
	if (n != (ssize_t)sizeof(w))
		return -EIO;
	*ret = w;
	return 0;
}

/*
 * Write the native word.  NORMAL only ever goes alone: SMB takes 0 as "no
 * change", so an empty word is written as NORMAL, and NORMAL is dropped
 * beside other bits (ntfs-3g reads an empty word back as NORMAL).
 */
static int native_write(int dirfd, const char *path, unsigned atf, enum fattrs_native native, uint32_t w)
{
	w &= ~WINATTR_NORMAL;
	if (w == 0)
		w = WINATTR_NORMAL;
	if (xsetxattr(dirfd, path, atf, native_xattr(native), &w, sizeof(w)) < 0)
		return negerrno();
	return 0;
}

/* An error that means "this file has no native word after all". */
static bool no_native_word(int r)
{
	return r == -EOPNOTSUPP || r == -ENODATA;
}

/* ------------------------------------------------- filesystem capabilities */

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
		/*
		 * A followed link: the target's directory, which may be
		 * elsewhere.  Resolved link by link, not with realpath(3),
		 * which fails where a directory above is not searchable.
		 */
		if (!(at_flags & AT_SYMLINK_NOFOLLOW)) {
			r = fattrs_path_resolve(dirfd, path, &real);
			if (r < 0)
				goto out;
		}
		dir = fattrs_path_dir(real != NULL ? real : path);
		if (dir == NULL) {
			r = -ENOMEM;
			goto out;
		}
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
		if (!(at_flags & AT_SYMLINK_NOFOLLOW) && real == NULL) {
			r = fattrs_path_resolve(dirfd, path, &real);
			if (r < 0)
				goto out;
		}
		free(dir);
		dir = fattrs_path_dir(real != NULL ? real : path);
		if (dir == NULL) {
			r = -ENOMEM;
			goto out;
		}
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

/* ------------------------------------------------------------- reading */

/*
 * The names of @path's xattrs into @fast (@fast_size bytes) or, when they
 * do not fit, into a buffer grown to fit (*@ret_heap, to free), again and
 * again if the list keeps growing between the size query and the read.
 * Returns: the list's length, or -errno.
 */
static ssize_t list_names(int dirfd, const char *path, unsigned atf, char *fast, size_t fast_size, char **ret_heap)
{
	char *buf = fast, *heap = NULL;
	size_t size = fast_size;
	ssize_t n;

	for (;;) {
		char *p;

		n = xlistxattr(dirfd, path, atf, buf, size);
		if (n >= 0)
			break;
		if (errno != ERANGE)
			goto fail;
		/* The kernel never lists more than this: E2BIG, not ERANGE. */
		if (size >= XATTR_LIST_MAX) {
			errno = E2BIG;
			goto fail;
		}
		n = xlistxattr(dirfd, path, atf, NULL, 0);
		if (n < 0)
			goto fail;
		/* Some room for names added meanwhile, and never less than before. */
		size = (size_t)n + 256 > size * 2 ? (size_t)n + 256 : size * 2;
		p = realloc(heap, size);
		if (p == NULL) {
			errno = ENOMEM;
			goto fail;
		}
		buf = heap = p;
	}
	*ret_heap = heap;
	return n;
fail:
	n = negerrno();
	free(heap);
	return n;
}

/*
 * The value of xattr @name, for a flag: its state, and a malloc()ed copy
 * in *@ret_bad (NUL-terminated; length *@ret_bad_len) when invalid.
 * A name that vanished since it was listed reads clear.
 */
static int read_value(int dirfd, const char *path, unsigned atf, const char *name, enum fattrs_state *ret_state,
		      char **ret_bad, size_t *ret_bad_len)
{
	char fast[VALUE_FAST];
	char *heap = NULL;
	size_t len;
	ssize_t n = xgetxattr(dirfd, path, atf, name, fast, sizeof(fast));
	int r;

	if (n >= 0) {
		*ret_state = fattrs_fflag_value(fast, (size_t)n);
		if (*ret_state != FATTRS_STATE_INVALID)
			return 0;
		heap = malloc((size_t)n + 1);
		if (heap == NULL)
			return -ENOMEM;
		memcpy(heap, fast, (size_t)n);
		heap[n] = '\0';
		len = (size_t)n;
	} else if (errno == ENODATA) {
		*ret_state = FATTRS_STATE_CLEAR;
		return 0;
	} else if (errno != ERANGE) {
		return negerrno();
	} else {
		/* Invalid for sure; fetched in full only to be quoted. */
		r = fattrs_xattr_get(dirfd, path, atf, name, &heap, &len);
		if (r == -ENODATA) {
			*ret_state = FATTRS_STATE_CLEAR;
			return 0;
		}
		if (r < 0)
			return r;
		*ret_state = fattrs_fflag_value(heap, len);
		if (*ret_state != FATTRS_STATE_INVALID) {
			free(heap);
			return 0;
		}
	}
	*ret_bad = heap;
	*ret_bad_len = len;
	return 0;
}

/*
 * Walk the name list: read each of the four flags' values, and copy the
 * other names under the prefix into one allocation (the pointer array,
 * then the strings).
 */
static int scan_names(int dirfd, const char *path, unsigned atf, const char *list, size_t len, struct fattrs_fflags *f)
{
	const size_t plen = strlen(FATTRS_FFLAG_PREFIX);
	size_t n_unknown = 0, bytes = 0;
	enum fattrs_state st;
	char **arr, *s;
	int r;

	for (size_t i = 0; i < len; i += strnlen(list + i, len - i) + 1) {
		const char *name = list + i;
		int flag;

		if (strncmp(name, FATTRS_FFLAG_PREFIX, plen) != 0)
			continue;
		flag = fattrs_fflag_find(name);
		if (flag < 0 || strcmp(name, fflag_table[flag].xattr) != 0) {
			n_unknown++;
			bytes += strnlen(name, len - i) + 1;
			continue;
		}
		r = read_value(dirfd, path, atf, name, &st, &f->invalid[flag], &f->invalid_len[flag]);
		if (r < 0)
			return r;
		if (st == FATTRS_STATE_SET)
			f->source[flag] |= FATTRS_FSRC_XATTR;
	}
	if (n_unknown == 0)
		return 0;

	arr = malloc(n_unknown * sizeof(*arr) + bytes);
	if (arr == NULL)
		return -ENOMEM;
	s = (char *)(arr + n_unknown);
	f->unknown = arr;
	for (size_t i = 0; i < len; i += strnlen(list + i, len - i) + 1) {
		const char *name = list + i;
		int flag;
		size_t l;

		if (strncmp(name, FATTRS_FFLAG_PREFIX, plen) != 0)
			continue;
		flag = fattrs_fflag_find(name);
		if (flag >= 0 && strcmp(name, fflag_table[flag].xattr) == 0)
			continue;
		/* The list might have no final NUL: copy, then terminate. */
		l = strnlen(name, len - i);
		memcpy(s, name, l);
		s[l] = '\0';
		arr[f->n_unknown++] = s;
		s += l + 1;
	}
	return 0;
}

int fattrs_fflags_get(int dirfd, const char *path, unsigned atf, mode_t mode, const struct fattrs_fsupport *fsup,
		      const struct fattrs_statx_buf *stx, struct fattrs_fflags *ret)
{
	struct fattrs_fflags f = { .unknown = NULL, .n_unknown = 0 };
	struct fattrs_fsupport probed;
	unsigned int by_statx = 0;	/* flags whose state statx gave */
	char fast[LIST_FAST];
	char *heap = NULL;
	int r;

	if ((atf & ~AT_ALLOWED) != 0)
		return -EINVAL;
	if (fsup == NULL) {
		r = fattrs_fsupport_probe(dirfd, path, atf, &probed);
		if (r < 0)
			return r;
		fsup = &probed;
	}
	if ((mode & S_IFMT) == 0) {
		r = file_mode(dirfd, path, atf, &mode);
		if (r < 0)
			return r;
	}

	/* The STATX_ATTR_* hook: compiled to nothing while no bit exists. */
	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		uint64_t bit = fflag_table[i].statx;

		if (stx == NULL || bit == 0 || (stx->stx_attributes_mask & bit) == 0)
			continue;
		by_statx |= 1U << i;
		if (stx->stx_attributes & bit)
			f.source[i] |= FATTRS_FSRC_STATX;
	}

	if (!type_can_carry(mode) || (!fsup->user_xattr && fsup->native == FATTRS_NATIVE_NONE)) {
		for (int i = 0; i < FATTRS_NFFLAGS; i++) {
			if (by_statx & (1U << i))
				f.state[i] = f.source[i] != 0 ? FATTRS_STATE_SET : FATTRS_STATE_CLEAR;
			else
				f.state[i] = FATTRS_STATE_UNSUPPORTED;
		}
		*ret = f;
		return 0;
	}

	if (fsup->user_xattr) {
		ssize_t len = list_names(dirfd, path, atf, fast, sizeof(fast), &heap);

		if (len < 0) {
			r = (int)len;
			goto fail;
		}
		r = scan_names(dirfd, path, atf, heap != NULL ? heap : fast, (size_t)len, &f);
		if (r < 0)
			goto fail;
	}
	if (fsup->native != FATTRS_NATIVE_NONE) {
		uint32_t w = 0;

		r = native_read(dirfd, path, atf, fsup->native, &w);
		if (r < 0 && !no_native_word(r))
			goto fail;
		for (int i = 0; r == 0 && i < FATTRS_NFFLAGS; i++) {
			if (w & fflag_table[i].winattr)
				f.source[i] |= FATTRS_FSRC_NATIVE;
		}
	}

	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		if (f.source[i] != 0)
			f.state[i] = FATTRS_STATE_SET;
		else if (f.invalid[i] != NULL)
			f.state[i] = FATTRS_STATE_INVALID;
		else
			f.state[i] = FATTRS_STATE_CLEAR;
	}
	free(heap);
	*ret = f;
	return 0;
fail:
	free(heap);
	fattrs_fflags_release(&f);
	return r;
}

void fattrs_fflags_release(struct fattrs_fflags *f)
{
	if (f == NULL)
		return;
	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		free(f->invalid[i]);
		f->invalid[i] = NULL;
		f->invalid_len[i] = 0;
	}
	/* The names live in the same allocation as the array. */
	free(f->unknown);
	f->unknown = NULL;
	f->n_unknown = 0;
}

/* ------------------------------------------------------------- writing */

/*
 * A change of the native word is read-modify-write: two writers that read
 * the same word each write it back without the other's bit.  fattrs
 * writers serialize it with flock(2) on the file itself (doc/design.md §2,
 * fattrs(7)): a lock every one of them takes, on the file's inode, so it
 * holds across processes, bind mounts and hard links (ntfs-3g's FUSE
 * mount and ntfs3 lock in the local kernel).  Not on SMB: there flock(2)
 * becomes a mandatory byte-range lock on the server, which would make
 * other clients' reads of the data fail meanwhile.  The lock needs a
 * descriptor open for reading; a file the caller cannot read, or one that
 * another program keeps flock()ed for longer than LOCK_WAIT_MS, is changed
 * without it, and every change is read back (and tried again when another
 * writer changed the word meanwhile) either way.
 */
#define LOCK_WAIT_MS 2000
#define WORD_TRIES 8

/* The file being changed: its name, and a locked descriptor of it or -1. */
struct target {
	int dirfd;
	const char *path;
	unsigned atf;
	int fd;
};

static int word_read(const struct target *t, enum fattrs_native native, uint32_t *ret)
{
	uint32_t w;
	ssize_t n;

	if (t->fd < 0)
		return native_read(t->dirfd, t->path, t->atf, native, ret);
	n = fgetxattr(t->fd, native_xattr(native), &w, sizeof(w));
	if (n < 0)
		return negerrno();
	if (n != (ssize_t)sizeof(w))
		return -EIO;
	*ret = w;
	return 0;
}

/* What native_write() writes for @w. */
static uint32_t word_normal(uint32_t w)
{
	w &= ~WINATTR_NORMAL;
	return w == 0 ? WINATTR_NORMAL : w;
}

static int word_write(const struct target *t, enum fattrs_native native, uint32_t w)
{
	if (t->fd < 0)
		return native_write(t->dirfd, t->path, t->atf, native, w);
	w = word_normal(w);
	if (fsetxattr(t->fd, native_xattr(native), &w, sizeof(w), 0) < 0)
		return negerrno();
	return 0;
}

/*
 * A real descriptor of @t's file: by its name, or, for a descriptor's own
 * file (AT_EMPTY_PATH), through the descriptor's /proc/self/fd link.
 */
static int reopen(const struct target *t, int flags)
{
	char link[sizeof("/proc/self/fd/") + 3 * sizeof(int)];

	if (t->path[0] != '\0' || !(t->atf & AT_EMPTY_PATH))
		return openat(t->dirfd, t->path, flags | ((t->atf & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0));
	if (t->dirfd == AT_FDCWD)
		return open(".", flags);
	if (proc_path(link, sizeof(link), t->dirfd, NULL) < 0)
		return -1;
	return open(link, flags);
}

/* Take the writers' lock of @t's file, if it can be had (above); never fails. */
static void word_lock(struct target *t, enum fattrs_native native)
{
	long waited_us = 0, step_us = 100;
	int fd;

	t->fd = -1;
	if (native != FATTRS_NATIVE_NTFS)
		return;
	/* O_NONBLOCK: never wait for a device or a fifo (the type was checked; it may have changed). */
	fd = reopen(t, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return;
	for (;;) {
		struct timespec ts;

		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			t->fd = fd;
			return;
		}
		if ((errno != EWOULDBLOCK && errno != EINTR) || waited_us >= LOCK_WAIT_MS * 1000L)
			break;
		ts.tv_sec = 0;
		ts.tv_nsec = step_us * 1000L;
		(void)nanosleep(&ts, NULL);
		waited_us += step_us;
		step_us = step_us < 50000 ? step_us * 2 : 50000;
	}
	(void)close(fd);
}

static void word_unlock(struct target *t)
{
	if (t->fd >= 0)
		(void)close(t->fd);	/* the lock goes with the last descriptor */
	t->fd = -1;
}

/*
 * Whether the opposite flag's xattr says it may be set: -EEXIST when it is
 * set or invalid (never guessed clear), 0 when absent or "0", or -errno.
 */
static int opposite_check(int dirfd, const char *path, unsigned atf, enum fattrs_fflag opp)
{
	char v[2];	/* "1" fits; ERANGE means something longer: invalid */
	/*
	 * Its size first: a read of size 0 makes the kernel allocate no
	 * buffer, and the opposite is missing on almost every file.
	 */
	ssize_t n = xgetxattr(dirfd, path, atf, fflag_table[opp].xattr, NULL, 0);

	if (n >= 0)
		n = xgetxattr(dirfd, path, atf, fflag_table[opp].xattr, v, sizeof(v));
	if (n < 0) {
		if (errno == ENODATA || errno == EOPNOTSUPP)
			return 0;
		if (errno == ERANGE)
			return -EEXIST;
		return negerrno();
	}
	return fattrs_fflag_value(v, (size_t)n) == FATTRS_STATE_CLEAR ? 0 : -EEXIST;
}

static int xattr_set(int dirfd, const char *path, unsigned atf, enum fattrs_fflag flag)
{
	if (xsetxattr(dirfd, path, atf, fflag_table[flag].xattr, FATTRS_FFLAG_VALUE_SET,
		      strlen(FATTRS_FFLAG_VALUE_SET)) < 0)
		return negerrno();
	return 0;
}

/* Remove the flag's xattr: 1 if it was there, 0 if not, or -errno. */
static int xattr_clear(int dirfd, const char *path, unsigned atf, enum fattrs_fflag flag)
{
	if (xremovexattr(dirfd, path, atf, fflag_table[flag].xattr) == 0)
		return 1;
	if (errno == ENODATA)
		return 0;
	return negerrno();
}

/*
 * Clear @bit in the native word, verified: 1 if it was set, 0 if not, or
 * -errno (-EIO: the filesystem keeps the bit whatever is written).  A
 * read back that shows the bit again with other bits changed is another
 * writer's write of a word it read before ours: cleared again.
 */
static int word_clear(const struct target *t, enum fattrs_native native, uint32_t bit)
{
	uint32_t w, back;
	int r, was = 0;

	for (int i = 0; i < WORD_TRIES; i++) {
		r = word_read(t, native, &w);
		if (no_native_word(r) || (r == 0 && !(w & bit)))
			return was;
		if (r < 0)
			return r;
		was = 1;
		r = word_write(t, native, w & ~bit);
		if (r == 0)
			r = word_read(t, native, &back);
		if (r < 0)
			return r;
		if (!(back & bit))
			return 1;
		if ((back & ~bit) == (word_normal(w & ~bit) & ~bit))
			return -EIO;	/* success, yet the bit is still there: the filesystem kept it */
	}
	return -EIO;
}

/*
 * Set @flag's bit in the native word, verified: FATTRS_FSRC_NATIVE when
 * the word has it, 0 when the filesystem dropped it (or refused the word
 * as invalid), or -errno.  A read back without the bit but with other bits
 * changed is another writer's word, not the filesystem's answer: tried
 * again, a few times.  *@ret_wrote: whether this call wrote the bit (it
 * was not set already).
 */
static int word_set(const struct target *t, const struct fattrs_fsupport *fsup, enum fattrs_fflag flag,
		    unsigned int flags, bool *ret_wrote)
{
	const struct fattrs_fflag_info *fi = &fflag_table[flag];
	uint32_t w, back;
	int r;

	*ret_wrote = false;
	for (int i = 0; i < WORD_TRIES; i++) {
		r = word_read(t, fsup->native, &w);
		if (no_native_word(r))
			return 0;
		if (r < 0)
			return r;
		if (!(flags & FATTRS_FFLAG_NO_OPPOSITE_CHECK) && (w & fflag_table[fi->opposite].winattr))
			return -EEXIST;
		if (w & fi->winattr)
			return FATTRS_FSRC_NATIVE;
		r = word_write(t, fsup->native, w | fi->winattr);
		if (r == -EINVAL || r == -EOPNOTSUPP || r == -ERANGE)
			return 0;
		if (r == 0)
			r = word_read(t, fsup->native, &back);
		if (r < 0)
			return r;
		if (back & fi->winattr) {
			*ret_wrote = true;
			return FATTRS_FSRC_NATIVE;
		}
		if ((back & ~fi->winattr) == (word_normal(w | fi->winattr) & ~fi->winattr))
			return 0;	/* the filesystem dropped it */
	}
	/* The word keeps changing, or the filesystem changes other bits too: the xattr keeps it. */
	return 0;
}

/*
 * Whether @flag's opposite is set in any source now: 1, 0, or -errno.
 */
static int opposite_now(const struct target *t, const struct fattrs_fsupport *fsup, enum fattrs_fflag flag)
{
	enum fattrs_fflag opp = fflag_table[flag].opposite;
	uint32_t w;
	int r;

	if (fsup->user_xattr) {
		r = opposite_check(t->dirfd, t->path, t->atf, opp);
		if (r == -EEXIST)
			return 1;
		if (r < 0)
			return r;
	}
	if (fsup->native != FATTRS_NATIVE_NONE) {
		r = word_read(t, fsup->native, &w);
		if (r == 0 && (w & fflag_table[opp].winattr))
			return 1;
		if (r < 0 && !no_native_word(r))
			return r;
	}
	return 0;
}

/*
 * After @flag was written (in @where): the opposite looked at again.  Its
 * check and the write are two calls, and another writer may have set the
 * opposite in between (and looked at @flag before it was written).  Each
 * writer writes, then looks: of two racers, at least one sees the other's
 * write, so both can never end set.  The one that sees it takes its own
 * flag back and fails with -EBUSY (both may); with
 * FATTRS_FFLAG_NO_OPPOSITE_CHECK the caller's command has cleared the
 * opposite, and it is cleared again instead, as if the command came after.
 */
static int opposite_after(const struct target *t, const struct fattrs_fsupport *fsup, enum fattrs_fflag flag,
			  unsigned int flags, unsigned int where)
{
	enum fattrs_fflag undo = flag;
	int r = opposite_now(t, fsup, flag);

	if (r <= 0)
		return r;
	if (flags & FATTRS_FFLAG_NO_OPPOSITE_CHECK) {
		undo = fflag_table[flag].opposite;
		where = FATTRS_FSRC_XATTR | FATTRS_FSRC_NATIVE;
	}
	if ((where & FATTRS_FSRC_XATTR) && fsup->user_xattr) {
		r = xattr_clear(t->dirfd, t->path, t->atf, undo);
		if (r < 0)
			return r;
	}
	if ((where & FATTRS_FSRC_NATIVE) && fsup->native != FATTRS_NATIVE_NONE) {
		r = word_clear(t, fsup->native, fflag_table[undo].winattr);
		if (r < 0)
			return r;
	}
	return undo == flag ? -EBUSY : 0;
}

/*
 * Set with a native word: write the bit, read it back, and fall back to the
 * xattr when the filesystem dropped it (or refuses the word as invalid).
 * Under the writers' lock.
 */
static int native_set(struct target *t, const struct fattrs_fsupport *fsup, enum fattrs_fflag flag,
		      unsigned int flags, unsigned int *where)
{
	const struct fattrs_fflag_info *fi = &fflag_table[flag];
	bool wrote = false;
	int r = 0;

	word_lock(t, fsup->native);
	if (!(flags & FATTRS_FFLAG_NO_OPPOSITE_CHECK) && fsup->user_xattr)
		r = opposite_check(t->dirfd, t->path, t->atf, fi->opposite);
	if (r == 0)
		r = word_set(t, fsup, flag, flags, &wrote);
	if (r == FATTRS_FSRC_NATIVE) {
		*where = FATTRS_FSRC_NATIVE;
		/* Already set: nothing written, nothing to take back. */
		r = wrote ? opposite_after(t, fsup, flag, flags, *where) : 0;
	} else if (r == 0) {
		/* Dropped: the reserved namespace keeps it. */
		r = fsup->user_xattr ? xattr_set(t->dirfd, t->path, t->atf, flag) : -EOPNOTSUPP;
		*where = FATTRS_FSRC_XATTR;
		if (r == 0)
			r = opposite_after(t, fsup, flag, flags, *where);
	}
	word_unlock(t);
	return r;
}

/* Clear with a native word: the xattr and the bit, each where present.  Under the writers' lock. */
static int native_clear(struct target *t, const struct fattrs_fsupport *fsup, enum fattrs_fflag flag,
			unsigned int *where)
{
	int r = 0;

	word_lock(t, fsup->native);
	if (fsup->user_xattr) {
		r = xattr_clear(t->dirfd, t->path, t->atf, flag);
		if (r == 1)
			*where |= FATTRS_FSRC_XATTR;
	}
	if (r >= 0)
		r = word_clear(t, fsup->native, fflag_table[flag].winattr);
	if (r == 1)
		*where |= FATTRS_FSRC_NATIVE;
	word_unlock(t);
	return r < 0 ? r : 0;
}

int fattrs_fflag_set(int dirfd, const char *path, unsigned atf, mode_t mode, const struct fattrs_fsupport *fsup,
		     enum fattrs_fflag flag, bool on, unsigned int flags, unsigned int *ret_where)
{
	struct target t = { .dirfd = dirfd, .path = path != NULL ? path : "", .atf = atf, .fd = -1 };
	struct fattrs_fsupport probed;
	unsigned int where = 0;
	int r;

	if ((atf & ~AT_ALLOWED) != 0)
		return -EINVAL;
	if (fattrs_fflag_info(flag) == NULL)
		return -EINVAL;
	if (fsup == NULL) {
		r = fattrs_fsupport_probe(dirfd, path, atf, &probed);
		if (r < 0)
			return r;
		fsup = &probed;
	}
	/*
	 * Without a native word the type need not be known: the kernel
	 * answers a user.* set or remove on other files with EPERM.  A native
	 * word is no user.* xattr, so there the type is checked first.
	 */
	if ((mode & S_IFMT) == 0 && (fsup->native != FATTRS_NATIVE_NONE || !fsup->user_xattr)) {
		r = file_mode(dirfd, path, atf, &mode);
		if (r < 0)
			return r;
	}
	if ((mode & S_IFMT) != 0 && !type_can_carry(mode))
		return -EPERM;
	if (!fsup->user_xattr && fsup->native == FATTRS_NATIVE_NONE)
		return -EOPNOTSUPP;

	if (fsup->native != FATTRS_NATIVE_NONE) {
		r = on ? native_set(&t, fsup, flag, flags, &where) : native_clear(&t, fsup, flag, &where);
	} else if (on) {
		/* The opposite first, so that a refused change writes nothing; again after (opposite_after()). */
		r = 0;
		if (!(flags & FATTRS_FFLAG_NO_OPPOSITE_CHECK))
			r = opposite_check(dirfd, path, atf, fflag_table[flag].opposite);
		if (r == 0)
			r = xattr_set(dirfd, path, atf, flag);
		where = FATTRS_FSRC_XATTR;
		if (r == 0)
			r = opposite_after(&t, fsup, flag, flags, where);
	} else {
		r = xattr_clear(dirfd, path, atf, flag);
		where = r == 1 ? FATTRS_FSRC_XATTR : 0;
		r = r < 0 ? r : 0;
	}
	if (r < 0)
		return r;
	if (ret_where != NULL)
		*ret_where = where;
	return 0;
}
