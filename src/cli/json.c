/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small JSON writer: one object per line, strings escaped for any input; a string that is not
 * valid UTF-8 is written as an array of its byte values, so that no name is mangled or ambiguous.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "json.h"

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
		size_t n = *p < 0x80 ? 1 : utf8_len(p);

		if (n == 0)
			return false;
		p += n;
	}
	return true;
}

/*
 * Everything goes through these two: into the caller's buffer
 * (cli_json_begin_buf()), else straight to the stream, one write per
 * piece (a caller may write to the stream between two calls).
 */
static void put(struct cli_json *j, const char *s, size_t n)
{
	if (j->buf != NULL)
		cli_buf_add(j->buf, s, n);
	else
		fwrite(s, 1, n, j->out);
}

static void putc_(struct cli_json *j, char c)
{
	if (j->buf != NULL)
		cli_buf_addc(j->buf, c);
	else
		fputc(c, j->out);
}

/* Does byte @c stand for itself in a JSON string? */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c != 0x7f && c != '"' && c != '\\';
}

/* The length of the run of printable ASCII at @s that needs no escape. */
static size_t plain_ascii(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
		p++;
	return (size_t)(p - (const unsigned char *)s);
}

/* "@s" (@n bytes that need no escape), after @before when it is not 0. */
static void put_plain(struct cli_json *j, char before, const char *s, size_t n)
{
	if (j->buf != NULL) {
		char *p;

		cli_buf_reserve(j->buf, n + 3);
		p = j->buf->p + j->buf->len;
		if (before != 0)
			*p++ = before;
		*p++ = '"';
		memcpy(p, s, n);
		p += n;
		*p++ = '"';
		j->buf->len = (size_t)(p - j->buf->p);
		return;
	}
	if (before != 0)
		putc_(j, before);
	putc_(j, '"');
	put(j, s, n);
	putc_(j, '"');
}

static void put_string(struct cli_json *j, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc_(j, '"');
	for (;;) {
		const unsigned char *run = p;
		char esc[8];

		while (plain(*p))
			p++;
		if (p > run)
			put(j, (const char *)run, (size_t)(p - run));
		if (*p == '\0')
			break;
		switch (*p) {
		case '"': put(j, "\\\"", 2); break;
		case '\\': put(j, "\\\\", 2); break;
		case '\b': put(j, "\\b", 2); break;
		case '\f': put(j, "\\f", 2); break;
		case '\n': put(j, "\\n", 2); break;
		case '\r': put(j, "\\r", 2); break;
		case '\t': put(j, "\\t", 2); break;
		default:
			snprintf(esc, sizeof(esc), "\\u%04x", *p);
			put(j, esc, 6);
		}
		p++;
	}
	putc_(j, '"');
}

static void put_uint(struct cli_json *j, unsigned long long v)
{
	char num[CLI_UINT_DIGITS];
	size_t n = cli_fmt_uint(num + sizeof(num), v, 10);

	put(j, num + sizeof(num) - n, n);
}

static void put_int(struct cli_json *j, long long v)
{
	if (v < 0) {
		putc_(j, '-');
		put_uint(j, -(unsigned long long)v);
	} else {
		put_uint(j, (unsigned long long)v);
	}
}

void cli_json_begin(struct cli_json *j, FILE *out)
{
	j->out = out;
	j->buf = NULL;
	j->first = true;
	j->term = '\n';
	fputc('{', out);
}

void cli_json_begin_buf(struct cli_json *j, struct cli_buf *buf)
{
	j->out = NULL;
	j->buf = buf;
	j->first = true;
	j->term = '\n';
	cli_buf_addc(buf, '{');
}

void cli_json_key(struct cli_json *j, const char *key)
{
	size_t n = plain_ascii(key);
	char comma = j->first ? 0 : ',';

	j->first = false;
	if (key[n] == '\0') {
		put_plain(j, comma, key, n);
	} else {
		if (comma != 0)
			putc_(j, comma);
		put_string(j, key);
	}
	putc_(j, ':');
}

void cli_json_key_raw(struct cli_json *j, const char *text, size_t len)
{
	if (j->first) {
		text++;
		len--;
		j->first = false;
	}
	put(j, text, len);
}

bool cli_json_plain(const char *s)
{
	return s[plain_ascii(s)] == '\0';
}

/* A string value: a JSON string, or the array of its bytes when not UTF-8. */
static void put_value(struct cli_json *j, const char *value)
{
	size_t n = plain_ascii(value);

	if (value[n] == '\0') {
		put_plain(j, 0, value, n);
	} else if (valid_utf8(value)) {
		put_string(j, value);
	} else {
		putc_(j, '[');
		for (const unsigned char *p = (const unsigned char *)value; *p != '\0'; p++) {
			if (p != (const unsigned char *)value)
				putc_(j, ',');
			put_uint(j, *p);
		}
		putc_(j, ']');
	}
}

void cli_json_str(struct cli_json *j, const char *key, const char *value)
{
	if (key != NULL)
		cli_json_key(j, key);
	if (value == NULL)
		put(j, "null", 4);
	else
		put_value(j, value);
}

void cli_json_str_array(struct cli_json *j, const char *key, char *const *values, size_t n)
{
	if (key != NULL)
		cli_json_key(j, key);
	putc_(j, '[');
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			putc_(j, ',');
		put_value(j, values[i]);
	}
	putc_(j, ']');
}

void cli_json_bool(struct cli_json *j, const char *key, bool value)
{
	if (key != NULL)
		cli_json_key(j, key);
	if (value)
		put(j, "true", 4);
	else
		put(j, "false", 5);
}

void cli_json_int(struct cli_json *j, const char *key, long long value)
{
	if (key != NULL)
		cli_json_key(j, key);
	put_int(j, value);
}

void cli_json_uint(struct cli_json *j, const char *key, unsigned long long value)
{
	if (key != NULL)
		cli_json_key(j, key);
	put_uint(j, value);
}

void cli_json_uint_str(struct cli_json *j, const char *key, unsigned long long value)
{
	if (key != NULL)
		cli_json_key(j, key);
	putc_(j, '"');
	put_uint(j, value);
	putc_(j, '"');
}

void cli_json_timespec(struct cli_json *j, const char *key, long long sec, long nsec)
{
	if (key != NULL)
		cli_json_key(j, key);
	put(j, "{\"sec\":", 7);
	put_int(j, sec);
	put(j, ",\"nsec\":", 8);
	put_int(j, nsec);
	putc_(j, '}');
}

void cli_json_null(struct cli_json *j, const char *key)
{
	if (key != NULL)
		cli_json_key(j, key);
	put(j, "null", 4);
}

static void open_(struct cli_json *j, const char *key, char c)
{
	if (key != NULL)
		cli_json_key(j, key);
	putc_(j, c);
	j->first = true;
}

static void close_(struct cli_json *j, char c)
{
	putc_(j, c);
	j->first = false;
}

void cli_json_array_begin(struct cli_json *j, const char *key)
{
	open_(j, key, '[');
}

void cli_json_array_end(struct cli_json *j)
{
	close_(j, ']');
}

void cli_json_object_begin(struct cli_json *j, const char *key)
{
	open_(j, key, '{');
}

void cli_json_object_end(struct cli_json *j)
{
	close_(j, '}');
}

void cli_json_elem(struct cli_json *j)
{
	if (!j->first)
		putc_(j, ',');
	j->first = false;
}

void cli_json_end(struct cli_json *j)
{
	putc_(j, '}');
	putc_(j, j->term);
}
