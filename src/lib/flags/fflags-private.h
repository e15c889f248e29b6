/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of the fattrs flags share (fflags.h is their interface): the table, the xattr
 * calls, the native word and the file being changed.
 */
#ifndef FATTRS_FFLAGS_PRIVATE_H
#define FATTRS_FFLAGS_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "internal.h"

#define AT_ALLOWED (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)

/* The file being changed: its name, and a locked descriptor of it or -1. */
struct target {
	int dirfd;
	const char *path;
	unsigned atf;
	int fd;
};

/* fflags.c */
extern const struct fattrs_fflag_info fflag_table[FATTRS_NFFLAGS];
bool type_can_carry(mode_t mode);
int file_mode(int dirfd, const char *path, unsigned atf, mode_t *ret);

/* xattrat.c */
int proc_path(char *buf, size_t len, int fd, const char *path);
ssize_t xgetxattr(int dirfd, const char *path, unsigned atf, const char *name, void *buf, size_t size);
int xsetxattr(int dirfd, const char *path, unsigned atf, const char *name, const void *buf, size_t size);
int xremovexattr(int dirfd, const char *path, unsigned atf, const char *name);
ssize_t xlistxattr(int dirfd, const char *path, unsigned atf, char *buf, size_t size);

/* fsupport.c */
const struct fattrs_fsupport *fsupport_or_probe(int dirfd, const char *path, unsigned atf,
						const struct fattrs_fsupport *fsup, struct fattrs_fsupport *probed,
						int *ret);

/* winattr.c */
int native_read(int dirfd, const char *path, unsigned atf, enum fattrs_native native, uint32_t *ret);
bool no_native_word(int r);
int word_read(const struct target *t, enum fattrs_native native, uint32_t *ret);
void word_lock(struct target *t, enum fattrs_native native);
void word_unlock(struct target *t);
int word_clear(const struct target *t, enum fattrs_native native, uint32_t bit);
int word_set(const struct target *t, const struct fattrs_fsupport *fsup, enum fattrs_fflag flag,
	     unsigned int flags, bool *ret_wrote);

/**
 * fattrs_fflag_value() - what the xattr value @v (@len bytes, not
 * NUL-terminated) means: exactly "1" is FATTRS_STATE_SET, exactly "0" is
 * FATTRS_STATE_CLEAR (tolerated, never written), anything else ("", "1\n",
 * "yes", "2", binary) is FATTRS_STATE_INVALID: never guessed.
 */
enum fattrs_state fattrs_fflag_value(const void *v, size_t len);

#endif /* FATTRS_FFLAGS_PRIVATE_H */
