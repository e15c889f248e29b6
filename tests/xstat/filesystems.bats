#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# xstat against GNU stat 9.1 on real file systems (tmpfs, ext4, xfs,
# btrfs), each mounted in a private namespace: every file type and
# hostile names, the default and terse outputs of both modes, every
# directive, byte for byte.  Birth times, subvolumes and block counts
# differ between these file systems, which is the point.
# bats file_tags=xstat,mount

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/mounts.bash (every FS_TYPES image)
load '../helpers/mounts'

mounts_setup_more() {
	load '../helpers/stat-compat'
	stat_compat_setup
	export -f same_as_gnu make_fixtures
}

teardown() {
	stat_compat_teardown
}

# The script run on each file system: fixtures in $D, then the comparisons.
# -f's free counts can move while a file system settles (ext4's lazy inode
# table, btrfs's commit): the default -f output is compared a few times.
# shellcheck disable=SC2016
COMPARE='
set -u
make_fixtures "$D/fix" || exit 1
cd "$D/fix" || exit 1
all=(* . ..)
sync
same_as_gnu -- "${all[@]}" || exit 1
same_as_gnu -t -- "${all[@]}" || exit 1
same_as_gnu -L -t -- "${all[@]}" || exit 1
for d in a A b B C d D Hd Ld f F g G h i m n N o s r R Hr Lr t T u U w W x X y Y z Z; do
	same_as_gnu -c "%$d|%-9$d|%.2$d" -- "${all[@]}" || exit 1
done
same_as_gnu -c "%.9W %.3w %W %w" -- "${all[@]}" || exit 1
for d in i l n s S t T; do
	same_as_gnu -f -c "%$d|%-12$d|%#$d" -- . regular || exit 1
done
ok=0
for try in 1 2 3 4 5; do
	sync
	if same_as_gnu -f -- . regular && same_as_gnu -f -t -- . regular &&
		same_as_gnu -f -c "%a %b %c %d %f" -- .; then
		ok=1
		break
	fi
	sleep 1
done
((ok)) || exit 1
'

@test "tmpfs: default, terse, -f and every directive as GNU stat" {
	fs_require tmpfs
	run -0 fs_run tmpfs "$COMPARE"
}

@test "ext4: default, terse, -f and every directive as GNU stat" {
	fs_require ext4
	run -0 fs_run ext4 "$COMPARE"
}

@test "xfs: default, terse, -f and every directive as GNU stat" {
	fs_require xfs
	run -0 fs_run xfs "$COMPARE"
}

@test "btrfs: default, terse, -f and every directive as GNU stat" {
	fs_require btrfs
	run -0 fs_run btrfs "$COMPARE"
}
