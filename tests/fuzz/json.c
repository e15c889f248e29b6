/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: src/cli/json.c, the JSON writer.  Writes objects of strings,
 * booleans, integers and nulls taken from the input, then reads the output
 * back with a strict RFC 8259 parser written here: every line must be one
 * JSON object, and each member must read back as what was written (a
 * string that is not valid UTF-8 as the array of its byte values).
 * Input: words separated by NUL; the first word is a list of operations
 * (byte % 6: string, boolean, integer, null, NULL string, next object),
 * the following words are the keys and values they take, in turn.
 * Ops 6 and 7 (byte % 8): an unsigned integer (cli_json_uint) and a
 * timestamp (cli_json_timespec); the object's end byte, '\n' or '\0'
 * (-0), comes from the op byte that ends it.
 * FUZZ_SOURCES: src/cli/json.c src/cli/buf.c src/cli/msg.c src/cli/inherit.c src/cli/quote.c src/cli/quotearg.c src/cli/parse.c
 */
#include "config.h"

#include <errno.h>
#include <limits.h>

#include "cli.h"
#include "fuzz.h"

#define MAX_WORDS 64
#define MAX_MEMBERS 64

enum kind { K_STR, K_BYTES, K_BOOL, K_INT, K_NULL, K_UINT, K_TIME };

struct member {
	const char *key;
	enum kind kind;
	const char *str;	/* K_STR, K_BYTES */
	long long num;		/* K_BOOL, K_INT, K_TIME (seconds) */
	unsigned long long unum;	/* K_UINT, K_TIME (nanoseconds) */
};

/* ------------------------------------------------- a strict JSON reader */

struct reader {
	const char *p;
	const char *end;
};

static void skip_ws(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r'))
		r->p++;
}

static int hex4(const char *p)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static char *put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* A JSON string at r->p; its decoded bytes (malloc()ed), or NULL if not valid. */
static char *read_string(struct reader *r)
{
	char *out, *o;

	if (r->p >= r->end || *r->p != '"')
		return NULL;
	r->p++;
	out = o = malloc((size_t)(r->end - r->p) * 2 + 1);
	FUZZ_CHECK(out != NULL, "out of memory");
	while (r->p < r->end && *r->p != '"') {
		unsigned char c = (unsigned char)*r->p;
		uint32_t cp;

		if (c < 0x20)
			goto bad;	/* raw control characters are not allowed */
		if (c != '\\') {
			size_t n = fuzz_utf8_len((const unsigned char *)r->p, &cp);

			if (n == 0 || r->p + n > r->end)
				goto bad;
			memcpy(o, r->p, n);
			o += n;
			r->p += n;
			continue;
		}
		if (++r->p >= r->end)
			goto bad;
		switch (*r->p++) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			int v = r->end - r->p >= 4 ? hex4(r->p) : -1;

			if (v < 0)
				goto bad;
			r->p += 4;
			cp = (uint32_t)v;
			if (cp >= 0xdc00 && cp <= 0xdfff)
				goto bad;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				int lo = r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u' ?
					 hex4(r->p + 2) : -1;

				if (lo < 0xdc00 || lo > 0xdfff)
					goto bad;
				r->p += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
			}
			if (cp == 0)
				goto bad;	/* a C string cannot hold it */
			o = put_utf8(o, cp);
			break;
		}
		default:
			goto bad;
		}
	}
	if (r->p >= r->end)
		goto bad;
	r->p++;
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

/*
 * The digits of a JSON integer (with a leading '-' if @sign allows it), no
 * leading zeros, copied into @buf (32 bytes) for strto*(); false if there
 * is none or it is too long for any 64-bit value.
 */
static bool scan_int(struct reader *r, bool sign, char buf[32])
{
	const char *s = r->p;
	size_t n;

	if (sign && r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p >= r->end || *r->p < '0' || *r->p > '9')
		return false;
	if (*r->p == '0' && r->p + 1 < r->end && r->p[1] >= '0' && r->p[1] <= '9')
		return false;	/* no leading zeros */
	while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
		r->p++;
	n = (size_t)(r->p - s);
	if (n >= 32)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

/* A JSON number that is an integer; false if not valid JSON or not in range. */
static bool read_int(struct reader *r, long long *ret)
{
	char buf[32];

	if (!scan_int(r, true, buf))
		return false;
	errno = 0;
	*ret = strtoll(buf, NULL, 10);
	return errno == 0;
}

/* A JSON number that is a non-negative integer up to 2^64-1. */
static bool read_uint(struct reader *r, unsigned long long *ret)
{
	char buf[32];

	if (!scan_int(r, false, buf))
		return false;
	errno = 0;
	*ret = strtoull(buf, NULL, 10);
	return errno == 0;
}

static bool read_word(struct reader *r, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(r->end - r->p) < n || strncmp(r->p, w, n) != 0)
		return false;
	r->p += n;
	return true;
}

/* The value of @m as written, checked against the reader's next value. */
static void check_value(struct reader *r, const struct member *m, size_t line)
{
	long long v;

	switch (m->kind) {
	case K_STR: {
		char *s = read_string(r);

		FUZZ_CHECK(s != NULL, "line %zu: value of '%s' is not a valid JSON string", line, m->key);
		FUZZ_CHECK(strcmp(s, m->str) == 0, "line %zu: string '%s' reads back as '%s'",
			   line, m->str, s);
		free(s);
		break;
	}
	case K_BYTES:
		FUZZ_CHECK(read_word(r, "["), "line %zu: invalid UTF-8 is not an array", line);
		for (const unsigned char *p = (const unsigned char *)m->str; *p != '\0'; p++) {
			skip_ws(r);
			FUZZ_CHECK(p == (const unsigned char *)m->str || read_word(r, ","),
				   "line %zu: no comma in the byte array", line);
			skip_ws(r);
			FUZZ_CHECK(read_int(r, &v) && v == *p,
				   "line %zu: byte %u of '%s' reads back as %lld", line, *p, m->key, v);
		}
		skip_ws(r);
		FUZZ_CHECK(read_word(r, "]"), "line %zu: byte array not closed", line);
		break;
	case K_BOOL:
		FUZZ_CHECK(read_word(r, m->num ? "true" : "false"), "line %zu: boolean", line);
		break;
	case K_INT:
		FUZZ_CHECK(read_int(r, &v) && v == m->num, "line %zu: integer %lld", line, m->num);
		break;
	case K_NULL:
		FUZZ_CHECK(read_word(r, "null"), "line %zu: null", line);
		break;
	case K_UINT: {
		unsigned long long u;

		FUZZ_CHECK(read_uint(r, &u) && u == m->unum, "line %zu: unsigned %llu", line, m->unum);
		break;
	}
	case K_TIME: {
		unsigned long long u;

		FUZZ_CHECK(read_word(r, "{\"sec\":") && read_int(r, &v) && v == m->num &&
			   read_word(r, ",\"nsec\":") && read_uint(r, &u) && u == m->unum && read_word(r, "}"),
			   "line %zu: timestamp %lld.%09llu", line, m->num, m->unum);
		break;
	}
	}
}

/* One line: one object with exactly the members written, then @term. */
static void check_object(struct reader *r, const struct member *m, size_t n, size_t line, char term)
{
	skip_ws(r);
	FUZZ_CHECK(read_word(r, "{"), "line %zu does not start an object", line);
	for (size_t i = 0; i < n; i++) {
		char *key;

		skip_ws(r);
		FUZZ_CHECK(i == 0 || read_word(r, ","), "line %zu: no comma before member %zu", line, i);
		skip_ws(r);
		key = read_string(r);
		FUZZ_CHECK(key != NULL, "line %zu: key %zu is not a valid JSON string", line, i);
		FUZZ_CHECK(strcmp(key, m[i].key) == 0, "line %zu: key '%s' reads back as '%s'",
			   line, m[i].key, key);
		free(key);
		skip_ws(r);
		FUZZ_CHECK(read_word(r, ":"), "line %zu: no colon after key %zu", line, i);
		skip_ws(r);
		check_value(r, &m[i], line);
	}
	skip_ws(r);
	FUZZ_CHECK(read_word(r, "}"), "line %zu: object not closed after %zu members", line, n);
	skip_ws(r);
	FUZZ_CHECK(r->p < r->end && *r->p == term, "line %zu: the object is not the whole line", line);
	r->p++;
}

/* ---------------------------------------------------------- the target */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *words[MAX_WORDS], *block, *text = NULL;
	size_t nwords = fuzz_split(data, size, words, MAX_WORDS, &block);
	size_t next = 1, textlen = 0, line = 0, skip = 0;
	struct member m[MAX_MEMBERS];
	size_t nm = 0;
	char term = '\n';
	struct cli_json j;
	struct reader r;
	FILE *out = open_memstream(&text, &textlen);

	FUZZ_CHECK(out != NULL, "open_memstream");
	cli_json_begin(&j, out);
	/* Written and checked one object at a time. */
	for (const unsigned char *op = (const unsigned char *)words[0]; ; op++) {
		bool end = *op == '\0' || *op % 8 == 5 || nm == MAX_MEMBERS;
		const char *key, *val;

		if (end) {
			j.term = term;
			cli_json_end(&j);
			FUZZ_CHECK(fflush(out) == 0, "fflush");
			r = (struct reader){ .p = text, .end = text + textlen };
			/* Only the last line is new: skip the ones checked. */
			r.p = text + skip;
			check_object(&r, m, nm, line, term);
			skip = textlen;
			FUZZ_CHECK(r.p == r.end, "bytes after line %zu", line);
			line++;
			nm = 0;
			if (*op == '\0')
				break;
			term = (*op & 0x80) ? '\0' : '\n';
			cli_json_begin(&j, out);
			continue;
		}
		/* Keys are the program's own words: valid UTF-8 by contract. */
		key = next < nwords ? words[next++] : "key";
		if (!fuzz_valid_utf8(key))
			key = "key";
		val = next < nwords ? words[next++] : "";
		m[nm].key = key;
		switch (*op % 8) {
		case 0:
			cli_json_str(&j, key, val);
			m[nm].kind = fuzz_valid_utf8(val) ? K_STR : K_BYTES;
			m[nm].str = val;
			break;
		case 1:
			cli_json_bool(&j, key, (val[0] & 1) != 0);
			m[nm].kind = K_BOOL;
			m[nm].num = (val[0] & 1) != 0;
			break;
		case 2: {
			long long v = 0;

			for (size_t i = 0; i < sizeof(v) && val[i] != '\0'; i++)
				v = (long long)((unsigned long long)v << 8 | (unsigned char)val[i]);
			if (val[0] == '-')
				v = LLONG_MIN;
			cli_json_int(&j, key, v);
			m[nm].kind = K_INT;
			m[nm].num = v;
			break;
		}
		case 3:
			cli_json_null(&j, key);
			m[nm].kind = K_NULL;
			break;
		case 4:
			cli_json_str(&j, key, NULL);
			m[nm].kind = K_NULL;
			break;
		case 6: {
			unsigned long long u = 0;

			for (size_t i = 0; i < sizeof(u) && val[i] != '\0'; i++)
				u = u << 8 | (unsigned char)val[i];
			if (val[0] == '~')
				u = ULLONG_MAX;
			cli_json_uint(&j, key, u);
			m[nm].kind = K_UINT;
			m[nm].unum = u;
			break;
		}
		case 7: {
			long long sec = 0;

			for (size_t i = 0; i < sizeof(sec) && val[i] != '\0'; i++)
				sec = (long long)((unsigned long long)sec << 8 | (unsigned char)val[i]);
			if (val[0] == '-')
				sec = LLONG_MIN;
			cli_json_timespec(&j, key, sec, (long)((unsigned char)val[0] * 3906250L));
			m[nm].kind = K_TIME;
			m[nm].num = sec;
			m[nm].unum = (unsigned long long)((unsigned char)val[0] * 3906250L);
			break;
		}
		}
		nm++;
	}
	(void)fclose(out);
	free(text);
	free(block);
	return 0;
}
