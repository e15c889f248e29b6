/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fattrs flags in a native Windows attribute word (system.ntfs_attrib, user.cifs.dosattrib):
 * reading and writing it, the writers' lock, setting and clearing one bit, read back.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>		/* AT_FDCWD, O_* */
#include <time.h>		/* nanosleep */
#include <sys/file.h>		/* flock */
#include <sys/xattr.h>
#include <unistd.h>

#include "fflags-private.h"

/*
 * A private constant (not in compat/linux.h: it is Windows ABI, not uapi).
 */
#define WINATTR_NORMAL 0x00000080U	/* alone means "no other bit"; 0 means "no change" to SMB */

static const char *native_xattr(enum fattrs_native native)
{
	return native == FATTRS_NATIVE_CIFS ? FATTRS_CIFS_ATTRIB_XATTR : FATTRS_NTFS_ATTRIB_XATTR;
}

/*
 * Read the native word: 4 bytes, host byte order.  The buffer is exactly 4
 * bytes: ntfs-3g answers a smaller one with EIO, not ERANGE.
 */
int native_read(int dirfd, const char *path, unsigned atf, enum fattrs_native native, uint32_t *ret)
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
bool no_native_word(int r)
{
	return r == -EOPNOTSUPP || r == -ENODATA;
}

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

int word_read(const struct target *t, enum fattrs_native native, uint32_t *ret)
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
void word_lock(struct target *t, enum fattrs_native native)
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

void word_unlock(struct target *t)
{
	if (t->fd >= 0)
		(void)close(t->fd);	/* the lock goes with the last descriptor */
	t->fd = -1;
}

/*
 * Clear @bit in the native word, verified: 1 if it was set, 0 if not, or
 * -errno (-EIO: the filesystem keeps the bit whatever is written).  A
 * read back that shows the bit again with other bits changed is another
 * writer's write of a word it read before ours: cleared again.
 */
int word_clear(const struct target *t, enum fattrs_native native, uint32_t bit)
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
int word_set(const struct target *t, const struct fattrs_fsupport *fsup, enum fattrs_fflag flag,
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
