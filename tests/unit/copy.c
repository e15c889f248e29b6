/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/copy.c: copying a descriptor's bytes and comparing two files. */
#include "config.h"

#include "fattrs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "fixture.h"

#define KiB 1024UL
#define MiB (1024UL * 1024)
#define RW_BUFFER (128 * KiB)	/* copy.c's read/write buffer: sizes around it matter */
#define UNTOUCHED UINT64_MAX	/* what an out-parameter holds if it was not written */

/* ------------------------------------------------------------- helpers */

/* The test bytes: position @i of a long, non-repeating-looking pattern. */
static unsigned char pat(uint64_t i)
{
	return (unsigned char)(i * 131 + (i >> 13) * 7 + 1);
}

static void pat_fill(unsigned char *buf, uint64_t from, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = pat(from + i);
}

/* Write pattern bytes [@from, @from + @len) to @fd at its current position. */
static bool write_pattern(int fd, uint64_t from, uint64_t len)
{
	unsigned char buf[65536];

	while (len > 0) {
		size_t n = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		size_t done = 0;

		pat_fill(buf, from, n);
		while (done < n) {
			ssize_t w = write(fd, buf + done, n - done);

			if (w < 0) {
				if (errno == EINTR)
					continue;
				return false;
			}
			done += (size_t)w;
		}
		from += n;
		len -= n;
	}
	return true;
}

/* Whether @fd's bytes from @off to its end are pattern bytes [@from, @from + @len). */
static bool has_pattern(int fd, off_t off, uint64_t from, uint64_t len)
{
	unsigned char got[65536], want[65536];
	struct stat st;

	if (fstat(fd, &st) < 0 || (uint64_t)st.st_size != (uint64_t)off + len)
		return false;
	while (len > 0) {
		size_t n = len < sizeof(got) ? (size_t)len : sizeof(got);
		ssize_t r = pread(fd, got, n, off);

		if (r <= 0)
			return false;
		pat_fill(want, from, (size_t)r);
		if (memcmp(got, want, (size_t)r) != 0)
			return false;
		off += r;
		from += (uint64_t)r;
		len -= (uint64_t)r;
	}
	return true;
}

/* Create @name in the test directory holding pattern bytes [@from, @from + @len). */
static int make_file(const char *name, uint64_t from, uint64_t len, int flags)
{
	int fd = openat(topfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	if (!write_pattern(fd, from, len)) {
		(void)close(fd);
		return -1;
	}
	(void)close(fd);
	return openat(topfd, name, flags | O_CLOEXEC);
}

/* A child that writes @len pattern bytes into @wfd and exits; @rfd is closed in it. */
static pid_t writer_start(int wfd, int rfd, uint64_t len)
{
	pid_t pid = fork();

	if (pid == 0) {
		(void)close(rfd);
		_exit(write_pattern(wfd, 0, len) ? 0 : 1);
	}
	return pid;
}

static bool writer_ok(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static off_t offset_of(int fd)
{
	return lseek(fd, 0, SEEK_CUR);
}

/* @len pattern bytes written by another process into a pipe (or an AF_UNIX
 * stream socket), copied with @flags into a new "dst": fattrs_copy_fd()
 * succeeds, counts them all, and "dst" holds exactly them.  @what says
 * what is copied ("3 MiB from a pipe fed by another process"), @pfx what
 * kind of copy it is ("", "flushing: "). */
static void copy_from_writer(bool socket, uint64_t len, unsigned flags, const char *pfx,
			     const char *what)
{
	uint64_t bytes = UNTOUCHED;
	int fds[2], out, r = -1;
	pid_t pid = -1;

	out = openat(topfd, "dst", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (socket ? socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0
		   : pipe2(fds, O_CLOEXEC) == 0) {
		pid = writer_start(fds[1], fds[0], len);
		(void)close(fds[1]);
		r = fattrs_copy_fd(fds[0], out, flags, &bytes, NULL);
		(void)close(fds[0]);
	}
	is_int(r, 0, "%s%s", pfx, what);
	is_int(bytes, len, "%sall of them are counted", pfx);
	tap_ok(has_pattern(out, 0, 0, len), "%sthe file holds exactly those bytes, in order", pfx);
	tap_ok(writer_ok(pid), "%sthe writer could write everything", pfx);
	if (out >= 0)
		(void)close(out);
	left_only("dst", NULL);
}

/* ------------------------------------------------------------ copying */

static void test_copy__from_pipe(void)
{
	copy_from_writer(false, 3 * MiB, 0, "", "3 MiB from a pipe fed by another process are copied");
}

static void test_copy__from_regular_file(void)
{
	const uint64_t len = MiB + 17;
	uint64_t bytes = UNTOUCHED;
	int in = make_file("src", 0, len, O_RDONLY);
	int out = openat(topfd, "dst", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int r = fattrs_copy_fd(in, out, 0, &bytes, NULL);

	is_int(r, 0, "a regular file is copied");
	is_int(bytes, len, "all its bytes are counted");
	tap_ok(has_pattern(out, 0, 0, len), "the copy holds the same bytes");
	is_int(offset_of(out), (off_t)len, "the destination's offset is past what was written");
	is_int(offset_of(in), (off_t)len, "the source's offset is at its end");
	(void)close(in);
	(void)close(out);
	left_only("src", "dst", NULL);
}

static void test_copy__from_current_offset(void)
{
	const uint64_t len = 300000, skip = 1000;
	uint64_t bytes = UNTOUCHED;
	char head[5] = "";
	int in = make_file("src", 0, len, O_RDONLY);
	int out = openat(topfd, "dst", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int r = -1;

	if (in >= 0 && out >= 0 && lseek(in, (off_t)skip, SEEK_SET) == (off_t)skip &&
	    write(out, "HEAD", 4) == 4)
		r = fattrs_copy_fd(in, out, 0, &bytes, NULL);
	is_int(r, 0, "a file read from an offset is copied");
	is_int(bytes, len - skip, "only what is after the source's offset is counted");
	tap_ok(has_pattern(out, 4, skip, len - skip),
	       "the rest of the source lands at the destination's offset");
	tap_ok(pread(out, head, 4, 0) == 4 && strcmp(head, "HEAD") == 0,
	       "what the destination had before its offset is kept");
	(void)close(in);
	(void)close(out);
	left_only("src", "dst", NULL);
}

static void test_copy__from_socket(void)
{
	copy_from_writer(true, MiB + 5, 0, "",
			 "a socket (neither pipe nor file) is copied by reading and writing");
}

static void test_copy__into_append_file(void)
{
	const uint64_t len = 200000;
	uint64_t bytes = UNTOUCHED;
	char head[5] = "";
	int in = make_file("src", 0, len, O_RDONLY);
	int out = openat(topfd, "dst", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int r = -1;

	/* copy_file_range(2) and sendfile(2) refuse O_APPEND: the fallback must take over. */
	if (out >= 0 && write(out, "HEAD", 4) == 4) {
		(void)close(out);
		out = openat(topfd, "dst", O_WRONLY | O_APPEND | O_CLOEXEC);
		r = fattrs_copy_fd(in, out, 0, &bytes, NULL);
	}
	is_int(r, 0, "a file is copied to one opened O_APPEND");
	is_int(bytes, len, "all its bytes are counted");
	if (out >= 0)
		(void)close(out);
	out = openat(topfd, "dst", O_RDONLY | O_CLOEXEC);
	tap_ok(has_pattern(out, 4, 0, len), "they are appended");
	tap_ok(pread(out, head, 4, 0) == 4 && strcmp(head, "HEAD") == 0,
	       "what the file had is kept");
	(void)close(in);
	if (out >= 0)
		(void)close(out);
	left_only("src", "dst", NULL);
}

static void test_copy__pipe_into_append_file(void)
{
	const uint64_t len = 300000;	/* more than a pipe holds */
	uint64_t bytes = UNTOUCHED;
	int out = make_file("dst", 0, 0, O_WRONLY | O_APPEND);
	int p[2], r = -1;
	pid_t pid = -1;

	/* splice(2) refuses O_APPEND too. */
	if (out >= 0 && write(out, "HEAD", 4) == 4 && pipe2(p, O_CLOEXEC) == 0) {
		pid = writer_start(p[1], p[0], len);
		(void)close(p[1]);
		r = fattrs_copy_fd(p[0], out, 0, &bytes, NULL);
		(void)close(p[0]);
	}
	is_int(r, 0, "a pipe is copied to a file opened O_APPEND");
	is_int(bytes, len, "all its bytes are counted");
	tap_ok(writer_ok(pid), "the writer could write everything");
	if (out >= 0)
		(void)close(out);
	out = openat(topfd, "dst", O_RDONLY | O_CLOEXEC);
	tap_ok(has_pattern(out, 4, 0, len), "they are appended");
	if (out >= 0)
		(void)close(out);
	left_only("dst", NULL);
}

static void test_copy__into_pipe(void)
{
	const uint64_t len = 10000;	/* fits in a pipe's buffer */
	unsigned char buf[2 * 10000];
	uint64_t bytes = UNTOUCHED;
	int in = make_file("src", 0, len, O_RDONLY);
	int p[2], r = -1;
	ssize_t n = -1;

	if (pipe2(p, O_CLOEXEC) == 0) {
		r = fattrs_copy_fd(in, p[1], 0, &bytes, NULL);
		(void)close(p[1]);
		n = read(p[0], buf, sizeof(buf));
		(void)close(p[0]);
	}
	is_int(r, 0, "a file is copied into a pipe");
	is_int(bytes, len, "all its bytes are counted");
	is_int(n, (ssize_t)len, "the reader gets as many");
	pat_fill(buf + len, 0, len);
	tap_ok(n > 0 && memcmp(buf, buf + len, len) == 0, "and the same bytes");
	(void)close(in);
	left_only("src", NULL);
}

/*
 * FATTRS_COPY_FLUSH: the copy is made in 8 MiB steps, each sent to the disk
 * and waited for two steps later.  Sizes past several steps and not a
 * multiple of one, from each kind of source, at a destination offset that is
 * not 0: the bytes must be the same as without it.
 */
#define FLUSH_LEN (3 * 8 * MiB + 12345)

static void test_copy_flush__from_regular_file(void)
{
	uint64_t bytes = UNTOUCHED;
	int in = make_file("src", 0, FLUSH_LEN, O_RDONLY);
	int out = make_file("dst", 0, 5, O_RDWR);
	int r = -1;

	if (out >= 0 && lseek(out, 5, SEEK_SET) == 5)
		r = fattrs_copy_fd(in, out, FATTRS_COPY_FLUSH, &bytes, NULL);
	is_int(r, 0, "flushing: a 24 MiB file is copied after 5 bytes already there");
	is_int(bytes, FLUSH_LEN, "flushing: all its bytes are counted");
	tap_ok(out >= 0 && has_pattern(out, 5, 0, FLUSH_LEN), "flushing: the copy holds the same bytes");
	is_int(offset_of(out), (off_t)(5 + FLUSH_LEN), "flushing: the offset is past what was written");
	(void)close(in);
	if (out >= 0)
		(void)close(out);
	left_only("src", "dst", NULL);
}

static void test_copy_flush__from_pipe(void)
{
	copy_from_writer(false, FLUSH_LEN, FATTRS_COPY_FLUSH, "flushing: ", "24 MiB from a pipe are copied");
}

static void test_copy_flush__from_socket(void)
{
	copy_from_writer(true, FLUSH_LEN, FATTRS_COPY_FLUSH, "flushing: ",
			 "24 MiB from a socket (read/write) are copied");
}

/* Where flushing cannot be done (a pipe, O_APPEND), the flag changes nothing. */
static void test_copy_flush__where_it_cannot(void)
{
	uint64_t bytes = UNTOUCHED;
	int in = make_file("src", 0, FLUSH_LEN, O_RDONLY);
	int out = make_file("dst", 0, 4, O_WRONLY | O_APPEND);
	int p[2], r = -1;
	pid_t pid = -1;

	is_int(fattrs_copy_fd(in, out, FATTRS_COPY_FLUSH, &bytes, NULL), 0,
	       "flushing into an O_APPEND file: copied");
	is_int(bytes, FLUSH_LEN, "flushing into an O_APPEND file: all bytes counted");
	if (out >= 0)
		(void)close(out);
	out = openat(topfd, "dst", O_RDONLY | O_CLOEXEC);
	tap_ok(out >= 0 && has_pattern(out, 4, 0, FLUSH_LEN), "flushing into an O_APPEND file: appended");
	if (out >= 0)
		(void)close(out);

	/* Into a pipe: a reader drains it and checks every byte. */
	(void)lseek(in, 0, SEEK_SET);
	bytes = UNTOUCHED;
	if (pipe2(p, O_CLOEXEC) == 0) {
		pid = fork();
		if (pid == 0) {
			unsigned char got[65536], want[65536];
			uint64_t at = 0;
			ssize_t n;

			(void)close(p[1]);
			while ((n = read(p[0], got, sizeof(got))) > 0) {
				pat_fill(want, at, (size_t)n);
				if (memcmp(got, want, (size_t)n) != 0)
					_exit(2);
				at += (uint64_t)n;
			}
			_exit(n == 0 && at == FLUSH_LEN ? 0 : 1);
		}
		(void)close(p[0]);
		r = fattrs_copy_fd(in, p[1], FATTRS_COPY_FLUSH, &bytes, NULL);
		(void)close(p[1]);
	}
	is_int(r, 0, "flushing into a pipe: copied");
	is_int(bytes, FLUSH_LEN, "flushing into a pipe: all bytes counted");
	tap_ok(writer_ok(pid), "flushing into a pipe: the reader got exactly those bytes");
	(void)close(in);
	left_only("src", "dst", NULL);
}

static void test_copy__empty_sources(void)
{
	uint64_t bytes = UNTOUCHED;
	int in = make_file("src", 0, 0, O_RDONLY);
	int out = openat(topfd, "dst", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int p[2], r;

	is_int(fattrs_copy_fd(in, out, 0, &bytes, NULL), 0, "an empty file is copied");
	is_int(bytes, 0, "as 0 bytes");
	bytes = UNTOUCHED;
	r = -1;
	if (pipe2(p, O_CLOEXEC) == 0) {
		(void)close(p[1]);
		r = fattrs_copy_fd(p[0], out, 0, &bytes, NULL);
		(void)close(p[0]);
	}
	is_int(r, 0, "a pipe closed without data is copied");
	is_int(bytes, 0, "as 0 bytes");
	tap_ok(has_pattern(out, 0, 0, 0), "the destination stays empty");
	(void)close(in);
	(void)close(out);
	left_only("src", "dst", NULL);
}

static void test_copy__null_out_params(void)
{
	const uint64_t len = 4 * KiB;
	int in = make_file("src", 0, len, O_RDONLY);
	int out = openat(topfd, "dst", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	is_int(fattrs_copy_fd(in, out, 0, NULL, NULL), 0, "the out-parameters may be NULL");
	tap_ok(has_pattern(out, 0, 0, len), "the bytes are copied all the same");
	(void)close(in);
	(void)close(out);
	left_only("src", "dst", NULL);
}

static void test_copy__write_error_is_not_a_read_error(void)
{
	uint64_t bytes = UNTOUCHED;
	int read_errno = -1;
	int in = make_file("src", 0, 1000, O_RDONLY);
	int out = make_file("dst", 0, 0, O_RDONLY);
	int p[2], r = -1;

	is_int(fattrs_copy_fd(in, out, 0, &bytes, &read_errno), -EBADF,
	       "copying a file into a read-only descriptor fails with -EBADF");
	is_int(read_errno, 0, "it is not a read error");
	is_int(bytes, UNTOUCHED, "no count is given");
	read_errno = -1;
	if (pipe2(p, O_CLOEXEC) == 0) {
		if (write(p[1], "data", 4) == 4)
			r = 0;
		(void)close(p[1]);
		r = r == 0 ? fattrs_copy_fd(p[0], out, 0, NULL, &read_errno) : -1;
		(void)close(p[0]);
	}
	is_int(r, -EBADF, "copying a pipe into a read-only descriptor fails with -EBADF");
	is_int(read_errno, 0, "it is not a read error either");
	tap_ok(has_pattern(out, 0, 0, 0), "the destination stays empty");
	(void)close(in);
	(void)close(out);
	left_only("src", "dst", NULL);
}

static void test_copy__read_error(void)
{
	uint64_t bytes = UNTOUCHED;
	int read_errno = -1;
	int in = openat(topfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int out = openat(topfd, "dst", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int wo;

	is_int(fattrs_copy_fd(in, out, 0, &bytes, &read_errno), -EISDIR,
	       "copying from a directory fails with -EISDIR");
	is_int(read_errno, EISDIR, "as a read error (EISDIR)");
	is_int(bytes, UNTOUCHED, "no count is given");
	(void)close(in);
	read_errno = -1;
	wo = make_file("src", 0, 1000, O_WRONLY);
	is_int(fattrs_copy_fd(wo, out, 0, NULL, &read_errno), -EBADF,
	       "copying from a write-only file fails with -EBADF");
	is_int(read_errno, EBADF, "as a read error (EBADF)");
	tap_ok(has_pattern(out, 0, 0, 0), "the destination stays empty");
	(void)close(wo);
	(void)close(out);
	left_only("src", "dst", NULL);
}

/* ------------------------------------------------------- comparing */

/* Two files "a" and "b" of pattern bytes, @len_a and @len_b long, byte @flip of "b" changed. */
static int compare(uint64_t len_a, uint64_t len_b, int64_t flip)
{
	int a = make_file("a", 0, len_a, O_RDWR);
	int b = make_file("b", 0, len_b, O_RDWR);
	int r = -1000;

	if (a >= 0 && b >= 0) {
		unsigned char c = (unsigned char)~pat((uint64_t)flip);

		if (flip < 0 || pwrite(b, &c, 1, (off_t)flip) == 1)
			r = fattrs_content_equal(a, b);
	}
	if (a >= 0)
		(void)close(a);
	if (b >= 0)
		(void)close(b);
	(void)unlinkat(topfd, "a", 0);
	(void)unlinkat(topfd, "b", 0);
	return r;
}

static void test_content_equal__equal(void)
{
	is_int(compare(300000, 300000, -1), 1, "files with the same 300000 bytes are equal");
	is_int(compare(2 * RW_BUFFER, 2 * RW_BUFFER, -1), 1,
	       "files of exactly two buffers' worth are equal");
	is_int(compare(1, 1, -1), 1, "files of one same byte are equal");
	nothing_left();
}

static void test_content_equal__different_bytes(void)
{
	is_int(compare(300000, 300000, 300000 - 1), 0, "files differing in the last byte are not equal");
	is_int(compare(300000, 300000, 0), 0, "files differing in the first byte are not equal");
	is_int(compare(300000, 300000, RW_BUFFER), 0,
	       "files differing in the first byte of the second buffer are not equal");
	nothing_left();
}

static void test_content_equal__different_lengths(void)
{
	is_int(compare(300000, 300001, -1), 0, "a file is not equal to a longer one it starts");
	is_int(compare(300001, 300000, -1), 0, "a file is not equal to a shorter one it starts with");
	is_int(compare(RW_BUFFER, RW_BUFFER + 1, -1), 0,
	       "a file of one buffer is not equal to one a byte longer");
	is_int(compare(RW_BUFFER + 1, RW_BUFFER, -1), 0,
	       "a file a byte longer than a buffer is not equal to one of a buffer");
	nothing_left();
}

static void test_content_equal__empty_files(void)
{
	is_int(compare(0, 0, -1), 1, "two empty files are equal");
	is_int(compare(0, 1, -1), 0, "an empty file is not equal to a one-byte file");
	is_int(compare(1, 0, -1), 0, "a one-byte file is not equal to an empty file");
	nothing_left();
}

static void test_content_equal__from_offset_zero(void)
{
	int a = make_file("a", 0, 5000, O_RDONLY);
	int b = make_file("b", 0, 5000, O_RDONLY);

	(void)lseek(a, 0, SEEK_END);
	(void)lseek(b, 100, SEEK_SET);
	is_int(fattrs_content_equal(a, b), 1, "the files' offsets do not matter");
	is_int(offset_of(b), 100, "and are left where they were");
	(void)close(a);
	(void)close(b);
	left_only("a", "b", NULL);
}

static void test_content_equal__errors(void)
{
	int f = make_file("f", 0, 10, O_RDONLY);
	int wo = openat(topfd, "f", O_WRONLY | O_CLOEXEC);
	int dir = openat(topfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int p[2];

	is_int(fattrs_content_equal(dir, f), -EISDIR, "a directory as the first file gives -EISDIR");
	is_int(fattrs_content_equal(f, dir), -EISDIR, "a directory as the second file gives -EISDIR");
	is_int(fattrs_content_equal(f, wo), -EBADF, "a write-only descriptor gives -EBADF");
	if (pipe2(p, O_CLOEXEC) == 0) {
		is_int(fattrs_content_equal(p[0], f), -ESPIPE, "a pipe gives -ESPIPE");
		(void)close(p[0]);
		(void)close(p[1]);
	} else {
		tap_skip("no pipe");
	}
	(void)close(f);
	(void)close(wo);
	(void)close(dir);
	left_only("f", NULL);
}

int main(void)
{
	if (!top_plan(top_make("copy"), 106))
		return 1;
	tap_run(test_copy__from_pipe());
	tap_run(test_copy__from_regular_file());
	tap_run(test_copy__from_current_offset());
	tap_run(test_copy__from_socket());
	tap_run(test_copy__into_append_file());
	tap_run(test_copy__pipe_into_append_file());
	tap_run(test_copy__into_pipe());
	tap_run(test_copy_flush__from_regular_file());
	tap_run(test_copy_flush__from_pipe());
	tap_run(test_copy_flush__from_socket());
	tap_run(test_copy_flush__where_it_cannot());
	tap_run(test_copy__empty_sources());
	tap_run(test_copy__null_out_params());
	tap_run(test_copy__write_error_is_not_a_read_error());
	tap_run(test_copy__read_error());
	tap_run(test_content_equal__equal());
	tap_run(test_content_equal__different_bytes());
	tap_run(test_content_equal__different_lengths());
	tap_run(test_content_equal__empty_files());
	tap_run(test_content_equal__from_offset_zero());
	tap_run(test_content_equal__errors());
	return top_done();
}
