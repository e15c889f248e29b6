/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A growing output buffer (struct cli_buf) and number formatting without printf, for hot paths:
 * xstat renders each file's output into one buffer, grown once, reused, written with one fwrite().
 */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "buf.h"

void cli_buf_grow(struct cli_buf *b, size_t n)
{
	size_t alloc = b->alloc ? b->alloc : 256;
	char *p;

	while (alloc - b->len < n) {
		if (alloc > SIZE_MAX / 2)
			cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
		alloc *= 2;
	}
	p = realloc(b->p, alloc);
	if (p == NULL)
		cli_die(CLI_EXIT_FAILURE, 0, _("memory exhausted"));
	b->p = p;
	b->alloc = alloc;
}

static struct cli_buf *pending;
static FILE *pending_out;

void cli_buf_pending(struct cli_buf *b, FILE *out)
{
	pending = b;
	pending_out = out;
	cli_before_message(b != NULL ? cli_buf_flush_pending : NULL);
}

void cli_buf_flush_pending(void)
{
	struct cli_buf *b = pending;
	size_t n;

	if (b == NULL || b->len == 0)
		return;
	n = b->holding && b->hold < b->len ? b->hold : b->len;
	if (n == 0)
		return;
	(void)fwrite(b->p, 1, n, pending_out);
	memmove(b->p, b->p + n, b->len - n);
	b->len -= n;
	if (b->holding)
		b->hold -= n;
}

void cli_buf_free(struct cli_buf *b)
{
	if (pending == b)
		pending = NULL;
	free(b->p);
	*b = (struct cli_buf){ 0 };
}

bool cli_buf_write(struct cli_buf *b, FILE *out)
{
	bool ok = b->len == 0 || fwrite(b->p, 1, b->len, out) == b->len;

	b->len = 0;
	b->holding = false;
	return ok;
}

size_t cli_fmt_uint(char *end, uintmax_t v, unsigned int base)
{
	static const char digits[] = "0123456789abcdef";
	char *p = end;

	if (base == 10) {
		/* two digits a step, by a constant divisor (a multiplication) */
		static const char pairs[] =
			"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
			"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
			"8081828384858687888990919293949596979899";

		while (v >= 100) {
			unsigned int r = (unsigned int)(v % 100);

			v /= 100;
			p -= 2;
			memcpy(p, pairs + 2 * r, 2);
		}
		if (v >= 10) {
			p -= 2;
			memcpy(p, pairs + 2 * v, 2);
		} else {
			*--p = (char)('0' + v);
		}
		return (size_t)(end - p);
	}
	do {
		*--p = digits[v % base];
		v /= base;
	} while (v != 0);
	return (size_t)(end - p);
}

void cli_buf_add_uint(struct cli_buf *b, uintmax_t v, unsigned int base)
{
	char num[CLI_UINT_DIGITS];
	size_t n = cli_fmt_uint(num + sizeof(num), v, base);

	cli_buf_add(b, num + sizeof(num) - n, n);
}

void cli_buf_add_int(struct cli_buf *b, intmax_t v)
{
	if (v < 0) {
		cli_buf_addc(b, '-');
		cli_buf_add_uint(b, -(uintmax_t)v, 10);
	} else {
		cli_buf_add_uint(b, (uintmax_t)v, 10);
	}
}

void cli_buf_pad(struct cli_buf *b, char c, size_t n)
{
	if (n == 0)
		return;
	cli_buf_reserve(b, n);
	memset(b->p + b->len, c, n);
	b->len += n;
}

/*
 * What printf makes beyond this goes straight to the stream of a pending
 * buffer (cli_buf_pending()) instead of into memory: "%2147483647n" is
 * 2 GiB of spaces, which GNU stat streams out with a few kilobytes.
 */
#define DIRECT_MIN ((size_t)1 << 20)

/*
 * Does @fmt ask for DIRECT_MIN bytes or more by a width or a precision of
 * its own?  Then measuring first would format all of it twice.
 */
static bool wide(const char *fmt)
{
	size_t v = 0;

	for (const char *p = fmt; *p != '\0'; p++) {
		if (*p < '0' || *p > '9') {
			v = 0;
			continue;
		}
		v = v * 10 + (size_t)(*p - '0');
		if (v >= DIRECT_MIN)
			return true;
	}
	return false;
}

int cli_buf_vprintf(struct cli_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	if (b == pending && pending_out != NULL && !b->holding && wide(fmt)) {
		(void)cli_buf_write(b, pending_out);
		return vfprintf(pending_out, fmt, ap);
	}
	cli_buf_reserve(b, 64);
	va_copy(aq, ap);
	n = vsnprintf(b->p + b->len, b->alloc - b->len, fmt, aq);
	va_end(aq);
	if (n >= 0 && (size_t)n < b->alloc - b->len) {
		b->len += (size_t)n;
		return n;
	}
	/* Too long for memory (or for an int: EOVERFLOW), with a stream to go to. */
	if ((n < 0 || (size_t)n >= DIRECT_MIN) && b == pending && pending_out != NULL && !b->holding) {
		(void)cli_buf_write(b, pending_out);
		return vfprintf(pending_out, fmt, ap);
	}
	if (n < 0)
		return n;
	cli_buf_reserve(b, (size_t)n + 1);
	n = vsnprintf(b->p + b->len, b->alloc - b->len, fmt, ap);
	if (n > 0)
		b->len += (size_t)n;
	return n;
}

int cli_buf_printf(struct cli_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = cli_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return n;
}
