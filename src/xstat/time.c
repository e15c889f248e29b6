/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The human-readable timestamps of %w %x %y %z ("2024-01-31 12:34:56.123456789 +0100"). */
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

/* @v in @n decimal digits, zero-padded, at @p; returns the end. */
static char *put_digits(char *p, unsigned long v, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		p[i] = (char)('0' + v % 10);
		v /= 10;
	}
	return p + n;
}

/*
 * The calendar part of a second ("2024-01-31 12:34:56") and its zone
 * ("+0100"), for the last few seconds asked about: localtime_r() and
 * strftime() once per second value.  glibc reads TZ once per process for
 * localtime_r(), so the second alone is the key.
 */
struct tm_cache {
	time_t sec;
	bool valid, ok;	/* ok: localtime_r() succeeded */
	uint8_t len;
	char text[40];	/* "2024-01-31 12:34:56" */
	char zone[16];	/* " +0100" */
};

static const struct tm_cache *tm_of(time_t sec)
{
	static struct tm_cache cache[4];
	static unsigned int next;
	struct tm_cache *e;
	struct tm tm;

	for (size_t i = 0; i < sizeof(cache) / sizeof(cache[0]); i++)
		if (cache[i].valid && cache[i].sec == sec)
			return &cache[i];
	e = &cache[next];
	next = (next + 1) % (sizeof(cache) / sizeof(cache[0]));
	*e = (struct tm_cache){ .sec = sec, .valid = true };
	if (localtime_r(&sec, &tm) != NULL) {
		long long year = (long long)tm.tm_year + 1900;
		char *p = e->text;

		e->ok = true;
		if (year < 0)
			p += snprintf(p, 24, "-%03lld", -year);
		else if (year > 9999)
			p += snprintf(p, 24, "%04lld", year);
		else
			p = put_digits(p, (unsigned long)year, 4);
		*p++ = '-';
		p = put_digits(p, (unsigned long)tm.tm_mon + 1, 2);
		*p++ = '-';
		p = put_digits(p, (unsigned long)tm.tm_mday, 2);
		*p++ = ' ';
		p = put_digits(p, (unsigned long)tm.tm_hour, 2);
		*p++ = ':';
		p = put_digits(p, (unsigned long)tm.tm_min, 2);
		*p++ = ':';
		p = put_digits(p, (unsigned long)tm.tm_sec, 2);
		e->len = (uint8_t)(p - e->text);
		e->zone[0] = ' ';
		if (strftime(e->zone + 1, sizeof(e->zone) - 1, "%z", &tm) == 0)
			e->zone[1] = '\0';
	}
	return e;
}

/* "2024-01-31 12:34:56.123456789 +0100", or seconds.nanoseconds when the
 * time has no calendar date. */
const char *human_time(struct timespec t)
{
	static char buf[96];
	const struct tm_cache *e = tm_of(t.tv_sec);
	char *p = buf;

	if (!e->ok || t.tv_nsec < 0 || t.tv_nsec > 999999999) {
		if (e->ok)
			snprintf(buf, sizeof(buf), "%.*s.%09ld%s", (int)e->len, e->text, (long)t.tv_nsec, e->zone);
		else
			snprintf(buf, sizeof(buf), "%jd.%09ld", (intmax_t)t.tv_sec, (long)t.tv_nsec);
		return buf;
	}
	memcpy(p, e->text, e->len);
	p += e->len;
	*p++ = '.';
	p = put_digits(p, (unsigned long)t.tv_nsec, 9);
	strcpy(p, e->zone);
	return buf;
}
