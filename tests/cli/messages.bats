#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A message is one write(2) to stderr, whatever its length: programs that
# share a stderr (parallel runs appending to one log) never interleave the
# pieces of their messages.
# bats file_tags=cli

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	require_cmd strace
	cd "$BATS_TEST_TMPDIR" || return
	LONG=$(printf 'n%.0s' {1..250})/$(printf 'm%.0s' {1..250})/$(printf 'o%.0s' {1..250})/x
}

# writes_to_stderr CMD...: each write(2) to descriptor 2 that CMD makes, one line each.
writes_to_stderr() {
	strace -qq -f -e trace=write -e signal=none -o "$BATS_TEST_TMPDIR/trace" "$@" 2>/dev/null || :
	grep -E '^([0-9]+ +)?write\(2, ' "$BATS_TEST_TMPDIR/trace" || :
}

@test "each program writes each message in one write(2), short or longer than 1 KiB" {
	local name out
	require_no_sanitizer "$FATTRS_BUILDDIR/xstat" "the sanitizer runtime's own writes to stderr are counted"
	for name in missing "$LONG"; do
		out=$(writes_to_stderr xstat -c %n "$name" "$name")
		assert_equal "$(wc -l <<<"$out")" 2
		out=$(writes_to_stderr setfattrs +offline "$name" "$name")
		assert_equal "$(wc -l <<<"$out")" 2
		out=$(writes_to_stderr tmpcreate -o "$name/f" </dev/null)
		assert_equal "$(wc -l <<<"$out")" 1
	done
}

@test "two programs appending to one log: 200 messages, none interleaved" {
	local i
	for ((i = 0; i < 100; i++)); do
		xstat -c %n "missing-$i" 2>>log &
		setfattrs +offline "missing-$i" 2>>log &
	done
	wait
	run -1 grep -cvE "^(xstat: cannot statx|setfattrs: cannot stat) 'missing-[0-9]+': No such file or directory$" log
	assert_output 0
	assert_equal "$(wc -l <log)" 200
}
