/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of xstat's format engine share (format.h is its interface):
 * the run context, the getters' contract, the parsed format.
 */
#ifndef FATTRS_FORMAT_PRIVATE_H
#define FATTRS_FORMAT_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "cli.h"
#include "format.h"

union fmt_value {
	intmax_t i;
	uintmax_t u;
	const char *s;
	struct timespec t;
};

/* ------------------------------------------------------------ context (context.c) */

struct id_name {
	unsigned int id;
	char *name;	/* NULL: no such id */
	bool used;
};

/* User or group names by id: a hash table (open addressing), at most half full. */
struct id_cache {
	struct id_name *v;
	size_t n, alloc;	/* @alloc: 0 or a power of two */
};

/*
 * What the lookups of one file found (FMT_NEED_*), kept until
 * fmt_file_release().  @owner, @ino and @dev tell whose it is: a caller
 * that forgot fmt_file_release() gets fresh lookups, never another file's.
 */
struct file_lookups {
	const struct fmt_file *owner;
	const char *name;
	uint64_t ino;
	uint32_t dev_major, dev_minor;
	int xerr, ierr;		/* 1: not read yet; 0: read; -errno */
	struct fattrs_kattr kx, ki;	/* the xflags group, the iflags word */
	int ferr;
	struct fattrs_fflags ff;
	int uerr;
	uint64_t unique;
	bool unique_na;
	int merr;
	struct fattrs_mount mnt;
	struct fattrs_fsupport fsup;	/* of the mount, when @ferr is 0 */
	char *other;		/* fattrs_other, joined (NULL: not made yet) */
	char detail[128];
};

struct fmt_ctx {
	struct id_cache users, groups;
	int quoting;
	bool follow;
	char *buf;	/* scratch for one value (a link target, a context, a mount point) */
	struct fattrs_mounts *mounts;
	bool mounts_warned;
	struct fattrs_mntcache *mntcache;	/* what each mount keeps (over @mounts) */
	struct file_lookups lookups;
	struct fattrs_mount mnt;	/* the last mount found: the next file is likely on it */
	bool mnt_valid;
	struct cli_buf out;	/* fmt_render() and fmt_json(): one file's output */
};

/* The name of user or group @id, looked up once per id per run. */
const char *id_name(struct id_cache *c, unsigned int id, bool group);
void set_buf(struct fmt_ctx *c, char *s);
/* The per-file lookups of @f, fresh when @f is another file than last time. */
struct file_lookups *lookups_of(struct fmt_file *f);
/* The file's name for messages. */
const char *qname(const struct fmt_file *f);
bool nofollow(const struct fmt_file *f);
/* The dirfd, path and flags of the file for the *at() lookups. */
void at_args(const struct fmt_file *f, int *dirfd, const char **path, unsigned *flags);

/* ------------------------------------------------------------ values */

static inline dev_t stx_dev(const struct fattrs_statx_buf *s)
{
	return makedev(s->stx_dev_major, s->stx_dev_minor);
}

static inline dev_t stx_rdev(const struct fattrs_statx_buf *s)
{
	return makedev(s->stx_rdev_major, s->stx_rdev_minor);
}

static inline struct timespec ts(struct fattrs_statx_timestamp t)
{
	return (struct timespec){ .tv_sec = t.tv_sec, .tv_nsec = t.tv_nsec };
}

static inline bool has(const struct fmt_file *f, unsigned int bit)
{
	return (f->stx->stx_mask & bit) == bit;
}

/* "2024-01-31 12:34:56.123456789 +0100" (time.c). */
const char *human_time(struct timespec t);

/*
 * A value getter (struct fmt_directive's @get) returns FMT_VALUE_OK, FMT_VALUE_ERR (a
 * lookup failed: said on stderr) or FMT_VALUE_NA (the kernel did not return it:
 * a named field prints "-", a letter prints the value as GNU's does).
 */
enum { FMT_VALUE_ERR = 0, FMT_VALUE_OK = 1, FMT_VALUE_NA = 2 };

static inline int available(const struct fmt_file *f, unsigned int mask)
{
	return has(f, mask) ? FMT_VALUE_OK : FMT_VALUE_NA;
}

/* fields.c: the values of the statx buffer, for the letters and the named fields alike */
int get_name(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_type(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_mode(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_mode_string(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_nlink(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_uid(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_user(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_gid(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_group(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_ino(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_size(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_blocks(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_blksize(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_dev(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_dev_major(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_dev_minor(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_rdev(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_rdev_major(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_rdev_minor(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_atime(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_mtime(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_ctime(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_btime(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);

/* fsinfo.c */
enum mount_part { M_TARGET, M_FSTYPE, M_SOURCE, M_OPTIONS, M_ROOT };
extern const uint8_t mount_parts[];
int get_fs_type_name(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_mount(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_kflag(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_projid(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_sattr(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_fattrs_other(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
int get_fflag(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);

/* ------------------------------------------------------------ fields.c */

/*
 * Per field, its JSON key made once (',"name":', and ',"name_str":' for
 * FMT_F_ID), for cli_json_key_raw(); length 0: the name needs an escape
 * (or is too long), and cli_json_key() writes it.
 */
struct json_key {
	uint8_t len, str_len;
	char text[72], str[72];
};
extern struct json_key json_keys[];

/* ------------------------------------------------------------ parse.c */

/*
 * A printf spec ("%-10ju") as the renderer reads it: what it can print
 * without printf (@fast), else printf prints it.
 */
struct spec {
	size_t width;
	bool left;	/* '-' */
	bool zero;	/* '0' (ignored with '-') */
	bool fast;	/* no other flag, no precision but on a string, the expected conversion */
	long prec;	/* -1: none */
};

enum piece_kind {
	P_TEXT,		/* literal bytes */
	P_DIRECTIVE,
	P_UNKNOWN,	/* "?" */
	P_INVALID,	/* ends the run: "'%5%': invalid directive" */
	P_WARN,		/* a warning on stderr (escapes), then nothing */
};

struct piece {
	enum piece_kind kind;
	size_t off, len;	/* P_TEXT: bytes in fmt->text; P_INVALID, P_WARN: the message */
	const struct fmt_directive *d;
	char *spec;		/* P_DIRECTIVE: the printf format for its value */
	char *spec2;		/* %N: the printf format for a symlink's target;
				 * a named field: the format of FMT_NOT_AVAILABLE */
	char *raw;		/* P_DIRECTIVE: "%" flags width precision as written */
	struct spec sp, sp2;	/* @spec and @spec2, read once */
};

struct fmt {
	enum fmt_mode mode;
	char *text;		/* literal bytes, escapes decoded */
	size_t text_len, text_alloc;
	struct piece *p;
	size_t n, alloc;
	unsigned int mask, needs;
	bool oom;
};

/* Read @spec, which should end in the conversion @conv ("s", "ju", ...). */
struct spec spec_read(const char *spec, const char *conv);
/* make_format() on a copy of @raw's @len bytes. */
char *make_spec(const char *raw, size_t len, const char *allowed, const char *suffix);

#endif /* FATTRS_FORMAT_PRIVATE_H */
