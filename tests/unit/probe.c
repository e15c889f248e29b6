/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/fs/probe.c: finding out what a directory's filesystem supports. */
#include "config.h"

#include "fattrs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "fixture.h"

static void test_probe__fresh_dir_supports_tmpfile(void)
{
	struct fattrs_probe p;
	int r;

	memset(&p, 0xff, sizeof(p));
	r = fattrs_probe_dir(AT_FDCWD, topdir, &p);
	is_int(r, 0, "probing a fresh directory succeeds");
	if (r < 0) {
		skip_n(6, "the probe failed");
		return;
	}
	if (p.tmpfile_errno == EOPNOTSUPP) {
		/* A $TMPDIR on a filesystem without O_TMPFILE: say so, never fail. */
		tap_ok(p.method == FATTRS_TMP_NAMED && p.why == FATTRS_TMP_WHY_NO_TMPFILE,
		       "without O_TMPFILE, auto would use a named file");
		for (int i = 0; i < 4; i++)
			tap_skip("no O_TMPFILE in %s", topdir);
	} else {
		is_int(p.tmpfile_errno, 0, "O_TMPFILE works there");
		tap_ok(p.link_via == FATTRS_LINK_EMPTY_PATH || p.link_via == FATTRS_LINK_PROC,
		       "an unnamed file is linked by AT_EMPTY_PATH or /proc (got %d)",
		       (int)p.link_via);
		is_int(p.link_errno, 0, "no link attempt failed");
		is_int(p.method, FATTRS_TMP_TMPFILE, "auto would use O_TMPFILE");
		is_int(p.why, FATTRS_TMP_WHY_SUPPORTED, "because it is supported");
	}
	is_int(p.noreplace_errno, 0, "renameat2(RENAME_NOREPLACE) works there");
	tap_ok(p.mnt_id != 0, "a nonzero mount id is reported");
	is_int(count_entries(), 0, "the directory is left empty");
}

static void test_probe__mnt_id_matches_statx(void)
{
	struct fattrs_statx_buf stx;
	struct fattrs_probe p;

	if (fattrs_statx(AT_FDCWD, topdir, 0, STATX_MNT_ID, &stx) < 0 ||
	    (stx.stx_mask & STATX_MNT_ID) == 0) {
		tap_skip("no STATX_MNT_ID here");
		return;
	}
	if (fattrs_probe_dir(AT_FDCWD, topdir, &p) < 0) {
		tap_ok(false, "probing the directory again succeeds");
		return;
	}
	is_int(p.mnt_id, stx.stx_mnt_id, "the mount id is the directory's stx_mnt_id");
}

static void test_probe__relative_to_dirfd(void)
{
	struct fattrs_probe p;
	int fd = open(topdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	if (fd < 0) {
		tap_ok(false, "opening %s succeeds", topdir);
		tap_skip("no directory descriptor");
		return;
	}
	r = fattrs_probe_dir(fd, ".", &p);
	is_int(r, 0, "probing \".\" relative to a directory descriptor succeeds");
	is_int(count_entries(), 0, "the directory is left empty");
	(void)close(fd);
}

static void test_probe__leaves_existing_files_alone(void)
{
	char path[PATH_MAX];
	struct fattrs_probe p;
	int fd, r;

	fd = open(top_path(path, "keep"), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		tap_ok(false, "creating %s succeeds", path);
		tap_skip("no file to keep");
		return;
	}
	(void)close(fd);
	r = fattrs_probe_dir(AT_FDCWD, topdir, &p);
	is_int(r, 0, "probing a directory with a file in it succeeds");
	is_int(count_entries(), 1, "only the file that was there is left");
	(void)unlink(path);
}

static void test_probe__missing_dir_is_enoent(void)
{
	char path[PATH_MAX];
	struct fattrs_probe p;

	is_int(fattrs_probe_dir(AT_FDCWD, top_path(path, "missing"), &p), -ENOENT, "a missing directory gives -ENOENT");
	is_int(count_entries(), 0, "nothing is created beside it");
}

static void test_probe__regular_file_is_enotdir(void)
{
	char path[PATH_MAX];
	struct fattrs_probe p;
	int fd;

	fd = open(top_path(path, "file"), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		tap_ok(false, "creating %s succeeds", path);
		return;
	}
	(void)close(fd);
	is_int(fattrs_probe_dir(AT_FDCWD, path, &p), -ENOTDIR, "a regular file gives -ENOTDIR");
	(void)unlink(path);
}

int main(void)
{
	if (!top_plan(top_make("probe"), 17))
		return 1;
	tap_run(test_probe__fresh_dir_supports_tmpfile());
	tap_run(test_probe__mnt_id_matches_statx());
	tap_run(test_probe__relative_to_dirfd());
	tap_run(test_probe__leaves_existing_files_alone());
	tap_run(test_probe__missing_dir_is_enoent());
	tap_run(test_probe__regular_file_is_enotdir());
	return top_done();
}
