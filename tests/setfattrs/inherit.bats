#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# setfattrs under a hostile caller: stdout on /dev/full, closed or a pipe
# nobody reads (SIGPIPE ignored), descriptors 0, 1 and 2 closed, names that
# are not UTF-8, and another user's symlink in a sticky world-writable
# directory (fs.protected_symlinks).  GNU chmod 9.1 is the reference for
# what a tool that changes files and reports with -v does.
# bats file_tags=setfattrs,inherit

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/setfattrs.bash
load '../helpers/setfattrs'

setfattrs_setup_more() {
	load '../helpers/callers'
	load '../helpers/sysctl'
}

teardown() {
	sysctl_restore
}

# ---------------------------------------------------------------- output

@test "stdout on /dev/full: -v, -n, --list and --help fail with 'write error', exit 1, as chmod -v; the change is made" {
	require_dev_full
	touch f g
	run -1 --separate-stderr to_full chmod -v +x g
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	assert_equal "$stderr" "chmod: write error: No space left on device"
	run -1 --separate-stderr to_full setfattrs -v +offline f
	assert_equal "$stderr" "setfattrs: write error: No space left on device"
	assert_equal "$(getfattr --only-values -n user.fattr.offline f)" 1
	local args
	for args in '-n -- -offline f' '-n --json -- -offline f' '--list' '--list --json' '--help' '--version'; do
		# shellcheck disable=SC2086  # $args is words
		run -1 --separate-stderr to_full setfattrs $args
		assert_equal "[$args] $stderr" "[$args] setfattrs: write error: No space left on device"
	done
	# -n changed nothing.
	assert_equal "$(getfattr --only-values -n user.fattr.offline f)" 1
}

@test "SIGPIPE ignored: -v into a pipe nobody reads is 'write error: Broken pipe', exit 1, as chmod -v" {
	touch f g
	run -1 --separate-stderr nowhere_to_read env --ignore-signal=PIPE chmod -v +x g
	assert_equal "$stderr" "chmod: write error: Broken pipe"
	run -1 --separate-stderr nowhere_to_read env --ignore-signal=PIPE setfattrs -v +nodump,offline f
	assert_equal "$stderr" "setfattrs: write error: Broken pipe"
	# Not ignored: SIGPIPE kills, as it kills chmod.
	run -141 nowhere_to_read chmod -v -x g
	run -141 nowhere_to_read setfattrs -v -- -nodump f
}

@test "closed 0, 1 and 2: a closed stdout that -v must write is a write error (exit 1, as chmod -v); else exit 0, and the change is made" {
	touch f g
	local fds
	for fds in 0 1 2 01 02 12 012; do
		# What -v says differs from chmod: compare the status and messages.
		run -0 closed_report "$fds" chmod -v +x g
		local want=${output%% out=\[*}
		run -0 closed_report "$fds" setfattrs -v +offline f
		assert_equal "[$fds] ${output%% out=\[*}" "[$fds] $want"
		assert_equal "[$fds] $(getfattr --only-values -n user.fattr.offline f)" "[$fds] 1"
		chmod -x g
		setfattrs -- -offline f
	done
	# Nothing to say: a closed stdout is no failure.
	run -0 closed_report 012 setfattrs +nodump f
	[[ $(lsattr -d f) == ------d* ]] || fail "nodump not set: $(lsattr -d f)"
}

# ---------------------------------------------------------------- names

@test "a name that is not UTF-8 is quoted and the message gives the real cause (the quoting keeps errno)" {
	local n=$'bad\377name'
	# Regression: the message said 'Invalid or incomplete multibyte or
	# wide character' (mbrtowc's EILSEQ while quoting) for a missing file.
	local loc want
	for loc in C C.UTF-8; do
		# as ls quotes it, in either locale
		want="'bad'\$'\\377''name'"
		run -1 --separate-stderr env LC_ALL="$loc" setfattrs +nodump "$n"
		assert_equal "[$loc] $stderr" "[$loc] setfattrs: cannot stat $want: No such file or directory"
		run -1 --separate-stderr env LC_ALL="$loc" setfattrs --reference="$n" f
		assert_equal "[$loc] $stderr" "[$loc] setfattrs: cannot stat $want: No such file or directory"
	done
	# An existing one changes, and -v names it quoted.
	touch "$n"
	run -0 --separate-stderr setfattrs -v +offline "$n"
	assert_output "changed 'bad\\377name': offline: clear -> set"
}

@test "empty and over-long operands: each named with its cause, the other files still changed, exit 1" {
	touch f
	local long
	long=$(printf 'd%.0s' {1..300})
	run -1 --separate-stderr setfattrs +offline '' "$long" f
	stderr_has "setfattrs: cannot stat '': No such file or directory"
	stderr_has "setfattrs: cannot stat '$long': File name too long"
	assert_equal "$(getfattr --only-values -n user.fattr.offline f)" 1
}

# ---------------------------------------------------------------- symlinks

@test "fs.protected_symlinks on: another user's link in a sticky directory is refused as chattr's open is; -R never follows it" {
	require_root "own a link as another user"
	set_sysctl fs.protected_symlinks 1
	mkdir st && chmod 1777 st
	touch target
	ln -s "$PWD/target" st/x
	chown -h nobody: st/x
	run -1 --separate-stderr chattr +d st/x
	run -1 --separate-stderr setfattrs +nodump st/x
	stderr_has "setfattrs: cannot stat 'st/x': Permission denied"
	run -1 --separate-stderr setfattrs +offline st/x
	run -1 --separate-stderr setfattrs --reference=st/x target
	run -0 --separate-stderr setfattrs -R +nodump st
	[[ $(lsattr -d target) != ------d* ]] || fail "the link was followed: $(lsattr -d target)"
	run -1 getfattr -n user.fattr.offline target
	# Off, the link is followed, as chattr follows it.
	set_sysctl fs.protected_symlinks 0
	run -0 setfattrs +nodump st/x
	[[ $(lsattr -d target) == ------d* ]] || fail "nodump not set: $(lsattr -d target)"
}
