/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for src/lib/flags/fflags.c and the files beside it: the four fattrs(7)
 * flags in the reserved xattr namespace and in a native Windows attribute word.
 *
 * Runs in $TMPDIR.  FATTRS_TEST_FS=TYPE (tests/lib/fflags.bats sets it)
 * adds what that filesystem must answer: ramfs has no user xattrs, ntfs-3g
 * has system.ntfs_attrib and keeps only OFFLINE of the four there.
 *
 * Also a small driver for the .bats file:
 *	fflags get PATH          one line per flag ("offline set"), then
 *	                         "unknown NAME" for other reserved names
 *	fflags set PATH OP...    OP is +NAME, -NAME or =NAME (+ without the
 *	                         opposite check); prints "OP WHERE" for each
 *	fflags probe [-L] PATH   prints "user xattrs yes|no, native word
 *	                         none|ntfs|cifs" (-L: PATH followed)
 * get and set work on PATH itself (nofollow).  Both probe and lstat first (the
 * caller's part), then make an access("fflags-marker") call, so that a
 * trace shows where the library's own calls start.
 */
#include "config.h"

#include "fattrs.h"
#include "flags/fflags-private.h"
#include "testing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "tap.h"
#include "fixture.h"

#define NO_XATTR "$TMPDIR's filesystem has neither user xattrs nor a native attribute word"
#define MARKER "fflags-marker"
#define MANY 120			/* unknown names tried: far more than fflags.c's first list buffer */
#define LIST_FAST 1024			/* that buffer's size (src/lib/flags/fflags.c) */

static const char *fs_type;		/* $FATTRS_TEST_FS, or NULL */
static struct fattrs_fsupport fsup;	/* of the test directory */
static bool can_carry;			/* fsup says the flags can be kept here */

/* ------------------------------------------------------------- helpers */

/* @name in the test directory, in one of a few rotating buffers. */
static const char *tp(const char *name)
{
	static char bufs[4][PATH_MAX];
	static int next;

	next = (next + 1) % 4;
	return top_path(bufs[next], name);
}

static bool make_file(const char *name)
{
	int fd = openat(topfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return false;
	(void)close(fd);
	return true;
}

/*
 * The value of xattr @name of @path (not followed) as a string, "(none)"
 * when absent, "(error E)" otherwise.
 */
static const char *xget(const char *path, const char *name)
{
	static char buf[512];
	ssize_t n = lgetxattr(path, name, buf, sizeof(buf) - 1);

	if (n < 0) {
		if (errno == ENODATA)
			return "(none)";
		(void)snprintf(buf, sizeof(buf), "(error %s)", strerror(errno));
		return buf;
	}
	buf[n] = '\0';
	return buf;
}

static bool xset(const char *path, const char *name, const void *v, size_t len)
{
	return lsetxattr(path, name, v, len, 0) == 0;
}

/* The ntfs word of @path, or -1. */
static long long ntfs_word(const char *path)
{
	uint32_t w;

	if (lgetxattr(path, FATTRS_NTFS_ATTRIB_XATTR, &w, sizeof(w)) != (ssize_t)sizeof(w))
		return -1;
	return w;
}

/*
 * Which of the four bits this filesystem's native word keeps: ntfs-3g only
 * OFFLINE (test_fflags__ntfs() insists), ntfs3 all of them.  Found by
 * writing all four into a scratch file's word.
 */
static uint32_t native_keeps;

static void find_native_keeps(void)
{
	const char *f = tp("keeps");
	uint32_t w, all = 0;

	for (int i = 0; i < FATTRS_NFFLAGS; i++)
		all |= fattrs_fflag_info((enum fattrs_fflag)i)->winattr;
	if (fsup.native != FATTRS_NATIVE_NTFS || !make_file("keeps"))
		return;
	w = (uint32_t)ntfs_word(f) | all;
	if (lsetxattr(f, FATTRS_NTFS_ATTRIB_XATTR, &w, sizeof(w), 0) == 0 && ntfs_word(f) >= 0)
		native_keeps = (uint32_t)ntfs_word(f) & all;
	(void)unlinkat(topfd, "keeps", 0);
}

/* Where a set of @f lands here. */
static unsigned int expect_where(enum fattrs_fflag f)
{
	if (native_keeps & fattrs_fflag_info(f)->winattr)
		return FATTRS_FSRC_NATIVE;
	return FATTRS_FSRC_XATTR;
}

/* Read @path's flags (not followed, type from the kernel). */
static int get(const char *path, struct fattrs_fflags *f)
{
	return fattrs_fflags_get(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, 0, &fsup, NULL, f);
}

static int set(const char *path, enum fattrs_fflag flag, bool on, unsigned int flags, unsigned int *where)
{
	return fattrs_fflag_set(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, 0, &fsup, flag, on, flags, where);
}

/* The state of one flag of @path, or -errno. */
static int state_of(const char *path, enum fattrs_fflag flag)
{
	struct fattrs_fflags f;
	int r = get(path, &f);

	if (r < 0)
		return r;
	r = (int)f.state[flag];
	fattrs_fflags_release(&f);
	return r;
}

static bool all_state(const struct fattrs_fflags *f, enum fattrs_state s)
{
	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		if (f->state[i] != s)
			return false;
	}
	return true;
}

static bool has_unknown(const struct fattrs_fflags *f, const char *name)
{
	for (size_t i = 0; i < f->n_unknown; i++) {
		if (strcmp(f->unknown[i], name) == 0)
			return true;
	}
	return false;
}

/* ---------------------------------------------------------------- cases */

enum { N_TABLE = 4 * 6 + 7 };
static void test_fflags__table(void)
{
	bool unique = true;

	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		const struct fattrs_fflag_info *fi = fattrs_fflag_info((enum fattrs_fflag)i);
		char want[64];

		if (!tap_ok(fi != NULL, "flag %d has a table row", i)) {
			skip_n(5, "no row");
			continue;
		}
		(void)snprintf(want, sizeof(want), "%s%s", FATTRS_FFLAG_PREFIX, fi->name);
		is_str(fi->xattr, want, "%s: its xattr is the prefix and its name", fi->name);
		is_int(fattrs_fflag_find(fi->name), i, "%s: found by its name", fi->name);
		is_int(fattrs_fflag_find(fi->xattr), i, "%s: found by its xattr name", fi->name);
		tap_ok(fi->opposite != (enum fattrs_fflag)i &&
		       fattrs_fflag_info(fi->opposite) != NULL &&
		       fattrs_fflag_info(fi->opposite)->opposite == (enum fattrs_fflag)i,
		       "%s: its opposite (%s) points back at it", fi->name,
		       fattrs_fflag_info(fi->opposite) ? fattrs_fflag_info(fi->opposite)->name : "?");
		is_int(fi->statx, 0, "%s: no STATX_ATTR_* bit exists in these headers", fi->name);
		for (int j = 0; j < i; j++) {
			if (strcmp(fattrs_fflag_info((enum fattrs_fflag)j)->name, fi->name) == 0 ||
			    fattrs_fflag_info((enum fattrs_fflag)j)->winattr == fi->winattr)
				unique = false;
		}
		if (fi->description == NULL || fi->description[0] == '\0')
			unique = false;
	}
	tap_ok(unique, "names and Windows bits are unique, every row has a description");
	tap_ok(fattrs_fflag_info(FATTRS_OFFLINE)->winattr == 0x1000 &&
	       fattrs_fflag_info(FATTRS_INTEGRITY)->winattr == 0x8000 &&
	       fattrs_fflag_info(FATTRS_NOSCRUB)->winattr == 0x20000 &&
	       fattrs_fflag_info(FATTRS_PINNED)->winattr == 0x80000,
	       "the Windows bits are FILE_ATTRIBUTE_OFFLINE, INTEGRITY_STREAM, NO_SCRUB_DATA, PINNED");
	tap_ok(fattrs_fflag_info(FATTRS_OFFLINE)->opposite == FATTRS_PINNED &&
	       fattrs_fflag_info(FATTRS_INTEGRITY)->opposite == FATTRS_NOSCRUB,
	       "offline <-> pinned and integrity <-> noscrub are the opposites");
	is_int(fattrs_fflag_find("bogus"), -1, "an unknown word is not found");
	is_int(fattrs_fflag_find("Offline"), -1, "case matters");
	tap_ok(fattrs_fflag_find(FATTRS_FFLAG_PREFIX) == -1 && fattrs_fflag_find("") == -1 &&
	       fattrs_fflag_find(NULL) == -1, "the bare prefix, \"\" and NULL are not found");
	tap_ok(fattrs_fflag_info(FATTRS_NFFLAGS) == NULL && fattrs_fflag_info((enum fattrs_fflag)-1) == NULL,
	       "no row outside the table");
}

enum { N_VALUE = 11 };
static void test_fflags__value(void)
{
	static const struct {
		const char *v;
		size_t len;
		enum fattrs_state want;
		const char *says;
	} cases[] = {
		{ "1", 1, FATTRS_STATE_SET, "\"1\" is set" },
		{ "0", 1, FATTRS_STATE_CLEAR, "\"0\" is clear (tolerated)" },
		{ "", 0, FATTRS_STATE_INVALID, "\"\" is invalid" },
		{ "1\n", 2, FATTRS_STATE_INVALID, "\"1\\n\" is invalid" },
		{ "1\0", 2, FATTRS_STATE_INVALID, "\"1\\0\" is invalid" },
		{ "2", 1, FATTRS_STATE_INVALID, "\"2\" is invalid" },
		{ "yes", 3, FATTRS_STATE_INVALID, "\"yes\" is invalid" },
		{ "10", 2, FATTRS_STATE_INVALID, "\"10\" is invalid" },
		{ "\x01", 1, FATTRS_STATE_INVALID, "binary \\x01 is invalid" },
		{ "\xff\xfe", 2, FATTRS_STATE_INVALID, "binary \\xff\\xfe is invalid" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		is_int(fattrs_fflag_value(cases[i].v, cases[i].len), cases[i].want, "value %s", cases[i].says);
	is_int(fattrs_fflag_value(NULL, 0), FATTRS_STATE_INVALID, "no value is invalid");
}

enum { N_CAPS = 9 };
static void test_fflags__caps(void)
{
	struct fattrs_fsupport file = { 0 }, fifo = { 0 }, link = { 0 };
	int r;

	r = make_file("f") && mkfifoat(topfd, "p", 0644) == 0 && symlinkat("f", topfd, "l") == 0;
	if (fail_unless(r, N_CAPS - 2, "no files", "make a file, a fifo and a symlink: %s", strerror(errno)))
		return;
	is_int(fattrs_fsupport_probe(AT_FDCWD, tp("f"), AT_SYMLINK_NOFOLLOW, &file), 0, "probe a regular file");
	tap_ok(file.user_xattr == fsup.user_xattr && file.native == fsup.native,
	       "a file gets its directory's answer");
	is_int(fattrs_fsupport_probe(AT_FDCWD, tp("p"), AT_SYMLINK_NOFOLLOW, &fifo), 0, "probe a fifo");
	tap_ok(fifo.user_xattr == fsup.user_xattr && fifo.native == fsup.native,
	       "a fifo gets its directory's answer (user.* gets there always say ENODATA)");
	tap_ok(fattrs_fsupport_probe(AT_FDCWD, tp("l"), AT_SYMLINK_NOFOLLOW, &link) == 0 && link.user_xattr == fsup.user_xattr &&
	       link.native == fsup.native, "a symlink not followed gets its directory's answer");
	is_int(fattrs_fsupport_probe(AT_FDCWD, tp("missing"), AT_SYMLINK_NOFOLLOW, &link), -ENOENT, "a missing path is -ENOENT");

	if (fs_type == NULL) {
		skip_n(2, "FATTRS_TEST_FS not set: no expectations for this filesystem");
	} else {
		bool user = strcmp(fs_type, "ramfs") != 0;
		enum fattrs_native native = strcmp(fs_type, "ntfs-3g") == 0 ? FATTRS_NATIVE_NTFS : FATTRS_NATIVE_NONE;

		is_int(fsup.user_xattr, user, "%s: user xattrs %s", fs_type, user ? "supported" : "unsupported");
		is_int(fsup.native, native, "%s: native word %s", fs_type,
		       native == FATTRS_NATIVE_NTFS ? "system.ntfs_attrib" : "none");
	}
	left_only("f", "p", "l", NULL);
}

/* Set and clear each flag on a regular file or a directory. */
enum { N_SETCLEAR_ONE = 4 * 9, N_SETCLEAR = 2 * N_SETCLEAR_ONE + 1 };
static void setclear_one(const char *kind, const char *path)
{
	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		const struct fattrs_fflag_info *fi = fattrs_fflag_info((enum fattrs_fflag)i);
		unsigned int want = expect_where((enum fattrs_fflag)i), where = 99;
		struct fattrs_fflags f;
		int r;

		is_int(set(path, (enum fattrs_fflag)i, true, 0, &where), 0, "%s: +%s", kind, fi->name);
		is_int(where, want, "%s: +%s lands in the %s", kind, fi->name,
		       want == FATTRS_FSRC_NATIVE ? "native word" : "xattr");
		is_str(xget(path, fi->xattr), want == FATTRS_FSRC_XATTR ? "1" : "(none)",
		       "%s: +%s: getxattr(%s)", kind, fi->name, fi->xattr);
		if (fsup.native == FATTRS_NATIVE_NTFS)
			is_int((ntfs_word(path) & fi->winattr) != 0, want == FATTRS_FSRC_NATIVE,
			       "%s: +%s: its bit in system.ntfs_attrib", kind, fi->name);
		else
			tap_skip("no native word on this filesystem");
		r = get(path, &f);
		tap_ok(r == 0 && f.state[i] == FATTRS_STATE_SET && f.source[i] == want,
		       "%s: +%s reads set, from the same place", kind, fi->name);
		if (r == 0)
			fattrs_fflags_release(&f);

		where = 99;
		is_int(set(path, (enum fattrs_fflag)i, false, 0, &where), 0, "%s: -%s", kind, fi->name);
		is_int(where, want, "%s: -%s says where it was", kind, fi->name);
		tap_ok(strcmp(xget(path, fi->xattr), "(none)") == 0 &&
		       (fsup.native != FATTRS_NATIVE_NTFS || (ntfs_word(path) & fi->winattr) == 0),
		       "%s: -%s leaves neither xattr nor native bit", kind, fi->name);
		r = get(path, &f);
		tap_ok(r == 0 && all_state(&f, FATTRS_STATE_CLEAR) && f.source[i] == 0 && f.n_unknown == 0,
		       "%s: -%s: every flag reads clear", kind, fi->name);
		if (r == 0)
			fattrs_fflags_release(&f);
	}
}

static void test_fflags__setclear(void)
{
	if (skip_unless(can_carry, N_SETCLEAR - 1, NO_XATTR))
		return;
	if (fail_unless(make_file("f") && mkdirat(topfd, "d", 0755) == 0, N_SETCLEAR - 2, "no files",
			"make a file and a directory: %s", strerror(errno)))
		return;
	setclear_one("file", tp("f"));
	setclear_one("directory", tp("d"));
	left_only("f", "d", NULL);
}

/* Values other than "1" as the xattr holds them. */
enum { N_VALUES = 1 + 6 * 2 + 3 + 1 };
static void test_fflags__values(void)
{
	static const struct {
		const char *v;
		size_t len;
		const char *says;
	} bad[] = {
		{ "", 0, "\"\"" },
		{ "1\n", 2, "\"1\\n\"" },
		{ "2", 1, "\"2\"" },
		{ "yes", 3, "\"yes\"" },
		{ "\0\x01\xff", 3, "binary" },
		{ NULL, 300, "300 bytes" },	/* longer than fflags.c's first read */
	};
	const char *f = tp("f");
	const char *pinned = fattrs_fflag_info(FATTRS_PINNED)->xattr;
	char longv[300];
	unsigned int where;

	if (skip_unless(can_carry && fsup.user_xattr, N_VALUES - 1, NO_XATTR))
		return;
	if (fail_unless(make_file("f"), N_VALUES - 2, "no file", "make a file: %s", strerror(errno)))
		return;
	memset(longv, 'x', sizeof(longv));

	(void)xset(f, fattrs_fflag_info(FATTRS_OFFLINE)->xattr, "0", 1);
	is_int(state_of(f, FATTRS_OFFLINE), FATTRS_STATE_CLEAR, "offline = \"0\" reads clear");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *v = bad[i].v != NULL ? bad[i].v : longv;
		struct fattrs_fflags fl;
		int r;

		if (!xset(f, pinned, v, bad[i].len)) {
			tap_ok(false, "setxattr pinned = %s: %s", bad[i].says, strerror(errno));
			tap_skip("no value");
			continue;
		}
		r = get(f, &fl);
		tap_ok(r == 0 && fl.state[FATTRS_PINNED] == FATTRS_STATE_INVALID && fl.source[FATTRS_PINNED] == 0,
		       "pinned = %s reads invalid", bad[i].says);
		tap_ok(r == 0 && fl.invalid[FATTRS_PINNED] != NULL && fl.invalid_len[FATTRS_PINNED] == bad[i].len &&
		       memcmp(fl.invalid[FATTRS_PINNED], v, bad[i].len) == 0 &&
		       fl.invalid[FATTRS_PINNED][bad[i].len] == '\0' && fl.invalid[FATTRS_OFFLINE] == NULL,
		       "pinned = %s: the value is kept for the warning", bad[i].says);
		if (r == 0)
			fattrs_fflags_release(&fl);
	}
	/* Offline's "0" is clear: no conflict with pinned. */
	is_int(set(f, FATTRS_PINNED, true, 0, &where), 0, "+pinned over an invalid value");
	is_str(xget(f, pinned), "1", "+pinned wrote \"1\" over it");
	(void)xset(f, pinned, "2", 1);
	tap_ok(set(f, FATTRS_PINNED, false, 0, &where) == 0 && strcmp(xget(f, pinned), "(none)") == 0,
	       "-pinned removes an invalid value");
	left_only("f", NULL);
}

enum { N_UNKNOWN = 7 };
static void test_fflags__unknown(void)
{
	const char *f = tp("f");
	struct fattrs_fflags fl;
	unsigned int where;
	int r;

	if (skip_unless(can_carry && fsup.user_xattr, N_UNKNOWN - 1, NO_XATTR))
		return;
	r = make_file("f") && xset(f, "user.fattr.foo", "bar", 3) && xset(f, "user.fattr.Pinned", "1", 1) &&
	    xset(f, "user.fattrx", "1", 1) && xset(f, "user.other", "1", 1);
	if (fail_unless(r, N_UNKNOWN - 2, "no file", "make a file with xattrs: %s", strerror(errno)))
		return;
	r = get(f, &fl);
	tap_ok(r == 0 && fl.n_unknown == 2 && has_unknown(&fl, "user.fattr.foo") && has_unknown(&fl, "user.fattr.Pinned"),
	       "user.fattr.foo and user.fattr.Pinned are reported as unknown, nothing else");
	tap_ok(r == 0 && all_state(&fl, FATTRS_STATE_CLEAR), "user.fattr.Pinned is not pinned");
	if (r == 0)
		fattrs_fflags_release(&fl);
	is_int(set(f, FATTRS_OFFLINE, true, 0, &where), 0, "+offline beside unknown names");
	is_int(set(f, FATTRS_OFFLINE, false, 0, &where), 0, "-offline beside unknown names");
	tap_ok(strcmp(xget(f, "user.fattr.foo"), "bar") == 0 && strcmp(xget(f, "user.fattr.Pinned"), "1") == 0 &&
	       strcmp(xget(f, "user.other"), "1") == 0, "-offline leaves the unknown names alone");
	is_int(set(f, FATTRS_PINNED, false, 0, &where), 0, "-pinned leaves user.fattr.Pinned alone") ;
	left_only("f", NULL);
}

enum { N_OPP = 2 * 6 + 3 + 1 };
static void test_fflags__opposites(void)
{
	static const enum fattrs_fflag pairs[][2] = {
		{ FATTRS_OFFLINE, FATTRS_PINNED },
		{ FATTRS_NOSCRUB, FATTRS_INTEGRITY },
	};
	const char *f = tp("f");
	unsigned int where;

	if (skip_unless(can_carry, N_OPP - 1, NO_XATTR))
		return;
	if (fail_unless(make_file("f"), N_OPP - 2, "no file", "make a file: %s", strerror(errno)))
		return;
	for (size_t i = 0; i < 2; i++) {
		enum fattrs_fflag a = pairs[i][0], b = pairs[i][1];
		const char *an = fattrs_fflag_info(a)->name, *bn = fattrs_fflag_info(b)->name;

		is_int(set(f, a, true, 0, &where), 0, "+%s", an);
		is_int(set(f, b, true, 0, &where), -EEXIST, "+%s while %s is set is -EEXIST", bn, an);
		is_int(state_of(f, b), FATTRS_STATE_CLEAR, "%s is still clear after the refusal", bn);
		is_int(set(f, b, true, FATTRS_FFLAG_NO_OPPOSITE_CHECK, &where), 0,
		       "+%s with FATTRS_FFLAG_NO_OPPOSITE_CHECK", bn);
		/* The caller cleared it; set since, it is cleared again: the two never end set. */
		tap_ok(state_of(f, a) == FATTRS_STATE_CLEAR && state_of(f, b) == FATTRS_STATE_SET,
		       "and %s, found set again after the write, is cleared again", an);
		tap_ok(set(f, a, false, 0, &where) == 0 && set(f, b, false, 0, &where) == 0 &&
		       state_of(f, a) == FATTRS_STATE_CLEAR && state_of(f, b) == FATTRS_STATE_CLEAR, "-%s -%s", an, bn);
	}
	if (fsup.user_xattr) {
		(void)xset(f, fattrs_fflag_info(FATTRS_PINNED)->xattr, "2", 1);
		is_int(set(f, FATTRS_OFFLINE, true, 0, &where), -EEXIST, "+offline while pinned is \"2\" is -EEXIST");
		(void)xset(f, fattrs_fflag_info(FATTRS_PINNED)->xattr, "yes", 3);
		is_int(set(f, FATTRS_OFFLINE, true, 0, &where), -EEXIST, "+offline while pinned is \"yes\" is -EEXIST");
		(void)xset(f, fattrs_fflag_info(FATTRS_PINNED)->xattr, "0", 1);
		is_int(set(f, FATTRS_OFFLINE, true, 0, &where), 0, "+offline while pinned is \"0\" is fine");
	} else {
		skip_n(3, "no user xattrs");
	}
	left_only("f", NULL);
}

enum { N_ABSENT = FATTRS_NFFLAGS + 2 };
static void test_fflags__clear_absent(void)
{
	unsigned int where;

	if (skip_unless(can_carry, N_ABSENT - 1, NO_XATTR))
		return;
	if (fail_unless(make_file("f") && mkdirat(topfd, "d", 0755) == 0, N_ABSENT - 2, "no files",
			"make a file and a directory: %s", strerror(errno)))
		return;
	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		where = 99;
		tap_ok(set(tp("f"), (enum fattrs_fflag)i, false, 0, &where) == 0 && where == 0,
		       "-%s of a clear flag is 0, cleared from nowhere", fattrs_fflag_info((enum fattrs_fflag)i)->name);
	}
	where = 99;
	tap_ok(set(tp("d"), FATTRS_NOSCRUB, false, 0, &where) == 0 && where == 0,
	       "-noscrub of a clear directory is 0");
	left_only("f", "d", NULL);
}

/* Symlinks (not followed) and fifos: no flags there, whatever the filesystem. */
enum { N_SPECIAL = 14 };
static void test_fflags__special(void)
{
	const char *l = tp("l"), *p = tp("p");
	struct fattrs_fflags fl;
	struct stat st;
	int r, want_follow = can_carry ? 0 : -EOPNOTSUPP;

	r = make_file("f") && symlinkat("f", topfd, "l") == 0 && mkfifoat(topfd, "p", 0644) == 0;
	if (fail_unless(r, N_SPECIAL - 2, "no files", "make a file, a symlink and a fifo: %s", strerror(errno)))
		return;
	(void)lstat(l, &st);
	r = fattrs_fflags_get(AT_FDCWD, l, AT_SYMLINK_NOFOLLOW, st.st_mode, &fsup, NULL, &fl);
	tap_ok(r == 0 && all_state(&fl, FATTRS_STATE_UNSUPPORTED), "symlink, mode given: every flag unsupported");
	if (r == 0)
		fattrs_fflags_release(&fl);
	r = get(l, &fl);
	tap_ok(r == 0 && all_state(&fl, FATTRS_STATE_UNSUPPORTED), "symlink, mode 0: every flag unsupported");
	if (r == 0)
		fattrs_fflags_release(&fl);
	is_int(fattrs_fflag_set(AT_FDCWD, l, AT_SYMLINK_NOFOLLOW, st.st_mode, &fsup, FATTRS_OFFLINE, true, 0, NULL), -EPERM,
	       "symlink, mode given: +offline is -EPERM");
	is_int(set(l, FATTRS_OFFLINE, true, 0, NULL), -EPERM, "symlink, mode 0: +offline is -EPERM");
	is_int(set(l, FATTRS_OFFLINE, false, 0, NULL), -EPERM, "symlink, mode 0: -offline is -EPERM");
	tap_ok(fattrs_fflag_set(AT_FDCWD, l, 0, 0, &fsup, FATTRS_INTEGRITY, true, 0, NULL) == want_follow &&
	       (!can_carry || state_of(tp("f"), FATTRS_INTEGRITY) == FATTRS_STATE_SET),
	       "symlink followed: +integrity reaches the file (%s)", can_carry ? "set" : "-EOPNOTSUPP");

	r = get(p, &fl);
	tap_ok(r == 0 && all_state(&fl, FATTRS_STATE_UNSUPPORTED), "fifo: every flag unsupported");
	if (r == 0)
		fattrs_fflags_release(&fl);
	r = fattrs_fflags_get(AT_FDCWD, p, 0, 0, NULL, NULL, &fl);
	tap_ok(r == 0 && all_state(&fl, FATTRS_STATE_UNSUPPORTED), "fifo, followed, fsup probed here: unsupported");
	if (r == 0)
		fattrs_fflags_release(&fl);
	is_int(set(p, FATTRS_PINNED, true, 0, NULL), -EPERM, "fifo, mode 0: +pinned is -EPERM");
	is_int(fattrs_fflag_set(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, S_IFIFO | 0644, &fsup, FATTRS_PINNED, true, 0, NULL), -EPERM,
	       "fifo, mode given: +pinned is -EPERM");
	is_int(set(p, FATTRS_NOSCRUB, false, 0, NULL), -EPERM, "fifo, mode 0: -noscrub is -EPERM");

	/* A mode without its file-type bits says nothing of the type: looked up, like 0. */
	r = fattrs_fflags_get(AT_FDCWD, tp("f"), AT_SYMLINK_NOFOLLOW, 0644, &fsup, NULL, &fl);
	tap_ok(r == 0 && (can_carry ? fl.state[FATTRS_INTEGRITY] == FATTRS_STATE_SET
				    : all_state(&fl, FATTRS_STATE_UNSUPPORTED)),
	       "a regular file with mode 0644 (no S_IFMT bits) reads its flags");
	if (r == 0)
		fattrs_fflags_release(&fl);
	is_int(fattrs_fflag_set(AT_FDCWD, tp("f"), AT_SYMLINK_NOFOLLOW, 0644, &fsup, FATTRS_INTEGRITY, false, 0, NULL),
	       can_carry ? 0 : -EOPNOTSUPP, "a regular file with mode 0644 has a flag cleared");
	left_only("f", "l", "p", NULL);
}

enum { N_MISSING = 6 };
static void test_fflags__missing(void)
{
	struct fattrs_fflags fl = { .n_unknown = 12345 };
	const char *m = tp("missing");

	is_int(get(m, &fl), -ENOENT, "get of a missing path is -ENOENT");
	is_int(fl.n_unknown, 12345, "and leaves its result alone");
	is_int(fattrs_fflags_get(AT_FDCWD, m, AT_SYMLINK_NOFOLLOW, S_IFREG, &fsup, NULL, &fl), can_carry ? -ENOENT : 0,
	       "get of a missing path, mode given: %s", can_carry ? "-ENOENT" : "unsupported without a look");
	if (fl.n_unknown != 12345)
		fattrs_fflags_release(&fl);
	tap_ok(set(m, FATTRS_OFFLINE, true, 0, NULL) == -ENOENT && set(m, FATTRS_OFFLINE, false, 0, NULL) == -ENOENT,
	       "+offline and -offline of a missing path are -ENOENT");
	is_int(fattrs_fflag_set(AT_FDCWD, m, AT_SYMLINK_NOFOLLOW, 0, NULL, FATTRS_PINNED, true, 0, NULL), -ENOENT,
	       "+pinned of a missing path, fsup probed there, is -ENOENT");
	nothing_left();
}

/*
 * The file named as the *at(2) calls name it: a name in an O_PATH
 * directory descriptor, an O_PATH descriptor's own file and a real
 * descriptor's (AT_EMPTY_PATH), through the *xattrat system calls and, run
 * again with them forced off, through the path calls (@path_calls).
 */
enum { N_AT_ONE = 9, N_AT = 2 * N_AT_ONE + 2 };
static void at_one(bool path_calls)
{
	const char *how = path_calls ? "path calls" : "*xattrat";
	const char *f = tp("d/f");
	struct fattrs_fflags fl;
	struct fattrs_fsupport at;
	int dfd, ofd, rfd, r;

	fattrs_fflag_force_path(path_calls);
	dfd = openat(topfd, "d", O_PATH | O_DIRECTORY | O_CLOEXEC);
	ofd = openat(topfd, "d/f", O_PATH | O_CLOEXEC);
	rfd = openat(topfd, "d/f", O_RDONLY | O_CLOEXEC);
	if (dfd < 0 || ofd < 0 || rfd < 0) {
		tap_ok(false, "%s: open d and d/f: %s", how, strerror(errno));
		skip_n(N_AT_ONE - 1, "no descriptors");
		goto out;
	}
	tap_ok(fattrs_fsupport_probe(dfd, "f", AT_SYMLINK_NOFOLLOW, &at) == 0 && at.user_xattr == fsup.user_xattr &&
	       at.native == fsup.native, "%s: probe of a name in an O_PATH directory descriptor", how);
	is_int(fattrs_fflag_set(dfd, "f", AT_SYMLINK_NOFOLLOW, 0, &fsup, FATTRS_OFFLINE, true, 0, NULL), 0,
	       "%s: +offline of a name in an O_PATH directory descriptor", how);
	is_str(xget(f, fattrs_fflag_info(FATTRS_OFFLINE)->xattr),
	       expect_where(FATTRS_OFFLINE) == FATTRS_FSRC_XATTR ? "1" : "(none)",
	       "%s: the file has it (in the xattr where no native word keeps it)", how);
	r = fattrs_fflags_get(dfd, "f", AT_SYMLINK_NOFOLLOW, 0, &fsup, NULL, &fl);
	tap_ok(r == 0 && fl.state[FATTRS_OFFLINE] == FATTRS_STATE_SET, "%s: and reads it set by that name", how);
	if (r == 0)
		fattrs_fflags_release(&fl);
	is_int(fattrs_fflag_set(ofd, "", AT_EMPTY_PATH, 0, &fsup, FATTRS_INTEGRITY, true, 0, NULL), 0,
	       "%s: +integrity of an O_PATH descriptor's own file (AT_EMPTY_PATH)", how);
	r = fattrs_fflags_get(rfd, NULL, AT_EMPTY_PATH, 0, &fsup, NULL, &fl);
	tap_ok(r == 0 && fl.state[FATTRS_OFFLINE] == FATTRS_STATE_SET && fl.state[FATTRS_INTEGRITY] == FATTRS_STATE_SET,
	       "%s: a real descriptor's own file (NULL, AT_EMPTY_PATH) reads both set", how);
	if (r == 0)
		fattrs_fflags_release(&fl);
	is_int(fattrs_fflag_set(ofd, "", AT_EMPTY_PATH, 0, &fsup, FATTRS_INTEGRITY, false, 0, NULL), 0,
	       "%s: -integrity of the O_PATH descriptor's own file", how);
	is_int(fattrs_fflag_set(dfd, "f", 0, 0, &fsup, FATTRS_OFFLINE, false, 0, NULL), 0,
	       "%s: -offline of the name, followed", how);
	tap_ok(strcmp(xget(f, fattrs_fflag_info(FATTRS_OFFLINE)->xattr), "(none)") == 0 &&
	       strcmp(xget(f, fattrs_fflag_info(FATTRS_INTEGRITY)->xattr), "(none)") == 0,
	       "%s: the file has neither now", how);
out:
	fattrs_fflag_force_path(false);
	if (dfd >= 0)
		(void)close(dfd);
	if (ofd >= 0)
		(void)close(ofd);
	if (rfd >= 0)
		(void)close(rfd);
}

static void test_fflags__at(void)
{
	struct fattrs_fflags fl;

	if (skip_unless(can_carry && fsup.user_xattr, N_AT - 1, NO_XATTR))
		return;
	if (fail_unless(mkdirat(topfd, "d", 0755) == 0 && make_file("d/f"), N_AT - 2, "no files",
			"make d/f: %s", strerror(errno)))
		return;
	at_one(false);
	at_one(true);
	is_int(fattrs_fflags_get(topfd, "d/f", AT_NO_AUTOMOUNT, 0, &fsup, NULL, &fl), -EINVAL,
	       "at_flags other than AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH are -EINVAL");
	left_only("d", NULL);
}

/* More names than the first list buffer holds: it must grow. */
enum { N_MANY = 6 };
static void test_fflags__many(void)
{
	const char *f = tp("f");
	struct fattrs_fflags fl;
	size_t bytes = 0;
	bool found = true;
	char name[64];
	int n = 0, r;

	if (skip_unless(can_carry && fsup.user_xattr, N_MANY - 1, NO_XATTR))
		return;
	if (fail_unless(make_file("f") && set(f, FATTRS_NOSCRUB, true, 0, NULL) == 0, N_MANY - 2, "no file",
			"make a file with noscrub: %s", strerror(errno)))
		return;
	/* As many as fit (a 4 KiB ext4 holds about 80 of these). */
	for (; n < MANY; n++) {
		(void)snprintf(name, sizeof(name), "user.fattr.unknown-name-number-%03d", n);
		if (!xset(f, name, "", 0))
			break;
		bytes += strlen(name) + 1;
	}
	if (bytes > LIST_FAST)
		tap_ok(true, "%d names (%zu bytes) were added, more than %d bytes", n, bytes, LIST_FAST);
	else if (n < MANY && (errno == ENOSPC || errno == E2BIG))
		tap_skip("only %d names (%zu bytes) fit here: the list never needs more than %d bytes", n, bytes,
			 LIST_FAST);
	else
		tap_ok(false, "%d names (%zu bytes) were added, more than %d bytes: %s", n, bytes, LIST_FAST,
		       strerror(errno));
	r = get(f, &fl);
	is_int(r, 0, "get reads a long list");
	is_int(r == 0 ? (long long)fl.n_unknown : -1, n, "every name is reported");
	for (int i = 0; r == 0 && i < n; i++) {
		(void)snprintf(name, sizeof(name), "user.fattr.unknown-name-number-%03d", i);
		found = found && has_unknown(&fl, name);
	}
	tap_ok(r == 0 && found, "each one by its full name");
	tap_ok(r == 0 && fl.state[FATTRS_NOSCRUB] == FATTRS_STATE_SET && fl.state[FATTRS_OFFLINE] == FATTRS_STATE_CLEAR,
	       "noscrub still reads set among them");
	if (r == 0)
		fattrs_fflags_release(&fl);
	left_only("f", NULL);
}

/*
 * fattrs_xattr_get(): any attribute's whole value, by the calls the flags
 * use and by the path calls, a symbolic link followed or not.
 */
enum { N_XGET_ONE = 3, N_XGET = 6 + 2 * N_XGET_ONE + 1 };
/* More than the library's first guess (256), and it fits an ext4 of 1 KiB blocks with its name. */
#define BIG_VALUE 600
static bool xget_is(int dirfd, const char *path, unsigned atf, const char *want, size_t want_len)
{
	char *v = NULL;
	size_t len = 0;
	bool ok = fattrs_xattr_get(dirfd, path, atf, "user.test", &v, &len) == 0 && len == want_len &&
		  memcmp(v, want, len) == 0 && v[len] == '\0';

	free(v);
	return ok;
}

static void xattr_get_one(const char *how, const char *big)
{
	tap_ok(xget_is(topfd, "f", 0, "abc", 3), "%s: a name in a directory: its value and length", how);
	tap_ok(xget_is(topfd, "big", AT_SYMLINK_NOFOLLOW, big, BIG_VALUE),
	       "%s: a value longer than the first guess, NULs in it, is read whole", how);
	tap_ok(xget_is(topfd, "l", 0, "abc", 3), "%s: a symbolic link is followed", how);
}

static void test_fflags__xattr_get(void)
{
	char big[BIG_VALUE];
	char *v = NULL;

	if (skip_unless(fsup.user_xattr, N_XGET - 1, NO_XATTR))
		return;
	memset(big, 'x', sizeof(big));
	big[10] = '\0';
	if (fail_unless(make_file("f") && make_file("big") && symlinkat("f", topfd, "l") == 0 &&
				xset(tp("f"), "user.test", "abc", 3) && xset(tp("big"), "user.test", big, sizeof(big)),
			N_XGET - 2, "no files", "make files with user.test: %s", strerror(errno)))
		return;
	xattr_get_one("getxattrat", big);
	fattrs_fflag_force_path(true);
	xattr_get_one("path calls", big);
	fattrs_fflag_force_path(false);
	tap_ok(xget_is(AT_FDCWD, tp("f"), AT_SYMLINK_NOFOLLOW, "abc", 3), "an absolute name");
	is_int(fattrs_xattr_get(topfd, "l", AT_SYMLINK_NOFOLLOW, "user.test", &v, NULL), -ENODATA,
	       "a symbolic link's own: -ENODATA");
	is_int(fattrs_xattr_get(topfd, "f", 0, "user.none", &v, NULL), -ENODATA, "an attribute not there: -ENODATA");
	is_int(fattrs_xattr_get(topfd, "missing", 0, "user.test", &v, NULL), -ENOENT, "a missing name: -ENOENT");
	is_int(fattrs_xattr_get(topfd, "f", AT_NO_AUTOMOUNT, "user.test", &v, NULL), -EINVAL,
	       "at_flags other than AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH: -EINVAL");
	tap_ok(v == NULL, "a failed call leaves the value alone");
	left_only("f", "big", "l", NULL);
}

/* ntfs-3g: system.ntfs_attrib keeps OFFLINE only; both sources at once. */
enum { N_NTFS = 10 };
static void test_fflags__ntfs(void)
{
	const char *f = tp("f"), *d = tp("d");
	const char *offline = fattrs_fflag_info(FATTRS_OFFLINE)->xattr;
	uint32_t all = 0, w;
	struct fattrs_fflags fl;
	unsigned int where = 0;
	long long dw;
	int r;

	if (skip_unless(fsup.native == FATTRS_NATIVE_NTFS, N_NTFS - 1, "no system.ntfs_attrib on this filesystem"))
		return;
	if (fail_unless(make_file("f") && mkdirat(topfd, "d", 0755) == 0, N_NTFS - 2, "no files",
			"make a file and a directory: %s", strerror(errno)))
		return;
	for (int i = 0; i < FATTRS_NFFLAGS; i++)
		all |= fattrs_fflag_info((enum fattrs_fflag)i)->winattr;
	w = (uint32_t)ntfs_word(f) | all;
	r = lsetxattr(f, FATTRS_NTFS_ATTRIB_XATTR, &w, sizeof(w), 0);
	tap_ok(r == 0 && (ntfs_word(f) & all) == FATTRS_WINATTR_OFFLINE,
	       "writing all four bits succeeds, and only OFFLINE is kept (read back 0x%llx)", ntfs_word(f));
	w = (uint32_t)ntfs_word(f) & ~all;
	(void)lsetxattr(f, FATTRS_NTFS_ATTRIB_XATTR, &w, sizeof(w), 0);

	/* Offline in both places, as another tool might leave it. */
	w = (uint32_t)ntfs_word(f) | FATTRS_WINATTR_OFFLINE;
	r = lsetxattr(f, FATTRS_NTFS_ATTRIB_XATTR, &w, sizeof(w), 0) == 0 && xset(f, offline, "1", 1);
	if (!r) {
		tap_ok(false, "put offline in both places: %s", strerror(errno));
		skip_n(3, "not in both places");
	} else {
		r = get(f, &fl);
		tap_ok(r == 0 && fl.state[FATTRS_OFFLINE] == FATTRS_STATE_SET &&
		       fl.source[FATTRS_OFFLINE] == (FATTRS_FSRC_XATTR | FATTRS_FSRC_NATIVE),
		       "offline in xattr and word reads set from both");
		if (r == 0)
			fattrs_fflags_release(&fl);
		is_int(set(f, FATTRS_OFFLINE, false, 0, &where), 0, "-offline");
		is_int(where, FATTRS_FSRC_XATTR | FATTRS_FSRC_NATIVE, "-offline cleared both places");
		tap_ok(strcmp(xget(f, offline), "(none)") == 0 && (ntfs_word(f) & FATTRS_WINATTR_OFFLINE) == 0,
		       "neither the xattr nor the bit is left");
	}

	/* A bad xattr value beside a set bit: set, and still warned about. */
	w = (uint32_t)ntfs_word(f) | FATTRS_WINATTR_OFFLINE;
	r = lsetxattr(f, FATTRS_NTFS_ATTRIB_XATTR, &w, sizeof(w), 0) == 0 && xset(f, offline, "on", 2) &&
	    get(f, &fl) == 0;
	tap_ok(r && fl.state[FATTRS_OFFLINE] == FATTRS_STATE_SET && fl.source[FATTRS_OFFLINE] == FATTRS_FSRC_NATIVE &&
	       fl.invalid[FATTRS_OFFLINE] != NULL && strcmp(fl.invalid[FATTRS_OFFLINE], "on") == 0,
	       "native bit and xattr \"on\": set, and the bad value is kept for the warning");
	if (r)
		fattrs_fflags_release(&fl);
	tap_ok(set(f, FATTRS_OFFLINE, false, 0, &where) == 0 && where == (FATTRS_FSRC_XATTR | FATTRS_FSRC_NATIVE) &&
	       state_of(f, FATTRS_OFFLINE) == FATTRS_STATE_CLEAR, "-offline clears both again");

	dw = ntfs_word(d);
	tap_ok(set(d, FATTRS_OFFLINE, true, 0, &where) == 0 && where == FATTRS_FSRC_NATIVE &&
	       ntfs_word(d) == (dw | FATTRS_WINATTR_OFFLINE),
	       "directory (word 0x%llx): +offline adds only its bit", dw);
	tap_ok(set(d, FATTRS_OFFLINE, false, 0, &where) == 0 && ntfs_word(d) == dw,
	       "directory: -offline gives the word back as it was");
	left_only("f", "d", NULL);
}

/* A filesystem with neither user xattrs nor a native word (ramfs). */
enum { N_NONE = 4 };
static void test_fflags__unsupported_fs(void)
{
	const char *f = tp("f");
	struct fattrs_fflags fl;
	bool all = true;
	int r;

	if (skip_unless(!can_carry, N_NONE - 1, "this filesystem can keep the flags"))
		return;
	if (fail_unless(make_file("f"), N_NONE - 2, "no file", "make a file: %s", strerror(errno)))
		return;
	r = get(f, &fl);
	tap_ok(r == 0 && all_state(&fl, FATTRS_STATE_UNSUPPORTED), "every flag reads unsupported");
	if (r == 0)
		fattrs_fflags_release(&fl);
	for (int i = 0; i < FATTRS_NFFLAGS; i++)
		all = all && set(f, (enum fattrs_fflag)i, true, 0, NULL) == -EOPNOTSUPP;
	tap_ok(all, "setting any flag is -EOPNOTSUPP");
	all = true;
	for (int i = 0; i < FATTRS_NFFLAGS; i++)
		all = all && set(f, (enum fattrs_fflag)i, false, 0, NULL) == -EOPNOTSUPP;
	tap_ok(all, "clearing any flag is -EOPNOTSUPP");
	left_only("f", NULL);
}

/* ---------------------------------------------------------------- driver */

static char outbuf[BUFSIZ];	/* the driver's stdout buffer */

/* The caller's part: fsup once per mount, the mode from its own stat; then the marker. */
static int drive_prepare(const char *path, struct fattrs_fsupport *c, struct stat *st)
{
	int r = fattrs_fsupport_probe(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, c);

	if (r == 0 && lstat(path, st) < 0)
		r = -errno;
	if (r < 0) {
		fprintf(stderr, "fflags: cannot probe '%s': %s\n", path, strerror(-r));
		return -1;
	}
	/*
	 * What the C library does once per process (malloc's first getrandom,
	 * stdout's fstat and ioctl) happens before the marker too.
	 */
	{
		void *volatile warm = malloc(1);	/* volatile: the compiler would drop the pair */

		free(warm);
	}
	(void)setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	(void)access(MARKER, F_OK);
	return 0;
}

static int drive_get(const char *path)
{
	struct fattrs_fsupport c;
	struct fattrs_fflags f;
	struct stat st;
	int r;

	if (drive_prepare(path, &c, &st) < 0)
		return 1;
	r = fattrs_fflags_get(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, st.st_mode, &c, NULL, &f);
	if (r < 0) {
		fprintf(stderr, "fflags: cannot read '%s': %s\n", path, strerror(-r));
		return 1;
	}
	for (int i = 0; i < FATTRS_NFFLAGS; i++)
		printf("%s %s\n", fattrs_fflag_info((enum fattrs_fflag)i)->name, fattrs_state_name(f.state[i]));
	for (size_t i = 0; i < f.n_unknown; i++)
		printf("unknown %s\n", f.unknown[i]);
	fattrs_fflags_release(&f);
	return 0;
}

static int drive_set(const char *path, char **ops, int n)
{
	struct fattrs_fsupport c;
	struct stat st;
	int r, rc = 0;

	if (drive_prepare(path, &c, &st) < 0)
		return 1;
	for (int i = 0; i < n; i++) {
		int flag = fattrs_fflag_find(ops[i] + (ops[i][0] != '\0'));
		unsigned int where = 0;

		if (flag < 0 || strchr("+-=", ops[i][0]) == NULL) {
			fprintf(stderr, "fflags: bad operation '%s'\n", ops[i]);
			return 1;
		}
		r = fattrs_fflag_set(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, st.st_mode, &c, (enum fattrs_fflag)flag, ops[i][0] != '-',
				     ops[i][0] == '=' ? FATTRS_FFLAG_NO_OPPOSITE_CHECK : 0, &where);
		if (r < 0) {
			fprintf(stderr, "fflags: cannot %s '%s': %s\n", ops[i], path, strerror(-r));
			rc = 1;
			continue;
		}
		printf("%s %s\n", ops[i], where == FATTRS_FSRC_NATIVE ? "native" :
		       where == FATTRS_FSRC_XATTR ? "xattr" : where == 0 ? "none" : "both");
	}
	return rc;
}

static const char *native_word(enum fattrs_native n)
{
	return n == FATTRS_NATIVE_NTFS ? "ntfs" : n == FATTRS_NATIVE_CIFS ? "cifs" : "none";
}

static int drive_probe(const char *path, bool follow)
{
	struct fattrs_fsupport c;
	int r = fattrs_fsupport_probe(AT_FDCWD, path, fattrs_at_nofollow(!follow), &c);

	if (r < 0) {
		fprintf(stderr, "fflags: cannot probe '%s': %s\n", path, strerror(-r));
		return 1;
	}
	printf("user xattrs %s, native word %s\n", c.user_xattr ? "yes" : "no", native_word(c.native));
	return 0;
}

int main(int argc, char **argv)
{
	int r;

	if (argc == 3 && strcmp(argv[1], "probe") == 0)
		return drive_probe(argv[2], false);
	if (argc == 4 && strcmp(argv[1], "probe") == 0 && strcmp(argv[2], "-L") == 0)
		return drive_probe(argv[3], true);
	if (argc == 3 && strcmp(argv[1], "get") == 0)
		return drive_get(argv[2]);
	if (argc >= 4 && strcmp(argv[1], "set") == 0)
		return drive_set(argv[2], argv + 3, argc - 3);
	if (argc != 1) {
		fprintf(stderr, "usage: fflags [get PATH | set PATH {+|-|=}FLAG... | probe [-L] PATH]\n");
		return 2;
	}

	fs_type = getenv("FATTRS_TEST_FS");
	if (fs_type != NULL && fs_type[0] == '\0')
		fs_type = NULL;
	r = top_make("fflags");
	if (r == 0)
		r = fattrs_fsupport_probe(AT_FDCWD, topdir, AT_SYMLINK_NOFOLLOW, &fsup);
	if (!top_plan(r, N_TABLE + N_VALUE + N_CAPS + N_SETCLEAR + N_VALUES + N_UNKNOWN + N_OPP + N_ABSENT +
			     N_SPECIAL + N_MISSING + N_AT + N_MANY + N_XGET + N_NTFS + N_NONE))
		return 1;
	can_carry = fsup.user_xattr || fsup.native != FATTRS_NATIVE_NONE;
	find_native_keeps();
	printf("# %s: user xattrs %s, native word %s\n", fs_type != NULL ? fs_type : "$TMPDIR",
	       fsup.user_xattr ? "yes" : "no", native_word(fsup.native));
	if (fsup.native != FATTRS_NATIVE_NONE)
		printf("# the native word keeps 0x%x of the four bits\n", native_keeps);

	tap_run(test_fflags__table());
	tap_run(test_fflags__value());
	tap_run(test_fflags__caps());
	tap_run(test_fflags__setclear());
	tap_run(test_fflags__values());
	tap_run(test_fflags__unknown());
	tap_run(test_fflags__opposites());
	tap_run(test_fflags__clear_absent());
	tap_run(test_fflags__special());
	tap_run(test_fflags__missing());
	tap_run(test_fflags__at());
	tap_run(test_fflags__many());
	tap_run(test_fflags__xattr_get());
	tap_run(test_fflags__ntfs());
	tap_run(test_fflags__unsupported_fs());
	return top_done();
}
