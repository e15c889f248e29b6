/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/random.c: random letters and digits for temporary names. */
#include "config.h"

#include "fattrs.h"

#include <stdbool.h>
#include <string.h>

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

int main(void)
{
	tap_plan(12);
	test_random__only_letters_and_digits();
	test_random__fills_exactly_len();
	test_random__zero_len_touches_nothing();
	test_random__two_fills_differ();
	test_random__all_62_characters_appear();
	return tap_done();
}
