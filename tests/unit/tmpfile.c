/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/tmp/: temporary files, directories and names. */
#include "config.h"

#include "fattrs.h"
#include "tmp/tmp.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* The words this program's results have always had. */
#define NOTHING_LEFT_SAYS "nothing is left behind in the directory"

#include "tap.h"
#include "fixture.h"

/*
 * Fault injection: while fail_links is set, linkat(2) of an unnamed file
 * (by AT_EMPTY_PATH or through /proc/self/fd) fails as on a kernel before
 * 6.10 without /proc, and /proc/self/fd/N does not exist.  These
 * definitions take the place of libc's for the library linked in here.
 */
static bool fail_links;

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
	if (fail_links && (flags & (AT_EMPTY_PATH | AT_SYMLINK_FOLLOW)) != 0) {
		errno = ENOENT;
		return -1;
	}
	return (int)syscall(SYS_linkat, olddirfd, oldpath, newdirfd, newpath, flags);
}

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	if (fail_links && strncmp(path, "/proc/", 6) == 0) {
		errno = ENOENT;
		return -1;
	}
	return (int)syscall(SYS_faccessat2, dirfd, path, mode, flags);
}

static bool have_tmpfile;	/* O_TMPFILE works in topdir */

/* ------------------------------------------------------------- helpers */

/* A template: @prefix then @nx X's, relative to topfd, or absolute if @abs. */
struct tt {
	char path[PATH_MAX];
	struct fattrs_tmpl tmpl;
};

static const struct fattrs_tmpl *tt_make(struct tt *t, bool abs, const char *prefix, size_t nx)
{
	int w = snprintf(t->path, sizeof(t->path) - nx, "%s%s%s", abs ? topdir : "",
			 abs ? "/" : "", prefix);
	size_t n;

	/* Cannot happen: mkdtemp() made topdir, far shorter than PATH_MAX. */
	if (w < 0 || (size_t)w >= sizeof(t->path) - nx)
		t->path[0] = '\0';
	n = strlen(t->path);
	memset(t->path + n, 'X', nx);
	t->path[n + nx] = '\0';
	t->tmpl = (struct fattrs_tmpl) { .path = t->path, .x_off = n, .x_len = nx };
	return &t->tmpl;
}

/* Whether @got is @t's path with its X's replaced by letters and digits. */
static bool tt_filled(const struct tt *t, const char *got)
{
	size_t off = t->tmpl.x_off, len = t->tmpl.x_len;

	if (got == NULL || strlen(got) != strlen(t->path) || strncmp(got, t->path, off) != 0)
		return false;
	if (strspn(got + off, ALNUM) != len)
		return false;
	/* Ten X's left as they were would not be chance. */
	return len < 10 || strncmp(got + off, t->path + off, len) != 0;
}

/* Create an empty file @path relative to topfd. */
static bool touch(const char *path)
{
	int fd = openat(topfd, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return false;
	(void)close(fd);
	return true;
}

/* Create "<prefix>c" for every letter and digit c but @except (0: all). */
static bool take_names(const char *prefix, char except)
{
	char name[NAME_MAX + 1];

	for (const char *c = ALNUM; *c != '\0'; c++) {
		if (*c == except)
			continue;
		int n = snprintf(name, sizeof(name), "%s%c", prefix, *c);

		if (n < 0 || (size_t)n >= sizeof(name) || !touch(name))
			return false;
	}
	return true;
}

/* --------------------------------------------------------- unnamed files */

static void test_tmpfile__auto_uses_tmpfile_where_supported(void)
{
	struct fattrs_tmpfile *tf = NULL;
	struct tt t;
	int err = -1, r;

	if (skip_unless(have_tmpfile, 4, NO_TMPFILE))
		return;
	r = fattrs_tmpfile_new(AT_FDCWD, tt_make(&t, true, "tmp.", 10), 0600, FATTRS_TMP_AUTO, 0,
			       &tf);
	is_int(r, 0, "auto makes a temporary file");
	if (skip_unless(r >= 0, 3, "no file"))
		return;
	is_int(fattrs_tmpfile_method(tf), FATTRS_TMP_TMPFILE, "auto uses O_TMPFILE");
	is_int(fattrs_tmpfile_why(tf, &err), FATTRS_TMP_WHY_SUPPORTED, "because it is supported");
	is_int(err, 0, "with no errno to report");
	tf = fattrs_tmpfile_free(tf);
	nothing_left();
}

static void test_tmpfile__unnamed_until_linked(void)
{
	struct fattrs_tmpfile *tf = NULL;
	struct stat st;
	struct tt t;
	int r;

	if (skip_unless(have_tmpfile, 6, NO_TMPFILE))
		return;
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "tmp.", 10), 0600, FATTRS_TMP_AUTO, 0,
			       &tf);
	is_int(r, 0, "auto makes a temporary file relative to a directory descriptor");
	if (skip_unless(r >= 0, 5, "no file"))
		return;
	tap_ok(fattrs_tmpfile_fd(tf) >= 0, "it has a descriptor");
	is_str(fattrs_tmpfile_path(tf), NULL, "it has no path");
	is_int(fattrs_tmpfile_via(tf), FATTRS_LINK_UNKNOWN, "it was not linked");
	is_int(count_entries(), 0, "the directory stays empty");
	is_int(fstat(fattrs_tmpfile_fd(tf), &st) == 0 ? (long long)st.st_nlink : -1, 0,
	       "the file has no links");
	tf = fattrs_tmpfile_free(tf);
	nothing_left();
}


/* A copy of the file's path (it goes with the object), "" while it has none. */
static const char *path_copy(const struct fattrs_tmpfile *tf, char *buf, size_t size)
{
	const char *p = tf != NULL ? fattrs_tmpfile_path(tf) : NULL;

	(void)snprintf(buf, size, "%s", p != NULL ? p : "");
	return buf;
}

static void test_tmpfile__link_names_it_under_template(void)
{
	struct fattrs_tmpfile *tf = NULL;
	struct stat fst, nst;
	char name[PATH_MAX];
	struct tt t;
	int r;

	if (skip_unless(have_tmpfile, 8, NO_TMPFILE))
		return;
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "tmp.", 10), 0600, FATTRS_TMP_AUTO, 0,
			       &tf);
	if (r < 0 || !write_str(fattrs_tmpfile_fd(tf), "hello\n")) {
		tap_ok(false, "making and writing a temporary file succeeds (%d)", r);
		skip_n(7, "no file");
		tf = fattrs_tmpfile_free(tf);
		nothing_left();
		return;
	}
	r = fattrs_tmpfile_link(tf, &t.tmpl);
	is_int(r, 0, "fattrs_tmpfile_link() gives it a name");
	path_copy(tf, name, sizeof(name));
	tap_ok(tt_filled(&t, name), "the name is the template with its X's filled ('%s')", name);
	tap_ok(fattrs_tmpfile_via(tf) == FATTRS_LINK_EMPTY_PATH ||
	       fattrs_tmpfile_via(tf) == FATTRS_LINK_PROC,
	       "it was linked by AT_EMPTY_PATH or /proc (got %d)", (int)fattrs_tmpfile_via(tf));
	is_int(fattrs_tmpfile_method(tf), FATTRS_TMP_TMPFILE, "the method is still O_TMPFILE");
	tap_ok(fstat(fattrs_tmpfile_fd(tf), &fst) == 0 && fstatat(topfd, name, &nst, 0) == 0 &&
	       fst.st_ino == nst.st_ino && fst.st_dev == nst.st_dev,
	       "the name is the descriptor's file");
	is_int(fstat(fattrs_tmpfile_fd(tf), &fst) == 0 ? (long long)fst.st_nlink : -1, 1,
	       "it has one link");
	tf = fattrs_tmpfile_free(tf);
	is_str(read_name(name), "hello\n",
	       "the name and the data stay after fattrs_tmpfile_free()");
	(void)unlinkat(topfd, name, 0);
	nothing_left();
}

static void test_tmpfile__link_keeps_absolute_template(void)
{
	struct fattrs_tmpfile *tf = NULL;
	char name[PATH_MAX];
	struct tt t;
	int r;

	if (skip_unless(have_tmpfile, 2, NO_TMPFILE))
		return;
	r = fattrs_tmpfile_new(AT_FDCWD, tt_make(&t, true, "abs.", 6), 0600, FATTRS_TMP_AUTO, 0,
			       &tf);
	if (r == 0)
		r = fattrs_tmpfile_link(tf, &t.tmpl);
	is_int(r, 0, "an absolute template with AT_FDCWD is made and linked");
	path_copy(tf, name, sizeof(name));
	tap_ok(tt_filled(&t, name) && exists(name), "it exists as '%s'", name);
	tf = fattrs_tmpfile_free(tf);
	(void)unlink(name);
	nothing_left();
}

/* mode 0600 and 0666 under umask @mask, for O_TMPFILE then named files. */
static void check_modes(mode_t mask)
{
	static const mode_t modes[] = { 0600, 0666 };
	static const enum fattrs_tmp_method methods[] = { FATTRS_TMP_TMPFILE, FATTRS_TMP_NAMED };
	mode_t old = umask(mask);

	for (size_t m = 0; m < 2; m++) {
		for (size_t i = 0; i < 2; i++) {
			struct fattrs_tmpfile *tf = NULL;
			char name[PATH_MAX];
			struct tt t;
			int r;

			if (methods[m] == FATTRS_TMP_TMPFILE && !have_tmpfile) {
				tap_skip(NO_TMPFILE);
				continue;
			}
			r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "mode.", 6), modes[i],
					       methods[m], 0, &tf);
			if (r == 0)
				r = fattrs_tmpfile_link(tf, &t.tmpl);
			path_copy(r == 0 ? tf : NULL, name, sizeof(name));
			is_int(r == 0 ? mode_of(name) : r, (int)(modes[i] & ~mask),
			       "%s with mode %04o under umask %03o gives %04o",
			       methods[m] == FATTRS_TMP_TMPFILE ? "O_TMPFILE" : "named",
			       (unsigned int)modes[i], (unsigned int)mask,
			       (unsigned int)(modes[i] & ~mask));
			tf = fattrs_tmpfile_free(tf);
			(void)unlinkat(topfd, name, 0);
		}
	}
	(void)umask(old);
}

static void test_tmpfile__mode_is_masked_by_umask_022(void)
{
	check_modes(022);
	nothing_left();
}

static void test_tmpfile__mode_is_masked_by_umask_077(void)
{
	check_modes(077);
	nothing_left();
}

static void test_tmpfile__link_retries_taken_names(void)
{
	struct fattrs_tmpfile *tf = NULL;
	struct tt t;
	int r;

	if (skip_unless(have_tmpfile, 2, NO_TMPFILE))
		return;
	if (fail_unless(take_names("r.", 'q'), 1, "names not made", "creating 61 names succeeds"))
		return;
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "r.", 1), 0600, FATTRS_TMP_TMPFILE, 0,
			       &tf);
	if (r == 0)
		r = fattrs_tmpfile_link(tf, &t.tmpl);
	is_int(r, 0, "linking with one X succeeds while one name of 62 is free");
	is_str(r == 0 ? fattrs_tmpfile_path(tf) : NULL, "r.q", "it takes the free name");
	tf = fattrs_tmpfile_free(tf);
	empty_dir(topfd);
	nothing_left();
}

static void test_tmpfile__link_gives_eexist_when_all_names_taken(void)
{
	struct fattrs_tmpfile *tf = NULL;
	struct tt t;
	int r;

	if (skip_unless(have_tmpfile, 3, NO_TMPFILE))
		return;
	if (fail_unless(take_names("a.", 0), 2, "names not made", "creating 62 names succeeds"))
		return;
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "a.", 1), 0600, FATTRS_TMP_TMPFILE, 0,
			       &tf);
	if (fail_unless(r >= 0, 2, "no file", "making a temporary file succeeds (%d)", r))
		return;
	is_int(fattrs_tmpfile_link(tf, &t.tmpl), -EEXIST,
	       "linking gives -EEXIST once all 62 names are taken");
	is_str(fattrs_tmpfile_path(tf), NULL, "the file is still unnamed");
	tf = fattrs_tmpfile_free(tf);
	is_int(count_entries(), 62, "no name was added");
	empty_dir(topfd);
}

static void test_tmpfile__link_exact_name_taken_is_eexist(void)
{
	struct fattrs_tmpfile *tf = NULL;
	struct tt t, other;
	int r;

	if (skip_unless(have_tmpfile, 4, NO_TMPFILE))
		return;
	if (fail_unless(touch("taken"), 3, "no file", "creating a file succeeds"))
		return;
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "taken", 0), 0600, FATTRS_TMP_TMPFILE, 0,
			       &tf);
	if (fail_unless(r >= 0, 3, "no file", "making a temporary file succeeds (%d)", r))
		return;
	is_int(fattrs_tmpfile_link(tf, &t.tmpl), -EEXIST,
	       "linking to an existing name with no X's gives -EEXIST");
	is_str(fattrs_tmpfile_path(tf), NULL, "the file is still unnamed");
	is_int(fattrs_tmpfile_link(tf, tt_make(&other, false, "free", 0)), 0,
	       "linking to a free name then works");
	is_str(fattrs_tmpfile_path(tf), "free", "under that name");
	tf = fattrs_tmpfile_free(tf);
	empty_dir(topfd);
	nothing_left();
}

static void test_tmpfile__tmpfile_method_is_requested(void)
{
	struct fattrs_tmpfile *tf = NULL;
	struct tt t;
	int err = -1, r;

	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "tmp.", 10), 0600, FATTRS_TMP_TMPFILE, 0,
			       &tf);
	if (!have_tmpfile) {
		is_int(r, -EOPNOTSUPP, "FATTRS_TMP_TMPFILE without O_TMPFILE gives -EOPNOTSUPP");
		skip_n(2, NO_TMPFILE);
	} else {
		is_int(r, 0, "FATTRS_TMP_TMPFILE makes an unnamed file");
		is_int(r == 0 ? (long long)fattrs_tmpfile_why(tf, &err) : r,
		       FATTRS_TMP_WHY_REQUESTED, "because it was requested");
		is_int(err, 0, "with no errno to report");
	}
	tf = fattrs_tmpfile_free(tf);
	nothing_left();
}

/* ----------------------------------------------------------- named files */

static void test_tmpfile__named_is_created_at_once(void)
{
	struct fattrs_tmpfile *tf = NULL;
	struct stat fst, nst;
	char name[PATH_MAX];
	struct tt t;
	int err = -1, r;

	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "named.", 10), 0600, FATTRS_TMP_NAMED, 0,
			       &tf);
	is_int(r, 0, "FATTRS_TMP_NAMED makes a file");
	if (skip_unless(r >= 0, 6, "no file"))
		return;
	path_copy(tf, name, sizeof(name));
	tap_ok(tt_filled(&t, name), "its name is the template with its X's filled ('%s')", name);
	tap_ok(fstat(fattrs_tmpfile_fd(tf), &fst) == 0 && fstatat(topfd, name, &nst, 0) == 0 &&
	       fst.st_ino == nst.st_ino && fst.st_dev == nst.st_dev,
	       "the name exists at once and is the descriptor's file");
	is_int(fattrs_tmpfile_method(tf), FATTRS_TMP_NAMED, "the method is named");
	is_int(fattrs_tmpfile_why(tf, &err), FATTRS_TMP_WHY_REQUESTED, "because it was requested");
	is_int(fattrs_tmpfile_link(tf, &t.tmpl), 0,
	       "fattrs_tmpfile_link() of a named file succeeds");
	is_str(fattrs_tmpfile_path(tf), name, "and keeps the name it has");
	tf = fattrs_tmpfile_free(tf);
	(void)unlinkat(topfd, name, 0);
	nothing_left();
}

static void test_tmpfile__named_retries_taken_names(void)
{
	struct fattrs_tmpfile *tf = NULL;
	struct tt t;
	int r;

	if (fail_unless(take_names("n.", '7'), 1, "names not made", "creating 61 names succeeds"))
		return;
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "n.", 1), 0600, FATTRS_TMP_NAMED, 0, &tf);
	is_int(r, 0, "a named file with one X is made while one name of 62 is free");
	is_str(r == 0 ? fattrs_tmpfile_path(tf) : NULL, "n.7", "it takes the free name");
	tf = fattrs_tmpfile_free(tf);
	empty_dir(topfd);
	nothing_left();
}

static void test_tmpfile__named_never_opens_an_existing_file(void)
{
	struct fattrs_tmpfile *tf = NULL;
	struct tt t;
	int fd, r;

	fd = openat(topfd, "old", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || !write_str(fd, "old\n")) {
		tap_ok(false, "creating a file succeeds");
		skip_n(1, "no file");
	} else {
		r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "old", 0), 0600, FATTRS_TMP_NAMED,
				       0, &tf);
		is_int(r, -EEXIST, "an existing name with no X's gives -EEXIST (O_EXCL)");
		is_str(read_name("old"), "old\n", "the existing file is untouched");
	}
	if (fd >= 0)
		(void)close(fd);
	tf = fattrs_tmpfile_free(tf);
	empty_dir(topfd);
	nothing_left();
}

static void test_tmpfile__named_never_follows_a_symlink(void)
{
	struct fattrs_tmpfile *tf = NULL;
	struct tt t;
	int r;

	if (fail_unless(symlinkat("target", topfd, "link") >= 0, 1, "no link",
			"creating a symbolic link succeeds"))
		return;
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "link", 0), 0600, FATTRS_TMP_NAMED, 0,
			       &tf);
	is_int(r, -EEXIST, "a dangling symbolic link as the name gives -EEXIST");
	tap_ok(!exists("target"), "its target is not created");
	tf = fattrs_tmpfile_free(tf);
	empty_dir(topfd);
	nothing_left();
}

static void test_tmpfile__named_not_scratch_stays_after_free(void)
{
	struct fattrs_tmpfile *tf = NULL;
	char name[PATH_MAX];
	struct tt t;
	int r;

	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "keep.", 8), 0600, FATTRS_TMP_NAMED, 0,
			       &tf);
	path_copy(r == 0 ? tf : NULL, name, sizeof(name));
	tf = fattrs_tmpfile_free(tf);
	tap_ok(r == 0 && exists(name),
	       "a named file made without FATTRS_TMP_UNPUBLISHED stays after free");
	fattrs_tmpfile_cleanup_signal();
	tap_ok(r == 0 && exists(name), "and fattrs_tmpfile_cleanup_signal() leaves it alone");
	empty_dir(topfd);
	nothing_left();
}

/* ---------------------------------------------------------- scratch names */

static void test_tmpfile__scratch_unpublished_is_removed_by_free(void)
{
	struct fattrs_tmpfile *tf = NULL;
	char name[PATH_MAX];
	struct tt t;
	int r;

	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, ".scratch.", 10), 0600, FATTRS_TMP_NAMED,
			       FATTRS_TMP_UNPUBLISHED, &tf);
	path_copy(r == 0 ? tf : NULL, name, sizeof(name));
	tap_ok(r == 0 && exists(name), "a scratch named file exists while open");
	tf = fattrs_tmpfile_free(tf);
	tap_ok(r == 0 && !exists(name),
	       "fattrs_tmpfile_free() removes it when it was not published");
	nothing_left();
}

static void test_tmpfile__scratch_published_is_kept(void)
{
	struct fattrs_tmpfile *tf = NULL;
	char name[PATH_MAX];
	struct tt t;
	int r;

	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, ".scratch.", 10), 0600, FATTRS_TMP_NAMED,
			       FATTRS_TMP_UNPUBLISHED, &tf);
	if (r == 0)
		r = fattrs_tmpfile_link(tf, &t.tmpl);
	is_int(r, 0, "a scratch named file is made and published with fattrs_tmpfile_link()");
	path_copy(r == 0 ? tf : NULL, name, sizeof(name));
	fattrs_tmpfile_cleanup_signal();
	tap_ok(r == 0 && exists(name), "fattrs_tmpfile_cleanup_signal() keeps it");
	tf = fattrs_tmpfile_free(tf);
	tap_ok(r == 0 && exists(name), "fattrs_tmpfile_free() keeps it");
	empty_dir(topfd);
	nothing_left();
}

static void test_tmpfile__scratch_unnamed_link_is_kept(void)
{
	struct fattrs_tmpfile *tf = NULL;
	char name[PATH_MAX];
	struct tt t;
	int r;

	if (skip_unless(have_tmpfile, 1, NO_TMPFILE))
		return;
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "s.", 10), 0600, FATTRS_TMP_AUTO,
			       FATTRS_TMP_UNPUBLISHED, &tf);
	if (r == 0)
		r = fattrs_tmpfile_link(tf, &t.tmpl);
	path_copy(r == 0 ? tf : NULL, name, sizeof(name));
	fattrs_tmpfile_cleanup_signal();
	tf = fattrs_tmpfile_free(tf);
	tap_ok(r == 0 && exists(name),
	       "a linked O_TMPFILE scratch file survives clean-up and free");
	empty_dir(topfd);
	nothing_left();
}

static void on_signal(int sig)
{
	(void)sig;
	fattrs_tmpfile_cleanup_signal();
}

static void test_tmpfile__cleanup_signal_removes_scratch_names(void)
{
	struct fattrs_tmpfile *a = NULL, *b = NULL;
	struct sigaction sa = { .sa_handler = on_signal }, old;
	char na[PATH_MAX], nb[PATH_MAX];
	struct tt t;
	int ra, rb;

	ra = fattrs_tmpfile_new(topfd, tt_make(&t, false, ".sig.", 10), 0600, FATTRS_TMP_NAMED,
				FATTRS_TMP_UNPUBLISHED, &a);
	rb = fattrs_tmpfile_new(AT_FDCWD, tt_make(&t, true, ".sig.", 10), 0600, FATTRS_TMP_NAMED,
				FATTRS_TMP_UNPUBLISHED, &b);
	path_copy(ra == 0 ? a : NULL, na, sizeof(na));
	path_copy(rb == 0 ? b : NULL, nb, sizeof(nb));
	tap_ok(ra == 0 && rb == 0 && count_entries() == 2, "two scratch names exist");
	(void)sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGUSR1, &sa, &old);
	(void)raise(SIGUSR1);
	(void)sigaction(SIGUSR1, &old, NULL);
	is_int(count_entries(), 0,
	       "a handler calling fattrs_tmpfile_cleanup_signal() removes both");
	tap_ok(ra == 0 && fattrs_tmpfile_fd(a) >= 0, "the descriptors stay usable");
	a = fattrs_tmpfile_free(a);
	b = fattrs_tmpfile_free(b);
	nothing_left();
}

/*
 * A child after fork(2) has copies of its parent's objects and of the
 * registry; a signal that makes the child clean up takes only the names
 * the child made.  (tmpcreate's child runs the handler until it execs.)
 */
static void test_tmpfile__child_signal_leaves_parent_names(void)
{
	struct fattrs_tmpfile *held = NULL, *scratch = NULL, *mine = NULL;
	char nh[PATH_MAX], ns[PATH_MAX], child[PATH_MAX] = "";
	struct sigaction sa = { .sa_handler = on_signal };
	struct tt t;
	int rh, rs, p[2], st = -1;
	pid_t pid = -1;
	ssize_t n = -1;

	/* One name registered with its descriptor, one registered as trusted. */
	rs = fattrs_tmpfile_new(topfd, tt_make(&t, false, ".fs.", 10), 0600, FATTRS_TMP_NAMED,
				FATTRS_TMP_UNPUBLISHED, &scratch);
	rh = fattrs_tmpfile_new(topfd, tt_make(&t, false, ".fh.", 10), 0600, FATTRS_TMP_AUTO,
				FATTRS_TMP_HOLD, &held);
	if (rh == 0)
		rh = fattrs_tmpfile_link(held, &t.tmpl);
	path_copy(rs == 0 ? scratch : NULL, ns, sizeof(ns));
	path_copy(rh == 0 ? held : NULL, nh, sizeof(nh));
	if (rs == 0 && rh == 0 && pipe(p) == 0) {
		pid = fork();
		if (pid == 0) {
			(void)close(p[0]);
			(void)sigemptyset(&sa.sa_mask);
			(void)sigaction(SIGUSR1, &sa, NULL);
			if (fattrs_tmpfile_new(topfd, tt_make(&t, false, ".fc.", 10), 0600,
					       FATTRS_TMP_NAMED, FATTRS_TMP_UNPUBLISHED, &mine) < 0 ||
			    write(p[1], fattrs_tmpfile_path(mine),
				  strlen(fattrs_tmpfile_path(mine))) < 0)
				_exit(1);
			(void)raise(SIGUSR1);
			_exit(0);
		}
		(void)close(p[1]);
		if (pid > 0)
			n = read(p[0], child, sizeof(child) - 1);
		child[n > 0 ? n : 0] = '\0';
		(void)close(p[0]);
		if (pid > 0)
			(void)waitpid(pid, &st, 0);
	}
	tap_ok(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && n > 0,
	       "a forked child makes a scratch name and raises a clean-up signal");
	tap_ok(child[0] != '\0' && !exists(child), "the child's handler removes the child's name");
	tap_ok(exists(ns) && exists(nh), "and leaves the parent's scratch and held names alone");
	fattrs_tmpfile_cleanup_signal();
	tap_ok(!exists(ns) && !exists(nh), "the parent's own clean-up still removes them");
	scratch = fattrs_tmpfile_free(scratch);
	held = fattrs_tmpfile_free(held);
	nothing_left();
}

static void test_tmpfile__scratch_beyond_eight_is_removed_too(void)
{
	struct fattrs_tmpfile *tf[12] = { NULL };
	int made = 0;

	for (int i = 0; i < 12; i++) {
		struct tt t;

		if (fattrs_tmpfile_new(topfd, tt_make(&t, false, ".many.", 10), 0600,
				       FATTRS_TMP_NAMED, FATTRS_TMP_UNPUBLISHED, &tf[i]) == 0)
			made++;
	}
	is_int(made, 12, "12 scratch named files are made at once");
	for (int i = 0; i < 12; i++)
		tf[i] = fattrs_tmpfile_free(tf[i]);
	tap_ok(count_entries() == 0,
	       "fattrs_tmpfile_free() removes all 12 unpublished scratch names");
	empty_dir(topfd);
}

static void test_tmpfile__free_null_is_null(void)
{
	tap_ok(fattrs_tmpfile_free(NULL) == NULL, "fattrs_tmpfile_free(NULL) returns NULL");
}

/* ------------------------------------------------- directories and names */

static void test_tmpfile__tmpdir_is_0700(void)
{
	mode_t old = umask(022);
	struct tt t;
	char *path = NULL;
	struct stat st;
	int r;

	r = fattrs_tmpdir_new(AT_FDCWD, tt_make(&t, true, "d.", 10), 0700, &path);
	(void)umask(old);
	is_int(r, 0, "fattrs_tmpdir_new() succeeds");
	tap_ok(r == 0 && tt_filled(&t, path), "its path is the template with its X's filled ('%s')",
	       r == 0 ? path : "");
	tap_ok(r == 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
	       (st.st_mode & 07777) == 0700,
	       "it is a directory with mode 0700");
	if (r == 0)
		(void)rmdir(path);
	free(r == 0 ? path : NULL);
	nothing_left();
}

static void test_tmpfile__tmpdir_retries_and_gives_eexist(void)
{
	char *path = NULL;
	struct tt t;

	if (fail_unless(take_names("D.", 'z'), 2, "names not made", "creating 61 names succeeds"))
		return;
	is_int(fattrs_tmpdir_new(topfd, tt_make(&t, false, "D.", 1), 0700, &path), 0,
	       "fattrs_tmpdir_new() finds the one free name of 62");
	is_str(path, "D.z", "it is that name");
	free(path);
	path = NULL;
	is_int(fattrs_tmpdir_new(topfd, tt_make(&t, false, "D.z", 0), 0700, &path), -EEXIST,
	       "an existing name with no X's gives -EEXIST");
	empty_dir(topfd);
	nothing_left();
}

static void test_tmpfile__tmpname_pick_creates_nothing(void)
{
	char *path = NULL;
	struct tt t;
	int r;

	r = fattrs_tmpname_pick(topfd, tt_make(&t, false, "u.", 10), &path);
	is_int(r, 0, "fattrs_tmpname_pick() succeeds");
	tap_ok(r == 0 && tt_filled(&t, path), "the name is the template with its X's filled");
	tap_ok(r == 0 && !exists(path), "it does not exist");
	free(r == 0 ? path : NULL);
	path = NULL;
	if (!take_names("U.", 'k')) {
		tap_ok(false, "creating 61 names succeeds");
	} else {
		r = fattrs_tmpname_pick(topfd, tt_make(&t, false, "U.", 1), &path);
		is_str(r == 0 ? path : NULL, "U.k", "it skips names that exist");
		free(r == 0 ? path : NULL);
	}
	is_int(count_entries(), 61, "nothing was created");
	empty_dir(topfd);
}

/* ---------------------------------------------------------------- errors */

/*
 * Linking fails (ENOENT both ways) when the file's directory was removed
 * meanwhile: that is no news about linking, and later files must still
 * be made unnamed.
 */
static void test_tmpfile__removed_dir_does_not_stop_linking(void)
{
	struct fattrs_tmpfile *tf = NULL, *next = NULL;
	struct tt t;
	int r, rn = -1;

	if (!have_tmpfile) {
		skip_n(3, NO_TMPFILE);
		return;
	}
	(void)mkdirat(topfd, "gone", 0700);
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "gone/f.", 6), 0600, FATTRS_TMP_AUTO, 0, &tf);
	(void)unlinkat(topfd, "gone", AT_REMOVEDIR);
	if (r == 0)
		r = fattrs_tmpfile_link(tf, &t.tmpl);
	is_int(r, -ENOENT, "linking into a directory removed meanwhile gives -ENOENT");
	tf = fattrs_tmpfile_free(tf);
	rn = fattrs_tmpfile_new(topfd, tt_make(&t, false, "next.", 6), 0600, FATTRS_TMP_AUTO, 0, &next);
	tap_ok(rn == 0 && fattrs_tmpfile_method(next) == FATTRS_TMP_TMPFILE,
	       "the next file in a directory that exists is still unnamed (method %d)",
	       rn == 0 ? (int)fattrs_tmpfile_method(next) : -1);
	next = fattrs_tmpfile_free(next);
	nothing_left();
}

static void test_tmpfile__missing_dir_is_enoent(void)
{
	static const enum fattrs_tmp_method methods[] = {
		FATTRS_TMP_AUTO, FATTRS_TMP_TMPFILE, FATTRS_TMP_NAMED,
	};
	struct fattrs_tmpfile *tf = NULL;
	char *path = NULL;
	struct tt t;

	for (size_t i = 0; i < 3; i++) {
		is_int(fattrs_tmpfile_new(topfd, tt_make(&t, false, "missing/tmp.", 10), 0600,
					  methods[i], 0, &tf),
		       -ENOENT,
		       "fattrs_tmpfile_new() (method %d) in a missing directory gives -ENOENT",
		       (int)methods[i]);
		tf = fattrs_tmpfile_free(tf);
	}
	is_int(fattrs_tmpdir_new(topfd, &t.tmpl, 0700, &path), -ENOENT,
	       "fattrs_tmpdir_new() in a missing directory gives -ENOENT");
	nothing_left();
}

static void test_tmpfile__file_as_dir_is_enotdir(void)
{
	static const enum fattrs_tmp_method methods[] = {
		FATTRS_TMP_AUTO, FATTRS_TMP_TMPFILE, FATTRS_TMP_NAMED,
	};
	struct fattrs_tmpfile *tf = NULL;
	char *path = NULL;
	struct tt t;

	if (fail_unless(touch("file"), 4, "no file", "creating a file succeeds"))
		return;
	for (size_t i = 0; i < 3; i++) {
		is_int(fattrs_tmpfile_new(topfd, tt_make(&t, false, "file/tmp.", 10), 0600,
					  methods[i], 0, &tf),
		       -ENOTDIR,
		       "fattrs_tmpfile_new() (method %d) in a regular file gives -ENOTDIR",
		       (int)methods[i]);
		tf = fattrs_tmpfile_free(tf);
	}
	is_int(fattrs_tmpdir_new(topfd, &t.tmpl, 0700, &path), -ENOTDIR,
	       "fattrs_tmpdir_new() in a regular file gives -ENOTDIR");
	is_int(count_entries(), 1, "only the file is there");
	empty_dir(topfd);
}

/* ------------------------------------------- no way to link: remade named */

/* Runs last: once linking has failed, the process makes named files only. */
static void test_tmpfile__link_without_any_way_remakes_named(void)
{
	struct fattrs_tmpfile *tf = NULL;
	char name[PATH_MAX];
	struct stat st;
	struct tt t;
	int err = -1, r;
	mode_t old;

	if (skip_unless(have_tmpfile, 8, NO_TMPFILE))
		return;
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "nl.", 10), 0640, FATTRS_TMP_AUTO, 0, &tf);
	if (r < 0 || !write_str(fattrs_tmpfile_fd(tf), "data\n")) {
		tap_ok(false, "making and writing a temporary file succeeds (%d)", r);
		skip_n(7, "no file");
		tf = fattrs_tmpfile_free(tf);
		nothing_left();
		return;
	}
	old = umask(022);
	fail_links = true;
	r = fattrs_tmpfile_link(tf, &t.tmpl);
	fail_links = false;
	(void)umask(old);
	is_int(r, 0, "fattrs_tmpfile_link() succeeds where no link works");
	path_copy(r == 0 ? tf : NULL, name, sizeof(name));
	tap_ok(tt_filled(&t, name), "the file is remade under the template ('%s')", name);
	is_int(fattrs_tmpfile_method(tf), FATTRS_TMP_NAMED, "the method becomes named");
	is_int(fattrs_tmpfile_why(tf, &err), FATTRS_TMP_WHY_NO_LINK, "because no link works");
	is_int(fattrs_tmpfile_via(tf), FATTRS_LINK_NONE, "the link method is none");
	is_int(fstat(fattrs_tmpfile_fd(tf), &st) == 0 ? (long long)st.st_nlink : -1, 1,
	       "the descriptor is the named file's");
	tf = fattrs_tmpfile_free(tf);
	is_str(read_name(name), "data\n", "the data was copied and the name stays after free");
	is_int(mode_of(name), 0640 & ~022, "with the mode asked for");
	(void)unlinkat(topfd, name, 0);
	nothing_left();
}

static void test_tmpfile__auto_is_named_once_links_failed(void)
{
	struct fattrs_tmpfile *tf = NULL;
	char name[PATH_MAX];
	struct tt t;
	int r;

	if (skip_unless(have_tmpfile, 3, NO_TMPFILE))
		return;
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, "an.", 10), 0600, FATTRS_TMP_AUTO, 0, &tf);
	is_int(r == 0 ? (long long)fattrs_tmpfile_method(tf) : r, FATTRS_TMP_NAMED,
	       "auto makes named files once no link worked");
	is_int(r == 0 ? (long long)fattrs_tmpfile_why(tf, NULL) : r, FATTRS_TMP_WHY_NO_LINK,
	       "and says why");
	path_copy(r == 0 ? tf : NULL, name, sizeof(name));
	tap_ok(r == 0 && exists(name), "the name exists at once");
	tf = fattrs_tmpfile_free(tf);
	(void)unlinkat(topfd, name, 0);
	nothing_left();
}

static void test_tmpfile__scratch_remade_named_is_kept_once_linked(void)
{
	struct fattrs_tmpfile *tf = NULL;
	char name[PATH_MAX];
	struct tt t;
	int r;

	if (skip_unless(have_tmpfile, 2, NO_TMPFILE))
		return;
	r = fattrs_tmpfile_new(topfd, tt_make(&t, false, ".sn.", 10), 0600, FATTRS_TMP_TMPFILE,
			       FATTRS_TMP_UNPUBLISHED, &tf);
	if (r == 0) {
		fail_links = true;
		r = fattrs_tmpfile_link(tf, &t.tmpl);
		fail_links = false;
	}
	is_int(r, 0, "a scratch O_TMPFILE file is linked where no link works");
	path_copy(r == 0 ? tf : NULL, name, sizeof(name));
	tf = fattrs_tmpfile_free(tf);
	tap_ok(r == 0 && exists(name), "the published name stays after fattrs_tmpfile_free()");
	empty_dir(topfd);
	nothing_left();
}

int main(void)
{
	if (!top_plan(top_make("tmpfile"), 131))
		return 1;
	have_tmpfile = top_has_tmpfile();
	tap_run(test_tmpfile__auto_uses_tmpfile_where_supported());
	tap_run(test_tmpfile__unnamed_until_linked());
	tap_run(test_tmpfile__link_names_it_under_template());
	tap_run(test_tmpfile__link_keeps_absolute_template());
	tap_run(test_tmpfile__mode_is_masked_by_umask_022());
	tap_run(test_tmpfile__mode_is_masked_by_umask_077());
	tap_run(test_tmpfile__link_retries_taken_names());
	tap_run(test_tmpfile__link_gives_eexist_when_all_names_taken());
	tap_run(test_tmpfile__link_exact_name_taken_is_eexist());
	tap_run(test_tmpfile__tmpfile_method_is_requested());
	tap_run(test_tmpfile__named_is_created_at_once());
	tap_run(test_tmpfile__named_retries_taken_names());
	tap_run(test_tmpfile__named_never_opens_an_existing_file());
	tap_run(test_tmpfile__named_never_follows_a_symlink());
	tap_run(test_tmpfile__named_not_scratch_stays_after_free());
	tap_run(test_tmpfile__scratch_unpublished_is_removed_by_free());
	tap_run(test_tmpfile__scratch_published_is_kept());
	tap_run(test_tmpfile__scratch_unnamed_link_is_kept());
	tap_run(test_tmpfile__cleanup_signal_removes_scratch_names());
	tap_run(test_tmpfile__child_signal_leaves_parent_names());
	tap_run(test_tmpfile__scratch_beyond_eight_is_removed_too());
	tap_run(test_tmpfile__free_null_is_null());
	tap_run(test_tmpfile__tmpdir_is_0700());
	tap_run(test_tmpfile__tmpdir_retries_and_gives_eexist());
	tap_run(test_tmpfile__tmpname_pick_creates_nothing());
	tap_run(test_tmpfile__removed_dir_does_not_stop_linking());
	tap_run(test_tmpfile__missing_dir_is_enoent());
	tap_run(test_tmpfile__file_as_dir_is_enotdir());
	/* Last: these make linking fail for the rest of the process. */
	tap_run(test_tmpfile__link_without_any_way_remakes_named());
	tap_run(test_tmpfile__auto_is_named_once_links_failed());
	tap_run(test_tmpfile__scratch_remade_named_is_kept_once_linked());
	return top_done();
}
