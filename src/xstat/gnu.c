/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GNU stat 9.1's letter directives (%a ... %Z, and -f's %a ... %T): their
 * table and their getters.
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
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "cli.h"
#include "format.h"
#include "format-private.h"


/* %a: the permission bits alone. */
static int get_perm_bits(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->u = f->stx->stx_mode & 07777;
	return FMT_VALUE_OK;
}

/* %B: the unit of %b. */
static int get_block_unit(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)f;
	(void)d;
	v->u = 512;
	return FMT_VALUE_OK;
}

/* %w: "-" when the file system keeps no birth time. */
static int get_btime_human(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->s = has(f, STATX_BTIME) ? human_time(ts(f->stx->stx_btime)) : "-";
	return FMT_VALUE_OK;
}

static int get_atime_human(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->s = human_time(ts(f->stx->stx_atime));
	return FMT_VALUE_OK;
}

static int get_mtime_human(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->s = human_time(ts(f->stx->stx_mtime));
	return FMT_VALUE_OK;
}

static int get_ctime_human(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->s = human_time(ts(f->stx->stx_ctime));
	return FMT_VALUE_OK;
}

/* %C: the SELinux context, "?" (and a message) when there is none. */
static int get_context(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	char *ctx;
	size_t len;
	int e;

	(void)d;
	e = fattrs_xattr_get(AT_FDCWD, f->name, fattrs_at_nofollow(!f->ctx->follow), "security.selinux", &ctx, &len);
	if (e == 0 && len == 0) {
		/* libselinux's getfilecon(), GNU's: an empty context is no context */
		free(ctx);
		e = -EOPNOTSUPP;
	}
	if (e < 0) {
		cli_warn(-e, _("failed to get security context of %s"),
			 cli_quotearg(f->name, CLI_QS_SHELL_ESCAPE_ALWAYS));
		v->s = "?";
		return FMT_VALUE_ERR;
	}
	set_buf(f->ctx, ctx);
	v->s = ctx;
	return FMT_VALUE_OK;
}

/*
 * GNU's words for where the %m walk stopped; "?" and no message where the
 * mount point has no name.  GNU stops where it cannot come back to the
 * working directory.
 */
static void mount_point_warn(const struct fattrs_mntpoint *mp, int e)
{
	const char *start = mp->start != NULL ? mp->start : "";

	switch (mp->err) {
	case FATTRS_MNTPOINT_ERR_CWD:
		cli_warn(-e, _("cannot get current directory"));
		break;
	case FATTRS_MNTPOINT_ERR_ENTER:
		cli_warn(-e, _("cannot change to directory %s"), cli_quotearg(start, CLI_QS_SHELL_ESCAPE_ALWAYS));
		break;
	case FATTRS_MNTPOINT_ERR_STAT_UP:
		cli_warn(-e, _("cannot stat %s"), cli_quotearg("..", CLI_QS_SHELL_ESCAPE_ALWAYS));
		break;
	case FATTRS_MNTPOINT_ERR_ENTER_UP:
		cli_warn(-e, _("cannot change to directory %s"), cli_quotearg("..", CLI_QS_SHELL_ESCAPE_ALWAYS));
		break;
	case FATTRS_MNTPOINT_ERR_NAME:
		break;
	}
	if (mp->back_err != 0)
		cli_die(CLI_EXIT_FAILURE, mp->back_err, _("failed to return to initial working directory"));
}

static int get_mount_point(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	unsigned int mode = f->stx->stx_mode;
	struct fattrs_mntpoint mp;
	int e;

	(void)d;
	if (f->ctx->follow || !S_ISLNK(mode)) {
		char *resolved = realpath(f->name, NULL);

		if (resolved == NULL) {
			cli_warn(errno, _("failed to canonicalize %s"),
				 cli_quotearg(f->name, CLI_QS_SHELL_ESCAPE_ALWAYS));
			v->s = "?";
			return FMT_VALUE_ERR;
		}
		free(resolved);
	}
	e = fattrs_mntpoint_find(f->name, S_ISDIR(mode), &mp);
	if (e < 0 || mp.back_err != 0) {
		mount_point_warn(&mp, e);
		fattrs_mntpoint_release(&mp);
		v->s = "?";
		return FMT_VALUE_ERR;
	}
	set_buf(f->ctx, mp.path);
	v->s = mp.path;
	mp.path = NULL;
	fattrs_mntpoint_release(&mp);
	return FMT_VALUE_OK;
}

/* ---- file systems (-f) ---- */

static int get_fs_avail(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->i = (intmax_t)f->sfs->f_bavail;
	return FMT_VALUE_OK;
}

static int get_fs_blocks(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->i = (intmax_t)f->sfs->f_blocks;
	return FMT_VALUE_OK;
}

static int get_fs_files(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->u = f->sfs->f_files;
	return FMT_VALUE_OK;
}

static int get_fs_ffree(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->i = (intmax_t)f->sfs->f_ffree;
	return FMT_VALUE_OK;
}

static int get_fs_bfree(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->i = (intmax_t)f->sfs->f_bfree;
	return FMT_VALUE_OK;
}

static int get_fs_id(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	const unsigned int *w = (const unsigned int *)&f->sfs->f_fsid;

	(void)d;
	v->u = ((uintmax_t)w[0] << 32) | w[1];
	return FMT_VALUE_OK;
}

static int get_fs_namelen(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->u = (uintmax_t)f->sfs->f_namelen;
	return FMT_VALUE_OK;
}

static int get_fs_bsize(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->u = (uintmax_t)f->sfs->f_bsize;
	return FMT_VALUE_OK;
}

static int get_fs_frsize(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->u = (uintmax_t)(f->sfs->f_frsize != 0 ? f->sfs->f_frsize : f->sfs->f_bsize);
	return FMT_VALUE_OK;
}

static int get_fs_type(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->u = (uintmax_t)(unsigned long)f->sfs->f_type;
	return FMT_VALUE_OK;
}

/* ------------------------------------------------------------ the table */

#define GNU_ROW(l_, m_, mode_, help_, mask_, needs_, out_, get_) \
	{ .letter = (l_), .mod = (m_), .mode = (mode_), .help = (help_), .statx_mask = (mask_), .needs = (needs_), \
	  .out = (out_), .get = (get_) }

const struct fmt_directive fmt_directives[] = {
	GNU_ROW('a', 0, FMT_FILE, "permission bits in octal (note '#' and '0' printf flags)", STATX_MODE, 0, FMT_OUT_OCTAL, get_perm_bits),
	GNU_ROW('A', 0, FMT_FILE, "permission bits and file type in human readable form", STATX_TYPE | STATX_MODE, 0, FMT_OUT_STRING, get_mode_string),
	GNU_ROW('b', 0, FMT_FILE, "number of blocks allocated (see %B)", STATX_BLOCKS, 0, FMT_OUT_UINT, get_blocks),
	GNU_ROW('B', 0, FMT_FILE, "the size in bytes of each block reported by %b", 0, 0, FMT_OUT_UINT, get_block_unit),
	GNU_ROW('C', 0, FMT_FILE, "SELinux security context string", 0, FMT_NEED_SELINUX, FMT_OUT_STRING_RAW, get_context),
	GNU_ROW('d', 0, FMT_FILE, "device number in decimal (st_dev)", 0, 0, FMT_OUT_UINT, get_dev),
	GNU_ROW('D', 0, FMT_FILE, "device number in hex (st_dev)", 0, 0, FMT_OUT_HEX, get_dev),
	GNU_ROW('d', 'H', FMT_FILE, "major device number in decimal", 0, 0, FMT_OUT_UINT, get_dev_major),
	GNU_ROW('d', 'L', FMT_FILE, "minor device number in decimal", 0, 0, FMT_OUT_UINT, get_dev_minor),
	GNU_ROW('f', 0, FMT_FILE, "raw mode in hex", STATX_TYPE | STATX_MODE, 0, FMT_OUT_HEX, get_mode),
	GNU_ROW('F', 0, FMT_FILE, "file type", STATX_TYPE | STATX_SIZE, 0, FMT_OUT_STRING, get_type),
	GNU_ROW('g', 0, FMT_FILE, "group ID of owner", STATX_GID, 0, FMT_OUT_UINT, get_gid),
	GNU_ROW('G', 0, FMT_FILE, "group name of owner", STATX_GID, FMT_NEED_GROUP, FMT_OUT_STRING, get_group),
	GNU_ROW('h', 0, FMT_FILE, "number of hard links", STATX_NLINK, 0, FMT_OUT_UINT, get_nlink),
	GNU_ROW('i', 0, FMT_FILE, "inode number", STATX_INO, 0, FMT_OUT_UINT, get_ino),
	GNU_ROW('m', 0, FMT_FILE, "mount point", STATX_TYPE, FMT_NEED_MOUNT_POINT, FMT_OUT_STRING, get_mount_point),
	GNU_ROW('n', 0, FMT_FILE, "file name", 0, 0, FMT_OUT_STRING, get_name),
	GNU_ROW('N', 0, FMT_FILE, "quoted file name with dereference if symbolic link", STATX_TYPE | STATX_SIZE, FMT_NEED_READLINK, FMT_OUT_QUOTED, get_name),
	GNU_ROW('o', 0, FMT_FILE, "optimal I/O transfer size hint", 0, 0, FMT_OUT_UINT, get_blksize),
	GNU_ROW('s', 0, FMT_FILE, "total size, in bytes", STATX_SIZE, 0, FMT_OUT_INT, get_size),
	GNU_ROW('r', 0, FMT_FILE, "device type in decimal (st_rdev)", 0, 0, FMT_OUT_UINT, get_rdev),
	GNU_ROW('R', 0, FMT_FILE, "device type in hex (st_rdev)", 0, 0, FMT_OUT_HEX, get_rdev),
	GNU_ROW('r', 'H', FMT_FILE, "major device type in decimal, for character/block device special files", 0, 0, FMT_OUT_UINT, get_rdev_major),
	GNU_ROW('r', 'L', FMT_FILE, "minor device type in decimal, for character/block device special files", 0, 0, FMT_OUT_UINT, get_rdev_minor),
	GNU_ROW('t', 0, FMT_FILE, "major device type in hex, for character/block device special files", 0, 0, FMT_OUT_HEX, get_rdev_major),
	GNU_ROW('T', 0, FMT_FILE, "minor device type in hex, for character/block device special files", 0, 0, FMT_OUT_HEX, get_rdev_minor),
	GNU_ROW('u', 0, FMT_FILE, "user ID of owner", STATX_UID, 0, FMT_OUT_UINT, get_uid),
	GNU_ROW('U', 0, FMT_FILE, "user name of owner", STATX_UID, FMT_NEED_USER, FMT_OUT_STRING, get_user),
	GNU_ROW('w', 0, FMT_FILE, "time of file birth, human-readable; - if unknown", STATX_BTIME, 0, FMT_OUT_STRING, get_btime_human),
	GNU_ROW('W', 0, FMT_FILE, "time of file birth, seconds since Epoch; 0 if unknown", STATX_BTIME, 0, FMT_OUT_EPOCH, get_btime),
	GNU_ROW('x', 0, FMT_FILE, "time of last access, human-readable", STATX_ATIME, 0, FMT_OUT_STRING, get_atime_human),
	GNU_ROW('X', 0, FMT_FILE, "time of last access, seconds since Epoch", STATX_ATIME, 0, FMT_OUT_EPOCH, get_atime),
	GNU_ROW('y', 0, FMT_FILE, "time of last data modification, human-readable", STATX_MTIME, 0, FMT_OUT_STRING, get_mtime_human),
	GNU_ROW('Y', 0, FMT_FILE, "time of last data modification, seconds since Epoch", STATX_MTIME, 0, FMT_OUT_EPOCH, get_mtime),
	GNU_ROW('z', 0, FMT_FILE, "time of last status change, human-readable", STATX_CTIME, 0, FMT_OUT_STRING, get_ctime_human),
	GNU_ROW('Z', 0, FMT_FILE, "time of last status change, seconds since Epoch", STATX_CTIME, 0, FMT_OUT_EPOCH, get_ctime),

	GNU_ROW('a', 0, FMT_FS, "free blocks available to non-superuser", 0, FMT_NEED_STATFS, FMT_OUT_INT, get_fs_avail),
	GNU_ROW('b', 0, FMT_FS, "total data blocks in file system", 0, FMT_NEED_STATFS, FMT_OUT_INT, get_fs_blocks),
	GNU_ROW('c', 0, FMT_FS, "total file nodes in file system", 0, FMT_NEED_STATFS, FMT_OUT_UINT, get_fs_files),
	GNU_ROW('d', 0, FMT_FS, "free file nodes in file system", 0, FMT_NEED_STATFS, FMT_OUT_INT, get_fs_ffree),
	GNU_ROW('f', 0, FMT_FS, "free blocks in file system", 0, FMT_NEED_STATFS, FMT_OUT_INT, get_fs_bfree),
	GNU_ROW('i', 0, FMT_FS, "file system ID in hex", 0, FMT_NEED_STATFS, FMT_OUT_HEX, get_fs_id),
	GNU_ROW('l', 0, FMT_FS, "maximum length of filenames", 0, FMT_NEED_STATFS, FMT_OUT_UINT, get_fs_namelen),
	GNU_ROW('n', 0, FMT_FS, "file name", 0, 0, FMT_OUT_STRING, get_name),
	GNU_ROW('s', 0, FMT_FS, "block size (for faster transfers)", 0, FMT_NEED_STATFS, FMT_OUT_UINT, get_fs_bsize),
	GNU_ROW('S', 0, FMT_FS, "fundamental block size (for block counts)", 0, FMT_NEED_STATFS, FMT_OUT_UINT, get_fs_frsize),
	GNU_ROW('t', 0, FMT_FS, "file system type in hex", 0, FMT_NEED_STATFS, FMT_OUT_HEX, get_fs_type),
	GNU_ROW('T', 0, FMT_FS, "file system type in human readable form", 0, FMT_NEED_STATFS, FMT_OUT_STRING, get_fs_type_name),
};

#undef GNU_ROW

const size_t fmt_directives_count = sizeof(fmt_directives) / sizeof(fmt_directives[0]);

const char *fmt_directive_spelling(const struct fmt_directive *d, char buf[8])
{
	if (d->mod != 0)
		snprintf(buf, 8, "%%%c%c", d->mod, d->letter);
	else
		snprintf(buf, 8, "%%%c", d->letter);
	return buf;
}

void fmt_help(FILE *out, enum fmt_mode mode)
{
	for (size_t i = 0; i < fmt_directives_count; i++) {
		const struct fmt_directive *d = &fmt_directives[i];
		char sp[8];

		if (d->mode == mode)
			fprintf(out, "  %-4s %s\n", fmt_directive_spelling(d, sp), d->help);
	}
}
