/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libfattrs: the public API shared by tmpcreate, xstat and setfattrs.
 *
 * Conventions: functions return 0 (or a positive count) on success and a
 * negative errno on failure; out-parameters are named ret_* and are written
 * only on success; objects are opaque, and their _free() accepts NULL and
 * returns NULL.  Nothing here prints, exits or reads the environment.
 */
#ifndef FATTRS_H
#define FATTRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "compat/linux.h"

/* ------------------------------------------------------------------ policy */

/* The template mktemp(1) uses when none is given. */
#define FATTRS_DEFAULT_TEMPLATE "tmp.XXXXXXXXXX"
/* The fewest X's a template may end in (mktemp's rule). */
#define FATTRS_TEMPLATE_MIN_X 3
/* Where temporary names are made when neither -p nor $TMPDIR says. */
#define FATTRS_DEFAULT_TMPDIR "/tmp"
/* Hidden sibling names used while replacing a file (a dot file). */
#define FATTRS_HIDDEN_TEMPLATE ".tmpcreate.XXXXXXXXXX"

/* ------------------------------------------------------------ random names */

/**
 * fattrs_random_fill() - overwrite @len bytes of @buf with random letters
 * and digits ([A-Za-z0-9], the alphabet of mkstemp(3)).
 *
 * Randomness comes from getrandom(2), buffered so that one system call
 * serves many names.
 *
 * Returns: 0, or -errno if getrandom(2) failed (for example -ENOSYS).
 */
int fattrs_random_fill(char *buf, size_t len);

/**
 * struct fattrs_tmpl - a path whose last component has a run of characters
 * to randomise.
 * @path:  the path, relative to the directory descriptor it goes with; the
 *         file's directory is everything before its last '/'
 * @x_off: where the run of characters to replace starts in @path (it lies
 *         in the last component)
 * @x_len: how long that run is; 0 uses @path as it is
 */
struct fattrs_tmpl {
	const char *path;
	size_t x_off;
	size_t x_len;
};

/* ------------------------------------------------------------ temp files */

/* How a temporary file is made (DESIGN §4).  Do not reorder: tools index
 * their word tables with these values. */
enum fattrs_tmp_method {
	FATTRS_TMP_AUTO = 0,	/* O_TMPFILE where the filesystem has it, else named */
	FATTRS_TMP_TMPFILE,	/* O_TMPFILE only; fail where it is missing */
	FATTRS_TMP_NAMED,	/* a random name made with O_CREAT|O_EXCL|O_NOFOLLOW */
};

/* Why the method in use was chosen. */
enum fattrs_tmp_why {
	FATTRS_TMP_WHY_SUPPORTED = 0,	/* auto: O_TMPFILE worked */
	FATTRS_TMP_WHY_REQUESTED,	/* the caller asked for this method */
	FATTRS_TMP_WHY_NO_TMPFILE,	/* auto: O_TMPFILE failed (errno saved) */
	FATTRS_TMP_WHY_NO_LINK,		/* auto: an unnamed file could not be given a name (errno saved) */
};

/* How an O_TMPFILE descriptor gets its name. */
enum fattrs_link_via {
	FATTRS_LINK_UNKNOWN = 0,
	FATTRS_LINK_EMPTY_PATH,	/* linkat(fd, "", ..., AT_EMPTY_PATH) */
	FATTRS_LINK_PROC,	/* linkat(AT_FDCWD, "/proc/self/fd/N", ..., AT_SYMLINK_FOLLOW) */
	FATTRS_LINK_NONE,	/* neither works here */
};

/* Flags for fattrs_tmpfile_new(). */
enum {
	/*
	 * The file is scratch space: with the named method, its name is a
	 * hidden temporary that fattrs_tmpfile_free() and
	 * fattrs_tmpfile_cleanup_signal() remove unless it was published.
	 */
	FATTRS_TMP_SCRATCH = 1 << 0,
};

struct fattrs_tmpfile;

/**
 * fattrs_tmpfile_new() - create a temporary file in a directory.
 * @dirfd:  directory descriptor that @tmpl's path is relative to (or AT_FDCWD)
 * @tmpl:   the file is made in the directory of this path; with the named
 *          method (FATTRS_TMP_NAMED, or auto where O_TMPFILE is missing) it
 *          is made under this name, its X's randomised and retried on EEXIST
 * @mode:   permission bits (the umask applies, as with open(2))
 * @method: FATTRS_TMP_AUTO, FATTRS_TMP_TMPFILE or FATTRS_TMP_NAMED
 * @flags:  FATTRS_TMP_SCRATCH or 0
 * @ret:    the new object, owning an O_RDWR|O_CLOEXEC descriptor
 *
 * Auto tries open(dir, O_TMPFILE) and falls back to a named file on
 * EOPNOTSUPP, EISDIR (kernels before 3.11) and EINVAL; it also goes straight
 * to the named method once this process has found that unnamed files cannot
 * be linked (see fattrs_tmpfile_link()).
 *
 * Returns: 0, or -errno: -EOPNOTSUPP (FATTRS_TMP_TMPFILE on a filesystem
 * without O_TMPFILE), -ENOENT, -ENOTDIR, -EACCES, -EROFS, -ENOSPC, -EEXIST
 * (every random name was taken), ...
 */
int fattrs_tmpfile_new(int dirfd, const struct fattrs_tmpl *tmpl, mode_t mode, enum fattrs_tmp_method method, unsigned int flags,
		       struct fattrs_tmpfile **ret);

/**
 * fattrs_tmpfile_free() - close the file; an unpublished scratch name is
 * removed, an unnamed file simply vanishes.
 *
 * Returns: NULL.
 */
struct fattrs_tmpfile *fattrs_tmpfile_free(struct fattrs_tmpfile *tf);

/** fattrs_tmpfile_fd() - the file's read-write descriptor. */
int fattrs_tmpfile_fd(const struct fattrs_tmpfile *tf);

/** fattrs_tmpfile_method() - FATTRS_TMP_TMPFILE or FATTRS_TMP_NAMED. */
enum fattrs_tmp_method fattrs_tmpfile_method(const struct fattrs_tmpfile *tf);

/**
 * fattrs_tmpfile_why() - why the method in use was chosen.
 * @ret_errno: if not NULL, the errno of the failure that led to a fallback
 *             (0 when there was none)
 */
enum fattrs_tmp_why fattrs_tmpfile_why(const struct fattrs_tmpfile *tf, int *ret_errno);

/** fattrs_tmpfile_via() - how the file was linked (FATTRS_LINK_UNKNOWN before). */
enum fattrs_link_via fattrs_tmpfile_via(const struct fattrs_tmpfile *tf);

/**
 * fattrs_tmpfile_path() - the file's path (a template's path with its X's
 * filled in), or NULL while the file has no name.
 */
const char *fattrs_tmpfile_path(const struct fattrs_tmpfile *tf);

/**
 * fattrs_tmpfile_link() - give an unnamed file a name in its directory.
 * @tmpl: the name, with its X's randomised and retried on EEXIST
 *        (x_len == 0: the name is used as it is, and -EEXIST is final)
 *
 * Tries linkat(AT_EMPTY_PATH) (own descriptor since Linux 6.10, else
 * CAP_DAC_READ_SEARCH), then /proc/self/fd.  Where neither works (an
 * older kernel without /proc) the file is recreated under the name with the
 * named method and its contents copied, the method becomes
 * FATTRS_TMP_NAMED (why: FATTRS_TMP_WHY_NO_LINK) and later files of this
 * process are named from the start.  A named file keeps the name it has:
 * the call then only marks it published.
 *
 * Returns: 0, or -errno: -EEXIST, -EACCES, -ENOSPC, -EXDEV, ...
 */
int fattrs_tmpfile_link(struct fattrs_tmpfile *tf, const struct fattrs_tmpl *tmpl);

/**
 * fattrs_tmpfile_cleanup_signal() - remove every unpublished scratch name
 * of this process.  Async-signal-safe: call it from a signal handler.
 */
void fattrs_tmpfile_cleanup_signal(void);

/**
 * fattrs_tmpdir_new() - create a directory with a random name (mkdtemp(3)).
 * @ret_path: the directory's path, @tmpl's with the X's filled in (free() it)
 *
 * Returns: 0, or -errno from mkdirat(2) (-EEXIST when every name was taken).
 */
int fattrs_tmpdir_new(int dirfd, const struct fattrs_tmpl *tmpl, mode_t mode,
		      char **ret_path);

/**
 * fattrs_tmpname_pick() - choose a random name that does not exist now,
 * without creating anything (mktemp -u: unsafe by nature).
 * @ret_path: @tmpl's path with the X's filled in (free() it)
 *
 * Returns: 0, or -errno from fstatat(2) other than ENOENT.
 */
int fattrs_tmpname_pick(int dirfd, const struct fattrs_tmpl *tmpl, char **ret_path);

/**
 * fattrs_path_dir() - the directory part of @path: everything before the
 * last '/', "/" when that is the first character, "." when there is none.
 *
 * Returns: a malloc()ed string, or NULL on allocation failure.
 */
char *fattrs_path_dir(const char *path);

/**
 * fattrs_path_join() - join a directory and a name the way mktemp(1) does:
 * trailing slashes of @dir are dropped, one '/' separates them, and a
 * root @dir ("/") is not doubled.
 *
 * Returns: a malloc()ed string, or NULL on allocation failure.
 */
char *fattrs_path_join(const char *dir, const char *name);

/* ---------------------------------------------------------------- probe */

/**
 * struct fattrs_probe - what a directory's filesystem supports.
 * @tmpfile_errno:   0 if open(O_TMPFILE) works there, else its errno
 * @link_via:        how an unnamed file is linked there
 * @link_errno:      errno of the last link attempt that failed (0 if none)
 * @noreplace_errno: 0 if renameat2(RENAME_NOREPLACE) works, else its errno
 * @xattr_errno:     0 if user.* xattrs can be set on a file there, else errno
 * @method:          what FATTRS_TMP_AUTO would use there
 * @why:             why
 * @mnt_id:          the directory's mount id (stx_mnt_id), 0 if unknown
 */
struct fattrs_probe {
	int tmpfile_errno;
	enum fattrs_link_via link_via;
	int link_errno;
	int noreplace_errno;
	int xattr_errno;
	enum fattrs_tmp_method method;
	enum fattrs_tmp_why why;
	uint64_t mnt_id;
};

/**
 * fattrs_probe_dir() - find out what @dir supports by trying it.
 *
 * Creates only unnamed files or hidden random names, and removes every one
 * before it returns: the directory is left as it was.
 *
 * Returns: 0, or -errno when the directory cannot be used at all (-ENOENT,
 * -ENOTDIR, -EACCES, -EROFS, ...).
 */
int fattrs_probe_dir(int dirfd, const char *dir, struct fattrs_probe *ret);

/* ---------------------------------------------------------------- statx */

/**
 * fattrs_statx() - statx(2) into the full 6.16 layout.
 *
 * Returns: 0, or -errno (-ENOSYS before Linux 4.11).
 */
int fattrs_statx(int dirfd, const char *path, int flags, unsigned int mask,
		 struct fattrs_statx_buf *ret);

/* ---------------------------------------------------------------- mounts */

/**
 * struct fattrs_mount - one entry of the mount table.  The strings belong
 * to the table and live until fattrs_mounts_free().
 */
struct fattrs_mount {
	uint64_t id;
	const char *target;
	const char *fstype;
	const char *source;
	const char *options;
};

struct fattrs_mounts;

/**
 * fattrs_mounts_new() - a lazily parsed view of /proc/self/mountinfo.
 * Nothing is read, and libmount is not even loaded, until the first lookup.
 *
 * Returns: the object, or NULL when out of memory.
 */
struct fattrs_mounts *fattrs_mounts_new(void);

/** fattrs_mounts_free() - release the table.  Returns: NULL. */
struct fattrs_mounts *fattrs_mounts_free(struct fattrs_mounts *m);

/**
 * fattrs_mounts_find() - look up a mount by its (reusable) mount id, as
 * statx(STATX_MNT_ID) returns it.  The table is parsed on the first call,
 * and parsed again once when @id is not in it (something was mounted since).
 *
 * Returns: 0, -ENOENT if no such mount, -ELIBACC if libmount cannot be
 * loaded, or another -errno from reading the table.
 */
int fattrs_mounts_find(struct fattrs_mounts *m, uint64_t id, struct fattrs_mount *ret);

#endif /* FATTRS_H */
