/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Temporary files that cannot leak (O_TMPFILE, else a random name with O_CREAT|O_EXCL), given
 * a name with linkat(2) and published (doc/design.md §4).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>

#include "internal.h"

/* As many names as mkstemp(3) tries (62^3) before it gives up with EEXIST. */
#define NAME_ATTEMPTS 238328

struct fattrs_tmpfile {
	int fd;
	int dirfd;
	mode_t mode;
	unsigned int flags;
	enum fattrs_tmp_method method;
	enum fattrs_tmp_why why;
	int why_errno;
	enum fattrs_link_via via;
	char *path;		/* NULL while unnamed */
	bool unpublished;	/* path is a scratch name to remove unless published */
	bool backup_failed;	/* the last publish failed making the backup */
	bool lost;		/* the last publish was reported done, and was not */
	char *kept;		/* then, the name its content is under, or NULL */
	int slot;		/* index in the scratch registry, or -1 */
};

/*
 * How unnamed files get linked in this process, learned on the first link:
 * AT_EMPTY_PATH is tried first; after it has failed once, only /proc is
 * tried; after both have failed, auto creates named files from the start.
 * What was learned stays true in a child after fork(2) (same kernel,
 * credentials and mounts); threads share it, atomically.
 */
static _Atomic enum fattrs_link_via link_known = FATTRS_LINK_UNKNOWN;

/*
 * Scratch names not yet published, for fattrs_tmpfile_cleanup_signal().
 * A name is registered before it is made, with the descriptor of the file
 * it is meant for: the handler removes it only if the name is that very
 * file (same device and inode), so a name that turned out to be taken by
 * someone else (EEXIST) is never removed, and no signal need be blocked.
 * A name registered without a descriptor (SCRATCH_TRUSTED) was registered
 * after it was made, with signals blocked; one still waiting for its
 * descriptor (SCRATCH_PENDING, the named method's open) is left alone.
 * A full registry only costs signal clean-up: objects remove their own
 * names.  A slot belongs to the process that registered it: a child after
 * fork(2) has a copy of its parent's slots, and its signals must not take
 * the names its parent still owns.  Threads claim slots atomically.
 */
#define SCRATCH_SLOTS 16
#define SCRATCH_PENDING (-1)
#define SCRATCH_TRUSTED (-2)
#define SCRATCH_TRUSTED_DIR (-3)	/* the same for a directory (rmdir, if empty) */
static struct {
	int claimed;		/* taken by a thread, atomically */
	pid_t owner;		/* the process that registered the name */
	int dirfd;
	volatile int fd;
	const char *volatile path;
} scratch[SCRATCH_SLOTS];

static int scratch_register(int dirfd, const char *path, int fd)
{
	for (int i = 0; i < SCRATCH_SLOTS; i++) {
		int unclaimed = 0;

		if (__atomic_compare_exchange_n(&scratch[i].claimed, &unclaimed, 1, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			scratch[i].owner = getpid();
			scratch[i].dirfd = dirfd;
			scratch[i].fd = fd;
			__atomic_store_n(&scratch[i].path, path, __ATOMIC_RELEASE);
			return i;
		}
	}
	return -1;
}

static void scratch_forget(int slot)
{
	if (slot >= 0) {
		__atomic_store_n(&scratch[slot].path, NULL, __ATOMIC_RELEASE);
		__atomic_store_n(&scratch[slot].claimed, 0, __ATOMIC_RELEASE);
	}
}

/*
 * Run @make(@dirfd, @path, @data) with every signal blocked; when it
 * succeeds and @ret_slot is not NULL, register @path for clean-up.  For
 * names with no descriptor to check them against.
 */
static int make_registered(int dirfd, const char *path, int (*make)(int, const char *, void *),
			   void *data, int *ret_slot)
{
	sigset_t all, old;
	int r;

	if (ret_slot == NULL)
		return make(dirfd, path, data);
	(void)sigfillset(&all);
	(void)sigprocmask(SIG_BLOCK, &all, &old);
	r = make(dirfd, path, data);
	if (r == 0)
		*ret_slot = scratch_register(dirfd, path, SCRATCH_TRUSTED);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

void fattrs_tmpfile_cleanup_signal(void)
{
	pid_t self = getpid();

	for (int i = 0; i < SCRATCH_SLOTS; i++) {
		const char *p = __atomic_load_n(&scratch[i].path, __ATOMIC_ACQUIRE);
		int fd = scratch[i].fd;
		struct stat mine, there;

		if (p == NULL || fd == SCRATCH_PENDING || scratch[i].owner != self)
			continue;
		if (fd >= 0 && (fstat(fd, &mine) < 0 ||
				fstatat(scratch[i].dirfd, p, &there, AT_SYMLINK_NOFOLLOW) < 0 ||
				mine.st_dev != there.st_dev || mine.st_ino != there.st_ino))
			continue;
		(void)unlinkat(scratch[i].dirfd, p, fd == SCRATCH_TRUSTED_DIR ? AT_REMOVEDIR : 0);
	}
}

/*
 * At most this many names made and lost again (NAME_LOST from @make) in a row:
 * where that keeps happening, something on the filesystem takes every name
 * (or the lock that keeps it means something else there), and trying on
 * would only cost round trips.
 */
#define LOST_ATTEMPTS 16
/* What @make returns for such a name (no errno: openat's own ESTALE stays one). */
#define NAME_LOST INT_MIN

/*
 * Try random names from @tmpl until @make succeeds with something but
 * EEXIST (or NAME_LOST: a name made and lost again).  Gives up after
 * NAME_ATTEMPTS names taken (EEXIST) or LOST_ATTEMPTS lost (ENOLCK).
 */
static int try_names(int dirfd, const struct fattrs_tmpl *tmpl, char **ret_path,
		     int (*make)(int dirfd, const char *path, void *data), void *data)
{
	char *buf = strdup(tmpl->path);
	int r = -EEXIST, lost = 0;

	if (buf == NULL)
		return -ENOMEM;
	for (long i = 0; i < NAME_ATTEMPTS; i++) {
		r = tmpl_randomize(buf, tmpl);
		if (r < 0)
			break;
		r = make(dirfd, buf, data);
		if (r == NAME_LOST && ++lost < LOST_ATTEMPTS)
			continue;
		if (r == NAME_LOST)
			r = -ENOLCK;
		if (r != -EEXIST || tmpl->x_len == 0)
			break;
	}
	if (r < 0) {
		free(buf);
		return r;
	}
	*ret_path = buf;
	return r;
}

/*
 * Open @path (a regular file, not followed) to take flock(LOCK_EX) on it:
 * for writing where allowed, since NFS turns flock(2) into a POSIX write
 * lock, which a descriptor open only for reading cannot take (EBADF); for
 * reading where writing is refused.  @flags: more open flags (O_CREAT).
 */
static int open_lockable(int dirfd, const char *path, int flags)
{
	const int how = O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | flags;
	int fd = openat(dirfd, path, O_RDWR | how, 0600);

	if (fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS || errno == ETXTBSY))
		fd = openat(dirfd, path, O_RDONLY | how, 0600);
	return fd;
}

static int name_stat(int dirfd, const char *path, struct stat *st);

#define RECLAIM_EINVAL_TRIES 15		/* of RECLAIM_EINVAL_WAIT_MS each */
#define RECLAIM_EINVAL_WAIT_MS 100
#define RECLAIM_EMPTY_WAIT_MS 50

static void sleep_ms(long ms)
{
	(void)nanosleep(&(struct timespec){ .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L }, NULL);
}

/*
 * A dead writer's leftover at @path is removed.  Every writer holds
 * flock(LOCK_EX) on its file from before the file has its hidden name
 * until it closes it, so a hidden name whose lock can be taken is one whose
 * writer has died (kill -9, a crash).  It is removed only if the name still
 * is the very file locked here.
 * Returns 0 when the name is free to try again, -EEXIST when it belongs to
 * a live writer (or to something that is not a writer's file).
 */
static int reclaim(int dirfd, const char *path)
{
	struct stat mine, there;
	int fd, r = -EEXIST;

	/* Never open what is not a regular file (a device's open can do things). */
	if (name_stat(dirfd, path, &there) < 0)
		return errno == ENOENT ? 0 : -EEXIST;
	if (!S_ISREG(there.st_mode))
		return -EEXIST;
	fd = open_lockable(dirfd, path, 0);
	/*
	 * cifs on 6.1 refuses to open a hard link made less than about a
	 * second ago (its attribute cache's time, actimeo) by its new name:
	 * EINVAL.  A dead writer's backup link is such a one: ask again, for
	 * at most 1.5 s, rather than leave it and take a random name that
	 * nobody would reclaim.
	 */
	for (int i = 0; fd < 0 && errno == EINVAL && i < RECLAIM_EINVAL_TRIES; i++) {
		sleep_ms(RECLAIM_EINVAL_WAIT_MS);
		fd = open_lockable(dirfd, path, 0);
	}
	if (fd < 0)
		return errno == ENOENT ? 0 : -EEXIST;
	if (fstat(fd, &mine) == 0 && S_ISREG(mine.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0) {
		/*
		 * An empty file may be a live writer's between its create and
		 * its lock (open_excl()).  Hold the lock a moment first: its
		 * flock(2) then fails and it gives the name up, instead of
		 * taking the lock after this has removed the file and going on
		 * with it, where its client's caches hide the removal
		 * (GlusterFS: ESTALE on its next call).
		 */
		if (mine.st_size == 0)
			sleep_ms(RECLAIM_EMPTY_WAIT_MS);
		if (name_stat(dirfd, path, &there) < 0)
			r = errno == ENOENT ? 0 : -EEXIST;
		else if (there.st_dev != mine.st_dev || there.st_ino != mine.st_ino)
			r = 0;		/* replaced meanwhile: look again */
		else
			r = unlinkat(dirfd, path, 0) == 0 || errno == ENOENT ? 0 : -EEXIST;
	}
	(void)close(fd);
	return r;
}

/*
 * @tmpl's path as it is first (a name of its own per target, see
 * fattrs_tmpl_hidden_for()), reclaiming a dead writer's leftover there
 * (@reclaim_as, called with @data; NULL: reclaim()); random names from
 * @tmpl when a live writer holds it.
 */
static int try_reclaimable(int dirfd, const struct fattrs_tmpl *tmpl, char **ret_path,
			   int (*make)(int dirfd, const char *path, void *data),
			   int (*reclaim_as)(int dirfd, const char *path, void *data), void *data)
{
	char *buf = strdup(tmpl->path);
	int r = -EEXIST;

	if (buf == NULL)
		return -ENOMEM;
	for (int i = 0; i < 4 && (r == -EEXIST || r == NAME_LOST); i++) {
		r = make(dirfd, buf, data);
		if (r == -EEXIST && (reclaim_as != NULL ? reclaim_as(dirfd, buf, data) : reclaim(dirfd, buf)) < 0)
			break;
	}
	if (r == 0) {
		*ret_path = buf;
		return 0;
	}
	free(buf);
	if (r != -EEXIST && r != NAME_LOST)
		return r;
	return try_names(dirfd, tmpl, ret_path, make, data);
}

/*
 * This machine, as four letters and digits: a hash of /etc/machine-id and
 * the host name.  Hidden names end in it, so that writers on machines
 * sharing a network filesystem never meet each other's names: flock(2) on
 * FUSE (sshfs) is local to this machine, and could not tell another
 * machine's live writer from a dead one here.  Computed once; threads may
 * both compute it, with the same result.
 */
#define MACHINE_TAG_LEN 4
static void machine_tag(char *out)
{
	static char tag[MACHINE_TAG_LEN];
	static _Atomic bool known;
	static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

	if (!known) {
		char buf[256 + HOST_NAME_MAX + 1] = "";
		uint64_t h = 14695981039346656037ULL;
		size_t n = 0;
		int fd = open("/etc/machine-id", O_RDONLY | O_NOCTTY | O_CLOEXEC);

		if (fd >= 0) {
			ssize_t got = read(fd, buf, 256);

			n = got > 0 ? (size_t)got : 0;
			(void)close(fd);
		}
		buf[n++] = '\n';
		if (gethostname(buf + n, HOST_NAME_MAX + 1) == 0)
			n += strnlen(buf + n, HOST_NAME_MAX);
		for (size_t i = 0; i < n; i++) {
			h ^= (unsigned char)buf[i];
			h *= 1099511628211ULL;
		}
		for (size_t i = 0; i < MACHINE_TAG_LEN; i++) {
			tag[i] = alnum[h % 62];
			h /= 62;
		}
		known = true;
	}
	memcpy(out, tag, MACHINE_TAG_LEN);
}

/*
 * FNV-1a of @kind and the last component of @path, as @len letters and
 * digits, the last MACHINE_TAG_LEN of them this machine's tag.  @kind
 * keeps the names of different uses apart ("" for FILE's hidden output,
 * "~" for its backup's hidden link, "s" for scratch files).
 */
static void name_hash(const char *kind, const char *path, char *out, size_t len)
{
	static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	const char *slash = strrchr(path, '/');
	uint64_t h = 14695981039346656037ULL;

	for (const unsigned char *c = (const unsigned char *)kind; *c; c++) {
		h ^= *c;
		h *= 1099511628211ULL;
	}
	for (const unsigned char *c = (const unsigned char *)(slash != NULL ? slash + 1 : path); *c; c++) {
		h ^= *c;
		h *= 1099511628211ULL;
	}
	for (size_t i = 0; i < len; i++) {
		out[i] = alnum[h % 62];
		h /= 62;
	}
	if (len > MACHINE_TAG_LEN)
		machine_tag(out + len - MACHINE_TAG_LEN);
}

static char *hidden_kind_for(const char *kind, const char *path, struct fattrs_tmpl *ret)
{
	char *dir = fattrs_path_dir(path);
	char *hidden = dir != NULL ? fattrs_tmpl_hidden(dir, ret) : NULL;

	free(dir);
	if (hidden != NULL)
		name_hash(kind, path, hidden + ret->x_off, ret->x_len);
	return hidden;
}

char *fattrs_tmpl_hidden_for(const char *path, struct fattrs_tmpl *ret)
{
	return hidden_kind_for("", path, ret);
}

char *fattrs_tmpl_hidden_scratch(const char *dir, struct fattrs_tmpl *ret)
{
	char *hidden = fattrs_tmpl_hidden(dir, ret);

	if (hidden != NULL)
		name_hash("s", "", hidden + ret->x_off, ret->x_len);
	return hidden;
}

/*
 * -EPERM when the directory of @path is append-only: a name made there can
 * never be removed or renamed away again (chattr +a).
 */
static int dir_refuses_removal(int dirfd, const char *path)
{
	struct fattrs_statx_buf stx;
	char *dir = fattrs_path_dir(path);
	int r;

	if (dir == NULL)
		return -ENOMEM;
	r = fattrs_statx(dirfd, dir, 0, STATX_TYPE, &stx);
	free(dir);
	if (r == 0 && (stx.stx_attributes & stx.stx_attributes_mask & STATX_ATTR_APPEND))
		return -EPERM;
	return 0;
}

static bool same_inode(const struct stat *a, const struct stat *b);
static void unlink_if(int dirfd, const char *path, const struct stat *st);

struct named_args {
	mode_t mode;
	int fd;
	int slot;	/* registry slot once created, or -1 */
	bool scratch;
	bool lock;	/* flock the new file, and make sure the name is still it */
};

/*
 * flock(2) failed because another open file holds the lock: EWOULDBLOCK,
 * or EACCES where the cifs client turns flock(2) into SMB byte-range
 * locks.  Any other error means there are no such locks here.
 */
static bool lock_held_elsewhere(int err)
{
	return err == EWOULDBLOCK || err == EACCES;
}

/*
 * Create @path exclusively; with @a->lock, lock it and make sure the name
 * still is this file.  Before the lock, another writer may have taken the
 * name for a dead one's and removed it: then the name is not (or no longer)
 * this file, and another is tried.  The lock is taken once: a second
 * flock(2) on the same open file is not a no-op everywhere (on cifs it is
 * a second byte-range lock, which the first one refuses: EACCES).
 * Returns 0; -EEXIST when the name is taken; NAME_LOST when the name was
 * made but lost again (nothing of it left here); or -errno.
 */
static int open_excl(int dirfd, const char *path, void *data)
{
	struct named_args *a = data;
	struct stat mine, there;

	a->fd = openat(dirfd, path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, a->mode);
	if (a->fd < 0)
		return negerrno();
	if (!a->lock)
		return 0;
	if (flock(a->fd, LOCK_EX | LOCK_NB) < 0) {
		if (!lock_held_elsewhere(errno))
			return 0;	/* no locks here: nobody can reclaim it either */
		/* A reclaimer holds it, and removes the name: give it up. */
	} else if (fstat(a->fd, &mine) == 0 && name_stat(dirfd, path, &there) == 0 &&
		   same_inode(&mine, &there)) {
		return 0;
	}
	if (fstat(a->fd, &mine) == 0)
		unlink_if(dirfd, path, &mine);
	(void)close(a->fd);
	a->fd = -1;
	return NAME_LOST;
}

static int make_named(int dirfd, const char *path, void *data)
{
	struct named_args *a = data;
	int r;

	if (!a->scratch)
		return open_excl(dirfd, path, a);
	a->slot = scratch_register(dirfd, path, SCRATCH_PENDING);
	r = open_excl(dirfd, path, a);
	if (r < 0) {
		scratch_forget(a->slot);
		a->slot = -1;
	} else if (a->slot >= 0) {
		scratch[a->slot].fd = a->fd;
	}
	return r;
}

static int open_named(struct fattrs_tmpfile *tf, const struct fattrs_tmpl *tmpl)
{
	struct named_args a = {
		.mode = tf->mode,
		.fd = -1,
		.slot = -1,
		.scratch = (tf->flags & (FATTRS_TMP_UNPUBLISHED | FATTRS_TMP_HOLD)) != 0,
		.lock = (tf->flags & FATTRS_TMP_RECLAIM) != 0,
	};
	char *path;
	int r;

	if (tf->flags & FATTRS_TMP_UNPUBLISHED) {
		/* A scratch name in an append-only directory could never be removed again. */
		r = dir_refuses_removal(tf->dirfd, tmpl->path);
		if (r < 0)
			return r;
	}
	r = a.lock ? try_reclaimable(tf->dirfd, tmpl, &path, make_named, NULL, &a)
		   : try_names(tf->dirfd, tmpl, &path, make_named, &a);

	if (r < 0)
		return r;
	tf->fd = a.fd;
	tf->path = path;
	tf->slot = a.slot;
	tf->unpublished = a.scratch;
	tf->method = FATTRS_TMP_NAMED;
	return 0;
}

/* The name is published (or given up): stop treating it as scratch. */
static void scratch_release(struct fattrs_tmpfile *tf)
{
	scratch_forget(tf->slot);
	tf->slot = -1;
	tf->unpublished = false;
}

static int open_unnamed(int dirfd, const char *tmpl_path, mode_t mode)
{
	char *dir = fattrs_path_dir(tmpl_path);
	int fd;

	if (dir == NULL)
		return -ENOMEM;
	fd = openat(dirfd, dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
	if (fd < 0)
		fd = negerrno();
	free(dir);
	return fd;
}

int fattrs_tmpfile_loses_name(int dirfd, const char *path)
{
	struct statfs sf;
	const struct fattrs_fstype *t;
	int r = statfs_at(dirfd, path, path[0] == '\0' ? AT_EMPTY_PATH : 0, &sf);

	if (r < 0)
		return r;
	t = fattrs_fstype_by_magic((uint32_t)sf.f_type);
	return t != NULL && t->tmpfile_loses_name;
}

/* The errors that mean "this filesystem (or kernel) has no O_TMPFILE". */
static bool no_tmpfile(int r)
{
	return r == -EOPNOTSUPP || r == -EISDIR || r == -EINVAL;
}

int fattrs_tmpfile_new(int dirfd, const struct fattrs_tmpl *tmpl, mode_t mode,
		       enum fattrs_tmp_method method, unsigned int flags,
		       struct fattrs_tmpfile **ret)
{
	struct fattrs_tmpfile *tf = calloc(1, sizeof(*tf));
	int r;

	if (tf == NULL)
		return -ENOMEM;
	*tf = (struct fattrs_tmpfile) {
		.fd = -1,
		.dirfd = dirfd,
		.mode = mode,
		.flags = flags,
		.method = method,
		.why = FATTRS_TMP_WHY_REQUESTED,
		.slot = -1,
	};

	if (tmpl->path[0] != '\0' && tmpl->path[strlen(tmpl->path) - 1] == '/') {
		/* "name/" can only be a directory, as open(O_CREAT) would say. */
		free(tf);
		return -EISDIR;
	}
	if (method == FATTRS_TMP_AUTO && link_known == FATTRS_LINK_NONE) {
		tf->why = FATTRS_TMP_WHY_NO_LINK;
		method = FATTRS_TMP_NAMED;
	}
	if (method == FATTRS_TMP_NAMED) {
		r = open_named(tf, tmpl);
		goto done;
	}

	r = open_unnamed(dirfd, tmpl->path, mode);
	if (r >= 0 && fattrs_tmpfile_loses_name(r, "") > 0) {
		(void)close(r);
		if (method == FATTRS_TMP_AUTO) {
			tf->why = FATTRS_TMP_WHY_LOSES_NAME;
			r = open_named(tf, tmpl);
			goto done;
		}
		r = -EOPNOTSUPP;
	}
	if (r >= 0) {
		tf->fd = r;
		tf->method = FATTRS_TMP_TMPFILE;
		if (method == FATTRS_TMP_AUTO)
			tf->why = FATTRS_TMP_WHY_SUPPORTED;
		r = 0;
	} else if (method == FATTRS_TMP_AUTO && no_tmpfile(r)) {
		tf->why = FATTRS_TMP_WHY_NO_TMPFILE;
		tf->why_errno = -r;
		r = open_named(tf, tmpl);
	} else if (r == -EISDIR || r == -EINVAL) {
		/* What kernels without O_TMPFILE answer: say it plainly. */
		r = -EOPNOTSUPP;
	}
done:
	if (r < 0) {
		free(tf);
		return r;
	}
	*ret = tf;
	return 0;
}

struct fattrs_tmpfile *fattrs_tmpfile_free(struct fattrs_tmpfile *tf)
{
	if (tf == NULL)
		return NULL;
	if (tf->unpublished) {
		scratch_forget(tf->slot);
		(void)unlinkat(tf->dirfd, tf->path, 0);
	}
	if (tf->fd >= 0)
		(void)close(tf->fd);
	free(tf->path);
	free(tf->kept);
	free(tf);
	return NULL;
}

int fattrs_tmpfile_fd(const struct fattrs_tmpfile *tf)
{
	return tf->fd;
}

enum fattrs_tmp_method fattrs_tmpfile_method(const struct fattrs_tmpfile *tf)
{
	return tf->method;
}

enum fattrs_tmp_why fattrs_tmpfile_why(const struct fattrs_tmpfile *tf, int *ret_errno)
{
	if (ret_errno != NULL)
		*ret_errno = tf->why_errno;
	return tf->why;
}

enum fattrs_link_via fattrs_tmpfile_via(const struct fattrs_tmpfile *tf)
{
	return tf->via;
}

const char *fattrs_tmpfile_path(const struct fattrs_tmpfile *tf)
{
	return tf->path;
}

/* Link descriptor @fd as @path, the cheapest way known to work here. */
static int link_fd(int fd, int dirfd, const char *path, enum fattrs_link_via *ret_via)
{
	char proc[sizeof("/proc/self/fd/") + 3 * sizeof(int)];
	int r = -ENOENT;

	if (link_known != FATTRS_LINK_PROC) {
		if (linkat(fd, "", dirfd, path, AT_EMPTY_PATH) == 0) {
			*ret_via = link_known = FATTRS_LINK_EMPTY_PATH;
			return 0;
		}
		r = negerrno();
		/* ENOENT: not our descriptor's to link (kernel < 6.10, no capability). */
		if (r != -ENOENT)
			return r;
	}
	(void)snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, dirfd, path, AT_SYMLINK_FOLLOW) == 0) {
		*ret_via = link_known = FATTRS_LINK_PROC;
		return 0;
	}
	r = negerrno();
	/*
	 * ENOENT both ways: no /proc either, or not linkable at all.  Say
	 * "cannot link"; the named method then finds out whether the
	 * directory itself is gone.
	 */
	return r == -ENOENT ? -ENOLINK : r;
}

struct link_args {
	int fd;			/* link this descriptor ... */
	const char *src;	/* ... or, if not NULL, this existing name */
	enum fattrs_link_via via;
	bool scratch;		/* register the new name for signal clean-up */
	int slot;
};

static int link_one(int dirfd, const char *path, void *data)
{
	struct link_args *a = data;

	if (a->src != NULL)
		return linkat(dirfd, a->src, dirfd, path, 0) == 0 ? 0 : negerrno();
	return link_fd(a->fd, dirfd, path, &a->via);
}

static int make_link(int dirfd, const char *path, void *data)
{
	struct link_args *a = data;
	int r;

	if (!a->scratch)
		return link_one(dirfd, path, a);
	if (a->src != NULL)
		return make_registered(dirfd, path, link_one, a, &a->slot);
	/* Registered first, checked against the descriptor by the handler. */
	a->slot = scratch_register(dirfd, path, a->fd);
	r = link_one(dirfd, path, a);
	if (r < 0) {
		scratch_forget(a->slot);
		a->slot = -1;
	}
	return r;
}

/* Copy everything from @from to @to, from offset 0. */
static int copy_all(int from, int to)
{
	loff_t in = 0, out = 0;

	for (;;) {
		ssize_t n = copy_file_range(from, &in, to, &out, 1 << 30, 0);

		if (n == 0)
			return 0;
		if (n > 0)
			continue;
		if (errno != EXDEV && errno != ENOSYS && errno != EOPNOTSUPP && errno != EINVAL)
			return negerrno();
		break;
	}
	for (;;) {
		char buf[65536];
		ssize_t n = pread(from, buf, sizeof(buf), in);

		if (n < 0)
			return negerrno();
		if (n == 0)
			return 0;
		for (ssize_t done = 0; done < n; ) {
			ssize_t w = pwrite(to, buf + done, (size_t)(n - done), out);

			if (w < 0)
				return negerrno();
			done += w;
			out += w;
		}
		in += n;
	}
}

/*
 * No way to link an unnamed file: remake it under a name, with its data
 * and what attributes it was given.
 */
static int relink_as_named(struct fattrs_tmpfile *tf, const struct fattrs_tmpl *tmpl, unsigned int sync)
{
	int old = tf->fd;
	int r;

	tf->via = FATTRS_LINK_NONE;
	r = open_named(tf, tmpl);
	if (r < 0) {
		tf->fd = old;
		tf->method = FATTRS_TMP_TMPFILE;
		return r;
	}
	/*
	 * The directory takes names, so linking itself failed: remember it.
	 * (When the directory was gone, it says nothing about other files.)
	 */
	link_known = FATTRS_LINK_NONE;
	/* Its kernel flags while the copy is empty (nocow takes only then), the rest after. */
	(void)fattrs_preserve_kflags(old, "", tf->fd);
	r = copy_all(old, tf->fd);
	if (r == 0)
		(void)fattrs_preserve(old, tf->fd, FATTRS_PRESERVE_ALL, NULL);
	/* The copy is what gets the name: flushed as the original was. */
	if (r == 0 && (sync & FATTRS_PUBLISH_FSYNC) && fsync(tf->fd) < 0)
		r = negerrno();
	else if (r == 0 && (sync & FATTRS_PUBLISH_FDATASYNC) && fdatasync(tf->fd) < 0)
		r = negerrno();
	if (r < 0) {
		scratch_forget(tf->slot);
		tf->slot = -1;
		tf->unpublished = false;
		(void)unlinkat(tf->dirfd, tf->path, 0);
		(void)close(tf->fd);
		free(tf->path);
		tf->path = NULL;
		tf->fd = old;
		tf->method = FATTRS_TMP_TMPFILE;
		return r;
	}
	(void)close(old);
	tf->why = FATTRS_TMP_WHY_NO_LINK;
	tf->why_errno = ENOENT;
	return 0;
}

int fattrs_tmpfile_link(struct fattrs_tmpfile *tf, const struct fattrs_tmpl *tmpl)
{
	bool hold = (tf->flags & FATTRS_TMP_HOLD) != 0;
	struct link_args a = { .fd = tf->fd, .scratch = hold, .slot = -1 };
	char *path;
	int r;

	if (tf->path != NULL) {
		/* Named from the start: it already has its name. */
		if (!hold)
			scratch_release(tf);
		return 0;
	}
	r = try_names(tf->dirfd, tmpl, &path, make_link, &a);
	if (r == -ENOLINK) {
		r = relink_as_named(tf, tmpl, 0);
		if (r == 0 && !hold)
			scratch_release(tf);
		return r;
	}
	if (r < 0)
		return r;
	tf->path = path;
	tf->via = a.via;
	if (hold) {
		/* The registry points at @path, which the object now owns. */
		tf->slot = a.slot;
		tf->unpublished = true;
	}
	return 0;
}

void fattrs_tmpfile_release(struct fattrs_tmpfile *tf)
{
	scratch_release(tf);
}

struct dir_args {
	mode_t mode;
	int slot;	/* -1, or where the held directory is registered */
	bool hold;
};

static int make_dir(int dirfd, const char *path, void *data)
{
	struct dir_args *a = data;
	sigset_t all, old;
	int r;

	if (!a->hold)
		return mkdirat(dirfd, path, a->mode) == 0 ? 0 : negerrno();
	/* Made and registered with every signal blocked: no moment unaccounted for. */
	(void)sigfillset(&all);
	(void)sigprocmask(SIG_BLOCK, &all, &old);
	r = mkdirat(dirfd, path, a->mode) == 0 ? 0 : negerrno();
	if (r == 0)
		a->slot = scratch_register(dirfd, path, SCRATCH_TRUSTED_DIR);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

int fattrs_tmpdir_new(int dirfd, const struct fattrs_tmpl *tmpl, mode_t mode, char **ret_path)
{
	struct dir_args a = { .mode = mode, .slot = -1 };

	return try_names(dirfd, tmpl, ret_path, make_dir, &a);
}

int fattrs_tmpdir_new_held(int dirfd, const struct fattrs_tmpl *tmpl, mode_t mode, char **ret_path,
			   int *ret_hold)
{
	struct dir_args a = { .mode = mode, .slot = -1, .hold = true };
	int r = try_names(dirfd, tmpl, ret_path, make_dir, &a);

	if (r == 0)
		*ret_hold = a.slot;
	return r;
}

void fattrs_tmpdir_release(int hold)
{
	scratch_forget(hold);
}

int tmpfile_rename(struct fattrs_tmpfile *tf, const char *path, unsigned int flags)
{
	char *copy = strdup(path);
	int slot = -1;

	if (copy == NULL)
		return -ENOMEM;
	if (tf->path == NULL) {
		free(copy);
		return -EINVAL;
	}
	/* Registered under the new name first: a signal at any moment finds the file. */
	if (tf->unpublished)
		slot = scratch_register(tf->dirfd, copy, tf->fd);
	if (renameat2(tf->dirfd, tf->path, tf->dirfd, copy, flags) < 0) {
		int r = negerrno();

		scratch_forget(slot);
		free(copy);
		return r;
	}
	scratch_forget(tf->slot);
	tf->slot = slot;
	free(tf->path);
	tf->path = copy;
	return 0;
}

static int make_nothing(int dirfd, const char *path, void *data)
{
	struct stat st;

	(void)data;
	if (fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return -EEXIST;
	return errno == ENOENT ? 0 : negerrno();
}

int fattrs_tmpname_pick(int dirfd, const struct fattrs_tmpl *tmpl, char **ret_path)
{
	return try_names(dirfd, tmpl, ret_path, make_nothing, NULL);
}

static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * What @path (not followed) names now, asked of the server where there is
 * one (AT_STATX_FORCE_SYNC; the same as fstatat(2) on a local
 * filesystem).  Whether a name still is a file, or is gone, must not come
 * from the client's caches: a writer killed in its rename leaves the
 * kernel believing the old name (the server made the rename), and cifs
 * then answers O_EXCL with EEXIST for a name the server no longer has,
 * its open with ENOENT; a file another client removed still looks there.
 * A forced stat that finds the name gone also makes the kernel look it
 * up again next time.  -1 with errno, as fstatat(2).
 */
static int name_stat(int dirfd, const char *path, struct stat *st)
{
	uint64_t mnt_id;

	return fattrs_stat_mnt(dirfd, path, AT_SYMLINK_NOFOLLOW | AT_STATX_FORCE_SYNC, st, &mnt_id);
}

/* Unlink @path if it still is the file @st describes. */
static void unlink_if(int dirfd, const char *path, const struct stat *st)
{
	struct stat now;

	if (name_stat(dirfd, path, &now) == 0 && same_inode(&now, st))
		(void)unlinkat(dirfd, path, 0);
}

/*
 * renameat(2) that leaves nothing behind: between two links of one inode
 * (FILE~ a hard link of FILE, or two writers' backups of one FILE) it
 * succeeds and does nothing, and @from would stay forever.
 * Where links share an inode number, @from still being @to's file says
 * so.  sshfs (without -o use_ino) numbers inodes per name, so two links
 * never look alike there; and the kernel, which believes the rename, has
 * moved @from's inode to @to: a @from that is still there is looked up
 * afresh.  Then the lock tells: @from is one of this process's hidden
 * names (locked by a writer of this machine while it lives, see
 * reclaim()), so a @from that nobody holds locked is the rename's
 * leftover -- or a dead writer's, which anyone may reclaim -- and a
 * locked one a live writer's new file, left alone.
 */
static int rename_over(int dirfd, const char *from, const char *to, bool mine)
{
	struct stat a, b;

	if (renameat(dirfd, from, dirfd, to) < 0)
		return negerrno();
	if (fstatat(dirfd, from, &a, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	/*
	 * A name that only this process makes while it runs (@mine: a random
	 * one, or a backup link made under its staging lock, which no other
	 * writer makes meanwhile) still there is this rename's leftover.
	 */
	if (mine || (fstatat(dirfd, to, &b, AT_SYMLINK_NOFOLLOW) == 0 && same_inode(&a, &b)))
		(void)unlinkat(dirfd, from, 0);
	else
		(void)reclaim(dirfd, from);
	return 0;
}

/*
 * Before anything is made beside an existing @path: would replacing it be
 * refused?  Then say so now, while nothing is left to clean up:
 * - an append-only directory takes new names but never removes one (the
 *   hidden name could not be removed when the rename is refused);
 * - in a sticky directory, someone else's file may be replaced only by
 *   the directory's owner or with CAP_FOWNER, and a backup link made
 *   first would be someone else's file there, which the caller could not
 *   remove either.
 */
static int replace_allowed(int dirfd, const char *path)
{
	struct fattrs_statx_buf d;
	struct stat f;
	char *dir = fattrs_path_dir(path);
	int r;

	if (dir == NULL)
		return -ENOMEM;
	r = fattrs_statx(dirfd, dir, 0, STATX_TYPE | STATX_MODE | STATX_UID, &d);
	free(dir);
	if (r < 0)
		return 0;	/* the operations themselves will say */
	if (d.stx_attributes & d.stx_attributes_mask & STATX_ATTR_APPEND)
		return -EPERM;
	if (!(d.stx_mode & S_ISVTX) || fstatat(dirfd, path, &f, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (f.st_uid == geteuid() || d.stx_uid == geteuid() || fattrs_caps_have(CAP_FOWNER))
		return 0;
	return -EPERM;
}

/*
 * Keeping the current @path as @backup.  Either @backup did not exist and
 * is a new hard link of @path (@made: removed again if the replace fails),
 * or an older @backup exists: then it is left as it is until @path has
 * been replaced, and the old @path waits under a hidden name of its own
 * (@hidden), renamed over @backup only after the replace.  So a replace
 * that fails leaves @path and the older @backup as they were, and at no
 * moment is any version without a name.
 * The hidden name is made from @backup's name and this machine
 * (hidden_kind_for("~")), under the staging lock of that name
 * (stage_lock()), which is held until the hidden name is gone again
 * (renamed over @backup, or removed): so a writer that finds that name
 * while it holds the lock has found a dead writer's (kill -9), which it
 * reclaims (reclaim_backup_link()).  The hidden link itself is never
 * opened: cifs opens a hard link younger than its attribute cache with
 * EINVAL, and a file open on a Samba server cannot be renamed over there
 * (STATUS_ACCESS_DENIED), which the kernel's client answers by removing
 * the target first and renaming after, so a writer killed in between
 * left no @path at all.  Where no lock can be had (no flock(2), not
 * writable), a random name, which nobody takes for a dead writer's.
 */
struct backup {
	bool made;
	bool made_shares_ino;	/* @made: the new link has @path's inode number */
	int made_fd;	/* @made: O_PATH descriptor opened through @backup, or -1 */
	char *hidden;
	int slot;	/* registry slot of @hidden (signal clean-up) */
	char *lock_name;	/* the staging lock held, or NULL */
	int lock_fd;
	int lock_slot;
};

#define BACKUP_INIT { .slot = -1, .made_fd = -1, .lock_fd = -1, .lock_slot = -1 }

struct backup_link_args {
	const char *src;	/* the file linked (@path) */
	const char *backup;
	int slot;	/* registry slot of the name made */
};

static int link_name(int dirfd, const char *path, void *data)
{
	return linkat(dirfd, data, dirfd, path, 0) == 0 ? 0 : negerrno();
}

/* Link @a->src as @path, registered for signal clean-up. */
static int link_staged(int dirfd, const char *path, void *data)
{
	struct backup_link_args *a = data;

	return make_registered(dirfd, path, link_name, (void *)(uintptr_t)a->src, &a->slot);
}

/*
 * @hidden, a backup's hidden link found while its staging lock is held
 * here: a dead writer's.  Still @path's or @backup's file (that writer
 * was killed before its replace, or the link is the leftover of a rename
 * between two links of one file), it goes.  Else it is the only name of
 * the file that writer replaced (killed between its two renames, or
 * between the removal and the rename that cifs makes of a replace): it
 * becomes @backup, as that writer would have made it, rather than be
 * lost.  Returns 0 when the name is free, -EEXIST when it stays.
 */
static int reclaim_backup_link(int dirfd, const char *hidden, void *data)
{
	struct backup_link_args *a = data;
	struct stat h, st;
	int r;

	if (name_stat(dirfd, hidden, &h) < 0)
		return errno == ENOENT ? 0 : -EEXIST;
	if (!S_ISREG(h.st_mode))
		return -EEXIST;
	if ((name_stat(dirfd, a->src, &st) == 0 && same_inode(&h, &st)) ||
	    (name_stat(dirfd, a->backup, &st) == 0 && same_inode(&h, &st)))
		return unlinkat(dirfd, hidden, 0) == 0 || errno == ENOENT ? 0 : -EEXIST;
	r = rename_over(dirfd, hidden, a->backup, true);
	return r == 0 || r == -ENOENT ? 0 : -EEXIST;
}

/*
 * The staging lock of @backup's hidden link: flock(LOCK_EX) on a file of
 * a name of its own (hidden_kind_for("~l")), made if missing, held from
 * before the hidden link is made until it is gone again, then removed.
 * Under this lock a writer killed anywhere leaves names the next writer
 * reclaims: this lock file (taken, then removed), or a hidden link (found
 * under the lock, so a dead writer's).  The name is checked to be still
 * the file locked (a holder removes it before it lets go), so only a
 * holder ever removes it.
 * Returns the locked descriptor, or -ENOLCK when no lock can be had here
 * (not a regular file, not writable, no flock(2)).
 */
static int stage_lock(int dirfd, const char *name, int *ret_slot)
{
	for (int i = 0; i < 8; i++) {
		struct stat mine, there;
		int fd, r;

		if (fstatat(dirfd, name, &there, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(there.st_mode))
			return -ENOLCK;
		fd = open_lockable(dirfd, name, O_CREAT);
		if (fd < 0)
			return -ENOLCK;
		if (fstat(fd, &mine) < 0 || !S_ISREG(mine.st_mode)) {
			(void)close(fd);
			return -ENOLCK;
		}
		while ((r = flock(fd, LOCK_EX)) < 0 && errno == EINTR)
			;
		if (r < 0) {
			/* No lock here, so no holder either: what this made goes again. */
			unlink_if(dirfd, name, &mine);
			(void)close(fd);
			return -ENOLCK;
		}
		if (name_stat(dirfd, name, &there) == 0 && same_inode(&mine, &there)) {
			*ret_slot = scratch_register(dirfd, name, fd);
			return fd;
		}
		(void)close(fd);	/* removed by its holder meanwhile: again */
	}
	return -ENOLCK;
}

static void stage_unlock(int dirfd, const char *name, int fd, int slot)
{
	scratch_forget(slot);
	(void)unlinkat(dirfd, name, 0);
	(void)close(fd);
}

/*
 * @backup was just made, a new link of @path: remember it, so that a
 * replace that fails removes it again, and nothing else.
 * By inode number alone that cannot be told everywhere: FUSE filesystems
 * that number inodes per name (sshfs without -o use_ino; libfuse's
 * high-level API) give each link a number of its own, and nlink 1, so
 * @backup never looks like a link of @path there, and size or times would
 * be guesses.  What does stay true on every filesystem is the kernel's
 * inode behind the name this process made: an O_PATH descriptor opened
 * through @backup right after the link pins it (and, being O_PATH, sends
 * FUSE no open: libfuse does not hide the name when it is unlinked), and
 * @backup still resolves to it unless something was renamed or linked
 * over it on this machine since.  Where the new link does share @path's
 * number (every local filesystem), FILE~ is in addition removed only
 * while it still is FILE, as before.
 */
static void backup_made(int dirfd, const char *path, const char *backup, struct backup *b)
{
	struct stat mine, st;

	b->made = true;
	b->made_fd = openat(dirfd, backup, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	b->made_shares_ino = b->made_fd < 0 ||
		(fstat(b->made_fd, &mine) == 0 && fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		 same_inode(&mine, &st));
}

/*
 * @path is missing: nothing to keep.  But a writer killed in the middle of
 * the replace that cifs makes of a rename over a file open on the server
 * (the target removed first, then the rename) left the file it replaced
 * only under its hidden backup name: that becomes @backup now, as that
 * writer would have made it.  One forced stat when there is no such name.
 */
static void backup_orphan(int dirfd, const char *path, const char *backup)
{
	struct backup_link_args a = { .src = path, .backup = backup, .slot = -1 };
	struct fattrs_tmpl tmpl, ltmpl;
	char *hidden = hidden_kind_for("~", backup, &tmpl), *lname = NULL;
	struct stat st;
	int fd, slot = -1;

	if (hidden != NULL && name_stat(dirfd, hidden, &st) == 0 &&
	    (lname = hidden_kind_for("~l", backup, &ltmpl)) != NULL &&
	    (fd = stage_lock(dirfd, lname, &slot)) >= 0) {
		(void)reclaim_backup_link(dirfd, hidden, &a);
		stage_unlock(dirfd, lname, fd, slot);
	}
	free(lname);
	free(hidden);
}

static int backup_prepare_once(int dirfd, const char *path, const char *backup, struct backup *b)
{
	struct backup_link_args a = { .src = path, .backup = backup, .slot = -1 };
	struct fattrs_tmpl tmpl, ltmpl;
	struct stat st;
	char *hidden;
	int r;

	*b = (struct backup) BACKUP_INIT;
	if (linkat(dirfd, path, dirfd, backup, 0) == 0) {
		backup_made(dirfd, path, backup, b);
		return 0;
	}
	if (errno == ENOENT) {
		/* Nothing to keep when @path is missing; a missing backup directory is an error. */
		if (name_stat(dirfd, path, &st) == 0 || errno != ENOENT)
			return -ENOENT;
		backup_orphan(dirfd, path, backup);
		return 0;
	}
	if (errno != EEXIST)
		return negerrno();
	/* What renaming over the older backup would say, said before anything is replaced. */
	if (fstatat(dirfd, backup, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
		return -EISDIR;
	r = replace_allowed(dirfd, backup);
	if (r < 0)
		return r;
	hidden = hidden_kind_for("~", backup, &tmpl);
	b->lock_name = hidden != NULL ? hidden_kind_for("~l", backup, &ltmpl) : NULL;
	if (b->lock_name == NULL) {
		free(hidden);
		return -ENOMEM;
	}
	b->lock_fd = stage_lock(dirfd, b->lock_name, &b->lock_slot);
	if (b->lock_fd >= 0) {
		r = try_reclaimable(dirfd, &tmpl, &b->hidden, link_staged, reclaim_backup_link, &a);
	} else {
		/* Not lockable here: a random name, which nobody takes for a dead writer's. */
		struct link_args l = { .src = path, .scratch = true, .slot = -1 };

		free(b->lock_name);
		b->lock_name = NULL;
		r = try_names(dirfd, &tmpl, &b->hidden, make_link, &l);
		a.slot = l.slot;
	}
	free(hidden);
	b->slot = a.slot;
	return r;
}

/*
 * A link of @path fails with ENOENT, though @path is there, when another
 * writer renames its new file over @path at that moment: the old file,
 * found by the name, lost its last link before the link was made.  @path
 * is then looked at again (a new file by now), a few times; a backup
 * directory that is missing fails each time.
 */
static void backup_free(int dirfd, struct backup *b);

static int backup_prepare(int dirfd, const char *path, const char *backup, struct backup *b)
{
	struct stat st;
	int r;

	for (int i = 0;; i++) {
		r = backup_prepare_once(dirfd, path, backup, b);
		if (r != -ENOENT || i == 7 || name_stat(dirfd, path, &st) < 0)
			return r;
		backup_free(dirfd, b);
	}
}

/* Gives up what @b holds; the staging lock last, once @b->hidden is gone or given up. */
static void backup_free(int dirfd, struct backup *b)
{
	scratch_forget(b->slot);
	b->slot = -1;
	if (b->made_fd >= 0)
		(void)close(b->made_fd);
	b->made_fd = -1;
	free(b->hidden);
	b->hidden = NULL;
	if (b->lock_name != NULL)
		stage_unlock(dirfd, b->lock_name, b->lock_fd, b->lock_slot);
	free(b->lock_name);
	b->lock_name = NULL;
	b->lock_fd = b->lock_slot = -1;
}

/* The replace failed (or never happened): @path and @backup as they were. */
static void backup_abort(int dirfd, const char *path, const char *backup, struct backup *b)
{
	struct stat st, mine;

	/* The link made is removed only while @backup still is it (backup_made()). */
	if (b->made && b->made_fd >= 0 &&
	    (fstat(b->made_fd, &mine) < 0 || fstatat(dirfd, backup, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	     !same_inode(&mine, &st)))
		b->made = false;
	if (b->made && !b->made_shares_ino)
		(void)unlinkat(dirfd, backup, 0);
	else if (b->made && fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
		unlink_if(dirfd, backup, &st);
	if (b->hidden != NULL)
		(void)unlinkat(dirfd, b->hidden, 0);
	backup_free(dirfd, b);
}

/*
 * Rename @from over @path, then the old @path's hidden link over @backup.
 * Every signal is blocked meanwhile: between the two renames the hidden
 * name is the old file's only name, which a clean-up must not remove.
 * Returns 0; or -errno with @path as it was (*@ret_backup_failed set when
 * it was the backup's rename that failed, and the replace was undone); or,
 * when the backup's rename and undoing the replace both failed, -errno
 * with *@ret_replaced set too: @path is the new file and the old one keeps
 * its hidden name.
 */
static int replace_commit(int dirfd, const char *from, const char *path, const char *backup,
			  struct backup *b, bool *ret_backup_failed, bool *ret_replaced)
{
	sigset_t all, old;
	int r;

	*ret_replaced = false;
	*ret_backup_failed = false;
	if (b->hidden == NULL)
		return rename_over(dirfd, from, path, false);
	(void)sigfillset(&all);
	(void)sigprocmask(SIG_BLOCK, &all, &old);
	r = rename_over(dirfd, from, path, false);
	if (r == 0) {
		scratch_forget(b->slot);
		b->slot = -1;
		r = rename_over(dirfd, b->hidden, backup, true);
		if (r < 0) {
			*ret_backup_failed = true;
			/* Put everything back: the new file under @from again, the old one as @path. */
			if (renameat2(dirfd, b->hidden, dirfd, path, RENAME_EXCHANGE) == 0 &&
			    renameat(dirfd, b->hidden, dirfd, from) == 0) {
				free(b->hidden);
				b->hidden = NULL;
			} else {
				*ret_replaced = true;
			}
		} else {
			free(b->hidden);
			b->hidden = NULL;
		}
	}
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

static int sync_dir_of(int dirfd, const char *path)
{
	char *dir = fattrs_path_dir(path);
	int fd, r = 0;

	if (dir == NULL)
		return -ENOMEM;
	fd = openat(dirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		r = negerrno();
	if (fd >= 0)
		(void)close(fd);
	free(dir);
	return r;
}

/* Publish a named scratch file as @path. */
static int publish_named(struct fattrs_tmpfile *tf, const char *path, const char *backup,
			 unsigned int flags)
{
	int dirfd = tf->dirfd;
	struct backup b = BACKUP_INIT;
	bool replaced = false;
	int r;

	if (flags & FATTRS_PUBLISH_NOCLOBBER) {
		if (renameat2(dirfd, tf->path, dirfd, path, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
			return negerrno();
		/* No RENAME_NOREPLACE here (FUSE without RENAME2): link(2) is just as exclusive. */
		if (linkat(dirfd, tf->path, dirfd, path, 0) == 0) {
			(void)unlinkat(dirfd, tf->path, 0);
			return 0;
		}
		if (errno == EEXIST || (errno != EPERM && errno != EOPNOTSUPP && errno != EMLINK))
			return negerrno();
		/*
		 * No hard links either: looking first and renaming after could
		 * replace a file made in between.  Refuse rather than risk it.
		 */
		return -EOPNOTSUPP;
	}
	if (backup != NULL) {
		struct stat st;

		if (fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			r = replace_allowed(dirfd, path);
			if (r < 0)
				return r;
		}
		r = backup_prepare(dirfd, path, backup, &b);
		if (r < 0) {
			backup_free(dirfd, &b);
			tf->backup_failed = true;
			return r;
		}
	}
	r = replace_commit(dirfd, tf->path, path, backup, &b, &tf->backup_failed, &replaced);
	if (replaced)
		scratch_release(tf);	/* its scratch name is FILE's now */
	if (r < 0 && !replaced)
		backup_abort(dirfd, path, backup, &b);
	backup_free(dirfd, &b);
	return r;
}

/*
 * Publish an unnamed file as @path.  *@ret_hidden: the hidden name it was
 * linked under first and renamed from, if any (the caller frees it).
 */
static int publish_unnamed(struct fattrs_tmpfile *tf, const char *path, const char *backup,
			   unsigned int flags, char **ret_hidden)
{
	struct link_args a = { .fd = tf->fd, .scratch = true, .slot = -1 };
	struct fattrs_tmpl tmpl;
	char *hidden, *tmp = NULL;
	struct backup b = BACKUP_INIT;
	bool replaced = false;
	int r;

	/* A new name: linkat(2) itself refuses to replace anything (EEXIST). */
	if (backup == NULL || (flags & FATTRS_PUBLISH_NOCLOBBER)) {
		r = link_fd(tf->fd, tf->dirfd, path, &tf->via);
		if (r == 0 || r != -EEXIST || (flags & FATTRS_PUBLISH_NOCLOBBER))
			return r;
	}
	r = replace_allowed(tf->dirfd, path);
	if (r < 0)
		return r;
	/*
	 * An existing name: link beside it under a hidden name of its own,
	 * then rename over it.  The file is locked first, so that a kill -9
	 * between the two leaves a name the next writer of @path can tell
	 * from a live one's, and reclaim; where it cannot be locked, a random
	 * name.
	 */
	hidden = fattrs_tmpl_hidden_for(path, &tmpl);
	if (hidden == NULL)
		return -ENOMEM;
	if (flock(tf->fd, LOCK_EX | LOCK_NB) == 0)
		r = try_reclaimable(tf->dirfd, &tmpl, &tmp, make_link, NULL, &a);
	else
		r = try_names(tf->dirfd, &tmpl, &tmp, make_link, &a);
	if (r == 0) {
		tf->via = a.via;
		if (backup != NULL) {
			r = backup_prepare(tf->dirfd, path, backup, &b);
			tf->backup_failed = r < 0;
		}
		if (r == 0)
			r = replace_commit(tf->dirfd, tmp, path, backup, &b, &tf->backup_failed, &replaced);
		if (r < 0 && !replaced) {
			(void)unlinkat(tf->dirfd, tmp, 0);
			backup_abort(tf->dirfd, path, backup, &b);
		}
		backup_free(tf->dirfd, &b);
	}
	scratch_forget(a.slot);
	if (r == 0)
		*ret_hidden = tmp;
	else
		free(tmp);
	free(hidden);
	return r;
}

/*
 * Save @tf's content under a new name beside @path (a random hidden one,
 * made with O_EXCL, synced, and asked of the server to be that file).
 * Returns the name, or NULL when it could not be saved.
 */
static char *publish_keep_copy(struct fattrs_tmpfile *tf, const char *path)
{
	struct named_args a = { .mode = 0600, .fd = -1, .slot = -1 };
	struct fattrs_tmpl tmpl;
	struct stat mine, there;
	char *hidden = fattrs_tmpl_hidden_for(path, &tmpl), *name = NULL;
	bool saved;

	if (hidden == NULL || try_names(tf->dirfd, &tmpl, &name, make_named, &a) < 0) {
		free(hidden);
		return NULL;
	}
	free(hidden);
	saved = copy_all(tf->fd, a.fd) == 0 && fsync(a.fd) == 0 && fstat(a.fd, &mine) == 0 &&
		name_stat(tf->dirfd, name, &there) == 0 && same_inode(&mine, &there) &&
		there.st_size == mine.st_size;
	(void)close(a.fd);
	if (!saved) {
		(void)unlinkat(tf->dirfd, name, 0);
		free(name);
		return NULL;
	}
	return name;
}

/*
 * The publish was reported done: does @path, asked of the server, still
 * name the file it replaced (@old, when there was one), or nothing?  A
 * network filesystem has been seen to answer a rename with success and
 * keep neither name (cifs on Linux 7.2, of a file made with O_TMPFILE),
 * and a client may believe a rename that its server did otherwise.  Any
 * other file there is a later writer's, whose publish came after this
 * one (and on sshfs inode numbers follow names, so this file's own number
 * is not asked for).  Asked only where @mine, this file, is not on a
 * block device (a device number with a major number): there the kernel
 * did the rename itself.  When the publish did not happen, the content is
 * saved under a new random name, which no later run reclaims (@hidden,
 * the name it was renamed from, may be one that the next writer of @path
 * would: it goes), reported by fattrs_tmpfile_lost(), and the publish
 * fails with -EIO.
 */
static int publish_check(struct fattrs_tmpfile *tf, const char *path, const char *hidden,
			 const struct stat *mine, const struct stat *old)
{
	struct stat there;

	if (name_stat(tf->dirfd, path, &there) == 0) {
		if (old == NULL || !same_inode(&there, old) || same_inode(&there, mine))
			return 0;
	} else if (errno != ENOENT) {
		return 0;	/* no answer: nothing to say it was not done */
	}
	tf->lost = true;
	tf->kept = publish_keep_copy(tf, path);
	/* Saved: the name it was renamed from goes, if it still is this file. */
	if (tf->kept != NULL && hidden != NULL)
		unlink_if(tf->dirfd, hidden, mine);
	return -EIO;
}

bool fattrs_tmpfile_backup_failed(const struct fattrs_tmpfile *tf)
{
	return tf->backup_failed;
}

bool fattrs_tmpfile_lost(const struct fattrs_tmpfile *tf, const char **ret_kept)
{
	*ret_kept = tf->kept;
	return tf->lost;
}

int fattrs_tmpfile_publish(struct fattrs_tmpfile *tf, const char *path, const char *backup,
			   unsigned int flags)
{
	char *copy = strdup(path), *linked = NULL;
	struct stat mine, old;
	bool check, had_old = false;
	int r;

	if (copy == NULL)
		return -ENOMEM;
	tf->backup_failed = false;
	tf->lost = false;
	free(tf->kept);
	tf->kept = NULL;
	/*
	 * What @path is before, for publish_check(): the caller has just
	 * looked at it, so mostly from the client's caches, no request.
	 */
	check = fstat(tf->fd, &mine) == 0 && major(mine.st_dev) == 0;
	if (check || backup != NULL)
		had_old = fstatat(tf->dirfd, path, &old, AT_SYMLINK_NOFOLLOW) == 0;
	if (backup != NULL && !had_old && errno == ENOENT) {
		backup_orphan(tf->dirfd, path, backup);
		backup = NULL;
	}
	if (tf->path == NULL) {
		r = publish_unnamed(tf, path, backup, flags, &linked);
		if (r == -ENOLINK) {
			/* No way to link an unnamed file here: go on as a named scratch one. */
			struct fattrs_tmpl tmpl;
			char *hidden = fattrs_tmpl_hidden_for(path, &tmpl);

			tf->flags |= FATTRS_TMP_UNPUBLISHED | FATTRS_TMP_RECLAIM;
			r = hidden != NULL ? relink_as_named(tf, &tmpl, flags) : -ENOMEM;
			free(hidden);
			if (r == 0)
				r = publish_named(tf, path, backup, flags);
		}
	} else {
		r = publish_named(tf, path, backup, flags);
	}
	if (r == 0 && check)
		r = publish_check(tf, path, linked != NULL ? linked : tf->path, &mine,
				  had_old ? &old : NULL);
	free(linked);
	if (r < 0) {
		if (tf->lost)
			scratch_release(tf);	/* what was kept stays, and is named */
		free(copy);
		return r;
	}
	/* Published: no hidden name left to tell a live writer by. */
	(void)flock(tf->fd, LOCK_UN);
	scratch_release(tf);
	free(tf->path);
	tf->path = copy;
	if (flags & FATTRS_PUBLISH_SYNC_DIR)
		return sync_dir_of(tf->dirfd, path);
	return 0;
}
