/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/path.c: joining and splitting paths as mktemp(1) does. */
#include "config.h"

#include "fattrs.h"

#include <stdlib.h>

#include "tap.h"

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

int main(void)
{
	tap_plan(10);
	test_path__join_drops_trailing_slashes();
	test_path__join_adds_one_slash();
	test_path__join_keeps_root_as_is();
	test_path__dir_is_before_last_slash();
	test_path__dir_of_top_level_is_root();
	test_path__dir_without_slash_is_dot();
	return tap_done();
}
