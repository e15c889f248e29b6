/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parsers for option arguments: a word from a table, a comma-separated
 * list of such words, an octal mode.  String in, value or -errno out;
 * nothing here prints, exits or allocates for good, so each can be linked
 * alone (the fuzz targets do) and the caller words the message.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int cli_argmatch(const char *word, const char *const *names, size_t n)
{
	size_t len = strlen(word);
	int found = -1;

	for (size_t i = 0; i < n; i++) {
		if (strncmp(names[i], word, len) != 0)
			continue;
		if (strlen(names[i]) == len)
			return (int)i;
		found = found == -1 ? (int)i : -2;
	}
	return found;
}

int cli_parse_word(const char *word, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(word, words[i]) == 0)
			return (int)i;
	}
	return -1;
}

/* cli_parse_word() on the @len bytes at @word. */
static int parse_word_n(const char *word, size_t len, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (strlen(words[i]) == len && strncmp(word, words[i], len) == 0)
			return (int)i;
	}
	return -1;
}

int cli_parse_list(const char *list, const char *const *words, size_t n,
		   unsigned int *ret_bits, size_t *ret_bad_off, size_t *ret_bad_len)
{
	unsigned int bits = 0;
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");

		/* An empty list, or an empty element (",", "a,,b", "a,"), is no word. */
		int i = parse_word_n(p, len, words, n);

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

int cli_parse_mode(const char *word, mode_t *ret_mode)
{
	char *end;
	unsigned long m;

	/* Digits only: strtoul() would also take blanks and a sign (" 644", "-0"). */
	if (*word == '\0' || word[strspn(word, "01234567")] != '\0')
		return -EINVAL;
	errno = 0;
	m = strtoul(word, &end, 8);
	if (*end != '\0' || m > 07777)
		return -EINVAL;
	*ret_mode = (mode_t)m;
	return 0;
}
