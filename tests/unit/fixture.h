/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared fixture for the unit tests: each program's own directory, and what is left in it. */
#ifndef FATTRS_FIXTURE_H
#define FATTRS_FIXTURE_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"

/* The letters and digits a temporary name's X's are replaced by. */
#define ALNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

#define NO_TMPFILE "no O_TMPFILE in $TMPDIR's filesystem"

/*
 * What nothing_left() says.  A program may define it before including
 * this header to keep the words its results have always had.
 */
#ifndef NOTHING_LEFT_SAYS
#define NOTHING_LEFT_SAYS "nothing is left in the directory"
#endif

/*
 * read_name() reads at most this many bytes: more than any content a test
 * writes, so that a longer file never compares equal.
 */
#define READ_NAME_MAX 63

__attribute__((unused))
static char topdir[PATH_MAX];	/* this program's directory, removed at the end */
__attribute__((unused))
static int topfd = -1;		/* a descriptor of it */

/* ------------------------------------------------------------ TAP sugar */

static inline void skip_n(int n, const char *why)
{
	while (n-- > 0)
		tap_skip("%s", why);
}

/* --------------------------------------------------- the test directory */

/* Make "$TMPDIR/fattrs-unit-@prog.XXXXXX" (or under /tmp) and open it. */
static inline int top_make(const char *prog)
{
	const char *tmp = getenv("TMPDIR");
	int n;

	if (tmp == NULL || tmp[0] == '\0')
		tmp = "/tmp";
	n = snprintf(topdir, sizeof(topdir), "%s/fattrs-unit-%s.XXXXXX", tmp, prog);
	if (n < 0 || (size_t)n >= sizeof(topdir))
		return -ENAMETOOLONG;
	if (mkdtemp(topdir) == NULL)
		return -errno;
	topfd = open(topdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return topfd >= 0 ? 0 : -errno;
}

/*
 * Print the plan, or bail out if setting up the test directory failed
 * (@r < 0).  Returns false after bailing out.
 */
static inline bool top_plan(int r, int plan)
{
	tap_plan(plan);
	if (r < 0) {
		printf("Bail out! cannot make a temporary directory: %s\n", strerror(-r));
		return false;
	}
	return true;
}

/* Whether O_TMPFILE works in the test directory. */
static inline bool top_has_tmpfile(void)
{
	int fd = openat(topfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd < 0)
		return false;
	(void)close(fd);
	return true;
}

/* @name in the test directory as an absolute path, in @buf (PATH_MAX bytes). */
static inline const char *top_path(char *buf, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", topdir, name);

	/* Cannot happen: mkdtemp() made topdir, far shorter than PATH_MAX. */
	if (n < 0 || n >= PATH_MAX)
		buf[0] = '\0';
	return buf;
}

/* Remove everything in directory @dfd, descending into subdirectories. */
static inline void empty_dir(int dfd)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (d == NULL) {
		if (fd >= 0)
			(void)close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		int sub;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dfd, e->d_name, 0) == 0 || errno != EISDIR)
			continue;
		sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			empty_dir(sub);
			(void)close(sub);
		}
		(void)unlinkat(dfd, e->d_name, AT_REMOVEDIR);
	}
	(void)closedir(d);
}

/* Remove the test directory and all in it; the TAP exit status. */
static inline int top_done(void)
{
	empty_dir(topfd);
	(void)close(topfd);
	(void)rmdir(topdir);
	return tap_done();
}

/* ------------------------------------------------ what is left behind */

/*
 * Entries of directory @dir (relative to the test directory) whose names
 * start with @prefix, or all but . and .. if @prefix is NULL; -1 if @dir
 * cannot be read.
 */
static inline int count_matching(const char *dir, const char *prefix)
{
	int fd = openat(topfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	int n = 0;

	if (d == NULL) {
		if (fd >= 0)
			(void)close(fd);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (prefix != NULL ? strncmp(e->d_name, prefix, strlen(prefix)) == 0
				   : strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	}
	(void)closedir(d);
	return n;
}

/* Entries of directory @dir (relative to the test directory) other than . and .., or -1. */
static inline int count_in(const char *dir)
{
	return count_matching(dir, NULL);
}

/* Entries of the test directory other than . and .., or -1. */
static inline int count_entries(void)
{
	return count_in(".");
}

/*
 * Every case ends with this or nothing_left(): one assertion that the test
 * directory holds exactly the names given (a NULL-terminated list), then a
 * clean slate for the next.
 */
__attribute__((sentinel))
static inline void left_only(const char *name, ...)
{
	size_t size = 1;
	char *list, *p;
	bool all = true;
	int want = 0;
	va_list ap;
	struct stat st;

	va_start(ap, name);
	for (const char *n = name; n != NULL; n = va_arg(ap, const char *)) {
		want++;
		if (fstatat(topfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0)
			all = false;
		size += 1 + strlen(n);
	}
	va_end(ap);
	/* The names, each after a space, for the assertion's words. */
	p = list = calloc(1, size);
	va_start(ap, name);
	for (const char *n = name; p != NULL && n != NULL; n = va_arg(ap, const char *)) {
		*p++ = ' ';
		p = stpcpy(p, n);
	}
	va_end(ap);
	tap_ok(all && count_entries() == want, "nothing but%s is left in the directory",
	       list != NULL ? list : "");
	free(list);
	empty_dir(topfd);
}

static inline void nothing_left(void)
{
	is_int(count_entries(), 0, NOTHING_LEFT_SAYS);
	empty_dir(topfd);
}

/* ------------------------------------------------------ a case's guards */

/*
 * Unless @cond: @n results skipped for @why, then nothing_left().  True if
 * they were skipped, so that a case reads
 *	if (skip_unless(have_tmpfile, 3, NO_TMPFILE))
 *		return;
 */
static inline bool skip_unless(bool cond, int n, const char *why)
{
	if (cond)
		return false;
	skip_n(n, why);
	nothing_left();
	return true;
}

/*
 * Unless @ok: one failed result that says (printf-style) what failed, @n
 * results skipped for @skip_why, then nothing_left().  True if it failed.
 */
__attribute__((format(printf, 4, 5)))
static inline bool fail_unless(bool ok, int n, const char *skip_why, const char *fmt, ...)
{
	va_list ap;
	char *what;
	int len;

	if (ok)
		return false;
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	what = len >= 0 ? malloc((size_t)len + 1) : NULL;
	if (what != NULL) {
		va_start(ap, fmt);
		(void)vsnprintf(what, (size_t)len + 1, fmt, ap);
		va_end(ap);
	}
	/* Out of memory, the words unformatted: still one failed result. */
	tap_ok(false, "%s", what != NULL ? what : fmt);
	free(what);
	skip_n(n, skip_why);
	nothing_left();
	return true;
}

/* ------------------------------------------------- files by their names */

/* Mode bits of @path (relative to the test directory, or absolute), or -1. */
static inline int mode_of(const char *path)
{
	struct stat st;

	return fstatat(topfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 ? (int)(st.st_mode & 07777) : -1;
}

/* Mode bits of the file open as @fd, or -1. */
static inline int mode_of_fd(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (int)(st.st_mode & 07777) : -1;
}

/* Whether @path (relative to the test directory, or absolute) exists; links are not followed. */
static inline bool exists(const char *path)
{
	struct stat st;

	return fstatat(topfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static inline bool write_str(int fd, const char *s)
{
	return write(fd, s, strlen(s)) == (ssize_t)strlen(s);
}

/* The contents of @path (relative to the test directory) through its name, or "" on error. */
static inline const char *read_name(const char *path)
{
	static char buf[READ_NAME_MAX + 1];
	int fd = openat(topfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, READ_NAME_MAX) : -1;

	if (fd >= 0)
		(void)close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

#endif /* FATTRS_FIXTURE_H */
