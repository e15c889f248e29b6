#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# setfattrs: the operation words (+-=, words and letters, left to right,
# "--"), the usage errors, -v/-n/--json, the order of work on one file, and
# every error it reports, on real filesystems.  Every result is
# checked with a tool this project did not write: lsattr, getfattr.
# bats file_tags=setfattrs

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/setfattrs.bash
load '../helpers/setfattrs'

# ---------------------------------------------------------------- usage

@test "an unknown flag word is a usage error that suggests the nearest word" {
	touch f
	run -1 --separate-stderr setfattrs +immutabel f
	assert_equal "$stderr" "setfattrs: unknown flag 'immutabel' in '+immutabel'; did you mean 'immutable'? ('setfattrs --list' lists them)
Try 'setfattrs --help' for more information."
	run -1 --separate-stderr setfattrs -ofline f
	stderr_has --partial "did you mean 'offline'?"
}

@test "an unknown flag in capitals suggests the word; '-X' suggests 'dax', not the option letter x" {
	touch f
	run -1 --separate-stderr setfattrs +OFFLINE f
	stderr_has "setfattrs: unknown flag 'OFFLINE' in '+OFFLINE'; did you mean 'offline'? ('setfattrs --list' lists them)"
	run -1 --separate-stderr setfattrs -Immutabel f
	stderr_has --partial "did you mean 'immutable'?"
	# 'x' would be taken for -x (--one-file-system): the flag's word.
	run -1 --separate-stderr setfattrs -X f
	stderr_has "setfattrs: unknown flag 'X' in '-X'; did you mean 'dax'? ('setfattrs --list' lists them)"
	# With '+' the letter is right.
	run -1 --separate-stderr setfattrs +X f
	stderr_has --partial "did you mean 'x'?"
}

@test "a word that mixes option letters and flag letters ('-vd', '-Rxd') says to split it; no read-only letter is suggested" {
	touch f
	run -1 --separate-stderr setfattrs -vd f
	stderr_has "setfattrs: '-vd' mixes options and flag letters: give them as separate words ('-v -d')"
	run -1 --separate-stderr setfattrs -Rxd f
	stderr_has "setfattrs: '-Rxd' mixes options and flag letters: give them as separate words ('-Rx -d')"
	run -1 --separate-stderr setfattrs -nA f
	stderr_has --partial "('-n -A')"
	# 'x' alone with flag letters is the dax letter, as the man page says.
	run -1 --separate-stderr setfattrs -n -xq f
	stderr_has "setfattrs: unknown flag 'q' in '-xq' ('setfattrs --list' lists every flag)"
	# 'v' is no flag, and V (verity) cannot be changed: nothing to suggest.
	run -1 --separate-stderr setfattrs -vdq f
	stderr_has "setfattrs: unknown flag 'v' in '-vdq' ('setfattrs --list' lists every flag)"
}

@test "an unknown flag is quoted as a file name is: an escape sequence escaped, a character that is not ASCII whole" {
	touch f
	run -1 --separate-stderr setfattrs $'+d\e[31mX' f
	stderr_has "setfattrs: unknown flag 'd\\033[31mX' in '+d\\033[31mX' ('setfattrs --list' lists every flag)"
	run -1 --separate-stderr setfattrs +ié f
	stderr_has "setfattrs: unknown flag '\\303\\251' in '+i\\303\\251' ('setfattrs --list' lists every flag)"
	LC_ALL=C.UTF-8 run -1 --separate-stderr setfattrs +é f
	[[ $stderr == *"unknown flag "*"é"*" in "*"+é"*" ("* ]] || fail "$stderr"
	run -1 --separate-stderr setfattrs +d f $'+\e[1m'
	stderr_has --partial "operation '+'\$'\\033''[1m' after the file 'f'"
	stderr_has --partial "(a file named so: './+'\$'\\033''[1m')"
}

@test "an unknown letter in a run of letters is named" {
	touch f
	run -1 --separate-stderr setfattrs +iq f
	stderr_has "setfattrs: unknown flag 'q' in '+iq' ('setfattrs --list' lists every flag)"
}

@test "a read-only flag, by word or letter, is refused before any file is touched" {
	touch f
	run -1 --separate-stderr setfattrs +nodump,extents f
	stderr_has "setfattrs: flag 'extents' in '+nodump,extents' is read-only: it cannot be set or cleared"
	run -1 --separate-stderr setfattrs -e f
	stderr_has --partial "flag 'e' in '-e' is read-only"
	run -1 --separate-stderr setfattrs +hasattr f
	stderr_has --partial "'hasattr'"
}

@test "setting both of two opposites is a usage error" {
	touch f
	run -1 --separate-stderr setfattrs +offline +pinned f
	stderr_has "setfattrs: 'offline' and 'pinned' are opposites: a file cannot have both"
	run -1 --separate-stderr setfattrs =integrity,noscrub f
	stderr_has --partial "'integrity' and 'noscrub' are opposites"
}

@test "no operation, no file, an empty flag or an operation after a file: usage errors" {
	touch f
	run -1 --separate-stderr setfattrs f
	stderr_has --partial "missing operation"
	# -x is --one-file-system, not "clear dax".
	run -1 --separate-stderr setfattrs -x f
	stderr_has --partial "missing operation"
	run -1 --separate-stderr setfattrs +d
	stderr_has "setfattrs: missing file operand"
	run -1 --separate-stderr setfattrs +d, f
	stderr_has --partial "invalid operation '+d,'"
	run -1 --separate-stderr setfattrs + f
	stderr_has --partial "invalid operation '+'"
	run -1 --separate-stderr setfattrs +d f -i
	stderr_has --partial "operation '-i' after the file 'f'"
	run -1 --separate-stderr setfattrs --bogus +d f
	stderr_has "setfattrs: unrecognized option '--bogus'"
}

@test "--help and --version work; options may come anywhere, operations before the files" {
	run -0 setfattrs --help
	assert_line --partial 'Usage: setfattrs [OPTION...] [+-=]FLAG[,FLAG]...'
	run -0 setfattrs --version
	assert_output --regexp '^setfattrs \(fattrs\) '
}

@test "options anywhere, as GNU's; with POSIXLY_CORRECT they end at the first file, as chattr's, and so do operations" {
	require_cmd getfattr
	mkdir d && touch d/f f ./-v ./-R
	# After a file, -v and -R are options ...
	run -0 --separate-stderr setfattrs +offline f -v
	assert_output 'changed f: offline: clear -> set'
	run -0 --separate-stderr setfattrs +offline d -R -v
	assert_equal "${lines[*]}" 'changed d: offline: clear -> set changed d/f: offline: clear -> set'
	# ... and an operation is a usage error.
	run -1 --separate-stderr setfattrs +offline f -pinned
	stderr_has --partial "operation '-pinned' after the file 'f'"
	# POSIXLY_CORRECT: every word after the first file is a file.
	POSIXLY_CORRECT=1 run -0 --separate-stderr setfattrs +integrity f -v -R
	assert_output ''
	run -0 getfattr --absolute-names -n user.fattr.integrity --only-values ./-v ./-R f
	assert_output '111'
	POSIXLY_CORRECT=1 run -1 --separate-stderr setfattrs -v -integrity f -noscrub
	stderr_has "setfattrs: cannot stat '-noscrub': No such file or directory"
	assert_output 'changed f: integrity: set -> clear'
	POSIX_ME_HARDER=1 run -0 --separate-stderr setfattrs -offline f -v
	assert_output ''
}

@test "tmpfs: +WORD and +LETTER set, -WORD and -LETTER clear (lsattr agrees)" {
	require_cmd lsattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f
		for pair in immutable:i append:a nodump:d noatime:A; do
			w=${pair%:*} l=${pair#*:}
			setfattrs +$w f || exit 1
			lsattr f | cut -d" " -f1 | grep -q "$l" || { echo "+$w not seen"; exit 1; }
			setfattrs -$l f || exit 1
			lsattr f | cut -d" " -f1 | grep -q "$l" && { echo "-$l not done"; exit 1; }
			setfattrs +$l f || exit 1
			lsattr f | cut -d" " -f1 | grep -q "$l" || { echo "+$l not seen"; exit 1; }
			setfattrs -$w f || exit 1
			lsattr f | cut -d" " -f1 | grep -q "$l" && { echo "-$w not done"; exit 1; }
		done
		echo done'
	assert_output done
}

@test "tmpfs: several letters in one word, a comma list, left to right, a later operation wins" {
	require_cmd lsattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f g
		setfattrs +dA f && lsattr f | cut -d" " -f1
		setfattrs -dA +nodump,noatime -noatime f && lsattr f | cut -d" " -f1
		setfattrs +d -d +A g && lsattr g | cut -d" " -f1'
	assert_equal "${lines[0]}" '------dA--------------'
	assert_equal "${lines[1]}" '------d---------------'
	assert_equal "${lines[2]}" '-------A--------------'
}

@test "tmpfs: -offline and -i are operations; after -- too, until the first file" {
	require_cmd getfattr lsattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f ./-i
		setfattrs +offline,d f ./-i
		setfattrs -offline -d f
		getfattr --absolute-names -d -m user.fattr. f; lsattr f | cut -d" " -f1
		setfattrs -d -- -i
		lsattr ./-i | cut -d" " -f1
		setfattrs -- -offline ./-i
		getfattr --absolute-names -d -m user.fattr. ./-i'
	refute_line --partial 'user.fattr'
	assert_equal "${lines[0]}" '----------------------'
	assert_equal "${lines[1]}" '----------------------'
	assert_equal "${#lines[@]}" 2
}

@test "tmpfs: a last operation that is also an existing file's name: 'missing file operand' says how to name the file" {
	touch -- +d -i
	run -1 --separate-stderr setfattrs +d +d
	stderr_has "setfattrs: missing file operand: '+d' names a flag, so it is taken as an operation; name the file as './+d' (or after a -- that follows the operations)"
	run -1 --separate-stderr setfattrs -- +d -i
	stderr_has --partial "missing file operand: '-i' names a flag"
	# Without such a file, the message is the usual one.
	run -1 --separate-stderr setfattrs +d -A
	stderr_has "setfattrs: missing file operand"
	# And the ways it names work (tmpfs: the test directory may hold no flags).
	require_cmd lsattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch -- +d -i
		setfattrs +d -- +d && setfattrs -v +A ./-i && lsattr -- +d -i | cut -d" " -f1'
	assert_equal "$output" $'changed ./-i: noatime: clear -> set\n------d---------------\n-------A--------------'
}

@test "after --, a mistyped operation with no operation anywhere is named, not taken for a file" {
	touch f
	run -1 --separate-stderr setfattrs -- -nodump,-offline f
	stderr_has --partial "unknown flag '-offline' in '-nodump,-offline'; did you mean 'offline'?"
	run -1 --separate-stderr setfattrs -- +nodump,,offline f
	stderr_has --partial "invalid operation '+nodump,,offline'"
	# With an operation (or --reference) it is the first file, as the man page says.
	run -1 --separate-stderr setfattrs +d -- -nodump,bogus
	stderr_has "setfattrs: cannot stat '-nodump,bogus': No such file or directory"
	run -1 --separate-stderr setfattrs --reference=f -- -nodump,bogus
	stderr_has --partial "'-nodump,bogus': No such file or directory"
}

# Each column of a --list table starts where its heading does, on every row.
list_aligned() {
	local head=${lines[0]} word col l
	for word in "$@"; do
		col=${head%%"$word"*}
		col=${#col}
		for l in "${lines[@]:1}"; do
			[[ ${l:col-1:1} == ' ' && ${l:col:1} != ' ' ]] || fail "not under $word (column $col): '$l'"
		done
	done
}

@test "--list and --list FILE: every column lines up under its heading, read-only and fattrs rows too" {
	touch f
	run -0 setfattrs --list
	list_aligned LETTER STORED DESCRIPTION
	run -0 setfattrs --list f
	list_aligned LETTER STORED STATE SUPPORTED DESCRIPTION
}

@test "tmpfs: =LIST makes the flags exactly LIST; '=' alone clears every one" {
	require_cmd getfattr lsattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f
		setfattrs +dA,offline,integrity f
		setfattrs =A,noscrub f
		lsattr f | cut -d" " -f1; getfattr --absolute-names -d -m user.fattr. f | grep =
		setfattrs = f
		lsattr f | cut -d" " -f1; getfattr --absolute-names -d -m user.fattr. f | grep = || echo none'
	assert_equal "${lines[0]}" '-------A--------------'
	assert_equal "${lines[1]}" 'user.fattr.noscrub="1"'
	assert_equal "${lines[2]}" '----------------------'
	assert_equal "${lines[3]}" 'none'
}

@test "tmpfs: +immutable goes last and -immutable first, the fattrs flags between" {
	require_root "set immutable"
	require_cmd getfattr lsattr strace
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		# LeakSanitizer cannot run under strace (tests/helpers/fault.bash).
		export ASAN_OPTIONS=$FAULT_ASAN_OPTIONS
		cd "$D" && touch f
		# The writes, in order (strace 6.1 names file_setattr syscall_0x1d5, setxattrat syscall_0x1cf).
		strace -qq -o ../all.trace setfattrs +i,offline,d f || exit 1
		grep -E "^(syscall_0x1d5|syscall_0x1cf|ioctl\(.*SET)" ../all.trace >../set.trace
		lsattr f | cut -d" " -f1; getfattr --absolute-names -n user.fattr.offline --only-values f; echo
		grep -c . ../set.trace
		tail -n1 ../set.trace | grep -q -e syscall_0x1d5 -e FS_IOC_FSSETXATTR || { cat ../set.trace; exit 1; }
		grep -n syscall_0x1cf ../set.trace | cut -d: -f1
		setfattrs -i,offline f || exit 1
		lsattr f | cut -d" " -f1; getfattr --absolute-names -d -m user.fattr. f | grep = || echo none
		chattr -i f 2>/dev/null; rm -f f'
	assert_equal "${lines[0]}" '----i-d---------------'
	assert_equal "${lines[1]}" '1'
	assert_equal "${lines[2]}" '3'
	assert_equal "${lines[3]}" '2'
	assert_equal "${lines[4]}" '------d---------------'
	assert_equal "${lines[5]}" 'none'
}

@test "tmpfs: a fattrs flag refused on an immutable or append-only file (even to root) says so, with the remedy" {
	require_root "set immutable"
	require_cmd getfattr
	fs_require tmpfs
	run -1 --separate-stderr fs_run tmpfs '
		cd "$D" && touch imm app f && setfattrs +i imm && setfattrs +a app || exit 9
		setfattrs +offline imm app f; rc=$?
		setfattrs -i,a imm app
		getfattr --absolute-names -d -m user.fattr. imm app f
		exit $rc'
	stderr_has "setfattrs: cannot set 'offline' on 'imm': Operation not permitted (the file is immutable; '-i +offline' clears that first)"
	stderr_has "setfattrs: cannot set 'offline' on 'app': Operation not permitted (the file is append-only; '-a +offline' clears that first)"
	assert_equal "${#stderr_lines[@]}" 2
	assert_output $'# file: f\nuser.fattr.offline="1"'
}

@test "tmpfs: +pinned while offline is set names the remedy; -offline +pinned does it" {
	require_cmd getfattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f g
		setfattrs +offline f g
		setfattrs +pinned f g; echo "rc=$?"
		setfattrs -offline +pinned f; echo "rc=$?"
		getfattr --absolute-names -d -m user.fattr. f g | grep ='
	assert_equal "${lines[0]}" 'rc=1'
	assert_equal "${lines[1]}" 'rc=0'
	assert_equal "${lines[2]}" 'user.fattr.pinned="1"'
	assert_equal "${lines[3]}" 'user.fattr.offline="1"'
	assert_equal "$stderr" "setfattrs: cannot set 'pinned' on 'f': its opposite 'offline' is set; '-offline +pinned' clears it first
setfattrs: cannot set 'pinned' on 'g': its opposite 'offline' is set; '-offline +pinned' clears it first"
}

@test "tmpfs: a symlink, a fifo and a device cannot carry a fattrs flag; the other files still change" {
	require_root "make a device node"
	require_cmd getfattr
	fs_require tmpfs
	run -1 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f && ln -s f l && mkfifo p && mknod c c 1 3
		setfattrs -h +offline l p c f
		rc=$?
		getfattr --absolute-names -n user.fattr.offline --only-values f; echo
		exit $rc'
	assert_output '1'
	assert_equal "$stderr" "setfattrs: cannot set 'offline' on 'l': a symbolic link cannot carry it (the kernel keeps user xattrs on regular files and directories only)
setfattrs: cannot set 'offline' on 'p': a fifo cannot carry it (the kernel keeps user xattrs on regular files and directories only)
setfattrs: cannot set 'offline' on 'c': a character device cannot carry it (the kernel keeps user xattrs on regular files and directories only)"
}

@test "tmpfs: a flag the filesystem does not have fails, named, with the filesystem type: refused, not 'did not keep it'" {
	fs_require tmpfs
	run -1 --separate-stderr fs_run tmpfs 'cd "$D" && touch f && mkdir d && setfattrs +S f; setfattrs +projinherit d'
	assert_equal "$stderr" "setfattrs: cannot set 'sync' on 'f': Operation not supported (the tmpfs filesystem does not support it on a regular file)
setfattrs: cannot set 'projinherit' on 'd': Operation not supported (the tmpfs filesystem does not support it on a directory)"
}

@test "ext4, btrfs: a flag the kernel refuses (EOPNOTSUPP) is told from one it said yes to and dropped (read back clear)" {
	fs_require ext4
	run -1 --separate-stderr fs_run ext4 'cd "$D" && touch f && setfattrs +nocow,nodefrag f'
	assert_equal "$stderr" "setfattrs: cannot set 'nocow' on 'f': Operation not supported (the ext4 filesystem does not support it on a regular file)
setfattrs: cannot set 'nodefrag' on 'f': the ext4 filesystem did not keep it (on a regular file)"
	fs_require btrfs
	run -1 --separate-stderr fs_run btrfs 'cd "$D" && touch f && setfattrs +dax f'
	assert_equal "$stderr" "setfattrs: cannot set 'dax' on 'f': Operation not supported (the btrfs filesystem does not support it on a regular file)"
}

@test "tmpfs: after a failure, what was and was not applied is said" {
	require_cmd getfattr lsattr
	fs_require tmpfs
	run -1 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f && setfattrs +pinned f &&
		setfattrs +d,offline,noatime f; rc=$?
		lsattr f | cut -d" " -f1; exit $rc'
	assert_output '------dA--------------'
	assert_equal "$stderr" "setfattrs: cannot set 'offline' on 'f': its opposite 'pinned' is set; '-pinned +offline' clears it first
setfattrs: 'f': applied '+nodump +noatime'; failed '+offline'"
}

@test "tmpfs: -v says old -> new for what changed; -n says it and changes nothing; --json" {
	require_cmd lsattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f
		setfattrs -v +d,offline f
		setfattrs -v +d f
		setfattrs -n -A -d =offline,noatime f
		lsattr f | cut -d" " -f1
		setfattrs --json -v -d f
		setfattrs --json -n +d f'
	assert_equal "${lines[0]}" 'changed f: nodump: clear -> set, offline: clear -> set'
	assert_equal "${lines[1]}" 'would change f: nodump: set -> clear, noatime: clear -> set'
	assert_equal "${lines[2]}" '------d---------------'
	assert_equal "${lines[3]}" '{"file":"f","dry_run":false,"ok":true,"changed":[{"flag":"nodump","old":"set","new":"clear"}],"not_applied":[]}'
	assert_equal "${lines[4]}" '{"file":"f","dry_run":true,"ok":true,"changed":[{"flag":"nodump","old":"clear","new":"set"}],"not_applied":[]}'
	assert_equal "${#lines[@]}" 5
}

@test "ext4: -n says which operations would fail and why, as a real run would, exits 1, and changes nothing" {
	require_cmd lsattr getfattr
	fs_require ext4
	run -1 --separate-stderr fs_run ext4 '
		cd "$D" && touch f g && mkfifo p && setfattrs +pinned g || exit 2
		setfattrs -n --json +nocow f; echo "rc=$?"
		setfattrs -n +nodump,nocow f; echo "rc=$?"
		setfattrs -n +offline p; echo "rc=$?"
		setfattrs -n +offline g; echo "rc=$?"
		setfattrs -n -pinned +offline g; echo "rc=$?"
		chattr +i f && setfattrs -n +nodump f; echo "rc=$?"
		setfattrs -n -i +nodump f; echo "rc=$?"
		chattr -i f
		lsattr f | cut -d" " -f1
		getfattr --absolute-names -d -m user.fattr. g | grep =
		exit 1'
	assert_equal "${lines[0]}" '{"file":"f","dry_run":true,"ok":false,"changed":[],"not_applied":["+nocow"]}'
	assert_equal "${lines[1]}" 'rc=1'
	assert_equal "${lines[2]}" 'would change f: nodump: clear -> set'
	assert_equal "${lines[3]}" 'rc=1'
	assert_equal "${lines[4]}" 'rc=1'
	assert_equal "${lines[5]}" 'rc=1'
	assert_equal "${lines[6]}" 'would change g: offline: clear -> set, pinned: set -> clear'
	assert_equal "${lines[7]}" 'rc=0'
	assert_equal "${lines[8]}" 'rc=1'
	assert_equal "${lines[9]}" 'would change f: immutable: set -> clear, nodump: clear -> set'
	assert_equal "${lines[10]}" 'rc=0'
	assert_equal "${lines[11]}" '--------------e-------'
	assert_equal "${lines[12]}" 'user.fattr.pinned="1"'
	assert_equal "$stderr" "setfattrs: cannot set 'nocow' on 'f': the ext4 filesystem does not support it on a regular file
setfattrs: cannot set 'nocow' on 'f': the ext4 filesystem does not support it on a regular file
setfattrs: cannot set 'offline' on 'p': a fifo cannot carry it (the kernel keeps user xattrs on regular files and directories only)
setfattrs: cannot set 'offline' on 'g': its opposite 'pinned' is set; '-pinned +offline' clears it first
setfattrs: cannot set 'nodump' on 'f': Operation not permitted (the file is immutable; '-i +nodump' clears that first)"
}

@test "tmpfs: --json gives a file whose flags cannot be read its record too: not ok, every operation not applied" {
	fault_require
	nosys_require
	require_cmd python3
	fs_require tmpfs
	# the path calls, into which strace injects (tests/helpers/fault.bash)
	run -1 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f g
		fault_run ../trace listxattr EIO -- "$NOSYS" xattrat setfattrs --json -v +offline,d -A f g'
	stderr_has "setfattrs: cannot read the fattrs flags of 'f': Input/output error"
	stderr_has "setfattrs: cannot read the fattrs flags of 'g': Input/output error"
	assert_equal "${#lines[@]}" 2
	assert_line '{"file":"f","dry_run":false,"ok":false,"changed":[],"not_applied":["+nodump","-noatime","+offline"]}'
	assert_line '{"file":"g","dry_run":false,"ok":false,"changed":[],"not_applied":["+nodump","-noatime","+offline"]}'
	python3 -m json.tool --json-lines <<<"$output" >/dev/null
}

@test "--json gives a file that cannot be stat'ed its record too, between the others" {
	require_cmd python3
	touch f
	run -1 --separate-stderr setfattrs --json +offline,d missing f
	assert_equal "$stderr" "setfattrs: cannot stat 'missing': No such file or directory"
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 '{"file":"missing","dry_run":false,"ok":false,"changed":[],"not_applied":["+nodump","+offline"]}'
	assert_line --index 1 --partial '{"file":"f","dry_run":false,"ok":true,'
	python3 -m json.tool --json-lines <<<"$output" >/dev/null
}

@test "--json: a name that is not UTF-8 is an array of its bytes, a control character is escaped" {
	require_cmd python3
	touch "$(printf 'f\377o')" "$(printf 'a\nb')"
	run -0 --separate-stderr setfattrs --json -n +offline "$(printf 'f\377o')" "$(printf 'a\nb')"
	assert_line --index 0 '{"file":[102,255,111],"dry_run":true,"ok":true,"changed":[{"flag":"offline","old":"clear","new":"set"}],"not_applied":[]}'
	assert_line --index 1 '{"file":"a\nb","dry_run":true,"ok":true,"changed":[{"flag":"offline","old":"clear","new":"set"}],"not_applied":[]}'
	python3 -m json.tool --json-lines <<<"$output" >/dev/null
}

@test "-f silences the messages about files, not the exit status" {
	touch f
	run -1 --separate-stderr setfattrs -f -h +offline missing f
	assert_equal "$stderr" ''
	run -1 --separate-stderr setfattrs -h +offline missing
	assert_equal "$stderr" "setfattrs: cannot stat 'missing': No such file or directory"
}

# ------------------------------------------------------------ other filesystems

@test "ramfs: no kernel flags, no user xattrs: each operation fails, named" {
	fs_require ramfs
	run -1 --separate-stderr fs_run ramfs 'cd "$D" && touch f && setfattrs +d f; setfattrs +offline f'
	assert_equal "$stderr" "setfattrs: cannot set 'nodump' on 'f': the ramfs filesystem keeps no attribute flags for a regular file
setfattrs: cannot set 'offline' on 'f': the ramfs filesystem has neither user xattrs nor a native attribute word"
}

# Every letter doc/kernel.md §2.5 says TYPE keeps on a regular file (or on a
# directory), set by word and by letter and cleared the other way, each
# checked with lsattr.
flags_on() {
	local type=$1 kind=$2 letters=$3
	require_root "set immutable and append"
	require_cmd lsattr
	fs_require "$type"
	LETTERS=$letters KIND=$kind run -0 --separate-stderr fs_run "$type" '
		cd "$D" || exit 1
		letters=$LETTERS kind=$KIND i=0
		for ((k = 0; k < ${#letters}; k++)); do
			l=${letters:k:1}
			w=$(setfattrs --list | awk -v l="$l" "\$2 == l { print \$1 }")
			f=x$((i++))
			if [[ $kind == dir ]]; then mkdir "$f"; else touch "$f"; fi
			setfattrs +$w "$f" || { echo "+$w failed"; continue; }
			lsattr -d "$f" | cut -d" " -f1 | grep -q -- "$l" || echo "+$w not seen"
			# -x is --one-file-system: dax is cleared as -dax.
			cl=-$l; [[ $l == x ]] && cl=-dax
			setfattrs $cl "$f" || echo "$cl failed"
			lsattr -d "$f" | cut -d" " -f1 | grep -q -- "$l" && echo "$cl not done"
			setfattrs +$l "$f" || echo "+$l failed"
			lsattr -d "$f" | cut -d" " -f1 | grep -q -- "$l" || echo "+$l not seen"
			setfattrs -$w "$f" || echo "-$w failed"
			lsattr -d "$f" | cut -d" " -f1 | grep -q -- "$l" && echo "-$w not done"
			rm -rf "$f"
		done
		echo "$i done"'
	assert_output "${#letters} done"
}

@test "tmpfs: i a d A on a regular file, by word and letter" {
	flags_on tmpfs file iadA
}

@test "ext4: every flag it keeps on a regular file and a directory, by word and letter" {
	flags_on ext4 file sucSiadAtx
	flags_on ext4 dir sucSiadAtxDTP
}

@test "ext4: nodefrag and nocompress are answered with success and dropped: the read-back says so, for every file" {
	fs_require ext4
	run -1 --separate-stderr fs_run ext4 'cd "$D" && touch f g && setfattrs +nodefrag f g; setfattrs +m f'
	assert_equal "$stderr" "setfattrs: cannot set 'nodefrag' on 'f': the ext4 filesystem did not keep it (on a regular file)
setfattrs: cannot set 'nodefrag' on 'g': the ext4 filesystem did not keep it (on a regular file)
setfattrs: cannot set 'nocompress' on 'f': the ext4 filesystem did not keep it (on a regular file)"
}

# The read-back policy: nodump, noatime and sync are read back on the first
# change of each on a filesystem (per file type), then trusted there.
@test "ext4: +nodump on three files reads back the first change only; other flags always" {
	require_cmd strace lsattr findmnt
	fs_require ext4
	# The namespace holds only filesystems setfattrs trusts, whatever else
	# the machine has mounted (a FUSE mount anywhere made every file cost a
	# stat and a read-back of its own: 6 calls for t0, not 5).
	FS_FUNCS=trusted_mounts_only run --separate-stderr fs_run ext4 '
		trusted_mounts_only || exit
		# LeakSanitizer cannot run under strace (tests/helpers/fault.bash).
		export ASAN_OPTIONS=$FAULT_ASAN_OPTIONS
		cd "$D" && touch f g h && mkdir d || exit 1
		# With only filesystems on setfattrs list mounted, no stat: the
		# first change is read back, whatever the file type.
		strace -qq -o ../t0 setfattrs +nodump f g h d
		setfattrs -nodump f g h d
		# An overlayfs mounted (not on the list): each file gets a stat, and
		# read back per filesystem and file type.
		mkdir lo up wk ov && mount -t overlay ov -o lowerdir=lo,upperdir=up,workdir=wk ov || exit 1
		strace -qq -o ../t1 setfattrs +nodump f g h d
		strace -qq -o ../t2 setfattrs -nodump,noatime f g h
		setfattrs +d f g h
		strace -qq -o ../t4 setfattrs -nodump f g h
		strace -qq -o ../t3 setfattrs +nodump,projinherit d
		umount ov && rm -r lo up wk ov
		grep -c "^syscall_0x1d4" ../t1 ../t2 ../t4 ../t0
		grep -c "^syscall_0x1d5" ../t1 ../t2
		lsattr -d f g h d | cut -c1-8'
	# shellcheck disable=SC2154  # set by run --separate-stderr
	((status != 77)) || skip "$stderr"
	assert_success
	# f read, written, read back; g and h read and written; d (another type) read back again.
	assert_equal "${lines[0]}" '../t1:6'
	# -nodump,noatime: noatime was never seen kept: every file is read back.
	assert_equal "${lines[1]}" '../t2:6'
	# -nodump alone, written: nodump was set, so the filesystem holds it: read back once.
	assert_equal "${lines[2]}" '../t4:4'
	# no stat: f read, written, read back; g, h and d read and written
	assert_equal "${lines[3]}" '../t0:5'
	assert_equal "${lines[4]}" '../t1:4'
	assert_equal "${lines[5]}" '../t2:3'
	assert_equal "${lines[6]}" '--------'
	assert_equal "${lines[9]}" '------d-'
}

@test "ext4: the fattrs flags, checked with getfattr" {
	require_cmd getfattr
	fs_require ext4
	run -0 --separate-stderr fs_run ext4 '
		cd "$D" && touch f && mkdir d
		setfattrs +offline,integrity f d
		getfattr --absolute-names -d -m user.fattr. f d | grep =
		setfattrs -offline =noscrub f d
		getfattr --absolute-names -d -m user.fattr. f d | grep ='
	assert_output 'user.fattr.integrity="1"
user.fattr.offline="1"
user.fattr.integrity="1"
user.fattr.offline="1"
user.fattr.noscrub="1"
user.fattr.noscrub="1"'
}

@test "xfs: every flag it keeps, by word and letter" {
	flags_on xfs file SiadAx
	flags_on xfs dir SiadAxP
}

@test "xfs: its own flags by word (xfs_io agrees); clearing extsize, extszinherit or cowextsize clears the size hint too" {
	require_cmd xfs_io
	fs_require xfs
	run -0 --separate-stderr fs_run xfs '
		cd "$D" && touch f && mkdir d || exit 1
		# has-xattr: the file has some xattr (SELinux, ACLs), not our business.
		xl() { xfs_io -c "lsattr -v" "$1" | sed -E "s/(, )?has-xattr//; s/ +$//"; }
		setfattrs +nodefrag f && xl f && setfattrs -nodefrag f && xl f
		setfattrs +rtinherit,nosymlinks,filestream d && xl d
		setfattrs -rtinherit,nosymlinks,filestream d && xl d
		# The size hints are set with xfs_io; clearing the flag drops the size
		# (xfs refuses a size without its flag: EINVAL before).
		xfs_io -c "extsize 1m" -c "cowextsize 64k" f && xfs_io -c "extsize 1m" d || exit 1
		xl f && xl d
		setfattrs -v -extsize,cowextsize f && xl f && xfs_io -c extsize -c cowextsize f
		setfattrs -v =nodump d && xl d && xfs_io -c extsize d'
	assert_equal "$output" "[no-defrag] f
[] f
[rt-inherit, nosymlinks, filestream] d
[] d
[extsize, cowextsize] f
[extsz-inherit] d
changed f: extsize: set -> clear, cowextsize: set -> clear
[] f
[0] f
[0] f
changed d: nodump: clear -> set, extszinherit: set -> clear
[no-dump] d
[0] d"
}

@test "xfs: extsize, extszinherit or cowextsize set without a size says it needs one and how to give it; ext4 did not keep them" {
	require_cmd xfs_io
	fs_require xfs
	run -1 --separate-stderr fs_run xfs '
		cd "$D" && touch f && mkdir d || exit 1
		xl() { xfs_io -c "lsattr -v" "$1" | sed -E "s/(, )?has-xattr//; s/ +$//"; }
		setfattrs +extsize f; echo "$?"
		setfattrs +cowextsize,nodump f; echo "$?"
		setfattrs +extszinherit d; echo "$?"
		xl f && xfs_io -c extsize -c cowextsize f
		xl d && xfs_io -c extsize d
		exit 1'
	assert_equal "$stderr" "setfattrs: cannot set 'extsize' on 'f': xfs keeps it only with a size hint: '+extsize=SIZE'
setfattrs: cannot set 'cowextsize' on 'f': xfs keeps it only with a size hint: '+cowextsize=SIZE'
setfattrs: 'f': applied '+nodump'; failed '+cowextsize'
setfattrs: cannot set 'extszinherit' on 'd': xfs keeps it only with a size hint: '+extszinherit=SIZE'"
	assert_equal "$output" "1
1
1
[no-dump] f
[0] f
[0] f
[] d
[0] d"
	fs_require ext4
	run -1 --separate-stderr fs_run ext4 'cd "$D" && touch f && setfattrs +extsize,cowextsize f'
	assert_equal "$stderr" "setfattrs: cannot set 'extsize' on 'f': the ext4 filesystem did not keep it (on a regular file)
setfattrs: cannot set 'cowextsize' on 'f': the ext4 filesystem did not keep it (on a regular file)"
}

@test "xfs: +extsize=SIZE, +extszinherit=SIZE, +cowextsize=SIZE set the flag with its size hint (xfs_io agrees); -v, -n and --json show the size" {
	require_cmd xfs_io
	# The ioctl path (FS_IOC_FSSETXATTR): tests/unit/kflags on xfs (strace 6.1 cannot inject file_setattr).
	fs_require xfs
	run -0 --separate-stderr fs_run xfs '
		cd "$D" && touch f g h && mkdir d || exit 1
		xl() { xfs_io -c "lsattr -v" "$1" | sed -E "s/(, )?has-xattr//; s/ +$//"; }
		sz() { xfs_io -c extsize -c cowextsize "$1"; }
		setfattrs -v +extsize=1m f && xl f && sz f
		setfattrs -v +extsize=2M,cowextsize=64k,nodump f && xl f && sz f
		setfattrs -n +extsize=4m f && sz f
		setfattrs +extsize=1048576 f && setfattrs -v +extsize=1024K f && sz f
		setfattrs --json =extszinherit=256k d && xl d && sz d
		setfattrs +cowextsize=512k +d g && xl g && sz g
		setfattrs -v -extsize,cowextsize f && xl f && sz f
		setfattrs -v +extsize=8k +extsize h; xfs_io -c extsize h'
	assert_equal "$stderr" "setfattrs: cannot set 'extsize' on 'h': xfs keeps it only with a size hint: '+extsize=SIZE'"
	assert_equal "$output" "changed f: extsize: clear -> set (size 0 -> 1048576)
[extsize] f
[1048576] f
[0] f
changed f: nodump: clear -> set, extsize: set -> set (size 1048576 -> 2097152), cowextsize: clear -> set (size 0 -> 65536)
[no-dump, extsize, cowextsize] f
[2097152] f
[65536] f
would change f: extsize: set -> set (size 2097152 -> 4194304)
[2097152] f
[65536] f
[1048576] f
[65536] f
{\"file\":\"d\",\"dry_run\":false,\"ok\":true,\"changed\":[{\"flag\":\"extszinherit\",\"old\":\"clear\",\"new\":\"set\",\"old_size\":0,\"new_size\":262144}],\"not_applied\":[]}
[extsz-inherit] d
[262144] d
[0] d
[no-dump, cowextsize] g
[0] g
[524288] g
changed f: extsize: set -> clear, cowextsize: set -> clear
[no-dump] f
[0] f
[0] f
[0] h"
}

@test "xfs: a size the filesystem refuses names the flag; ext4 does not keep a size hint" {
	require_cmd xfs_io
	fs_require xfs
	run -1 --separate-stderr fs_run xfs '
		cd "$D" && touch f && mkdir d || exit 1
		setfattrs +extsize=1000 f; echo "$?"
		setfattrs +extsize=1m d; echo "$?"
		xfs_io -c extsize f d
		exit 1'
	assert_equal "$stderr" "setfattrs: cannot set 'extsize' on 'f': Invalid argument (the xfs filesystem refuses it on this regular file, or with the other flags it has or is given)
setfattrs: cannot set 'extsize' on 'd': Invalid argument (the xfs filesystem refuses it on this directory, or with the other flags it has or is given)"
	assert_equal "$output" "1
1
[0] f
[0] d"
	fs_require ext4
	run -1 --separate-stderr fs_run ext4 'cd "$D" && touch f && setfattrs +extsize=1m,cowextsize=64k f'
	assert_equal "$stderr" "setfattrs: cannot set 'extsize' on 'f': the ext4 filesystem did not keep it (on a regular file)
setfattrs: cannot set 'cowextsize' on 'f': the ext4 filesystem did not keep it (on a regular file)"
}

@test "a size on a flag that takes none, with '-', or a bad, zero or too big size is a usage error naming the word" {
	touch f
	run -1 --separate-stderr setfattrs +nodump=4k f
	assert_equal "$stderr" "setfattrs: flag 'nodump' in '+nodump=4k' takes no size: only extsize, extszinherit and cowextsize do ('+extsize=1m')
Try 'setfattrs --help' for more information."
	run -1 --separate-stderr setfattrs +extsize=1m,d=4k f
	stderr_has "setfattrs: flag 'd' in '+extsize=1m,d=4k' takes no size: only extsize, extszinherit and cowextsize do ('+extsize=1m')"
	run -1 --separate-stderr setfattrs +offline=1 f
	stderr_has "setfattrs: flag 'offline' in '+offline=1' takes no size: only extsize, extszinherit and cowextsize do ('+extsize=1m')"
	run -1 --separate-stderr setfattrs -extsize=4k f
	stderr_has "setfattrs: flag 'extsize' in '-extsize=4k' takes no size when it is cleared: give '-extsize'"
	local w
	for w in 0 '' 4x 1t -1 ' 1' 5g 4294967296 99999999999999999999999 0k; do
		run -1 --separate-stderr setfattrs "=cowextsize=$w" f
		stderr_has "setfattrs: invalid size '$w' in '=cowextsize=$w': give 1 to 4294967295 bytes, with an optional k, m or g (KiB, MiB, GiB)"
	done
	run -1 --separate-stderr setfattrs +extents=4k f
	stderr_has "setfattrs: flag 'extents' in '+extents=4k' is read-only: it cannot be set or cleared"
	run -1 --separate-stderr setfattrs +extsiz=4k f
	stderr_has --partial "unknown flag 'extsiz' in '+extsiz=4k'; did you mean 'extsize'?"
}

@test "btrfs: every flag it keeps, by word and letter" {
	flags_on btrfs file cSiadAmC
	flags_on btrfs dir cSiadAmCD
}

@test "ext4: a read-only filesystem is named as such" {
	fs_require ext4
	run -1 --separate-stderr fs_run ext4 'cd "$D" && touch f && mount -o remount,ro "$MNT" && setfattrs +d,offline f; rc=$?; mount -o remount,rw "$MNT"; exit $rc'
	assert_equal "$stderr" "setfattrs: cannot set 'nodump' on 'f': Read-only file system
setfattrs: 'f': applied nothing; failed '+nodump'; not tried '+offline'"
}
