/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/preserve.c: keeping a replaced file's owner, xattrs, ACLs and mode. */
#include "config.h"

#include "fattrs.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "tap.h"
#include "fixture.h"

#define NOBODY 65534		/* a user and group id no file here belongs to */
#define UNTOUCHED 0xdeadU	/* what an out-parameter holds if it was not written */

static int xattr_errno;		/* 0 if user.* xattrs can be set in topdir, else errno */

/* ------------------------------------------------------------- helpers */

/* Find out whether user.* xattrs can be set in the test directory (xattr_errno). */
static int xattr_probe(void)
{
	int fd = openat(topfd, "probe", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	xattr_errno = fsetxattr(fd, "user.probe", "1", 1, 0) == 0 ? 0 : errno;
	(void)close(fd);
	(void)unlinkat(topfd, "probe", 0);
	return 0;
}

/* A new empty file @name with mode @mode (umask aside), open read-write. */
static int make_file(const char *name, mode_t mode)
{
	int fd = openat(topfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd >= 0 && fchmod(fd, mode) < 0) {
		(void)close(fd);
		return -1;
	}
	return fd;
}

static long long uid_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (long long)st.st_uid : -1;
}

static long long gid_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (long long)st.st_gid : -1;
}

/* Whether @fd has xattr @name with exactly @value (NULL: has no such xattr). */
static bool has_xattr(int fd, const char *name, const char *value)
{
	char buf[256];
	ssize_t n = fgetxattr(fd, name, buf, sizeof(buf));

	if (value == NULL)
		return n < 0 && errno == ENODATA;
	return n == (ssize_t)strlen(value) && memcmp(buf, value, (size_t)n) == 0;
}

static bool set_xattr(int fd, const char *name, const char *value)
{
	return fsetxattr(fd, name, value, strlen(value), 0) == 0;
}

/* Whether /etc/xattr.conf has the line "@pattern skip". */
static bool xattr_conf_skips(const char *pattern)
{
	FILE *f = fopen("/etc/xattr.conf", "re");
	char line[512], pat[256], action[64];
	bool found = false;

	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = sscanf(line, "%255s %63s", pat, action) == 2 && strcmp(pat, pattern) == 0 &&
			strcmp(action, "skip") == 0;
	(void)fclose(f);
	return found;
}

/* ---------------------------------------------------------- preserving */

static void test_preserve__mode(void)
{
	unsigned int failed = UNTOUCHED;
	int src = make_file("src", 0640);
	int dst = make_file("dst", 0600);
	long long uid = uid_of(dst);

	/* As root, give the source another owner: MODE alone must not copy it. */
	if (geteuid() == 0)
		must(fchown(src, NOBODY, NOBODY));
	is_int(fattrs_preserve(src, dst, FATTRS_PRESERVE_MODE, &failed), 0, "the mode is kept");
	is_int(failed, 0, "nothing failed");
	is_int(mode_of_fd(dst), 0640, "the new file has the old one's mode (0640)");
	is_int(uid_of(dst), uid, "the owner was not asked for and is left alone");
	(void)close(src);
	(void)close(dst);
	left_only("src", "dst", NULL);
}

static void test_preserve__nothing_asked(void)
{
	unsigned int failed = UNTOUCHED;
	int src = make_file("src", 0644);
	int dst = make_file("dst", 0600);

	is_int(fattrs_preserve(src, dst, 0, &failed), 0, "asking for nothing succeeds");
	is_int(failed, 0, "with nothing failed");
	is_int(mode_of_fd(dst), 0600, "and changes nothing");
	is_int(fattrs_preserve(src, dst, FATTRS_PRESERVE_ALL, NULL), 0, "ret_failed may be NULL");
	failed = UNTOUCHED;
	is_int(fattrs_preserve(-1, dst, FATTRS_PRESERVE_ALL, &failed), -EBADF,
	       "a bad source descriptor gives -EBADF");
	is_int(failed, UNTOUCHED, "and leaves ret_failed alone");
	(void)close(src);
	(void)close(dst);
	left_only("src", "dst", NULL);
}

static void test_preserve__user_xattrs(void)
{
	unsigned int failed = UNTOUCHED;
	int src = make_file("src", 0644);
	int dst = make_file("dst", 0600);
	bool beagle = xattr_conf_skips("user.Beagle.*");

	if (xattr_errno != 0) {
		skip_n(7, "the filesystem of $TMPDIR lacks user xattrs here");
		goto out;
	}
	if (!set_xattr(src, "user.test", "hello") || !set_xattr(src, "user.fattr.offline", "1") ||
	    !set_xattr(src, "user.Beagle.idx", "x") || !set_xattr(dst, "user.own", "mine")) {
		skip_n(7, "cannot set the source's xattrs");
		goto out;
	}
	is_int(fattrs_preserve(src, dst, FATTRS_PRESERVE_XATTR, &failed), 0, "user xattrs are kept");
	is_int(failed, 0, "nothing failed");
	tap_ok(has_xattr(dst, "user.test", "hello"), "user.test is copied with its value");
	tap_ok(has_xattr(dst, "user.fattr.offline", "1"), "the user.fattr.offline=1 flag is copied");
	tap_ok(has_xattr(dst, "user.own", "mine"), "an xattr only the new file has is left alone");
	if (beagle)
		tap_ok(has_xattr(dst, "user.Beagle.idx", NULL),
		       "user.Beagle.* is not copied: /etc/xattr.conf says to skip it");
	else
		tap_skip("/etc/xattr.conf does not say to skip user.Beagle.*");
	is_int(mode_of_fd(dst), 0600, "the mode was not asked for and is left alone");
out:
	(void)close(src);
	(void)close(dst);
	left_only("src", "dst", NULL);
}

/* A POSIX ACL in the kernel's xattr format (posix_acl_xattr_header/entry, little-endian). */
struct acl_entry {
	uint16_t tag, perm;
	uint32_t id;
};

static size_t acl_make(unsigned char *buf)
{
	static const struct acl_entry e[] = {
		{ 0x01, 6, UINT32_MAX },	/* ACL_USER_OBJ rw- */
		{ 0x02, 4, NOBODY },		/* ACL_USER nobody r-- */
		{ 0x04, 4, UINT32_MAX },	/* ACL_GROUP_OBJ r-- */
		{ 0x10, 4, UINT32_MAX },	/* ACL_MASK r-- */
		{ 0x20, 0, UINT32_MAX },	/* ACL_OTHER --- */
	};
	size_t n = 0;

	buf[n++] = 2;	/* POSIX_ACL_XATTR_VERSION, 32 bits */
	buf[n++] = 0;
	buf[n++] = 0;
	buf[n++] = 0;
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		buf[n++] = (unsigned char)e[i].tag;
		buf[n++] = (unsigned char)(e[i].tag >> 8);
		buf[n++] = (unsigned char)e[i].perm;
		buf[n++] = (unsigned char)(e[i].perm >> 8);
		for (int b = 0; b < 32; b += 8)
			buf[n++] = (unsigned char)(e[i].id >> b);
	}
	return n;
}

static void test_preserve__acl(void)
{
	static const char name[] = "system.posix_acl_access";
	unsigned char acl[64], got[64];
	unsigned int failed = UNTOUCHED;
	int src = make_file("src", 0640);
	int dst = make_file("dst", 0600);
	size_t len = acl_make(acl);
	ssize_t n;

	if (fsetxattr(src, name, acl, len, 0) < 0) {
		skip_n(4, errno == EOPNOTSUPP ? "the filesystem of $TMPDIR has no POSIX ACLs"
					      : "cannot set an ACL on the source");
		goto out;
	}
	is_int(fattrs_preserve(src, dst, FATTRS_PRESERVE_ALL, &failed), 0,
	       "a file with an ACL is kept");
	is_int(failed, 0, "nothing failed");
	n = fgetxattr(dst, name, got, sizeof(got));
	tap_ok(n == (ssize_t)len && memcmp(got, acl, len) == 0,
	       "the new file has the same ACL (user:nobody:r--, mask r--)");
	is_int(mode_of_fd(dst), 0640, "and the same mode");
out:
	(void)close(src);
	(void)close(dst);
	left_only("src", "dst", NULL);
}

static void test_preserve__owner_as_root(void)
{
	unsigned int failed = UNTOUCHED;
	int src = make_file("src", 0600);
	int dst = make_file("dst", 0600);

	if (geteuid() != 0) {
		skip_n(5, "needs root to give a file away");
		goto out;
	}
	/* chown(2) clears the set-id bits: set them after. */
	if (fchown(src, NOBODY, NOBODY) < 0 || fchmod(src, 06750) < 0) {
		skip_n(5, "cannot give the source to nobody");
		goto out;
	}
	is_int(fattrs_preserve(src, dst, FATTRS_PRESERVE_ALL, &failed), 0, "the owner is kept");
	is_int(failed, 0, "nothing failed");
	is_int(uid_of(dst), NOBODY, "the new file belongs to the old one's user");
	is_int(gid_of(dst), NOBODY, "and group");
	is_int(mode_of_fd(dst), 06750, "the set-id bits are kept with the owner");
out:
	(void)close(src);
	(void)close(dst);
	left_only("src", "dst", NULL);
}

static bool in_group(gid_t gid)
{
	gid_t groups[256];
	int n = getgroups(256, groups);

	if (gid == getegid())
		return true;
	for (int i = 0; i < n; i++)
		if (groups[i] == gid)
			return true;
	return false;
}

/*
 * An unprivileged process keeping a set-id file it does not own: as root,
 * a child that becomes nobody works on a root-owned source; otherwise a
 * set-id program of the system is the source.
 */
static void test_preserve__setid_dropped_without_owner(void)
{
	static const char *const progs[] = { "/usr/bin/passwd", "/usr/bin/su", "/bin/su", "/usr/bin/mount" };
	struct { int r; unsigned int failed; } got = { 1, UNTOUCHED };
	bool root = geteuid() == 0;
	int src = -1, dst = make_file("dst", 0600);
	long long want_gid = -1, want_uid = uid_of(dst);
	struct stat st = { 0 };
	int p[2];
	pid_t pid;

	if (root) {
		src = make_file("src", 0600);
		/* Source root:nobody 06755; destination nobody:root, so nobody may chmod it. */
		if (src < 0 || fchown(src, 0, NOBODY) < 0 || fchmod(src, 06755) < 0 ||
		    fchown(dst, NOBODY, 0) < 0) {
			skip_n(5, "cannot prepare the files");
			goto out;
		}
		want_uid = NOBODY;
		want_gid = NOBODY;
	} else {
		for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]) && src < 0; i++) {
			src = open(progs[i], O_RDONLY | O_CLOEXEC);
			if (src >= 0 && (fstat(src, &st) < 0 || st.st_uid == geteuid() ||
					 !(st.st_mode & S_ISUID))) {
				(void)close(src);
				src = -1;
			}
		}
		if (src < 0) {
			skip_n(5, "no set-user-id program of another user found");
			goto out;
		}
		want_gid = in_group(st.st_gid) ? (long long)st.st_gid : gid_of(dst);
	}
	if (pipe2(p, O_CLOEXEC) < 0) {
		skip_n(5, "no pipe");
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		(void)close(p[0]);
		if (root && (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0))
			_exit(1);
		got.r = fattrs_preserve(src, dst, FATTRS_PRESERVE_OWNER | FATTRS_PRESERVE_MODE,
					&got.failed);
		_exit(write(p[1], &got, sizeof(got)) == (ssize_t)sizeof(got) ? 0 : 1);
	}
	(void)close(p[1]);
	if (pid < 0 || read(p[0], &got, sizeof(got)) != (ssize_t)sizeof(got))
		got.r = 1;
	(void)close(p[0]);
	if (pid > 0)
		(void)waitpid(pid, NULL, 0);
	is_int(got.r, -EPERM, "keeping another user's owner fails with -EPERM");
	is_int(got.failed, FATTRS_PRESERVE_OWNER, "only the owner failed");
	is_int(mode_of_fd(dst), mode_of_fd(src) & 0777, "the mode is kept without its set-id bits");
	is_int(uid_of(dst), want_uid, "the new file's owner stays");
	is_int(gid_of(dst), want_gid, "its group is the old one's where we may give it");
out:
	if (src >= 0)
		(void)close(src);
	(void)close(dst);
	if (root)
		left_only("src", "dst", NULL);
	else
		left_only("dst", NULL);
}

static void test_preserve__goes_on_after_a_failure(void)
{
	unsigned int failed = UNTOUCHED;
	int src = make_file("src", 0604);
	int p[2];

	if (xattr_errno != 0) {
		skip_n(4, "the filesystem of $TMPDIR lacks user xattrs here");
		goto out;
	}
	if (!set_xattr(src, "user.test", "hello") || pipe2(p, O_CLOEXEC) < 0) {
		skip_n(4, "cannot set the source's xattrs");
		goto out;
	}
	/* A pipe takes a mode but no user.* xattrs (only files and directories do). */
	is_int(fattrs_preserve(src, p[1], FATTRS_PRESERVE_XATTR | FATTRS_PRESERVE_MODE, &failed),
	       -EPERM, "a destination that refuses user xattrs (a pipe) gives -EPERM");
	is_int(failed, FATTRS_PRESERVE_XATTR, "ret_failed says the xattrs failed");
	is_int(mode_of_fd(p[1]), 0604, "the mode is still kept");
	(void)close(p[0]);
	(void)close(p[1]);
	failed = UNTOUCHED;
	p[0] = openat(topfd, "src", O_PATH | O_CLOEXEC);
	is_int(fattrs_preserve(src, p[0], FATTRS_PRESERVE_OWNER | FATTRS_PRESERVE_MODE, &failed) == -EBADF ?
	       (long long)failed : -1, FATTRS_PRESERVE_OWNER | FATTRS_PRESERVE_MODE,
	       "an O_PATH destination fails with -EBADF, and both owner and mode failed");
	if (p[0] >= 0)
		(void)close(p[0]);
out:
	(void)close(src);
	left_only("src", NULL);
}

static void test_preserve__no_xattr_filesystem(void)
{
	tap_skip("a destination without xattr support (ramfs) is covered by tests/tmpcreate");
}

/* The mode the kernel gives a file made with open(O_CREAT, 0666) in @dir (relative to topfd). */
static int kernel_new_mode(const char *dir)
{
	char path[64];
	int fd, mode;

	(void)snprintf(path, sizeof(path), "%s/k", dir);
	fd = openat(topfd, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	mode = mode_of_fd(fd);
	(void)close(fd);
	(void)unlinkat(topfd, path, 0);
	return mode;
}

/* fattrs_new_file_mode(): the umask, or a directory's default ACL, as open(2) applies them. */
static void test_preserve__new_file_mode(void)
{
	unsigned char acl[64];
	size_t len = acl_make(acl);
	mode_t old = umask(027), got = 0;
	int dfd;

	(void)mkdirat(topfd, "plain", 0755);
	is_int(fattrs_new_file_mode(topfd, "plain", 0666, &got), 0, "a directory without a default ACL");
	is_int((int)got, kernel_new_mode("plain"), "gives 0666 less the umask, as open(2) does (%04o)", (unsigned)got);
	(void)mkdirat(topfd, "acl", 0755);
	dfd = openat(topfd, "acl", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (skip_unless(dfd >= 0 && fsetxattr(dfd, "system.posix_acl_default", acl, len, 0) == 0, 2,
			"the filesystem of $TMPDIR has no POSIX ACLs")) {
		if (dfd >= 0)
			(void)close(dfd);
		(void)umask(old);
		empty_dir(topfd);
		return;
	}
	(void)close(dfd);
	(void)umask(077);
	is_int(fattrs_new_file_mode(topfd, "acl", 0666, &got), 0, "a directory with a default ACL");
	is_int((int)got, kernel_new_mode("acl"), "gives its mask and other entries, not the umask (%04o)",
	       (unsigned)got);
	(void)umask(old);
	empty_dir(topfd);
}

int main(void)
{
	int r = top_make("preserve");

	if (r == 0)
		r = xattr_probe();
	if (!top_plan(r, 47))
		return 1;
	tap_run(test_preserve__mode());
	tap_run(test_preserve__nothing_asked());
	tap_run(test_preserve__user_xattrs());
	tap_run(test_preserve__acl());
	tap_run(test_preserve__owner_as_root());
	tap_run(test_preserve__setid_dropped_without_owner());
	tap_run(test_preserve__goes_on_after_a_failure());
	tap_run(test_preserve__no_xattr_filesystem());
	tap_run(test_preserve__new_file_mode());
	return top_done();
}
