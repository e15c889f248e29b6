/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Temporary names and files (doc/design.md §4): templates, creation, publishing, held
 * directories.  Included from fattrs.h; do not include it on its own.
 */
#ifndef FATTRS_TMPFILE_H
#define FATTRS_TMPFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

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
 * fattrs_tmpfile_old_kept() - where the last fattrs_tmpfile_publish()
 * failed after the filesystem's client removed the old @path in the
 * rename it refused (Linux's SMB client before 7.1, when the file is open
 * on this client: doc/design.md §4), the name beside @path that the old
 * file is kept under now (never removed: tell the user); else NULL.  The
 * removed @path goes when its last opener closes it.
 */
const char *fattrs_tmpfile_old_kept(const struct fattrs_tmpfile *tf);

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

#endif /* FATTRS_TMPFILE_H */
