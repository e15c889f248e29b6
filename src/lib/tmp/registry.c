/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The registry of scratch names not yet published, removed by the signal clean-up.
 * (doc/design.md §4)
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmp.h"

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
static struct {
	int claimed;		/* taken by a thread, atomically */
	pid_t owner;		/* the process that registered the name */
	int dirfd;
	volatile int fd;
	const char *volatile path;
} scratch[SCRATCH_SLOTS];

int scratch_register(int dirfd, const char *path, int fd)
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

/* The descriptor of a name registered as SCRATCH_PENDING, now that it is open. */
void scratch_set_fd(int slot, int fd)
{
	scratch[slot].fd = fd;
}

void scratch_forget(int slot)
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
int make_registered(int dirfd, const char *path, int (*make)(int, const char *, void *),
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
