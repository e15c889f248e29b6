/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for src/lib/flags/flagops.c: setfattrs' operation words, and a
 * fuzz run of the parser with random words (no crash, every refusal one
 * of the documented answers with a well-formed position, the plan
 * untouched by a refused word).  FATTRS_FUZZ_ROUNDS sets how many words
 * (default 200000); FATTRS_FUZZ_SEED the seed (default: the time, printed).
 */
#include "config.h"

#include "fattrs.h"
#include "internal.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"

static size_t nk;
static const struct fattrs_kflag *kt;

static int krow_of(const char *name)
{
	for (size_t i = 0; i < nk; i++) {
		if (strcmp(kt[i].name, name) == 0)
			return (int)i;
	}
	return -1;
}

/* Parse @words (space-separated) into a fresh plan; the first refusal's code, or 0. */
static int parse_all(const char *words, struct fattrs_flagops *ops, struct fattrs_flagops_error *err)
{
	char *copy = strdup(words), *save = NULL;
	int r = 0;

	fattrs_flagops_init(ops);
	for (char *w = strtok_r(copy, " ", &save); r == 0 && w != NULL; w = strtok_r(NULL, " ", &save))
		r = fattrs_flagops_parse(ops, w, err);
	free(copy);
	return r;
}

static int kop(const struct fattrs_flagops *ops, const char *name)
{
	int i = krow_of(name);

	return i < 0 ? -1 : ops->kop[i];
}

static void test_words_and_letters(void)
{
	struct fattrs_flagops ops;
	struct fattrs_flagops_error e;

	is_int(parse_all("+immutable", &ops, &e), 0, "+immutable parses");
	is_int(kop(&ops, "immutable"), FATTRS_FLAGOP_SET, "... and sets immutable");
	is_int(kop(&ops, "append"), FATTRS_FLAGOP_LEAVE, "... and keeps append");
	is_int(parse_all("+iA", &ops, &e), 0, "+iA parses");
	tap_ok(kop(&ops, "immutable") == FATTRS_FLAGOP_SET && kop(&ops, "noatime") == FATTRS_FLAGOP_SET,
	       "+iA sets immutable and noatime");
	is_int(parse_all("+dax", &ops, &e), 0, "+dax parses");
	tap_ok(kop(&ops, "dax") == FATTRS_FLAGOP_SET && kop(&ops, "nodump") == FATTRS_FLAGOP_LEAVE &&
	       kop(&ops, "append") == FATTRS_FLAGOP_LEAVE, "+dax is the word, not d, a and x");
	is_int(parse_all("-s +S", &ops, &e), 0, "-s +S parse");
	tap_ok(kop(&ops, "secrm") == FATTRS_FLAGOP_CLEAR && kop(&ops, "sync") == FATTRS_FLAGOP_SET,
	       "case matters: s is secrm, S is sync");
	is_int(parse_all("+offline,d", &ops, &e), 0, "+offline,d parses");
	tap_ok(ops.fop[FATTRS_OFFLINE] == FATTRS_FLAGOP_SET && kop(&ops, "nodump") == FATTRS_FLAGOP_SET,
	       "a comma list mixes fattrs flags and letters");
	is_int(parse_all("-user.fattr.pinned", &ops, &e), 0, "the full xattr name is accepted");
	is_int(ops.fop[FATTRS_PINNED], FATTRS_FLAGOP_CLEAR, "... and clears pinned");
	is_int(parse_all("+d -d +A -A +A", &ops, &e), 0, "a list of words parses");
	tap_ok(kop(&ops, "nodump") == FATTRS_FLAGOP_CLEAR && kop(&ops, "noatime") == FATTRS_FLAGOP_SET,
	       "left to right: a later operation on a flag wins");
}

static void test_assign(void)
{
	struct fattrs_flagops ops;
	struct fattrs_flagops_error e;
	struct fattrs_kattr cur = { .have = FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS,
				    .xflags = FS_XFLAG_NODUMP | FS_XFLAG_APPEND,
				    .iflags = FS_NODUMP_FL | FS_APPEND_FL | FS_EXTENT_FL };
	struct fattrs_kchange hard, soft;

	is_int(parse_all("=A,offline -offline", &ops, &e), 0, "=A,offline -offline parses");
	tap_ok(ops.assign, "'=' marks the plan");
	is_int(kop(&ops, "noatime"), FATTRS_FLAGOP_SET, "= sets what it lists");
	is_int(kop(&ops, "nodump"), FATTRS_FLAGOP_CLEAR_OTHERS, "= clears the rest where set");
	is_int(kop(&ops, "extents"), FATTRS_FLAGOP_LEAVE, "= leaves read-only flags alone");
	is_int(ops.fop[FATTRS_OFFLINE], FATTRS_FLAGOP_CLEAR, "a later -offline wins over =offline");
	is_int(ops.fop[FATTRS_NOSCRUB], FATTRS_FLAGOP_CLEAR_OTHERS, "= clears the unnamed fattrs flags");
	fattrs_flagops_kchange(&ops, &cur, &hard, &soft);
	is_int(hard.xset, FS_XFLAG_NOATIME, "the named change sets noatime");
	is_int(soft.xclear, FS_XFLAG_NODUMP | FS_XFLAG_APPEND, "= clears nodump and append, which are set");
	is_int(soft.iclear, 0, "= never clears extents");
	fattrs_flagops_kchange(&ops, NULL, &hard, &soft);
	is_int(soft.xclear | soft.iclear, 0, "flags that could not be read: = clears nothing more");
	is_int(parse_all("=", &ops, &e), 0, "'=' alone parses");
	tap_ok(ops.assign && kop(&ops, "immutable") == FATTRS_FLAGOP_CLEAR_OTHERS, "... and clears everything");
	fattrs_flagops_init(&ops);
	tap_ok(fattrs_flagops_empty(&ops), "an empty plan is empty");
	tap_ok(fattrs_flagops_parse(&ops, "=", NULL) == 0 && !fattrs_flagops_empty(&ops), "'=' is not empty");
}

static void test_refusals(void)
{
	struct fattrs_flagops ops, before;
	struct fattrs_flagops_error e;

	is_int(parse_all("+immutabel", &ops, &e), -ENOENT, "an unknown word is -ENOENT");
	tap_ok(e.offset == 1 && e.len == 9, "... at the word");
	is_str(e.suggest, "immutable", "... with the nearest word");
	is_int(parse_all("+offlien", &ops, &e), -ENOENT, "+offlien is unknown");
	is_str(e.suggest, "offline", "... offline is suggested");
	is_int(parse_all("+OFFLINE", &ops, &e), -ENOENT, "+OFFLINE is unknown (case matters)");
	is_str(e.suggest, "offline", "... offline is suggested");
	is_int(parse_all("-Immutabel", &ops, &e), -ENOENT, "-Immutabel is unknown");
	is_str(e.suggest, "immutable", "... immutable is suggested");
	is_int(parse_all("+v", &ops, &e), -ENOENT, "+v is unknown");
	is_str(e.suggest, NULL, "... and V (verity) is read-only: not suggested");
	is_int(parse_all("+X", &ops, &e), -ENOENT, "+X is unknown");
	is_str(e.suggest, "x", "... x is suggested");
	is_int(parse_all("+d,iq", &ops, &e), -ENOENT, "a run with an unknown letter is -ENOENT");
	tap_ok(e.offset == 4 && e.len == 1, "... at the letter");
	is_int(parse_all("+i\xc3\xa9", &ops, &e), -ENOENT, "a letter that is not ASCII is unknown");
	tap_ok(e.offset == 2 && e.len == 2, "... named whole, both bytes of its UTF-8");
	is_int(parse_all("+\xc3\xa9", &ops, &e), -ENOENT, "one such letter alone is unknown");
	tap_ok(e.offset == 1 && e.len == 2 && e.suggest == NULL, "... named whole, nothing suggested");
	is_int(parse_all("+i\xc3", &ops, &e), -ENOENT, "a byte that starts no character is unknown");
	tap_ok(e.offset == 2 && e.len == 1, "... named alone");
	is_int(parse_all("+k", &ops, &e), -ENOENT, "+k is unknown");
	is_str(e.suggest, NULL, "... nothing is near it");
	is_int(parse_all("+z", &ops, &e), -ENOENT, "+z is unknown");
	is_int(parse_all("+xyzzyplugh", &ops, &e), -ENOENT, "a long unknown word");
	is_str(e.suggest, NULL, "... is no typo of anything");
	is_int(parse_all("+extents", &ops, &e), -EPERM, "a read-only word is -EPERM");
	tap_ok(e.offset == 1 && e.len == 7, "... at the word");
	is_int(parse_all("+dE", &ops, &e), -EPERM, "a read-only letter in a run is -EPERM");
	tap_ok(e.offset == 2 && e.len == 1, "... at the letter");
	is_int(parse_all("+", &ops, &e), -EINVAL, "'+' alone is -EINVAL");
	is_int(parse_all("-d,", &ops, &e), -EINVAL, "a trailing comma is -EINVAL");
	is_int(parse_all("+d,,A", &ops, &e), -EINVAL, "an empty flag is -EINVAL");
	is_int(parse_all("d", &ops, &e), -EINVAL, "no operator is -EINVAL");
	fattrs_flagops_init(&ops);
	(void)fattrs_flagops_parse(&ops, "+d", NULL);
	before = ops;
	is_int(fattrs_flagops_parse(&ops, "=A,bogus", &e), -ENOENT, "=A,bogus is refused");
	tap_ok(memcmp(&before, &ops, sizeof(ops)) == 0, "... and leaves the plan as it was");
}

static void test_sizes(void)
{
	struct fattrs_flagops ops, before;
	struct fattrs_flagops_error e;
	struct fattrs_kchange hard, soft;
	int ext = krow_of("extsize"), inh = krow_of("extszinherit"), cow = krow_of("cowextsize");

	is_int(parse_all("+extsize=1m", &ops, &e), 0, "+extsize=1m parses");
	tap_ok(kop(&ops, "extsize") == FATTRS_FLAGOP_SET && ops.ksize[ext] == 1048576, "... sets extsize with 1 MiB");
	fattrs_flagops_kchange(&ops, NULL, &hard, &soft);
	tap_ok(hard.xset == FS_XFLAG_EXTSIZE && hard.extsize == 1048576 && hard.cowextsize == 0,
	       "... and the change carries the size");
	is_int(parse_all("+nodump,cowextsize=64k,extszinherit=4096", &ops, &e), 0, "sizes in a comma list parse");
	tap_ok(ops.ksize[cow] == 65536 && ops.ksize[inh] == 4096 && kop(&ops, "nodump") == FATTRS_FLAGOP_SET,
	       "... each flag has its size");
	fattrs_flagops_kchange(&ops, NULL, &hard, &soft);
	tap_ok(hard.xset == (FS_XFLAG_NODUMP | FS_XFLAG_COWEXTSIZE | FS_XFLAG_EXTSZINHERIT) &&
	       hard.extsize == 4096 && hard.cowextsize == 65536, "... extszinherit's is the extent size hint");
	is_int(parse_all("=extsize=2G", &ops, &e), 0, "=extsize=2G parses");
	tap_ok(ops.assign && ops.ksize[ext] == 2147483648u && kop(&ops, "nodump") == FATTRS_FLAGOP_CLEAR_OTHERS,
	       "... '=' with a size");
	is_int(parse_all("+extsize=4294967295 +cowextsize=3k", &ops, &e), 0, "the largest size and K parse");
	tap_ok(ops.ksize[ext] == 4294967295u && ops.ksize[cow] == 3072, "... as 4294967295 and 3072");
	is_int(parse_all("+extsize=1m +extsize", &ops, &e), 0, "+extsize=1m +extsize parses");
	is_int(ops.ksize[ext], 0, "... the later one wins: no size");
	is_int(parse_all("+extsize=1m -extsize", &ops, &e), 0, "+extsize=1m -extsize parses");
	tap_ok(kop(&ops, "extsize") == FATTRS_FLAGOP_CLEAR && ops.ksize[ext] == 0, "... clears, without a size");
	is_int(parse_all("+extsize=1m =nodump", &ops, &e), 0, "+extsize=1m =nodump parses");
	tap_ok(kop(&ops, "extsize") == FATTRS_FLAGOP_CLEAR_OTHERS && ops.ksize[ext] == 0, "... '=' forgets the size");

	is_int(parse_all("+nodump=4k", &ops, &e), -EDOM, "a size on a flag that takes none is -EDOM");
	tap_ok(e.offset == 1 && e.len == 6, "... at the flag");
	is_int(parse_all("+extsize=1m,d=4k", &ops, &e), -EDOM, "a size on a letter is -EDOM");
	tap_ok(e.offset == 12 && e.len == 1, "... at the letter");
	is_int(parse_all("-offline=1", &ops, &e), -EDOM, "a size on a fattrs flag is -EDOM");
	is_int(parse_all("-extsize=4k", &ops, &e), -EDOM, "a size with '-' is -EDOM");
	tap_ok(e.offset == 1 && e.len == 7, "... at the flag");
	is_int(parse_all("+extents=4k", &ops, &e), -EPERM, "a read-only flag with a size is still -EPERM");
	is_int(parse_all("+extsiz=4k", &ops, &e), -ENOENT, "an unknown flag with a size is -ENOENT");
	tap_ok(e.offset == 1 && e.len == 6, "... at the flag, not its size");
	is_str(e.suggest, "extsize", "... extsize is suggested");
	is_int(parse_all("+iq=4k", &ops, &e), -ENOENT, "an unknown letter with a size is -ENOENT");
	is_int(parse_all("+=4k", &ops, &e), -ENOENT, "'=' with no flag before it is no flag (-ENOENT)");
	static const char *const bad[] = { "0", "", "0k", "4x", "k", "1t", "-1", " 1", "+1", "1 ", "1kk",
					   "4294967296", "4194304k", "4096m", "4g", "99999999999999999999999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char w[64];

		snprintf(w, sizeof(w), "=cowextsize=%s,d", bad[i]);
		fattrs_flagops_init(&ops);
		before = ops;
		is_int(fattrs_flagops_parse(&ops, w, &e), -ERANGE, "'%s': a bad size is -ERANGE", w);
		tap_ok(e.offset == 12 && e.len == strlen(bad[i]) && memcmp(&before, &ops, sizeof(ops)) == 0,
		       "... at the size, the plan as it was");
	}
}

static void test_table(void)
{
	struct fattrs_flagops ops;
	char w[64];
	size_t bad = 0, letters_only = 0;

	for (size_t i = 0; i < nk; i++) {
		bool all = true;

		snprintf(w, sizeof(w), "+%s", kt[i].name);
		fattrs_flagops_init(&ops);
		if (fattrs_flagops_parse(&ops, w, NULL) != (kt[i].readonly ? -EPERM : 0))
			bad++;
		else if (!kt[i].readonly && ops.kop[i] != FATTRS_FLAGOP_SET)
			bad++;
		if (kt[i].letter != '\0') {
			snprintf(w, sizeof(w), "-%c", kt[i].letter);
			fattrs_flagops_init(&ops);
			if (fattrs_flagops_parse(&ops, w, NULL) != (kt[i].readonly ? -EPERM : 0))
				bad++;
			else if (!kt[i].readonly && ops.kop[i] != FATTRS_FLAGOP_CLEAR)
				bad++;
		}
		for (const char *c = kt[i].name; *c != '\0'; c++) {
			bool is_letter = false;

			for (size_t j = 0; j < nk; j++)
				is_letter |= kt[j].letter == *c;
			all &= is_letter;
		}
		if (all)
			letters_only++;
	}
	is_int(bad, 0, "every kernel word and letter parses, read-only ones refused");
	/* Only "dax" reads as letters too (d, a, x): the word wins, as the man page says. */
	is_int(letters_only, 1, "exactly one word is also a run of letters (dax)");
	for (int f = 0; f < FATTRS_NFFLAGS; f++) {
		snprintf(w, sizeof(w), "=%s", fattrs_fflag_info((enum fattrs_fflag)f)->name);
		fattrs_flagops_init(&ops);
		if (fattrs_flagops_parse(&ops, w, NULL) != 0 || ops.fop[f] != FATTRS_FLAGOP_SET)
			bad++;
	}
	is_int(bad, 0, "every fattrs flag parses");
}

/* Whether @s is a flag word or letter: what a suggestion must be. */
static bool is_flag_name(const char *s)
{
	if (fattrs_fflag_find(s) >= 0)
		return true;
	return fattrs_kflag_find(s) != NULL;
}

static void test_fuzz(void)
{
	static const char alphabet[] = "+-=,aAbcCdDeEfFiIjmNPsStTuVxX.0 \t\xff"
				       "immutableappendnodumpofflinepinned"
				       "extsize=cowextsize=extszinherit=1m4k9g0123456789";
	const char *env_rounds = getenv("FATTRS_FUZZ_ROUNDS"), *env_seed = getenv("FATTRS_FUZZ_SEED");
	unsigned long rounds = env_rounds != NULL ? strtoul(env_rounds, NULL, 10) : 200000;
	unsigned seed = env_seed != NULL ? (unsigned)strtoul(env_seed, NULL, 10) : (unsigned)time(NULL);
	unsigned long bad = 0, accepted = 0;
	struct fattrs_flagops ops, before;
	char w[40];

	printf("# fuzz: %lu random words, FATTRS_FUZZ_SEED=%u\n", rounds, seed);
	srand(seed);
	fattrs_flagops_init(&ops);
	for (unsigned long n = 0; n < rounds; n++) {
		size_t len = (size_t)rand() % (sizeof(w) - 1);
		struct fattrs_flagops_error e = { .offset = (size_t)-1 };
		int r;

		for (size_t i = 0; i < len; i++) {
			/* Mostly the alphabet, sometimes any byte but NUL. */
			w[i] = rand() % 8 != 0 ? alphabet[(size_t)rand() % (sizeof(alphabet) - 1)]
					       : (char)(1 + rand() % 255);
		}
		w[len] = '\0';
		if (rand() % 2 && len > 0)
			w[0] = "+-="[rand() % 3];
		before = ops;
		r = fattrs_flagops_parse(&ops, w, &e);
		if (r == 0) {
			accepted++;
			continue;
		}
		if (r != -EINVAL && r != -ENOENT && r != -EPERM && r != -EDOM && r != -ERANGE) {
			bad++;
			printf("# '%s': unexpected %d\n", w, r);
		} else if (r != -EINVAL && ((e.len == 0 && r != -ERANGE) || e.offset + e.len > len || e.offset == 0)) {
			bad++;
			printf("# '%s': refusal at %zu+%zu\n", w, e.offset, e.len);
		} else if (r != -EINVAL && e.suggest != NULL && !is_flag_name(e.suggest)) {
			bad++;
			printf("# '%s': suggests '%s', no flag\n", w, e.suggest);
		}
		if (memcmp(&before, &ops, sizeof(ops)) != 0) {
			bad++;
			printf("# '%s': a refused word changed the plan\n", w);
		}
		if (bad > 10)
			break;
	}
	is_int(bad, 0, "fuzz: every random word is accepted or refused cleanly (%lu accepted)", accepted);
}

int main(void)
{
	kt = fattrs_kflags_table(&nk);
	tap_plan(131);
	tap_run(test_words_and_letters());
	tap_run(test_assign());
	tap_run(test_refusals());
	tap_run(test_sizes());
	tap_run(test_table());
	tap_run(test_fuzz());
	return tap_done();
}
