/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Growing output buffers and number formatting without printf
 * (src/cli/buf.c).
 */
#ifndef FATTRS_CLI_BUF_H
#define FATTRS_CLI_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * Bytes to be written out at once: zero-initialise it, append, write it
 * with cli_buf_write() (which empties it and keeps the memory), release
 * it with cli_buf_free().  Running out of memory ends the process
 * ("memory exhausted"), as every tool does.  Not NUL-terminated.
 */
struct cli_buf {
	char *p;
	size_t len, alloc;
	size_t hold;	/* with @holding: bytes from here on are not to go out before the rest */
	bool holding;
};

void cli_buf_grow(struct cli_buf *b, size_t n);
void cli_buf_free(struct cli_buf *b);
/* Write and empty @b; false if fwrite() failed (the error is @out's, as for any stdio write). */
bool cli_buf_write(struct cli_buf *b, FILE *out);

/*
 * The buffer a message (cli_warn()) writes out first, to @out, so that
 * what was made before it comes before it, as when printing straight to
 * @out (NULL: none).  A buffer that holds (cli_buf_hold()) keeps back
 * what it got since then: a line that a lookup's warning should precede.
 */
void cli_buf_pending(struct cli_buf *b, FILE *out);
void cli_buf_flush_pending(void);
static inline void cli_buf_hold(struct cli_buf *b)
{
	b->hold = b->len;
	b->holding = true;
}

/* Room for @n more bytes. */
static inline void cli_buf_reserve(struct cli_buf *b, size_t n)
{
	if (b->alloc - b->len < n)
		cli_buf_grow(b, n);
}

static inline void cli_buf_add(struct cli_buf *b, const void *s, size_t n)
{
	if (n == 0)
		return;	/* nothing to copy, and maybe nowhere yet: memcpy() wants a buffer */
	cli_buf_reserve(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static inline void cli_buf_addc(struct cli_buf *b, char c)
{
	cli_buf_reserve(b, 1);
	b->p[b->len++] = c;
}

static inline void cli_buf_adds(struct cli_buf *b, const char *s)
{
	cli_buf_add(b, s, strlen(s));
}

/* Digits of the largest uintmax_t in base 8, and then some. */
#define CLI_UINT_DIGITS 24
/*
 * @v in @base (8, 10 or 16; lowercase, no prefix), written backwards
 * ending just before @end (room for CLI_UINT_DIGITS): returns the length.
 * What printf's "%ju", "%jo" and "%jx" print, without printf.
 */
size_t cli_fmt_uint(char *end, uintmax_t v, unsigned int base);
void cli_buf_add_uint(struct cli_buf *b, uintmax_t v, unsigned int base);
/* "%jd" */
void cli_buf_add_int(struct cli_buf *b, intmax_t v);
/* @n bytes @c. */
void cli_buf_pad(struct cli_buf *b, char c, size_t n);
/* printf into @b, for the rare cases; returns what vsnprintf() returns. */
int cli_buf_printf(struct cli_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_buf_vprintf(struct cli_buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#endif /* FATTRS_CLI_BUF_H */
