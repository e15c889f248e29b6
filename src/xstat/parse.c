/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parsing a format once (fmt_parse()): GNU stat's directives, flags, widths,
 * precisions and --printf escapes, and "%{name}". */
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

/* The named field @name (@len bytes) of @mode, for "%{name}". */
static const struct fmt_directive *lookup_name(enum fmt_mode mode, const char *name, size_t len)
{
	size_t pos = 0;
	const struct fmt_directive *d;

	while ((d = fmt_field_next(&pos)) != NULL) {
		if (d->mode != mode)
			continue;
		if (strlen(d->name) == len && memcmp(d->name, name, len) == 0)
			return d;
		if (d->alias != NULL && strlen(d->alias) == len && memcmp(d->alias, name, len) == 0)
			return d;
	}
	return NULL;
}

static const struct fmt_directive *lookup(enum fmt_mode mode, char mod, char letter)
{
	for (size_t i = 0; i < fmt_directives_count; i++) {
		const struct fmt_directive *d = &fmt_directives[i];

		if (d->mode == mode && d->mod == mod && d->letter == letter)
			return d;
	}
	return NULL;
}

/* Read @spec, which should end in the conversion @conv ("s", "ju", ...). */
struct spec spec_read(const char *spec, const char *conv)
{
	struct spec sp = { .fast = true, .prec = -1 };
	const char *p = spec + 1;

	for (;; p++) {
		if (*p == '-')
			sp.left = true;
		else if (*p == '0')
			sp.zero = true;
		else if (*p != '\0' && strchr("'+ #I", *p) != NULL)
			sp.fast = false;
		else
			break;
	}
	/* Past 65536, printf's business and its limits: no more digits are added (no overflow). */
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sp.width <= 65536)
			sp.width = sp.width * 10 + (size_t)(*p - '0');
		if (sp.width > 65536)
			sp.fast = false;
	}
	if (*p == '.') {
		sp.prec = 0;
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (sp.prec <= 65536)
				sp.prec = sp.prec * 10 + (*p - '0');
			if (sp.prec > 65536)
				sp.fast = false;
		}
	}
	if (strcmp(p, conv) != 0 || (sp.prec >= 0 && strcmp(conv, "s") != 0) ||
	    (sp.zero && strcmp(conv, "s") == 0))
		sp.fast = false;
	return sp;
}

static struct piece *add_piece(struct fmt *f, enum piece_kind kind)
{
	if (f->n == f->alloc) {
		size_t alloc = f->alloc ? 2 * f->alloc : 16;
		struct piece *p = realloc(f->p, alloc * sizeof(*p));

		if (p == NULL) {
			f->oom = true;
			return NULL;
		}
		f->p = p;
		f->alloc = alloc;
	}
	f->p[f->n] = (struct piece){ .kind = kind };
	return &f->p[f->n++];
}

static size_t add_bytes(struct fmt *f, const char *s, size_t n)
{
	size_t off = f->text_len;

	if (f->text_len + n + 1 > f->text_alloc) {
		size_t alloc = f->text_alloc ? f->text_alloc : 64;
		char *t;

		while (f->text_len + n + 1 > alloc)
			alloc *= 2;
		t = realloc(f->text, alloc);
		if (t == NULL) {
			f->oom = true;
			return 0;
		}
		f->text = t;
		f->text_alloc = alloc;
	}
	memcpy(f->text + f->text_len, s, n);
	f->text_len += n;
	f->text[f->text_len] = '\0';
	return off;
}

/* Literal bytes, merged into the previous text piece when there is one. */
static void add_text(struct fmt *f, const char *s, size_t n)
{
	size_t off = add_bytes(f, s, n);
	struct piece *last = f->n > 0 ? &f->p[f->n - 1] : NULL;

	if (f->oom)
		return;
	if (last != NULL && last->kind == P_TEXT && last->off + last->len == off) {
		last->len += n;
		return;
	}
	last = add_piece(f, P_TEXT);
	if (last != NULL) {
		last->off = off;
		last->len = n;
	}
}

/* A message piece; its text is stored NUL-terminated. */
static void add_message(struct fmt *f, enum piece_kind kind, const char *msg)
{
	size_t off = add_bytes(f, msg, strlen(msg) + 1);
	struct piece *p;

	if (f->oom)
		return;
	f->text_len = off + strlen(msg) + 1;
	p = add_piece(f, kind);
	if (p != NULL) {
		p->off = off;
		p->len = strlen(msg);
	}
}

/*
 * GNU stat's make_format(), in place on @buf (which holds @len bytes of
 * "%" flags width precision, and room for @suffix): drop the flags @allowed
 * does not list, append @suffix.  In place because GNU's %N applies it
 * twice to the same buffer for a symlink's target, and the second pass
 * reads what the first left (the target's spec can differ: stat 9.1 prints
 * "%012N" of a symlink's target with a stray "s").
 */
static void make_format(char *buf, size_t len, const char *allowed, const char *suffix)
{
	static const char flags[] = "'-+ #0I";
	char *dst = buf + 1;
	const char *src = dst, *lim = buf + len;

	/* strchr() finds a NUL byte in any string: GNU keeps one, as a flag. */
	for (; src < lim && strchr(flags, *src) != NULL; src++)
		if (strchr(allowed, *src) != NULL)
			*dst++ = *src;
	while (src < lim)
		*dst++ = *src++;
	strcpy(dst, suffix);
}

/* make_format() on a copy of @raw's @len bytes. */
char *make_spec(const char *raw, size_t len, const char *allowed, const char *suffix)
{
	char *s = malloc(len + strlen(suffix) + 1);

	if (s == NULL)
		return NULL;
	memcpy(s, raw, len);
	make_format(s, len, allowed, suffix);
	return s;
}

/* %N's spec for a symlink's target: make_format() run twice on one buffer. */
static char *make_spec_twice(const char *raw, size_t len)
{
	char *s = malloc(len + 8);

	if (s == NULL)
		return NULL;
	memcpy(s, raw, len);
	make_format(s, len, "-", "s");
	make_format(s, len, "-", "s");
	return s;
}

static bool is_odigit(char c)
{
	return c >= '0' && c <= '7';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One backslash escape of --printf at @s (after the '\'); returns its length. */
static size_t parse_escape(struct fmt *f, const char *s)
{
	char c;

	if (is_odigit(s[0])) {
		int v = 0;
		size_t n = 0;

		while (n < 3 && is_odigit(s[n]))
			v = v * 8 + (s[n++] - '0');
		c = (char)v;
		add_text(f, &c, 1);
		return n;
	}
	if (s[0] == 'x' && hexval(s[1]) >= 0) {
		int v = hexval(s[1]);
		size_t n = 2;

		if (hexval(s[2]) >= 0)
			v = v * 16 + hexval(s[n++]);
		c = (char)v;
		add_text(f, &c, 1);
		return n;
	}
	if (s[0] == '\0') {
		add_message(f, P_WARN, _("warning: backslash at end of format"));
		add_text(f, "\\", 1);
		return 0;
	}
	switch (s[0]) {
	case 'a': c = '\a'; break;
	case 'b': c = '\b'; break;
	case 'e': c = '\x1b'; break;
	case 'f': c = '\f'; break;
	case 'n': c = '\n'; break;
	case 'r': c = '\r'; break;
	case 't': c = '\t'; break;
	case 'v': c = '\v'; break;
	case '"':
	case '\\':
		c = s[0];
		break;
	default: {
		char msg[256];	/* translated under the name stat */

		snprintf(msg, sizeof(msg), _("warning: unrecognized escape '\\%c'"), s[0]);
		add_message(f, P_WARN, msg);
		c = s[0];
		break;
	}
	}
	add_text(f, &c, 1);
	return 1;
}

static void add_directive(struct fmt *f, const char *raw, size_t len, const struct fmt_directive *d)
{
	struct piece *p = add_piece(f, P_DIRECTIVE);
	const char *allowed = "", *suffix = "s";

	if (p == NULL)
		return;
	p->d = d;
	switch (d->out) {
	case FMT_OUT_STRING:
	case FMT_OUT_QUOTED:
	case FMT_OUT_STATE:
	case FMT_OUT_LIST:
		allowed = "-";
		break;
	case FMT_OUT_STRING_RAW:
		allowed = "'-+ #0I";
		break;
	case FMT_OUT_INT:
		allowed = "'-+ 0";
		suffix = "jd";
		break;
	case FMT_OUT_UINT:
		allowed = "'-0";
		suffix = "ju";
		break;
	case FMT_OUT_OCTAL:
		allowed = "-#0";
		suffix = "jo";
		break;
	case FMT_OUT_HEX:
		allowed = "-#0";
		suffix = "jx";
		break;
	case FMT_OUT_EPOCH:
		break;
	}
	p->raw = strndup(raw, len);
	p->spec = make_spec(raw, len, allowed, suffix);
	if (d->out == FMT_OUT_QUOTED && (p->spec2 = make_spec_twice(raw, len)) == NULL)
		f->oom = true;
	if (d->name != NULL && (p->spec2 = make_spec(raw, len, "-", "s")) == NULL)
		f->oom = true;
	if (p->raw == NULL || p->spec == NULL)
		f->oom = true;
	if (p->spec != NULL)
		p->sp = spec_read(p->spec, suffix);
	if (p->spec2 != NULL)
		p->sp2 = spec_read(p->spec2, "s");
	f->mask |= d->name != NULL ? fmt_field_statx_mask(d) : d->statx_mask;
	f->needs |= d->needs;
}

/* The length of "%" flags width precision at @s (GNU's format_code_offset). */
static size_t code_len(const char *s)
{
	size_t n = 1 + strspn(s + 1, "'-+ #0I");

	n += strspn(s + n, "0123456789");
	if (s[n] == '.')
		n += 1 + strspn(s + n + 1, "0123456789");
	return n;
}

/*
 * Compatibility notes (each checked against /usr/bin/stat 9.1 by
 * the tests in tests/xstat):
 * - a directive is '%', flags from "'-+ #0I", digits, optionally '.' and
 *   digits, then a letter; each kind of value keeps only the flags printf
 *   gives a meaning for it ('I' is always dropped);
 * - an unknown letter prints "?" (width ignored); "%%" and a lone "%" at
 *   the end print "%"; "%5%" is an invalid directive that ends the run when
 *   the first file is printed;
 * - precision on a string (%x, %n, ...) truncates it, precision on %X %Y %Z
 *   %W gives that many digits of the fraction (a bare '.' means 9).
 */
struct fmt *fmt_parse(const char *text, enum fmt_mode mode, unsigned int flags)
{
	struct fmt *f = calloc(1, sizeof(*f));

	if (f == NULL)
		return NULL;
	f->mode = mode;
	for (const char *s = text; *s != '\0' && !f->oom; s++) {
		if (*s == '\\' && (flags & FMT_ESCAPES)) {
			s += parse_escape(f, s + 1);
			continue;
		}
		if (*s != '%') {
			size_t n = strcspn(s, (flags & FMT_ESCAPES) ? "%\\" : "%");

			add_text(f, s, n);
			s += n - 1;
			continue;
		}
		size_t len = code_len(s);
		char c = s[len];
		char mod = 0;
		const struct fmt_directive *d;

		if (c == '\0' || c == '%') {
			if (len > 1) {
				char *msg = strndup(s, len + 1);

				if (msg == NULL) {
					f->oom = true;
					break;
				}
				add_message(f, P_INVALID, msg);
				free(msg);
				break;	/* nothing after it is ever printed */
			}
			add_text(f, "%", 1);
			if (c == '\0')
				break;
			s += len;
			continue;
		}
		if ((c == 'H' || c == 'L') && mode == FMT_FILE && (s[len + 1] == 'd' || s[len + 1] == 'r')) {
			mod = c;
			c = s[len + 1];
		}
		if (c == '{') {
			/*
			 * "%{name}": a named directive of the table, with the
			 * flags, width and precision before the brace.  A name
			 * the table lacks is GNU's unknown "%{": "?", and the
			 * rest printed as text.
			 */
			const char *end = strchr(s + len + 1, '}');

			d = end != NULL ? lookup_name(mode, s + len + 1, (size_t)(end - (s + len + 1))) : NULL;
			if (d != NULL) {
				add_directive(f, s, len, d);
				s = end;
				continue;
			}
		}
		d = lookup(mode, mod, c);
		if (d != NULL)
			add_directive(f, s, len, d);
		else
			add_piece(f, P_UNKNOWN);
		s += len + (mod != 0);
	}
	if (f->oom)
		return fmt_free(f);
	return f;
}

struct fmt *fmt_free(struct fmt *f)
{
	if (f == NULL)
		return NULL;
	for (size_t i = 0; i < f->n; i++) {
		free(f->p[i].spec);
		free(f->p[i].spec2);
		free(f->p[i].raw);
	}
	free(f->p);
	free(f->text);
	free(f);
	return NULL;
}

const char *fmt_invalid(const struct fmt *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->p[i].kind == P_INVALID)
			return f->text + f->p[i].off;
	return NULL;
}

unsigned int fmt_statx_mask(const struct fmt *f)
{
	return f->mask;
}

unsigned int fmt_needs(const struct fmt *f)
{
	return f->needs;
}
