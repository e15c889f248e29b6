#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Concurrent writers (fattrs(7): concurrent writers lose nothing): two
# setfattrs processes started together on one file, round after round,
# each result read with getfattr; and the window held open with strace
# (a delay injected before one writer's write), so that each race is met
# every time.
# bats file_tags=setfattrs

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/setfattrs.bash
load '../helpers/setfattrs'

# race_rounds N OP1 OP2: N fresh files r1..rN in the current directory,
# "setfattrs OP1 rI & setfattrs OP2 rI" on each in turn (the two started
# together), then "both K": the number of files that end with both of
# OP1's and OP2's fattrs flags set (getfattr); "failed K": the number of
# setfattrs runs that exited non-zero; and their messages, each once, with
# rN for the file.
race_rounds() {
	local n=$1 op1=$2 op2=$3 i p1 p2 failed=0 x1=user.fattr.${2#+} x2=user.fattr.${3#+}
	for ((i = 1; i <= n; i++)); do
		: >"r$i"
	done
	: >errors
	for ((i = 1; i <= n; i++)); do
		setfattrs "$op1" "r$i" 2>>errors &
		p1=$!
		setfattrs "$op2" "r$i" 2>>errors &
		p2=$!
		wait "$p1" || failed=$((failed + 1))
		wait "$p2" || failed=$((failed + 1))
	done
	getfattr --absolute-names -d -m '^user\.fattr\.' r* 2>/dev/null |
		awk -v a="$x1" -v b="$x2" '/^# file: / { f = $3 } index($0, a "=") == 1 { A[f] = 1 }
			index($0, b "=") == 1 { B[f] = 1 } END { n = 0; for (f in A) if (f in B) n++; print "both", n }'
	echo "failed $failed"
	sed 's/r[0-9][0-9]*/rN/' errors | sort -u
}

# The output of race_rounds for OP1 and OP2 (flags A and B, opposites):
# none ends with both, and each failure says one of the two things.
assert_race_clean() {
	local a=$1 b=$2 l x y
	assert_line 'both 0'
	assert_line --regexp '^failed [0-9]+$'
	for l in "${lines[@]}"; do
		for x in "$a" "$b"; do
			[[ $x == "$a" ]] && y=$b || y=$a
			case $l in
			"both 0" | "failed "*) continue 2 ;;
			"setfattrs: cannot set '$x' on 'rN': its opposite '$y' is set; '-$y +$x' clears it first") continue 2 ;;
			"setfattrs: cannot set '$x' on 'rN': another process set its opposite '$y' at the same time, so '$x' was taken back") continue 2 ;;
			esac
		done
		fail "unexpected line: $l"
	done
}

@test "tmpfs: +offline and +pinned on one file at once, 1000 rounds: never both set; a writer that lost says so" {
	require_cmd getfattr
	fs_require tmpfs
	FS_FUNCS=race_rounds run -0 --separate-stderr fs_run tmpfs 'cd "$D" && race_rounds 1000 +offline +pinned'
	assert_race_clean offline pinned
}

@test "tmpfs: +integrity and +noscrub on one file at once, 1000 rounds: never both set" {
	require_cmd getfattr
	fs_require tmpfs
	FS_FUNCS=race_rounds run -0 --separate-stderr fs_run tmpfs 'cd "$D" && race_rounds 1000 +integrity +noscrub'
	assert_race_clean integrity noscrub
}

# held_open TYPE OP1 OP2: "setfattrs OP1 f" with its first write of an
# attribute delayed 0.5 s (strace, into the path calls: under $NOSYS), and
# "setfattrs OP2 f" run whole in that time; each one's exit status, then
# f's attributes (getfattr).
held_open() {
	fs_require "$1"
	fault_require
	nosys_require
	require_cmd getfattr
	run --separate-stderr fs_run "$1" '
		cd "$D" && : >f || exit 1
		ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o /dev/null \
			-e inject=setxattr,lsetxattr,fsetxattr:delay_enter=500000:when=1 \
			"$NOSYS" xattrat setfattrs '"$2"' f &
		sleep 0.2
		setfattrs '"$3"' f; echo "second rc=$?"
		wait $!; echo "first rc=$?"
		getfattr --absolute-names -d -m "^user\.fattr\." f | grep =
		getfattr --absolute-names -n system.ntfs_attrib -e hex f 2>/dev/null | grep = || :'
}

@test "tmpfs: +pinned set while +offline waits between its check and its write: offline is taken back, and says so" {
	held_open tmpfs +offline +pinned
	assert_success
	assert_line 'second rc=0'
	assert_line 'first rc=1'
	assert_line 'user.fattr.pinned="1"'
	refute_line --partial 'user.fattr.offline'
	# shellcheck disable=SC2154  # set by run --separate-stderr
	assert_equal "$stderr" "setfattrs: cannot set 'offline' on 'f': another process set its opposite 'pinned' at the same time, so 'offline' was taken back"
}

@test "tmpfs: '-pinned +offline' against +pinned in its window: the command that cleared pinned ends with offline alone" {
	held_open tmpfs '-pinned +offline' +pinned
	assert_success
	assert_line 'second rc=0'
	assert_line 'first rc=0'
	assert_line 'user.fattr.offline="1"'
	refute_line --partial 'user.fattr.pinned'
	assert_equal "$stderr" ""
}

@test "ntfs-3g: +offline and +integrity on one file at once, 300 rounds: neither change lost (system.ntfs_attrib is read, changed and written back)" {
	require_cmd getfattr
	fs_require ntfs-3g
	FS_FUNCS=race_rounds run -0 --separate-stderr fs_run ntfs-3g '
		cd "$D" && race_rounds 300 +offline +integrity | grep -v "^both" &&
		for f in r*; do
			w=$(getfattr --absolute-names --only-values -n system.ntfs_attrib "$f" | od -An -tu4)
			(( (w & 0x1000) != 0 )) || echo "$f lost offline"
			[[ $(getfattr --absolute-names --only-values -n user.fattr.integrity "$f" 2>/dev/null) == 1 ]] ||
				echo "$f lost integrity"
		done'
	assert_output "failed 0"
}

@test "ntfs-3g: +offline and +pinned on one file at once, 300 rounds: never both set" {
	require_cmd getfattr
	fs_require ntfs-3g
	FS_FUNCS=race_rounds run -0 --separate-stderr fs_run ntfs-3g '
		cd "$D" && race_rounds 300 +offline +pinned | grep -v "^both" &&
		n=0 && for f in r*; do
			w=$(getfattr --absolute-names --only-values -n system.ntfs_attrib "$f" | od -An -tu4)
			if (( (w & 0x1000) != 0 )) && getfattr -n user.fattr.pinned "$f" >/dev/null 2>&1; then
				n=$((n + 1))
			fi
		done && echo "both $n"'
	assert_race_clean offline pinned
}

@test "ntfs-3g: +offline while +integrity holds the word between its read and its write: offline waits, and is kept" {
	held_open ntfs-3g +integrity +offline
	assert_success
	assert_line 'second rc=0'
	assert_line 'first rc=0'
	assert_line 'user.fattr.integrity="1"'
	# OFFLINE 0x1000 with ARCHIVE 0x20, little-endian.
	assert_line 'system.ntfs_attrib=0x20100000'
	assert_equal "$stderr" ""
}
