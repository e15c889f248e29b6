/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Moving bytes from a descriptor into a file without holding them: splice(2)
 * from a pipe (grown to 1 MiB), copy_file_range(2) or sendfile(2) from a
 * regular file, and a read/write loop with a fixed buffer for anything else.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define CHUNK (1U << 30)		/* per copy_file_range/sendfile call */
#define PIPE_SIZE (1 << 20)		/* what the source pipe is grown to */
#define RW_BUFFER (128U * 1024)		/* the read/write fallback's buffer */

/* The errors that mean "this fast path is not available for these files". */
static bool no_fast_path(int err)
{
	return err == EINVAL || err == EXDEV || err == ENOSYS || err == EOPNOTSUPP ||
	       err == EBADF || err == ESPIPE;
}

static int write_all(int fd, const char *buf, size_t len, uint64_t *total)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return negerrno();
		}
		buf += w;
		len -= (size_t)w;
		*total += (uint64_t)w;
	}
	return 0;
}

static int copy_rw(int in, int out, uint64_t *total, int *ret_read_errno)
{
	char *buf = malloc(RW_BUFFER);
	int r = 0;

	if (buf == NULL)
		return -ENOMEM;
	for (;;) {
		ssize_t n = read(in, buf, RW_BUFFER);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			*ret_read_errno = errno;
			r = negerrno();
			break;
		}
		if (n == 0)
			break;
		r = write_all(out, buf, (size_t)n, total);
		if (r < 0)
			break;
	}
	free(buf);
	return r;
}

static int copy_splice(int in, int out, uint64_t *total, bool *ret_fallback)
{
	*ret_fallback = false;
	for (;;) {
		ssize_t n = splice(in, NULL, out, NULL, PIPE_SIZE, SPLICE_F_MOVE | SPLICE_F_MORE);

		if (n > 0) {
			*total += (uint64_t)n;
			continue;
		}
		if (n == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (*total == 0 && no_fast_path(errno)) {
			*ret_fallback = true;
			return 0;
		}
		return negerrno();
	}
}

static int copy_range(int in, int out, uint64_t *total, bool *ret_fallback)
{
	bool use_sendfile = false;

	*ret_fallback = false;
	for (;;) {
		ssize_t n = use_sendfile ? sendfile(out, in, NULL, CHUNK)
					 : copy_file_range(in, NULL, out, NULL, CHUNK, 0);

		if (n > 0) {
			*total += (uint64_t)n;
			continue;
		}
		if (n == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (!no_fast_path(errno))
			return negerrno();
		if (!use_sendfile) {
			use_sendfile = true;
			continue;
		}
		if (*total == 0) {
			*ret_fallback = true;
			return 0;
		}
		return negerrno();
	}
}

int fattrs_copy_fd(int in, int out, uint64_t *ret_bytes, int *ret_read_errno)
{
	struct stat st;
	uint64_t total = 0;
	bool fallback = true;
	int read_errno = 0;
	int r = 0;

	if (fstat(in, &st) < 0)
		return negerrno();
	if (S_ISFIFO(st.st_mode)) {
		/* Fewer, larger splices: the writer and we wake each other less. */
		(void)fcntl(in, F_SETPIPE_SZ, PIPE_SIZE);
		r = copy_splice(in, out, &total, &fallback);
	} else if (S_ISREG(st.st_mode)) {
		r = copy_range(in, out, &total, &fallback);
	}
	if (r == 0 && fallback)
		r = copy_rw(in, out, &total, &read_errno);
	if (r < 0) {
		if (ret_read_errno != NULL)
			*ret_read_errno = read_errno;
		return r;
	}
	if (ret_bytes != NULL)
		*ret_bytes = total;
	return 0;
}

int fattrs_content_equal(int a, int b)
{
	char *buf = malloc(2 * RW_BUFFER);
	off_t off = 0;
	int r = -ENOMEM;

	if (buf == NULL)
		return r;
	for (;;) {
		ssize_t na = pread(a, buf, RW_BUFFER, off);
		ssize_t nb = na < 0 ? -1 : pread(b, buf + RW_BUFFER, (size_t)na > 0 ? (size_t)na : 1, off);

		if (na < 0 || nb < 0) {
			r = negerrno();
			break;
		}
		if (na != nb || memcmp(buf, buf + RW_BUFFER, (size_t)na) != 0) {
			r = 0;
			break;
		}
		if (na == 0) {
			r = 1;
			break;
		}
		off += na;
	}
	free(buf);
	return r;
}
