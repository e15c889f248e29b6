/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parsers for option arguments (a keyword, a list of keywords, an octal mode): string in, value or
 * -errno out; nothing printed, exited or kept, so each links alone (the fuzz targets do).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int cli_argmatch(const char *arg, const char *const *names, size_t n)
{
	size_t len = strlen(arg);
	int found = -1;

	for (size_t i = 0; i < n; i++) {
		if (strncmp(names[i], arg, len) != 0)
			continue;
		if (strlen(names[i]) == len)
			return (int)i;
		found = found == -1 ? (int)i : -2;
	}
	return found;
}

/* The index of the @len bytes at @arg in @keywords[@n], or -1. */
static int parse_keyword_n(const char *arg, size_t len, const char *const *keywords, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (strlen(keywords[i]) == len && strncmp(arg, keywords[i], len) == 0)
			return (int)i;
	}
	return -1;
}

int cli_parse_keyword(const char *arg, const char *const *keywords, size_t n)
{
	return parse_keyword_n(arg, strlen(arg), keywords, n);
}

int cli_parse_list(const char *list, const char *const *keywords, size_t n,
		   unsigned int *ret_bits, size_t *ret_bad_off, size_t *ret_bad_len)
{
	unsigned int bits = 0;
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");

		/* An empty list, or an empty element (",", "a,,b", "a,"), is no keyword. */
		int i = parse_keyword_n(p, len, keywords, n);

		if (i < 0 || i >= (int)(sizeof(bits) * 8)) {
			*ret_bad_off = (size_t)(p - list);
			*ret_bad_len = len;
			return -EINVAL;
		}
		bits |= 1U << i;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	*ret_bits = bits;
	return 0;
}

int cli_parse_mode(const char *arg, mode_t *ret_mode)
{
	char *end;
	unsigned long m;

	/* Digits only: strtoul() would also take blanks and a sign (" 644", "-0"). */
	if (*arg == '\0' || arg[strspn(arg, "01234567")] != '\0')
		return -EINVAL;
	errno = 0;
	m = strtoul(arg, &end, 8);
	if (*end != '\0' || m > 07777)
		return -EINVAL;
	*ret_mode = (mode_t)m;
	return 0;
}
