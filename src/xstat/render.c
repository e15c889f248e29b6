/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rendering a parsed format for one file (fmt_render()), and one named field
 * alone (fmt_field_put(), fmt_field_state()). */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <locale.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "cli.h"
#include "format.h"
#include "format-private.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* @n bytes of @s (after @sign, when not 0) padded to @sp's width. */
static void out_padded(struct cli_buf *b, const struct spec *sp, char sign, const char *s, size_t n)
{
	size_t total = n + (sign != 0);
	size_t pad = sp->width > total ? sp->width - total : 0;

	if (pad > 0 && !sp->left && !sp->zero)
		cli_buf_pad(b, ' ', pad);
	if (sign != 0)
		cli_buf_addc(b, sign);
	if (pad > 0 && !sp->left && sp->zero)
		cli_buf_pad(b, '0', pad);
	cli_buf_add(b, s, n);
	if (pad > 0 && sp->left)
		cli_buf_pad(b, ' ', pad);
}

/* @s as printf's @spec prints it. */
static void out_str(struct cli_buf *b, const struct spec *sp, const char *spec, const char *s)
{
	if (!sp->fast) {
		cli_buf_printf(b, spec, s);
		return;
	}
	if (sp->width == 0 && sp->prec < 0)
		cli_buf_adds(b, s);
	else
		out_padded(b, sp, 0, s, sp->prec < 0 ? strlen(s) : strnlen(s, (size_t)sp->prec));
}

static void out_uint(struct cli_buf *b, const struct spec *sp, const char *spec, uintmax_t v, unsigned base)
{
	char num[CLI_UINT_DIGITS];
	size_t n;

	if (!sp->fast) {
		cli_buf_printf(b, spec, v);
		return;
	}
	n = cli_fmt_uint(num + sizeof(num), v, base);
	out_padded(b, sp, 0, num + sizeof(num) - n, n);
}

static void out_int(struct cli_buf *b, const struct spec *sp, const char *spec, intmax_t v)
{
	char num[CLI_UINT_DIGITS];
	size_t n;

	if (!sp->fast) {
		cli_buf_printf(b, spec, v);
		return;
	}
	n = cli_fmt_uint(num + sizeof(num), v < 0 ? -(uintmax_t)v : (uintmax_t)v, 10);
	out_padded(b, sp, v < 0 ? '-' : 0, num + sizeof(num) - n, n);
}

/* printf's "%.0f" of -0.25 with the int flags of @raw: "-0" as wide as asked. */
static int out_minus_zero(struct cli_buf *b, const char *raw, size_t len)
{
	char *spec = make_spec(raw, len, "'-+ 0", ".0f");
	int n;

	if (spec == NULL)
		return -1;
	n = cli_buf_printf(b, spec, -0.25);
	free(spec);
	return n;
}

/*
 * Seconds since the Epoch with GNU stat's precision rules: ".N" prints N
 * digits of fraction (a bare "." means 9, more than 9 pads with zeros),
 * and a width covers the whole number, fraction included.
 */
static void out_epoch(struct cli_buf *b, const char *raw, struct timespec t)
{
	size_t len = strlen(raw);
	char *pf;
	const char *dot;
	size_t sec_len = len;
	int width = 0, precision = 0;
	bool frac_left = false;
	const char *dp;
	int dp_len;

	if (len == 1) {
		/* "%X": the seconds alone */
		cli_buf_add_int(b, (intmax_t)t.tv_sec);
		return;
	}
	pf = malloc(len + 32);
	if (pf == NULL)
		return;
	dp = localeconv()->decimal_point;
	dp_len = (int)strlen(dp);
	memcpy(pf, raw, len + 1);
	dot = memchr(pf, '.', len);
	if (dot != NULL) {
		char *d = pf + (dot - pf);

		sec_len = (size_t)(d - pf);
		if (d[1] >= '0' && d[1] <= '9') {
			long l = strtol(d + 1, NULL, 10);

			precision = l <= INT_MAX ? (int)l : INT_MAX;
		} else {
			precision = 9;
		}
		if (precision != 0 && d[-1] >= '0' && d[-1] <= '9') {
			char *p = d;
			long l;

			*d = '\0';
			do
				--p;
			while (p[-1] >= '0' && p[-1] <= '9');
			l = strtol(p, NULL, 10);
			width = l <= INT_MAX ? (int)l : INT_MAX;
			if (width > 1) {
				int w_d;

				p += (*p == '0');
				sec_len = (size_t)(p - pf);
				w_d = dp_len < width ? width - dp_len : 0;
				if (w_d > 1) {
					int w = w_d - precision;

					if (w > 1) {
						char *dst = pf;

						for (const char *src = pf; src < p; src++) {
							if (*src == '-')
								frac_left = true;
							else
								*dst++ = *src;
						}
						sec_len = (size_t)(dst - pf) +
							  (frac_left ? 0 : (size_t)sprintf(dst, "%d", w));
					}
				}
			}
		}
	}

	int divisor = 1;

	for (int i = precision; i < 9; i++)
		divisor *= 10;

	int frac = (int)(t.tv_nsec / divisor);
	int int_len;
	bool minus_zero = false;

	if (t.tv_sec < 0 && t.tv_nsec != 0) {
		int modulus = 1000000000 / divisor;

		frac = modulus - frac - (t.tv_nsec % divisor != 0);
		t.tv_sec += (frac != 0);
		minus_zero = t.tv_sec == 0;
	}
	if (minus_zero) {
		int_len = out_minus_zero(b, pf, sec_len);
	} else {
		char *spec = make_spec(pf, sec_len, "'-+ 0", "jd");

		int_len = -1;
		if (spec != NULL) {
			struct spec sp = spec_read(spec, "jd");
			size_t before = b->len;

			out_int(b, &sp, spec, (intmax_t)t.tv_sec);
			int_len = (int)(b->len - before);
		}
		free(spec);
	}
	if (precision != 0) {
		int prec = precision < 9 ? precision : 9;
		int trailing_prec = precision - prec;
		int ilen = int_len < 0 ? 0 : int_len;
		int trailing_width = ilen < width && dp_len < width - ilen
				     ? width - ilen - dp_len - prec : 0;

		cli_buf_printf(b, "%s%.*d%-*.*d", dp, prec, frac, trailing_width, trailing_prec, 0);
	}
	free(pf);
}

static bool render_directive(const struct piece *p, struct fmt_file *file, struct cli_buf *b)
{
	const struct fmt_directive *d = p->d;
	union fmt_value v;
	int r = d->get(file, d, &v);
	bool ok = r != FMT_VALUE_ERR;

	if (d->name != NULL && (r == FMT_VALUE_NA || (r == FMT_VALUE_ERR && d->out != FMT_OUT_STATE))) {
		/* Named fields only: "-" for what the kernel did not return, "?" for a failed lookup. */
		out_str(b, &p->sp2, p->spec2, r == FMT_VALUE_NA ? FMT_NOT_AVAILABLE : "?");
		return ok;
	}
	switch (d->out) {
	case FMT_OUT_STRING:
	case FMT_OUT_STRING_RAW:
	case FMT_OUT_STATE:
	case FMT_OUT_LIST:
		out_str(b, &p->sp, p->spec, v.s);
		break;
	case FMT_OUT_QUOTED: {
		const struct fattrs_statx_buf *stx = file->stx;

		out_str(b, &p->sp, p->spec, cli_quotearg(v.s, (enum cli_quoting_style)file->ctx->quoting));
		if (S_ISLNK(stx->stx_mode)) {
			char *buf;
			int lr = fattrs_readlink(AT_FDCWD, v.s, stx->stx_size, &buf);

			if (lr < 0) {
				cli_warn(-lr, _("cannot read symbolic link %s"),
					 cli_quotearg(v.s, CLI_QS_SHELL_ESCAPE_ALWAYS));
				return false;
			}
			cli_buf_add(b, " -> ", 4);
			out_str(b, &p->sp2, p->spec2, cli_quotearg(buf, (enum cli_quoting_style)file->ctx->quoting));
			free(buf);
		}
		break;
	}
	case FMT_OUT_INT:
		out_int(b, &p->sp, p->spec, v.i);
		break;
	case FMT_OUT_UINT:
		out_uint(b, &p->sp, p->spec, v.u, 10);
		break;
	case FMT_OUT_OCTAL:
		out_uint(b, &p->sp, p->spec, v.u, 8);
		break;
	case FMT_OUT_HEX:
		out_uint(b, &p->sp, p->spec, v.u, 16);
		break;
	case FMT_OUT_EPOCH:
		out_epoch(b, p->raw, v.t);
		break;
	}
	return ok;
}

#pragma GCC diagnostic pop

bool fmt_render_buf(const struct fmt *fmt, struct fmt_file *file, struct cli_buf *b, FILE *out)
{
	bool ok = true;

	for (size_t i = 0; i < fmt->n; i++) {
		const struct piece *p = &fmt->p[i];

		switch (p->kind) {
		case P_TEXT:
			cli_buf_add(b, fmt->text + p->off, p->len);
			break;
		case P_DIRECTIVE:
			ok &= render_directive(p, file, b);
			break;
		case P_UNKNOWN:
			cli_buf_addc(b, '?');
			break;
		case P_WARN:
			cli_warn(0, "%s", fmt->text + p->off);
			break;
		case P_INVALID:
			/* what came before it is printed, as GNU stat prints it */
			cli_buf_write(b, out);
			cli_die(CLI_EXIT_FAILURE, 0, _("%s: invalid directive"),
				cli_quotearg(fmt->text + p->off, CLI_QS_LOCALE));
		}
	}
	return ok;
}

bool fmt_render(const struct fmt *fmt, struct fmt_file *file, FILE *out, const char *trailer)
{
	struct cli_buf *b = &file->ctx->out;
	bool ok;

	cli_buf_pending(b, out);	/* a message comes after what precedes it, as GNU stat's */
	ok = fmt_render_buf(fmt, file, b, out);

	cli_buf_adds(b, trailer);
	cli_buf_write(b, out);
	return ok;
}

enum fmt_field_status fmt_field_put(const struct fmt_directive *d, struct fmt_file *f, struct cli_buf *b,
				    unsigned int flags)
{
	union fmt_value v;
	int r = d->get(f, d, &v);

	if (r == FMT_VALUE_NA)
		return FMT_FIELD_NA;
	if (r == FMT_VALUE_ERR) {
		cli_buf_addc(b, '?');
		return FMT_FIELD_ERROR;
	}
	switch (d->out) {
	case FMT_OUT_STRING:
	case FMT_OUT_LIST:
		cli_buf_adds(b, (flags & FMT_PRINT_QUOTE) ? cli_quotearg(v.s, CLI_QS_SHELL_ESCAPE) : v.s);
		break;
	case FMT_OUT_STRING_RAW:
	case FMT_OUT_STATE:
	case FMT_OUT_QUOTED:
		cli_buf_adds(b, v.s);
		break;
	case FMT_OUT_INT:
		cli_buf_add_int(b, v.i);
		break;
	case FMT_OUT_UINT:
		cli_buf_add_uint(b, v.u, 10);
		break;
	case FMT_OUT_OCTAL:
		/* "%#jo" */
		if ((flags & FMT_PRINT_HUMAN) && v.u != 0)
			cli_buf_addc(b, '0');
		cli_buf_add_uint(b, v.u, 8);
		break;
	case FMT_OUT_HEX:
		/* "%#jx" */
		if ((flags & FMT_PRINT_HUMAN) && v.u != 0)
			cli_buf_add(b, "0x", 2);
		cli_buf_add_uint(b, v.u, 16);
		break;
	case FMT_OUT_EPOCH:
		if (flags & FMT_PRINT_HUMAN)
			cli_buf_adds(b, human_time(v.t));
		else
			out_epoch(b, "%.9", v.t);
		break;
	}
	return FMT_FIELD_OK;
}

enum fattrs_state fmt_field_state(const struct fmt_directive *d, struct fmt_file *f)
{
	union fmt_value v;

	switch (d->get(f, d, &v)) {
	case FMT_VALUE_OK:
		break;
	case FMT_VALUE_NA:
		return FATTRS_STATE_UNREADABLE;	/* a flag's only "not available" */
	default:
		return FATTRS_STATE_UNKNOWN;
	}
	/* the getters hand out fattrs_state_name()'s very words: no string is compared */
	for (enum fattrs_state s = FATTRS_STATE_CLEAR; s < FATTRS_STATE_UNKNOWN; s++)
		if (v.s == fattrs_state_name(s))
			return s;
	return FATTRS_STATE_UNKNOWN;
}
