/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The format engine of xstat (doc/design.md §7): a format parsed once, and the two tables, of
 * directives and of named fields, that --help, --json, the default view and the docs derive from.
 */
#ifndef FATTRS_FORMAT_H
#define FATTRS_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/statfs.h>

#include "fattrs.h"

struct cli_buf;

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
	FMT_NEED_KFLAGS = 1 << 8,	/* the xflags word: file_getattr(2) (kflags) */
	FMT_NEED_IFLAGS = 1 << 9,	/* the FS_*_FL word: an open and FS_IOC_GETFLAGS */
	FMT_NEED_FFLAGS = 1 << 10,	/* listxattrat(2), a getxattrat(2) per user.fattr. name
					 * present (fflags); the filesystem's support is
					 * probed once per mount */
	FMT_NEED_MNT_UNIQUE = 1 << 11,	/* a statx(2) of its own for STATX_MNT_ID_UNIQUE */
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
	FMT_OUT_STATE,		/* a flag's state word (fattrs_state_name()), as FMT_OUT_STRING */
	FMT_OUT_LIST,		/* names joined by ",", as FMT_OUT_STRING; --json: an array */
};

/*
 * A flag's field prints the word of its state, fattrs_state_name() (-c,
 * --printf, --json and the default view alike).  Stable: scripts compare
 * them.  Kernel flags are set, clear or unsupported; the four fattrs(7)
 * flags can also be invalid (their user.fattr. xattr holds a value other
 * than "1" or "0").
 */

/*
 * What a named field prints in -c and --printf when the kernel did not
 * return it (its STATX_* bit missing from stx_mask, a mount id missing
 * from the mount table, ...): never 0.  A string, padded to the width as
 * strings are (printf's numeric flags do not apply to it).  --json writes
 * null instead, and the default view "not available".
 */
#define FMT_NOT_AVAILABLE "-"

struct fmt_file;
union fmt_value;

/* Flags of a row (struct fmt_directive's @flags). */
enum {
	/*
	 * A field for -a/--all only: costly (more system calls per file:
	 * FMT_NEED_IFLAGS, FMT_NEED_MNT_UNIQUE) or rarely set (the flags only
	 * xfs keeps).  --json and the default view leave it out unless -a.
	 */
	FMT_F_ALL = 1 << 0,
	/*
	 * A 64-bit identifier (ino, dev, mnt_id, ...): scripts compare it and
	 * never compute with it.  --json also writes it as a string of decimal
	 * digits under NAME_str, exact where jq 1.6 rounds numbers past 2^53.
	 */
	FMT_F_ID = 1 << 1,
};

/**
 * struct fmt_directive - one row of a table: a letter directive of
 * fmt_directives[] ("%s"), or a named field (fmt_field_next(): "%{size}").
 * @letter:     the conversion letter (0 for a named field)
 * @mod:        'H' or 'L' for %Hd %Ld %Hr %Lr, else 0
 * @mode:       FMT_FILE or FMT_FS
 * @name:       the %{name} of the field and its --json key (NULL: letter only)
 * @help:       the --help and man page description (English, lowercase)
 * @statx_mask: the STATX_* fields it reads
 * @needs:      FMT_NEED_* lookups
 * @out:        how it prints
 * @get:        its value (the engine's business)
 * @group:      named fields: which part of the default view it belongs to,
 *              a word for headings ("file", "time", "mount", "dio",
 *              "subvol", "atomic", "attributes", "kflags", "fattrs");
 *              the fields of a group are consecutive, in display order
 * @flags:      FMT_F_* bits
 * @arg:        the kernel flag's row (kflags) or the fattrs flag (fflags)
 * @alias:      a former name of the field, still found by "%{alias}" and
 *              still written as a --json key beside @name (NULL: none)
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
	int (*get)(struct fmt_file *f, const struct fmt_directive *d, union fmt_value *v);
	const char *group;
	unsigned int flags;
	const void *arg;
	const char *alias;
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
 * @name:     the operand as given ("-" for standard input): %n, messages
 * @stx:      its statx result (FMT_FILE), asked for at least
 *            fmt_statx_mask() (or fmt_field_statx_mask()) of what is shown
 * @sfs:      its statfs result (FMT_FS)
 * @ctx:      the run's caches
 * @path:     how @stx was had, for the lookups of FMT_NEED_* (file_getattr,
 *            listxattrat, the unique mount id's statx): @path relative to
 *            @dirfd ("" with AT_EMPTY_PATH for standard input: @dirfd 0);
 *            NULL means @name relative to the working directory (@dirfd
 *            is then ignored)
 * @dirfd:    see @path
 * @at_flags: the flags @stx's statx(2) was called with (AT_SYMLINK_NOFOLLOW,
 *            AT_EMPTY_PATH, AT_STATX_*): the lookups follow a symlink
 *            exactly when it did
 *
 * Zero-initialise it, fill in the fields, render it (fmt_render(),
 * fmt_field_put(), fmt_json()) as many times as wanted, then call
 * fmt_file_release() before the next file: what the lookups found is kept
 * in @ctx for this file until then, so that each is made at most once.
 */
struct fmt_file {
	const char *name;
	const struct fattrs_statx_buf *stx;
	const struct statfs *sfs;
	struct fmt_ctx *ctx;
	const char *path;
	int dirfd;
	int at_flags;
};

/* Forget what the lookups found for @f (call it after each file). */
void fmt_file_release(struct fmt_file *f);

/**
 * fmt_render() - print @fmt for one file on @out, then @trailer (one
 * write: the output is made in @file->ctx's buffer).
 *
 * Returns: true if every directive could be rendered; false if one failed
 * (it said why on stderr).  An invalid directive ends the process with
 * GNU stat's message and exit status 1, after what precedes it is
 * written to @out.
 */
bool fmt_render(const struct fmt *fmt, struct fmt_file *file, FILE *out, const char *trailer);
/* The same appended to @b (@out: where @b goes if an invalid directive ends the process). */
bool fmt_render_buf(const struct fmt *fmt, struct fmt_file *file, struct cli_buf *b, FILE *out);

/* Help: print the table of @mode for --help, two columns. */
void fmt_help(FILE *out, enum fmt_mode mode);
/* Help: the named fields, one "  %{name}  help" line each, by group. */
void fmt_help_fields(FILE *out);

/* ------------------------------------------------------------ named fields */

/**
 * fmt_field_next() - iterate over the named fields, in display order
 * (grouped by @group):
 *
 *	size_t pos = 0;
 *	const struct fmt_directive *d;
 *
 *	while ((d = fmt_field_next(&pos)) != NULL)
 *		...;
 *
 * @pos: 0 to start; advanced by each call
 *
 * The rows are the ones "%{name}" finds and the keys of --json: the
 * fields of GNU stat's letters by name ("size", "ino", "mode", "atime",
 * ...), birth time, mount (mnt_id, mnt_id_unique, mount_point, fstype,
 * source, mount_options), direct I/O alignment, subvol, atomic writes,
 * attributes and attributes_mask, the statx-only attribute flags, one row
 * per kernel flag of fattrs_kflags_table() (group "kflags", @arg its row)
 * and projid, one per fattrs(7) flag (group "fattrs", @arg points to its
 * enum fattrs_fflag), and fattrs_other: the other names under user.fattr.
 *
 * Returns: the next row, or NULL after the last.
 */
const struct fmt_directive *fmt_field_next(size_t *pos);

/* The named field @name (NUL-terminated; a former name, @alias, too), or NULL. */
const struct fmt_directive *fmt_field_find(const char *name);

/* The STATX_* bits to ask for to show @d (fmt_statx_mask() of a format holding it). */
unsigned int fmt_field_statx_mask(const struct fmt_directive *d);

/* What fmt_field_put() found. */
enum fmt_field_status {
	FMT_FIELD_ERROR = 0,	/* a lookup failed: said on stderr (once per file), "?" printed */
	FMT_FIELD_OK = 1,	/* the value was printed */
	FMT_FIELD_NA = 2,	/* not available (nothing printed): the kernel did not return it */
};

/**
 * fmt_field_put() - append one named field of @f to @b, bare: as
 * "%{name}" prints it, without width, with every digit of a timestamp's
 * fraction for FMT_OUT_EPOCH ("%.9{atime}"; see FMT_PRINT_HUMAN and
 * FMT_PRINT_QUOTE for @flags, else 0), and nothing at all for a
 * field that is not available (the caller words that: the default view
 * says "not available").  A kernel or fattrs flag prints its state word
 * (fattrs_state_name()).  A lookup the field needs is made the first time a field
 * of @f needs it, and kept until fmt_file_release().
 *
 * Returns: FMT_FIELD_OK, FMT_FIELD_NA, or FMT_FIELD_ERROR (then the run
 * should exit 1; the message, naming the file, is already on stderr).
 */
enum fmt_field_status fmt_field_put(const struct fmt_directive *d, struct fmt_file *f, struct cli_buf *b,
				    unsigned int flags);

/*
 * fmt_field_state() - the state of a flag's field (FMT_OUT_STATE), as
 * fmt_field_put() would word it; FATTRS_STATE_UNREADABLE when the caller
 * may not read it (an open refused): "-" in -c, null in --json, no
 * message (fmt_field_detail() says why); FATTRS_STATE_UNKNOWN when its
 * lookup failed (said on stderr, once per file).
 */
enum fattrs_state fmt_field_state(const struct fmt_directive *d, struct fmt_file *f);

/* Flags for fmt_field_put(). */
enum {
	/*
	 * For eyes: timestamps as "%y" prints them ("2024-01-31
	 * 12:34:56.123456789 +0100"), octal and hex numbers with their 0 and
	 * 0x prefixes.
	 */
	FMT_PRINT_HUMAN = 1 << 0,
	/*
	 * Strings (a mount point, a source, a list) quoted as the File: line
	 * quotes a name, shell-escape, when they need it.
	 */
	FMT_PRINT_QUOTE = 1 << 1,
};

/**
 * fmt_field_detail() - a word on where a set fattrs flag was found, for
 * the default view: "user.fattr.offline" (the reserved xattr),
 * "system.ntfs_attrib" or "user.cifs.dosattrib" (the native word), or
 * "statx" (several joined with ","); for an invalid one, its xattr name;
 * for a kernel flag that is not readable, why ("open: Permission denied").
 * Call it after fmt_field_state() or fmt_field_put() of the same field.
 *
 * Returns: the word (valid until the next call), or NULL when there is
 * nothing to say (another group, a clear or unsupported flag).
 */
const char *fmt_field_detail(const struct fmt_directive *d, struct fmt_file *f);

/**
 * fmt_json() - one JSON object for @f on @out, ended by @term ('\n', or
 * '\0' for -0): every named field in fmt_field_next() order, without
 * those marked FMT_F_ALL unless @all.  Keys are the field names; values:
 *  - numbers: exact decimal integers (64-bit unsigned where the kernel's
 *    are); FMT_F_ID fields also as strings under NAME_str;
 *  - timestamps: {"sec": S, "nsec": N} (N from 0 to 999999999; S < 0
 *    before 1970, as statx(2) gives them);
 *  - strings (name, user, mount_point, ...): a JSON string when valid
 *    UTF-8, else an array of the byte values (0-255);
 *  - flags: the word of their state (fattrs_state_name());
 *  - a field that is not available, or whose lookup failed: null.
 *
 * Returns: false if a lookup failed (said on stderr; the object is
 * still whole, with null for what was missing).
 */
bool fmt_json(struct fmt_file *f, FILE *out, bool all, char term);

/* The statx(2) mask that fmt_json() with @all needs. */
unsigned int fmt_json_statx_mask(bool all);

#endif /* FATTRS_FORMAT_H */
