/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: setfattrs' operation words, fattrs_flagops_parse() in
 * src/lib/flags/flagops.c.  Each word is checked against the rule spelled out
 * here, with a plan of its own: "+", "-" or "=" and a comma list of
 * non-empty elements, each a kernel flag's word, a fattrs flag (also as
 * user.fattr.NAME) or a run of chattr letters; "=" alone clears all.  The
 * first element that is empty refuses the word with -EINVAL, unknown with
 * -ENOENT (a run: any letter no flag has), read-only with -EPERM; the
 * position points into the word, a suggestion is a real flag word or
 * letter, and a refused word leaves the plan as it was.  An accepted word
 * gives the plan this model computes, left to right.  An element may be
 * "NAME=SIZE" (NAME not empty): only extsize, extszinherit and cowextsize
 * after '+' or '=' take a size, else -EDOM (after the checks of NAME);
 * SIZE is decimal digits with an optional k/m/g (either case), 1 to
 * 4294967295 bytes, else -ERANGE (its position may have length 0).
 * Input: up to 8 words separated by NUL, parsed in order into one plan.
 * FUZZ_SOURCES: src/lib/flags/flagops.c src/lib/flags/kflags.c src/lib/flags/kattr.c src/lib/flags/ktarget.c src/lib/fs/fstype.c src/lib/flags/fflags.c src/lib/flags/fset.c src/lib/flags/fsupport.c src/lib/flags/winattr.c src/lib/flags/xattrat.c src/lib/path.c src/lib/fs/mount.c src/lib/fs/statx.c
 */
#include "config.h"

#include <errno.h>

#include "fattrs.h"
#include "internal.h"
#include "fuzz.h"

static size_t nk;
static const struct fattrs_kflag *kt;

static int kword(const char *w, size_t len)
{
	for (size_t i = 0; i < nk; i++) {
		if (strlen(kt[i].name) == len && memcmp(kt[i].name, w, len) == 0)
			return (int)i;
	}
	return -1;
}

static int kletter(char c)
{
	for (size_t i = 0; c != '\0' && i < nk; i++) {
		if (kt[i].letter == c)
			return (int)i;
	}
	return -1;
}

static int fword(const char *w, size_t len)
{
	static const char prefix[] = "user.fattr.";

	if (len >= sizeof(prefix) - 1 && memcmp(w, prefix, sizeof(prefix) - 1) == 0) {
		w += sizeof(prefix) - 1;
		len -= sizeof(prefix) - 1;
	}
	for (int f = 0; f < FATTRS_NFFLAGS; f++) {
		const char *n = fattrs_fflag_info((enum fattrs_fflag)f)->name;

		if (strlen(n) == len && memcmp(n, w, len) == 0)
			return f;
	}
	return -1;
}

static bool sized(int k)
{
	return (kt[k].xflag & (FS_XFLAG_EXTSIZE | FS_XFLAG_EXTSZINHERIT | FS_XFLAG_COWEXTSIZE)) != 0;
}

/* SIZE (@len bytes): its value, or 0 if it is none. */
static uint32_t size_of(const char *v, size_t len)
{
	char *end;
	unsigned long long n, mult = 1;
	size_t digits = strspn(v, "0123456789");

	if (digits == 0 || digits > len)
		return 0;
	if (len == digits + 1 && strchr("kK", v[digits]) != NULL)
		mult = 1ULL << 10;
	else if (len == digits + 1 && strchr("mM", v[digits]) != NULL)
		mult = 1ULL << 20;
	else if (len == digits + 1 && strchr("gG", v[digits]) != NULL)
		mult = 1ULL << 30;
	else if (len != digits)
		return 0;
	errno = 0;
	n = strtoull(v, &end, 10);	/* v starts with a digit: no space, no sign */
	if (errno != 0 || n > 0xffffffffULL || n * mult > 0xffffffffULL)
		return 0;
	return (uint32_t)(n * mult);
}

static bool is_flag_name(const char *s)
{
	return fattrs_fflag_find(s) >= 0 || fattrs_kflag_find(s) != NULL;
}

/* The model: what @w does to @m, or the refusal it must get. */
static int model(struct fattrs_flagops *m, const char *w)
{
	struct fattrs_flagops next = *m;
	unsigned char op = w[0] == '-' ? FATTRS_FLAGOP_CLEAR : FATTRS_FLAGOP_SET;
	const char *p = w + 1;

	if (w[0] != '+' && w[0] != '-' && w[0] != '=')
		return -EINVAL;
	if (w[0] == '=') {
		next.assign = true;
		for (int f = 0; f < FATTRS_NFFLAGS; f++)
			next.fop[f] = FATTRS_FLAGOP_CLEAR_OTHERS;
		for (size_t i = 0; i < nk; i++) {
			next.kop[i] = kt[i].readonly ? FATTRS_FLAGOP_LEAVE : FATTRS_FLAGOP_CLEAR_OTHERS;
			next.ksize[i] = 0;
		}
		if (w[1] == '\0') {
			*m = next;
			return 0;
		}
	}
	for (;;) {
		size_t elen = strcspn(p, ","), len = elen;
		const char *v = NULL;
		int k, f;

		if (elen == 0)
			return -EINVAL;
		for (size_t i = 1; i < elen; i++) {
			if (p[i] == '=') {
				len = i;
				v = p + i + 1;
				break;
			}
		}
		k = kword(p, len);
		f = k < 0 ? fword(p, len) : -1;
		if (k >= 0) {
			if (kt[k].readonly)
				return -EPERM;
			if (v != NULL && (!sized(k) || op != FATTRS_FLAGOP_SET))
				return -EDOM;
			next.kop[k] = op;
			next.ksize[k] = 0;
			if (v != NULL) {
				next.ksize[k] = size_of(v, elen - len - 1);
				if (next.ksize[k] == 0)
					return -ERANGE;
			}
		} else if (f >= 0) {
			if (v != NULL)
				return -EDOM;
			next.fop[f] = op;
		} else {
			for (size_t i = 0; i < len; i++) {
				if (kletter(p[i]) < 0)
					return -ENOENT;
			}
			for (size_t i = 0; i < len; i++) {
				if (kt[kletter(p[i])].readonly)
					return -EPERM;
			}
			if (v != NULL)
				return -EDOM;
			for (size_t i = 0; i < len; i++) {
				next.kop[kletter(p[i])] = op;
				next.ksize[kletter(p[i])] = 0;
			}
		}
		if (p[elen] == '\0')
			break;
		p += elen + 1;
	}
	*m = next;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fattrs_flagops ops, want;
	char *words[8], *block;
	size_t n;

	kt = fattrs_kflags_table(&nk);
	n = fuzz_split(data, size, words, 8, &block);
	fattrs_flagops_init(&ops);
	fattrs_flagops_init(&want);
	for (size_t i = 0; i < n; i++) {
		const char *w = words[i];
		struct fattrs_flagops before = ops;
		struct fattrs_flagops_error e = { .offset = (size_t)-1, .len = 0, .suggest = NULL };
		int r = fattrs_flagops_parse(&ops, w, &e);
		int mr = model(&want, w);

		FUZZ_CHECK(r == mr, "'%s': parser %d, rule %d", w, r, mr);
		if (r == 0) {
			FUZZ_CHECK(memcmp(&ops, &want, sizeof(ops)) == 0, "'%s': the plan differs from the rule's", w);
			continue;
		}
		FUZZ_CHECK(memcmp(&ops, &before, sizeof(ops)) == 0, "'%s': a refused word changed the plan", w);
		if (r == -EINVAL)
			continue;
		FUZZ_CHECK(e.offset >= 1 && (e.len > 0 || r == -ERANGE) && e.offset + e.len <= strlen(w),
			   "'%s': refusal at %zu+%zu", w, e.offset, e.len);
		FUZZ_CHECK(e.suggest == NULL || is_flag_name(e.suggest), "'%s': suggests '%s'", w, e.suggest);
	}
	FUZZ_CHECK(fattrs_flagops_empty(&ops) == fattrs_flagops_empty(&want), "emptiness differs");
	free(block);
	return 0;
}
