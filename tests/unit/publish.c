/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for publishing temporary files (src/lib/tmp/) and fattrs_path_resolve(). */
#include "config.h"

#include "fattrs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "fixture.h"

#define HIDDEN_PREFIX ".tmpcreate."

static bool have_tmpfile;	/* O_TMPFILE works in topdir */

/* ------------------------------------------------------------- helpers */

/* Hidden temporaries (.tmpcreate.*) in the test directory. */
static int count_hidden(void)
{
	return count_matching(".", HIDDEN_PREFIX);
}

/* A file @name (relative to topfd) holding @s; returns its inode number, or 0. */
static ino_t put_file(const char *name, const char *s)
{
	int fd = openat(topfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	struct stat st;
	bool ok;

	if (fd < 0)
		return 0;
	ok = write_str(fd, s) && fstat(fd, &st) == 0;
	(void)close(fd);
	return ok ? st.st_ino : 0;
}

static ino_t ino_of(const char *path)
{
	struct stat st;

	return fstatat(topfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 ? st.st_ino : 0;
}

static ino_t ino_of_fd(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? st.st_ino : 0;
}

/* An unnamed temporary file in the test directory holding @s, or NULL. */
static struct fattrs_tmpfile *new_unnamed(const char *s)
{
	static const struct fattrs_tmpl tmpl = { .path = "tmp.XXXXXXXXXX", .x_off = 4, .x_len = 10 };
	struct fattrs_tmpfile *tf = NULL;

	if (fattrs_tmpfile_new(topfd, &tmpl, 0644, FATTRS_TMP_TMPFILE, 0, &tf) < 0)
		return NULL;
	if (!write_str(fattrs_tmpfile_fd(tf), s))
		tf = fattrs_tmpfile_free(tf);
	return tf;
}

/* A named temporary file (.tmpcreate.*) in the test directory holding @s, or NULL. */
static struct fattrs_tmpfile *new_named(const char *s, unsigned int flags)
{
	static const struct fattrs_tmpl tmpl = {
		.path = HIDDEN_PREFIX "XXXXXXXXXX", .x_off = sizeof(HIDDEN_PREFIX) - 1, .x_len = 10,
	};
	struct fattrs_tmpfile *tf = NULL;

	if (fattrs_tmpfile_new(topfd, &tmpl, 0644, FATTRS_TMP_NAMED, flags, &tf) < 0)
		return NULL;
	if (!write_str(fattrs_tmpfile_fd(tf), s))
		tf = fattrs_tmpfile_free(tf);
	return tf;
}

/* ------------------------------------------------ publishing unnamed files */

static void test_publish__unnamed_as_new_name(void)
{
	struct fattrs_tmpfile *tf = have_tmpfile ? new_unnamed("new") : NULL;

	if (skip_unless(tf != NULL, 5, NO_TMPFILE))
		return;
	is_int(fattrs_tmpfile_publish(tf, "name", NULL, 0), 0, "an unnamed file is published as a new name");
	is_str(read_name("name"), "new", "the name has its contents");
	tap_ok(ino_of("name") == ino_of_fd(fattrs_tmpfile_fd(tf)), "the name is the file itself (linked)");
	is_str(fattrs_tmpfile_path(tf), "name", "the file's path is now the name");
	tap_ok(fattrs_tmpfile_via(tf) != FATTRS_LINK_UNKNOWN, "it says how it was linked");
	tf = fattrs_tmpfile_free(tf);
	left_only("name", NULL);
}

static void test_publish__unnamed_replaces(void)
{
	struct fattrs_tmpfile *tf = have_tmpfile ? new_unnamed("new") : NULL;
	ino_t old = put_file("name", "old");
	int oldfd = openat(topfd, "name", O_RDONLY | O_CLOEXEC);
	char buf[8] = "";

	if (tf == NULL) {
		skip_n(4, NO_TMPFILE);
		if (oldfd >= 0)
			(void)close(oldfd);
		left_only("name", NULL);
		return;
	}
	is_int(fattrs_tmpfile_publish(tf, "name", NULL, 0), 0, "an unnamed file replaces an existing name");
	is_str(read_name("name"), "new", "the name has the new contents");
	tap_ok(ino_of("name") == ino_of_fd(fattrs_tmpfile_fd(tf)) && ino_of("name") != old,
	       "the name is the new file, not the old one rewritten");
	tap_ok(pread(oldfd, buf, sizeof(buf) - 1, 0) == 3 && strcmp(buf, "old") == 0,
	       "a reader of the old file still sees it whole");
	(void)close(oldfd);
	tf = fattrs_tmpfile_free(tf);
	left_only("name", NULL);
}

static void test_publish__unnamed_noclobber(void)
{
	struct fattrs_tmpfile *tf = have_tmpfile ? new_unnamed("new") : NULL;
	ino_t old = put_file("name", "old");

	if (tf == NULL) {
		skip_n(6, NO_TMPFILE);
		left_only("name", NULL);
		return;
	}
	is_int(fattrs_tmpfile_publish(tf, "name", NULL, FATTRS_PUBLISH_NOCLOBBER), -EEXIST,
	       "no-clobber onto an existing name gives -EEXIST");
	is_str(read_name("name"), "old", "the old file keeps its contents");
	tap_ok(ino_of("name") == old, "and its inode");
	is_str(fattrs_tmpfile_path(tf), NULL, "the temporary file still has no name");
	is_int(fattrs_tmpfile_publish(tf, "other", NULL, FATTRS_PUBLISH_NOCLOBBER), 0,
	       "it can still be published, with no-clobber, as a new name");
	is_str(read_name("other"), "new", "which has its contents");
	tf = fattrs_tmpfile_free(tf);
	left_only("name", "other", NULL);
}

static void test_publish__unnamed_backup(void)
{
	struct fattrs_tmpfile *tf = have_tmpfile ? new_unnamed("new") : NULL;
	ino_t old = put_file("name", "old");

	if (tf == NULL) {
		skip_n(4, NO_TMPFILE);
		left_only("name", NULL);
		return;
	}
	is_int(fattrs_tmpfile_publish(tf, "name", "name~", 0), 0, "replacing with a backup works");
	is_str(read_name("name~"), "old", "the backup has the old contents");
	tap_ok(ino_of("name~") == old, "the backup is the old file itself");
	is_str(read_name("name"), "new", "the name has the new contents");
	tf = fattrs_tmpfile_free(tf);
	left_only("name", "name~", NULL);
}

static void test_publish__unnamed_backup_replaces_older(void)
{
	struct fattrs_tmpfile *tf = have_tmpfile ? new_unnamed("new") : NULL;
	ino_t old = put_file("name", "old");

	(void)put_file("name~", "older");
	if (tf == NULL) {
		skip_n(4, NO_TMPFILE);
		left_only("name", "name~", NULL);
		return;
	}
	is_int(fattrs_tmpfile_publish(tf, "name", "name~", 0), 0, "replacing with an older backup there works");
	is_str(read_name("name~"), "old", "the backup has the old contents, not the older");
	tap_ok(ino_of("name~") == old, "the backup is the old file itself");
	is_str(read_name("name"), "new", "the name has the new contents");
	tf = fattrs_tmpfile_free(tf);
	left_only("name", "name~", NULL);
}

static void test_publish__unnamed_backup_of_nothing(void)
{
	struct fattrs_tmpfile *tf = have_tmpfile ? new_unnamed("new") : NULL;

	if (skip_unless(tf != NULL, 2, NO_TMPFILE))
		return;
	is_int(fattrs_tmpfile_publish(tf, "name", "name~", 0), 0, "a backup of a name not there is no error");
	is_str(read_name("name"), "new", "the name has the new contents");
	tf = fattrs_tmpfile_free(tf);
	left_only("name", NULL);
}

static void test_publish__backup_dir_missing(void)
{
	struct fattrs_tmpfile *tf = have_tmpfile ? new_unnamed("new") : NULL;
	int r;

	(void)put_file("name", "old");
	if (tf == NULL) {
		skip_n(2, NO_TMPFILE);
		left_only("name", NULL);
		return;
	}
	r = fattrs_tmpfile_publish(tf, "name", "nodir/name~", 0);
	tap_ok(r == -ENOENT, "a backup in a missing directory gives -ENOENT (got %d)", r);
	tap_ok(strcmp(read_name("name"), "old") == 0, "and the old file stays");
	tf = fattrs_tmpfile_free(tf);
	left_only("name", NULL);
}

static void test_publish__onto_a_directory(void)
{
	struct fattrs_tmpfile *tf = have_tmpfile ? new_unnamed("new") : NULL;

	(void)mkdirat(topfd, "name", 0755);
	if (tf == NULL) {
		skip_n(2, NO_TMPFILE);
		left_only("name", NULL);
		return;
	}
	is_int(fattrs_tmpfile_publish(tf, "name", NULL, 0), -EISDIR,
	       "an unnamed file published onto a directory gives -EISDIR");
	is_int(count_in("name"), 0, "the directory is left empty");
	tf = fattrs_tmpfile_free(tf);
	left_only("name", NULL);
}

/* ------------------------------------------------ publishing named files */

static void test_publish__named_scratch_renamed(void)
{
	struct fattrs_tmpfile *tf = new_named("new", FATTRS_TMP_UNPUBLISHED);
	const char *p = tf != NULL ? fattrs_tmpfile_path(tf) : NULL;
	ino_t ino = tf != NULL ? ino_of_fd(fattrs_tmpfile_fd(tf)) : 0;

	tap_ok(p != NULL && strncmp(p, HIDDEN_PREFIX, strlen(HIDDEN_PREFIX)) == 0 && exists(p),
	       "a named scratch file has a hidden name");
	if (skip_unless(tf != NULL, 4, "no named scratch file"))
		return;
	is_int(fattrs_tmpfile_publish(tf, "name", NULL, 0), 0, "it is published as a new name");
	is_str(read_name("name"), "new", "the name has its contents");
	tap_ok(ino_of("name") == ino, "the name is the file itself (renamed)");
	is_str(fattrs_tmpfile_path(tf), "name", "the file's path is now the name");
	tf = fattrs_tmpfile_free(tf);
	left_only("name", NULL);
}

static void test_publish__named_scratch_replaces_with_backup(void)
{
	struct fattrs_tmpfile *tf = new_named("new", FATTRS_TMP_UNPUBLISHED);
	ino_t old = put_file("name", "old");

	(void)put_file("name~", "older");
	if (tf == NULL) {
		skip_n(4, "no named scratch file");
		left_only("name", "name~", NULL);
		return;
	}
	is_int(fattrs_tmpfile_publish(tf, "name", "name~", 0), 0,
	       "a named scratch file replaces a name, with a backup");
	is_str(read_name("name"), "new", "the name has the new contents");
	is_str(read_name("name~"), "old", "the backup has the old contents, not the older");
	tap_ok(ino_of("name~") == old, "the backup is the old file itself");
	tf = fattrs_tmpfile_free(tf);
	left_only("name", "name~", NULL);
}

static void test_publish__named_scratch_noclobber(void)
{
	struct fattrs_tmpfile *tf = new_named("new", FATTRS_TMP_UNPUBLISHED);
	ino_t old = put_file("name", "old");

	if (tf == NULL) {
		skip_n(4, "no named scratch file");
		left_only("name", NULL);
		return;
	}
	is_int(fattrs_tmpfile_publish(tf, "name", NULL, FATTRS_PUBLISH_NOCLOBBER), -EEXIST,
	       "no-clobber onto an existing name gives -EEXIST for a named file too");
	is_str(read_name("name"), "old", "the old file keeps its contents");
	tap_ok(ino_of("name") == old, "and its inode");
	is_int(count_hidden(), 1, "the hidden file is there until freed");
	tf = fattrs_tmpfile_free(tf);
	left_only("name", NULL);
}

static void test_publish__named_scratch_onto_a_directory(void)
{
	struct fattrs_tmpfile *tf = new_named("new", FATTRS_TMP_UNPUBLISHED);

	(void)mkdirat(topfd, "name", 0755);
	if (tf == NULL) {
		skip_n(2, "no named scratch file");
		left_only("name", NULL);
		return;
	}
	is_int(fattrs_tmpfile_publish(tf, "name", NULL, 0), -EISDIR,
	       "a named file published onto a directory gives -EISDIR");
	is_int(count_in("name"), 0, "the directory is left empty");
	tf = fattrs_tmpfile_free(tf);
	left_only("name", NULL);
}

static void test_publish__unpublished_scratch_removed(void)
{
	struct fattrs_tmpfile *tf = new_named("new", FATTRS_TMP_UNPUBLISHED);
	char *p;

	is_int(count_hidden(), 1, "an unpublished named scratch file is there");
	tf = fattrs_tmpfile_free(tf);
	nothing_left();

	/* Not scratch: a named file is the caller's to keep. */
	tf = new_named("new", 0);
	p = tf != NULL ? strdup(fattrs_tmpfile_path(tf)) : NULL;
	tf = fattrs_tmpfile_free(tf);
	tap_ok(p != NULL && exists(p), "a named file that is not scratch is kept when freed");
	left_only(p != NULL ? p : "(none)", NULL);
	free(p);
}

/* -------------------------------------------------------- syncing */

static void test_publish__sync_dir(void)
{
	struct fattrs_tmpfile *tf = have_tmpfile ? new_unnamed("new") : NULL;

	if (tf == NULL) {
		tap_skip(NO_TMPFILE);
	} else {
		is_int(fattrs_tmpfile_publish(tf, "unnamed", NULL, FATTRS_PUBLISH_SYNC_DIR), 0,
		       "publishing an unnamed file and syncing the directory returns 0");
		tf = fattrs_tmpfile_free(tf);
	}
	tf = new_named("new", FATTRS_TMP_UNPUBLISHED);
	is_int(tf != NULL ? fattrs_tmpfile_publish(tf, "named", NULL, FATTRS_PUBLISH_SYNC_DIR) : -1, 0,
	       "publishing a named file and syncing the directory returns 0");
	tf = fattrs_tmpfile_free(tf);

	/* In a subdirectory: the directory synced is the name's. */
	(void)mkdirat(topfd, "sub", 0755);
	(void)put_file("sub/name", "old");
	tf = have_tmpfile ? new_unnamed("new") : new_named("new", FATTRS_TMP_UNPUBLISHED);
	is_int(tf != NULL ? fattrs_tmpfile_publish(tf, "sub/name", "sub/name~", FATTRS_PUBLISH_SYNC_DIR) : -1,
	       0, "replacing a name in a subdirectory, with a backup and a sync, returns 0");
	is_str(read_name("sub/name"), "new", "the name there has the new contents");
	is_int(count_in("sub"), 2, "the subdirectory has the name and its backup, nothing hidden");
	tf = fattrs_tmpfile_free(tf);
	if (have_tmpfile)
		left_only("unnamed", "named", "sub", NULL);
	else
		left_only("named", "sub", NULL);
}

/* ------------------------------------------------- resolving symlinks */

/* Whether @got names the same file, relative to topfd, as @want. */
static bool same_file(const char *got, const char *want)
{
	struct stat a, b;

	return got != NULL && fstatat(topfd, got, &a, 0) == 0 && fstatat(topfd, want, &b, 0) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static void test_path_resolve__chain(void)
{
	char abs[PATH_MAX], *got = NULL;

	(void)top_path(abs, "c");
	(void)mkdirat(topfd, "sub", 0755);
	(void)put_file("e", "end");
	must(symlinkat("b", topfd, "a"));		/* relative */
	must(symlinkat(abs, topfd, "b"));		/* absolute */
	must(symlinkat("sub/d", topfd, "c"));		/* relative, downwards */
	must(symlinkat("../e", topfd, "sub/d"));	/* relative to the link's directory */

	is_int(fattrs_path_resolve(topfd, "a", &got), 0, "a chain of relative and absolute links resolves");
	tap_ok(same_file(got, "e"), "to the file at its end (%s)", got != NULL ? got : "(null)");
	tap_ok(got != NULL && strcmp(got + strlen(got) - 2, "/e") == 0, "whose name is the last link's target");
	free(got);
	got = NULL;
	(void)top_path(abs, "a");
	is_int(fattrs_path_resolve(AT_FDCWD, abs, &got), 0, "an absolute path resolves too");
	tap_ok(same_file(got, "e"), "to the same file");
	free(got);
	left_only("a", "b", "c", "e", "sub", NULL);
}

static void test_path_resolve__dangling(void)
{
	char abs[PATH_MAX], *got = NULL;
	int fd;

	must(symlinkat("gone", topfd, "dl"));
	is_int(fattrs_path_resolve(topfd, "dl", &got), 0, "a dangling link resolves");
	fd = got != NULL ? openat(topfd, got, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) : -1;
	tap_ok(fd >= 0 && exists("gone"), "to its target, which a write creates (%s)",
	       got != NULL ? got : "(null)");
	if (fd >= 0)
		(void)close(fd);
	free(got);
	got = NULL;
	(void)top_path(abs, "nowhere");
	must(symlinkat(abs, topfd, "dl2"));
	is_int(fattrs_path_resolve(topfd, "dl2", &got), 0, "a dangling absolute link resolves");
	is_str(got, abs, "to its target as it is");
	free(got);
	left_only("dl", "dl2", "gone", NULL);
}

static void test_path_resolve__not_a_link(void)
{
	char abs[PATH_MAX], *got = NULL;

	(void)put_file("f", "file");
	is_int(fattrs_path_resolve(topfd, "f", &got), 0, "a regular file resolves");
	is_str(got, "f", "to itself");
	free(got);
	got = NULL;
	is_int(fattrs_path_resolve(topfd, "missing", &got), 0, "a missing file resolves");
	is_str(got, "missing", "to itself");
	free(got);
	got = NULL;
	(void)top_path(abs, "f");
	is_int(fattrs_path_resolve(AT_FDCWD, abs, &got), 0, "an absolute path of a file resolves");
	is_str(got, abs, "to itself");
	free(got);
	left_only("f", NULL);
}

static void test_path_resolve__relative_in_subdirectory(void)
{
	char *got = NULL;

	(void)mkdirat(topfd, "sub", 0755);
	must(symlinkat("x", topfd, "sub/l"));
	is_int(fattrs_path_resolve(topfd, "sub/l", &got), 0, "a link in a subdirectory resolves");
	is_str(got, "sub/x", "its relative target is taken in that subdirectory");
	free(got);
	left_only("sub", NULL);
}

/* Links l0 -> l1 -> ... -> l<n-1> -> f. */
static void make_chain(int n)
{
	char name[16], target[16];

	for (int i = 0; i < n; i++) {
		(void)snprintf(name, sizeof(name), "l%d", i);
		if (i + 1 < n)
			(void)snprintf(target, sizeof(target), "l%d", i + 1);
		else
			(void)snprintf(target, sizeof(target), "f");
		must(symlinkat(target, topfd, name));
	}
}

static void test_path_resolve__loops(void)
{
	static char untouched[] = "untouched";
	char *got = NULL;
	int fd;

	must(symlinkat("l2", topfd, "l1"));
	must(symlinkat("l1", topfd, "l2"));
	must(symlinkat("self", topfd, "self"));
	got = untouched;
	is_int(fattrs_path_resolve(topfd, "l1", &got), -ELOOP, "two links to each other give -ELOOP");
	tap_ok(got == untouched, "and no path");
	is_int(fattrs_path_resolve(topfd, "self", &got), -ELOOP, "a link to itself gives -ELOOP");
	left_only("l1", "l2", "self", NULL);

	/* The kernel follows 40 links in a lookup: so does this. */
	(void)put_file("f", "file");
	make_chain(40);
	got = NULL;
	is_int(fattrs_path_resolve(topfd, "l0", &got), 0, "a chain of 40 links resolves");
	tap_ok(same_file(got, "f"), "to the file at its end");
	free(got);
	fd = openat(topfd, "l0", O_RDONLY | O_CLOEXEC);
	tap_ok(fd >= 0, "as the kernel's own lookup does");
	if (fd >= 0)
		(void)close(fd);
	empty_dir(topfd);
	(void)put_file("f", "file");
	make_chain(41);
	got = untouched;
	is_int(fattrs_path_resolve(topfd, "l0", &got), -ELOOP, "a chain of 41 links gives -ELOOP");
	tap_ok(got == untouched, "and no path");
	is_int(count_in("."), 42, "nothing but the file and its 41 links is left in the directory");
	empty_dir(topfd);
}

/*
 * A link whose lstat() size is 0 (/proc's, some FUSE filesystems') is
 * followed like any other: its target is read whole, not cut at st_size.
 */
static void test_path_resolve__link_with_size_zero(void)
{
	char cwd[PATH_MAX], *got = NULL;
	struct stat st;

	if (skip_unless(lstat("/proc/self/cwd", &st) == 0 && st.st_size == 0 &&
			getcwd(cwd, sizeof(cwd)) != NULL, 3, "no /proc link of size 0 here"))
		return;
	is_int(fattrs_path_resolve(AT_FDCWD, "/proc/self/cwd", &got), 0, "/proc/self/cwd resolves");
	is_str(got, cwd, "to the working directory, not to the link itself");
	free(got);
	got = NULL;
	must(symlinkat("/proc/self/cwd", topfd, "pc"));
	(void)fattrs_path_resolve(topfd, "pc", &got);
	is_str(got, cwd, "so does a link to it");
	free(got);
	left_only("pc", NULL);
}

/* What the kernel's own lookup says of following @name (relative to topfd): 0 or -errno. */
static int kernel_follows(const char *name)
{
	int fd = openat(topfd, name, O_PATH | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	(void)close(fd);
	return 0;
}

/*
 * fs.protected_symlinks: a link someone else owns in a sticky
 * world-writable directory is followed only when the kernel would follow
 * it (whatever the setting is now: the answer is compared with the
 * kernel's own lookup, for links to a file and dangling ones).
 */
static void test_path_resolve__protected_symlinks(void)
{
	static const char *const links[] = { "st/other", "st/other-dangling", "st/dirs", "st/mine" };
	char *got;

	if (skip_unless(geteuid() == 0, 2 * 4 + 1, "needs root to own a link as someone else"))
		return;
	(void)mkdirat(topfd, "st", 0755);
	must(fchmodat(topfd, "st", 01777, 0));
	(void)put_file("f", "file");
	must(symlinkat("../f", topfd, "st/other"));
	must(symlinkat("../gone", topfd, "st/other-dangling"));
	must(symlinkat("../f", topfd, "st/dirs"));
	must(symlinkat("../f", topfd, "st/mine"));
	must(fchownat(topfd, "st/other", 65534, 65534, AT_SYMLINK_NOFOLLOW));
	must(fchownat(topfd, "st/other-dangling", 65534, 65534, AT_SYMLINK_NOFOLLOW));
	/* Owned by the directory's owner (uid 1): followed whatever the setting. */
	must(fchownat(topfd, "st", 1, 1, AT_SYMLINK_NOFOLLOW));
	must(fchownat(topfd, "st/dirs", 1, 1, AT_SYMLINK_NOFOLLOW));
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		int want = kernel_follows(links[i]);
		int r;

		got = NULL;
		r = fattrs_path_resolve(topfd, links[i], &got);
		is_int(r, want == -EACCES ? -EACCES : 0, "%s: followed or refused as the kernel does (%s)",
		       links[i], want == -EACCES ? "refused" : "followed");
		tap_ok(r < 0 || (got != NULL && strcmp(got, links[i]) != 0), "%s: resolved to %s", links[i],
		       got != NULL ? got : "(nothing)");
		free(got);
	}
	/* A link in a sticky directory that is not world-writable is always followed. */
	must(fchmodat(topfd, "st", 01775, 0));
	got = NULL;
	is_int(fattrs_path_resolve(topfd, "st/other", &got), 0, "not world-writable: followed");
	free(got);
	empty_dir(topfd);
}

/*
 * A hidden name left by a writer that died (its lock gone with it) is
 * reclaimed by the next replace of the same name; a live writer's (locked)
 * is left alone, and so is anything there that is not a regular file.
 */
static void test_publish__reclaims_only_dead_writers_names(void)
{
	struct fattrs_tmpl tmpl;
	char *hidden = fattrs_tmpl_hidden_for("name", &tmpl);
	struct fattrs_tmpfile *tf;
	int fd;
	ino_t live;

	if (skip_unless(have_tmpfile && hidden != NULL, 9, NO_TMPFILE)) {
		free(hidden);
		return;
	}
	tap_ok(strncmp(hidden, "./" HIDDEN_PREFIX, strlen("./" HIDDEN_PREFIX)) == 0 &&
	       strlen(hidden) == strlen("./" HIDDEN_PREFIX) + 10, "the name's own hidden name is %s", hidden);
	(void)put_file("name", "old");
	(void)put_file(hidden, "dead");
	tf = new_unnamed("new");
	is_int(tf != NULL ? fattrs_tmpfile_publish(tf, "name", NULL, 0) : -1, 0, "a replace with a dead writer's name there");
	is_str(read_name("name"), "new", "publishes");
	is_int(count_hidden(), 0, "and removes the dead writer's name");
	tf = fattrs_tmpfile_free(tf);

	live = put_file(hidden, "live");
	fd = openat(topfd, hidden, O_RDONLY | O_CLOEXEC);
	(void)flock(fd, LOCK_EX);
	tf = new_unnamed("newer");
	is_int(tf != NULL ? fattrs_tmpfile_publish(tf, "name", NULL, 0) : -1, 0,
	       "a replace with a live (locked) writer's name there");
	tap_ok(ino_of(hidden) == live && count_hidden() == 1, "leaves that name alone");
	tf = fattrs_tmpfile_free(tf);
	if (fd >= 0)
		(void)close(fd);
	(void)unlinkat(topfd, hidden, 0);
	(void)mkdirat(topfd, hidden, 0700);
	tf = new_unnamed("newest");
	tap_ok(tf != NULL && fattrs_tmpfile_publish(tf, "name", NULL, 0) == 0 && count_hidden() == 1,
	       "and a directory by that name too");
	tf = fattrs_tmpfile_free(tf);
	(void)unlinkat(topfd, hidden, AT_REMOVEDIR);
	(void)mkfifoat(topfd, hidden, 0600);
	tf = new_unnamed("fifo");
	tap_ok(tf != NULL && fattrs_tmpfile_publish(tf, "name", NULL, 0) == 0 && count_hidden() == 1,
	       "and a fifo by that name (never opened: it is not a regular file)");
	tf = fattrs_tmpfile_free(tf);
	(void)unlinkat(topfd, hidden, 0);
	free(hidden);
	left_only("name", NULL);
}

int main(void)
{
	if (!top_plan(top_make("publish"), 97 + 4 + 9 + 9))
		return 1;
	have_tmpfile = top_has_tmpfile();
	tap_run(test_publish__unnamed_as_new_name());
	tap_run(test_publish__unnamed_replaces());
	tap_run(test_publish__unnamed_noclobber());
	tap_run(test_publish__unnamed_backup());
	tap_run(test_publish__unnamed_backup_replaces_older());
	tap_run(test_publish__unnamed_backup_of_nothing());
	tap_run(test_publish__backup_dir_missing());
	tap_run(test_publish__onto_a_directory());
	tap_run(test_publish__named_scratch_renamed());
	tap_run(test_publish__named_scratch_replaces_with_backup());
	tap_run(test_publish__named_scratch_noclobber());
	tap_run(test_publish__named_scratch_onto_a_directory());
	tap_run(test_publish__unpublished_scratch_removed());
	tap_run(test_publish__sync_dir());
	tap_run(test_publish__reclaims_only_dead_writers_names());
	tap_run(test_path_resolve__chain());
	tap_run(test_path_resolve__dangling());
	tap_run(test_path_resolve__not_a_link());
	tap_run(test_path_resolve__relative_in_subdirectory());
	tap_run(test_path_resolve__loops());
	tap_run(test_path_resolve__link_with_size_zero());
	tap_run(test_path_resolve__protected_symlinks());
	return top_done();
}
