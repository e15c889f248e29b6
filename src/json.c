/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small JSON writer: one object per line, strings escaped for any input.
 * A string that is not valid UTF-8 is written as an array of its byte
 * values, so that no name is ever mangled or ambiguous.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "cli.h"

/* Length of the valid UTF-8 sequence at @s, or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n;

	if (s[0] < 0x80)
		return 1;
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
	return n;
}

static bool valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		size_t n = utf8_len(p);

		if (n == 0)
			return false;
		p += n;
	}
	return true;
}

static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

void cli_json_begin(struct cli_json *j, FILE *out)
{
	j->out = out;
	j->first = true;
	j->term = '\n';
	fputc('{', out);
}

void cli_json_key(struct cli_json *j, const char *key)
{
	if (!j->first)
		fputc(',', j->out);
	j->first = false;
	put_string(j->out, key);
	fputc(':', j->out);
}

/* A string value: a JSON string, or the array of its bytes when not UTF-8. */
static void put_value(FILE *out, const char *value)
{
	if (valid_utf8(value)) {
		put_string(out, value);
	} else {
		fputc('[', out);
		for (const unsigned char *p = (const unsigned char *)value; *p != '\0'; p++)
			fprintf(out, "%s%u", p == (const unsigned char *)value ? "" : ",", *p);
		fputc(']', out);
	}
}

void cli_json_str(struct cli_json *j, const char *key, const char *value)
{
	cli_json_key(j, key);
	if (value == NULL)
		fputs("null", j->out);
	else
		put_value(j->out, value);
}

void cli_json_str_array(struct cli_json *j, const char *key, char *const *values, size_t n)
{
	cli_json_key(j, key);
	fputc('[', j->out);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			fputc(',', j->out);
		put_value(j->out, values[i]);
	}
	fputc(']', j->out);
}

void cli_json_bool(struct cli_json *j, const char *key, bool value)
{
	cli_json_key(j, key);
	fputs(value ? "true" : "false", j->out);
}

void cli_json_int(struct cli_json *j, const char *key, long long value)
{
	cli_json_key(j, key);
	fprintf(j->out, "%lld", value);
}

void cli_json_uint(struct cli_json *j, const char *key, unsigned long long value)
{
	cli_json_key(j, key);
	fprintf(j->out, "%llu", value);
}

void cli_json_timespec(struct cli_json *j, const char *key, long long sec, long nsec)
{
	cli_json_key(j, key);
	fprintf(j->out, "{\"sec\":%lld,\"nsec\":%ld}", sec, nsec);
}

void cli_json_null(struct cli_json *j, const char *key)
{
	cli_json_key(j, key);
	fputs("null", j->out);
}

void cli_json_end(struct cli_json *j)
{
	fputc('}', j->out);
	fputc(j->term, j->out);
}
