#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# xstat's errors, in every output mode (a format,
# --json, the default output): a missing file, permission denied, a
# symlink loop, a name too long, a file that vanishes between the list
# and its statx, and one that vanishes between its statx and a lookup.
# Each message names the file; the other files are still shown, exactly
# as they are without the bad ones; the exit status is 1.
# bats file_tags=xstat

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	load '../helpers/fault'
	# Somewhere an unprivileged user can reach (the bats directories are private).
	W=$(mktemp -d /tmp/xstat-errors.XXXXXX)
	chmod 755 "$W"
	cd "$W" || return
	touch a b
	mkdir secret && touch secret/f && chmod 700 secret
	ln -s loop loop
	LONG=$(printf 'n%.0s' {1..300})
	MODES=('-c %n|%s|%{mnt_id}|%{immutable}' '--json' '')
}

teardown() {
	[[ -n ${W:-} ]] && rm -rf "$W"
}

# run_mode MODE ARG...: xstat in MODE (a word list) with ARG..., under run.
run_mode() {
	local mode=$1
	shift
	# shellcheck disable=SC2086  # MODE is a word list
	run --separate-stderr xstat $mode "$@"
}

@test "missing, a symlink loop, a name too long: each named, the rest shown as without them, exit 1 (every mode)" {
	local mode want
	for mode in "${MODES[@]}"; do
		run_mode "$mode" a b
		assert_equal "$status" 0
		want=$output
		run_mode "$mode" a missing loop/x "$LONG" b
		assert_equal "$status" 1
		assert_equal "$output" "$want"
		assert_equal "$stderr" "xstat: cannot statx 'missing': No such file or directory
xstat: cannot statx 'loop/x': Too many levels of symbolic links
xstat: cannot statx '$LONG': File name too long"
	done
	# -L follows the loop itself
	run -1 --separate-stderr xstat -L -c %n loop a
	assert_output a
	assert_equal "$stderr" "xstat: cannot statx 'loop': Too many levels of symbolic links"
}

@test "a message mid-line comes after what the line printed before it, as GNU stat's, on one pipe" {
	fault_require
	nosys_require
	# the path calls, into which strace injects (tests/helpers/fault.bash)
	run -1 fault_run "$W/trace" llistxattr ENOENT:when=2 -- bash -c 'set -o pipefail; "$NOSYS" xattrat xstat -c "%n %{offline} %s" a b 2>&1 | cat'
	assert_output "a clear 0
b xstat: cannot read the fattrs flags of 'b': No such file or directory
? 0"
}

@test "permission denied: named, the rest shown, exit 1 (every mode, as an unprivileged user)" {
	[[ $EUID -eq 0 ]] || skip "needs root to become another user"
	require_cmd setpriv
	local mode want xs
	xs=$(command -v xstat)
	for mode in "${MODES[@]}"; do
		# shellcheck disable=SC2086
		run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$xs" $mode a b
		assert_equal "$status" 0
		want=$output
		# shellcheck disable=SC2086
		run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$xs" $mode a secret/f b
		assert_equal "$status" 1
		assert_equal "$output" "$want"
		assert_equal "$stderr" "xstat: cannot statx 'secret/f': Permission denied"
	done
}

@test "a file removed between the list and its statx (--files0-from): named, the rest shown, exit 1" {
	local mode want
	touch c
	printf '%s\0' a c b >list
	rm c
	for mode in "${MODES[@]}"; do
		run_mode "$mode" a b
		want=$output
		run_mode "$mode" --files0-from=list
		assert_equal "$status" 1
		assert_equal "$output" "$want"
		assert_equal "$stderr" "xstat: cannot statx 'c': No such file or directory"
	done
}

@test "--files0-from: a newline is part of a name, NUL-ended or last, as in GNU du and wc" {
	local list
	for list in 'a\0\n\0b\0' 'a\0b\0\n'; do
		# shellcheck disable=SC2059  # the list is the format
		printf "$list" >list
		run -1 --separate-stderr xstat -c %n --files0-from=list
		assert_equal "[$list] $output" "[$list] $(printf 'a\nb')"
		assert_equal "[$list] $stderr" "[$list] xstat: cannot statx ''\$'\\n': No such file or directory"
		# the same name, as GNU's own --files0-from readers take it
		run -1 --separate-stderr wc -c --files0-from=list
		assert_equal "[$list] ${stderr#wc: }" "[$list] ''\$'\\n': No such file or directory"
	done
}

@test "a file that vanishes at its statx (injected): named, the rest shown, exit 1" {
	fault_require
	local mode want
	for mode in "${MODES[@]}"; do
		run_mode "$mode" a b
		want=$output
		# shellcheck disable=SC2086
		run --separate-stderr fault_run "$W/trace" statx ENOENT:when=2 -- xstat $mode a vanishing b
		assert_equal "$status" 1
		assert_equal "$output" "$want"
		assert_equal "$stderr" "xstat: cannot statx 'vanishing': No such file or directory"
	done
}

@test "a file that vanishes after its statx: the lookup names it, that field is '?' (null in JSON), exit 1" {
	fault_require
	nosys_require
	# the path calls, into which strace injects (tests/helpers/fault.bash)
	run -1 --separate-stderr fault_run "$W/trace" llistxattr ENOENT:when=1 -- "$NOSYS" xattrat xstat -c '%n %{offline} %{pinned} %s' a b
	assert_output $'a ? ? 0\nb clear clear 0'
	assert_equal "$stderr" "xstat: cannot read the fattrs flags of 'a': No such file or directory"
	run -1 --separate-stderr fault_run "$W/trace" llistxattr ENOENT:when=1 -- "$NOSYS" xattrat xstat --json a b
	assert_equal "$(jq -c '[.name, .offline, .pinned, .size]' <<<"$output")" $'["a",null,null,0]\n["b","clear","clear",0]'
	assert_equal "$stderr" "xstat: cannot read the fattrs flags of 'a': No such file or directory"
	# the unique mount id's own statx
	run -1 --separate-stderr fault_run "$W/trace" statx ENOENT:when=2 -- xstat -c '%n %{mnt_id_unique} %5{mnt_id_unique}|' a
	assert_output 'a ?     ?|'
	assert_equal "$stderr" "xstat: cannot statx 'a': No such file or directory"
}
