/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Operations on attribute flags as setfattrs(1) takes them, parsed into one per-flag plan
 * (doc/design.md §3).  Included from fattrs.h; do not include it on its own.
 */
#ifndef FATTRS_FLAGOPS_H
#define FATTRS_FLAGOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for every row of fattrs_kflags_table() (kflags.c checks it). */
#define FATTRS_KFLAGS_MAX 48

/* What a plan does with one flag. */
enum fattrs_flagop {
	FATTRS_FLAGOP_LEAVE = 0,	/* leave it as it is */
	FATTRS_FLAGOP_SET,	/* set it (named after '+' or '=') */
	FATTRS_FLAGOP_CLEAR,	/* clear it (named after '-') */
	/*
	 * Not named, but an '=' came before: clear it where the file has it
	 * set and it can be changed; never an error where it cannot be held.
	 */
	FATTRS_FLAGOP_CLEAR_OTHERS,
};

/**
 * struct fattrs_flagops - the net effect of a list of operations.
 * @assign: an '=' was given (unnamed flags are FATTRS_FLAGOP_CLEAR_OTHERS)
 * @fop:    each fattrs(7) flag's operation (enum fattrs_flagop), by enum
 *          fattrs_fflag
 * @kop:    each kernel flag's operation, by its row in fattrs_kflags_table()
 *          (read-only rows stay FATTRS_FLAGOP_LEAVE)
 * @ksize:  the size hint in bytes given with a kernel flag's set
 *          ("+extsize=1m"), by row; 0 where none was given
 */
struct fattrs_flagops {
	bool assign;
	unsigned char fop[FATTRS_NFFLAGS];
	unsigned char kop[FATTRS_KFLAGS_MAX];
	uint32_t ksize[FATTRS_KFLAGS_MAX];
};

/** fattrs_flagops_init() - an empty plan: every flag FATTRS_FLAGOP_LEAVE. */
void fattrs_flagops_init(struct fattrs_flagops *ops);

/**
 * struct fattrs_flagops_error - why an argument was refused.
 * @offset:  where the offending flag starts in the argument
 * @len:     its length in bytes (whole UTF-8 characters)
 * @suggest: the nearest flag name or letter (a static string), or NULL
 */
struct fattrs_flagops_error {
	size_t offset;
	size_t len;
	const char *suggest;
};

/**
 * fattrs_flagops_parse() - apply one argument to @ops, after what it holds.
 * @ops:     the plan so far; unchanged unless 0 is returned
 * @arg:     "+FLAG[,FLAG]...", "-..." or "=..." ("=" alone: clear all).
 *           FLAG is a kernel flag's name ("immutable"), one of the four
 *           fattrs(7) flags ("offline", also as "user.fattr.offline"), or
 *           a run of chattr letters ("iA": immutable and noatime); a name
 *           wins over letters ("dax" is the flag, not d, a and x).  Case
 *           matters.  The size hints of xfs (extsize, extszinherit,
 *           cowextsize) may be set with their size, "FLAG=SIZE": SIZE in
 *           bytes, with an optional k, m or g (KiB, MiB, GiB), from 1 to
 *           4294967295 bytes.
 * @ret_err: if not NULL, written when -ENOENT or -EPERM is returned
 *
 * A later operation on a flag replaces an earlier one; '=' first makes
 * every flag FATTRS_FLAGOP_CLEAR_OTHERS, then sets the listed ones.
 *
 * Returns: 0; -EINVAL if @arg does not start with '+', '-' or '=', or
 * has an empty FLAG (",,", a trailing ',', "+" alone); -ENOENT if a FLAG
 * names no flag; -EPERM if it names a read-only flag ("extents");
 * -EDOM if a size is given to a flag that takes none, or after '-'
 * (@ret_err: the flag); -ERANGE if a SIZE is no number, 0 or too big
 * (@ret_err: the SIZE; its @len is 0 for an empty one).
 */
int fattrs_flagops_parse(struct fattrs_flagops *ops, const char *arg,
			 struct fattrs_flagops_error *ret_err);

/** fattrs_flagops_empty() - whether @ops changes nothing. */
bool fattrs_flagops_empty(const struct fattrs_flagops *ops);

/**
 * fattrs_flagops_kchange() - the kernel part of @ops for one file.
 * @ops: the plan
 * @cur: the file's kernel flags as read now, or NULL if they could not be
 *       read: FATTRS_FLAGOP_CLEAR_OTHERS then clears nothing
 * @hard: the change asked for by name (FATTRS_FLAGOP_SET and _CLEAR)
 * @soft: what '=' clears besides: the changeable flags set in @cur
 */
void fattrs_flagops_kchange(const struct fattrs_flagops *ops, const struct fattrs_kattr *cur,
			    struct fattrs_kchange *hard, struct fattrs_kchange *soft);

#endif /* FATTRS_FLAGOPS_H */
