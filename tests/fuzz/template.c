/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: mktemp templates, fattrs_tmpl_parse() and fattrs_tmpl_join()
 * in src/lib/random.c.  Checks that an accepted template is the template
 * and suffix joined, with a maximal run of at least 3 X's just before the
 * suffix and nothing but trailing slashes after it; that a refused one is
 * refused for the reason mktemp(1) gives; that joining a directory moves
 * the run with the name; and that randomising the run changes nothing else.
 * Input: byte 0 says which of the suffix (bit 0) and the directory (bit 1)
 * are given; then words separated by NUL: template, suffix, directory.
 * FUZZ_SOURCES: src/lib/random.c src/lib/path.c
 */
#include "config.h"

#include "fattrs.h"
#include "internal.h"
#include "fuzz.h"

/* mktemp's rule, spelled out: the suffix may not start with '/' or hold a '/' before a name. */
static bool suffix_has_slash(const char *suf)
{
	if (suf[0] == '/')
		return true;
	for (const char *p = suf; *p != '\0'; p++) {
		if (p[0] == '/' && p[1] != '/' && p[1] != '\0')
			return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *w[3] = { NULL, NULL, NULL }, *block, *path = NULL, *copy;
	const char *template, *suffix, *dir, *suf;
	struct fattrs_tmpl t;
	enum fattrs_tmpl_err err;
	size_t tlen, before, xs = 0, len;

	if (size == 0)
		return 0;
	(void)fuzz_split(data + 1, size - 1, w, 3, &block);
	template = w[0];
	suffix = (data[0] & 1) != 0 ? (w[1] != NULL ? w[1] : "") : NULL;
	dir = (data[0] & 2) != 0 ? (w[2] != NULL && w[2][0] != '\0' ? w[2] : "/tmp") : NULL;
	suf = fattrs_tmpl_suffix(template, suffix);
	tlen = strlen(template);
	/* The characters of the template before the suffix, and the X's ending them. */
	before = suffix != NULL ? tlen : tlen - strlen(suf);
	while (xs < before && template[before - 1 - xs] == 'X')
		xs++;

	FUZZ_CHECK(suffix != NULL ? suf == suffix : strchr(suf, 'X') == NULL,
		   "the suffix of '%s' is '%s'", template, suf);
	err = fattrs_tmpl_parse(template, suffix, &path, &t);
	switch (err) {
	case FATTRS_TMPL_NOMEM:
		FUZZ_CHECK(false, "out of memory");
		break;
	case FATTRS_TMPL_SUFFIX_NEEDS_X:
		FUZZ_CHECK(suffix != NULL && (tlen == 0 || template[tlen - 1] != 'X'),
			   "'%s' refused as not ending in X", template);
		break;
	case FATTRS_TMPL_SUFFIX_SLASH:
		FUZZ_CHECK(suffix_has_slash(suf), "suffix '%s' refused for a slash", suf);
		break;
	case FATTRS_TMPL_FEW_X:
		FUZZ_CHECK(xs < FATTRS_TEMPLATE_MIN_X && !suffix_has_slash(suf),
			   "'%s' refused for %zu X's", template, xs);
		break;
	case FATTRS_TMPL_OK:
		FUZZ_CHECK(!(suffix != NULL && (tlen == 0 || template[tlen - 1] != 'X')) &&
			   !suffix_has_slash(suf) && xs >= FATTRS_TEMPLATE_MIN_X,
			   "'%s' with suffix '%s' accepted", template, suf);
		break;
	}
	if (err != FATTRS_TMPL_OK) {
		free(block);
		return 0;
	}
	len = strlen(path);
	FUZZ_CHECK(t.path == path, "the template's path is the one returned");
	FUZZ_CHECK(len == tlen + (suffix != NULL ? strlen(suffix) : 0) &&
		   strncmp(path, template, tlen) == 0 && strcmp(path + tlen, suffix ? suffix : "") == 0,
		   "'%s' is not the template and suffix joined", path);
	FUZZ_CHECK(t.x_len == xs && t.x_off + t.x_len <= len, "run %zu+%zu", t.x_off, t.x_len);
	for (size_t i = t.x_off; i < t.x_off + t.x_len; i++)
		FUZZ_CHECK(path[i] == 'X', "not an X at %zu", i);
	FUZZ_CHECK(t.x_off == 0 || path[t.x_off - 1] != 'X', "the run of X's is not maximal");
	FUZZ_CHECK(strcmp(path + t.x_off + t.x_len, suf) == 0, "the suffix does not follow the X's");

	if (dir != NULL) {
		size_t old_len = len, old_off = t.x_off, keep = strlen(dir);
		char *old = strdup(path);

		FUZZ_CHECK(old != NULL, "out of memory");
		FUZZ_CHECK(fattrs_tmpl_join(dir, &path, &t) == 0, "out of memory");
		len = strlen(path);
		while (keep > 1 && dir[keep - 1] == '/')
			keep--;
		FUZZ_CHECK(t.path == path && len >= old_len && strcmp(path + len - old_len, old) == 0 &&
			   strncmp(path, dir, keep) == 0, "'%s' is not '%s' in '%s'", path, old, dir);
		free(old);
		FUZZ_CHECK(t.x_off == old_off + (len - old_len) && t.x_len == xs,
			   "the run moved wrongly in '%s'", path);
		for (size_t i = t.x_off; i < t.x_off + t.x_len; i++)
			FUZZ_CHECK(path[i] == 'X', "not an X at %zu in '%s'", i, path);
	}
	/* Nothing but trailing slashes after the run: it is in the last component. */
	for (const char *p = path + t.x_off; *p != '\0'; p++)
		FUZZ_CHECK(*p != '/' || p[strspn(p, "/")] == '\0', "a '/' after the X's in '%s'", path);

	/* Randomising touches the run only, and only with letters and digits. */
	copy = strdup(path);
	FUZZ_CHECK(copy != NULL, "out of memory");
	FUZZ_CHECK(fattrs_random_fill(copy + t.x_off, t.x_len) == 0, "getrandom");
	for (size_t i = 0; i < len; i++) {
		bool in_run = i >= t.x_off && i < t.x_off + t.x_len;
		char c = copy[i];

		if (in_run)
			FUZZ_CHECK((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
				   (c >= '0' && c <= '9'), "'%c' in a random name", c);
		else
			FUZZ_CHECK(c == path[i], "randomising changed byte %zu", i);
	}
	free(copy);
	free(path);
	free(block);
	return 0;
}
