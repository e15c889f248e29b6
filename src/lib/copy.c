/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Moving bytes from a descriptor into a file without holding them: splice(2),
 * copy_file_range(2) or sendfile(2) where the kernel allows, else read/write (doc/design.md §4).
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
#define FLUSH_STEP ((off_t)8 << 20)	/* start writeback every 8 MiB... */
#define FLUSH_LAG 2			/* ...and wait for the step this far behind */

/* The errors that mean "this fast path is not available for these files". */
static bool no_fast_path(int err)
{
	return err == EINVAL || err == EXDEV || err == ENOSYS || err == EOPNOTSUPP ||
	       err == EBADF || err == ESPIPE;
}

/* Write-behind state (FATTRS_COPY_FLUSH): offsets are relative to @base. */
struct flusher {
	int fd;
	enum { FLUSH_OFF, FLUSH_UNCHECKED, FLUSH_ON } state;
	off_t base;	/* @fd's offset when the copy began */
	off_t started;	/* bytes handed to writeback */
	off_t waited;	/* bytes known to be on disk */
};

static void flusher_init(struct flusher *f, int fd, unsigned flags)
{
	*f = (struct flusher){ .fd = fd,
			       .state = (flags & FATTRS_COPY_FLUSH) ? FLUSH_UNCHECKED : FLUSH_OFF };
}

/*
 * Whether @f's descriptor can be flushed by range, checked when the first
 * step is full (small copies pay nothing): not a pipe or socket (no offset),
 * and not O_APPEND (writes land at the end, not at the offset).
 */
static bool flusher_check(struct flusher *f, uint64_t total)
{
	int fl = fcntl(f->fd, F_GETFL);
	off_t cur = lseek(f->fd, 0, SEEK_CUR);

	f->state = fl >= 0 && !(fl & O_APPEND) && cur >= (off_t)total ? FLUSH_ON : FLUSH_OFF;
	f->base = cur - (off_t)total;
	return f->state == FLUSH_ON;
}

/*
 * Called as the copy advances: start writeback of each full step, and wait
 * for the one FLUSH_LAG steps back, so at most a few steps are dirty and the
 * disk works while we copy.  A writeback error is the copy's error: once
 * sync_file_range() has reported it, fsync(2) will not report it again.
 */
static int flush_behind(struct flusher *f, uint64_t total)
{
	if (f->state == FLUSH_OFF || (uint64_t)(f->started + FLUSH_STEP) > total)
		return 0;
	if (f->state == FLUSH_UNCHECKED && !flusher_check(f, total))
		return 0;
	while ((uint64_t)(f->started + FLUSH_STEP) <= total) {
		int r = sync_file_range(f->fd, f->base + f->started, FLUSH_STEP,
					SYNC_FILE_RANGE_WRITE);

		if (r == 0 && f->started - f->waited >= FLUSH_LAG * FLUSH_STEP) {
			r = sync_file_range(f->fd, f->base + f->waited, FLUSH_STEP,
					    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
					    SYNC_FILE_RANGE_WAIT_AFTER);
			if (r == 0)
				f->waited += FLUSH_STEP;
		}
		if (r < 0) {
			if (errno == EINTR)
				return 0;	/* the next step tries again */
			if (!no_fast_path(errno))
				return negerrno();
			f->state = FLUSH_OFF;	/* not for this file: fsync does it all */
			return 0;
		}
		f->started += FLUSH_STEP;
	}
	return 0;
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

static int copy_rw(int in, int out, struct flusher *f, uint64_t *total, int *ret_read_errno)
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
		if (r == 0)
			r = flush_behind(f, *total);
		if (r < 0)
			break;
	}
	free(buf);
	return r;
}

/*
 * The fast paths' calls: each moves what it can of @in to @out, as the kernel's call does.
 * copy_file_range(2) and sendfile(2) go one GiB a call, or one step when flushing needs the copy
 * in steps; a splice(2) moves up to a pipe's worth.
 */
typedef ssize_t fast_call(int in, int out, const struct flusher *f);

static ssize_t call_splice(int in, int out, const struct flusher *f)
{
	(void)f;
	return splice(in, NULL, out, NULL, PIPE_SIZE, SPLICE_F_MOVE | SPLICE_F_MORE);
}

static size_t range_chunk(const struct flusher *f)
{
	return f->state != FLUSH_OFF ? (size_t)FLUSH_STEP : CHUNK;
}

static ssize_t call_copy_file_range(int in, int out, const struct flusher *f)
{
	return copy_file_range(in, NULL, out, NULL, range_chunk(f), 0);
}

static ssize_t call_sendfile(int in, int out, const struct flusher *f)
{
	return sendfile(out, in, NULL, range_chunk(f));
}

/*
 * Copy with @call until the end of @in, counting and flushing as it goes: 0, or -errno of the
 * call or of the flush.  A flush never fails with an errno no_fast_path() accepts (it turns those
 * into FLUSH_OFF), so the caller asks no_fast_path() of the call's errors only.
 */
static int copy_fast(fast_call *call, int in, int out, struct flusher *f, uint64_t *total)
{
	for (;;) {
		ssize_t n = call(in, out, f);

		if (n > 0) {
			*total += (uint64_t)n;
			int r = flush_behind(f, *total);

			if (r < 0)
				return r;
			continue;
		}
		if (n == 0)
			return 0;
		if (errno == EINTR)
			continue;
		return negerrno();
	}
}

/* A fast path refused before any byte was copied: the read/write loop does it all. */
static bool fall_back(int r, uint64_t total)
{
	return r < 0 && total == 0 && no_fast_path(-r);
}

static int copy_splice(int in, int out, struct flusher *f, uint64_t *total, bool *ret_fallback)
{
	int r = copy_fast(call_splice, in, out, f, total);

	*ret_fallback = fall_back(r, *total);
	return *ret_fallback ? 0 : r;
}

/* copy_file_range(2), and sendfile(2) from where it stopped when the files do not allow it. */
static int copy_range(int in, int out, struct flusher *f, uint64_t *total, bool *ret_fallback)
{
	int r = copy_fast(call_copy_file_range, in, out, f, total);

	if (r < 0 && no_fast_path(-r))
		r = copy_fast(call_sendfile, in, out, f, total);
	*ret_fallback = fall_back(r, *total);
	return *ret_fallback ? 0 : r;
}

int fattrs_copy_fd(int in, int out, unsigned flags, uint64_t *ret_bytes, int *ret_read_errno)
{
	struct flusher f;
	struct stat st;
	uint64_t total = 0;
	bool fallback = true;
	int read_errno = 0;
	int r = 0;

	if (fstat(in, &st) < 0)
		return negerrno();
	flusher_init(&f, out, flags);
	if (S_ISFIFO(st.st_mode)) {
		/* Fewer, larger splices: the writer and we wake each other less. */
		(void)fcntl(in, F_SETPIPE_SZ, PIPE_SIZE);
		r = copy_splice(in, out, &f, &total, &fallback);
	} else if (S_ISREG(st.st_mode)) {
		r = copy_range(in, out, &f, &total, &fallback);
	}
	if (r == 0 && fallback)
		r = copy_rw(in, out, &f, &total, &read_errno);
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
