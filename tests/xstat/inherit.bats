#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# xstat under a hostile caller, with GNU stat 9.1 as the reference: stdout
# on /dev/full, closed, or a pipe nobody reads with SIGPIPE ignored;
# descriptors 0, 1 and 2 closed; names that are empty, too long or not
# UTF-8; another user's symlink in a sticky world-writable directory
# (fs.protected_symlinks), followed by -L only as the kernel allows.
# bats file_tags=xstat,inherit

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	load '../helpers/callers'
	load '../helpers/sysctl'
	cd "$BATS_TEST_TMPDIR" || return
	touch f
	# The modes: a format, JSON, the default view, and the two that print no file.
	MODES=('-c %n' '--json' '' '--help' '--version')
}

teardown() {
	sysctl_restore
}

@test "stdout on /dev/full: 'write error: No space left on device', exit 1, in every mode, as GNU stat" {
	require_dev_full
	run -1 --separate-stderr to_full stat f
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	assert_equal "$stderr" "stat: write error: No space left on device"
	local m
	for m in "${MODES[@]}"; do
		# shellcheck disable=SC2086  # $m is words
		run -1 --separate-stderr to_full xstat $m f
		assert_equal "[$m] $stderr" "[$m] xstat: write error: No space left on device"
	done
}

@test "SIGPIPE ignored: a pipe nobody reads is 'write error: Broken pipe', exit 1, as GNU stat; not ignored, it kills" {
	run -1 --separate-stderr nowhere_to_read env --ignore-signal=PIPE stat f
	assert_equal "$stderr" "stat: write error: Broken pipe"
	local m
	for m in "${MODES[@]}"; do
		# shellcheck disable=SC2086  # $m is words
		run -1 --separate-stderr nowhere_to_read env --ignore-signal=PIPE xstat $m f
		assert_equal "[$m] $stderr" "[$m] xstat: write error: Broken pipe"
		# shellcheck disable=SC2086
		run -141 nowhere_to_read xstat $m f
	done
}

@test "every combination of 0, 1 and 2 closed behaves as GNU stat (-c, --printf, -, a missing file)" {
	local fds args
	for args in '-c %n|%s f' '--printf=%n\n f' '-c %F -' '-c %n nonexistent'; do
		for fds in 0 1 2 01 02 12 012; do
			# shellcheck disable=SC2086  # $args is words
			run -0 closed_report "$fds" stat $args
			local want=$output
			# shellcheck disable=SC2086
			run -0 closed_report "$fds" xstat $args
			assert_equal "[$fds $args] $output" "[$fds $args] $want"
		done
	done
}

@test "a closed 0, 1 or 2 named by its link (/dev/stdin, /dev/fd/N, /proc/self/fd/N) is missing, as GNU stat finds it" {
	local fds args
	for fds in 0 1 2 012; do
		for args in '-L -c %F /dev/stdin' '-L -c %F /dev/stdout' '-L -c %F /dev/stderr' \
			'-c %F /dev/fd/0' '-c %F /dev/fd/1' '-c %F /dev/fd/2' '-L -c %F /proc/self/fd/0' \
			'-c %F /dev/stdin' '-c %n /dev/null'; do
			# shellcheck disable=SC2086  # $args is words
			run -0 closed_report "$fds" stat $args
			local want=$output
			# shellcheck disable=SC2086
			run -0 closed_report "$fds" xstat $args
			assert_equal "[$fds $args] $output" "[$fds $args] $want"
		done
	done
}

@test "--files0-from reads no list from a closed standard input, by '-' or by its link" {
	local from
	for from in - /dev/stdin /dev/fd/0 /proc/self/fd/0; do
		run -0 closed_report 0 xstat -c %F --files0-from="$from"
		assert_output --regexp "^rc=1 err=\\[cannot (read file names from|open) '$from'( for reading)?: (Bad file descriptor|No such file or directory)\\] out=\\[\\]\$"
	done
}

@test "a '-' in a --files0-from list with standard input closed is a closed descriptor, as '-' on the command line" {
	printf 'f\0-\0f\0' >list
	touch f
	run -0 closed_report 0 stat -c %n - f
	assert_output "rc=1 err=[cannot stat standard input: Bad file descriptor] out=[f]"
	run -0 closed_report 0 xstat -c %n --files0-from=list
	assert_output "rc=1 err=[cannot stat standard input: Bad file descriptor] out=[f"$'\n'"f]"
	run -0 closed_report 0 xstat --files0-from=list
	assert_output --regexp '^rc=1 err=\[cannot stat standard input: Bad file descriptor\] out=\[ +File: f'
}

@test "empty, over-long and non-UTF-8 names: each named with its real cause, the others shown, exit 1, as GNU stat" {
	local long n=$'bad\377\nname'
	long=$(printf 'n%.0s' {1..300})
	run -1 --separate-stderr stat -c %n '' "$long" "$n" f
	local want_out=$output want_err=$stderr
	run -1 --separate-stderr xstat -c %n '' "$long" "$n" f
	assert_equal "$output" "$want_out"
	assert_equal "${stderr//xstat:/stat:}" "$want_err"
	touch "$n"
	run -0 --separate-stderr stat -c %N "$n"
	want_out=$output
	run -0 --separate-stderr xstat -c %N "$n"
	assert_equal "$output" "$want_out"
	run -0 --separate-stderr xstat --json "$n"
	require_cmd jq
	assert_equal "$(jq -c .name <<<"$output")" "[98,97,100,255,10,110,97,109,101]"
}

@test "fs.protected_symlinks on: -L refuses another user's link in a sticky directory as stat -L does; without -L the link is shown" {
	require_root "own a link as another user"
	set_sysctl fs.protected_symlinks 1
	mkdir st && chmod 1777 st
	ln -s "$PWD/f" st/x
	chown -h nobody: st/x
	local m
	for m in '-c %n' '--json' ''; do
		run -1 --separate-stderr stat -L st/x
		assert_equal "$stderr" "stat: cannot statx 'st/x': Permission denied"
		# shellcheck disable=SC2086  # $m is words
		run -1 --separate-stderr xstat -L $m st/x
		assert_equal "[$m] $stderr" "[$m] xstat: cannot statx 'st/x': Permission denied"
		# shellcheck disable=SC2086
		run -0 --separate-stderr xstat $m st/x
	done
	run -0 xstat -c %F st/x
	assert_output "symbolic link"
	set_sysctl fs.protected_symlinks 0
	run -0 xstat -L -c %F st/x
	assert_output "regular empty file"
}
