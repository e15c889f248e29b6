/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The format engine of xstat (src/format.c): a format is parsed once into
 * pieces (literal bytes, directives with their flags, width and
 * precision), which record what they need (statx fields, statfs, user and
 * group names, the mount point, the SELinux context); each file is then
 * rendered from one statx(2) call that asks for exactly those fields.
 *
 * One table (fmt_directives) describes every directive: its letter, the
 * mode it belongs to, what it needs and its --help line.  --help prints
 * from it, and tests/docs checks the man page and completions against it.
 *
 * "%{name}" (flags, width and precision before the brace) is the row of
 * the table with that @name.  No row has a name yet (part 2, issue 10,
 * adds them): until then "%{" is an unknown directive, "?" as GNU stat
 * prints it, followed by the rest as text.
 */
#ifndef FATTRS_FORMAT_H
#define FATTRS_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/statfs.h>

#include "fattrs.h"

/* Which table a format uses: files (statx) or file systems (statfs, -f). */
enum fmt_mode {
	FMT_FILE,
	FMT_FS,
};

/* Lookups beyond the statx call that a directive needs. */
enum {
	FMT_NEED_USER = 1 << 0,		/* getpwuid (cached per id) */
	FMT_NEED_GROUP = 1 << 1,	/* getgrgid (cached per id) */
	FMT_NEED_MOUNT_POINT = 1 << 2,	/* walk up to the mount point (GNU's %m) */
	FMT_NEED_SELINUX = 1 << 3,	/* the security.selinux xattr */
	FMT_NEED_READLINK = 1 << 4,	/* a symlink's target */
	FMT_NEED_STATFS = 1 << 5,	/* statfs(2) */
	FMT_NEED_MOUNT_TABLE = 1 << 6,	/* the mount table, by stx_mnt_id (libmount) */
	FMT_NEED_XATTR = 1 << 7,	/* extended attributes */
};

/* How a directive's value is printed (which printf flags apply). */
enum fmt_out {
	FMT_OUT_STRING,		/* %s with the '-' flag only */
	FMT_OUT_STRING_RAW,	/* %s with every flag as written (GNU's %C) */
	FMT_OUT_QUOTED,		/* %N: quoted name, and " -> " target for a symlink */
	FMT_OUT_INT,		/* signed decimal: flags ' - + space 0 */
	FMT_OUT_UINT,		/* unsigned decimal: flags ' - 0 */
	FMT_OUT_OCTAL,		/* flags - # 0 */
	FMT_OUT_HEX,		/* flags - # 0 */
	FMT_OUT_EPOCH,		/* seconds since the Epoch, precision = fraction digits */
};

struct fmt_file;
union fmt_value;

/**
 * struct fmt_directive - one row of the table.
 * @letter:     the conversion letter
 * @mod:        'H' or 'L' for %Hd %Ld %Hr %Lr, else 0
 * @mode:       FMT_FILE or FMT_FS
 * @name:       the %{name} of the directive (named directives; NULL: letter only)
 * @help:       the --help and man page description
 * @statx_mask: the STATX_* fields it reads
 * @needs:      FMT_NEED_* lookups
 * @out:        how it prints
 * @get:        its value; false when it could not be had (the value is
 *              printed all the same, and the run exits 1)
 */
struct fmt_directive {
	char letter;
	char mod;
	enum fmt_mode mode;
	const char *name;
	const char *help;
	unsigned int statx_mask;
	unsigned int needs;
	enum fmt_out out;
	bool (*get)(struct fmt_file *f, union fmt_value *v);
};

extern const struct fmt_directive fmt_directives[];
extern const size_t fmt_directives_count;

/* The directive letters as --help shows them ("%Hd"), into @buf. */
const char *fmt_directive_spelling(const struct fmt_directive *d, char buf[8]);

struct fmt;

/* Flags for fmt_parse(). */
enum {
	FMT_ESCAPES = 1 << 0,	/* interpret backslash escapes (--printf) */
};

/**
 * fmt_parse() - parse @text once.
 * @mode:  the directive table to use
 * @flags: FMT_ESCAPES or 0
 *
 * Never fails on a bad format: as in GNU stat, an invalid directive is
 * reported (and ends the run) when the first file is rendered, and escape
 * warnings are printed at each rendering.
 *
 * Returns: the parsed format, or NULL when out of memory.
 */
struct fmt *fmt_parse(const char *text, enum fmt_mode mode, unsigned int flags);
struct fmt *fmt_free(struct fmt *f);

/*
 * The message GNU stat gives for the format's invalid directive ("'%5%'"
 * as written), or NULL when it has none.  Rendering stops there.
 */
const char *fmt_invalid(const struct fmt *f);

/* The statx fields and FMT_NEED_* lookups that rendering @f needs. */
unsigned int fmt_statx_mask(const struct fmt *f);
unsigned int fmt_needs(const struct fmt *f);

/* Caches shared by every file of a run (user and group names, the mount table). */
struct fmt_ctx;
struct fmt_ctx *fmt_ctx_new(void);
struct fmt_ctx *fmt_ctx_free(struct fmt_ctx *c);
/* %N's quoting style (default: literal, as GNU stat's). */
void fmt_ctx_set_quoting(struct fmt_ctx *c, int style);
/* -L: %m and %C follow a symlink operand. */
void fmt_ctx_set_follow(struct fmt_ctx *c, bool follow);

/**
 * struct fmt_file - what one file's rendering reads.
 * @name: the operand as given ("-" for standard input)
 * @stx:  its statx result (FMT_FILE)
 * @sfs:  its statfs result (FMT_FS)
 */
struct fmt_file {
	const char *name;
	const struct fattrs_statx_buf *stx;
	const struct statfs *sfs;
	struct fmt_ctx *ctx;
};

/**
 * fmt_render() - print @fmt for one file on @out, then @trailer.
 *
 * Returns: true if every directive could be rendered; false if one failed
 * (it said why on stderr).  An invalid directive ends the process with
 * GNU stat's message and exit status 1.
 */
bool fmt_render(const struct fmt *fmt, struct fmt_file *file, FILE *out, const char *trailer);

/* Help: print the table of @mode for --help, two columns. */
void fmt_help(FILE *out, enum fmt_mode mode);

#endif /* FATTRS_FORMAT_H */
