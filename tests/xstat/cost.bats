#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What xstat asks of the kernel, from a full strace trace: one statx(2)
# per file asking for exactly the fields the format prints, nothing else
# (no /etc/passwd, no mount table, no libmount, no xattr) unless the
# format needs it, and user and group names looked up once per id.
# bats file_tags=xstat,strace

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	load '../helpers/fault'
	fault_require
	cd "$BATS_TEST_TMPDIR" || return
	touch a b c d e
	TRACE=$BATS_TEST_TMPDIR/trace
}

# trace_xstat ARG...: run xstat under strace -f into $TRACE (every call).
trace_xstat() {
	FAULT_NOTRACE= trace_run "$TRACE" xstat "$@" >/dev/null 2>&1
}

count() {
	grep -Ec -- "$1" "$TRACE" || :
}

@test "-c %s: one statx per file asking for STATX_SIZE only, and nothing else" {
	# AddressSanitizer's runtime itself reads /proc/self/exe (readlink) at start-up
	require_no_sanitizer "$(command -v xstat)" "the AddressSanitizer runtime makes system calls of its own"
	run -0 trace_xstat -c %s a b c d e
	assert_equal "$(count '^[0-9]+ +statx\(')" 5
	assert_equal "$(count '^[0-9]+ +statx\(AT_FDCWD, "[a-e]", AT_STATX_SYNC_AS_STAT\|AT_SYMLINK_NOFOLLOW, STATX_SIZE, ')" 5
	refute_trace "$TRACE" '/etc/passwd|/etc/group|nsswitch|mountinfo|libmount|xattr\(|readlink|chdir\(|getcwd|statfs\('
}

@test "-c %n: still one statx per file (errors must show), with an empty mask" {
	run -0 trace_xstat -c %n a b c
	assert_equal "$(count '^[0-9]+ +statx\(AT_FDCWD, "[a-c]", [^,]*, 0, ')" 3
	refute_trace "$TRACE" '/etc/passwd|/etc/group|mountinfo|libmount|xattr\('
}

@test "the mask is the union of the directives' fields" {
	run -0 trace_xstat -c '%i %h %.3Y %x %w %U' a
	assert_trace "$TRACE" 'statx\(AT_FDCWD, "a", [^,]*, STATX_NLINK\|STATX_UID\|STATX_ATIME\|STATX_MTIME\|STATX_INO\|STATX_BTIME, '
}

@test "%U and %G: /etc/passwd and /etc/group read once for five files of one owner" {
	run -0 trace_xstat -c '%U %G' a b c d e
	assert_equal "$(count 'open(at)?\(.*"/etc/passwd"')" 1
	assert_equal "$(count 'open(at)?\(.*"/etc/group"')" 1
}

@test "the default output reads /etc/passwd once for many files, and no mount table" {
	run -0 trace_xstat a b c d e
	assert_equal "$(count '^[0-9]+ +statx\(')" 5
	assert_equal "$(count 'open(at)?\(.*"/etc/passwd"')" 1
	refute_trace "$TRACE" 'mountinfo|libmount|xattr\('
}

@test "--cached=always and never: AT_STATX_DONT_SYNC and AT_STATX_FORCE_SYNC" {
	run -0 trace_xstat --cached=always -c %s a
	assert_trace "$TRACE" 'statx\(AT_FDCWD, "a", AT_STATX_DONT_SYNC\|AT_SYMLINK_NOFOLLOW, '
	run -0 trace_xstat --cached=never -c %s a
	assert_trace "$TRACE" 'statx\(AT_FDCWD, "a", AT_STATX_FORCE_SYNC\|AT_SYMLINK_NOFOLLOW, '
	run -0 trace_xstat --cached=default -L -c %s a
	assert_trace "$TRACE" 'statx\(AT_FDCWD, "a", AT_STATX_SYNC_AS_STAT, STATX_SIZE, '
}

@test "'-' is standard input: statx on descriptor 0 with AT_EMPTY_PATH" {
	FAULT_NOTRACE= trace_run "$TRACE" xstat -c %s - <a >/dev/null
	assert_trace "$TRACE" 'statx\(0, "", AT_STATX_SYNC_AS_STAT\|AT_EMPTY_PATH, STATX_SIZE, '
}

@test "--files0-from: the same calls as the names on the command line" {
	printf '%s\0' a b c >list
	run -0 trace_xstat -c '%n %s' --files0-from=list
	assert_equal "$(count '^[0-9]+ +statx\(AT_FDCWD, "[a-c]", [^,]*, STATX_SIZE, ')" 3
	run -0 xstat -c '%n %s' --files0-from=list
	assert_output $'a 0\nb 0\nc 0'
}
