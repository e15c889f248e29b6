/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmp-loop: the floor for temp-file creation, for bench/tmpcreate.sh.
 * A bare loop of the syscalls a named temporary file needs, nothing else:
 *
 *   tmp-loop MODE DIR N [IGNORED]...
 *
 * MODE
 *   empty  openat(DIR, O_TMPFILE) + linkat(fd, "", DIR, name, AT_EMPTY_PATH) + close
 *   proc   openat(DIR, O_TMPFILE) + linkat(AT_FDCWD, "/proc/self/fd/N", DIR, name,
 *          AT_SYMLINK_FOLLOW) + close
 *   excl   openat(DIR, name, O_CREAT|O_EXCL|O_NOFOLLOW) + close  (what --method=named does)
 *
 * N files are made in DIR, in one process, so start-up is amortised; with N=1
 * it is the smallest program that makes one file the O_TMPFILE way, to set
 * beside tmpcreate and mktemp(1) one process per file.  Arguments after N are
 * ignored, so that `xargs -n1 tmp-loop empty DIR 1 <templates` works.
 *
 * Names are "tmp." + 10 characters of [A-Za-z0-9] (mktemp's default template)
 * from a xorshift generator seeded once by getrandom(2); EEXIST retries with a
 * new name.  Files get mode 0600 and stay in DIR: the caller cleans up.
 * Prints nothing on success; on failure it names the step and the errno.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#ifndef O_TMPFILE
#error "O_TMPFILE is needed (Linux >= 3.11, glibc >= 2.19)"
#endif

static uint64_t state;

static void random_name(char name[15])
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

	memcpy(name, "tmp.", 4);
	for (int i = 0; i < 10; i++) {
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		name[4 + i] = alphabet[state % (sizeof(alphabet) - 1)];
	}
	name[14] = '\0';
}

static int fail(const char *what)
{
	fprintf(stderr, "tmp-loop: %s: %s\n", what, strerror(errno));
	return 1;
}

enum mode { MODE_EMPTY, MODE_PROC, MODE_EXCL };

int main(int argc, char **argv)
{
	enum mode mode;
	char *end;

	if (argc < 4) {
		fprintf(stderr, "usage: tmp-loop empty|proc|excl DIR N [IGNORED]...\n");
		return 2;
	}
	if (strcmp(argv[1], "empty") == 0)
		mode = MODE_EMPTY;
	else if (strcmp(argv[1], "proc") == 0)
		mode = MODE_PROC;
	else if (strcmp(argv[1], "excl") == 0)
		mode = MODE_EXCL;
	else {
		fprintf(stderr, "tmp-loop: unknown mode '%s' (empty, proc, excl)\n", argv[1]);
		return 2;
	}
	errno = 0;
	long n = strtol(argv[3], &end, 10);
	if (errno != 0 || *end != '\0' || n < 0) {
		fprintf(stderr, "tmp-loop: bad count '%s'\n", argv[3]);
		return 2;
	}
	if (getrandom(&state, sizeof(state), 0) != (ssize_t)sizeof(state) || state == 0)
		state = 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();

	int dfd = open(argv[2], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return fail(argv[2]);

	char name[15], proc[32];
	for (long i = 0; i < n; i++) {
		int fd, r;

		if (mode == MODE_EXCL) {
			do {
				random_name(name);
				fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
			} while (fd < 0 && errno == EEXIST);
			if (fd < 0)
				return fail("openat O_CREAT|O_EXCL");
			close(fd);
			continue;
		}
		fd = openat(dfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0)
			return fail("openat O_TMPFILE");
		if (mode == MODE_PROC)
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		do {
			random_name(name);
			r = mode == MODE_EMPTY ? linkat(fd, "", dfd, name, AT_EMPTY_PATH)
					       : linkat(AT_FDCWD, proc, dfd, name, AT_SYMLINK_FOLLOW);
		} while (r < 0 && errno == EEXIST);
		if (r < 0)
			return fail(mode == MODE_EMPTY ? "linkat AT_EMPTY_PATH" : "linkat /proc/self/fd");
		close(fd);
	}
	return 0;
}
