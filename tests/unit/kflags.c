/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for src/lib/flags/kflags.c, kattr.c and ktarget.c: the kernel flag table, reading
 * and changing flags.
 */
#include "config.h"

#include "fattrs.h"
#include "flags/kflags-private.h"
#include "testing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "tap.h"
#include "fixture.h"

/* ------------------------------------------------------------- helpers */

#define XI (FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS)
#define NO_FLAGS "$TMPDIR's filesystem keeps no flags (set FATTRS_TEST_FS to say which it is)"
#define NOT_ROOT "needs CAP_LINUX_IMMUTABLE (root)"

/* Which filesystem $TMPDIR is on, from FATTRS_TEST_FS; "" if not said. */
static const char *test_fs = "";
/* Whether this kernel (and not valgrind) has file_getattr(2). */
static bool have_syscall;
/* The path under test: the system calls, or the ioctls forced. */
static bool forced_ioctl;

static bool fs_is(const char *name)
{
	return strcmp(test_fs, name) == 0;
}

/* The FATTRS_KVIA_* the xflags must have been read with. */
static unsigned want_via(void)
{
	return have_syscall && !forced_ioctl ? FATTRS_KVIA_FILE_GETATTR : FATTRS_KVIA_IOCTL;
}

static const char *mode_name(void)
{
	return forced_ioctl ? "ioctl" : "syscall";
}

/* Add "+word -word ..." to @c; false if a word is unknown or read-only. */
static bool spec_change(const char *spec, struct fattrs_kchange *c)
{
	char *copy = strdup(spec), *save = NULL;
	bool ok = copy != NULL;

	for (char *w = copy != NULL ? strtok_r(copy, " ", &save) : NULL; ok && w != NULL;
	     w = strtok_r(NULL, " ", &save)) {
		const struct fattrs_kflag *f = fattrs_kflag_find(w + 1);

		ok = (w[0] == '+' || w[0] == '-') && f != NULL &&
		     fattrs_kchange_add(c, f, w[0] == '+') == 0;
	}
	free(copy);
	return ok;
}

/* fattrs_kattr_change() of @spec on @path in the test directory. */
static int change(const char *path, const char *spec, struct fattrs_kchange *ret_dropped)
{
	struct fattrs_kchange c = { .xset = 0 };

	if (!spec_change(spec, &c))
		return -EBADMSG;	/* a mistake in the test */
	return fattrs_kattr_change(topfd, path, 0, 0, &c, ret_dropped);
}

static const struct fattrs_kflag *flag(const char *word)
{
	const struct fattrs_kflag *f = fattrs_kflag_find(word);

	if (f == NULL) {
		printf("Bail out! no flag '%s' in the table\n", word);
		exit(1);
	}
	return f;
}

/*
 * @word's state in @path read through each word it lives in separately
 * (xflags alone, iflags alone): 1 if set in all, 0 if clear in all, -1 if
 * they disagree, or -errno.
 */
static int state(const char *path, const char *word)
{
	const struct fattrs_kflag *f = flag(word);
	struct fattrs_kattr a;
	int x = -2, i = -2, r;

	if (f->xflag != 0) {
		r = fattrs_kattr_get(topfd, path, 0, 0, FATTRS_KATTR_XFLAGS, &a);
		if (r < 0)
			return r;
		if (a.have != FATTRS_KATTR_XFLAGS || a.via != want_via())
			return -EPROTO;
		x = (a.xflags & f->xflag) != 0;
	}
	if (f->iflag != 0) {
		r = fattrs_kattr_get(topfd, path, 0, 0, FATTRS_KATTR_IFLAGS, &a);
		if (r < 0)
			return r;
		if (a.have != FATTRS_KATTR_IFLAGS)
			return -EPROTO;
		i = (a.iflags & f->iflag) != 0;
	}
	if (x != -2 && i != -2 && x != i)
		return -1;
	return x != -2 ? x : i;
}

static bool make_file(const char *name)
{
	int fd = openat(topfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	return fd >= 0 && close(fd) == 0;
}

static bool make_dir(const char *name)
{
	return mkdirat(topfd, name, 0755) == 0;
}

/* Make regular file "f" or directory "d". */
static bool make(const char *name)
{
	return name[0] == 'd' ? make_dir(name) : make_file(name);
}

static bool is_root(void)
{
	return geteuid() == 0;
}

/* How many descriptors this process has open (entries of /proc/self/fd), or -1. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] != '.')
			n++;
	}
	(void)closedir(d);
	return n;
}

/* ----------------------------------------------------------- the table */

/* The values of doc/kernel.md §2.3/2.4 as numbers, not as the headers spell them. */
static const struct {
	const char *name;
	char letter;
	uint32_t xflag, iflag;
	uint64_t statx;
	bool readonly;
} known[] = {
	{ "immutable", 'i', 0x00000008, 0x00000010, 0x10, false },
	{ "append", 'a', 0x00000010, 0x00000020, 0x20, false },
	{ "nodump", 'd', 0x00000080, 0x00000040, 0x40, false },
	{ "noatime", 'A', 0x00000040, 0x00000080, 0, false },
	{ "sync", 'S', 0x00000020, 0x00000008, 0, false },
	{ "dirsync", 'D', 0, 0x00010000, 0, false },
	{ "nocow", 'C', 0, 0x00800000, 0, false },
	{ "compress", 'c', 0, 0x00000004, 0x4, false },
	{ "nocompress", 'm', 0, 0x00000400, 0, false },
	{ "projinherit", 'P', 0x00000200, 0x20000000, 0, false },
	{ "dax", 'x', 0x00008000, 0x02000000, 0x200000, false },
	{ "secrm", 's', 0, 0x00000001, 0, false },
	{ "undelete", 'u', 0, 0x00000002, 0, false },
	{ "journal", 'j', 0, 0x00004000, 0, false },
	{ "notail", 't', 0, 0x00008000, 0, false },
	{ "topdir", 'T', 0, 0x00020000, 0, false },
	{ "extents", 'e', 0, 0x00080000, 0, true },
	{ "index", 'I', 0, 0x00001000, 0, true },
	{ "encrypted", 'E', 0, 0x00000800, 0x800, true },
	{ "verity", 'V', 0x00020000, 0x00100000, 0x100000, true },
	{ "casefold", 'F', 0x00040000, 0x40000000, 0, true },
	{ "inline-data", 'N', 0, 0x10000000, 0, true },
	{ "realtime", '\0', 0x00000001, 0, 0, false },
	{ "rtinherit", '\0', 0x00000100, 0, 0, false },
	{ "nosymlinks", '\0', 0x00000400, 0, 0, false },
	{ "extsize", '\0', 0x00000800, 0, 0, false },
	{ "extszinherit", '\0', 0x00001000, 0, 0, false },
	{ "nodefrag", '\0', 0x00002000, 0, 0, false },
	{ "filestream", '\0', 0x00004000, 0, 0, false },
	{ "cowextsize", '\0', 0x00010000, 0, 0, false },
	{ "prealloc", '\0', 0x00000002, 0, 0, true },
	{ "casenonpreserving", '\0', 0x00080000, 0, 0, true },
	{ "hasattr", '\0', 0x80000000, 0, 0, true },
};

#define N_KNOWN (sizeof(known) / sizeof(known[0]))

static void test_kflags__table_matches_the_kernel(void)
{
	size_t n;
	const struct fattrs_kflag *t = fattrs_kflags_table(&n);
	bool same = n == N_KNOWN;

	for (size_t i = 0; same && i < n; i++) {
		same = strcmp(t[i].name, known[i].name) == 0 && t[i].letter == known[i].letter &&
		       t[i].xflag == known[i].xflag && t[i].iflag == known[i].iflag &&
		       t[i].statx_attr == known[i].statx && t[i].readonly == known[i].readonly;
		if (!same)
			printf("# row %zu: '%s' differs from '%s'\n", i, t[i].name, known[i].name);
	}
	tap_ok(same, "the table's rows, letters and bits are doc/kernel.md's, in display order");
	for (size_t i = 0; i < n; i++) {
		if (t[i].description == NULL || t[i].description[0] == '\0')
			same = false;
	}
	tap_ok(same, "every row has a description");
}

static void test_kflags__names_and_letters_unique(void)
{
	size_t n;
	const struct fattrs_kflag *t = fattrs_kflags_table(&n);
	bool names = true, letters = true, bits = true, words = true;

	for (size_t i = 0; i < n; i++) {
		for (const char *p = t[i].name; *p != '\0'; p++) {
			if (!((*p >= 'a' && *p <= 'z') || *p == '-'))
				words = false;
		}
		for (size_t j = i + 1; j < n; j++) {
			if (strcmp(t[i].name, t[j].name) == 0)
				names = false;
			if (t[i].letter != '\0' && t[i].letter == t[j].letter)
				letters = false;
			if ((t[i].xflag & t[j].xflag) != 0 || (t[i].iflag & t[j].iflag) != 0)
				bits = false;
		}
		/* One bit per word, at most. */
		if ((t[i].xflag & (t[i].xflag - 1)) != 0 || (t[i].iflag & (t[i].iflag - 1)) != 0 ||
		    (t[i].xflag | t[i].iflag) == 0)
			bits = false;
	}
	tap_ok(names, "names are unique");
	tap_ok(words, "names are lowercase words (a-z and '-')");
	tap_ok(letters, "letters are unique");
	tap_ok(bits, "each row has one bit in a word or two, and no bit is in two rows");
}

static void test_kflag_find__by_word_and_letter(void)
{
	/* chattr(1)'s settable letters, then the ones lsattr(1) only shows. */
	static const char chattr[] = "aAcCdDeFijmPsStTuxEINV";
	size_t n;
	const struct fattrs_kflag *t = fattrs_kflags_table(&n);
	bool all = true, by_name = true, by_letter = true;

	for (const char *c = chattr; *c != '\0'; c++) {
		char w[2] = { *c, '\0' };
		const struct fattrs_kflag *f = fattrs_kflag_find(w);

		if (f == NULL || f->letter != *c) {
			printf("# letter '%c' not found\n", *c);
			all = false;
		}
	}
	tap_ok(all, "every chattr/lsattr letter is found");
	for (size_t i = 0; i < n; i++) {
		char w[2] = { t[i].letter, '\0' };

		if (fattrs_kflag_find(t[i].name) != &t[i])
			by_name = false;
		if (t[i].letter != '\0' && fattrs_kflag_find(w) != &t[i])
			by_letter = false;
	}
	tap_ok(by_name, "each row is found by its name");
	tap_ok(by_letter, "each row with a letter is found by it");
	tap_ok(fattrs_kflag_find("s") == flag("secrm") && fattrs_kflag_find("S") == flag("sync"),
	       "letters are case-sensitive: s is secrm, S is sync");
	tap_ok(fattrs_kflag_find("bogus") == NULL && fattrs_kflag_find("") == NULL &&
	       fattrs_kflag_find("q") == NULL && fattrs_kflag_find("Immutable") == NULL &&
	       fattrs_kflag_find("+i") == NULL,
	       "unknown words and letters are NULL");
}

static void test_kchange_add__routes_and_refuses_readonly(void)
{
	struct fattrs_kchange c = { .xset = 0 };
	size_t n;
	const struct fattrs_kflag *t = fattrs_kflags_table(&n);
	bool ro = true;

	tap_ok(fattrs_kchange_add(&c, flag("nodump"), true) == 0 &&
	       fattrs_kchange_add(&c, flag("nocow"), true) == 0 &&
	       fattrs_kchange_add(&c, flag("noatime"), false) == 0 &&
	       fattrs_kchange_add(&c, flag("dirsync"), false) == 0 &&
	       c.xset == FS_XFLAG_NODUMP && c.iset == FS_NOCOW_FL &&
	       c.xclear == FS_XFLAG_NOATIME && c.iclear == FS_DIRSYNC_FL,
	       "a flag with an xflag goes to the xflags word, else to the iflags word");
	tap_ok(fattrs_kchange_add(&c, flag("nodump"), false) == 0 &&
	       c.xset == 0 && c.xclear == (FS_XFLAG_NODUMP | FS_XFLAG_NOATIME),
	       "a later change of the same flag replaces the earlier one");
	for (size_t i = 0; i < n; i++) {
		struct fattrs_kchange before = c;

		if (t[i].readonly &&
		    (fattrs_kchange_add(&c, &t[i], true) != -EINVAL || memcmp(&c, &before, sizeof(c)) != 0))
			ro = false;
	}
	tap_ok(ro, "read-only flags give -EINVAL and leave the change as it was");
}

static void test_kattr_test__which_word(void)
{
	struct fattrs_kattr a = { .have = FATTRS_KATTR_XFLAGS, .xflags = FS_XFLAG_NODUMP };

	is_int(fattrs_kattr_test(&a, flag("nodump")), 1, "test: nodump set in the xflags");
	is_int(fattrs_kattr_test(&a, flag("noatime")), 0, "test: noatime clear in the xflags");
	is_int(fattrs_kattr_test(&a, flag("nocow")), -ENODATA,
	       "test: nocow unknown when only the xflags were read");
	a = (struct fattrs_kattr){ .have = XI, .iflags = FS_VERITY_FL };
	is_int(fattrs_kattr_test(&a, flag("verity")), 1,
	       "test: verity from the iflags where the xflags lack it (before 7.0)");
}

/* --------------------------------------------- every filesystem, every path */

/* get of a fresh file and directory: both words, the right path. */
static bool test_kattr_get__fresh(void)
{
	struct fattrs_kattr a = { .have = 0 };
	int r;

	(void)make_file("f");
	r = fattrs_kattr_get(topfd, "f", 0, 0, XI, &a);
	if (r == -EOPNOTSUPP && test_fs[0] == '\0') {
		tap_skip("%s", NO_FLAGS);
		nothing_left();
		return false;
	}
	tap_ok(r == 0 && a.have == XI && a.via == want_via(),
	       "%s: get of a regular file reads both words (r=%d have=%u via=%u)",
	       mode_name(), r, a.have, a.via);
	left_only("f", NULL);
	return r == 0;
}

/* +nodump +noatime and back on @name ("f" or "d"), read through each word. */
static void test_kattr_change__nodump_noatime(const char *name)
{
	struct fattrs_kchange d = { .xset = 1 };
	struct fattrs_kattr a = { .have = 0 };
	const char *what = name[0] == 'd' ? "directory" : "regular file";

	(void)make(name);
	is_int(change(name, "+nodump +noatime", &d), 1, "%s: +nodump +noatime on a %s writes",
	       mode_name(), what);
	tap_ok(d.xset == 0 && d.xclear == 0 && d.iset == 0 && d.iclear == 0,
	       "%s: nothing dropped", mode_name());
	tap_ok(state(name, "nodump") == 1 && state(name, "noatime") == 1,
	       "%s: both set, in the xflags and in the iflags", mode_name());
	tap_ok(fattrs_kattr_get(topfd, name, 0, 0, XI, &a) == 0 &&
	       fattrs_kattr_test(&a, flag("nodump")) == 1 &&
	       fattrs_kattr_test(&a, flag("noatime")) == 1 &&
	       fattrs_kattr_test(&a, flag("immutable")) == 0,
	       "%s: fattrs_kattr_test agrees", mode_name());
	is_int(change(name, "+nodump +A", &d), 0, "%s: setting them again writes nothing",
	       mode_name());
	is_int(change(name, "-nodump -noatime", &d), 1, "%s: -nodump -noatime writes", mode_name());
	tap_ok(state(name, "nodump") == 0 && state(name, "noatime") == 0,
	       "%s: both clear again, in both words", mode_name());
	is_int(change(name, "-d", &d), 0, "%s: clearing a clear flag writes nothing", mode_name());
	left_only(name, NULL);
}

/* Read-only flags and bad arguments: -EINVAL before any system call. */
static void test_kattr_change__invalid(void)
{
	struct fattrs_kchange c = { .xset = FS_XFLAG_VERITY };
	struct fattrs_kattr a;

	/* "nope" is missing: a system call would have answered -ENOENT. */
	is_int(fattrs_kattr_change(topfd, "nope", 0, 0, &c, NULL), -EINVAL,
	       "%s: setting verity is -EINVAL, before any system call", mode_name());
	c = (struct fattrs_kchange){ .iclear = FS_EXTENT_FL };
	is_int(fattrs_kattr_change(topfd, "nope", 0, 0, &c, NULL), -EINVAL,
	       "%s: clearing extents is -EINVAL", mode_name());
	c = (struct fattrs_kchange){ .xset = FS_XFLAG_NODUMP, .xclear = FS_XFLAG_NODUMP };
	is_int(fattrs_kattr_change(topfd, "nope", 0, 0, &c, NULL), -EINVAL,
	       "%s: setting and clearing one bit is -EINVAL", mode_name());
	c = (struct fattrs_kchange){ .xset = FS_XFLAG_NODUMP };
	is_int(fattrs_kattr_change(topfd, "nope", AT_REMOVEDIR, 0, &c, NULL), -EINVAL,
	       "%s: change with unknown at_flags is -EINVAL", mode_name());
	is_int(fattrs_kattr_change_flags(topfd, "nope", 0, 0, &c, 1U << 7, NULL), -EINVAL,
	       "%s: change with unknown flags is -EINVAL", mode_name());
	is_int(fattrs_kattr_get(topfd, "nope", AT_REMOVEDIR, 0, XI, &a), -EINVAL,
	       "%s: get with unknown at_flags is -EINVAL", mode_name());
	is_int(fattrs_kattr_get(topfd, "nope", 0, 0, 0, &a), -EINVAL,
	       "%s: get of nothing is -EINVAL", mode_name());
	nothing_left();
}

/*
 * A write the kernel refuses with EINVAL (the VFS allows extszinherit on
 * directories only): -EINVAL, not "not supported here".
 */
static void test_kattr_change__kernel_einval(void)
{
	struct fattrs_kattr a = { .have = 0 };

	(void)make_file("f");
	is_int(change("f", "+extszinherit", NULL), -EINVAL,
	       "%s: +extszinherit on a regular file is the kernel's -EINVAL", mode_name());
	tap_ok(fattrs_kattr_get(topfd, "f", 0, 0, XI, &a) == 0 &&
	       (a.xflags & FS_XFLAG_EXTSZINHERIT) == 0, "%s: ... and nothing was set", mode_name());
	left_only("f", NULL);
}

static void test_kattr__missing(void)
{
	struct fattrs_kchange c = { .xset = FS_XFLAG_NODUMP }, d = { .xset = 7 };
	struct fattrs_kattr a = { .have = 99 };

	(void)make_file("f");
	is_int(fattrs_kattr_get(topfd, "nope", 0, 0, XI, &a), -ENOENT,
	       "%s: get of a missing file is -ENOENT", mode_name());
	is_int(a.have, 99, "%s: ... and leaves ret alone", mode_name());
	is_int(fattrs_kattr_get(topfd, "nope", 0, 0, FATTRS_KATTR_IFLAGS, &a), -ENOENT,
	       "%s: so is get of its iflags", mode_name());
	is_int(fattrs_kattr_change(topfd, "nope", 0, 0, &c, &d), -ENOENT,
	       "%s: change of a missing file is -ENOENT", mode_name());
	is_int(d.xset, 7, "%s: ... and leaves ret_dropped alone", mode_name());
	is_int(fattrs_kattr_get(topfd, "f/x", 0, 0, XI, &a), -ENOTDIR,
	       "%s: a file as a directory is -ENOTDIR", mode_name());
	left_only("f", NULL);
}

/*
 * A fifo: its open would block (and a device's could do anything), so it
 * is never opened.  Only file_getattr(2) on xfs can see its flags.
 * The test's alarm() catches a blocking open.
 */
static void test_kattr__fifo(void)
{
	bool xfs = fs_is("xfs") && want_via() == FATTRS_KVIA_FILE_GETATTR;
	struct fattrs_kchange d = { .xset = 0 };
	struct fattrs_kattr a = { .have = 0 };
	int r;

	if (mkfifoat(topfd, "p", 0644) < 0) {
		tap_ok(false, "mkfifo: %s", strerror(errno));
		skip_n(4, "no fifo");
		nothing_left();
		return;
	}
	r = fattrs_kattr_get(topfd, "p", AT_SYMLINK_NOFOLLOW, 0, XI, &a);
	if (xfs) {
		tap_ok(r == 0 && a.have == FATTRS_KATTR_XFLAGS,
		       "%s: get of a fifo on xfs reads its xflags only (r=%d)", mode_name(), r);
	} else {
		is_int(r, -EOPNOTSUPP, "%s: get of a fifo is -EOPNOTSUPP", mode_name());
	}
	r = fattrs_kattr_get(topfd, "p", 0, S_IFIFO | 0644, FATTRS_KATTR_IFLAGS, &a);
	is_int(r, -EOPNOTSUPP, "%s: get of a fifo's iflags, mode given, is -EOPNOTSUPP",
	       mode_name());
	r = change("p", "+nodump", &d);
	if (xfs) {
		is_int(r, 1, "%s: +nodump on a fifo on xfs works", mode_name());
		is_int(change("p", "-nodump", &d), 1, "%s: and -nodump", mode_name());
	} else {
		is_int(r, -EOPNOTSUPP, "%s: +nodump on a fifo is -EOPNOTSUPP", mode_name());
		tap_ok(d.xset == FS_XFLAG_NODUMP && d.iset == 0,
		       "%s: ... reported dropped", mode_name());
	}
	r = change("p", "+nocow", &d);
	is_int(r, -EOPNOTSUPP, "%s: +nocow (iflags) on a fifo is -EOPNOTSUPP", mode_name());
	left_only("p", NULL);
}

/* A symlink: followed by default, not with AT_SYMLINK_NOFOLLOW. */
static void test_kattr__symlink(void)
{
	bool xfs = fs_is("xfs") && want_via() == FATTRS_KVIA_FILE_GETATTR;
	struct fattrs_kattr a = { .have = 0 };
	int r;

	(void)make_file("f");
	if (symlinkat("f", topfd, "l") < 0) {
		tap_ok(false, "symlink: %s", strerror(errno));
		skip_n(2, "no symlink");
		nothing_left();
		return;
	}
	r = fattrs_kattr_get(topfd, "l", AT_SYMLINK_NOFOLLOW, 0, XI, &a);
	if (xfs) {
		tap_ok(r == 0 && a.have == FATTRS_KATTR_XFLAGS,
		       "%s: get of a symlink itself on xfs reads its xflags only (r=%d)",
		       mode_name(), r);
	} else {
		is_int(r, -EOPNOTSUPP, "%s: get of a symlink itself is -EOPNOTSUPP", mode_name());
	}
	is_int(change("f", "+nodump", NULL), 1, "%s: +nodump on the target", mode_name());
	r = fattrs_kattr_get(topfd, "l", 0, 0, XI, &a);
	tap_ok(r == 0 && a.have == XI && (a.xflags & FS_XFLAG_NODUMP) && (a.iflags & FS_NODUMP_FL),
	       "%s: get through the symlink sees the target's nodump (r=%d)", mode_name(), r);
	left_only("f", "l", NULL);
}

/* AT_EMPTY_PATH: the descriptor itself, no open of its own. */
static void test_kattr__empty_path(void)
{
	struct fattrs_kattr a = { .have = 0 }, b = { .have = 0 };
	struct fattrs_kchange c = { .xset = FS_XFLAG_NODUMP };
	int fd, r;

	(void)make_file("f");
	fd = openat(topfd, "f", O_RDONLY | O_CLOEXEC);
	r = fattrs_kattr_change(fd, "", AT_EMPTY_PATH, 0, &c, NULL);
	is_int(r, 1, "%s: +nodump on a descriptor with AT_EMPTY_PATH", mode_name());
	r = fattrs_kattr_get(fd, NULL, AT_EMPTY_PATH, 0, XI, &a);
	tap_ok(r == 0 && fattrs_kattr_get(topfd, "f", 0, 0, XI, &b) == 0 &&
	       a.have == XI && a.xflags == b.xflags && a.iflags == b.iflags &&
	       (a.xflags & FS_XFLAG_NODUMP),
	       "%s: get of the descriptor reads what get of its name does (r=%d)", mode_name(), r);
	tap_ok(fcntl(fd, F_GETFD) >= 0, "%s: the descriptor is still open", mode_name());
	if (fd >= 0)
		(void)close(fd);
	left_only("f", NULL);
}

/*
 * The caller's mode is stale: the file was a regular file when the caller
 * stat'ed it, and is a fifo or a symlink now.  The descriptor opened for
 * the ioctls is checked with fstat(2) and closed unused (xfs answers
 * FS_IOC_GETFLAGS and FS_IOC_FSSETXATTR on a fifo's or a device's
 * descriptor); a symlink under AT_SYMLINK_NOFOLLOW is "no flags here",
 * not -ELOOP.  Only file_getattr(2) on xfs sees such files' xflags.
 */
static void test_kattr__stale_mode(void)
{
	bool xfs = fs_is("xfs") && want_via() == FATTRS_KVIA_FILE_GETATTR;
	struct fattrs_kchange c = { .xset = FS_XFLAG_NODUMP };
	struct fattrs_kattr a = { .have = 0 };
	int fds = open_fds(), r;

	if (mkfifoat(topfd, "p", 0644) < 0 || !make_file("f") || symlinkat("f", topfd, "l") < 0) {
		tap_ok(false, "make a fifo, a file and a symlink: %s", strerror(errno));
		skip_n(3, "no files");
		nothing_left();
		return;
	}
	r = fattrs_kattr_get(topfd, "p", 0, S_IFREG | 0644, XI, &a);
	if (xfs) {
		tap_ok(r == 0 && a.have == FATTRS_KATTR_XFLAGS,
		       "%s: get of a fifo said to be a regular file reads its xflags only (r=%d have=%u)",
		       mode_name(), r, a.have);
	} else {
		is_int(r, -EOPNOTSUPP, "%s: get of a fifo said to be a regular file is -EOPNOTSUPP",
		       mode_name());
	}
	r = fattrs_kattr_change(topfd, "p", 0, S_IFREG | 0644, &c, NULL);
	is_int(r, xfs ? 1 : -EOPNOTSUPP,
	       "%s: +nodump on a fifo said to be a regular file is %s", mode_name(),
	       xfs ? "file_setattr's" : "-EOPNOTSUPP, its descriptor unused");
	r = fattrs_kattr_get(topfd, "l", AT_SYMLINK_NOFOLLOW, S_IFREG | 0644, XI, &a);
	if (xfs) {
		tap_ok(r == 0 && a.have == FATTRS_KATTR_XFLAGS,
		       "%s: get of a symlink itself said to be a regular file reads its xflags only (r=%d)",
		       mode_name(), r);
	} else {
		is_int(r, -EOPNOTSUPP,
		       "%s: get of a symlink itself said to be a regular file is -EOPNOTSUPP, not -ELOOP",
		       mode_name());
	}
	is_int(open_fds(), fds, "%s: no descriptor is left open", mode_name());
	left_only("f", "l", "p", NULL);
}

/* AT_FDCWD, "" and AT_EMPTY_PATH: the working directory itself. */
static void test_kattr__cwd(void)
{
	struct fattrs_kattr a = { .have = 0 }, b = { .have = 0 };
	struct fattrs_kchange c = { .xset = FS_XFLAG_NODUMP };
	int back = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), fds, r;

	if (back < 0 || fchdir(topfd) < 0) {
		tap_ok(false, "change to the test directory: %s", strerror(errno));
		skip_n(3, "not in the test directory");
		if (back >= 0)
			(void)close(back);
		nothing_left();
		return;
	}
	fds = open_fds();
	r = fattrs_kattr_get(AT_FDCWD, "", AT_EMPTY_PATH, 0, XI, &a);
	tap_ok(r == 0 && a.have == XI && fattrs_kattr_get(topfd, "", AT_EMPTY_PATH, 0, XI, &b) == 0 &&
	       a.xflags == b.xflags && a.iflags == b.iflags,
	       "%s: get of AT_FDCWD with AT_EMPTY_PATH reads the working directory (r=%d)",
	       mode_name(), r);
	r = fattrs_kattr_change(AT_FDCWD, NULL, AT_EMPTY_PATH, 0, &c, NULL);
	c = (struct fattrs_kchange){ .xclear = FS_XFLAG_NODUMP };
	tap_ok(r == 1 && state(".", "nodump") == 1 &&
	       fattrs_kattr_change(AT_FDCWD, "", AT_EMPTY_PATH, 0, &c, NULL) == 1 &&
	       state(".", "nodump") == 0,
	       "%s: +nodump and -nodump of AT_FDCWD with AT_EMPTY_PATH (r=%d)", mode_name(), r);
	is_int(open_fds(), fds, "%s: no descriptor is left open", mode_name());
	if (fchdir(back) < 0)
		printf("Bail out! cannot change back: %s\n", strerror(errno));
	(void)close(back);
	nothing_left();
}

/* ------------------------------------------------- per filesystem */

/*
 * What each filesystem keeps (measured on 6.18, doc/kernel.md §2.5).  "ok":
 * set and cleared, "no": refused or dropped, reported in ret_dropped;
 * "einval": the filesystem's own -EINVAL, passed on as it is.
 */
static const struct fs_expect {
	const char *fs;
	const char *file_ok, *dir_ok, *file_no, *dir_no;
	const char *einval;	/* refused with EINVAL on files and directories */
} expects[] = {
	{ "tmpfs", "immutable append nodump noatime", "immutable append nodump noatime",
	  "sync dirsync nocow compress projinherit dax nodefrag", "sync dirsync nocow" },
	{ "ext4", "immutable append nodump noatime sync compress dax secrm undelete notail",
	  "dirsync topdir projinherit dax notail",
	  /* nodefrag and the other xfs flags: file_setattr answers 0 and drops them */
	  "nodefrag realtime filestream nocow nocompress projinherit dirsync topdir",
	  "nodefrag nocow" },
	{ "xfs", "immutable append nodump noatime sync dax nodefrag filestream",
	  "projinherit rtinherit nosymlinks nodefrag filestream",
	  "projinherit rtinherit nosymlinks dirsync nocow compress secrm", "dirsync nocow",
	  /* no realtime device */
	  "realtime" },
	{ "btrfs", "immutable append nodump noatime sync nocow compress nocompress",
	  "dirsync nocow compress", "dirsync projinherit dax nodefrag", "projinherit dax" },
};

static const struct fs_expect *expect(void)
{
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++) {
		if (fs_is(expects[i].fs))
			return &expects[i];
	}
	return NULL;
}

/* Each word of @words set and cleared on a fresh @name: one result per word. */
static void words_ok(const char *name, const char *words)
{
	char *copy = strdup(words), *save = NULL;

	for (char *w = copy != NULL ? strtok_r(copy, " ", &save) : NULL; w != NULL;
	     w = strtok_r(NULL, " ", &save)) {
		struct fattrs_kchange d = { .xset = 1 };
		char spec[64];
		int set, on, clr, off;

		(void)make(name);
		(void)snprintf(spec, sizeof(spec), "+%s", w);
		set = change(name, spec, &d);
		on = state(name, w);
		spec[0] = '-';
		clr = change(name, spec, NULL);
		off = state(name, w);
		tap_ok(set == 1 && on == 1 && clr == 1 && off == 0 &&
		       (d.xset | d.xclear | d.iset | d.iclear) == 0,
		       "%s %s: %s sets and clears on a %s (set %d, read %d, clear %d, read %d)",
		       test_fs, mode_name(), w, name[0] == 'd' ? "directory" : "file",
		       set, on, clr, off);
		empty_dir(topfd);
	}
	free(copy);
}

/* Each word of @words refused (or dropped) on a fresh @name, and reported. */
static void words_no(const char *name, const char *words)
{
	char *copy = strdup(words), *save = NULL;

	for (char *w = copy != NULL ? strtok_r(copy, " ", &save) : NULL; w != NULL;
	     w = strtok_r(NULL, " ", &save)) {
		const struct fattrs_kflag *f = flag(w);
		struct fattrs_kchange d = { .xset = 0 };
		struct fattrs_kattr before = { .have = 0 }, after = { .have = 0 };
		char spec[64];
		int r;

		(void)make(name);
		(void)fattrs_kattr_get(topfd, name, 0, 0, XI, &before);
		(void)snprintf(spec, sizeof(spec), "+%s", w);
		r = change(name, spec, &d);
		(void)fattrs_kattr_get(topfd, name, 0, 0, XI, &after);
		tap_ok(r == -EOPNOTSUPP &&
		       (f->xflag != 0 ? d.xset == f->xflag && d.iset == 0
				      : d.iset == f->iflag && d.xset == 0) &&
		       d.xclear == 0 && d.iclear == 0 &&
		       before.xflags == after.xflags && before.iflags == after.iflags,
		       "%s %s: %s on a %s is -EOPNOTSUPP, reported dropped, nothing changed "
		       "(r=%d dropped=%#x,%#x)", test_fs, mode_name(), w,
		       name[0] == 'd' ? "directory" : "file", r, (unsigned)d.xset, (unsigned)d.iset);
		empty_dir(topfd);
	}
	free(copy);
}

/* Each word of @words refused with -EINVAL on a fresh @name, nothing changed. */
static void words_einval(const char *name, const char *words)
{
	char *copy = strdup(words), *save = NULL;

	for (char *w = copy != NULL ? strtok_r(copy, " ", &save) : NULL; w != NULL;
	     w = strtok_r(NULL, " ", &save)) {
		struct fattrs_kattr before = { .have = 0 }, after = { .have = 0 };
		char spec[64];
		int r;

		(void)make(name);
		(void)fattrs_kattr_get(topfd, name, 0, 0, XI, &before);
		(void)snprintf(spec, sizeof(spec), "+%s", w);
		r = change(name, spec, NULL);
		(void)fattrs_kattr_get(topfd, name, 0, 0, XI, &after);
		tap_ok(r == -EINVAL && before.xflags == after.xflags && before.iflags == after.iflags,
		       "%s %s: %s on a %s is the filesystem's -EINVAL, nothing changed (r=%d)",
		       test_fs, mode_name(), w, name[0] == 'd' ? "directory" : "file", r);
		empty_dir(topfd);
	}
	free(copy);
}

static void test_kattr_change__per_filesystem(void)
{
	const struct fs_expect *e = expect();

	if (e == NULL)
		return;
	if (!is_root()) {
		tap_skip("%s", NOT_ROOT);
		return;
	}
	words_ok("f", e->file_ok);
	words_ok("d", e->dir_ok);
	words_no("f", e->file_no);
	words_no("d", e->dir_no);
	if (e->einval != NULL) {
		words_einval("f", e->einval);
		words_einval("d", e->einval);
	}
}

/*
 * A flag the filesystem refuses (EOPNOTSUPP: it has no such flag) and one
 * it says yes to and drops (the read-back shows it clear) are told apart
 * (fattrs_kattr_change_result(), fattrs_kresult_fate()).
 */
static void test_kattr_change__refused_or_dropped(void)
{
	static const struct {
		const char *fs, *word;
		enum fattrs_kfate fate;
	} cases[] = {
		{ "tmpfs", "sync", FATTRS_KFATE_REFUSED },
		{ "tmpfs", "projinherit", FATTRS_KFATE_REFUSED },
		{ "ext4", "nocow", FATTRS_KFATE_REFUSED },
		{ "ext4", "nodefrag", FATTRS_KFATE_DROPPED },
		{ "btrfs", "dax", FATTRS_KFATE_REFUSED },
		{ "xfs", "nocow", FATTRS_KFATE_REFUSED },
	};
	static const char *const fates[] = { "done", "refused", "dropped" };

	if (!is_root())
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fattrs_kchange c = { .xset = 0 };
		struct fattrs_kresult res;
		enum fattrs_kfate got;
		int r;

		if (!fs_is(cases[i].fs))
			continue;
		(void)make("f");
		(void)fattrs_kchange_add(&c, flag(cases[i].word), true);
		r = fattrs_kattr_change_result(topfd, "f", 0, 0, &c, 0, &res);
		got = r == -EOPNOTSUPP ? fattrs_kresult_fate(&res, flag(cases[i].word), true) : FATTRS_KFATE_DONE;
		tap_ok(got == cases[i].fate, "%s %s: +%s is %s (r=%d, %s)", test_fs, mode_name(), cases[i].word,
		       fates[cases[i].fate], r, fates[got]);
		empty_dir(topfd);
	}
}

/*
 * The size hints: a change that gives a size writes it with its flag
 * (xfs keeps the flag only with one); ext4 drops both and says so.
 */
static void test_kattr_change__sizes(void)
{
	struct fattrs_kchange c = { .xset = FS_XFLAG_EXTSIZE | FS_XFLAG_COWEXTSIZE, .extsize = 65536,
				    .cowextsize = 131072 };
	struct fattrs_kchange d = { .xset = 0 };
	struct fattrs_kattr a = { .have = 0 };
	char f[32], dir[32];

	snprintf(f, sizeof(f), "sz-%s", mode_name());
	snprintf(dir, sizeof(dir), "szd-%s", mode_name());
	is_int(fattrs_kattr_change(topfd, f, 0, 0, &(struct fattrs_kchange){ .extsize = 4096 }, NULL),
	       -EINVAL, "%s %s: a size without its flag set is -EINVAL", test_fs, mode_name());
	if (!fs_is("xfs") && !fs_is("ext4"))
		return;
	if (!make_file(f) || !make_dir(dir)) {
		tap_ok(false, "make %s and %s", f, dir);
		goto out;
	}
	if (fs_is("ext4")) {
		is_int(fattrs_kattr_change(topfd, f, 0, 0, &c, &d), -EOPNOTSUPP,
		       "ext4 %s: extsize and cowextsize with sizes are not kept", mode_name());
		is_int(d.xset, FS_XFLAG_EXTSIZE | FS_XFLAG_COWEXTSIZE, "... and both are said dropped");
		goto out;
	}
	is_int(fattrs_kattr_change(topfd, f, 0, 0, &c, &d), 1, "xfs %s: +extsize=64k,cowextsize=128k", mode_name());
	is_int(fattrs_kattr_get(topfd, f, 0, 0, FATTRS_KATTR_XFLAGS, &a), 0, "... read back");
	tap_ok((a.xflags & (FS_XFLAG_EXTSIZE | FS_XFLAG_COWEXTSIZE)) == (FS_XFLAG_EXTSIZE | FS_XFLAG_COWEXTSIZE) &&
	       a.extsize == 65536 && a.cowextsize == 131072, "... both flags set with their sizes (%u, %u)",
	       (unsigned)a.extsize, (unsigned)a.cowextsize);
	/* The flags are already set: a new size alone is still written. */
	c = (struct fattrs_kchange){ .xset = FS_XFLAG_EXTSIZE, .extsize = 262144 };
	is_int(fattrs_kattr_change(topfd, f, 0, 0, &c, &d), 1, "xfs %s: a new size of a set flag is written",
	       mode_name());
	is_int(fattrs_kattr_get(topfd, f, 0, 0, FATTRS_KATTR_XFLAGS, &a), 0, "... read back");
	tap_ok(a.extsize == 262144 && a.cowextsize == 131072, "... the extent size changed, not the other (%u, %u)",
	       (unsigned)a.extsize, (unsigned)a.cowextsize);
	is_int(fattrs_kattr_change(topfd, f, 0, 0, &c, &d), 0, "... and the same size again writes nothing");
	c = (struct fattrs_kchange){ .xset = FS_XFLAG_EXTSZINHERIT, .extsize = 1048576 };
	is_int(fattrs_kattr_change(topfd, dir, 0, 0, &c, &d), 1, "xfs %s: extszinherit with a size on a directory",
	       mode_name());
	is_int(fattrs_kattr_get(topfd, dir, 0, 0, FATTRS_KATTR_XFLAGS, &a), 0, "... read back");
	tap_ok((a.xflags & FS_XFLAG_EXTSZINHERIT) && a.extsize == 1048576, "... set with its size (%u)",
	       (unsigned)a.extsize);
	c = (struct fattrs_kchange){ .xclear = FS_XFLAG_EXTSIZE | FS_XFLAG_COWEXTSIZE };
	is_int(fattrs_kattr_change(topfd, f, 0, 0, &c, &d), 1, "xfs %s: clearing both", mode_name());
	is_int(fattrs_kattr_get(topfd, f, 0, 0, FATTRS_KATTR_XFLAGS, &a), 0, "... read back");
	tap_ok(!(a.xflags & (FS_XFLAG_EXTSIZE | FS_XFLAG_COWEXTSIZE)) && a.extsize == 0 && a.cowextsize == 0,
	       "... clears their sizes");
out:
	(void)unlinkat(topfd, f, 0);
	(void)unlinkat(topfd, dir, AT_REMOVEDIR);
}

/* ramfs and ntfs-3g (FUSE): no flags at all, whatever the path. */
static void test_kattr__no_flags_here(void)
{
	struct fattrs_kchange d = { .xset = 0 };
	struct fattrs_kattr a;

	(void)make_file("f");
	(void)make_dir("d");
	is_int(fattrs_kattr_get(topfd, "f", 0, 0, XI, &a), -EOPNOTSUPP,
	       "%s %s: get of a file is -EOPNOTSUPP", test_fs, mode_name());
	is_int(fattrs_kattr_get(topfd, "d", 0, 0, FATTRS_KATTR_XFLAGS, &a), -EOPNOTSUPP,
	       "%s %s: get of a directory's xflags is -EOPNOTSUPP", test_fs, mode_name());
	is_int(change("f", "+nodump +nocow", &d), -EOPNOTSUPP,
	       "%s %s: +nodump +nocow is -EOPNOTSUPP", test_fs, mode_name());
	tap_ok(d.xset == FS_XFLAG_NODUMP && d.iset == FS_NOCOW_FL && d.xclear == 0 && d.iclear == 0,
	       "%s %s: ... both reported dropped", test_fs, mode_name());
	left_only("d", "f", NULL);
}

/*
 * Once immutable is set, ext4 and btrfs refuse any other change: with a
 * flag of the iflags word in the same change, immutable is set last and
 * cleared first.
 */
static void test_kattr_change__immutable_order(void)
{
	const char *other = fs_is("ext4") ? "secrm" : fs_is("btrfs") ? "nocow" : NULL;
	char spec[64];

	if (other == NULL)
		return;
	if (!is_root()) {
		skip_n(8, NOT_ROOT);
		return;
	}
	(void)make_file("f");
	(void)snprintf(spec, sizeof(spec), "+immutable +%s", other);
	is_int(change("f", spec, NULL), 1, "%s %s: %s sets", test_fs, mode_name(), spec);
	tap_ok(state("f", "immutable") == 1 && state("f", other) == 1, "%s %s: both are set",
	       test_fs, mode_name());
	/* Append set in the same change: immutable is still cleared first. */
	(void)snprintf(spec, sizeof(spec), "+append -immutable -%s", other);
	is_int(change("f", spec, NULL), 1, "%s %s: %s: immutable is cleared first", test_fs,
	       mode_name(), spec);
	tap_ok(state("f", "append") == 1 && state("f", "immutable") == 0 && state("f", other) == 0,
	       "%s %s: append is set, immutable and %s clear", test_fs, mode_name(), other);
	(void)snprintf(spec, sizeof(spec), "-append +immutable +%s", other);
	is_int(change("f", spec, NULL), 1, "%s %s: %s", test_fs, mode_name(), spec);
	tap_ok(state("f", "append") == 0 && state("f", "immutable") == 1 && state("f", other) == 1,
	       "%s %s: append is clear, immutable and %s set", test_fs, mode_name(), other);
	(void)snprintf(spec, sizeof(spec), "-immutable -%s", other);
	is_int(change("f", spec, NULL), 1, "%s %s: %s clears", test_fs, mode_name(), spec);
	tap_ok(state("f", "immutable") == 0 && state("f", other) == 0, "%s %s: both are clear",
	       test_fs, mode_name());
	left_only("f", NULL);
}

/* Immutable really is: a write open fails, and nothing stays behind. */
static void test_kattr_change__immutable_holds(void)
{
	int fd;

	if (!is_root()) {
		skip_n(3, NOT_ROOT);
		return;
	}
	(void)make_file("f");
	is_int(change("f", "+i", NULL), 1, "%s: +i", mode_name());
	fd = openat(topfd, "f", O_WRONLY | O_CLOEXEC);
	tap_ok(fd < 0 && errno == EPERM, "%s: an immutable file cannot be opened for writing",
	       mode_name());
	if (fd >= 0)
		(void)close(fd);
	is_int(change("f", "-i", NULL), 1, "%s: -i", mode_name());
	left_only("f", NULL);
}

/* ------------------------------------------------ the pinned descriptor */

/* The hook's work: put "g" where "f" is, between the read and the write. */
static void swap_g_over_f(void *arg)
{
	int *done = arg;

	*done = renameat(topfd, "g", topfd, "f") == 0 ? 1 : -errno;
}

/* The nodump and noatime bits of @name's xflags (xfs adds hasattr where it likes). */
static uint32_t xflags_of(const char *name)
{
	struct fattrs_kattr a = { .have = 0 };

	if (fattrs_kattr_get(topfd, name, 0, 0, XI, &a) < 0 || !(a.have & FATTRS_KATTR_XFLAGS))
		return 0xffffffffU;
	return a.xflags & (FS_XFLAG_NODUMP | FS_XFLAG_NOATIME);
}

/*
 * A change reads the flags, then writes them back with its bits: both on
 * one inode, pinned at the start.  Swapping another file in by the name
 * in between must not hand it the first file's flags (it would lose its
 * own nodump here), and the first file gets the change.  With /proc and
 * without (then a regular file is reopened by path and checked, or a
 * directory through ".").
 */
static void test_kattr_change__pinned(bool no_proc, bool use_procfd)
{
	struct fattrs_kchange c = { .xset = FS_XFLAG_NOATIME };
	struct fattrs_kchange d = { .xset = FS_XFLAG_NODUMP };
	const char *how = no_proc ? "without /proc" : use_procfd ? "through a /proc/self/fd descriptor" : "with /proc";
	int done = 0, r, fds = open_fds(), pfd = -1;

	fattrs_kattr_force_no_proc(no_proc);
	if (use_procfd) {
		pfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		is_int(fattrs_kattr_set_procfd(topfd), -EINVAL, "%s: a directory not of procfs is refused as /proc/self/fd",
		       mode_name());
		if (pfd < 0 || fattrs_kattr_set_procfd(pfd) != 0) {
			tap_ok(false, "%s: open /proc/self/fd and use it: %s", mode_name(), strerror(errno));
			skip_n(3, "no /proc/self/fd");
			goto out;
		}
		fds++;
	}
	if (!make_file("f") || !make_file("g") || linkat(topfd, "f", topfd, "orig", 0) < 0 ||
	    fattrs_kattr_change(topfd, "g", 0, 0, &d, NULL) != 1) {
		tap_ok(false, "%s: make f, g with nodump, and orig (a link to f): %s", mode_name(), strerror(errno));
		skip_n(3, "no files");
		goto out;
	}
	fattrs_kattr_test_hook(swap_g_over_f, &done);
	r = fattrs_kattr_change(topfd, "f", 0, 0, &c, NULL);
	fattrs_kattr_test_hook(NULL, NULL);
	tap_ok(r == 1 && done == 1, "%s %s: +noatime with g renamed over f between read and write (r=%d, swap %d)",
	       mode_name(), how, r, done);
	is_int(xflags_of("orig"), FS_XFLAG_NOATIME, "%s %s: the file read got the change", mode_name(), how);
	is_int(xflags_of("f"), FS_XFLAG_NODUMP, "%s %s: the file swapped in kept its own flags", mode_name(), how);
	is_int(open_fds(), fds, "%s %s: no descriptor is left open", mode_name(), how);
out:
	fattrs_kattr_force_no_proc(false);
	if (pfd >= 0) {
		(void)fattrs_kattr_set_procfd(-1);
		(void)close(pfd);
	}
	(void)unlinkat(topfd, "orig", 0);
	(void)unlinkat(topfd, "g", 0);
	left_only("f", NULL);
}

/*
 * FATTRS_KCHANGE_BY_NAME and fattrs_kattr_dir_byname(): yes only in a
 * directory nobody but the caller and root can write, on a local
 * filesystem (following symlinks: not on xfs, which keeps their flags);
 * a change by name reaches a regular file, goes the pinned way for a
 * symlink (followed) and never opens a fifo.
 */
static void test_kattr_change__by_name(void)
{
	/* @topdir is mkdtemp(3)'s: 0700, the caller's */
	int local = fs_is("tmpfs") || fs_is("ext4") || fs_is("ext2") || fs_is("btrfs");
	int follow = fattrs_kattr_dir_byname(topfd, 0), nofollow = fattrs_kattr_dir_byname(topfd, AT_SYMLINK_NOFOLLOW);
	struct fattrs_kchange c = { .xset = FS_XFLAG_NODUMP };
	int fd, fds = open_fds();

	if (fs_is("")) {
		tap_ok(follow >= 0 && nofollow >= follow, "dir_byname of the test directory: %d, %d with -h", follow, nofollow);
	} else {
		is_int(follow, local, "dir_byname of the caller's own 0700 directory on %s", test_fs);
		is_int(nofollow, local || fs_is("xfs"), "... not following symlinks (xfs keeps theirs)");
	}
	if (mkdirat(topfd, "dd", 0755) < 0 || (fd = openat(topfd, "dd", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		tap_ok(false, "mkdir dd: %s", strerror(errno));
		skip_n(9, "no directory");
		nothing_left();
		return;
	}
	is_int(fattrs_kattr_dir_byname(fd, AT_SYMLINK_NOFOLLOW), nofollow, "dir_byname of a 0755 subdirectory: as its parent");
	must(fchmodat(topfd, "dd", 0775, 0));
	is_int(fattrs_kattr_dir_byname(fd, AT_SYMLINK_NOFOLLOW), 0, "... 0775 (the group can write): 0");
	must(fchmodat(topfd, "dd", 01777, 0));
	is_int(fattrs_kattr_dir_byname(fd, AT_SYMLINK_NOFOLLOW), 0, "... 1777 (sticky, anyone can write): 0");
	must(fchmodat(topfd, "dd", 0755, 0));
	if (is_root() && !fs_is("ntfs-3g") && fchownat(topfd, "dd", 65534, 65534, 0) == 0) {
		is_int(fattrs_kattr_dir_byname(fd, AT_SYMLINK_NOFOLLOW), 0, "... 0755 of another user (nobody): 0");
		must(fchownat(topfd, "dd", 0, 0, 0));
	} else {
		tap_skip("another user's directory: %s", NOT_ROOT);
	}
	(void)close(fd);
	(void)unlinkat(topfd, "dd", AT_REMOVEDIR);
	(void)make_file("f");
	fd = openat(topfd, "f", O_PATH | O_CLOEXEC);
	is_int(fattrs_kattr_dir_byname(fd, 0), -ENOTDIR, "dir_byname of a regular file: -ENOTDIR");
	(void)close(fd);
	if (follow != 1) {
		skip_n(5, "no change by name here");
		left_only("f", NULL);
		return;
	}
	is_int(fattrs_kattr_change_flags(topfd, "f", 0, 0, &c, FATTRS_KCHANGE_BY_NAME, NULL), 1,
	       "%s: +nodump by name", mode_name());
	is_int(state("f", "nodump"), 1, "%s: ... is set", mode_name());
	must(symlinkat("f", topfd, "l"));
	(void)change("f", "-nodump", NULL);
	is_int(fattrs_kattr_change_flags(topfd, "l", 0, 0, &c, FATTRS_KCHANGE_BY_NAME, NULL), 1,
	       "%s: +nodump by name of a symlink, followed (the pinned way)", mode_name());
	is_int(state("f", "nodump"), 1, "%s: ... reached its target", mode_name());
	(void)mkfifoat(topfd, "p", 0644);
	is_int(fattrs_kattr_change_flags(topfd, "p", AT_SYMLINK_NOFOLLOW, 0, &c, FATTRS_KCHANGE_BY_NAME, NULL),
	       -EOPNOTSUPP, "%s: +nodump by name of a fifo: -EOPNOTSUPP (never opened: nothing blocks)", mode_name());
	is_int(open_fds(), fds, "%s: no descriptor is left open", mode_name());
	left_only("f", "l", "p", NULL);
}

/*
 * FATTRS_KCHANGE_SAME_MOUNT: a name on the directory's mount is changed as
 * without it, through a symlink that stays there too; one that leads to
 * another mount (/proc is always its own) is -EXDEV before anything is
 * opened there.  Without openat2(2) (valgrind 3.19 answers ENOSYS) every
 * such change is -EXDEV: the caller cannot know, and must look.
 */
static void test_kattr_change__same_mount(void)
{
	struct fattrs_kchange c = { .xset = FS_XFLAG_NODUMP };
	struct open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_XDEV };
	long probe = syscall(SYS_openat2, topfd, ".", &how, sizeof(how));
	bool have = probe >= 0 || errno != ENOSYS;
	int fds;

	if (probe >= 0)
		(void)close((int)probe);
	fds = open_fds();
	(void)make_file("f");
	must(symlinkat("f", topfd, "l"));
	must(symlinkat("/proc/self/status", topfd, "away"));
	is_int(fattrs_kattr_change_flags(topfd, "f", 0, 0, &c, FATTRS_KCHANGE_SAME_MOUNT, NULL), have ? 1 : -EXDEV,
	       "%s: +nodump only on the directory's mount: a file there%s", mode_name(),
	       have ? "" : " (no openat2: -EXDEV)");
	(void)change("f", "-nodump", NULL);
	is_int(fattrs_kattr_change_flags(topfd, "l", 0, 0, &c, FATTRS_KCHANGE_SAME_MOUNT, NULL), have ? 1 : -EXDEV,
	       "%s: ... a symlink to it, followed", mode_name());
	is_int(state("f", "nodump"), have, "%s: ... reached its target", mode_name());
	is_int(fattrs_kattr_change_flags(topfd, "away", 0, 0, &c, FATTRS_KCHANGE_SAME_MOUNT, NULL), -EXDEV,
	       "%s: ... a symlink to /proc: -EXDEV", mode_name());
	is_int(open_fds(), fds, "%s: no descriptor is left open", mode_name());
	left_only("f", "l", "away", NULL);
}

static void run_paths(void)
{
	if (fs_is("ramfs") || fs_is("ntfs-3g")) {
		tap_run(test_kattr__no_flags_here());
		tap_run(test_kattr_change__invalid());
		tap_run(test_kattr__missing());
		tap_run(test_kattr__fifo());
		tap_run(test_kattr_change__by_name());
		return;
	}
	if (!test_kattr_get__fresh())
		return;
	tap_run(test_kattr_change__nodump_noatime("f"));
	tap_run(test_kattr_change__nodump_noatime("d"));
	tap_run(test_kattr_change__invalid());
	tap_run(test_kattr_change__kernel_einval());
	tap_run(test_kattr__missing());
	tap_run(test_kattr__fifo());
	tap_run(test_kattr__symlink());
	tap_run(test_kattr__empty_path());
	tap_run(test_kattr__stale_mode());
	tap_run(test_kattr__cwd());
	tap_run(test_kattr_change__immutable_holds());
	tap_run(test_kattr_change__immutable_order());
	tap_run(test_kattr_change__per_filesystem());
	tap_run(test_kattr_change__refused_or_dropped());
	tap_run(test_kattr_change__sizes());
	tap_run(test_kattr_change__pinned(false, false));
	tap_run(test_kattr_change__pinned(true, false));
	tap_run(test_kattr_change__pinned(false, true));
	tap_run(test_kattr_change__by_name());
	tap_run(test_kattr_change__same_mount());
}

/* ------------------------------------------------------- driver mode */

/*
 * kflags [--ioctl] get [-h] PATH
 *	print "xflags=0x... iflags=0x... via=... letters=..." (the groups read)
 * kflags [--ioctl] change [-h] [+|-]WORD... PATH
 *	print "r=N dropped=XSET,XCLEAR,ISET,ICLEAR"
 * For the .bats file: one call of the library under strace, and a
 * comparison with lsattr/chattr.  Exit status 0, or 1 with the error.
 */
static int drive(int argc, char **argv)
{
	const char *cmd;
	unsigned at = 0;
	int i = 1;

	if (i < argc && strcmp(argv[i], "--ioctl") == 0) {
		fattrs_kattr_force_ioctl(true);
		i++;
	}
	if (i >= argc)
		goto usage;
	cmd = argv[i++];
	if (i < argc && strcmp(argv[i], "-h") == 0) {
		at |= AT_SYMLINK_NOFOLLOW;
		i++;
	}
	if (strcmp(cmd, "get") == 0 && i == argc - 1) {
		struct fattrs_kattr a;
		const struct fattrs_kflag *tab;
		size_t n;
		int r = fattrs_kattr_get(AT_FDCWD, argv[i], at, 0,
					 FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &a);

		if (r < 0) {
			fprintf(stderr, "kflags: cannot get flags of '%s': %s\n", argv[i], strerror(-r));
			return 1;
		}
		if (a.have & FATTRS_KATTR_XFLAGS)
			printf("xflags=0x%08x ", (unsigned)a.xflags);
		if (a.have & FATTRS_KATTR_IFLAGS)
			printf("iflags=0x%08x ", (unsigned)a.iflags);
		printf("via=%s letters=", a.via == FATTRS_KVIA_FILE_GETATTR ? "file_getattr" :
		       a.via == FATTRS_KVIA_IOCTL ? "ioctl" : "none");
		tab = fattrs_kflags_table(&n);
		for (size_t k = 0; k < n; k++) {
			if (tab[k].letter != '\0' && fattrs_kattr_test(&a, &tab[k]) == 1)
				putchar(tab[k].letter);
		}
		putchar('\n');
		return 0;
	}
	if (strcmp(cmd, "change") == 0 && i < argc - 1) {
		struct fattrs_kchange c = { .xset = 0 }, d = { .xset = 0 };
		int r;

		for (; i < argc - 1; i++) {
			if (!spec_change(argv[i], &c)) {
				fprintf(stderr, "kflags: unknown or read-only flag '%s'\n", argv[i]);
				return 1;
			}
		}
		r = fattrs_kattr_change(AT_FDCWD, argv[i], at, 0, &c, &d);
		printf("r=%d dropped=0x%x,0x%x,0x%x,0x%x\n", r, (unsigned)d.xset,
		       (unsigned)d.xclear, (unsigned)d.iset, (unsigned)d.iclear);
		if (r < 0) {
			fprintf(stderr, "kflags: cannot change flags of '%s': %s\n", argv[i], strerror(-r));
			return 1;
		}
		return 0;
	}
usage:
	fprintf(stderr, "usage: kflags [--ioctl] get [-h] PATH\n"
			"       kflags [--ioctl] change [-h] [+|-]WORD... PATH\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct fattrs_file_attr fa;
	const char *fs = getenv("FATTRS_TEST_FS");
	int r;

	if (argc > 1)
		return drive(argc, argv);
	if (fs != NULL)
		test_fs = fs;
	/* A blocking open of the fifo would hang: make that a failure. */
	(void)alarm(120);
	r = top_make("kflags");
	if (r < 0) {
		printf("Bail out! cannot make a temporary directory: %s\n", strerror(-r));
		return 1;
	}
	have_syscall = syscall(__NR_file_getattr, topfd, "", &fa, sizeof(fa), AT_EMPTY_PATH) == 0 ||
		       errno != ENOSYS;
	printf("# filesystem: %s; file_getattr(2): %s\n", test_fs[0] != '\0' ? test_fs : "not said",
	       have_syscall ? "yes" : "no (ENOSYS)");

	tap_run(test_kflags__table_matches_the_kernel());
	tap_run(test_kflags__names_and_letters_unique());
	tap_run(test_kflag_find__by_word_and_letter());
	tap_run(test_kchange_add__routes_and_refuses_readonly());
	tap_run(test_kattr_test__which_word());

	forced_ioctl = false;
	fattrs_kattr_force_ioctl(false);
	run_paths();
	forced_ioctl = true;
	fattrs_kattr_force_ioctl(true);
	run_paths();

	/* The plan at the end: how many results depends on the filesystem. */
	tap_plan(tap_n);
	return top_done();
}
