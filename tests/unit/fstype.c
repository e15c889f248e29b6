/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of src/lib/fs/fstype.c and mntcache.c: the table of filesystem
 * types, a flag's state, the per-mount cache, and the table's
 * row of $TMPDIR's filesystem against what the kernel does there
 * (tests/lib/fstype.bats runs this on each filesystem the tests mount).
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/statfs.h>
#include <sys/xattr.h>

#include "fattrs.h"
#include "internal.h"
#include "fixture.h"

static const char *const some_names[] = {
	"tmpfs", "ext4", "ext3", "ext2", "xfs", "btrfs", "ramfs", "overlay", "fuse", "fuseblk",
	"fuse.sshfs", "sysfs", "proc", "cifs", "smb3", "nfs",
};

static void test_fstype__find_by_name(void)
{
	for (size_t i = 0; i < sizeof(some_names) / sizeof(some_names[0]); i++) {
		const struct fattrs_fstype *t = fattrs_fstype_find(some_names[i]);

		is_str(t != NULL ? t->name : NULL, some_names[i], "fattrs_fstype_find(\"%s\")", some_names[i]);
	}
	is_str(fattrs_fstype_find("fuse.nosuchserver")->name, "fuse", "a FUSE server without a row is fuse");
	tap_ok(fattrs_fstype_find("nosuchfs") == NULL, "an unknown type is NULL");
	tap_ok(fattrs_fstype_find(NULL) == NULL, "NULL is NULL");
}

static void test_fstype__by_magic(void)
{
	for (size_t i = 0; i < sizeof(some_names) / sizeof(some_names[0]); i++) {
		const struct fattrs_fstype *t = fattrs_fstype_find(some_names[i]);
		const struct fattrs_fstype *m = fattrs_fstype_by_magic(t->magic);

		tap_ok(m != NULL && m->magic == t->magic, "by_magic(0x%08x) finds a row of that magic (%s)",
		       (unsigned)t->magic, m != NULL ? m->name : "none");
	}
	is_str(fattrs_fstype_by_magic(0xEF53)->name, "ext4", "ext2, ext3 and ext4 share a magic: ext4 first");
	is_str(fattrs_fstype_by_magic(0x01021994)->name, "tmpfs", "tmpfs before devtmpfs");
	tap_ok(fattrs_fstype_by_magic(0x12345678) == NULL, "an unknown magic is NULL");
}

static void test_fstype__columns(void)
{
	const struct fattrs_kflag *sync = fattrs_kflag_find("sync"), *nocow = fattrs_kflag_find("nocow");

	is_int(fattrs_fstype_find("sysfs")->user_xattr, FATTRS_FS_NO, "sysfs keeps no user xattrs");
	is_int(fattrs_fstype_find("ramfs")->user_xattr, FATTRS_FS_NO, "ramfs keeps no user xattrs");
	tap_ok(fattrs_fstype_find("overlay")->copy_up, "overlay copies up");
	tap_ok(fattrs_fstype_find("fuse.sshfs")->remote, "sshfs is remote");
	tap_ok(fattrs_fstype_find("ext4")->flags_trusted && !fattrs_fstype_find("overlay")->flags_trusted,
	       "ext4's flags are trusted, overlay's are not");
	is_int(fattrs_fstype_find("cifs")->native, FATTRS_NATIVE_CIFS, "cifs has the SMB attribute word");
	is_int(fattrs_fstype_keeps(fattrs_fstype_find("tmpfs"), S_IFREG, sync), 0, "tmpfs keeps no sync");
	is_int(fattrs_fstype_keeps(fattrs_fstype_find("btrfs"), S_IFREG, nocow), 1, "btrfs keeps nocow");
	is_int(fattrs_fstype_keeps(fattrs_fstype_find("ext4"), S_IFLNK, sync), -1, "a symlink: not known");
	is_int(fattrs_fstype_keeps(fattrs_fstype_find("overlay"), S_IFREG, sync), -1,
	       "overlay: not measured (its layers decide)");
	is_int(fattrs_fstype_keeps(NULL, S_IFREG, sync), -1, "no row: not known");
}

static void test_kflag_state__one_answer(void)
{
	const struct fattrs_kflag *sync = fattrs_kflag_find("sync"), *imm = fattrs_kflag_find("immutable");
	const struct fattrs_fstype *tmpfs = fattrs_fstype_find("tmpfs");
	struct fattrs_statx_buf stx = { .stx_mode = S_IFREG | 0644, .stx_attributes_mask = STATX_ATTR_IMMUTABLE,
					.stx_attributes = STATX_ATTR_IMMUTABLE };
	struct fattrs_kattr a = { .have = FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS };
	enum fattrs_fsanswer sup;

	is_int(fattrs_kflag_state(imm, &stx, NULL, 0, NULL, &sup), FATTRS_STATE_SET, "a statx flag: from statx");
	is_int(sup, FATTRS_FS_YES, "... supported");
	stx.stx_attributes_mask = 0;
	is_int(fattrs_kflag_state(imm, &stx, &a, 0, tmpfs, &sup), FATTRS_STATE_UNSUPPORTED,
	       "a statx flag the mask lacks: unsupported");
	is_int(sup, FATTRS_FS_NO, "... not supported");
	is_int(fattrs_kflag_state(sync, &stx, NULL, -EOPNOTSUPP, NULL, &sup), FATTRS_STATE_UNSUPPORTED,
	       "no kernel flags here: unsupported");
	is_int(fattrs_kflag_state(sync, &stx, NULL, -EACCES, NULL, &sup), FATTRS_STATE_UNREADABLE,
	       "flags that cannot be read: not readable");
	is_int(sup, FATTRS_FS_UNKNOWN, "... support not known");
	is_int(fattrs_kflag_state(sync, &stx, &a, 0, tmpfs, &sup), FATTRS_STATE_UNSUPPORTED,
	       "read clear where the type keeps it not: unsupported");
	is_int(sup, FATTRS_FS_NO, "... not supported");
	is_int(fattrs_kflag_state(sync, &stx, &a, 0, NULL, &sup), FATTRS_STATE_CLEAR,
	       "read clear where the type is not known: clear");
	is_int(sup, FATTRS_FS_UNKNOWN, "... maybe");
	a.xflags = FS_XFLAG_SYNC;
	a.iflags = FS_SYNC_FL;
	is_int(fattrs_kflag_state(sync, &stx, &a, 0, tmpfs, &sup), FATTRS_STATE_SET, "read set: set, whatever the table");
	is_int(sup, FATTRS_FS_YES, "... supported");
	is_str(fattrs_state_name(FATTRS_STATE_UNSUPPORTED), "unsupported", "the words: unsupported");
	is_str(fattrs_state_name(FATTRS_STATE_UNREADABLE), "not readable", "the words: not readable");
	is_str(fattrs_state_name(FATTRS_STATE_UNKNOWN), "unknown", "the words: unknown (not read)");
	tap_ok(fattrs_state_name((enum fattrs_state)99) == NULL, "no word for a value out of the enum");
}

static void test_mntcache__by_mount_id(void)
{
	struct fattrs_mntcache *c = fattrs_mntcache_new(NULL);
	struct fattrs_statx_buf stx;
	struct fattrs_mntinfo mi, again;
	struct fattrs_fsupport fsup;

	is_int(fattrs_mntcache_get(c, 0, &mi), -EINVAL, "mount id 0 is not one");
	if (fattrs_statx(topfd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0 || !(stx.stx_mask & STATX_MNT_ID)) {
		skip_n(4, "no STATX_MNT_ID");
	} else {
		is_int(fattrs_mntcache_get(c, stx.stx_mnt_id, &mi), 0, "the test directory's mount");
		tap_ok(mi.fstype != NULL && mi.type == fattrs_fstype_find(mi.fstype), "its type and row (%s)",
		       mi.fstype != NULL ? mi.fstype : "none");
		is_int(fattrs_mntcache_fsupport(c, stx.stx_mnt_id, AT_FDCWD, topdir, 0, &fsup, NULL), 0,
		       "where it keeps the fattrs flags, probed");
		tap_ok(fattrs_mntcache_get(c, stx.stx_mnt_id, &again) == 0 && again.type == mi.type &&
		       again.keeps == mi.keeps, "asked again: the same answer");
	}
	tap_ok(fattrs_mntcache_free(c) == NULL && fattrs_mntcache_free(NULL) == NULL, "free returns NULL");
}

/*
 * fattrs_mntcache_kchange() on tmpfs, which refuses a whole write for one
 * flag it does not have: each flag is tried alone, nodump applied, sync
 * refused.
 */
static void test_mntcache__kchange_each_alone(const char *fstype)
{
	struct fattrs_mntcache *c = fattrs_mntcache_new(NULL);
	struct fattrs_kchange ch = { .xset = 0 };
	struct fattrs_kresult res;
	struct fattrs_kattr a;
	struct stat st;
	uint64_t mnt_id;
	char path[PATH_MAX];
	int fd, r;

	if (fstype == NULL || strcmp(fstype, "tmpfs") != 0 || geteuid() != 0) {
		skip_n(4, "tmpfs as root only");
		(void)fattrs_mntcache_free(c);
		return;
	}
	fd = open(top_path(path, "k"), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		(void)close(fd);
	(void)fattrs_kchange_add(&ch, fattrs_kflag_find("sync"), true);
	(void)fattrs_kchange_add(&ch, fattrs_kflag_find("nodump"), true);
	r = fattrs_stat_mnt(topfd, "k", 0, &st, &mnt_id) == 0 ?
	    fattrs_mntcache_kchange(c, mnt_id, topfd, "k", 0, st.st_mode, &ch, 0, &res) : -1;
	is_int(r, -EOPNOTSUPP, "tmpfs: +sync,nodump: not all of it in effect");
	is_int(fattrs_kresult_fate(&res, fattrs_kflag_find("nodump"), true), FATTRS_KFATE_DONE,
	       "... nodump applied, tried alone");
	is_int(fattrs_kresult_fate(&res, fattrs_kflag_find("sync"), true), FATTRS_KFATE_REFUSED, "... sync refused");
	tap_ok(fattrs_kattr_get(topfd, "k", 0, 0, FATTRS_KATTR_IFLAGS, &a) == 0 && (a.iflags & FS_NODUMP_FL) &&
	       !(a.iflags & FS_SYNC_FL) && !res.no_flags, "... and the file has nodump, not sync");
	(void)unlink(path);
	(void)fattrs_mntcache_free(c);
}

/* What the kernel answers for @what in the test directory: 1 yes, 0 no, -1 could not tell. */
static int kernel_says(const char *what)
{
	char path[PATH_MAX], other[PATH_MAX];
	int fd, r;

	top_path(path, "probe");
	top_path(other, "probe2");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	(void)close(fd);
	if (strcmp(what, "user_xattr") == 0) {
		r = setxattr(path, "user.fattr.offline", "1", 1, 0);
		r = r == 0 ? 1 : errno == EOPNOTSUPP ? 0 : -1;
	} else if (strcmp(what, "tmpfile") == 0) {
		fd = openat(topfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		r = fd >= 0 ? 1 : errno == EOPNOTSUPP || errno == EISDIR ? 0 : -1;
		if (fd >= 0)
			(void)close(fd);
	} else if (strcmp(what, "noreplace") == 0) {
		r = renameat2(topfd, "probe", topfd, "probe2", RENAME_NOREPLACE);
		r = r == 0 ? 1 : errno == EINVAL ? 0 : -1;
	} else {
		r = link(path, other);
		r = r == 0 ? 1 : errno == EPERM || errno == EOPNOTSUPP || errno == EIO ? 0 : -1;
	}
	(void)unlink(path);
	(void)unlink(other);
	return r;
}

/* $TMPDIR's row, by its mount's type, against what the kernel does there. */
static void test_fstype__row_matches_the_kernel(void)
{
	static const char *const what[] = { "user_xattr", "tmpfile", "noreplace", "links" };
	struct fattrs_mounts *m = fattrs_mounts_new();
	struct fattrs_statx_buf stx;
	struct fattrs_mount mnt;
	const struct fattrs_fstype *t = NULL;
	struct statfs sfs;

	if (m != NULL && fattrs_statx(topfd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) == 0 &&
	    (stx.stx_mask & STATX_MNT_ID) && fattrs_mounts_find(m, stx.stx_mnt_id, &mnt) == 0) {
		t = fattrs_fstype_find(mnt.fstype);
		printf("# filesystem: %s\n", mnt.fstype);
	}
	tap_run(test_mntcache__kchange_each_alone(t != NULL ? t->name : NULL));
	if (t == NULL) {
		skip_n(5, "$TMPDIR's filesystem has no row");
		(void)fattrs_mounts_free(m);
		return;
	}
	tap_ok(fstatfs(topfd, &sfs) == 0 && (uint32_t)sfs.f_type == t->magic, "%s: the magic is the kernel's",
	       t->name);
	for (size_t i = 0; i < 4; i++) {
		enum fattrs_fsanswer a = i == 0 ? t->user_xattr : i == 1 ? t->tmpfile : i == 2 ? t->noreplace : t->links;
		int k = kernel_says(what[i]);

		if (a == FATTRS_FS_UNKNOWN || k < 0)
			tap_skip("%s: %s not known to the table, or the kernel's answer unclear", t->name, what[i]);
		else
			is_int(k, a == FATTRS_FS_YES, "%s: %s as the table says", t->name, what[i]);
	}
	(void)fattrs_mounts_free(m);
}

int main(void)
{
	int r = top_make("fstype");

	if (r < 0) {
		printf("Bail out! cannot make a temporary directory: %s\n", strerror(-r));
		return 1;
	}
	tap_run(test_fstype__find_by_name());
	tap_run(test_fstype__by_magic());
	tap_run(test_fstype__columns());
	tap_run(test_kflag_state__one_answer());
	tap_run(test_mntcache__by_mount_id());
	tap_run(test_fstype__row_matches_the_kernel());
	/* The plan at the end: the table's rows decide how many results. */
	tap_plan(tap_n);
	return top_done();
}
