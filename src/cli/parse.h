/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parsing option arguments: keywords, lists of them, modes; no printing, links alone
 * (src/cli/parse.c).
 */
#ifndef FATTRS_CLI_PARSE_H
#define FATTRS_CLI_PARSE_H

#include <stddef.h>
#include <sys/types.h>

/* The index of @arg in @keywords[@n], or -1. */
int cli_parse_keyword(const char *arg, const char *const *keywords, size_t n);

/*
 * A comma-separated list of keywords from @keywords[@n] (at most 32): bit i
 * of *@ret_bits for keywords[i].  Returns 0, or -EINVAL with the element
 * that is no keyword at *@ret_bad_off, *@ret_bad_len bytes long: an empty list or an
 * empty element (as in "a,,b") is an error, of length 0.
 */
int cli_parse_list(const char *list, const char *const *keywords, size_t n,
		   unsigned int *ret_bits, size_t *ret_bad_off, size_t *ret_bad_len);

/*
 * GNU argmatch(): the index of @arg in @names (exact, or an unambiguous
 * prefix); -1 when nothing matches, -2 when the prefix is ambiguous.
 */
int cli_argmatch(const char *arg, const char *const *names, size_t n);

/* An octal mode, 0 to 07777.  Returns 0, or -EINVAL. */
int cli_parse_mode(const char *arg, mode_t *ret_mode);

#endif /* FATTRS_CLI_PARSE_H */
