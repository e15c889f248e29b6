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

/* Length of the valid UTF-8 sequence at @s (NUL-terminated), or 0 (RFC 3629). */
static inline size_t fuzz_utf8_len(const unsigned char *s, uint32_t *ret_cp)
{
	uint32_t cp;
	size_t n;

	if (s[0] < 0x80) {
		*ret_cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*ret_cp = cp;
	return n;
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
