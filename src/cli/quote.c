/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Quoting names for messages as GNU coreutils' quote() does (locale_quoting_style), byte for
 * byte, so that any name, newlines and invalid UTF-8 included, reads back unambiguously.
 */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "msg.h"
#include "quote.h"
#include "buf.h"

#define SLOTS 4

static bool utf8_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs != NULL && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

static char *append(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static char *octal(char *p, unsigned char c)
{
	*p++ = '\\';
	*p++ = (char)('0' + (c >> 6));
	*p++ = (char)('0' + ((c >> 3) & 7));
	*p++ = (char)('0' + (c & 7));
	return p;
}

static char *quote_into(char *p, const char *s, const char *lq, const char *rq)
{
	size_t rqlen = strlen(rq);
	size_t len = strlen(s);
	mbstate_t st;

	memset(&st, 0, sizeof(st));
	p = append(p, lq);
	for (size_t i = 0; i < len; ) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;

		switch (c) {
		case '\a': esc = "\\a"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		case '\v': esc = "\\v"; break;
		case '\\': esc = "\\\\"; break;
		default: break;
		}
		if (esc != NULL) {
			p = append(p, esc);
			i++;
			continue;
		}
		if (strncmp(s + i, rq, rqlen) == 0) {
			*p++ = '\\';
			p = append(p, rq);
			i += rqlen;
			continue;
		}
		wchar_t wc;
		size_t n = mbrtowc(&wc, s + i, len - i, &st);

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0 || !iswprint((wint_t)wc)) {
			/* Not a printable character: each of its bytes in octal. */
			size_t bad = (n == (size_t)-1 || n == (size_t)-2 || n == 0) ? 1 : n;

			for (size_t k = 0; k < bad; k++)
				p = octal(p, (unsigned char)s[i + k]);
			memset(&st, 0, sizeof(st));
			i += bad;
			continue;
		}
		memcpy(p, s + i, n);
		p += n;
		i += n;
	}
	p = append(p, rq);
	*p = '\0';
	return p;
}

/*
 * Messages are worded as cli_warn(errno, "...", cli_quote(name)), and C
 * leaves the order in which arguments are evaluated open: mbrtowc() sets
 * errno to EILSEQ on a byte that is not UTF-8, so quoting must keep errno
 * as it found it (as gnulib's quotearg does), or the message names the
 * wrong cause.
 */
const char *cli_quote(const char *s)
{
	static char *slot[SLOTS];
	static unsigned int next;
	int saved_errno = errno;
	bool utf8 = utf8_locale();
	const char *lq = utf8 ? "\xe2\x80\x98" : "'";
	const char *rq = utf8 ? "\xe2\x80\x99" : "'";
	/* Worst case: every byte becomes \ooo, plus the quotes. */
	size_t need = 4 * strlen(s) + 2 * strlen(rq) + 2 + 1;
	char *buf = malloc(need);

	if (buf == NULL) {
		errno = saved_errno;
		return s;
	}
	quote_into(buf, s, lq, rq);
	free(slot[next]);
	slot[next] = buf;
	next = (next + 1) % SLOTS;
	errno = saved_errno;
	return buf;
}

/* printf(@fmt, @ap), quoted by @quote; keeps errno ("?": out of memory). */
static const char *quote_vprintf(const char *(*quote)(const char *), const char *fmt, va_list ap)
{
	int saved_errno = errno;
	const char *q = "?";
	char *text;

	if (vasprintf(&text, fmt, ap) >= 0) {
		q = quote(text);
		if (q == text)
			q = "?";	/* the quoting is out of memory too */
		free(text);
	}
	errno = saved_errno;
	return q;
}

const char *cli_quote_printf(const char *fmt, ...)
{
	const char *q;
	va_list ap;

	va_start(ap, fmt);
	q = quote_vprintf(cli_quote, fmt, ap);
	va_end(ap);
	return q;
}

const char *cli_quotef_printf(const char *fmt, ...)
{
	const char *q;
	va_list ap;

	va_start(ap, fmt);
	q = quote_vprintf(cli_quotef, fmt, ap);
	va_end(ap);
	return q;
}

const char *cli_quotef(const char *s)
{
	int saved_errno = errno;
	const char *q = cli_quotearg(s, CLI_QS_SHELL_ESCAPE_ALWAYS);

	errno = saved_errno;
	return q;
}

/* Keeps errno, as cli_quote() does. */
const char *cli_name(const char *s)
{
	int saved_errno = errno;
	mbstate_t st;
	size_t len = strlen(s);

	memset(&st, 0, sizeof(st));
	for (size_t i = 0; i < len; ) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s + i, len - i, &st);

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0 || !iswprint((wint_t)wc) ||
		    wc == L'\\' || wc == L'\'' || wc == 0x2019) {
			errno = saved_errno;
			return cli_quote(s);
		}
		i += n;
	}
	errno = saved_errno;
	return s;
}
