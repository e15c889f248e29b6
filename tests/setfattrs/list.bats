#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# setfattrs --list FILE's SUPPORTED column (and --list --json FILE's
# "supported") for the kernel flags: "no" where the file's filesystem does
# not keep the flag, "yes" where it does, as chattr and lsattr find it
# (helpers/kept.bash), on a regular file and a directory of tmpfs, ext4,
# xfs and btrfs; an overlay answers as its upper layer's type; sysfs has
# no user xattrs (the kernel refuses every setxattr there). STATE is the
# one vocabulary of flag states: set, clear, invalid, unsupported.
# bats file_tags=setfattrs,mount

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/setfattrs.bash
load '../helpers/setfattrs'

setfattrs_setup_more() {
	load '../helpers/kept'
}

# The SUPPORTED column of flag $2 of $1.
said='said() { setfattrs --list "$1" | awk -v w="$2" "\$1 == w { print \$5 }"; }
'

# kept_agree TYPE: every letter on TYPE: --list's column against lsattr's.
kept_agree() {
	fs_require "$1"
	run -0 --separate-stderr fs_run "$1" "$KEPT_PROBE$said"'kept_table said'
	assert_equal "${#lines[@]}" 32
	assert_equal "$(kept_disagree "$output" yes no)" ""
}

@test "tmpfs: --list FILE says no for sync, dax, projinherit, journal, notail, topdir (chattr cannot keep them)" {
	kept_agree tmpfs
	assert_line 'f sync dropped no'
	assert_line 'f dax dropped no'
	assert_line 'd projinherit dropped no'
	assert_line 'f journal dropped no'
	assert_line 'f noatime kept yes'
}

@test "ext4: --list FILE: yes for what a file or a directory keeps, no for the rest" {
	kept_agree ext4
	assert_line 'f dirsync dropped no'
	assert_line 'd topdir kept yes'
	assert_line 'f nocow dropped no'
}

@test "btrfs: --list FILE: yes for nocow, compress, nocompress; no for journal, notail, dax" {
	kept_agree btrfs
	assert_line 'f nocow kept yes'
	assert_line 'f notail dropped no'
}

@test "xfs: --list FILE: no for the FS_IOC_SETFLAGS-only flags, yes for sync and dax" {
	kept_agree xfs
	assert_line 'f sync kept yes'
	assert_line 'd dirsync dropped no'
}

@test "tmpfs: --list --json FILE says \"supported\":\"no\" for sync and journal, \"yes\" for noatime" {
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f || exit 1
		setfattrs --list --json f | grep -E "\"flag\":\"(sync|journal|noatime)\""'
	assert_line --index 0 --partial '"flag":"noatime","letter":"A",'
	assert_line --index 0 --partial '"state":"clear","supported":"yes"'
	assert_line --index 1 --partial '"flag":"sync",'
	assert_line --index 1 --partial '"state":"unsupported","supported":"no"'
	assert_line --index 2 --partial '"flag":"journal",'
	assert_line --index 2 --partial '"state":"unsupported","supported":"no"'
}

@test "overlay over tmpfs: --list FILE answers as tmpfs does (unsupported, no); chattr cannot keep sync there either" {
	fs_require overlay
	run -0 --separate-stderr fs_run overlay '
		cd "$D" && touch f || exit 1
		chattr +S f 2>/dev/null; lsattr -d f | cut -c1-22
		setfattrs --list f | awk "\$1 == \"sync\" || \$1 == \"journal\" || \$1 == \"realtime\" || \$1 == \"noatime\" { print \$1, \$4, \$5 }"'
	assert_line --index 0 '----------------------'
	assert_line --index 1 'noatime clear yes'
	assert_line --index 2 'sync unsupported no'
	assert_line --index 3 'journal unsupported no'
	assert_line --index 4 'realtime unsupported no'
}

@test "sysfs: --list FILE says the fattrs flags are unsupported there, as the kernel does (setxattr: Operation not supported)" {
	require_cmd setfattr
	run -0 --separate-stderr setfattrs --list /sys/kernel
	run -0 --separate-stderr bash -c 'setfattrs --list /sys/kernel | awk "\$1 == \"offline\" || \$1 == \"pinned\" { print \$1, \$4, \$5 }"'
	assert_line --index 0 'offline unsupported no'
	assert_line --index 1 'pinned unsupported no'
	run -1 --separate-stderr setfattr -n user.fattr.offline -v 1 /sys/kernel
	[[ $stderr == *'Operation not supported'* ]] || fail "setfattr: $stderr"
}
