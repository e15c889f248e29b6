/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON output, one object per line, any name representable (src/cli/json.c).
 */
#ifndef FATTRS_CLI_JSON_H
#define FATTRS_CLI_JSON_H

#include <stdbool.h>
#include <stdio.h>
#include "buf.h"

struct cli_json {
	FILE *out;
	struct cli_buf *buf;	/* cli_json_begin_buf(): written here, not to @out */
	bool first;
	char term;	/* what ends the object: '\n' (set by cli_json_begin()), or '\0' for -0 */
};

/* An object written to @out piece by piece (the caller may write there between calls). */
void cli_json_begin(struct cli_json *j, FILE *out);
/* An object appended to @buf: the caller writes it out (cli_buf_write()). */
void cli_json_begin_buf(struct cli_json *j, struct cli_buf *buf);
/*
 * Keys are escaped but not checked: they must be valid UTF-8 (the
 * program's own words).  A name from a file belongs in a value.
 */
void cli_json_key(struct cli_json *j, const char *key);
/*
 * A key written once and kept: @text is ',"KEY":' (@len bytes; the comma
 * is left out before the first member), KEY known to need no escape
 * (printable ASCII but '"' and '\\': cli_json_plain()).
 */
void cli_json_key_raw(struct cli_json *j, const char *text, size_t len);
bool cli_json_plain(const char *s);
/*
 * The values, each after its @key; a NULL @key: the key was written just
 * before (cli_json_key(), cli_json_key_raw()).
 * A string; bytes that are not valid UTF-8 make it an array of byte values.
 */
void cli_json_str(struct cli_json *j, const char *key, const char *value);
/* An array of @n strings, each as cli_json_str() writes it. */
void cli_json_str_array(struct cli_json *j, const char *key, char *const *values, size_t n);
void cli_json_bool(struct cli_json *j, const char *key, bool value);
void cli_json_int(struct cli_json *j, const char *key, long long value);
void cli_json_uint(struct cli_json *j, const char *key, unsigned long long value);
/* An integer as a string of its decimal digits ("123"): exact where jq rounds numbers. */
void cli_json_uint_str(struct cli_json *j, const char *key, unsigned long long value);
/* A timestamp, exact: {"sec":SEC,"nsec":NSEC}. */
void cli_json_timespec(struct cli_json *j, const char *key, long long sec, long nsec);
void cli_json_null(struct cli_json *j, const char *key);
/*
 * Nesting: an array or an object as a member (@key) or as an element of
 * an array (NULL @key, after cli_json_elem()); its members follow, then
 * its end.  cli_json_elem() comes before each element of an array, which
 * is then written with a NULL key.
 */
void cli_json_array_begin(struct cli_json *j, const char *key);
void cli_json_array_end(struct cli_json *j);
void cli_json_object_begin(struct cli_json *j, const char *key);
void cli_json_object_end(struct cli_json *j);
void cli_json_elem(struct cli_json *j);
void cli_json_end(struct cli_json *j);

#endif /* FATTRS_CLI_JSON_H */
