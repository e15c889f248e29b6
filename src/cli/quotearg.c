/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The quoting styles of GNU's QUOTING_STYLE (ls, stat %N), byte for byte: messages about files
 * use shell-escape-always (coreutils' quoteaf), stat's %N the style QUOTING_STYLE names.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <langinfo.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <uchar.h>
#include <wchar.h>
#include <wctype.h>

#include "msg.h"

#include "quote.h"
#include "parse.h"

static const char *const style_names[] = {
	[CLI_QS_LITERAL] = "literal",
	[CLI_QS_SHELL] = "shell",
	[CLI_QS_SHELL_ALWAYS] = "shell-always",
	[CLI_QS_SHELL_ESCAPE] = "shell-escape",
	[CLI_QS_SHELL_ESCAPE_ALWAYS] = "shell-escape-always",
	[CLI_QS_C] = "c",
	[CLI_QS_C_MAYBE] = "c-maybe",
	[CLI_QS_ESCAPE] = "escape",
	[CLI_QS_LOCALE] = "locale",
	[CLI_QS_CLOCALE] = "clocale",
};

const char *cli_quoting_style_name(enum cli_quoting_style s)
{
	return style_names[s];
}

int cli_quoting_style_parse(const char *word)
{
	return cli_argmatch(word, style_names, sizeof(style_names) / sizeof(style_names[0]));
}

/* A growing string. */
struct qout {
	char *p;
	size_t len, alloc;
	bool oom;
};

static void put(struct qout *o, char c)
{
	if (o->len + 1 >= o->alloc) {
		size_t alloc = o->alloc ? 2 * o->alloc : 64;
		char *p = realloc(o->p, alloc);

		if (p == NULL) {
			o->oom = true;
			return;
		}
		o->p = p;
		o->alloc = alloc;
	}
	o->p[o->len++] = c;
}

static void puts_(struct qout *o, const char *s)
{
	while (*s != '\0')
		put(o, *s++);
}

static bool utf8_codeset(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs != NULL && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/*
 * gnulib's gettext_quote(): the quotes the program's catalog gives for
 * "`" and "'" (under a GNU tool's name, its own: "„" and "“" in German),
 * else the locale's.
 */
static const char *locale_quote(bool left, enum cli_quoting_style s)
{
	const char *msgid = left ? "`" : "'";
	const char *t = cli_gettext(msgid);

	if (t != msgid)
		return t;
	if (utf8_codeset())
		return left ? "\xe2\x80\x98" : "\xe2\x80\x99";
	return s == CLI_QS_CLOCALE ? "\"" : "'";
}

/*
 * One pass.  Returns false when the pass must be redone in @ret_style
 * (outer quotes were elided and turn out to be needed, or an apostrophe
 * is better shown in C quotes).
 */
static bool quote_pass(struct qout *o, const char *arg, size_t len,
		       enum cli_quoting_style style, bool elide, enum cli_quoting_style *ret_style)
{
	const char *quote_string = NULL;
	size_t quote_len = 0;
	bool backslash_escapes = false;
	bool unibyte = MB_CUR_MAX == 1;
	bool pending_shell_end = false;
	bool saw_apostrophe = false;
	bool all_compat = true;
	bool shell_always;

	switch (style) {
	case CLI_QS_C_MAYBE:
		style = CLI_QS_C;
		elide = true;
		/* fall through */
	case CLI_QS_C:
		if (!elide)
			put(o, '"');
		backslash_escapes = true;
		quote_string = "\"";
		quote_len = 1;
		break;
	case CLI_QS_ESCAPE:
		backslash_escapes = true;
		elide = false;
		break;
	case CLI_QS_LOCALE:
	case CLI_QS_CLOCALE:
		if (!elide)
			puts_(o, locale_quote(true, style));
		backslash_escapes = true;
		quote_string = locale_quote(false, style);
		quote_len = strlen(quote_string);
		break;
	case CLI_QS_SHELL_ESCAPE:
		backslash_escapes = true;
		/* fall through */
	case CLI_QS_SHELL:
		elide = true;
		/* fall through */
	case CLI_QS_SHELL_ESCAPE_ALWAYS:
		if (!elide)
			backslash_escapes = true;
		/* fall through */
	case CLI_QS_SHELL_ALWAYS:
		style = CLI_QS_SHELL_ALWAYS;
		if (!elide)
			put(o, '\'');
		quote_string = "'";
		quote_len = 1;
		break;
	case CLI_QS_LITERAL:
		elide = false;
		break;
	}
	shell_always = style == CLI_QS_SHELL_ALWAYS;

/* The escape sequence starts: in shell style, leave the quotes for $'...'. */
#define START_ESC()							\
	do {								\
		if (elide)						\
			goto force_outer;				\
		escaping = true;					\
		if (shell_always && !pending_shell_end) {		\
			puts_(o, "'$'");				\
			pending_shell_end = true;			\
		}							\
		put(o, '\\');						\
	} while (0)
#define END_ESC()							\
	do {								\
		if (pending_shell_end && !escaping) {			\
			puts_(o, "''");					\
			pending_shell_end = false;			\
		}							\
	} while (0)

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)arg[i];
		unsigned char esc = 0;
		bool escaping = false;
		bool is_right_quote = false;
		bool compat = false;

		if (backslash_escapes && !shell_always && quote_len != 0 &&
		    i + quote_len <= len && memcmp(arg + i, quote_string, quote_len) == 0) {
			if (elide)
				goto force_outer;
			is_right_quote = true;
		}

		switch (c) {
		case '?':
			if (shell_always && elide)
				goto force_outer;
			break;
		case '\a': esc = 'a'; goto c_escape;
		case '\b': esc = 'b'; goto c_escape;
		case '\f': esc = 'f'; goto c_escape;
		case '\n': esc = 'n'; goto c_and_shell_escape;
		case '\r': esc = 'r'; goto c_and_shell_escape;
		case '\t': esc = 't'; goto c_and_shell_escape;
		case '\v': esc = 'v'; goto c_escape;
		case '\\':
			esc = c;
			if (shell_always) {
				if (elide)
					goto force_outer;
				goto store_c;
			}
			if (backslash_escapes && elide && quote_len != 0)
				goto store_c;
c_and_shell_escape:
			if (shell_always && elide)
				goto force_outer;
c_escape:
			if (backslash_escapes) {
				c = esc;
				goto store_escape;
			}
			break;
		case '{': case '}':
			if (len != 1)
				break;
			/* fall through */
		case '#': case '~':
			if (i != 0)
				break;
			/* fall through */
		case ' ':
			compat = true;
			/* fall through */
		case '!': case '"': case '$': case '&': case '(': case ')': case '*':
		case ';': case '<': case '=': case '>': case '[': case '^': case '`':
		case '|':
			if (shell_always && elide)
				goto force_outer;
			break;
		case '\'':
			saw_apostrophe = true;
			compat = true;
			if (shell_always) {
				if (elide)
					goto force_outer;
				puts_(o, "'\\'");
				pending_shell_end = false;
			}
			break;
		case '%': case '+': case ',': case '-': case '.': case '/':
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9': case ':':
		case ']': case '_':
			compat = true;
			break;
		default:
			if (isascii(c) && isalpha(c)) {
				compat = true;
				break;
			}
			{
				size_t m = 0;
				bool printable = true;

				if (unibyte) {
					m = 1;
					printable = isprint(c) != 0;
				} else {
					mbstate_t st;

					memset(&st, 0, sizeof(st));
					do {
						char32_t w;
						size_t n = mbrtoc32(&w, arg + i + m, len - (i + m), &st);

						if (n == 0)
							break;
						if (n == (size_t)-1) {
							printable = false;
							break;
						}
						if (n == (size_t)-2) {
							printable = false;
							while (i + m < len && arg[i + m] != '\0')
								m++;
							break;
						}
						if (elide && shell_always) {
							for (size_t j = 1; j < n; j++) {
								switch (arg[i + m + j]) {
								case '[': case '\\': case '^':
								case '`': case '|':
									goto force_outer;
								default:
									break;
								}
							}
						}
						if (!iswprint((wint_t)w))
							printable = false;
						m += n;
					} while (!mbsinit(&st));
				}
				compat = printable;
				if (m > 1 || (backslash_escapes && !printable)) {
					size_t ilim = i + m;

					for (;;) {
						if (backslash_escapes && !printable) {
							START_ESC();
							put(o, (char)('0' + (c >> 6)));
							put(o, (char)('0' + ((c >> 3) & 7)));
							c = (unsigned char)('0' + (c & 7));
						} else if (is_right_quote) {
							put(o, '\\');
							is_right_quote = false;
						}
						if (ilim <= i + 1)
							break;
						END_ESC();
						put(o, (char)c);
						c = (unsigned char)arg[++i];
					}
					goto store_c;
				}
			}
			break;
		}
		if (!is_right_quote)
			goto store_c;
store_escape:
		START_ESC();
store_c:
		END_ESC();
		put(o, (char)c);
		if (!compat)
			all_compat = false;
	}
#undef START_ESC
#undef END_ESC

	if (len == 0 && shell_always && elide)
		goto force_outer;
	if (shell_always && !elide && saw_apostrophe && all_compat) {
		*ret_style = CLI_QS_C;
		return false;
	}
	if (quote_string != NULL && !elide)
		puts_(o, quote_string);
	return true;

force_outer:
	*ret_style = shell_always && backslash_escapes ? CLI_QS_SHELL_ESCAPE_ALWAYS : style;
	return false;
}

/* Keeps errno, as cli_quote() does (messages quote names next to errno). */
char *cli_quotearg_alloc(const char *arg, size_t len, enum cli_quoting_style style)
{
	int saved_errno = errno;
	struct qout o = { 0 };
	bool elide = false;

	for (;;) {
		enum cli_quoting_style again;

		o.len = 0;
		if (quote_pass(&o, arg, len, style, elide, &again))
			break;
		style = again;
		elide = false;
	}
	put(&o, '\0');
	errno = saved_errno;
	if (o.oom) {
		free(o.p);
		return NULL;
	}
	return o.p;
}

/*
 * A byte every style that elides its quotes leaves as it is, wherever it
 * stands: ASCII letters and digits, and the punctuation quote_pass()
 * stores without a quote or an escape ('@' is printable in any locale).
 */
static bool plain_byte(unsigned char c)
{
	static const char extra[] = "%+,-./:@]_";

	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c != '\0' && memchr(extra, c, sizeof(extra) - 1) != NULL);
}

/*
 * Does @arg come out of @style unchanged?  Literal never changes a byte;
 * shell and shell-escape leave a name of plain bytes as it is (an empty
 * one becomes '').  The common case, found without a copy.
 */
static bool unchanged(const char *arg, enum cli_quoting_style style)
{
	if (style == CLI_QS_LITERAL)
		return true;
	if ((style != CLI_QS_SHELL && style != CLI_QS_SHELL_ESCAPE) || *arg == '\0')
		return false;
	for (const unsigned char *p = (const unsigned char *)arg; *p != '\0'; p++)
		if (!plain_byte(*p))
			return false;
	return true;
}

const char *cli_quotearg(const char *arg, enum cli_quoting_style style)
{
	static char *slot[4];
	static unsigned int next;
	char *q;

	if (unchanged(arg, style))
		return arg;
	q = cli_quotearg_alloc(arg, strlen(arg), style);

	if (q == NULL)
		return arg;
	free(slot[next]);
	slot[next] = q;
	next = (next + 1) % 4;
	return q;
}
