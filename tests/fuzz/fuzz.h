/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every libFuzzer target of tests/fuzz/ shares: checks that stop the run, and input helpers. */
#ifndef FATTRS_FUZZ_H
#define FATTRS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * An invariant of the code under test: when it does not hold, say which
 * and abort(), which libFuzzer reports as a crash and saves the input.
 */
#define FUZZ_CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		abort(); \
	} \
} while (0)

/* A NUL-terminated copy of @data (free() it); the C string ends at the first NUL. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	FUZZ_CHECK(s != NULL, "out of memory");
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * Split @data at each NUL into at most @max words (the last one takes
 * the rest, up to its first NUL).  The words point into *@ret_block, a
 * NUL-terminated copy of @data: free() it when done with them.
 */
static inline size_t fuzz_split(const uint8_t *data, size_t size, char **words, size_t max,
				char **ret_block)
{
	char *block = fuzz_cstr(data, size);
	size_t n = 0;

	for (size_t i = 0; n < max; ) {
		words[n++] = block + i;
		i += strlen(block + i) + 1;
		if (i > size)
			break;
	}
	*ret_block = block;
	return n;
}

/*
 * Length of the valid UTF-8 sequence at @s (NUL-terminated), or 0.
 *
 * Kept apart from src/cli/json.c's checker ON PURPOSE, and written another
 * way: this is the oracle the fuzz targets judge the writers' output by,
 * and an oracle that shared (or copied) the code it checks would agree
 * with its bugs.  src/cli/json.c decodes and then rejects overlongs,
 * surrogates and values above U+10FFFF; this follows the byte ranges of
 * RFC 3629 section 4's grammar (UTF8-2, UTF8-3, UTF8-4) row by row.
 */
static inline size_t fuzz_utf8_len(const unsigned char *s, uint32_t *ret_cp)
{
	/* lead byte range, the range of the byte after it, the length */
	static const struct {
		unsigned char lo, hi, lo2, hi2, n;
	} rows[] = {
		{ 0xc2, 0xdf, 0x80, 0xbf, 2 },
		{ 0xe0, 0xe0, 0xa0, 0xbf, 3 },
		{ 0xe1, 0xec, 0x80, 0xbf, 3 },
		{ 0xed, 0xed, 0x80, 0x9f, 3 },
		{ 0xee, 0xef, 0x80, 0xbf, 3 },
		{ 0xf0, 0xf0, 0x90, 0xbf, 4 },
		{ 0xf1, 0xf3, 0x80, 0xbf, 4 },
		{ 0xf4, 0xf4, 0x80, 0x8f, 4 },
	};
	static const uint32_t lead_mask[5] = { 0, 0, 0x1f, 0x0f, 0x07 };

	if (s[0] < 0x80) {
		*ret_cp = s[0];
		return 1;
	}
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		size_t n = rows[r].n;
		uint32_t cp;

		if (s[0] < rows[r].lo || s[0] > rows[r].hi)
			continue;
		if (s[1] < rows[r].lo2 || s[1] > rows[r].hi2)
			return 0;
		cp = s[0] & lead_mask[n];
		for (size_t i = 1; i < n; i++) {
			/* the tails after the second byte: %x80-BF (a NUL ends the string first) */
			if (i > 1 && (s[i] < 0x80 || s[i] > 0xbf))
				return 0;
			cp = (cp << 6) | (s[i] & 0x3f);
		}
		*ret_cp = cp;
		return n;
	}
	return 0;
}

static inline bool fuzz_valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;

	while (*p != '\0') {
		size_t n = fuzz_utf8_len(p, &cp);

		if (n == 0)
			return false;
		p += n;
	}
	return true;
}

#endif /* FATTRS_FUZZ_H */
