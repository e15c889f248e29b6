/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each mount is and keeps, looked up once per mount id, never process-wide
 * (doc/design.md §5).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "internal.h"

/*
 * The read-back trust rule, for one file type on one mount: the xflags bits
 * seen kept after a change that was read back.
 */
struct trust {
	uint32_t bits;		/* FS_XFLAG_* seen kept (set or cleared as asked) */
	bool known;		/* whether @trusted was decided */
	bool trusted;		/* false: never (a server decides per file, or the mount is not known) */
};

struct entry {
	struct fattrs_mntinfo info;
	bool info_known;	/* looked up in the mount table (only when asked: it loads libmount) */
	bool fsupport_known;
	struct fattrs_fsupport fsupport;
	const struct fattrs_fstype *by_magic;	/* its row by statfs(2) magic, once asked */
	bool by_magic_known;
	struct trust trust[16];	/* by file type: (st_mode & S_IFMT) >> 12 */
	/* the FATTRS_KATTR_* words a file of each type here answered "no flags" for */
	uint8_t no_kattr[16];
};

/*
 * The flags whose fate depends only on the filesystem and the file type,
 * never on the file's contents or state: a filesystem that kept one on a
 * file of a type keeps it on every such file.  (Not immutable or append:
 * they fail loudly anyway; not dax, nocow, compress, projinherit or the
 * xfs-only flags, which depend on a device, a size or a directory.)
 */
#define TRUSTED_XFLAGS (FS_XFLAG_NODUMP | FS_XFLAG_NOATIME | FS_XFLAG_SYNC)

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

/*
 * The row of @e's statfs(2) magic, asked once (a file on it: @dirfd, @path,
 * @at_flags); not kept when the file could not be asked.  A symbolic link
 * not followed is asked of its own filesystem, not its target's.
 */
static const struct fattrs_fstype *by_magic(struct entry *e, int dirfd, const char *path, unsigned at_flags)
{
	struct statfs sfs;

	if (!e->by_magic_known) {
		if (statfs_at(dirfd, path != NULL ? path : "", at_flags, &sfs) < 0)
			return NULL;
		e->by_magic = fattrs_fstype_by_magic((uint32_t)sfs.f_type);
		e->by_magic_known = true;
	}
	return e->by_magic;
}

int fattrs_mntcache_fsupport(struct fattrs_mntcache *c, uint64_t mnt_id, int dirfd, const char *path,
			     unsigned at_flags, struct fattrs_fsupport *ret, const struct fattrs_fstype **ret_type)
{
	struct entry unknown = { .info = { .mnt_id = 0 } };	/* mount id 0: asked every time */
	struct entry *e = mnt_id != 0 ? entry_for(c, mnt_id) : &unknown;
	int r;

	if (e == NULL)
		return -ENOMEM;
	if (!e->fsupport_known) {
		r = fattrs_fsupport_probe(dirfd, path, at_flags, &e->fsupport);
		if (r < 0)
			return r;
		e->fsupport_known = true;
	}
	*ret = e->fsupport;
	if (ret_type != NULL)
		*ret_type = by_magic(e, dirfd, path, at_flags);
	return 0;
}

struct fattrs_mounts *fattrs_mntcache_mounts(struct fattrs_mntcache *c)
{
	return c->mounts;
}

/* ------------------------------------------------ reading kernel flags */

/*
 * Whether a refusal of the flag words on a file of mount @mnt_id holds for
 * every file of its type there: a type in the table that does not answer
 * per file (fattrs_fstype's @kflags_per_file).  Asked only after a refusal,
 * so that a mount whose files have flags never loads the mount table for it.
 */
static bool refusal_holds(struct fattrs_mntcache *c, uint64_t mnt_id)
{
	struct fattrs_mntinfo mi;

	return fattrs_mntcache_get(c, mnt_id, &mi) == 0 && mi.type != NULL && !mi.type->kflags_per_file;
}

int fattrs_mntcache_kattr_get(struct fattrs_mntcache *c, uint64_t mnt_id, int dirfd, const char *path,
			      unsigned at_flags, mode_t mode, unsigned want, struct fattrs_kattr *ret)
{
	struct entry *e = mnt_id != 0 && mode != 0 ? entry_for(c, mnt_id) : NULL;
	uint8_t *no = e != NULL ? &e->no_kattr[(mode & S_IFMT) >> 12] : NULL;
	unsigned ask = no != NULL ? want & ~(unsigned)*no : want;
	struct fattrs_kattr a;
	int r;

	if (ask == 0 && want != 0)
		return -EOPNOTSUPP;
	r = fattrs_kattr_get(dirfd, path, at_flags, mode, ask, &a);
	if (no != NULL && (r == 0 || r == -EOPNOTSUPP)) {
		unsigned refused = r == 0 ? ask & ~a.have : ask;

		if (refused != 0 && refusal_holds(c, mnt_id))
			*no |= (uint8_t)refused;
	}
	if (r == 0)
		*ret = a;
	return r;
}

/* ------------------------------------------------ the read-back rule */

/*
 * Whether @c may skip the read-back of @ch on a file of type @mode on the
 * mount of @e (mount id 0: not known): only trusted xflags bits, each seen
 * kept on this mount for this file type before (so the first change of
 * each flag on each mount is read back), never where a server decides or
 * the mount is not known.  Mode 0 is a file not stat'ed, on a mount of a
 * type that is trusted (fattrs_mounts_flags_trusted()).
 */
static bool kept_before(struct entry *e, mode_t mode, int dirfd, const char *path, unsigned at_flags,
			const struct fattrs_kchange *ch)
{
	uint32_t x = ch->xset | ch->xclear;
	struct trust *t = &e->trust[(mode & S_IFMT) >> 12];

	if ((ch->iset | ch->iclear) != 0 || x == 0 || (x & ~TRUSTED_XFLAGS) != 0)
		return false;
	if (!t->known) {
		const struct fattrs_fstype *type;

		t->trusted = mode == 0 ||
			     (e->info.mnt_id != 0 && (type = by_magic(e, dirfd, path, at_flags)) != NULL &&
			      !type->remote);
		t->known = true;
	}
	return t->trusted && (x & ~t->bits) == 0;
}

/*
 * After a change that was written (1 returned), read back and stuck: the
 * bits it set are kept here.  A clear proves something only when it was
 * the whole change: then the bit was set before (else nothing would have
 * been written), so this filesystem holds it.  A clear among other bits
 * may have found its bit clear already, and proves nothing.
 */
static void kept_seen(struct entry *e, mode_t mode, const struct fattrs_kchange *ch)
{
	struct trust *t = &e->trust[(mode & S_IFMT) >> 12];
	uint32_t x = ch->xset | ch->xclear;

	t->bits |= ch->xset & TRUSTED_XFLAGS;
	if (ch->xset == 0 && (x & (x - 1)) == 0)
		t->bits |= x & TRUSTED_XFLAGS;
}

/* Take @f (set: @on) out of @k. */
static void kchange_drop(struct fattrs_kchange *k, const struct fattrs_kflag *f, bool on)
{
	if (f->xflag != 0)
		*(on ? &k->xset : &k->xclear) &= ~f->xflag;
	else
		*(on ? &k->iset : &k->iclear) &= ~f->iflag;
}

/*
 * Some filesystems (tmpfs) refuse a whole write for one flag they do not
 * have: each flag of @res's dropped part is tried alone (clears, sets,
 * then immutable and append), so as to apply what can be and tell what
 * cannot.  Returns: whether something is still not in effect.
 */
static bool each_alone(int dirfd, const char *path, unsigned at_flags, mode_t mode, unsigned flags,
		       struct fattrs_kresult *res)
{
	size_t n;
	const struct fattrs_kflag *k = fattrs_kflags_table(&n);
	bool left = false;

	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < n; i++) {
			bool on = pass != 0, locking = fattrs_kflag_locking(&k[i]);
			struct fattrs_kchange one = { .xset = 0 };
			struct fattrs_kresult one_res;
			int r;

			if (!fattrs_kchange_has(&res->dropped, &k[i], on) || (pass == 2) != (on && locking))
				continue;
			(void)fattrs_kchange_add(&one, &k[i], on);
			r = fattrs_kattr_change_result(dirfd, path, at_flags, mode, &one, flags, &one_res);
			if (r < 0 && r != -EOPNOTSUPP)
				continue;
			kchange_drop(&res->dropped, &k[i], on);
			kchange_drop(&res->refused, &k[i], on);
			if (r == -EOPNOTSUPP) {
				/* its fate alone */
				enum fattrs_kfate fate = fattrs_kresult_fate(&one_res, &k[i], on);

				if (fate != FATTRS_KFATE_DONE)
					(void)fattrs_kchange_add(&res->dropped, &k[i], on);
				if (fate == FATTRS_KFATE_REFUSED)
					(void)fattrs_kchange_add(&res->refused, &k[i], on);
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		left |= fattrs_kchange_has(&res->dropped, &k[i], true) || fattrs_kchange_has(&res->dropped, &k[i], false);
	return left;
}

/* How many flags of the table @k holds. */
static size_t kchange_count(const struct fattrs_kchange *k)
{
	size_t n, count = 0;
	const struct fattrs_kflag *t = fattrs_kflags_table(&n);

	for (size_t i = 0; i < n; i++)
		count += fattrs_kchange_has(k, &t[i], true) + fattrs_kchange_has(k, &t[i], false);
	return count;
}

int fattrs_mntcache_kchange(struct fattrs_mntcache *c, uint64_t mnt_id, int dirfd, const char *path, unsigned at_flags,
			    mode_t mode, const struct fattrs_kchange *change, unsigned flags, struct fattrs_kresult *ret)
{
	struct fattrs_kresult res = { .dropped = { .xset = 0 } };
	struct fattrs_kattr any;
	struct entry *e;
	bool trust;
	int r;

	if ((flags & ~(FATTRS_KCHANGE_BY_NAME | FATTRS_KCHANGE_SAME_MOUNT)) != 0)
		return -EINVAL;
	e = entry_for(c, mnt_id);	/* 0: one entry for every file of no known mount */
	trust = e != NULL && kept_before(e, mode, dirfd, path, at_flags, change);
	r = fattrs_kattr_change_result(dirfd, path, at_flags, mode, change,
				       flags | (trust ? FATTRS_KCHANGE_NO_READBACK : 0), &res);
	if (r == 1 && !trust && e != NULL)
		kept_seen(e, mode, change);
	if (r == -EOPNOTSUPP) {
		res.no_flags = fattrs_kattr_get(dirfd, path, at_flags, mode, FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS,
						&any) == -EOPNOTSUPP;
		if (!res.no_flags && kchange_count(&res.dropped) > 1 &&
		    !each_alone(dirfd, path, at_flags, mode, flags & FATTRS_KCHANGE_SAME_MOUNT, &res))
			r = 1;
	}
	if (ret != NULL && (r >= 0 || r == -EOPNOTSUPP))
		*ret = res;
	return r;
}
