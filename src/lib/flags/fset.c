/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Setting and clearing one fattrs flag, in its xattr or the native word, with the rule of
 * opposites (doc/design.md §2).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "fflags-private.h"

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
	fsup = fsupport_or_probe(dirfd, path, atf, fsup, &probed, &r);
	if (fsup == NULL)
		return r;
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
