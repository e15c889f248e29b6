/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The named fields ("%{size}", the --json keys, the default view's rows):
 * their table and the getters of the statx fields.
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

/*
 * The values of the statx buffer, one getter each, for GNU's letters and the
 * named fields alike.  Each returns FMT_VALUE_NA when stx_mask lacks what its row
 * asks for (@d->statx_mask): a named field then prints "-" (null in JSON),
 * a letter prints the value as GNU's does.
 */

/* The file type words of gnulib's file_type(). */
static const char *type_word(unsigned int mode, uint64_t size)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return size == 0 ? "regular empty file" : "regular file";
	case S_IFDIR: return "directory";
	case S_IFLNK: return "symbolic link";
	case S_IFBLK: return "block special file";
	case S_IFCHR: return "character special file";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "socket";
	default: return "weird file";
	}
}

/* ls -l's ten characters (gnulib's filemode). */
static void mode_string(unsigned int m, char out[11])
{
	static const char rwx[] = "rwxrwxrwx";
	char t;

	switch (m & S_IFMT) {
	case S_IFREG: t = '-'; break;
	case S_IFDIR: t = 'd'; break;
	case S_IFBLK: t = 'b'; break;
	case S_IFCHR: t = 'c'; break;
	case S_IFLNK: t = 'l'; break;
	case S_IFIFO: t = 'p'; break;
	case S_IFSOCK: t = 's'; break;
	default: t = '?'; break;
	}
	out[0] = t;
	for (int i = 0; i < 9; i++)
		out[1 + i] = (m & (0400u >> i)) ? rwx[i] : '-';
	if (m & S_ISUID)
		out[3] = (m & S_IXUSR) ? 's' : 'S';
	if (m & S_ISGID)
		out[6] = (m & S_IXGRP) ? 's' : 'S';
	if (m & S_ISVTX)
		out[9] = (m & S_IXOTH) ? 't' : 'T';
	out[10] = '\0';
}

int get_name(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	(void)d;
	v->s = f->name;
	return FMT_VALUE_OK;
}

int get_type(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->s = type_word(f->stx->stx_mode, f->stx->stx_size);
	if (d->name == NULL)
		v->s = _(v->s);	/* %F: GNU's words in GNU's language; the field, for scripts, English */
	return available(f, STATX_TYPE);
}

int get_mode(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_mode;
	return available(f, d->statx_mask);
}

int get_mode_string(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	static char s[11];

	(void)d;
	mode_string(f->stx->stx_mode, s);
	v->s = s;
	return available(f, STATX_TYPE | STATX_MODE);
}

int get_nlink(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_nlink;
	return available(f, d->statx_mask);
}

int get_uid(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_uid;
	return available(f, d->statx_mask);
}

int get_user(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	const char *n = id_name(&f->ctx->users, f->stx->stx_uid, false);

	(void)d;
	v->s = n != NULL ? n : "UNKNOWN";
	return available(f, STATX_UID);
}

int get_gid(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_gid;
	return available(f, d->statx_mask);
}

int get_group(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	const char *n = id_name(&f->ctx->groups, f->stx->stx_gid, true);

	(void)d;
	v->s = n != NULL ? n : "UNKNOWN";
	return available(f, STATX_GID);
}

int get_ino(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_ino;
	return available(f, d->statx_mask);
}

int get_size(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_size;
	return available(f, d->statx_mask);
}

int get_blocks(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_blocks;
	return available(f, d->statx_mask);
}

int get_blksize(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_blksize;
	return available(f, d->statx_mask);
}

int get_dev(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = stx_dev(f->stx);
	return available(f, d->statx_mask);
}

int get_dev_major(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_dev_major;
	return available(f, d->statx_mask);
}

int get_dev_minor(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_dev_minor;
	return available(f, d->statx_mask);
}

int get_rdev(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = stx_rdev(f->stx);
	return available(f, d->statx_mask);
}

int get_rdev_major(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_rdev_major;
	return available(f, d->statx_mask);
}

int get_rdev_minor(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_rdev_minor;
	return available(f, d->statx_mask);
}

int get_atime(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->t = ts(f->stx->stx_atime);
	return available(f, d->statx_mask);
}

int get_mtime(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->t = ts(f->stx->stx_mtime);
	return available(f, d->statx_mask);
}

int get_ctime(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->t = ts(f->stx->stx_ctime);
	return available(f, d->statx_mask);
}

/* 0 when the file system keeps no birth time (%W). */
int get_btime(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	bool known = has(f, STATX_BTIME);

	v->t = known ? ts(f->stx->stx_btime) : (struct timespec){ 0, 0 };
	return known ? available(f, d->statx_mask) : FMT_VALUE_NA;
}

static int get_mnt_id(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_mnt_id;
	return available(f, d->statx_mask);
}

static int get_dio_mem_align(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_dio_mem_align;
	return available(f, d->statx_mask);
}

static int get_dio_offset_align(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_dio_offset_align;
	return available(f, d->statx_mask);
}

static int get_dio_read_offset_align(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_dio_read_offset_align;
	return available(f, d->statx_mask);
}

static int get_subvol(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_subvol;
	return available(f, d->statx_mask);
}

static int get_atomic_write_unit_min(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_atomic_write_unit_min;
	return available(f, d->statx_mask);
}

static int get_atomic_write_unit_max(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_atomic_write_unit_max;
	return available(f, d->statx_mask);
}

static int get_atomic_write_unit_max_opt(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_atomic_write_unit_max_opt;
	return available(f, d->statx_mask);
}

static int get_atomic_write_segments_max(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_atomic_write_segments_max;
	return available(f, d->statx_mask);
}

static int get_attributes(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_attributes;
	return available(f, d->statx_mask);
}

static int get_attributes_mask(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	v->u = f->stx->stx_attributes_mask;
	return available(f, d->statx_mask);
}

/* A symbolic link's target, as it is (not available for another type). */
static int get_target(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	const char *path;
	unsigned flags;
	int dirfd;
	char *buf;
	int r;

	(void)d;
	if (!has(f, STATX_TYPE) || !S_ISLNK(f->stx->stx_mode))
		return FMT_VALUE_NA;
	at_args(f, &dirfd, &path, &flags);
	r = fattrs_readlink(dirfd, path, f->stx->stx_size, &buf);
	if (r < 0) {
		cli_warn(-r, _("cannot read symbolic link %s"), qname(f));
		v->s = "?";
		return FMT_VALUE_ERR;
	}
	set_buf(f->ctx, buf);
	v->s = buf;
	return FMT_VALUE_OK;
}

/* The unique mount id: a statx(2) of its own (asking for both ids returns only this one). */
static int get_mnt_id_unique(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v)
{
	struct file_lookups *l = lookups_of(f);

	(void)d;
	if (l->uerr == 1) {
		struct fattrs_statx_buf stx;
		const char *path;
		unsigned flags;
		int dirfd;

		at_args(f, &dirfd, &path, &flags);
		l->uerr = fattrs_statx(dirfd, path, (f->at_flags & ~AT_STATX_SYNC_TYPE) | AT_STATX_DONT_SYNC,
				       STATX_MNT_ID_UNIQUE, &stx);
		if (l->uerr == 0) {
			l->unique = stx.stx_mnt_id;
			l->unique_na = !(stx.stx_mask & STATX_MNT_ID_UNIQUE);
		} else {
			cli_warn(-l->uerr, _("cannot statx %s"), qname(f));
		}
	}
	if (l->uerr < 0)
		return FMT_VALUE_ERR;
	if (l->unique_na)
		return FMT_VALUE_NA;
	v->u = l->unique;
	return FMT_VALUE_OK;
}

static const enum fattrs_fflag fflag_ids[FATTRS_NFFLAGS] = {
	FATTRS_OFFLINE, FATTRS_PINNED, FATTRS_INTEGRITY, FATTRS_NOSCRUB,
};

static const uint64_t sattr_automount = STATX_ATTR_AUTOMOUNT;
static const uint64_t sattr_mount_root = STATX_ATTR_MOUNT_ROOT;
static const uint64_t sattr_atomic = STATX_ATTR_WRITE_ATOMIC;
static const uint64_t sattr_dax = STATX_ATTR_DAX;

#define NAMED_ROW(name_, group_, help_, mask_, needs_, out_, get_, flags_, arg_) \
	{ .mode = FMT_FILE, .name = (name_), .help = (help_), .statx_mask = (mask_), .needs = (needs_), \
	  .out = (out_), .get = (get_), .group = (group_), .flags = (flags_), .arg = (arg_) }
#define MOUNT_ROW(name, help, part) \
	NAMED_ROW(name, "mount", help, STATX_MNT_ID, FMT_NEED_MOUNT_TABLE, FMT_OUT_STRING, get_mount, 0, \
	  &mount_parts[part])

/* The named fields before the flags, in display order, grouped. */
static const struct fmt_directive fields_head[] = {
	NAMED_ROW("name", "file", "file name, as given", 0, 0, FMT_OUT_STRING, get_name, 0, NULL),
	NAMED_ROW("type", "file", "file type, as %F", STATX_TYPE | STATX_SIZE, 0, FMT_OUT_STRING, get_type, 0, NULL),
	NAMED_ROW("target", "file", "target of a symbolic link, as it is (not available for other types)",
	  STATX_TYPE | STATX_SIZE, FMT_NEED_READLINK, FMT_OUT_STRING, get_target, 0, NULL),
	NAMED_ROW("mode", "file", "file type and permission bits (st_mode), in octal", STATX_TYPE | STATX_MODE, 0,
	  FMT_OUT_OCTAL, get_mode, 0, NULL),
	NAMED_ROW("mode_string", "file", "file type and permission bits in human readable form, as %A",
	  STATX_TYPE | STATX_MODE, 0, FMT_OUT_STRING, get_mode_string, 0, NULL),
	NAMED_ROW("nlink", "file", "number of hard links", STATX_NLINK, 0, FMT_OUT_UINT, get_nlink, 0, NULL),
	NAMED_ROW("uid", "file", "user ID of owner", STATX_UID, 0, FMT_OUT_UINT, get_uid, 0, NULL),
	NAMED_ROW("user", "file", "user name of owner (UNKNOWN if none)", STATX_UID, FMT_NEED_USER, FMT_OUT_STRING,
	  get_user, 0, NULL),
	NAMED_ROW("gid", "file", "group ID of owner", STATX_GID, 0, FMT_OUT_UINT, get_gid, 0, NULL),
	NAMED_ROW("group", "file", "group name of owner (UNKNOWN if none)", STATX_GID, FMT_NEED_GROUP, FMT_OUT_STRING,
	  get_group, 0, NULL),
	NAMED_ROW("ino", "file", "inode number", STATX_INO, 0, FMT_OUT_UINT, get_ino, FMT_F_ID, NULL),
	NAMED_ROW("size", "file", "total size, in bytes", STATX_SIZE, 0, FMT_OUT_UINT, get_size, 0, NULL),
	NAMED_ROW("blocks", "file", "number of 512-byte blocks allocated", STATX_BLOCKS, 0, FMT_OUT_UINT,
	  get_blocks, 0, NULL),
	NAMED_ROW("blksize", "file", "optimal I/O transfer size hint", 0, 0, FMT_OUT_UINT, get_blksize, 0, NULL),
	NAMED_ROW("dev", "file", "device number of the file system (st_dev), in decimal", 0, 0, FMT_OUT_UINT,
	  get_dev, FMT_F_ID, NULL),
	NAMED_ROW("dev_major", "file", "major device number of the file system", 0, 0, FMT_OUT_UINT,
	  get_dev_major, 0, NULL),
	NAMED_ROW("dev_minor", "file", "minor device number of the file system", 0, 0, FMT_OUT_UINT,
	  get_dev_minor, 0, NULL),
	NAMED_ROW("rdev", "file", "device type of a device special file (st_rdev), in decimal", 0, 0, FMT_OUT_UINT,
	  get_rdev, FMT_F_ID, NULL),
	NAMED_ROW("rdev_major", "file", "major device type of a device special file", 0, 0, FMT_OUT_UINT,
	  get_rdev_major, 0, NULL),
	NAMED_ROW("rdev_minor", "file", "minor device type of a device special file", 0, 0, FMT_OUT_UINT,
	  get_rdev_minor, 0, NULL),

	NAMED_ROW("atime", "time", "time of last access, seconds since the Epoch", STATX_ATIME, 0, FMT_OUT_EPOCH,
	  get_atime, 0, NULL),
	NAMED_ROW("mtime", "time", "time of last data modification, seconds since the Epoch", STATX_MTIME, 0,
	  FMT_OUT_EPOCH, get_mtime, 0, NULL),
	NAMED_ROW("ctime", "time", "time of last status change, seconds since the Epoch", STATX_CTIME, 0,
	  FMT_OUT_EPOCH, get_ctime, 0, NULL),
	NAMED_ROW("btime", "time", "time of file birth, seconds since the Epoch", STATX_BTIME, 0, FMT_OUT_EPOCH,
	  get_btime, 0, NULL),

	NAMED_ROW("mnt_id", "mount", "mount id (as in /proc/self/mountinfo)", STATX_MNT_ID, 0, FMT_OUT_UINT,
	  get_mnt_id, FMT_F_ID, NULL),
	NAMED_ROW("mnt_id_unique", "mount", "unique mount id, never reused (one more statx call)", 0,
	  FMT_NEED_MNT_UNIQUE, FMT_OUT_UINT, get_mnt_id_unique, FMT_F_ID | FMT_F_ALL, NULL),
	MOUNT_ROW("mount_point", "mount point of the file's mount (exact, from its mount id)", M_TARGET),
	MOUNT_ROW("fstype", "file system type of the mount", M_FSTYPE),
	MOUNT_ROW("source", "source of the mount (device, or what was mounted)", M_SOURCE),
	MOUNT_ROW("mount_options", "per-mount options (rw, nosuid, relatime, ...)", M_OPTIONS),
	MOUNT_ROW("fsroot", "directory of the file system mounted there (a bind mount's source)", M_ROOT),

	NAMED_ROW("dio_mem_align", "dio", "direct I/O memory buffer alignment, in bytes", STATX_DIOALIGN, 0,
	  FMT_OUT_UINT, get_dio_mem_align, 0, NULL),
	NAMED_ROW("dio_offset_align", "dio", "direct I/O file offset and length alignment, in bytes", STATX_DIOALIGN, 0,
	  FMT_OUT_UINT, get_dio_offset_align, 0, NULL),
	NAMED_ROW("dio_read_offset_align", "dio", "direct I/O read offset and length alignment, in bytes",
	  STATX_DIO_READ_ALIGN, 0, FMT_OUT_UINT, get_dio_read_offset_align, 0, NULL),

	NAMED_ROW("subvol", "subvol", "subvolume id", STATX_SUBVOL, 0, FMT_OUT_UINT, get_subvol, FMT_F_ID, NULL),

	NAMED_ROW("atomic_write_unit_min", "atomic", "smallest atomic write, in bytes (0: no atomic writes)",
	  STATX_WRITE_ATOMIC, 0, FMT_OUT_UINT, get_atomic_write_unit_min, 0, NULL),
	NAMED_ROW("atomic_write_unit_max", "atomic", "largest atomic write, in bytes", STATX_WRITE_ATOMIC, 0,
	  FMT_OUT_UINT, get_atomic_write_unit_max, 0, NULL),
	NAMED_ROW("atomic_write_unit_max_opt", "atomic",
	  "largest atomic write that is not slower, in bytes (0: no such limit)", STATX_WRITE_ATOMIC, 0,
	  FMT_OUT_UINT, get_atomic_write_unit_max_opt, 0, NULL),
	NAMED_ROW("atomic_write_segments_max", "atomic", "most iovec segments of an atomic write",
	  STATX_WRITE_ATOMIC, 0, FMT_OUT_UINT, get_atomic_write_segments_max, 0, NULL),

	NAMED_ROW("attributes", "attributes", "statx attribute flags (stx_attributes), in hex", 0, 0, FMT_OUT_HEX,
	  get_attributes, 0, NULL),
	NAMED_ROW("attributes_mask", "attributes",
	  "statx attribute flags the file system supports (stx_attributes_mask), in hex", 0, 0, FMT_OUT_HEX,
	  get_attributes_mask, 0, NULL),
	NAMED_ROW("automount", "attributes", "the directory is an automount trigger", 0, 0, FMT_OUT_STATE,
	  get_sattr, 0, &sattr_automount),
	NAMED_ROW("mount_root", "attributes", "the file is the root of a mount", 0, 0, FMT_OUT_STATE, get_sattr, 0,
	  &sattr_mount_root),
	NAMED_ROW("atomic_write", "attributes", "the file supports atomic writes", 0, 0, FMT_OUT_STATE, get_sattr, 0,
	  &sattr_atomic),
	NAMED_ROW("dax_active", "attributes", "the file is accessed directly (DAX) now", 0, 0, FMT_OUT_STATE,
	  get_sattr, 0, &sattr_dax),
};

static const struct fmt_directive field_projid =
	NAMED_ROW("projid", "kflags", "project id (file_getattr)", STATX_TYPE, FMT_NEED_KFLAGS, FMT_OUT_UINT,
	  get_projid, 0, NULL);

static const struct fmt_directive field_fattrs_other =
	NAMED_ROW("fattrs_other", "fattrs", "other names under user.fattr., joined by commas (\\, and \\\\ in a name)",
	  STATX_TYPE | STATX_MNT_ID, FMT_NEED_FFLAGS, FMT_OUT_LIST, get_fattrs_other, 0, NULL);

#undef NAMED_ROW
#undef MOUNT_ROW

/* Every named field: fields_head, a row per kernel flag, projid, a row per fattrs flag. */
struct fmt_directive fields[sizeof(fields_head) / sizeof(fields_head[0]) + FATTRS_KFLAGS_MAX + 1 +
				   FATTRS_NFFLAGS];
size_t n_fields;
struct json_key json_keys[sizeof(fields) / sizeof(fields[0])];

static void keys_init(void)
{
	for (size_t i = 0; i < n_fields; i++) {
		struct json_key *k = &json_keys[i];

		if (!cli_json_plain(fields[i].name) || strlen(fields[i].name) > 60)
			continue;
		k->len = (uint8_t)snprintf(k->text, sizeof(k->text), ",\"%s\":", fields[i].name);
		k->str_len = (uint8_t)snprintf(k->str, sizeof(k->str), ",\"%s_str\":", fields[i].name);
	}
}

/* The names of the kernel flags with a '-' (setfattrs' name), written with '_'. */
static char kflag_names[FATTRS_KFLAGS_MAX][32];

static void fields_init(void)
{
	const struct fattrs_kflag *k;
	size_t nk;

	if (n_fields != 0)
		return;
	for (size_t i = 0; i < sizeof(fields_head) / sizeof(fields_head[0]); i++)
		fields[n_fields++] = fields_head[i];
	k = fattrs_kflags_table(&nk);
	for (size_t i = 0; i < nk && i < FATTRS_KFLAGS_MAX; i++) {
		enum fattrs_kread how = fattrs_kflag_read_by(&k[i]);
		/* Only the flags only xfs keeps, and those that cost an open and an ioctl, are -a's. */
		bool all = how == FATTRS_KREAD_IFLAGS || (k[i].iflag == 0 && k[i].statx_attr == 0);

		const char *name = k[i].name;

		if (strchr(name, '-') != NULL && strlen(name) < sizeof(kflag_names[0])) {
			/* A key like every other: "inline_data"; "inline-data" still names it in a format. */
			char *u = kflag_names[i];

			strcpy(u, name);
			for (char *c = strchr(u, '-'); c != NULL; c = strchr(c, '-'))
				*c = '_';
			name = u;
		}
		fields[n_fields++] = (struct fmt_directive){
			.mode = FMT_FILE,
			.name = name,
			.alias = name != k[i].name ? k[i].name : NULL,
			.help = k[i].description,
			.statx_mask = how == FATTRS_KREAD_STATX ? 0 : STATX_TYPE | STATX_MNT_ID,
			.needs = how == FATTRS_KREAD_STATX ? 0 : (how == FATTRS_KREAD_XFLAGS ? FMT_NEED_KFLAGS : FMT_NEED_IFLAGS) |
				 FMT_NEED_MOUNT_TABLE,
			.out = FMT_OUT_STATE,
			.get = get_kflag,
			.group = "kflags",
			.flags = all ? FMT_F_ALL : 0,
			.arg = &k[i],
		};
	}
	fields[n_fields++] = field_projid;
	for (size_t i = 0; i <= FATTRS_NFFLAGS; i++) {
		if (i == FATTRS_NFFLAGS) {
			fields[n_fields++] = field_fattrs_other;
			break;
		}
		const struct fattrs_fflag_info *fi = fattrs_fflag_info(fflag_ids[i]);

		fields[n_fields++] = (struct fmt_directive){
			.mode = FMT_FILE,
			.name = fi->name,
			.help = fi->description,
			.statx_mask = STATX_TYPE | STATX_MNT_ID,
			.needs = FMT_NEED_FFLAGS,
			.out = FMT_OUT_STATE,
			.get = get_fflag,
			.group = "fattrs",
			.arg = &fflag_ids[i],
		};
	}
	keys_init();
}

const struct fmt_directive *fmt_field_next(size_t *pos)
{
	fields_init();
	if (*pos >= n_fields)
		return NULL;
	return &fields[(*pos)++];
}

const struct fmt_directive *fmt_field_find(const char *name)
{
	fields_init();
	for (size_t i = 0; i < n_fields; i++)
		if (strcmp(fields[i].name, name) == 0 ||
		    (fields[i].alias != NULL && strcmp(fields[i].alias, name) == 0))
			return &fields[i];
	return NULL;
}

unsigned int fmt_field_statx_mask(const struct fmt_directive *d)
{
	unsigned int m = d->statx_mask;

	/* ext4, xfs, btrfs and tmpfs return neither time unless asked for one of them. */
	if (m & (STATX_MTIME | STATX_CTIME))
		m |= STATX_MTIME | STATX_CTIME;
	/*
	 * STATX_ATTR_WRITE_ATOMIC is in stx_attributes(_mask) only when
	 * STATX_WRITE_ATOMIC was asked for (ext4: 0x703874, else 0x303874):
	 * asked, not required (tmpfs returns no STATX_WRITE_ATOMIC).
	 */
	if (strcmp(d->group, "attributes") == 0)
		m |= STATX_WRITE_ATOMIC;
	return m;
}

unsigned int fmt_json_statx_mask(bool all)
{
	unsigned int m = 0;

	fields_init();
	for (size_t i = 0; i < n_fields; i++)
		if (all || !(fields[i].flags & FMT_F_ALL))
			m |= fmt_field_statx_mask(&fields[i]);
	return m;
}

void fmt_help_fields(FILE *out)
{
	const char *group = NULL;

	fields_init();
	for (size_t i = 0; i < n_fields; i++) {
		const struct fmt_directive *d = &fields[i];
		char name[64];

		if (group != NULL && strcmp(group, d->group) != 0)
			fputc('\n', out);
		group = d->group;
		snprintf(name, sizeof(name), "%%{%s}", d->name);
		fprintf(out, "  %-28s %s%s\n", name, d->help, (d->flags & FMT_F_ALL) ? " (-a)" : "");
	}
}
