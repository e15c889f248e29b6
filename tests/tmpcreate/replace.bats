#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tmpcreate -o FILE where publishing can go wrong: symlinks followed as the
# kernel follows them for `>`, nothing left behind on any failure path,
# data flushed before any name is given, and what a replaced FILE keeps.
# bats file_tags=tmpcreate,output

# The fs_run scripts are single-quoted on purpose: they expand inside.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

setup_file() {
	load '../helpers/common'
	load '../helpers/fs'
	fs_setup_file
}

setup() {
	load '../helpers/common'
	load '../helpers/fs'
	load '../helpers/fault'
	W=$BATS_TEST_TMPDIR/w
	mkdir "$W"
	cd "$W" || return 1
	umask 022
	SAVED_SYSCTL=()
}

# Sysctls are global (unshare -m does not isolate them): every one a test
# changes is put back, whatever happened.
teardown() {
	local kv
	for kv in "${SAVED_SYSCTL[@]}"; do
		sysctl -q -w "$kv" >/dev/null 2>&1 || :
	done
}

# NAME VALUE: set the sysctl for this test only (root).
set_sysctl() {
	local old
	old=$(sysctl -n "$1") || skip "cannot read $1"
	SAVED_SYSCTL+=("$1=$old")
	sysctl -q -w "$1=$2" >/dev/null || skip "cannot set $1"
}

# `ls -A` of the current directory on one line.
names() {
	local n
	n=$(ls -A "$@")
	printf '%s\n' "${n//$'\n'/ }"
}

# ------------------------------------------------------------ symlinks

@test "fs.protected_symlinks on: -o refuses another user's link in a sticky world-writable directory, as > does" {
	require_root "own a link as another user"
	set_sysctl fs.protected_symlinks 1
	mkdir st && chmod 1777 st
	echo secret >target
	ln -s ../target st/x
	chown -h nobody: st/x
	# What the shell says.
	run -1 bash -c 'echo new >st/x'
	assert_output --partial "Permission denied"
	run -125 --separate-stderr tmpcreate -o st/x -- echo new
	assert_equal "$stderr" "tmpcreate: cannot write 'st/x': Permission denied"
	run -1 --separate-stderr tmpcreate -o st/x <<<new
	assert_equal "$stderr" "tmpcreate: cannot write 'st/x': Permission denied"
	assert_equal "$(cat target)" secret
	[[ -L st/x ]] || fail "st/x is no longer a link"
	assert_equal "$(names st)" x
	# A dangling one is refused too (> would not create its target).
	ln -s ../created st/d
	chown -h nobody: st/d
	run -1 --separate-stderr tmpcreate -o st/d <<<new
	assert_equal "$stderr" "tmpcreate: cannot write 'st/d': Permission denied"
	[[ ! -e created ]] || fail "the dangling link's target was created"
	# Its owner's own link, or the directory owner's, is followed.
	chown nobody: st
	run -0 --separate-stderr tmpcreate -o st/x <<<new
	assert_equal "$(cat target)" new
}

@test "fs.protected_symlinks off: the same link is followed, as > follows it" {
	require_root "own a link as another user"
	set_sysctl fs.protected_symlinks 0
	mkdir st && chmod 1777 st
	echo old >target
	ln -s ../target st/x
	chown -h nobody: st/x
	run -0 --separate-stderr tmpcreate -o st/x <<<new
	assert_equal "$stderr" ""
	assert_equal "$(cat target)" new
	[[ -L st/x ]] || fail "st/x is no longer a link"
}

@test "a link whose size reads as 0 (/proc) is followed to its target, not replaced itself" {
	# /proc/self/cwd: lstat says size 0, readlink gives the whole path.
	[[ $(stat -c %s /proc/self/cwd) == 0 ]] || skip "/proc links have a size here"
	mkdir d
	ln -s /proc/self/cwd d/l
	run -1 --separate-stderr tmpcreate -o d/l <<<new
	assert_equal "$stderr" "tmpcreate: cannot write 'd/l': Is a directory"
	[[ -L d/l ]] || fail "d/l is no longer a link"
}
