/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/fs/mount.c and statx.c: mount ids to mount table entries, mount points walked up to. */
#include "config.h"

#include "fattrs.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "tap.h"
#include "fixture.h"

/* statfs(2) f_type of procfs (linux/magic.h). */
#define PROC_MAGIC 0x9fa0

/* The mount id of @path, or 0 (with a reason in @why) when unknown. */
static uint64_t mnt_id_of(const char *path, const char **why)
{
	struct fattrs_statx_buf stx = { .stx_mask = 0 };
	int r;

	r = fattrs_statx(AT_FDCWD, path, 0, STATX_MNT_ID, &stx);
	if (r < 0) {
		*why = r == -ENOSYS ? "no statx(2) (Linux < 4.11)" : "statx(2) failed";
		return 0;
	}
	if ((stx.stx_mask & STATX_MNT_ID) == 0) {
		*why = "no STATX_MNT_ID (Linux < 5.8)";
		return 0;
	}
	return stx.stx_mnt_id;
}

static void test_mount__free_null_is_null(void)
{
	tap_ok(fattrs_mounts_free(NULL) == NULL, "fattrs_mounts_free(NULL) returns NULL");
}

static void test_mount__new_then_free_without_lookup(void)
{
	struct fattrs_mounts *m = fattrs_mounts_new();

	tap_ok(m != NULL, "fattrs_mounts_new() returns an object");
	tap_ok(fattrs_mounts_free(m) == NULL,
	       "fattrs_mounts_free() of an unused table returns NULL");
}

static void test_mount__statx_of_missing_path_is_enoent(void)
{
	struct fattrs_statx_buf stx;
	int r = fattrs_statx(AT_FDCWD, "/nonexistent/fattrs-unit", 0, STATX_MNT_ID, &stx);

	if (r == -ENOSYS) {
		tap_skip("no statx(2) (Linux < 4.11)");
		return;
	}
	is_int(r, -ENOENT, "fattrs_statx() of a missing path gives -ENOENT");
}

static void test_mount__statx_gives_root_a_mount_id(void)
{
	struct fattrs_statx_buf stx = { .stx_mask = 0 };
	int r;

	r = fattrs_statx(AT_FDCWD, "/", 0, STATX_MNT_ID, &stx);
	if (r == -ENOSYS) {
		skip_n(2, "no statx(2) (Linux < 4.11)");
		return;
	}
	is_int(r, 0, "fattrs_statx(STATX_MNT_ID) of / succeeds");
	if ((stx.stx_mask & STATX_MNT_ID) == 0) {
		tap_skip("no STATX_MNT_ID (Linux < 5.8)");
		return;
	}
	tap_ok(stx.stx_mnt_id != 0, "it gives / a nonzero mount id");
}

static void test_mount__root_id_finds_root(void)
{
	const char *why = NULL;
	uint64_t id = mnt_id_of("/", &why);
	struct fattrs_mounts *m;
	struct fattrs_mount mnt = { .target = NULL };
	int r;

	if (id == 0) {
		skip_n(3, why);
		return;
	}
	m = fattrs_mounts_new();
	r = fattrs_mounts_find(m, id, &mnt);
	if (r == -ELIBACC || r == -ELIBBAD) {
		skip_n(3, "libmount cannot be loaded here");
		m = fattrs_mounts_free(m);
		return;
	}
	is_int(r, 0, "fattrs_mounts_find() finds the mount of /");
	is_int(mnt.id, id, "the entry has the id asked for");
	is_str(mnt.target, "/", "its target is /");
	m = fattrs_mounts_free(m);
}

static void test_mount__unknown_id_is_enoent(void)
{
	struct fattrs_mounts *m = fattrs_mounts_new();
	struct fattrs_mount mnt, untouched;
	int r;

	memset(&mnt, 0x5a, sizeof(mnt));
	memcpy(&untouched, &mnt, sizeof(mnt));
	r = fattrs_mounts_find(m, 0xfffffff0, &mnt);
	if (r == -ELIBACC || r == -ELIBBAD) {
		skip_n(2, "libmount cannot be loaded here");
	} else {
		is_int(r, -ENOENT, "an id no mount has gives -ENOENT");
		tap_ok(memcmp(&mnt, &untouched, sizeof(mnt)) == 0,
		       "the result is not written on failure");
	}
	m = fattrs_mounts_free(m);
}

static void test_mount__lookups_share_one_table(void)
{
	const char *why = NULL;
	uint64_t id = mnt_id_of("/", &why);
	struct fattrs_mounts *m;
	struct fattrs_mount a, b;
	int ra, rb;

	if (id == 0) {
		skip_n(2, why);
		return;
	}
	m = fattrs_mounts_new();
	ra = fattrs_mounts_find(m, id, &a);
	rb = fattrs_mounts_find(m, id, &b);
	if (ra == -ELIBACC || ra == -ELIBBAD) {
		skip_n(2, "libmount cannot be loaded here");
	} else {
		tap_ok(ra == 0 && rb == 0, "two lookups of / both succeed");
		tap_ok(ra == 0 && rb == 0 && a.target == b.target,
		       "the second lookup returns the same table string (no re-parse)");
	}
	m = fattrs_mounts_free(m);
}

static void test_mount__proc_has_fstype_proc(void)
{
	const char *why = NULL;
	struct statfs sfs;
	struct fattrs_mounts *m;
	struct fattrs_mount mnt;
	uint64_t id;
	int r;

	if (statfs("/proc", &sfs) < 0 || sfs.f_type != PROC_MAGIC) {
		skip_n(2, "no procfs mounted on /proc");
		return;
	}
	id = mnt_id_of("/proc", &why);
	if (id == 0) {
		skip_n(2, why);
		return;
	}
	m = fattrs_mounts_new();
	r = fattrs_mounts_find(m, id, &mnt);
	if (r == -ELIBACC || r == -ELIBBAD) {
		skip_n(2, "libmount cannot be loaded here");
	} else {
		is_int(r, 0, "fattrs_mounts_find() finds the mount of /proc");
		is_str(mnt.fstype, "proc", "its fstype is proc");
	}
	m = fattrs_mounts_free(m);
}

/*
 * The mount point of the test directory, found with names: its real path
 * cut at the last directory whose parent is on another device (or is
 * itself, at "/").  NULL when something cannot be stat'ed.
 */
static char *mount_point_by_names(void)
{
	char *path = realpath(topdir, NULL), *slash;
	struct stat here, up;

	if (path == NULL || stat(path, &here) < 0)
		goto fail;
	for (;;) {
		slash = strrchr(path, '/');
		if (slash == NULL || (slash == path && path[1] == '\0'))
			return path;
		*slash = '\0';
		if (stat(slash == path ? "/" : path, &up) < 0)
			goto fail;
		if (up.st_dev != here.st_dev) {
			*slash = '/';
			return path;
		}
		if (slash == path)
			return strcpy(path, "/");
		here = up;
	}
fail:
	free(path);
	return NULL;
}

/* One walk: its return, the mount point found and the directory it started from. */
static void mntpoint_is(const char *file, bool is_dir, int want_r, const char *want_path, const char *want_start)
{
	struct fattrs_mntpoint mp;
	int r = fattrs_mntpoint_find(file, is_dir, &mp);

	tap_ok(r == want_r && (want_path == NULL ? mp.path == NULL : mp.path != NULL && strcmp(mp.path, want_path) == 0) &&
		       mp.start != NULL && strcmp(mp.start, want_start) == 0 && mp.back_err == 0,
	       "the mount point of '%s' (%s) is %s, walked up from '%s'", file, is_dir ? "a directory" : "a file",
	       want_path != NULL ? want_path : "none", want_start);
	if (r != want_r || mp.back_err != 0)
		printf("#   returned %d (%s), stopped at %d, back %d, found '%s' from '%s'\n", r, strerror(-r), mp.err,
		       mp.back_err, mp.path != NULL ? mp.path : "(null)", mp.start != NULL ? mp.start : "(null)");
	fattrs_mntpoint_release(&mp);
}

enum { N_MNTPOINT = 9 };
static void test_mount__mntpoint_walks_up_the_device(void)
{
	char *want = mount_point_by_names();
	char cwd[PATH_MAX], after[PATH_MAX], file[PATH_MAX + 16], dir[PATH_MAX + 16];
	struct fattrs_mntpoint mp;

	if (want == NULL || getcwd(cwd, sizeof(cwd)) == NULL || mkdirat(topfd, "d", 0755) < 0) {
		skip_n(N_MNTPOINT, "the test directory's mount point cannot be found with names");
		free(want);
		return;
	}
	(void)snprintf(file, sizeof(file), "%s/d//f", topdir);
	(void)snprintf(dir, sizeof(dir), "%s/d", topdir);
	mntpoint_is(file, false, 0, want, dir);
	(void)snprintf(file, sizeof(file), "%s/d/", topdir);
	mntpoint_is(file, true, 0, want, file);
	mntpoint_is("/", true, 0, "/", "/");
	mntpoint_is("/x", false, 0, "/", "/");
	mntpoint_is("/proc/self", true, 0, "/proc", "/proc/self");
	(void)snprintf(file, sizeof(file), "%s/missing", topdir);
	mntpoint_is(file, true, -ENOENT, NULL, file);
	is_int(fattrs_mntpoint_find("f", false, &mp), 0, "a name without a directory is walked up from the working one");
	is_str(mp.start, ".", "which it calls '.'");
	fattrs_mntpoint_release(&mp);
	tap_ok(getcwd(after, sizeof(after)) != NULL && strcmp(cwd, after) == 0,
	       "the working directory is the same after");
	(void)unlinkat(topfd, "d", AT_REMOVEDIR);
	free(want);
}

int main(void)
{
	if (!top_plan(top_make("mount"), 15 + N_MNTPOINT))
		return 1;
	tap_run(test_mount__free_null_is_null());
	tap_run(test_mount__new_then_free_without_lookup());
	tap_run(test_mount__statx_of_missing_path_is_enoent());
	tap_run(test_mount__statx_gives_root_a_mount_id());
	tap_run(test_mount__root_id_finds_root());
	tap_run(test_mount__unknown_id_is_enoent());
	tap_run(test_mount__lookups_share_one_table());
	tap_run(test_mount__proc_has_fstype_proc());
	tap_run(test_mount__mntpoint_walks_up_the_device());
	return top_done();
}
