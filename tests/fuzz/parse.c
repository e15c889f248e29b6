/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: the option-argument parsers of src/cli/parse.c: cli_parse_keyword(),
 * cli_parse_list() and cli_parse_mode().  Checks each answer against the
 * rule it implements, spelled out here: a keyword is accepted only when it is
 * in the table; a list is accepted only when every element (an empty one
 * too) is a keyword, and gives exactly their bits, else names the first element that is
 * not; a mode is 1 or more octal digits worth at most 07777, nothing else.
 * Input: byte 0 picks the parser (% 3); the rest is the argument.
 * FUZZ_SOURCES: src/cli/parse.c
 */
#include "config.h"

#include <errno.h>
#include <sys/stat.h>

#include "cli.h"
#include "fuzz.h"

/* --preserve's keywords and --sync's, and a prefix of another, to be told apart. */
static const char *const keywords[] = {
	"mode", "ownership", "xattr", "all", "none", "data", "full", "mod", "",
};
#define NKEYWORDS (sizeof(keywords) / sizeof(keywords[0]))

static int keyword_index(const char *w, size_t len)
{
	for (size_t i = 0; i < NKEYWORDS; i++) {
		if (strlen(keywords[i]) == len && memcmp(keywords[i], w, len) == 0)
			return (int)i;
	}
	return -1;
}

static void check_keyword(const char *s)
{
	int i = cli_parse_keyword(s, keywords, NKEYWORDS);

	FUZZ_CHECK(i == keyword_index(s, strlen(s)), "'%s' gives %d", s, i);
}

static void check_list(const char *s)
{
	unsigned int bits = 0xdeadbeef, want = 0;
	size_t off = (size_t)-1, len = (size_t)-1;
	int r = cli_parse_list(s, keywords, NKEYWORDS, &bits, &off, &len);
	const char *p = s;

	for (;;) {
		size_t n = strcspn(p, ",");

		/* Every element, an empty one too, must be a keyword. */
		int i = keyword_index(p, n);

		if (i < 0) {
			FUZZ_CHECK(r == -EINVAL && off == (size_t)(p - s) && len == n &&
				   bits == 0xdeadbeef,
				   "'%s': element at %zu (%zu bytes) is no keyword, got %d at %zu+%zu",
				   s, (size_t)(p - s), n, r, off, len);
			return;
		}
		want |= 1U << i;
		if (p[n] == '\0')
			break;
		p += n + 1;
	}
	FUZZ_CHECK(r == 0 && bits == want, "'%s' gives %d, bits %#x, want %#x", s, r, bits, want);
}

static void check_mode(const char *s)
{
	mode_t m = 0177777;
	int r = cli_parse_mode(s, &m);
	size_t digits = strspn(s, "01234567");
	unsigned long v = 0;
	bool ok = s[0] != '\0' && s[digits] == '\0';

	for (size_t i = 0; ok && i < digits; i++) {
		v = v * 8 + (unsigned long)(s[i] - '0');
		if (v > 07777)
			ok = false;
	}
	if (ok)
		FUZZ_CHECK(r == 0 && m == (mode_t)v, "'%s' gives %d, mode %#o", s, r, (unsigned)m);
	else
		FUZZ_CHECK(r == -EINVAL && m == 0177777, "'%s' accepted as %#o", s, (unsigned)m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size == 0)
		return 0;
	s = fuzz_cstr(data + 1, size - 1);
	switch (data[0] % 3) {
	case 0:
		check_keyword(s);
		break;
	case 1:
		check_list(s);
		break;
	default:
		check_mode(s);
		break;
	}
	free(s);
	return 0;
}
