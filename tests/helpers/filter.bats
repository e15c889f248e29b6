#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# make check TEST_FILTER=REGEX: one way to run some tests by name, for the
# C unit tests (tests/unit/tap.h's tap_run()) and for bats files alike.
# bats file_tags=helpers

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	unit=$FATTRS_BUILDDIR/tests/unit/path
	[[ -x $unit ]] || skip "tests/unit/path is not built (make check builds it)"
}

@test "a C unit test runs only the tests its filter names, the plan last" {
	run -0 env FATTRS_TEST_FILTER='__join_adds_one_slash' "$unit"
	refute_output --partial 'readlink'
	assert_line --regexp '^ok 1 - join "a" \+ "x" gives "a/x"$'
	assert_equal "${lines[-1]}" "1..$(grep -c '^ok' <<<"$output")"
	[[ ${lines[0]} != 1..* ]]
	run -0 env FATTRS_TEST_FILTER= "$unit"
	assert_equal "${lines[0]}" "1..$(grep -c '^ok' <<<"$output")"
}

@test "a C unit test whose filter matches nothing is a skip; a bad filter a bail-out" {
	run -0 env FATTRS_TEST_FILTER='no such test' "$unit"
	assert_output '1..0 # SKIP no test matches FATTRS_TEST_FILTER'
	run -1 env FATTRS_TEST_FILTER='(' "$unit"
	assert_output --partial 'Bail out! FATTRS_TEST_FILTER: not an extended regular expression: ('
}

@test "make check TEST_FILTER= picks tests of a bats file, and hands a C test the filter" {
	[[ -f $FATTRS_BUILDDIR/Makefile ]] || skip "no build tree Makefile"
	# Files in the test's own directory: their logs go there, not beside
	# the suite's own.  The make of a make check that runs this file passes
	# its own TESTS down in MAKEFLAGS: without them, this is a make of its own.
	local t=$BATS_TEST_TMPDIR
	printf '%s\n' '@test "one picked" { :; }' '@test "one left out" { false; }' >"$t/two.bats"
	cd "$FATTRS_BUILDDIR"
	run -0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s check TESTS="$t/two.bats" TEST_FILTER='pick' TEST_SUITE_LOG="$t/suite.log"
	assert_line --regexp '^PASS: .*/two.bats 1 one picked$'
	refute_output --partial 'left out'
	assert_line '# TOTAL: 1'
	# What a C unit test is run with: the same environment, and no bats
	# arguments (a compiler that shows both, instead of bats).
	printf '%s\n' '#!/bin/sh' 'printf "1..1\nok 1 - env [%s] args [%s]\n" "$FATTRS_TEST_FILTER" "$*"' >"$t/show"
	chmod +x "$t/show"
	run -0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s check TESTS="$t/two.bats" TEST_FILTER='a|b c' BATS_LOG_COMPILER="$t/show" TEST_SUITE_LOG="$t/suite.log"
	assert_line --regexp '^PASS: .*/two.bats 1 - env \[a\|b c\] args \[--tap --filter a\|b c .*/two.bats\]$'
}
