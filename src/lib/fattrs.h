/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libfattrs' public API: what tmpcreate, xstat and setfattrs call, and nothing else (internal.h
 * has the rest); what it promises callers, threads and fork(2) included: doc/design.md §1.
 */
#ifndef FATTRS_H
#define FATTRS_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
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

/* ------------------------------------------------------------ addressing */

/**
 * fattrs_at_nofollow() - the *at(2) flags that say whether the last
 * component of a path is followed: AT_SYMLINK_NOFOLLOW when @nofollow.
 */
static inline unsigned fattrs_at_nofollow(bool nofollow)
{
	return nofollow ? AT_SYMLINK_NOFOLLOW : 0;
}

/**
 * fattrs_caps_have() - whether capability @cap (CAP_*) is in the calling
 * thread's effective set (capget(2)): what some flag changes need
 * (CAP_LINUX_IMMUTABLE for immutable and append, CAP_SYS_RESOURCE for
 * journal), and what lets a file be reclaimed (CAP_FOWNER).
 *
 * Returns: true also when it cannot tell (capget(2) fails, @cap is
 * unknown), so that a message never blames a missing capability wrongly.
 */
bool fattrs_caps_have(unsigned cap);

/* ------------------------------------------------------------ random names */

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

/* Why fattrs_tmpl_parse() refused a template: mktemp(1)'s rules. */
enum fattrs_tmpl_err {
	FATTRS_TMPL_OK = 0,
	FATTRS_TMPL_NOMEM,		/* out of memory */
	FATTRS_TMPL_SUFFIX_NEEDS_X,	/* a separate suffix, but the template does not end in X */
	FATTRS_TMPL_SUFFIX_SLASH,	/* the suffix holds a '/' (trailing ones aside) */
	FATTRS_TMPL_FEW_X,		/* fewer than FATTRS_TEMPLATE_MIN_X X's before the suffix */
};

/**
 * fattrs_tmpl_suffix() - the suffix of a mktemp(1) template: @suffix when
 * not NULL (--suffix), else what follows @template's last X ("" if none).
 */
const char *fattrs_tmpl_suffix(const char *template, const char *suffix);

/**
 * fattrs_tmpl_parse() - read a mktemp(1) template: the X's to randomise
 * are the run just before the suffix (fattrs_tmpl_suffix()).
 * @template: the template, as given
 * @suffix:   NULL, or a separate suffix (@template must then end in X)
 * @ret_path: @template and @suffix joined (malloc()ed: free() it)
 * @ret:      filled in; its path is *@ret_path
 *
 * Returns: FATTRS_TMPL_OK, or why not (nothing is written then).
 */
enum fattrs_tmpl_err fattrs_tmpl_parse(const char *template, const char *suffix,
				       char **ret_path, struct fattrs_tmpl *ret);

/**
 * fattrs_tmpl_join() - put a parsed template in @dir (fattrs_path_join()).
 * @path: the template's malloc()ed path, replaced (and freed) on success
 * @tmpl: the template, moved with it
 *
 * Returns: 0, or -ENOMEM (nothing changed).
 */
int fattrs_tmpl_join(const char *dir, char **path, struct fattrs_tmpl *tmpl);

/**
 * fattrs_tmpl_hidden_for() - the hidden name beside @path that writers of
 * @path use first: FATTRS_HIDDEN_TEMPLATE in @path's directory with its
 * X's made from a hash of @path's last component (the same each time), so
 * that the next writer finds what a dead one left; the last four X's say
 * which machine made it (a hash of /etc/machine-id and the host name), so
 * that writers on machines sharing a network filesystem never take each
 * other's names for a dead writer's (flock(2) on FUSE is local).  The X's are still
 * marked in @ret: a random name replaces them when a live writer holds it.
 * @ret: filled in; its path is the returned string
 *
 * Returns: the malloc()ed path (free() it when done with @ret), or NULL
 * when out of memory.
 */
char *fattrs_tmpl_hidden_for(const char *path, struct fattrs_tmpl *ret);

/**
 * fattrs_tmpl_hidden_scratch() - the hidden name in @dir that scratch
 * files made by name (no O_TMPFILE) try first, the same each time, so
 * that the next one reclaims what a dead one left (FATTRS_TMP_RECLAIM).
 * Like fattrs_tmpl_hidden_for(), its last four X's say which machine made
 * it (a hash of /etc/machine-id and the host name).
 *
 * Returns: the malloc()ed path (free() it when done with @ret), or NULL
 * when out of memory.
 */
char *fattrs_tmpl_hidden_scratch(const char *dir, struct fattrs_tmpl *ret);

/* ------------------------------------------------------------ temp files */

/* How a temporary file is made (doc/design.md §4).  Do not reorder: tools index
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
	FATTRS_TMP_WHY_LOSES_NAME,	/* auto: O_TMPFILE works, but its files lose their name here */
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
	FATTRS_TMP_UNPUBLISHED = 1 << 0,
	/*
	 * The name the file gets (from the named method, or from
	 * fattrs_tmpfile_link()) is removed by fattrs_tmpfile_free() and
	 * fattrs_tmpfile_cleanup_signal() until fattrs_tmpfile_release(): a
	 * name nobody was told about is never left behind.
	 */
	FATTRS_TMP_HOLD = 1 << 1,
	/*
	 * With the named method: the file is flock(2)ed from the moment it
	 * is made until it is closed, and @tmpl's name is tried as it is
	 * first (fattrs_tmpl_hidden_for()), so that a name left by a writer
	 * that died (kill -9) is told from a live writer's and reclaimed:
	 * removed when its lock is free, random names used when it is held.
	 */
	FATTRS_TMP_RECLAIM = 1 << 2,
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
 * @flags:  FATTRS_TMP_UNPUBLISHED, FATTRS_TMP_HOLD or 0
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
 * the call then only marks it published.  With FATTRS_TMP_HOLD the new
 * name stays removable until fattrs_tmpfile_release().
 *
 * Returns: 0, or -errno: -EEXIST, -EACCES, -ENOSPC, -EXDEV, ...
 */
int fattrs_tmpfile_link(struct fattrs_tmpfile *tf, const struct fattrs_tmpl *tmpl);

/* Flags for fattrs_tmpfile_publish(). */
enum {
	FATTRS_PUBLISH_NOCLOBBER = 1 << 0,	/* fail with -EEXIST rather than replace */
	FATTRS_PUBLISH_SYNC_DIR = 1 << 1,	/* fsync(2) the directory afterwards */
	/*
	 * The caller flushed the file with fdatasync(2) / fsync(2): a copy
	 * the library has to make of it (an unnamed file that cannot be
	 * linked here) is flushed the same way before it gets a name.
	 */
	FATTRS_PUBLISH_FDATASYNC = 1 << 2,
	FATTRS_PUBLISH_FSYNC = 1 << 3,
};

/**
 * fattrs_tmpfile_publish() - give the finished file the name @path,
 * atomically: readers see the old file or the new one, never a mix.
 * @path:   relative to the descriptor given to fattrs_tmpfile_new(); it
 *          must be in the same filesystem as the temporary file
 * @backup: if not NULL, the old file, if any, is kept as this name: hard-
 *          linked as it when it is new; else linked to a hidden name first
 *          and renamed over the older backup only once @path is replaced,
 *          so at no moment is any version missing and a failure leaves
 *          @path and the older backup as they were (in the one case where
 *          that rename and undoing the replace both fail, @path is the new
 *          file and the old one keeps its hidden name)
 * @flags:  FATTRS_PUBLISH_NOCLOBBER, FATTRS_PUBLISH_SYNC_DIR
 *
 * A new name is made with linkat(2), which never replaces (EEXIST), so
 * FATTRS_PUBLISH_NOCLOBBER is race-free; an existing name is replaced by
 * linking to a hidden random name beside it and renameat(2) over it.  A
 * named scratch file is renamed (RENAME_NOREPLACE, else link(2), with
 * FATTRS_PUBLISH_NOCLOBBER).  Flush the data first (fsync(2)) for
 * durability.
 *
 * Returns: 0, or -errno: -EEXIST (FATTRS_PUBLISH_NOCLOBBER and @path
 * exists), -EPERM (an immutable or append-only file or directory), -EISDIR,
 * -EXDEV, -ENOSPC, -EIO (the directory's fsync failed; the name is in
 * place but may not be durable; or see fattrs_tmpfile_lost()), ...
 */
int fattrs_tmpfile_publish(struct fattrs_tmpfile *tf, const char *path, const char *backup,
			   unsigned int flags);

/**
 * fattrs_tmpfile_backup_failed() - whether the last fattrs_tmpfile_publish()
 * failed while keeping the old file as @backup (its error is about that
 * name, and @path was left as it was).
 */
bool fattrs_tmpfile_backup_failed(const struct fattrs_tmpfile *tf);

/**
 * fattrs_tmpfile_lost() - whether the last fattrs_tmpfile_publish() failed
 * (-EIO) because the filesystem reported the publish done and @path,
 * asked of its server afterwards, is missing or still the file it
 * replaced (asked where the filesystem is not a block device's).  @path
 * is then whatever the server has (the old file, or nothing); *@ret_kept
 * is the name, beside @path, that the content is under (kept, never
 * removed: tell the user), or NULL when it could not be saved.
 */
bool fattrs_tmpfile_lost(const struct fattrs_tmpfile *tf, const char **ret_kept);

/**
 * fattrs_tmpfile_release() - the name is in use now: fattrs_tmpfile_free()
 * and fattrs_tmpfile_cleanup_signal() leave it alone from here on
 * (FATTRS_TMP_HOLD; a no-op otherwise).
 */
void fattrs_tmpfile_release(struct fattrs_tmpfile *tf);

/**
 * fattrs_tmpfile_cleanup_signal() - remove every unpublished scratch name
 * of this process.  Async-signal-safe: call it from a signal handler.
 */
void fattrs_tmpfile_cleanup_signal(void);

/**
 * fattrs_tmpdir_new_held() - create a directory with a random name
 * (mkdtemp(3)), held: fattrs_tmpfile_cleanup_signal() removes it (if
 * still empty) until fattrs_tmpdir_release(), so that a signal before the
 * caller has told anyone its name leaves nothing behind.
 * @ret_path: the directory's path, @tmpl's with the X's filled in (free()
 *            it); it must outlive the hold
 * @ret_hold: the handle for fattrs_tmpdir_release() (-1 when the registry
 *            was full: then only the caller can remove it)
 *
 * Returns: 0, or -errno from mkdirat(2) (-EEXIST when every name was taken).
 */
int fattrs_tmpdir_new_held(int dirfd, const struct fattrs_tmpl *tmpl, mode_t mode,
			   char **ret_path, int *ret_hold);

/** fattrs_tmpdir_release() - stop removing a held directory on signals. */
void fattrs_tmpdir_release(int hold);

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

/* ------------------------------------------------------------ copying */

enum {
	/*
	 * The caller will fsync(2) @out: send the bytes to the disk while
	 * copying (sync_file_range(2)), so that flush and copy overlap and at
	 * most a few MiB are dirty.  A writeback error fails the copy (-EIO):
	 * once reported here, fsync(2) would not report it again.  Silently
	 * off where @out cannot do it (a pipe, a socket) and for O_APPEND.
	 */
	FATTRS_COPY_FLUSH = 1 << 0,
};

/**
 * fattrs_copy_fd() - copy everything @in has left (to end of file or of
 * input) to @out's current position, without holding it in memory: splice(2)
 * from a pipe (grown to 1 MiB), copy_file_range(2) or sendfile(2) from a
 * regular file, a 128 KiB read/write loop otherwise.
 * @flags:          FATTRS_COPY_FLUSH, or 0
 * @ret_bytes:      if not NULL, how many bytes were copied
 * @ret_read_errno: if not NULL and the copy failed on reading @in, that
 *                  errno (0 when it failed on writing)
 *
 * Returns: 0, or -errno (-ENOSPC, -EDQUOT, -EIO, -EFBIG, ...).
 */
int fattrs_copy_fd(int in, int out, unsigned flags, uint64_t *ret_bytes, int *ret_read_errno);

/**
 * fattrs_content_equal() - compare two files' bytes from offset 0.
 *
 * Returns: 1 if equal, 0 if not, or -errno.
 */
int fattrs_content_equal(int a, int b);

/* ------------------------------------------------------------ preserving */

/* What fattrs_preserve() keeps.  Do not reorder: tools index word tables with the bit numbers. */
enum {
	FATTRS_PRESERVE_MODE = 1 << 0,
	FATTRS_PRESERVE_OWNER = 1 << 1,
	FATTRS_PRESERVE_XATTR = 1 << 2,	/* xattrs and ACLs, user.fattr.* flags included */
	FATTRS_PRESERVE_KFLAGS = 1 << 3,	/* kernel flags: fattrs_preserve_kflags(), not fattrs_preserve() */
	FATTRS_PRESERVE_ALL = (1 << 4) - 1,
};

/**
 * fattrs_preserve() - give @dst_fd what @src_fd has: owner and group, then
 * xattrs and ACLs (what /etc/xattr.conf does not say to skip), then mode.
 * @what:       FATTRS_PRESERVE_* bits
 * @ret_failed: if not NULL, the bits that could not be kept
 *
 * Goes on after a failure.  Set-id bits are kept only where @dst_fd ends up
 * with @src_fd's owner and group.
 *
 * Returns: 0, or the -errno of the first failure (-EPERM, -EOPNOTSUPP,
 * -ENOSPC, ...).
 */
int fattrs_preserve(int src_fd, int dst_fd, unsigned int what, unsigned int *ret_failed);

/**
 * fattrs_preserve_stat() - fattrs_preserve() for a source the caller could
 * not open (an unreadable file to replace): its owner, group and mode from
 * @src (statx(2) with STATX_BASIC_STATS); its xattrs cannot be read, so
 * FATTRS_PRESERVE_XATTR fails with -EACCES.
 *
 * Returns: as fattrs_preserve().
 */
int fattrs_preserve_stat(const struct fattrs_statx_buf *src, int dst_fd, unsigned int what,
			 unsigned int *ret_failed);

/**
 * fattrs_preserve_kflags() - give @dst_fd, while it is still empty, the
 * kernel flags of the file @path that say how its data is kept: nodump,
 * noatime, sync, nocow (which only an empty file takes), compress,
 * nocompress, notail and dax, and its project id.  Never immutable or
 * append.  @path (relative to @dirfd, not followed; "" for @dirfd
 * itself, an open file) is read with file_getattr(2), so it need not be
 * readable.
 *
 * Returns: 0 (also when @path's filesystem keeps no flags), -EOPNOTSUPP
 * when @dst_fd's filesystem did not keep some of them, or -errno
 * (-EPERM: dax or the project id without the privilege, ...).
 */
int fattrs_preserve_kflags(int dirfd, const char *path, int dst_fd);

/**
 * fattrs_new_file_mode() - the mode open(2) with O_CREAT and @mode gives
 * a new file in @dir: @mode less the umask, or, where @dir has a default
 * ACL, @mode limited by that ACL's owner, mask (or group) and other
 * entries, the umask not applying (as the kernel's
 * posix_acl_create_masq()).
 * @ret: the mode
 *
 * Returns: 0, or -errno from opening @dir.
 */
int fattrs_new_file_mode(int dirfd, const char *dir, mode_t mode, mode_t *ret);

/**
 * fattrs_path_resolve() - follow @path while it is a symbolic link, as
 * shell redirection does: the result is the file a write would reach (which
 * need not exist: a dangling link's target is created).  Only the last
 * component is resolved each time; a relative target is taken relative to
 * the link's directory.
 * @ret: a malloc()ed path
 *
 * Returns: 0, -ELOOP after 40 links, -ENOMEM.
 */
int fattrs_path_resolve(int dirfd, const char *path, char **ret);

/**
 * fattrs_readlink() - the target of the symbolic link @path in @dirfd
 * (readlinkat(2); "" for a link open as @dirfd with O_PATH|O_NOFOLLOW),
 * into a buffer grown until it fits: @size_hint (st_size, 0 if not known)
 * is only where to start, for st_size is 0 for /proc's links and on some
 * FUSE filesystems.
 * @ret: the target, for the caller to free(3)
 *
 * Returns: 0, or -errno (-ENAMETOOLONG past 1 MiB).
 */
int fattrs_readlink(int dirfd, const char *path, uint64_t size_hint, char **ret);

/**
 * fattrs_openat() - openat(2) of a file named by a path, asked once more
 * where the first answer is ESTALE, as the kernel does for NFS.  On a
 * network filesystem (GlusterFS's FUSE client) a name another client has
 * just replaced can still lead to the file it named, which the server no
 * longer has, until this client's entry cache expires (about a second):
 * the second lookup mostly finds the new file.  Once only: a file that
 * stays stale is an error to report, not to wait for.
 *
 * Returns: the descriptor, or -errno.
 */
int fattrs_openat(int dirfd, const char *path, int flags, mode_t mode);

/**
 * fattrs_path_may_write() - whether shell redirection (open(2) with
 * O_CREAT) could write to the existing file @path: fs.protected_regular
 * refuses someone else's regular file in a sticky directory that is
 * world-writable (1), or group-writable too (2), unless the directory's
 * owner owns it; as the kernel's may_create_in_sticky().  Without /proc
 * the setting is taken as 1.
 *
 * Returns: 0 (also when @path or its directory cannot be looked at: the
 * caller's next step says why), -EACCES, -ENOMEM.
 */
int fattrs_path_may_write(int dirfd, const char *path);

/* ---------------------------------------------------------------- probe */

/**
 * struct fattrs_probe - what a directory's filesystem supports.
 * @tmpfile_errno:   0 if open(O_TMPFILE) works there, else its errno
 * @link_via:        how an unnamed file is linked there
 * @link_errno:      errno of the last link attempt that failed (0 if none)
 * @noreplace_errno: 0 if renameat2(RENAME_NOREPLACE) works, else its errno
 * @hardlink_errno:  0 if a hard link of a file can be made there (link(2):
 *                   what --no-clobber falls back on without RENAME_NOREPLACE),
 *                   else its errno
 * @xattr_errno:     0 if user.* xattrs can be set on a file there, else errno
 * @create_errno:    0 if a file can be made there at all, else the errno
 *                   that stops every method (EROFS, EACCES, ...)
 * @method:          what FATTRS_TMP_AUTO would use there
 * @why:             why
 * @mnt_id:          the directory's mount id (stx_mnt_id), 0 if unknown
 */
struct fattrs_probe {
	int tmpfile_errno;
	enum fattrs_link_via link_via;
	int link_errno;
	int noreplace_errno;
	int hardlink_errno;
	int xattr_errno;
	int create_errno;
	enum fattrs_tmp_method method;
	enum fattrs_tmp_why why;
	uint64_t mnt_id;
	bool tmpfile_loses_name;	/* O_TMPFILE not tried: see FATTRS_TMP_WHY_LOSES_NAME */
};

/**
 * fattrs_probe_dir() - find out what @dir supports by trying it.
 *
 * Creates only unnamed files or hidden random names, and removes every one
 * before it returns: the directory is left as it was.  A directory where
 * nothing can be made (read-only, no permission, /proc) is still probed:
 * @create_errno says why.
 *
 * Returns: 0, or -errno when @dir cannot be looked at (-ENOENT, -ENOTDIR,
 * -EACCES on a path component, ...), or when a try gets no answer from its
 * filesystem, only an error that says nothing of what it can do
 * (-ECONNABORTED, -ENOTCONN: a FUSE connection aborted, a network
 * filesystem's server gone; -EIO where a file is made, -ESTALE; -ENOENT:
 * @dir gone meanwhile).
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

/**
 * fattrs_stat_mnt() - stat(2) of @path in @dirfd (@at_flags: 0 or
 * AT_SYMLINK_NOFOLLOW, and AT_STATX_FORCE_SYNC to ask the server rather
 * than the client's caches) through statx(2), so that the mount id comes
 * with it at no cost: *@ret_mnt_id, 0 where statx or its mount id is
 * missing (fstatat(2) then, without the AT_STATX_* flags).
 *
 * Returns: 0, or -1 with errno set, as fstatat(2).
 */
int fattrs_stat_mnt(int dirfd, const char *path, unsigned at_flags, struct stat *ret, uint64_t *ret_mnt_id);

struct statfs;

/**
 * fattrs_statfs() - statfs(2) of the file @dirfd and @path name, following
 * a symbolic link as statfs(2) does unless @at_flags says not to.
 * @at_flags: 0, or AT_EMPTY_PATH for @dirfd's own file when @path is ""
 *            (the working directory for AT_FDCWD); AT_SYMLINK_NOFOLLOW: a
 *            link's own file system
 *
 * Returns: 0, or -errno as statfs(2): -ENOENT for a @path of "" without
 * AT_EMPTY_PATH, -EACCES, -ENOTDIR, -ELOOP, -ENOSYS where the file system
 * has no statfs.
 */
int fattrs_statfs(int dirfd, const char *path, unsigned at_flags, struct statfs *ret);

/* ---------------------------------------------------------------- mounts */

/**
 * struct fattrs_mount - one entry of the mount table.  The strings belong
 * to the table and live until fattrs_mounts_free().
 * @id:      the (reusable) mount id
 * @target:  the mount point
 * @fstype:  the file system type
 * @source:  what was mounted (a device, ...), as mountinfo has it
 * @options: the per-mount (VFS) options
 * @fs_options: the filesystem's own (superblock) options ("upperdir=...")
 * @root:    the directory of the file system mounted there ("/", or a
 *           bind mount's subdirectory: findmnt's FSROOT)
 */
struct fattrs_mount {
	uint64_t id;
	const char *target;
	const char *fstype;
	const char *source;
	const char *options;
	const char *fs_options;
	const char *root;
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
 * and parsed again when @id is not in it (something was mounted since):
 * at most 16 times per @m, and once per id a fresh table lacked.  The
 * strings of every lookup stay valid until fattrs_mounts_free().
 *
 * Returns: 0, -ENOENT if no such mount, -ELIBACC if libmount cannot be
 * loaded, or another -errno from reading the table.
 */
int fattrs_mounts_find(struct fattrs_mounts *m, uint64_t id, struct fattrs_mount *ret);

/**
 * fattrs_mounts_flags_trusted() - whether every mount of the table is of a
 * type whose kernel flags may be trusted after one read-back (struct
 * fattrs_fstype's @flags_trusted): then which mount a file is on does not
 * decide whether a change of nodump, noatime or sync sticks.
 *
 * Returns: 1 or 0, or -errno as fattrs_mounts_find().
 */
int fattrs_mounts_flags_trusted(struct fattrs_mounts *m);

/**
 * fattrs_mounts_flags_trusted_at() - fattrs_mounts_flags_trusted() for
 * the files in and below directory @dirfd (AT_FDCWD: the working
 * directory) only: whether its own mount, and every mount of the table
 * strictly below its path, are of such a type.  A file there is on one of
 * those mounts, but through a symlink followed.  The path of @dirfd is
 * read from /proc/self/fd (getcwd(3) for AT_FDCWD): one not reachable
 * from the root, a mount not in the table or a statx(2) without its mount
 * id say 0.
 *
 * Returns: 1 or 0, or -errno (of the statx, readlink or getcwd, or as
 * fattrs_mounts_find()).
 */
int fattrs_mounts_flags_trusted_at(struct fattrs_mounts *m, int dirfd);

/* Where fattrs_mntpoint_find() stopped, with the errno it returned. */
enum fattrs_mntpoint_err {
	FATTRS_MNTPOINT_ERR_CWD = 1,	/* the working directory cannot be kept */
	FATTRS_MNTPOINT_ERR_ENTER,	/* @start cannot be entered */
	FATTRS_MNTPOINT_ERR_STAT_UP,	/* the ".." of a directory on the way cannot be stat'ed */
	FATTRS_MNTPOINT_ERR_ENTER_UP,	/* the ".." of a directory on the way cannot be entered */
	FATTRS_MNTPOINT_ERR_NAME,	/* the mount point found has no name (deleted, unreachable) */
};

/**
 * struct fattrs_mntpoint - what fattrs_mntpoint_find() found.
 * @path:     the mount point, malloc()ed; NULL when the call failed
 * @start:    the directory the walk started from (the file itself, or its
 *            directory), malloc()ed, for messages; may be NULL
 * @err:      where the walk stopped, when the call failed
 * @back_err: 0, or the errno that returning to the working directory
 *            gave (GNU stat stops there)
 */
struct fattrs_mntpoint {
	char *path;
	char *start;
	enum fattrs_mntpoint_err err;
	int back_err;
};

/**
 * fattrs_mntpoint_find() - the mount point GNU stat(1) 9.1's %m names:
 * from @file's directory (@file itself if @is_dir) up through ".." while
 * the device stays the same, as gnulib's find_mount_point() walks.  The
 * walk goes by directory descriptors and never changes the working
 * directory, but needs what GNU's chdir(2) needs: search permission on
 * each directory entered, and a working directory GNU could come back to
 * (@ret->back_err).  Without GNU's bind mount lookup: a bind mount of a
 * directory of the same file system is walked out of.  The mount point is
 * named by its /proc/self/fd link, as getcwd(2) names a directory (without
 * /proc: by the start's canonical name, less a component for each "..").
 * @file:   the file, as named on the command line
 * @is_dir: whether it is a directory (followed, if it is a symbolic link
 *          that is followed)
 * @ret:    what was found; fattrs_mntpoint_release() it, whatever the call
 *          returned
 *
 * Returns: 0, or -errno with @ret->err saying where it stopped: -ENOENT,
 * -EACCES, -ENOTDIR, -ELOOP, -ENOMEM, -ENOSYS (no /proc to name the mount
 * point by), ...
 */
int fattrs_mntpoint_find(const char *file, bool is_dir, struct fattrs_mntpoint *ret);

/** fattrs_mntpoint_release() - free what @mp holds (not @mp itself). */
void fattrs_mntpoint_release(struct fattrs_mntpoint *mp);

/* ---------------------------------------------------- what a mount keeps */

/**
 * struct fattrs_mntinfo - what one mount is, for the questions of what it
 * keeps.  The strings belong to the mount table.
 * @mnt_id: the (reusable) mount id
 * @fstype: its type as the mount table has it, NULL when the mount is not
 *          in the table (or libmount cannot be loaded)
 * @type:   the table's row of that type (fattrs_fstype_find()), or NULL
 * @keeps:  the row whose kernel flags a file there keeps: @type's own, or
 *          an overlay's upper layer's (found by its upperdir option);
 *          NULL when not known
 */
struct fattrs_fstype;

struct fattrs_mntinfo {
	uint64_t mnt_id;
	const char *fstype;
	const struct fattrs_fstype *type;
	const struct fattrs_fstype *keeps;
};

struct fattrs_mntcache;
struct fattrs_fsupport;
struct fattrs_kchange;
struct fattrs_kresult;

/**
 * fattrs_mntcache_new() - a cache of what each mount keeps, by mount id.
 * @mounts: the mount table to look mounts up in (the caller's, which must
 *          outlive the cache), or NULL for one of the cache's own
 *
 * Returns: the object, or NULL when out of memory.
 */
struct fattrs_mntcache *fattrs_mntcache_new(struct fattrs_mounts *mounts);

/** fattrs_mntcache_free() - release the cache.  Returns: NULL. */
struct fattrs_mntcache *fattrs_mntcache_free(struct fattrs_mntcache *c);

/** fattrs_mntcache_mounts() - the mount table the cache looks mounts up in. */
struct fattrs_mounts *fattrs_mntcache_mounts(struct fattrs_mntcache *c);

/**
 * fattrs_mntcache_get() - what mount @mnt_id (statx(2) STATX_MNT_ID) is,
 * looked up on the first call for it (a mount not in the table is cached
 * as one of no known type).
 *
 * Returns: 0, -EINVAL for a @mnt_id of 0, or -ENOMEM.
 */
int fattrs_mntcache_get(struct fattrs_mntcache *c, uint64_t mnt_id, struct fattrs_mntinfo *ret);

/**
 * fattrs_mntcache_fsupport() - where mount @mnt_id keeps the fattrs(7)
 * flags: fattrs_fsupport_probe() of a file on it (@dirfd, @path,
 * @at_flags, as that takes them), on the first call for it.  A @mnt_id of
 * 0 (not known) probes every time.
 * @ret_type: if not NULL, the table's row of the file's statfs(2) magic
 *            (the first of its magic: enough to know an overlay or FUSE),
 *            or NULL; one statfs(2) more, once per mount
 *
 * Returns: 0, or -errno as fattrs_fsupport_probe() (nothing cached then).
 */
int fattrs_mntcache_fsupport(struct fattrs_mntcache *c, uint64_t mnt_id, int dirfd, const char *path,
			     unsigned at_flags, struct fattrs_fsupport *ret, const struct fattrs_fstype **ret_type);

/**
 * fattrs_mntcache_kchange() - change a file's kernel flags
 * (fattrs_kattr_change_result()) with the read-back rule and the retries
 * every caller needs.
 * @mnt_id, @mode: the file's mount id (0 if not known) and st_mode; 0 and
 *        0 for a file not stat'ed, only where fattrs_mounts_flags_trusted()
 *        said 1, or fattrs_mounts_flags_trusted_at() of @dirfd with
 *        FATTRS_KCHANGE_SAME_MOUNT
 * @flags: FATTRS_KCHANGE_BY_NAME, FATTRS_KCHANGE_SAME_MOUNT, both or 0 (the
 *        read-back is this function's)
 * @ret:  if not NULL, written when the call returns 0, 1 or -EOPNOTSUPP:
 *        what is not in effect, what of it was refused, and whether the
 *        file keeps no kernel flags at all
 *
 * The read-back rule: a change of nodump, noatime or sync only, each of
 * which was seen kept on this mount for this file type before, is not
 * read back (a filesystem that kept one on a file of a type keeps it on
 * every such file); the first of each is, and every change on a
 * filesystem where a server decides per file (FUSE, network), of a type
 * the table does not know, or on a mount not known (@mnt_id 0, @mode not
 * 0).  When the
 * filesystem refuses a change of several flags (tmpfs refuses the whole
 * write for one it does not have), each is tried alone (clears, sets,
 * then immutable and append), so that what can be is applied and @ret
 * names exactly what is not.
 *
 * Returns: 1 if something was written and all of it is in effect, 0 if
 * nothing needed writing, -EOPNOTSUPP if some of it is not (see @ret), or
 * -errno as fattrs_kattr_change() (-EINVAL for other @flags).
 */
int fattrs_mntcache_kchange(struct fattrs_mntcache *c, uint64_t mnt_id, int dirfd, const char *path, unsigned at_flags,
			    mode_t mode, const struct fattrs_kchange *change, unsigned flags, struct fattrs_kresult *ret);

/* ------------------------------------------------------ extended attributes */

/**
 * fattrs_xattr_get() - the value of the extended attribute @name of the
 * file @dirfd and @path name, read as the fattrs(7) flags are read:
 * getxattrat(2), else the path calls (doc/design.md §3).  Implemented in
 * flags/xattrat.c, with the calls the flags use.
 * @at_flags:  AT_SYMLINK_NOFOLLOW for a symbolic link's own attribute,
 *             AT_EMPTY_PATH for @dirfd's own file, or 0
 * @ret_value: a malloc()ed copy of the value, with a NUL after it (a value
 *             may hold NULs of its own)
 * @ret_len:   if not NULL, the value's length, the added NUL not counted
 *
 * Returns: 0, or -errno: -ENODATA (no such attribute), -EOPNOTSUPP (none
 * on this file or file system), -ENOENT, -EACCES, -ENOTDIR, -ELOOP,
 * -ENOMEM, -EINVAL for other @at_flags.
 */
int fattrs_xattr_get(int dirfd, const char *path, unsigned at_flags, const char *name, char **ret_value,
		     size_t *ret_len);

/* ------------------------------------------------------------ tree walk */

/* fattrs_walk() flags. */
enum {
	FATTRS_WALK_XDEV = 1 << 0,	/* do not enter directories on other filesystems */
	FATTRS_WALK_LAZY = 1 << 1,	/* no stat of names the directory says are no directory */
};

/* What a fattrs_walk_fn returns to go on but not enter this directory. */
#define FATTRS_WALK_SKIP 1

/**
 * struct fattrs_walk_entry - one name met by fattrs_walk().
 * @dirfd:      the directory it is in (valid during the call only)
 * @name:       its name there (one component)
 * @path:       the root as given, then the names down to it, for messages
 * @st:         its statx(2) (STATX_BASIC_STATS) with AT_SYMLINK_NOFOLLOW, as a
 *              struct stat (fstatat(2) where statx is missing); NULL under
 *              FATTRS_WALK_LAZY for a name whose directory entry says what it
 *              is, other than a directory (its d_type, which @type then holds)
 * @mnt_id:     its mount id (STATX_MNT_ID), from the same call; 0 when not
 *              known (no @st, or a kernel before 5.8)
 * @type:       its type (S_IFMT bits): from @st, or from the directory entry
 * @dir_serial: changes whenever @dirfd is another directory, or reopened
 * @depth:      1 for the root's entries
 */
struct fattrs_walk_entry {
	int dirfd;
	const char *name;
	const char *path;
	const struct stat *st;
	uint64_t mnt_id;
	mode_t type;
	unsigned long dir_serial;
	size_t depth;
};

/* Called for each name: 0 to go on, FATTRS_WALK_SKIP not to enter it, -errno to stop. */
typedef int (*fattrs_walk_fn)(const struct fattrs_walk_entry *e, void *arg);
/* What a fattrs_walk_err_fn is told of (@err says why). */
enum fattrs_walk_err {
	FATTRS_WALK_ERR_DIR,		/* @path, a directory, cannot be read or entered */
	FATTRS_WALK_ERR_ENTRY,		/* @path cannot be stat'ed or opened: -ENOENT, gone since listed */
	FATTRS_WALK_ERR_REPLACED,	/* @path is no longer the directory stat'ed: not entered (-ESTALE) */
	FATTRS_WALK_ERR_BACK,		/* the walk cannot go back up from @path: the rest is abandoned */
};

/* Called for what could not be read or entered; the walk goes on (but after FATTRS_WALK_ERR_BACK). */
typedef void (*fattrs_walk_err_fn)(const char *path, int err, enum fattrs_walk_err what, void *arg);

/**
 * fattrs_walk() - visit everything below the directory @dirfd, parents
 * before their contents.
 * @dirfd: the root directory (not visited itself; not closed)
 * @root:  its name, the start of every entry's @path
 * @flags: FATTRS_WALK_XDEV, FATTRS_WALK_LAZY, or 0
 * @fn:    called for each entry
 * @err:   called for each directory that cannot be read or entered
 *         (-EACCES, ...); may be NULL
 * @arg:   passed to both
 *
 * Every step is relative to the descriptor of the directory being read:
 * openat(2) with O_NOFOLLOW|O_DIRECTORY, so a symlink met inside is
 * visited (as itself) but never followed, and no path is ever resolved
 * from the top again.  One directory descriptor is open at a time,
 * whatever the depth: a directory's names are read whole before its
 * first subdirectory is entered, and it is reopened on the way back as
 * that subdirectory's "..", which must be the same device and inode (a
 * subdirectory moved elsewhere meanwhile ends the walk with -ESTALE,
 * reported through @err with that subdirectory's path).
 * A name that vanishes while the walk runs is reported through @err
 * (FATTRS_WALK_ERR_ENTRY, -ENOENT) and skipped; a directory is entered
 * only if it is still the one stat'ed and given to @fn (device and inode),
 * else reported (FATTRS_WALK_ERR_REPLACED) and skipped.
 *
 * Returns: 0, or -errno: what @fn returned to stop, -ENOMEM, -ESTALE,
 * or why @dirfd itself cannot be read.
 */
int fattrs_walk(int dirfd, const char *root, unsigned int flags, fattrs_walk_fn fn, fattrs_walk_err_fn err,
		void *arg);

/* The attribute flags: the kernel's own (kflags.h) and the four of fattrs(7) (fflags.h). */
#include "flags/fflags.h"
#include "fs/fstype.h"
#include "flags/kflags.h"
#include "flags/flagops.h"

#endif /* FATTRS_H */
