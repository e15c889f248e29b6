/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The writer's lock: a hidden name whose lock can be taken is a dead writer's, and reclaimed.
 * (doc/design.md §4)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tmp.h"

/*
 * Open @path (a regular file, not followed) to take flock(LOCK_EX) on it:
 * for writing where allowed, since NFS turns flock(2) into a POSIX write
 * lock, which a descriptor open only for reading cannot take (EBADF); for
 * reading where writing is refused.  @flags: more open flags (O_CREAT).
 */
int open_lockable(int dirfd, const char *path, int flags)
{
	const int how = O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | flags;
	int fd = openat(dirfd, path, O_RDWR | how, 0600);

	if (fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS || errno == ETXTBSY))
		fd = openat(dirfd, path, O_RDONLY | how, 0600);
	return fd;
}

#define RECLAIM_EINVAL_TRIES 15		/* of RECLAIM_EINVAL_WAIT_MS each */
#define RECLAIM_EINVAL_WAIT_MS 100

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
int reclaim(int dirfd, const char *path)
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
		 * its lock (open_excl()).  Hold the lock a while first: its
		 * flock(2) then fails and it gives the name up.  A writer whose
		 * lock comes later than RECLAIM_SAFE_LOCK_MS after its create
		 * asks the server whether its file survived, since its
		 * client's caches may hide the removal (GlusterFS: ESTALE on
		 * its next call).
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
int try_reclaimable(int dirfd, const struct fattrs_tmpl *tmpl, char **ret_path,
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
int name_stat(int dirfd, const char *path, struct stat *st)
{
	uint64_t mnt_id;

	return fattrs_stat_mnt(dirfd, path, AT_SYMLINK_NOFOLLOW | AT_STATX_FORCE_SYNC, st, &mnt_id);
}

/* Unlink @path if it still is the file @st describes. */
void unlink_if(int dirfd, const char *path, const struct stat *st)
{
	struct stat now;

	if (name_stat(dirfd, path, &now) == 0 && same_inode(&now, st))
		(void)unlinkat(dirfd, path, 0);
}
