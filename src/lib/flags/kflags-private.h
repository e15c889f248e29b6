/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of the kernel flags share (kflags.h is their interface): the file a call is
 * about, and the functions between files.
 */
#ifndef FATTRS_KFLAGS_PRIVATE_H
#define FATTRS_KFLAGS_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "internal.h"

#define AT_ALLOWED (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)
#define WANT_ALL (FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS)

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
	char proc[PROC_FD_PATH_MAX];
};

/* kflags.c */
void readonly_masks(uint32_t *ret_x, uint32_t *ret_i);

/* ktarget.c */
struct target target_init(int dirfd, const char *path, unsigned at_flags, mode_t mode, bool pin);
bool target_is_dirfd(const struct target *t);
void target_release(struct target *t);
int target_fd(struct target *t);
int xflags_where(struct target *t, int *dfd, const char **path, unsigned *at);

/**
 * fattrs_kattr_change_flags() - fattrs_kattr_change() with @flags
 * (FATTRS_KCHANGE_NO_READBACK, FATTRS_KCHANGE_BY_NAME, or 0: then it is
 * fattrs_kattr_change()).
 * Without the read-back a change costs one system call less, and a bit
 * the filesystem dropped is not seen: only for callers with a policy
 * that makes that sound (setfattrs(1): see its man page).
 *
 * Returns: as fattrs_kattr_change(); -EINVAL for unknown @flags.
 */
int fattrs_kattr_change_flags(int dirfd, const char *path, unsigned at_flags, mode_t mode,
			      const struct fattrs_kchange *change, unsigned flags,
			      struct fattrs_kchange *ret_dropped);

#endif /* FATTRS_KFLAGS_PRIVATE_H */
