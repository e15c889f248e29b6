/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each mount is and keeps, looked up once per mount id: its type
 * (the table of fstype.c), whose kernel flags apply (an overlay's upper
 * layer's), and where it keeps the fattrs(7) flags.  Never process-wide:
 * two mounts of one type may differ.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "internal.h"

struct entry {
	struct fattrs_mntinfo info;
	bool info_known;	/* looked up in the mount table (only when asked: it loads libmount) */
	bool fcaps_known;
	struct fattrs_fcaps fcaps;
	dev_t dev;		/* its device, once a file of it was met by device */
	bool dev_known;
	const struct fattrs_fstype *by_magic;	/* its row by statfs(2) magic, once asked */
};

struct fattrs_mntcache {
	struct fattrs_mounts *mounts;
	bool own_mounts;
	struct entry *e;
	size_t n, alloc;
	size_t last;		/* the entry found last: the next file is likely on it */
};

struct fattrs_mntcache *fattrs_mntcache_new(struct fattrs_mounts *mounts)
{
	struct fattrs_mntcache *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->mounts = mounts;
	if (mounts == NULL) {
		c->mounts = fattrs_mounts_new();
		c->own_mounts = true;
		if (c->mounts == NULL) {
			free(c);
			return NULL;
		}
	}
	return c;
}

struct fattrs_mntcache *fattrs_mntcache_free(struct fattrs_mntcache *c)
{
	if (c == NULL)
		return NULL;
	if (c->own_mounts)
		(void)fattrs_mounts_free(c->mounts);
	free(c->e);
	free(c);
	return NULL;
}

/*
 * The value of option @name in the comma-separated @opts, into @buf
 * (PATH_MAX bytes): overlayfs writes a comma of a path as "\,".
 */
static bool option_value(const char *opts, const char *name, char *buf)
{
	size_t len = strlen(name), n = 0;
	const char *p = opts;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, len) == 0 && p[len] == '=') {
			for (p += len + 1; *p != '\0' && *p != ','; p++) {
				if (*p == '\\' && p[1] != '\0')
					p++;
				if (n + 1 >= PATH_MAX)
					return false;
				buf[n++] = *p;
			}
			buf[n] = '\0';
			return n > 0;
		}
		/* the next option: past a comma not escaped */
		while (*p != '\0' && *p != ',')
			p += *p == '\\' && p[1] != '\0' ? 2 : 1;
		if (*p == ',')
			p++;
	}
	return false;
}

/*
 * Whose kernel flags apply on mount @m of type @t: its own type's, or for
 * an overlay, its upper layer's type's (a change copies a file up; a
 * file's flags are read from the layer it is on, and the lower layers'
 * types are not asked).  NULL when not known.
 */
static const struct fattrs_fstype *keeps_of(struct fattrs_mntcache *c, const struct fattrs_mount *m,
					   const struct fattrs_fstype *t)
{
	struct fattrs_statx_buf stx;
	struct fattrs_mount upper;
	char *dir;
	const struct fattrs_fstype *u = NULL;

	if (t == NULL || !t->copy_up)
		return t;
	dir = malloc(PATH_MAX);
	if (dir == NULL)
		return NULL;
	if (m->fs_options != NULL && option_value(m->fs_options, "upperdir", dir) &&
	    fattrs_statx(AT_FDCWD, dir, 0, STATX_MNT_ID, &stx) == 0 && (stx.stx_mask & STATX_MNT_ID) &&
	    stx.stx_mnt_id != m->id && fattrs_mounts_find(c->mounts, stx.stx_mnt_id, &upper) == 0) {
		u = fattrs_fstype_find(upper.fstype);
		if (u != NULL && u->copy_up)
			u = NULL;	/* an overlay over an overlay: not followed */
	}
	free(dir);
	return u;
}

/* The entry of @mnt_id, made on first use; NULL when out of memory. */
static struct entry *entry_for(struct fattrs_mntcache *c, uint64_t mnt_id)
{
	struct entry *e;

	if (c->last < c->n && c->e[c->last].info.mnt_id == mnt_id)
		return &c->e[c->last];
	for (size_t i = 0; i < c->n; i++) {
		if (c->e[i].info.mnt_id == mnt_id) {
			c->last = i;
			return &c->e[i];
		}
	}
	if (c->n == c->alloc) {
		size_t alloc = c->alloc != 0 ? 2 * c->alloc : 4;

		e = realloc(c->e, alloc * sizeof(*e));
		if (e == NULL)
			return NULL;
		c->e = e;
		c->alloc = alloc;
	}
	e = &c->e[c->n];
	*e = (struct entry){ .info = { .mnt_id = mnt_id } };
	c->last = c->n++;
	return e;
}

int fattrs_mntcache_get(struct fattrs_mntcache *c, uint64_t mnt_id, struct fattrs_mntinfo *ret)
{
	struct entry *e;

	if (mnt_id == 0)
		return -EINVAL;
	e = entry_for(c, mnt_id);
	if (e == NULL)
		return -ENOMEM;
	if (!e->info_known) {
		struct fattrs_mount m;

		/* not in the table (or no libmount): a mount of no known type */
		if (fattrs_mounts_find(c->mounts, mnt_id, &m) == 0) {
			e->info.fstype = m.fstype;
			e->info.type = fattrs_fstype_find(m.fstype);
			e->info.keeps = keeps_of(c, &m, e->info.type);
		}
		e->info_known = true;
	}
	*ret = e->info;
	return 0;
}

int fattrs_mntcache_fcaps(struct fattrs_mntcache *c, uint64_t mnt_id, const char *path, bool nofollow,
			  struct fattrs_fcaps *ret)
{
	struct entry *e;
	int r;

	if (mnt_id == 0)
		return fattrs_fcaps_probe(path, nofollow, ret);
	e = entry_for(c, mnt_id);
	if (e == NULL)
		return -ENOMEM;
	if (!e->fcaps_known) {
		r = fattrs_fcaps_probe(path, nofollow, &e->fcaps);
		if (r < 0)
			return r;
		e->fcaps_known = true;
	}
	*ret = e->fcaps;
	return 0;
}

struct fattrs_mounts *fattrs_mntcache_mounts(struct fattrs_mntcache *c)
{
	return c->mounts;
}

int fattrs_mntcache_fcaps_dev(struct fattrs_mntcache *c, dev_t dev, const char *path, bool nofollow,
			      struct fattrs_fcaps *ret, const struct fattrs_fstype **ret_type)
{
	struct fattrs_statx_buf stx;
	struct statfs sfs;
	struct entry *e = NULL;
	int r;

	for (size_t i = 0; i < c->n; i++) {
		if (c->e[i].dev_known && c->e[i].dev == dev) {
			e = &c->e[i];
			break;
		}
	}
	if (e == NULL) {
		/* the first file of this device: its mount */
		r = fattrs_statx(AT_FDCWD, path, fattrs_at_nofollow(nofollow), STATX_MNT_ID, &stx);
		if (r < 0)
			return r;
		e = entry_for(c, (stx.stx_mask & STATX_MNT_ID) ? stx.stx_mnt_id : 0);
		if (e == NULL)
			return -ENOMEM;
		e->dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
		e->dev_known = true;
	}
	if (!e->fcaps_known) {
		r = fattrs_fcaps_probe(path, nofollow, &e->fcaps);
		if (r < 0)
			return r;
		e->by_magic = statfs(path, &sfs) == 0 ? fattrs_fstype_by_magic((uint32_t)sfs.f_type) : NULL;
		e->fcaps_known = true;
	}
	*ret = e->fcaps;
	if (ret_type != NULL)
		*ret_type = e->by_magic;
	return 0;
}
