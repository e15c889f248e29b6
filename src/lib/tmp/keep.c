/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The old FILE kept under a link of its own while a replace is under way, where the
 * filesystem's client may remove it in a rename it then fails.  (doc/design.md §4)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tmp.h"

/*
 * Whether the client's kernel is older than 7.1, the first release
 * measured (7.2, tests/vm) to move a file this client holds open aside
 * (".__smbfile_silly*") when a rename replaces it.  6.1 and 6.12 instead
 * remove the target first when the server refuses the rename over an open
 * file, and then fail the rename: the old file is gone once its last
 * opener closes it (mv(1) loses it the same way).  Asked once.
 */
static bool kernel_removes_refused_target(void)
{
	static int known = -1;
	struct utsname u;
	unsigned major = 0, minor = 0;

	if (known < 0)
		known = uname(&u) == 0 && sscanf(u.release, "%u.%u", &major, &minor) == 2 &&
			(major < 7 || (major == 7 && minor < 1));
	return known == 1;
}

/*
 * Whether @tf's replace needs the keep link: on a kernel older than 7.1,
 * on a type of replace_removes_open.  The type is the row create.c asked
 * statfs(2) for, where it did; else the mount table's (@mnt_id, the
 * file's mount): read here, where a statfs(2) would be one more request
 * to the server or FUSE daemon per replace.
 */
bool keep_needed(const struct fattrs_tmpfile *tf, uint64_t mnt_id)
{
	const struct fattrs_fstype *t = tf->fstype;
	struct fattrs_mounts *m;
	struct fattrs_mount mnt;
	struct statfs sf;

	if (!kernel_removes_refused_target())
		return false;
	if (t == NULL && mnt_id != 0 && (m = fattrs_mounts_new()) != NULL) {
		if (fattrs_mounts_find(m, mnt_id, &mnt) == 0)
			t = fattrs_fstype_find(mnt.fstype);
		(void)fattrs_mounts_free(m);
	}
	if (t == NULL && fstatfs(tf->fd, &sf) == 0)
		t = fattrs_fstype_by_magic((uint32_t)sf.f_type);
	return t != NULL && t->replace_removes_open;
}

/*
 * The keep link's name: one per FILE and machine, of a kind no other
 * hidden name has ('/' is in no file name, so "/k" + FILE is never "" +
 * another file's name).  Only the writer that holds FILE's first hidden
 * name (its lock) makes or removes it, so one that finds it while FILE is
 * there finds a leftover: of a writer killed before its replace, or past
 * it (the old file has FILE's name, or had it and was replaced).
 */
int keep_old(int dirfd, const char *path, struct keep *k)
{
	struct link_args a = { .src = path, .scratch = true, .slot = -1 };
	struct fattrs_tmpl tmpl;
	char *name = hidden_kind_for("/k", path, &tmpl);
	struct stat st;
	int r = -EEXIST;

	*k = (struct keep) KEEP_INIT;
	if (name == NULL)
		return -ENOMEM;
	/* The link's own stat may fail while it is young (cifs 6.1: EINVAL): @path's, then. */
	if (name_stat(dirfd, path, &k->st) < 0) {
		free(name);
		return 0;
	}
	for (int i = 0; i < 2 && r == -EEXIST; i++) {
		r = make_link(dirfd, name, &a);
		if (r == -EEXIST && name_stat(dirfd, path, &st) == 0)
			(void)unlinkat(dirfd, name, 0);
	}
	if (r == 0) {
		k->name = name;
		k->slot = a.slot;
		return 0;
	}
	free(name);
	return 0;	/* nothing kept: the replace goes on as anywhere else */
}

/*
 * Whether @k's name still is the link made: the same file, or one that
 * cifs will not stat yet (EINVAL: a link younger than its attribute
 * cache, as made here).
 */
static bool keep_is_mine(int dirfd, const struct keep *k)
{
	struct stat now;

	return name_stat(dirfd, k->name, &now) == 0 ? same_inode(&now, &k->st) : errno == EINVAL;
}

/* The replace is done (or @path was left as it was): the keep link goes. */
void keep_drop(int dirfd, struct keep *k)
{
	if (k->name == NULL)
		return;
	scratch_forget(k->slot);
	if (keep_is_mine(dirfd, k))
		(void)unlinkat(dirfd, k->name, 0);
	free(k->name);
	*k = (struct keep) KEEP_INIT;
}

/* Rename @data to @path, a new name (for try_names()). */
static int rename_from(int dirfd, const char *path, void *data)
{
	return renameat2(dirfd, data, dirfd, path, RENAME_NOREPLACE) == 0 ? 0 : negerrno();
}

/*
 * The replace of @path failed.  Where @path still is the old file, alive,
 * or another writer's file, the keep link goes.  Where @path is gone, the
 * old file gets its name back.  Where @path still is the old file but
 * removed (its removal waits for the last opener on the server, and the
 * client counts it out of nlink: no more links than before the keep
 * link, which @k->st, taken before it, has),
 * nothing can have that name until then: the old file is renamed to a
 * new random name, which no later run reclaims, returned (free() it); NULL
 * otherwise.
 */
char *keep_restore(int dirfd, const char *path, struct keep *k)
{
	struct fattrs_tmpl tmpl;
	struct stat st;
	char *kept = NULL, *hidden;

	if (k->name == NULL)
		return NULL;
	if (name_stat(dirfd, path, &st) == 0 && (!same_inode(&st, &k->st) || st.st_nlink > k->st.st_nlink)) {
		keep_drop(dirfd, k);
		return NULL;
	}
	if (errno == ENOENT && renameat2(dirfd, k->name, dirfd, path, RENAME_NOREPLACE) == 0) {
		scratch_forget(k->slot);
		free(k->name);
		*k = (struct keep) KEEP_INIT;
		return NULL;
	}
	hidden = fattrs_tmpl_hidden_for(path, &tmpl);
	if (hidden != NULL)
		(void)try_names(dirfd, &tmpl, &kept, rename_from, k->name);
	free(hidden);
	scratch_forget(k->slot);
	if (kept == NULL) {
		/* Not even that: the keep link itself stays, and is named. */
		kept = k->name;
		k->name = NULL;
	}
	free(k->name);
	*k = (struct keep) KEEP_INIT;
	return kept;
}
