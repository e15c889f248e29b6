/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What xstat knows of filesystems: the names of statfs magic numbers, the
 * mount of a file, and the state of its kernel and fattrs(7) flags.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <locale.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "cli.h"
#include "format.h"
#include "format-private.h"

int get_fs_type_name(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	static char unknown[40];
	unsigned long t = (unsigned long)f->sfs->f_type;

	(void)d;
	/* GNU's names, from the table of filesystem types */
	v->s = fattrs_fstype_gnu_name((uint32_t)t);
	if (v->s != NULL)
		return FMT_VALUE_OK;
	snprintf(unknown, sizeof(unknown), "UNKNOWN (0x%lx)", t);
	v->s = unknown;
	return FMT_VALUE_OK;
}

/* ---- mount table (libmount, parsed lazily once per run) ---- */

const uint8_t mount_parts[] = { M_TARGET, M_FSTYPE, M_SOURCE, M_OPTIONS, M_ROOT };

/*
 * The file's mount, from the table by its mount id (once per file):
 * 0, -ENOENT when the table has no such mount, or another -errno (the
 * table could not be read: said once per run).
 */
static int mount_of(struct fmt_file *f, struct file_lookups *l)
{
	struct fmt_ctx *c = f->ctx;

	if (l->merr == 1 && c->mnt_valid && c->mnt.id == f->stx->stx_mnt_id) {
		/* the strings live as long as the table: the same mount as the last file's */
		l->mnt = c->mnt;
		l->merr = 0;
	}
	if (l->merr == 1) {
		if (c->mounts == NULL && (c->mounts = fattrs_mounts_new()) == NULL)
			l->merr = -ENOMEM;
		else
			l->merr = fattrs_mounts_find(c->mounts, f->stx->stx_mnt_id, &l->mnt);
		if (l->merr == 0) {
			c->mnt = l->mnt;
			c->mnt_valid = true;
		}
		if (l->merr < 0 && l->merr != -ENOENT && !c->mounts_warned) {
			/* The table, not the file: once per run. */
			cli_warn(-l->merr, _("cannot read the mount table"));
			c->mounts_warned = true;
		}
	}
	return l->merr;
}

int get_mount(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	struct file_lookups *l = lookups_of(f);
	const char *s = NULL;

	if (!has(f, STATX_MNT_ID))
		return FMT_VALUE_NA;
	mount_of(f, l);
	if (l->merr == -ENOENT)
		return FMT_VALUE_NA;	/* a mount of another namespace, or gone */
	if (l->merr < 0)
		return FMT_VALUE_ERR;
	switch (*(const uint8_t *)d->arg) {
	case M_TARGET: s = l->mnt.target; break;
	case M_FSTYPE: s = l->mnt.fstype; break;
	case M_SOURCE: s = l->mnt.source; break;
	case M_OPTIONS: s = l->mnt.options; break;
	case M_ROOT: s = l->mnt.root; break;
	}
	if (s == NULL)
		return FMT_VALUE_NA;
	v->s = s;
	return FMT_VALUE_OK;
}

/* ---- attribute flags ---- */

/* Read the xflags group (@want FATTRS_KATTR_XFLAGS) or the iflags word, once per file. */
/*
 * The iflags word needs an open(2) of the file, which its permissions may
 * refuse where statx and file_getattr need none: those flags are then not
 * readable, and the rest of the file is still shown.
 */
static bool not_readable(unsigned want, int err)
{
	return want == FATTRS_KATTR_IFLAGS && (err == -EACCES || err == -EPERM);
}

static struct fattrs_mntcache *mntcache_of(struct fmt_ctx *c);

static int kattr(struct fmt_file *f, unsigned want, const struct fattrs_kattr **ret)
{
	struct file_lookups *l = lookups_of(f);
	int *err = want == FATTRS_KATTR_XFLAGS ? &l->xerr : &l->ierr;
	struct fattrs_kattr *a = want == FATTRS_KATTR_XFLAGS ? &l->kx : &l->ki;

	if (*err == 1) {
		const char *path;
		unsigned flags;
		int dirfd;

		mode_t mode = has(f, STATX_TYPE) ? f->stx->stx_mode : 0;
		/* by mount: what a mount refused once is not asked of its next file */
		struct fattrs_mntcache *mc = has(f, STATX_MNT_ID) ? mntcache_of(f->ctx) : NULL;

		at_args(f, &dirfd, &path, &flags);
		*err = mc != NULL ? fattrs_mntcache_kattr_get(mc, f->stx->stx_mnt_id, dirfd, path, flags, mode, want, a)
				  : fattrs_kattr_get(dirfd, path, flags, mode, want, a);
		if (*err < 0 && *err != -EOPNOTSUPP && !not_readable(want, *err))
			cli_warn(-*err, want == FATTRS_KATTR_XFLAGS ? _("cannot file_getattr %s")
								     : _("cannot read the flags of %s"),
				 qname(f));
	}
	*ret = a;
	return *err;
}

/*
 * The per-mount cache (over the run's mount table): NULL when out of
 * memory.
 */
static struct fattrs_mntcache *mntcache_of(struct fmt_ctx *c)
{
	if (c->mounts == NULL && (c->mounts = fattrs_mounts_new()) == NULL)
		return NULL;
	if (c->mntcache == NULL)
		c->mntcache = fattrs_mntcache_new(c->mounts);
	return c->mntcache;
}

/*
 * The filesystem type whose kept flags apply to @f (the library's
 * per-mount answer: an overlay's upper layer's type), or NULL when not
 * known.
 */
static const struct fattrs_fstype *keeps_of(struct fmt_file *f)
{
	struct fattrs_mntcache *mc;
	struct fattrs_mntinfo mi;

	if (!has(f, STATX_MNT_ID) || !has(f, STATX_TYPE))
		return NULL;
	mc = mntcache_of(f->ctx);
	if (mc == NULL || fattrs_mntcache_get(mc, f->stx->stx_mnt_id, &mi) < 0)
		return NULL;
	return mi.keeps;
}

/*
 * A kernel flag's state: the library's one answer (fattrs_kflag_state(),
 * as setfattrs --list has it), from what is read the cheapest way
 * (fattrs_kflag_read_by()).  The mount's kept flags are asked only of a flag that
 * reads clear.
 */
int get_kflag(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	const struct fattrs_kflag *k = d->arg;
	const struct fattrs_kattr *a = NULL;
	enum fattrs_kread how = fattrs_kflag_read_by(k);
	enum fattrs_fsanswer sup;
	enum fattrs_state s;
	int r = 0;

	if (how != FATTRS_KREAD_STATX) {
		r = kattr(f, how == FATTRS_KREAD_XFLAGS ? FATTRS_KATTR_XFLAGS : FATTRS_KATTR_IFLAGS, &a);
		if (how == FATTRS_KREAD_IFLAGS && not_readable(FATTRS_KATTR_IFLAGS, r))
			return FMT_VALUE_NA;	/* FATTRS_STATE_UNREADABLE */
		if (r < 0 && r != -EOPNOTSUPP) {
			v->s = "?";
			return FMT_VALUE_ERR;
		}
	}
	s = fattrs_kflag_state(k, f->stx, r == 0 ? a : NULL, r, NULL, &sup);
	if (s == FATTRS_STATE_CLEAR && sup == FATTRS_FS_UNKNOWN)
		s = fattrs_kflag_state(k, f->stx, r == 0 ? a : NULL, r, keeps_of(f), NULL);
	if (s == FATTRS_STATE_UNREADABLE) {
		v->s = "?";
		return FMT_VALUE_ERR;
	}
	v->s = fattrs_state_name(s);
	return FMT_VALUE_OK;
}

int get_projid(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	const struct fattrs_kattr *a;
	int r = kattr(f, FATTRS_KATTR_XFLAGS, &a);

	(void)d;
	if (r == -EOPNOTSUPP)
		return FMT_VALUE_NA;
	if (r < 0)
		return FMT_VALUE_ERR;
	v->u = a->projid;
	return FMT_VALUE_OK;
}

/* A statx-only attribute flag (@d->arg: its STATX_ATTR_* bit). */
int get_sattr(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	uint64_t bit = *(const uint64_t *)d->arg;

	if (!(f->stx->stx_attributes_mask & bit))
		v->s = fattrs_state_name(FATTRS_STATE_UNSUPPORTED);
	else
		v->s = fattrs_state_name((f->stx->stx_attributes & bit) ? FATTRS_STATE_SET : FATTRS_STATE_CLEAR);
	return FMT_VALUE_OK;
}

/* What the filesystem of @f's mount offers for the fattrs flags: the library probes it once per mount. */
static int fsupport(struct fmt_file *f, int dirfd, const char *path, unsigned atf, struct fattrs_fsupport *ret)
{
	struct fattrs_mntcache *mc = mntcache_of(f->ctx);

	if (mc == NULL)
		return fattrs_fsupport_probe(dirfd, path, atf, ret);
	return fattrs_mntcache_fsupport(mc, has(f, STATX_MNT_ID) ? f->stx->stx_mnt_id : 0, dirfd, path, atf, ret,
					NULL);
}

static int fflags(struct fmt_file *f, const struct fattrs_fflags **ret)
{
	struct file_lookups *l = lookups_of(f);

	if (l->ferr == 1) {
		struct fattrs_fsupport fsup;
		const char *path;
		unsigned atf;
		int dirfd;

		/* the file as statx(2) found it: its directory and name, or its descriptor */
		at_args(f, &dirfd, &path, &atf);
		/* a file no flag can be on: nothing to probe (a pipe on standard input has no directory) */
		if (has(f, STATX_TYPE) && !S_ISREG(f->stx->stx_mode) && !S_ISDIR(f->stx->stx_mode)) {
			fsup = (struct fattrs_fsupport){ .user_xattr = false, .native = FATTRS_NATIVE_NONE };
			l->ferr = 0;
		} else {
			l->ferr = fsupport(f, dirfd, path, atf, &fsup);
		}
		l->fsup = fsup;
		if (l->ferr == 0)
			l->ferr = fattrs_fflags_get(dirfd, path, atf, has(f, STATX_TYPE) ? f->stx->stx_mode : 0,
						    &fsup, f->stx, &l->ff);
		if (l->ferr < 0)
			cli_warn(-l->ferr, _("cannot read the fattrs flags of %s"), qname(f));
		for (size_t i = 0; l->ferr == 0 && i < FATTRS_NFFLAGS; i++) {
			/* fattrs(7): never guessed, warned about once per file */
			char *q;

			if (l->ff.invalid[i] == NULL)
				continue;
			q = cli_quotearg_alloc(l->ff.invalid[i], l->ff.invalid_len[i], CLI_QS_SHELL_ESCAPE_ALWAYS);
			cli_warn(0, _("warning: %s: %s holds %s, neither 1 nor 0: the flag reads as invalid"),
				 qname(f), fattrs_fflag_info((enum fattrs_fflag)i)->xattr, q != NULL ? q : "?");
			free(q);
		}
	}
	*ret = &l->ff;
	return l->ferr;
}


int get_fflag(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	enum fattrs_fflag flag = *(const enum fattrs_fflag *)d->arg;
	const struct fattrs_fflags *ff;

	if (fflags(f, &ff) < 0) {
		v->s = "?";
		return FMT_VALUE_ERR;
	}
	v->s = fattrs_state_name(ff->state[flag]);
	return FMT_VALUE_OK;
}

/* The other names under user.fattr., joined by "," (a ',' or '\\' in a name escaped by '\\'). */
int get_fattrs_other(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	struct file_lookups *l = lookups_of(f);
	const struct fattrs_fflags *ff;
	size_t len = 1;
	char *p;

	(void)d;
	if (fflags(f, &ff) < 0) {
		v->s = "?";
		return FMT_VALUE_ERR;
	}
	if (l->other == NULL) {
		for (size_t i = 0; i < ff->n_unknown; i++)
			len += 2 * strlen(ff->unknown[i]) + 1;
		l->other = p = malloc(len);
		if (p == NULL) {
			cli_warn(ENOMEM, _("cannot read the fattrs flags of %s"), qname(f));
			v->s = "?";
			return FMT_VALUE_ERR;
		}
		/* a ',' or '\' of a name is escaped with '\': the list splits back exactly */
		for (size_t i = 0; i < ff->n_unknown; i++) {
			if (i > 0)
				*p++ = ',';
			for (const char *c = ff->unknown[i]; *c != '\0'; c++) {
				if (*c == ',' || *c == '\\')
					*p++ = '\\';
				*p++ = *c;
			}
		}
		*p = '\0';
	}
	v->s = l->other;
	return FMT_VALUE_OK;
}

const char *fmt_field_detail(const struct fmt_directive *d, struct fmt_file *f)
{
	struct file_lookups *l = &f->ctx->lookups;
	enum fattrs_fflag flag;
	const struct fattrs_fflag_info *fi;
	unsigned int src;
	size_t n = 0;

	if (d->get == get_kflag && l->owner == f && fattrs_kflag_read_by(d->arg) == FATTRS_KREAD_IFLAGS &&
	    not_readable(FATTRS_KATTR_IFLAGS, l->ierr)) {
		snprintf(l->detail, sizeof(l->detail), "open: %s", strerror(-l->ierr));
		return l->detail;
	}
	if (d->get != get_fflag || l->owner != f || l->ferr != 0)
		return NULL;
	flag = *(const enum fattrs_fflag *)d->arg;
	fi = fattrs_fflag_info(flag);
	if (l->ff.state[flag] == FATTRS_STATE_INVALID)
		return fi->xattr;
	if (l->ff.state[flag] != FATTRS_STATE_SET)
		return NULL;
	src = l->ff.source[flag];
	l->detail[0] = '\0';
	if (src & FATTRS_FSRC_STATX)
		n += (size_t)snprintf(l->detail + n, sizeof(l->detail) - n, "statx");
	if ((src & FATTRS_FSRC_NATIVE) && n < sizeof(l->detail))
		n += (size_t)snprintf(l->detail + n, sizeof(l->detail) - n, "%s%s", n ? "," : "",
				      l->fsup.native == FATTRS_NATIVE_CIFS ? FATTRS_CIFS_ATTRIB_XATTR
									   : FATTRS_NTFS_ATTRIB_XATTR);
	if ((src & FATTRS_FSRC_XATTR) && n < sizeof(l->detail))
		snprintf(l->detail + n, sizeof(l->detail) - n, "%s%s", n ? "," : "", fi->xattr);
	return l->detail;
}
