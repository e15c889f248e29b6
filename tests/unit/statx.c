/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/fs/statx.c: statx(2) in the full layout, and stat(2) with the mount id. */
#include "config.h"

#include "fattrs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fixture.h"

/* The mount id /proc/self/fdinfo gives for @fd, 0 when it cannot be read. */
static uint64_t fdinfo_mnt_id(int fd)
{
	char path[64], line[256];
	uint64_t id = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL && sscanf(line, "mnt_id: %" SCNu64, &id) != 1)
		;
	(void)fclose(f);
	return id;
}

/* The process's umask. */
static mode_t umask_now(void)
{
	mode_t m = umask(0);

	(void)umask(m);
	return m;
}

static void test_statx__a_file(void)
{
	struct fattrs_statx_buf stx;
	int fd = openat(topfd, "five", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);

	tap_ok(fd >= 0 && write_str(fd, "12345"), "set-up: a file of five bytes");
	if (fd >= 0)
		(void)close(fd);
	is_int(fattrs_statx(topfd, "five", AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME, &stx), 0,
	       "statx of a file: 0");
	tap_ok(stx.stx_size == 5 && S_ISREG(stx.stx_mode) && (stx.stx_mode & 07777) == (0640 & ~umask_now()),
	       "... its size, type and mode");
	tap_ok((stx.stx_mask & STATX_BASIC_STATS) == STATX_BASIC_STATS, "... and the basic fields said filled in");
	is_int(fattrs_statx(topfd, "none", 0, STATX_BASIC_STATS, &stx), -ENOENT, "a name that is not there: -ENOENT");
}

static void test_stat_mnt__as_fstatat(void)
{
	const char *names[] = { "five", "/dev/null", "." };
	bool same = true;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct stat a, b;
		uint64_t id = 1;

		if (fattrs_stat_mnt(topfd, names[i], 0, &a, &id) < 0 || fstatat(topfd, names[i], &b, 0) < 0) {
			same = false;
			continue;
		}
		if (a.st_dev != b.st_dev || a.st_ino != b.st_ino || a.st_mode != b.st_mode || a.st_nlink != b.st_nlink ||
		    a.st_uid != b.st_uid || a.st_gid != b.st_gid || a.st_rdev != b.st_rdev || a.st_size != b.st_size ||
		    a.st_blocks != b.st_blocks || a.st_blksize != b.st_blksize ||
		    a.st_mtim.tv_sec != b.st_mtim.tv_sec || a.st_mtim.tv_nsec != b.st_mtim.tv_nsec ||
		    a.st_ctim.tv_sec != b.st_ctim.tv_sec || a.st_ctim.tv_nsec != b.st_ctim.tv_nsec ||
		    a.st_atim.tv_sec != b.st_atim.tv_sec) {
			printf("# %s: differs from fstatat(2)\n", names[i]);
			same = false;
		}
	}
	tap_ok(same, "a file, a device and a directory: every field as fstatat(2) has it");
}

static void test_stat_mnt__mount_id_and_links(void)
{
	struct stat st;
	uint64_t id = 0;
	int fd = openat(topfd, "five", O_RDONLY | O_CLOEXEC);
	uint64_t want = fd >= 0 ? fdinfo_mnt_id(fd) : 0;

	if (fd >= 0)
		(void)close(fd);
	must(symlinkat("five", topfd, "link"));
	is_int(fattrs_stat_mnt(topfd, "five", 0, &st, &id), 0, "stat with the mount id: 0");
	if (want != 0)
		tap_ok(id == want, "... the mount id is the file's (/proc/self/fdinfo: %" PRIu64 ")", want);
	else
		tap_skip("no mount id in /proc/self/fdinfo to compare with");
	tap_ok(fattrs_stat_mnt(topfd, "link", AT_SYMLINK_NOFOLLOW, &st, &id) == 0 && S_ISLNK(st.st_mode),
	       "AT_SYMLINK_NOFOLLOW: the link itself");
	tap_ok(fattrs_stat_mnt(topfd, "link", 0, &st, &id) == 0 && S_ISREG(st.st_mode) && st.st_size == 5,
	       "without it: the file it leads to");
	tap_ok(fattrs_stat_mnt(topfd, "five", AT_STATX_FORCE_SYNC, &st, &id) == 0 && st.st_size == 5,
	       "AT_STATX_FORCE_SYNC is passed on");
	errno = 0;
	id = 7;
	tap_ok(fattrs_stat_mnt(topfd, "none", 0, &st, &id) == -1 && errno == ENOENT && id == 0,
	       "a name that is not there: -1, errno ENOENT, mount id 0");
}

int main(void)
{
	if (!top_plan(top_make("statx"), 12))
		return 1;
	tap_run(test_statx__a_file());
	tap_run(test_stat_mnt__as_fstatat());
	tap_run(test_stat_mnt__mount_id_and_links());
	return top_done();
}
