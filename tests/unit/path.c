/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/path.c: joining and splitting paths as mktemp(1) does, reading links, statfs(2). */
#include "config.h"

#include "fattrs.h"
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/statfs.h>

#include "fixture.h"

/* statfs(2) f_type of procfs (linux/magic.h). */
#define PROC_MAGIC 0x9fa0

static void join_is(const char *dir, const char *name, const char *want)
{
	char *got = fattrs_path_join(dir, name);

	is_str(got, want, "join \"%s\" + \"%s\" gives \"%s\"", dir, name, want);
	free(got);
}

static void dir_is(const char *path, const char *want)
{
	char *got = fattrs_path_dir(path);

	is_str(got, want, "dir of \"%s\" is \"%s\"", path, want);
	free(got);
}

/* Expectations checked against GNU mktemp -u -p DIR xXXXXXX. */
static void test_path__join_drops_trailing_slashes(void)
{
	join_is("/tmp//", "x", "/tmp/x");
	join_is("a/", "x", "a/x");
}

static void test_path__join_adds_one_slash(void)
{
	join_is("a", "x", "a/x");
	join_is("/tmp", "tmp.XXXXXXXXXX", "/tmp/tmp.XXXXXXXXXX");
}

static void test_path__join_keeps_root_as_is(void)
{
	join_is("/", "x", "/x");
	join_is("//", "x", "//x");
}

static void test_path__dir_is_before_last_slash(void)
{
	dir_is("a/b", "a");
	dir_is("a/b/c", "a/b");
}

static void test_path__dir_of_top_level_is_root(void)
{
	dir_is("/b", "/");
}

static void test_path__dir_without_slash_is_dot(void)
{
	dir_is("b", ".");
}

/*
 * fattrs_readlink(): a target longer than the first buffer, with no size
 * hint and with a wrong one (st_size is 0 for /proc's links), by name and
 * through an O_PATH descriptor; a file that is no link is EINVAL.
 */
static void test_path__readlink_grows_past_the_hint(void)
{
	char target[3001], *got = NULL;
	char path[PATH_MAX];
	int fd;

	memset(target, 'x', sizeof(target) - 1);
	target[sizeof(target) - 1] = '\0';
	for (size_t i = 200; i < sizeof(target) - 1; i += 200)
		target[i] = '/';
	if (symlinkat(target, topfd, "l") < 0) {
		skip_n(5, "cannot make a symbolic link");
		return;
	}
	is_int(fattrs_readlink(topfd, "l", 0, &got), 0, "a 3000-byte target, no hint");
	tap_ok(got != NULL && strcmp(got, target) == 0, "... read whole");
	free(got);
	got = NULL;
	fd = openat(topfd, "l", O_PATH | O_NOFOLLOW | O_CLOEXEC);
	tap_ok(fd >= 0 && fattrs_readlink(fd, "", 10, &got) == 0 && got != NULL && strcmp(got, target) == 0,
	       "through an O_PATH descriptor, a hint too short");
	free(got);
	if (fd >= 0)
		(void)close(fd);
	is_int(fattrs_readlink(topfd, "l", 3000, &got), 0, "the exact size as the hint");
	free(got);
	(void)unlinkat(topfd, "l", 0);
	fd = openat(topfd, "f", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		(void)close(fd);
	is_int(fattrs_readlink(topfd, top_path(path, "f"), 0, &got), -EINVAL, "a regular file: EINVAL");
	(void)unlinkat(topfd, "f", 0);
}

/* statfs(2) of "" is ENOENT, as the kernel says, unless AT_EMPTY_PATH names the descriptor's own file. */
static void test_path__statfs_empty_name(void)
{
	struct statfs want, got;

	is_int(fattrs_statfs(AT_FDCWD, "", 0, &got), -ENOENT, "statfs of \"\" is ENOENT");
	is_int(fattrs_statfs(topfd, "", 0, &got), -ENOENT, "statfs of \"\" in a directory is ENOENT");
	if (fstatfs(topfd, &want) < 0) {
		skip_n(2, "fstatfs(2) of the test directory failed");
		return;
	}
	is_int(fattrs_statfs(topfd, "", AT_EMPTY_PATH, &got), 0, "statfs of \"\" with AT_EMPTY_PATH succeeds");
	tap_ok(memcmp(&got.f_fsid, &want.f_fsid, sizeof(want.f_fsid)) == 0 && got.f_type == want.f_type,
	       "statfs of \"\" with AT_EMPTY_PATH is the descriptor's file system");
}

/* A name is followed, as statfs(2) follows it, relative to a descriptor too. */
static void test_path__statfs_follows_names(void)
{
	struct statfs got;

	if (symlinkat("/proc", topfd, "to-proc") < 0) {
		skip_n(4, "symlink(2) failed in the test directory");
		return;
	}
	is_int(fattrs_statfs(topfd, "to-proc", 0, &got), 0, "statfs of a symlink in a directory succeeds");
	is_int(got.f_type, PROC_MAGIC, "statfs of a symlink to /proc is procfs's");
	is_int(fattrs_statfs(AT_FDCWD, "/proc/self", 0, &got), 0, "statfs of an absolute name succeeds");
	is_int(fattrs_statfs(topfd, "missing", 0, &got), -ENOENT, "statfs of a missing name is ENOENT");
}

/* With AT_SYMLINK_NOFOLLOW a link is asked of its own file system, by a descriptor or by an absolute name. */
static void test_path__statfs_nofollow(void)
{
	struct statfs want, got;
	char path[PATH_MAX];

	if (fstatfs(topfd, &want) < 0 || want.f_type == PROC_MAGIC || symlinkat("/proc", topfd, "to-proc2") < 0) {
		skip_n(4, "no symlink to /proc in the test directory");
		return;
	}
	is_int(fattrs_statfs(topfd, "to-proc2", AT_SYMLINK_NOFOLLOW, &got), 0, "statfs of a link not followed");
	tap_ok(got.f_type == want.f_type, "... is the file system the link is on");
	is_int(fattrs_statfs(AT_FDCWD, top_path(path, "to-proc2"), AT_SYMLINK_NOFOLLOW, &got), 0,
	       "statfs of an absolute name not followed");
	tap_ok(got.f_type == want.f_type, "... is the file system the link is on");
}

int main(void)
{
	if (!top_plan(top_make("path"), 27))
		return 1;
	tap_run(test_path__join_drops_trailing_slashes());
	tap_run(test_path__join_adds_one_slash());
	tap_run(test_path__join_keeps_root_as_is());
	tap_run(test_path__dir_is_before_last_slash());
	tap_run(test_path__dir_of_top_level_is_root());
	tap_run(test_path__dir_without_slash_is_dot());
	tap_run(test_path__readlink_grows_past_the_hint());
	tap_run(test_path__statfs_empty_name());
	tap_run(test_path__statfs_follows_names());
	tap_run(test_path__statfs_nofollow());
	return top_done();
}
