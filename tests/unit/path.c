/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/path.c: joining and splitting paths as mktemp(1) does, reading links. */
#include "config.h"

#include "fattrs.h"

#include <stdlib.h>

#include "fixture.h"

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

int main(void)
{
	if (!top_plan(top_make("path"), 15))
		return 1;
	test_path__join_drops_trailing_slashes();
	test_path__join_adds_one_slash();
	test_path__join_keeps_root_as_is();
	test_path__dir_is_before_last_slash();
	test_path__dir_of_top_level_is_root();
	test_path__dir_without_slash_is_dot();
	test_path__readlink_grows_past_the_hint();
	return top_done();
}
