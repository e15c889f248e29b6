/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setfattrs(1)'s operations, "[+-=]FLAG[,FLAG]...", parsed left to right into one per-flag plan
 * (doc/design.md §3).  Nothing here touches a file.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "internal.h"

/* A token longer than this is no flag (the longest name has 17 bytes). */
#define TOKEN_MAX 64

void fattrs_flagops_init(struct fattrs_flagops *ops)
{
	*ops = (struct fattrs_flagops){ .assign = false };
}

bool fattrs_flagops_empty(const struct fattrs_flagops *ops)
{
	if (ops->assign)
		return false;
	for (size_t i = 0; i < FATTRS_NFFLAGS; i++) {
		if (ops->fop[i] != FATTRS_FLAGOP_LEAVE)
			return false;
	}
	for (size_t i = 0; i < FATTRS_KFLAGS_MAX; i++) {
		if (ops->kop[i] != FATTRS_FLAGOP_LEAVE)
			return false;
	}
	return true;
}

/* The row index of the kernel flag whose name is @tok (@len bytes), or -1. */
static int kname_find(const char *tok, size_t len)
{
	size_t n;
	const struct fattrs_kflag *t = fattrs_kflags_table(&n);

	for (size_t i = 0; i < n; i++) {
		if (strlen(t[i].name) == len && memcmp(t[i].name, tok, len) == 0)
			return (int)i;
	}
	return -1;
}

static int kletter_find(char c)
{
	size_t n;
	const struct fattrs_kflag *t = fattrs_kflags_table(&n);

	for (size_t i = 0; c != '\0' && i < n; i++) {
		if (t[i].letter == c)
			return (int)i;
	}
	return -1;
}

static int fname_find(const char *tok, size_t len)
{
	char buf[TOKEN_MAX + 1];

	if (len > TOKEN_MAX)
		return -1;
	memcpy(buf, tok, len);
	buf[len] = '\0';
	return fattrs_fflag_find(buf);
}

/* Optimal string alignment distance (edits and adjacent swaps), capped operands. */
static size_t distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t d[TOKEN_MAX + 1][TOKEN_MAX + 1];

	if (la > TOKEN_MAX)
		la = TOKEN_MAX;
	if (lb > TOKEN_MAX)
		lb = TOKEN_MAX;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t v = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

/*
 * The length in bytes of the character at @s (at most @max bytes): a
 * UTF-8 sequence whole, so that a message never names half a character;
 * 1 for ASCII and for a byte that starts no valid sequence.
 */
static size_t char_len(const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = u[0] >= 0xf0 && u[0] <= 0xf4 ? 4 : u[0] >= 0xe0 ? 3 : u[0] >= 0xc2 && u[0] < 0xe0 ? 2 : 1;

	if (u[0] < 0x80 || u[0] > 0xf4 || n > max)
		return 1;
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 1;
	}
	return n;
}

/* The number of characters in the @len bytes at @s (char_len()). */
static size_t char_count(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i += char_len(s + i, len - i))
		n++;
	return n;
}

/* Every letter as a string, for suggestions ("s" for secrm...). */
static const char *letter_string(char c)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	static const char *strs[] = {
		"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m",
		"n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z",
		"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M",
		"N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z",
	};
	const char *p = c != '\0' ? strchr(letters, c) : NULL;

	return p != NULL ? strs[p - letters] : NULL;
}

/*
 * flag_suggest() - the flag name or chattr letter nearest to
 * @tok (@len bytes) by edit distance, if near enough to be a likely typo.
 *
 * Returns: a static string, or NULL.
 */
static const char *flag_suggest(const char *tok, size_t len)
{
	size_t n, best_d = (size_t)-1;
	const struct fattrs_kflag *t = fattrs_kflags_table(&n);
	const char *best = NULL;
	char lower[TOKEN_MAX];

	if (len == 0 || len > TOKEN_MAX)
		return NULL;
	/* One character that is not ASCII: no flag is near it. */
	if (len > 1 && char_len(tok, len) == len)
		return NULL;
	/* One letter: the same letter in the other case, if that is a flag. */
	if (len == 1) {
		char c = tok[0];
		char other = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') :
			     (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : '\0';

		int k = kletter_find(other);

		/* Not a read-only one: it could not be set or cleared either. */
		return k >= 0 && !t[k].readonly ? letter_string(other) : NULL;
	}
	/* The names are lower case: "+OFFLINE" and "+Immutable" are typos of them. */
	for (size_t i = 0; i < len; i++)
		lower[i] = tok[i] >= 'A' && tok[i] <= 'Z' ? (char)(tok[i] - 'A' + 'a') : tok[i];
	for (size_t i = 0; i < n + FATTRS_NFFLAGS; i++) {
		const char *name = i < n ? t[i].name : fattrs_fflag_info((enum fattrs_fflag)(i - n))->name;
		size_t d = distance(lower, len, name, strlen(name));

		if (d < best_d) {
			best_d = d;
			best = name;
		}
	}
	/* A likely typo: at most a third of the name wrong (and at least one edit allowed). */
	if (best != NULL && best_d <= (len / 3 > 1 ? len / 3 : 1) + (len >= 6 ? 1 : 0))
		return best;
	return NULL;
}

static void set_op(struct fattrs_flagops *ops, bool kernel, int i, enum fattrs_flagop op)
{
	if (kernel) {
		ops->kop[i] = (unsigned char)op;
		ops->ksize[i] = 0;
	} else {
		ops->fop[i] = (unsigned char)op;
	}
}

/* Whether kernel flag @f is one of xfs's size hints, which take "=SIZE". */
static bool takes_size(const struct fattrs_kflag *f)
{
	return (f->xflag & (FS_XFLAG_EXTSIZE | FS_XFLAG_EXTSZINHERIT | FS_XFLAG_COWEXTSIZE)) != 0;
}

/*
 * SIZE (@len bytes at @s): decimal digits and an optional k, m or g (KiB,
 * MiB, GiB; either case), as xfs_io's extsize takes it; 1 to UINT32_MAX
 * bytes.  Returns it, or 0 if it is none of those.
 */
static uint32_t parse_size(const char *s, size_t len)
{
	uint64_t v = 0, mult = 1;
	size_t ndig = len;

	if (len > 0) {
		switch (s[len - 1]) {
		case 'k': case 'K':
			mult = 1024;
			break;
		case 'm': case 'M':
			mult = 1024 * 1024;
			break;
		case 'g': case 'G':
			mult = 1024 * 1024 * 1024;
			break;
		default:
			break;
		}
		if (mult != 1)
			ndig--;
	}
	if (ndig == 0)
		return 0;
	for (size_t i = 0; i < ndig; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > UINT32_MAX)
			return 0;
	}
	v *= mult;
	return v > UINT32_MAX ? 0 : (uint32_t)v;
}

static int refuse(struct fattrs_flagops_error *ret_err, int r, const char *arg, const char *tok,
		  size_t len, const char *suggest)
{
	if (ret_err != NULL)
		*ret_err = (struct fattrs_flagops_error){ .offset = (size_t)(tok - arg), .len = len,
							  .suggest = suggest };
	return r;
}

int fattrs_flagops_parse(struct fattrs_flagops *ops, const char *arg,
			 struct fattrs_flagops_error *ret_err)
{
	struct fattrs_flagops next = *ops;
	enum fattrs_flagop op;
	size_t n;
	const struct fattrs_kflag *t = fattrs_kflags_table(&n);
	const char *p;

	switch (arg[0]) {
	case '+':
		op = FATTRS_FLAGOP_SET;
		break;
	case '-':
		op = FATTRS_FLAGOP_CLEAR;
		break;
	case '=':
		op = FATTRS_FLAGOP_SET;
		next.assign = true;
		for (size_t i = 0; i < FATTRS_NFFLAGS; i++)
			next.fop[i] = FATTRS_FLAGOP_CLEAR_OTHERS;
		for (size_t i = 0; i < n; i++) {
			next.kop[i] = t[i].readonly ? FATTRS_FLAGOP_LEAVE : FATTRS_FLAGOP_CLEAR_OTHERS;
			next.ksize[i] = 0;
		}
		if (arg[1] == '\0') {
			*ops = next;
			return 0;
		}
		break;
	default:
		return -EINVAL;
	}

	p = arg + 1;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		size_t vlen = 0;
		int k = -1, f = -1;

		if (len == 0)
			return -EINVAL;
		/* "FLAG=SIZE": the flag is what comes before the '=' ("=x" stays an unknown flag). */
		if (eq != NULL && eq > p) {
			vlen = len - (size_t)(eq - p) - 1;
			len = (size_t)(eq - p);
		} else {
			eq = NULL;
		}
		k = kname_find(p, len);
		if (k < 0)
			f = fname_find(p, len);
		if (k >= 0 || f >= 0) {
			if (k >= 0 && t[k].readonly)
				return refuse(ret_err, -EPERM, arg, p, len, NULL);
			if (eq != NULL && (k < 0 || !takes_size(&t[k]) || op != FATTRS_FLAGOP_SET))
				return refuse(ret_err, -EDOM, arg, p, len, NULL);
			set_op(&next, k >= 0, k >= 0 ? k : f, op);
			if (eq != NULL) {
				uint32_t size = parse_size(eq + 1, vlen);

				if (size == 0)
					return refuse(ret_err, -ERANGE, arg, eq + 1, vlen, NULL);
				next.ksize[k] = size;
			}
		} else {
			/* A run of letters: every one must be a flag's (a letter is ASCII). */
			for (size_t i = 0; i < len; i++) {
				if (kletter_find(p[i]) < 0) {
					const char *s = flag_suggest(p, len);
					size_t nchars = char_count(p, len), clen = char_len(p + i, len - i);

					/* "+iq": no typo of a name; name the letter, whole ("+ié"). */
					if (s == NULL && nchars > 1 && nchars <= 3)
						return refuse(ret_err, -ENOENT, arg, p + i, clen,
							      flag_suggest(p + i, clen));
					return refuse(ret_err, -ENOENT, arg, p, len, s);
				}
			}
			for (size_t i = 0; i < len; i++) {
				k = kletter_find(p[i]);
				if (t[k].readonly)
					return refuse(ret_err, -EPERM, arg, p + i, 1, NULL);
			}
			/* No letter is a size hint's: "+d=4k" gives a size to a flag that takes none. */
			if (eq != NULL)
				return refuse(ret_err, -EDOM, arg, p, len, NULL);
			for (size_t i = 0; i < len; i++)
				set_op(&next, true, kletter_find(p[i]), op);
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
	*ops = next;
	return 0;
}

void fattrs_flagops_kchange(const struct fattrs_flagops *ops, const struct fattrs_kattr *cur,
			    struct fattrs_kchange *hard, struct fattrs_kchange *soft)
{
	size_t n;
	const struct fattrs_kflag *t = fattrs_kflags_table(&n);

	*hard = (struct fattrs_kchange){ .xset = 0 };
	*soft = (struct fattrs_kchange){ .xset = 0 };
	for (size_t i = 0; i < n; i++) {
		switch (ops->kop[i]) {
		case FATTRS_FLAGOP_SET:
			(void)fattrs_kchange_add(hard, &t[i], true);
			if (ops->ksize[i] != 0 && (t[i].xflag & FS_XFLAG_COWEXTSIZE))
				hard->cowextsize = ops->ksize[i];
			else if (ops->ksize[i] != 0)
				hard->extsize = ops->ksize[i];
			break;
		case FATTRS_FLAGOP_CLEAR:
			(void)fattrs_kchange_add(hard, &t[i], false);
			break;
		case FATTRS_FLAGOP_CLEAR_OTHERS:
			if (cur != NULL && !t[i].readonly && fattrs_kattr_test(cur, &t[i]) == 1)
				(void)fattrs_kchange_add(soft, &t[i], false);
			break;
		default:
			break;
		}
	}
}
