#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The table of filesystem types (src/lib/fs/fstype.c) on real filesystems: the
# unit test binary runs on each, and checks that its row (found by the
# mount's type, as libmount names it) says what the kernel does there:
# user xattrs, O_TMPFILE, RENAME_NOREPLACE, links.
# bats file_tags=lib

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

load '../helpers/mounts'

mounts_setup_file_more() {
	fs_prepare sshfs overlay
}

mounts_setup_more() {
	FSTYPE=$FATTRS_BUILDDIR/tests/unit/fstype
	export FSTYPE
	[[ -x $FSTYPE ]] || fail "no $FSTYPE: run make check"
}

# The unit test binary on TYPE: the row of NAME found, no "not ok", and
# each of WHAT... (user_xattr tmpfile noreplace links) checked, not skipped.
unit_on() {
	local type=$1 name=$2 w
	shift 2
	fs_require "$type"
	run fs_run "$type" 'TMPDIR=$D "$FSTYPE"'
	assert_success
	assert_line "# filesystem: $name"
	assert_line --regexp "^ok [0-9]+ - $name: the magic is the kernel's\$"
	for w in "$@"; do
		assert_line --regexp "^ok [0-9]+ - $name: $w as the table says\$"
	done
	refute_line --regexp '^not ok'
	refute_line --partial 'Bail out!'
}

@test "tmpfs: the table's row says what the kernel does" {
	unit_on tmpfs tmpfs user_xattr tmpfile noreplace links
}

@test "ramfs: the table's row says what the kernel does" {
	unit_on ramfs ramfs user_xattr tmpfile noreplace links
}

@test "ext4: the table's row says what the kernel does" {
	unit_on ext4 ext4 user_xattr tmpfile noreplace links
}

@test "xfs: the table's row says what the kernel does" {
	unit_on xfs xfs user_xattr tmpfile noreplace links
}

@test "btrfs: the table's row says what the kernel does" {
	unit_on btrfs btrfs user_xattr tmpfile noreplace links
}

@test "ntfs-3g: the table's row (fuse: an image, not a block device) says what the kernel does" {
	unit_on ntfs-3g fuse
}

@test "overlay: the table's row says what the kernel does" {
	unit_on overlay overlay tmpfile noreplace links
}

@test "sshfs: the table's row says what the kernel does" {
	unit_on sshfs fuse.sshfs user_xattr tmpfile noreplace links
}
