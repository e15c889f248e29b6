/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tiny TAP helpers for the library's unit tests (one program per library file). */
#ifndef FATTRS_TAP_H
#define FATTRS_TAP_H

#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n;
static int tap_failed;

/*
 * The tests to run, as $FATTRS_TEST_FILTER says (`make check TEST_FILTER=RE`,
 * the same variable that picks bats tests): an extended regular expression
 * matched against each tap_run()'s call, "test_path__join_adds_one_slash()"
 * say.  0: no filter (every test runs), 1: a filter, 2: not read yet.
 */
static int tap_filtered = 2;
static regex_t tap_filter;

static inline bool tap_filter_on(void)
{
	if (tap_filtered == 2) {
		const char *re = getenv("FATTRS_TEST_FILTER");

		tap_filtered = re != NULL && re[0] != '\0';
		if (tap_filtered && regcomp(&tap_filter, re, REG_EXTENDED | REG_NOSUB) != 0) {
			printf("Bail out! FATTRS_TEST_FILTER: not an extended regular expression: %s\n", re);
			exit(1);
		}
	}
	return tap_filtered;
}

/*
 * The plan: printed first, or, where a filter leaves out tests, by
 * tap_done() once it is known how many ran.
 */
static inline void tap_plan(int n)
{
	if (tap_filter_on())
		return;
	printf("1..%d\n", n);
	/* Flushed now, or a forked child's exit could print it again. */
	(void)fflush(stdout);
}

__attribute__((format(printf, 2, 3)))
static inline bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	(void)fflush(stdout);
	return cond;
}

#define is_int(got, want, ...) do { \
	long long g_ = (got), w_ = (want); \
	if (!tap_ok(g_ == w_, __VA_ARGS__)) \
		printf("#   got %lld, want %lld (%s:%d)\n", g_, w_, __FILE__, __LINE__); \
} while (0)

#define is_str(got, want, ...) do { \
	const char *g_ = (got), *w_ = (want); \
	if (!tap_ok(g_ != NULL && w_ != NULL ? strcmp(g_, w_) == 0 : g_ == w_, __VA_ARGS__)) \
		printf("#   got '%s', want '%s' (%s:%d)\n", g_ ? g_ : "(null)", \
		       w_ ? w_ : "(null)", __FILE__, __LINE__); \
} while (0)

__attribute__((format(printf, 1, 2)))
static inline void tap_skip(const char *fmt, ...)
{
	va_list ap;

	printf("ok %d # SKIP ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/*
 * A step of a test's set-up that must work: nothing is printed when it
 * does; when it fails, a "not ok" naming it and errno (the plan then
 * no longer matches either, and the test fails).
 */
#define must(call) do { \
	if ((call) < 0) \
		tap_ok(false, "set-up: %s: %s (%s:%d)", #call, strerror(errno), __FILE__, __LINE__); \
} while (0)

/* Run @call, a test function's call, unless the filter leaves it out. */
#define tap_run(call) do { \
	if (!tap_filter_on() || regexec(&tap_filter, #call, 0, NULL, 0) == 0) \
		call; \
} while (0)

static inline int tap_done(void)
{
	if (tap_filter_on()) {
		printf("1..%d%s\n", tap_n, tap_n == 0 ? " # SKIP no test matches FATTRS_TEST_FILTER" : "");
		regfree(&tap_filter);
	}
	return tap_failed == 0 ? 0 : 1;
}

#endif /* FATTRS_TAP_H */
