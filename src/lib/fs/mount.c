/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Mount id -> mount point, type, source and options, through libmount loaded with dlopen(3);
 * and the walk up to a mount point of GNU stat's %m, by directory descriptors (doc/design.md §5).
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>

#include <libmount.h>

#include "internal.h"

/* The few libmount functions used, resolved by name. */
struct mnt_api {
	__typeof__(mnt_new_table) *new_table;
	__typeof__(mnt_table_parse_mtab) *table_parse_mtab;
	__typeof__(mnt_unref_table) *unref_table;
	__typeof__(mnt_new_iter) *new_iter;
	__typeof__(mnt_free_iter) *free_iter;
	__typeof__(mnt_table_next_fs) *table_next_fs;
	__typeof__(mnt_fs_get_id) *fs_get_id;
	__typeof__(mnt_fs_get_target) *fs_get_target;
	__typeof__(mnt_fs_get_fstype) *fs_get_fstype;
	__typeof__(mnt_fs_get_source) *fs_get_source;
	__typeof__(mnt_fs_get_vfs_options) *fs_get_vfs_options;
	__typeof__(mnt_fs_get_root) *fs_get_root;
	__typeof__(mnt_fs_get_fs_options) *fs_get_fs_options;
};

/*
 * A lookup of an id the table lacks reads it again (a mount made since),
 * at most MOUNTS_PARSES_MAX times in all, and never again for an id that a
 * fresh table lacked: a long run sees the mounts made during it, and a
 * file of another namespace's mount costs one read, not one per file.
 */
#define MOUNTS_PARSES_MAX 16
#define MOUNTS_UNKNOWN_MAX 64

struct fattrs_mounts {
	void *dl;
	struct mnt_api api;
	struct libmnt_table *table;
	struct libmnt_table *old[MOUNTS_PARSES_MAX - 1];	/* kept: earlier lookups' strings point into them */
	int parses;
	uint64_t unknown[MOUNTS_UNKNOWN_MAX];	/* ids a fresh table lacked (another namespace's, or gone) */
	size_t n_unknown;
};

struct fattrs_mounts *fattrs_mounts_new(void)
{
	return calloc(1, sizeof(struct fattrs_mounts));
}

struct fattrs_mounts *fattrs_mounts_free(struct fattrs_mounts *m)
{
	if (m == NULL)
		return NULL;
	if (m->table != NULL)
		m->api.unref_table(m->table);
	for (int i = 0; i < m->parses - 1 && i < MOUNTS_PARSES_MAX - 1; i++)
		m->api.unref_table(m->old[i]);
	if (m->dl != NULL)
		(void)dlclose(m->dl);
	free(m);
	return NULL;
}

static int api_load(struct fattrs_mounts *m)
{
	static const char *const names[] = {
		"mnt_new_table", "mnt_table_parse_mtab", "mnt_unref_table",
		"mnt_new_iter", "mnt_free_iter", "mnt_table_next_fs",
		"mnt_fs_get_id", "mnt_fs_get_target", "mnt_fs_get_fstype",
		"mnt_fs_get_source", "mnt_fs_get_vfs_options", "mnt_fs_get_root",
		"mnt_fs_get_fs_options",
	};
	void **slots = (void **)&m->api;

	_Static_assert(sizeof(m->api) == sizeof(names) / sizeof(names[0]) * sizeof(void *),
		       "one name per libmount function");
	if (m->dl != NULL)
		return 0;
	m->dl = dlopen(LIBMOUNT_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (m->dl == NULL)
		return -ELIBACC;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		slots[i] = dlsym(m->dl, names[i]);
		if (slots[i] == NULL) {
			(void)dlclose(m->dl);
			m->dl = NULL;
			return -ELIBBAD;
		}
	}
	return 0;
}

static int table_parse(struct fattrs_mounts *m)
{
	struct libmnt_table *tb;
	int r;

	tb = m->api.new_table();
	if (tb == NULL)
		return -ENOMEM;
	r = m->api.table_parse_mtab(tb, NULL);
	if (r < 0) {
		m->api.unref_table(tb);
		return r;
	}
	/* The earlier tables live on for the strings handed out. */
	if (m->table != NULL)
		m->old[m->parses - 1] = m->table;
	m->table = tb;
	m->parses++;
	return 0;
}

static struct fattrs_mount entry_of(struct fattrs_mounts *m, struct libmnt_fs *fs)
{
	return (struct fattrs_mount) {
		.id = (uint64_t)m->api.fs_get_id(fs),
		.target = m->api.fs_get_target(fs),
		.fstype = m->api.fs_get_fstype(fs),
		.source = m->api.fs_get_source(fs),
		.options = m->api.fs_get_vfs_options(fs),
		.fs_options = m->api.fs_get_fs_options(fs),
		.root = m->api.fs_get_root(fs),
	};
}

static int table_find(struct fattrs_mounts *m, uint64_t id, struct fattrs_mount *ret)
{
	struct libmnt_iter *itr = m->api.new_iter(MNT_ITER_BACKWARD);
	struct libmnt_fs *fs;
	int r = -ENOENT;

	if (itr == NULL)
		return -ENOMEM;
	/* Backwards, so that the topmost of stacked mounts wins. */
	while (m->api.table_next_fs(m->table, itr, &fs) == 0) {
		if ((uint64_t)m->api.fs_get_id(fs) != id)
			continue;
		*ret = entry_of(m, fs);
		r = 0;
		break;
	}
	m->api.free_iter(itr);
	return r;
}

/* The table, loaded and parsed on first use. */
static int table_ready(struct fattrs_mounts *m)
{
	int r = api_load(m);

	if (r == 0 && m->table == NULL)
		r = table_parse(m);
	return r;
}

int fattrs_mounts_each(struct fattrs_mounts *m, int (*fn)(const struct fattrs_mount *mnt, void *arg), void *arg)
{
	struct libmnt_iter *itr;
	struct libmnt_fs *fs;
	int r = table_ready(m);

	if (r < 0)
		return r;
	itr = m->api.new_iter(MNT_ITER_FORWARD);
	if (itr == NULL)
		return -ENOMEM;
	while (r == 0 && m->api.table_next_fs(m->table, itr, &fs) == 0) {
		struct fattrs_mount e = entry_of(m, fs);

		r = fn(&e, arg);
	}
	m->api.free_iter(itr);
	return r;
}

/* Did a fresh table lack @id? */
static bool was_unknown(const struct fattrs_mounts *m, uint64_t id)
{
	for (size_t i = 0; i < m->n_unknown; i++)
		if (m->unknown[i] == id)
			return true;
	return false;
}

int fattrs_mounts_find(struct fattrs_mounts *m, uint64_t id, struct fattrs_mount *ret)
{
	int r = table_ready(m);

	if (r < 0)
		return r;
	r = table_find(m, id, ret);
	if (r == -ENOENT && m->parses < MOUNTS_PARSES_MAX && !was_unknown(m, id)) {
		/* Mounted since the table was read: read it again. */
		r = table_parse(m);
		if (r == 0)
			r = table_find(m, id, ret);
		if (r == -ENOENT && m->n_unknown < MOUNTS_UNKNOWN_MAX)
			m->unknown[m->n_unknown++] = id;
	}
	return r;
}

/* fattrs_mounts_each() callback: 1 (stop) at the first mount not trusted. */
static int not_trusted(const struct fattrs_mount *mnt, void *arg)
{
	const struct fattrs_fstype *t = fattrs_fstype_find(mnt->fstype);

	(void)arg;
	return t == NULL || !t->flags_trusted;
}

int fattrs_mounts_flags_trusted(struct fattrs_mounts *m)
{
	int r = fattrs_mounts_each(m, not_trusted, NULL);

	return r < 0 ? r : r == 0;
}

/* fattrs_mounts_each() callback: 1 (stop) at the first mount not trusted strictly below arg's path. */
static int not_trusted_below(const struct fattrs_mount *mnt, void *arg)
{
	const char *dir = arg;
	size_t len = strlen(dir);

	if (mnt->target == NULL || strncmp(mnt->target, dir, len) != 0)
		return 0;
	/* "/" holds every other path; "/a" holds "/a/b", not "/ab" */
	if (!(len == 1 || mnt->target[len] == '/') || mnt->target[len == 1 ? 1 : len + 1] == '\0')
		return 0;
	return not_trusted(mnt, NULL);
}

int fattrs_mounts_flags_trusted_at(struct fattrs_mounts *m, int dirfd)
{
	struct fattrs_statx_buf stx;
	struct fattrs_mount mnt;
	char link[PROC_FD_PATH_MAX], dir[PATH_MAX];
	ssize_t n;
	int r;

	r = fattrs_statx(dirfd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx);
	if (r < 0)
		return r;
	if (!(stx.stx_mask & STATX_MNT_ID))
		return 0;
	r = fattrs_mounts_find(m, stx.stx_mnt_id, &mnt);
	if (r == -ENOENT || (r == 0 && not_trusted(&mnt, NULL)))
		return 0;
	if (r < 0)
		return r;
	/* Its path as the mount table's are: from this process's root. */
	if (dirfd == AT_FDCWD) {
		if (getcwd(dir, sizeof(dir)) == NULL)
			return errno == ENOENT || errno == ERANGE ? 0 : -errno;
	} else {
		proc_fd_path(link, dirfd);
		n = readlink(link, dir, sizeof(dir) - 1);
		if (n < 0)
			return errno == ENOENT ? 0 : -errno;
		dir[n] = '\0';
	}
	/* Not reachable from the root, or deleted: not known. */
	if (dir[0] != '/')
		return 0;
	r = fattrs_mounts_each(m, not_trusted_below, dir);
	return r < 0 ? r : r == 0;
}

/* gnulib's dir_name(): @file without its last component, "." if none. */
static char *dir_name(const char *file)
{
	size_t len = strlen(file), end = len, base;

	while (end > 0 && file[end - 1] == '/')
		end--;
	base = end;
	while (base > 0 && file[base - 1] != '/')
		base--;
	if (end == 0)	/* all slashes: the root */
		return strdup(len > 0 ? "/" : ".");
	while (base > 0 && file[base - 1] == '/')
		base--;
	if (base == 0)
		return strdup(file[0] == '/' ? "/" : ".");
	return strndup(file, base);
}

/*
 * chdir(2) to @path in @dirfd, without moving: the directory, pinned with
 * O_PATH, and stat'ed by its "." (the lookup needs the search permission
 * chdir(2) needs, with the caller's file system ids).  Returns the
 * descriptor, or -errno.
 */
static int enter(int dirfd, const char *path, struct stat *ret)
{
	int fd = openat(dirfd, path, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return negerrno();
	if (fstatat(fd, ".", ret, 0) < 0) {
		int r = negerrno();

		(void)close(fd);
		return r;
	}
	return fd;
}

/*
 * The name of directory @fd as getcwd(2) would give it after a chdir there,
 * malloc()ed in *@ret: its /proc/self/fd link; without /proc, @start's
 * canonical name (realpath(3): what a chdir there and getcwd(2) give)
 * less the @ups last components, for each ".." the walk went up.
 */
static int dir_path(int fd, const char *start, unsigned ups, char **ret)
{
	char link[PROC_FD_PATH_MAX];
	struct stat st;
	char *path;
	int r;

	/* getcwd(2) has no name for a deleted directory */
	if (fstat(fd, &st) < 0)
		return negerrno();
	if (st.st_nlink == 0)
		return -ENOENT;
	if (!proc_usable()) {
		path = realpath(start, NULL);
		if (path == NULL)
			return negerrno();
		for (; ups > 0; ups--) {
			char *slash = strrchr(path, '/');

			if (slash == NULL || slash == path) {
				path[1] = '\0';
				break;
			}
			*slash = '\0';
		}
		*ret = path;
		return 0;
	}
	proc_fd_path(link, fd);
	r = fattrs_readlink(AT_FDCWD, link, 0, &path);
	if (r < 0)
		return r;
	if (path[0] != '/') {
		free(path);
		return -ENOENT;
	}
	*ret = path;
	return 0;
}

/*
 * GNU stat saves its working directory as gnulib's save_cwd() does, to
 * come back to it after the walk: open(".") for reading, else its name
 * (getcwd(3)), to which it returns by chdir(2).  Nothing moves here, but
 * where GNU could not save or return, the walk fails as GNU's does.
 */
static int cwd_save(char **ret_name)
{
	int fd = open(".", O_RDONLY | O_CLOEXEC);

	*ret_name = NULL;
	if (fd >= 0) {
		(void)close(fd);
		return 0;
	}
	*ret_name = getcwd(NULL, 0);
	return *ret_name != NULL ? 0 : negerrno();
}

/* 0, or the errno of GNU's chdir(2) back to @name (NULL: saved open, fchdir(2) works). */
static int cwd_back(const char *name)
{
	struct stat st;
	int fd;

	if (name == NULL)
		return 0;
	fd = enter(AT_FDCWD, name, &st);
	if (fd < 0)
		return -fd;
	(void)close(fd);
	return 0;
}

int fattrs_mntpoint_find(const char *file, bool is_dir, struct fattrs_mntpoint *ret)
{
	struct stat last, st;
	unsigned ups = 0;
	char *cwd_name;
	int fd, up, r;

	*ret = (struct fattrs_mntpoint){ .path = NULL };
	r = cwd_save(&cwd_name);
	if (r < 0) {
		ret->err = FATTRS_MNTPOINT_ERR_CWD;
		return r;
	}
	ret->start = is_dir ? strdup(file) : dir_name(file);
	if (ret->start == NULL) {
		free(cwd_name);
		return -ENOMEM;
	}
	fd = enter(AT_FDCWD, ret->start, &last);
	if (fd < 0) {
		/* GNU has not moved yet: nothing to come back from */
		ret->err = FATTRS_MNTPOINT_ERR_ENTER;
		free(cwd_name);
		return fd;
	}
	for (;;) {
		if (fstatat(fd, "..", &st, 0) < 0) {
			ret->err = FATTRS_MNTPOINT_ERR_STAT_UP;
			r = negerrno();
			goto done;
		}
		if (st.st_dev != last.st_dev || st.st_ino == last.st_ino)
			break;
		up = enter(fd, "..", &last);
		if (up < 0) {
			ret->err = FATTRS_MNTPOINT_ERR_ENTER_UP;
			r = up;
			goto done;
		}
		(void)close(fd);
		fd = up;
		last = st;
		ups++;
	}
	r = dir_path(fd, ret->start, ups, &ret->path);
	if (r < 0)
		ret->err = FATTRS_MNTPOINT_ERR_NAME;
done:
	(void)close(fd);
	ret->back_err = cwd_back(cwd_name);
	free(cwd_name);
	return r;
}

void fattrs_mntpoint_release(struct fattrs_mntpoint *mp)
{
	if (mp == NULL)
		return;
	free(mp->path);
	free(mp->start);
	*mp = (struct fattrs_mntpoint){ .path = NULL };
}
