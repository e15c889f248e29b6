/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: src/cli/quote.c, cli_quote() and cli_name(), in the C and the
 * C.UTF-8 locale.  Checks that a quoted name has no raw control byte, is
 * valid UTF-8 where the locale is, and reads back (quotes off, escapes
 * undone) to exactly the name; that a name shown as it is has nothing that
 * could pass for a quote, an escape or a control.
 * Input: byte 0 picks the locale (bit 0) and the function (bit 1); the
 * rest is the name.
 * FUZZ_SOURCES: src/cli/quote.c src/cli/quotearg.c src/cli/parse.c src/cli/msg.c src/cli/inherit.c src/cli/buf.c
 */
#include "config.h"

#include <locale.h>
#include <wchar.h>
#include <wctype.h>

#include "cli.h"
#include "fuzz.h"

static locale_t loc_c, loc_utf8;

/* Undo cli_quote()'s escapes between @lq and @rq; NULL if @q is not such a string. */
static char *unquote(const char *q, const char *lq, const char *rq)
{
	size_t lqn = strlen(lq), rqn = strlen(rq), len = strlen(q);
	char *out, *o;
	const char *p, *end;

	if (len < lqn + rqn || strncmp(q, lq, lqn) != 0 || strcmp(q + len - rqn, rq) != 0)
		return NULL;
	out = o = malloc(len + 1);
	FUZZ_CHECK(out != NULL, "out of memory");
	end = q + len - rqn;
	for (p = q + lqn; p < end; ) {
		if (strncmp(p, rq, rqn) == 0)
			goto bad;	/* an unescaped closing quote inside */
		if (*p != '\\') {
			*o++ = *p++;
			continue;
		}
		p++;
		if (p >= end)
			goto bad;
		switch (*p) {
		case 'a': *o++ = '\a'; p++; break;
		case 'b': *o++ = '\b'; p++; break;
		case 'f': *o++ = '\f'; p++; break;
		case 'n': *o++ = '\n'; p++; break;
		case 'r': *o++ = '\r'; p++; break;
		case 't': *o++ = '\t'; p++; break;
		case 'v': *o++ = '\v'; p++; break;
		case '\\': *o++ = '\\'; p++; break;
		default:
			if (strncmp(p, rq, rqn) == 0 && p + rqn <= end) {
				memcpy(o, rq, rqn);
				o += rqn;
				p += rqn;
			} else if (end - p >= 3 && p[0] >= '0' && p[0] <= '3' &&
				   p[1] >= '0' && p[1] <= '7' && p[2] >= '0' && p[2] <= '7') {
				*o++ = (char)((p[0] - '0') << 6 | (p[1] - '0') << 3 | (p[2] - '0'));
				p += 3;
			} else {
				goto bad;
			}
		}
	}
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

/* No raw control byte; in UTF-8, valid, and no C1 control or unprintable character. */
static void check_visible(const char *out, bool utf8, const char *what)
{
	for (const unsigned char *p = (const unsigned char *)out; *p != '\0'; p++)
		FUZZ_CHECK(*p >= 0x20 && *p != 0x7f, "%s has raw byte 0x%02x", what, *p);
	if (!utf8) {
		for (const unsigned char *p = (const unsigned char *)out; *p != '\0'; p++)
			FUZZ_CHECK(*p < 0x80, "%s has byte 0x%02x in the C locale", what, *p);
		return;
	}
	FUZZ_CHECK(fuzz_valid_utf8(out), "%s is not valid UTF-8", what);
	for (const unsigned char *p = (const unsigned char *)out; *p != '\0'; ) {
		uint32_t cp;
		size_t n = fuzz_utf8_len(p, &cp);

		FUZZ_CHECK(iswprint((wint_t)cp), "%s has unprintable U+%04X", what, (unsigned)cp);
		p += n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool utf8, name;
	const char *lq, *rq, *out;
	char *s, *back;

	if (loc_c == (locale_t)0) {
		loc_c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
		loc_utf8 = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
		FUZZ_CHECK(loc_c != (locale_t)0 && loc_utf8 != (locale_t)0, "no C.UTF-8 locale");
	}
	if (size == 0)
		return 0;
	utf8 = (data[0] & 1) != 0;
	name = (data[0] & 2) != 0;
	s = fuzz_cstr(data + 1, size - 1);
	(void)uselocale(utf8 ? loc_utf8 : loc_c);
	lq = utf8 ? "\xe2\x80\x98" : "'";
	rq = utf8 ? "\xe2\x80\x99" : "'";

	out = name ? cli_name(s) : cli_quote(s);
	FUZZ_CHECK(out != NULL, "no result");
	if (name && out == s) {
		/* Shown as it is: nothing in it may look like quoting or escaping. */
		check_visible(out, utf8, "a name shown as it is");
		FUZZ_CHECK(strchr(out, '\\') == NULL && strchr(out, '\'') == NULL &&
			   strstr(out, "\xe2\x80\x99") == NULL,
			   "a name shown as it is has a backslash or a closing quote");
	} else {
		check_visible(out, utf8, "a quoted name");
		back = unquote(out, lq, rq);
		FUZZ_CHECK(back != NULL, "quoted name '%s' does not parse", out);
		FUZZ_CHECK(strcmp(back, s) == 0, "quoted name '%s' reads back differently", out);
		free(back);
		/* The same name quotes the same way every time. */
		FUZZ_CHECK(strcmp(cli_quote(s), out) == 0, "quoting is not stable");
	}
	(void)uselocale(LC_GLOBAL_LOCALE);
	free(s);
	return 0;
}
