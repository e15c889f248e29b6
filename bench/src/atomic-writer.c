/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomic-writer: the floor for `tmpcreate -o FILE`, for bench/atomic-output.sh.
 * A bare atomic replace of FILE by standard input, with nothing else around it:
 *
 *   atomic-writer [-s none|data|full] [-m auto|rw] [-v] FILE
 *
 * 1. openat(FILE's directory, ".", O_TMPFILE | O_WRONLY): an unnamed file on
 *    FILE's filesystem.
 * 2. Copy standard input into it:
 *      -m auto (default)
 *        regular file: copy_file_range(); if the kernel refuses before the first
 *                      byte (EXDEV across filesystems, EINVAL, EOPNOTSUPP...),
 *                      sendfile()
 *        pipe:         splice(), after growing the pipe to 1 MiB (F_SETPIPE_SZ;
 *                      ignored if refused): fewer writer/reader wake-ups
 *        otherwise, or when those refuse before the first byte: read()/write()
 *      -m rw    always read()/write() with a 128 KiB buffer
 * 3. -s none  no fsync
 *    -s data  fsync(file) before it gets a name
 *    -s full  that, and fsync(directory) after the rename (the default, and
 *             tmpcreate's default: the new contents and the new name are both
 *             durable when it exits)
 * 4. When FILE exists, its mode is copied (fchmod; fchown too when the owner
 *    differs), the file is linked to a hidden random name (".FILE.XXXXXXXX")
 *    and renamed over FILE; otherwise it is linked to FILE directly.
 *    linkat(fd, "", AT_EMPTY_PATH) first, linkat("/proc/self/fd/N",
 *    AT_SYMLINK_FOLLOW) when that is not allowed.
 *
 * -v says on stderr how many bytes, which copy and link methods were used.
 * On failure nothing is published, FILE is untouched, and it exits 1.
 * It keeps no xattrs and takes no options beyond these: it is the cost of the
 * syscalls an atomic durable replace cannot do without.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_TMPFILE
#error "O_TMPFILE is needed (Linux >= 3.11, glibc >= 2.19)"
#endif

#define BIG (1L << 30) /* bytes asked for per copy call: "as much as there is" */
#define PIPE_SIZE (1 << 20)

static const char *target;

static int fail(const char *what)
{
	fprintf(stderr, "atomic-writer: %s '%s': %s\n", what, target, strerror(errno));
	return 1;
}

static int refused(int e)
{
	return e == EXDEV || e == EINVAL || e == EOPNOTSUPP || e == ENOSYS || e == EBADF;
}

static int copy_rw(int in, int out, long long *total)
{
	static char buf[128 << 10];
	for (;;) {
		ssize_t n = read(in, buf, sizeof buf);
		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (ssize_t o = 0; o < n;) {
			ssize_t w = write(out, buf + o, (size_t)(n - o));
			if (w < 0) {
				if (errno == EINTR)
					continue;
				return -1;
			}
			o += w;
		}
		*total += n;
	}
}

/* 1 done, 0 refused before the first byte (fall back), -1 error */
static int copy_fast(int in, int out, const struct stat *st, long long *total, const char **how)
{
	ssize_t n;
	if (S_ISREG(st->st_mode)) {
		*how = "copy_file_range";
		while ((n = copy_file_range(in, NULL, out, NULL, BIG, 0)) > 0)
			*total += n;
		if (n == 0)
			return 1;
		if (*total != 0 || !refused(errno))
			return -1;
		*how = "sendfile";
		while ((n = sendfile(out, in, NULL, BIG)) > 0)
			*total += n;
		if (n == 0)
			return 1;
		return (*total != 0 || !refused(errno)) ? -1 : 0;
	}
	if (S_ISFIFO(st->st_mode)) {
		*how = "splice";
		(void)fcntl(in, F_SETPIPE_SZ, PIPE_SIZE);
		while ((n = splice(in, NULL, out, NULL, BIG, SPLICE_F_MOVE | SPLICE_F_MORE)) > 0)
			*total += n;
		if (n == 0)
			return 1;
		return (*total != 0 || !refused(errno)) ? -1 : 0;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *sync = "full", *method = "auto";
	int verbose = 0, opt;
	while ((opt = getopt(argc, argv, "s:m:v")) != -1) {
		switch (opt) {
		case 's': sync = optarg; break;
		case 'm': method = optarg; break;
		case 'v': verbose = 1; break;
		default: goto usage;
		}
	}
	if (optind + 1 != argc || (strcmp(sync, "none") && strcmp(sync, "data") && strcmp(sync, "full")) ||
	    (strcmp(method, "auto") && strcmp(method, "rw"))) {
usage:
		fprintf(stderr, "usage: atomic-writer [-s none|data|full] [-m auto|rw] [-v] FILE\n");
		return 2;
	}
	target = argv[optind];
	char *d = strdup(target), *b = strdup(target);
	if (!d || !b)
		return fail("out of memory for");
	const char *dir = dirname(d), *base = basename(b);

	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return fail("cannot open the directory of");
	int fd = openat(dfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	if (fd < 0)
		return fail("cannot make an O_TMPFILE for");

	long long total = 0;
	const char *how = "read/write";
	struct stat in;
	if (fstat(0, &in) < 0)
		return fail("cannot fstat standard input for");
	int done = 0;
	if (strcmp(method, "auto") == 0) {
		done = copy_fast(0, fd, &in, &total, &how);
		if (done < 0)
			return fail("cannot copy standard input to");
		if (!done && strcmp(how, "read/write") != 0)
			how = "read/write (fallback)";
	}
	if (!done && copy_rw(0, fd, &total) < 0)
		return fail("cannot copy standard input to");
	if (strcmp(sync, "none") != 0 && fsync(fd) < 0)
		return fail("cannot fsync the new");

	struct stat old, cur;
	int exists = fstatat(dfd, base, &old, 0) == 0;
	if (exists) {
		if (fchmod(fd, old.st_mode & 07777) < 0)
			return fail("cannot set the mode of the new");
		if (fstat(fd, &cur) == 0 && (cur.st_uid != old.st_uid || cur.st_gid != old.st_gid))
			(void)fchown(fd, old.st_uid, old.st_gid); /* best effort, as a non-root writer would */
	}

	char proc[32], hidden[300];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	const char *linkhow = "AT_EMPTY_PATH", *name = base;
	for (int tries = 0;; tries++) {
		if (exists) {
			uint32_t r;
			if (getrandom(&r, sizeof r, 0) != sizeof r)
				r = (uint32_t)getpid() * 2654435761u + (uint32_t)tries;
			snprintf(hidden, sizeof hidden, ".%.200s.%08x", base, r);
			name = hidden;
		}
		int rc = linkat(fd, "", dfd, name, AT_EMPTY_PATH);
		if (rc < 0 && (errno == ENOENT || errno == EPERM || errno == EINVAL)) {
			linkhow = "/proc/self/fd";
			rc = linkat(AT_FDCWD, proc, dfd, name, AT_SYMLINK_FOLLOW);
		}
		if (rc == 0)
			break;
		if (errno != EEXIST || tries > 100)
			return fail("cannot link the new");
		exists = 1; /* FILE appeared meanwhile, or the hidden name is taken: go via rename */
	}
	if (exists && renameat(dfd, name, dfd, base) < 0) {
		int e = errno;
		unlinkat(dfd, name, 0);
		errno = e;
		return fail("cannot rename over");
	}
	if (strcmp(sync, "full") == 0 && fsync(dfd) < 0)
		return fail("cannot fsync the directory of");
	if (verbose)
		fprintf(stderr, "atomic-writer: %lld bytes, copy: %s, link: %s, %s, sync: %s\n", total, how,
			linkhow, exists ? "renamed over FILE" : "new name", sync);
	return 0;
}
