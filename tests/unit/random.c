/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/random.c: random letters and digits for temporary names. */
#include "config.h"

#include "fattrs.h"
#include "internal.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "fixture.h"

/* Bytes drawn at once to check the alphabet. */
#define SAMPLE_LEN 4096
/* 100 rounds of 64: each of the 62 characters gets about 103 chances. */
#define ROUND_LEN 64
#define ROUNDS 100

static bool in_alphabet(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static void test_random__only_letters_and_digits(void)
{
	char buf[SAMPLE_LEN];
	size_t bad = 0;
	int r;

	memset(buf, '\0', sizeof(buf));
	r = fattrs_random_fill(buf, sizeof(buf));
	is_int(r, 0, "filling %zu bytes succeeds", sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++) {
		if (!in_alphabet(buf[i]))
			bad++;
	}
	is_int(bad, 0, "every byte is in [A-Za-z0-9]");
}

static void test_random__fills_exactly_len(void)
{
	char buf[32];
	size_t touched = 0, untouched = 0;
	int r;

	memset(buf, '#', sizeof(buf));
	r = fattrs_random_fill(buf + 1, 10);
	is_int(r, 0, "filling 10 bytes succeeds");
	for (size_t i = 1; i <= 10; i++) {
		if (in_alphabet(buf[i]))
			touched++;
	}
	for (size_t i = 11; i < sizeof(buf); i++) {
		if (buf[i] == '#')
			untouched++;
	}
	is_int(touched, 10, "the 10 bytes asked for are filled");
	tap_ok(buf[0] == '#', "the guard byte before is untouched");
	is_int(untouched, sizeof(buf) - 11, "the guard bytes after are untouched");
}

static void test_random__zero_len_touches_nothing(void)
{
	char guard = '#';
	int r = fattrs_random_fill(&guard, 0);

	is_int(r, 0, "filling 0 bytes succeeds");
	tap_ok(guard == '#', "filling 0 bytes writes nothing");
}

static void test_random__two_fills_differ(void)
{
	char a[17] = "", b[17] = "";
	int ra = fattrs_random_fill(a, 16);
	int rb = fattrs_random_fill(b, 16);

	tap_ok(ra == 0 && rb == 0, "two fills of 16 succeed");
	/* 62^-16: a collision means the pool repeats, not bad luck. */
	tap_ok(strcmp(a, b) != 0, "two fills differ ('%s', '%s')", a, b);
}

static void test_random__all_62_characters_appear(void)
{
	char buf[ROUND_LEN];
	bool seen[256] = { false };
	size_t missing = 0, extra = 0;

	for (int round = 0; round < ROUNDS; round++) {
		if (fattrs_random_fill(buf, sizeof(buf)) < 0)
			break;
		for (size_t i = 0; i < sizeof(buf); i++)
			seen[(unsigned char)buf[i]] = true;
	}
	for (const char *c = ALNUM; *c != '\0'; c++) {
		if (!seen[(unsigned char)*c])
			missing++;
	}
	for (int c = 0; c < 256; c++) {
		if (seen[c] && !in_alphabet((char)c))
			extra++;
	}
	is_int(missing, 0, "all 62 characters appear over 6400 draws");
	is_int(extra, 0, "no other character appears");
}

/*
 * Fork and return what the child's fattrs_random_fill() of @len bytes
 * gave (in @buf, NUL-terminated), or false.
 */
static bool fill_in_child(char *buf, size_t len)
{
	int p[2], st;
	pid_t pid;
	ssize_t n;

	if (pipe(p) < 0)
		return false;
	pid = fork();
	if (pid == 0) {
		char b[64];

		if (len > sizeof(b) || fattrs_random_fill(b, len) < 0 ||
		    write(p[1], b, len) != (ssize_t)len)
			_exit(1);
		_exit(0);
	}
	(void)close(p[1]);
	n = pid < 0 ? -1 : read(p[0], buf, len);
	(void)close(p[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return false;
	buf[n < 0 ? 0 : n] = '\0';
	return n == (ssize_t)len;
}

static void test_random__fork_children_draw_their_own_names(void)
{
	char first[2], parent[33] = "", a[33] = "", b[33] = "";
	bool ok;

	/* Something left in the pool, as after a name was made. */
	(void)fattrs_random_fill(first, 1);
	ok = fill_in_child(a, 32) && fill_in_child(b, 32);
	tap_ok(ok, "two children after fork fill 32 bytes each");
	(void)fattrs_random_fill(parent, 32);
	/* 62^-32: equal means the pool was shared, not bad luck. */
	tap_ok(strcmp(a, parent) != 0, "a child's name differs from the parent's next ('%s', '%s')",
	       a, parent);
	tap_ok(strcmp(a, b) != 0, "two children's names differ ('%s', '%s')", a, b);
}

#define THREADS 4
#define THREAD_NAMES 2000
#define NAME_LEN 16

static void *thread_fill(void *arg)
{
	char (*names)[NAME_LEN + 1] = arg;

	for (int i = 0; i < THREAD_NAMES; i++) {
		if (fattrs_random_fill(names[i], NAME_LEN) < 0)
			return NULL;
		names[i][NAME_LEN] = '\0';
	}
	return arg;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void test_random__threads_draw_distinct_names(void)
{
	static char names[THREADS * THREAD_NAMES][NAME_LEN + 1];
	pthread_t t[THREADS];
	size_t n = sizeof(names) / sizeof(names[0]), dup = 0, bad = 0;
	int done = 0;

	for (int i = 0; i < THREADS; i++) {
		if (pthread_create(&t[i], NULL, thread_fill, names[i * THREAD_NAMES]) == 0)
			done++;
	}
	for (int i = 0; i < done; i++) {
		void *ret;

		if (pthread_join(t[i], &ret) != 0 || ret == NULL)
			done--;
	}
	is_int(done, THREADS, "%d threads fill %d names each", THREADS, THREAD_NAMES);
	qsort(names, n, sizeof(names[0]), name_cmp);
	for (size_t i = 0; i < n; i++) {
		if (strlen(names[i]) != NAME_LEN)
			bad++;
		else if (i > 0 && strcmp(names[i - 1], names[i]) == 0)
			dup++;
	}
	is_int(bad, 0, "every name is %d characters", NAME_LEN);
	is_int(dup, 0, "no two of the %zu names are equal", n);
}

/* mktemp(1)'s reading of templates (compared with GNU mktemp 9.1 by tests/tmpcreate). */
static void test_random__tmpl_parse_follows_mktemp(void)
{
	static const struct {
		const char *template, *suffix;
		enum fattrs_tmpl_err err;
		const char *path;
		size_t x_off, x_len;
	} cases[] = {
		{ "tmp.XXXXXXXXXX", NULL, FATTRS_TMPL_OK, "tmp.XXXXXXXXXX", 4, 10 },
		{ "a.XXXXXX.txt", NULL, FATTRS_TMPL_OK, "a.XXXXXX.txt", 2, 6 },
		{ "a.XXX", ".txt", FATTRS_TMPL_OK, "a.XXX.txt", 2, 3 },
		{ "aXXX", "a/", FATTRS_TMPL_OK, "aXXXa/", 1, 3 },
		{ "XXbXXX", NULL, FATTRS_TMPL_OK, "XXbXXX", 3, 3 },
		{ "a.XXXb", ".txt", FATTRS_TMPL_SUFFIX_NEEDS_X, NULL, 0, 0 },
		{ "", "", FATTRS_TMPL_SUFFIX_NEEDS_X, NULL, 0, 0 },
		{ "aXXX/b", NULL, FATTRS_TMPL_SUFFIX_SLASH, NULL, 0, 0 },
		{ "aXXX", "/b", FATTRS_TMPL_SUFFIX_SLASH, NULL, 0, 0 },
		{ "aXX", NULL, FATTRS_TMPL_FEW_X, NULL, 0, 0 },
		{ "XXXbX", "s", FATTRS_TMPL_FEW_X, NULL, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fattrs_tmpl t = { .path = NULL };
		char *path = NULL;
		enum fattrs_tmpl_err err = fattrs_tmpl_parse(cases[i].template, cases[i].suffix,
							     &path, &t);

		tap_ok(err == cases[i].err && (err != FATTRS_TMPL_OK ||
		       (path != NULL && strcmp(path, cases[i].path) == 0 && t.path == path &&
			t.x_off == cases[i].x_off && t.x_len == cases[i].x_len)) &&
		       (err == FATTRS_TMPL_OK || path == NULL),
		       "template '%s' suffix '%s' gives %d ('%s' %zu+%zu)", cases[i].template,
		       cases[i].suffix != NULL ? cases[i].suffix : "(none)", (int)err,
		       path != NULL ? path : "", t.x_off, t.x_len);
		free(path);
	}
}

static void test_random__tmpl_join_moves_the_run(void)
{
	struct fattrs_tmpl t;
	char *path = NULL;
	int r = -1;

	if (fattrs_tmpl_parse("d.XXX.s", NULL, &path, &t) == FATTRS_TMPL_OK)
		r = fattrs_tmpl_join("/var/tmp//", &path, &t);
	tap_ok(r == 0 && strcmp(path, "/var/tmp/d.XXX.s") == 0 && t.path == path &&
	       t.x_off == 11 && t.x_len == 3,
	       "a template joined to '/var/tmp//' is '%s' with its X's at %zu", path, t.x_off);
	free(path);
}

int main(void)
{
	tap_plan(30);
	tap_run(test_random__only_letters_and_digits());
	tap_run(test_random__fills_exactly_len());
	tap_run(test_random__zero_len_touches_nothing());
	tap_run(test_random__two_fills_differ());
	tap_run(test_random__all_62_characters_appear());
	tap_run(test_random__fork_children_draw_their_own_names());
	tap_run(test_random__threads_draw_distinct_names());
	tap_run(test_random__tmpl_parse_follows_mktemp());
	tap_run(test_random__tmpl_join_moves_the_run());
	return tap_done();
}
