#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel flag the file's filesystem does not keep reads "unsupported",
# not "clear" (%{name}, the view, --json): for each chattr letter, on a
# regular file and a directory of tmpfs, ext4, xfs and btrfs, what xstat
# says agrees with what chattr and lsattr find (helpers/kept.bash); the
# flags only xfs has, with xfs_io.  An overlay answers as its upper
# layer's type; sysfs keeps no user xattrs.
# bats file_tags=xstat,mount

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

MOUNT_TYPES=()
load '../helpers/mounts'

mounts_setup_more() {
	load '../helpers/kept'
}

# The state xstat prints for flag $2 of $1.
said='said() { xstat -c "%{$2}" "$1"; }
'

# kept_agree TYPE: every letter on TYPE: xstat's state against lsattr's.
kept_agree() {
	fs_require "$1"
	run -0 --separate-stderr fs_run "$1" "$KEPT_PROBE$said"'kept_table said'
	assert_equal "${#lines[@]}" 32
	assert_equal "$(kept_disagree "$output" clear unsupported)" ""
}

@test "tmpfs: sync, dax, projinherit, journal, notail, topdir... (chattr cannot keep them) read unsupported" {
	kept_agree tmpfs
	assert_line 'f sync dropped unsupported'
	assert_line 'f dax dropped unsupported'
	assert_line 'd projinherit dropped unsupported'
	assert_line 'f journal dropped unsupported'
	assert_line 'd topdir dropped unsupported'
	assert_line 'f noatime kept clear'
}

@test "ext4: a file does not keep dirsync, topdir, projinherit, nocow; a directory keeps the first three" {
	kept_agree ext4
	assert_line 'f dirsync dropped unsupported'
	assert_line 'd dirsync kept clear'
	assert_line 'f nocow dropped unsupported'
	assert_line 'f notail kept clear'
	assert_line 'f nocompress dropped unsupported'
}

@test "btrfs: nocow, compress, nocompress kept; journal, notail, dax are not; dirsync on directories only" {
	kept_agree btrfs
	assert_line 'f nocow kept clear'
	assert_line 'f dax dropped unsupported'
	assert_line 'f dirsync dropped unsupported'
	assert_line 'd dirsync kept clear'
}

@test "xfs: the FS_IOC_SETFLAGS-only flags read unsupported; dax and sync are kept" {
	kept_agree xfs
	assert_line 'f dax kept clear'
	assert_line 'f nocow dropped unsupported'
	assert_line 'd dirsync dropped unsupported'
	assert_line 'd projinherit kept clear'
	assert_line 'f projinherit dropped unsupported'
}

@test "xfs: the flags only xfs has: xfs_io lsattr -v keeps what xstat does not call unsupported" {
	fs_require xfs
	run -0 --separate-stderr fs_run xfs '
		cd "$D" || exit 1
		# our name, the xfs_io command that sets it, the word xfs_io lsattr -v shows
		set -- rtinherit "chattr +t" rt-inherit nosymlinks "chattr +n" nosymlinks \
			nodefrag "chattr +f" no-defrag filestream "chattr +S" filestream \
			extsize "extsize 64k" extsize extszinherit "extsize 64k" extsz-inherit \
			cowextsize "cowextsize 64k" cowextsize
		for kind in f d; do
			while (($#)); do
				o=$kind-$1
				if [[ $kind == f ]]; then : >"$o"; else mkdir "$o"; fi
				s=$(xstat -c "%{$1}" "$o")
				xfs_io -c "$2" "$o" 2>/dev/null
				[[ $(xfs_io -c "lsattr -v" "$o") == *"[$3"[],]* || $(xfs_io -c "lsattr -v" "$o") == *" $3"[],]* ]] &&
					v=kept || v=dropped
				echo "$kind $1 $v $s"
				shift 3
			done
			set -- rtinherit "chattr +t" rt-inherit nosymlinks "chattr +n" nosymlinks \
				nodefrag "chattr +f" no-defrag filestream "chattr +S" filestream \
				extsize "extsize 64k" extsize extszinherit "extsize 64k" extsz-inherit \
				cowextsize "cowextsize 64k" cowextsize
		done'
	assert_equal "$(kept_disagree "$output" clear unsupported)" ""
	assert_line 'f rtinherit dropped unsupported'
	assert_line 'f nosymlinks dropped unsupported'
	assert_line 'f extsize kept clear'
	assert_line 'd extsize dropped unsupported'
	assert_line 'd extszinherit kept clear'
	assert_line 'd rtinherit kept clear'
}

@test "tmpfs: the view lists sync, projinherit and dax as unsupported, --json says so too" {
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f || exit 1
		xstat f | grep -A1 "Kernel flags:"
		xstat --json f'
	assert_line --index 1 --regexp '^ +unsupported: .*\bsync\b.*\bprojinherit\b.*\bdax\b'
	assert_output --partial '"sync":"unsupported"'
	assert_output --partial '"dax":"unsupported"'
	assert_output --partial '"noatime":"clear"'
}

@test "overlay over tmpfs: sync, journal, realtime read unsupported, as on the tmpfs file itself and in setfattrs --list; chattr cannot keep sync there" {
	fs_require overlay
	run -0 --separate-stderr fs_run overlay '
		cd "$D" && touch f || exit 1
		chattr +S f 2>/dev/null; lsattr -d f | cut -c1-22
		xstat -c "%{sync} %{journal} %{realtime} %{dax} %{noatime}" f
		xstat -c "%{sync} %{journal} %{realtime} %{dax} %{noatime}" "$SD/f"
		setfattrs --list f | awk "\$1 == \"sync\" || \$1 == \"journal\" || \$1 == \"realtime\" { print \$4 }" | paste -sd" "'
	assert_line --index 0 '----------------------'
	assert_line --index 1 'unsupported unsupported unsupported unsupported clear'
	assert_line --index 2 'unsupported unsupported unsupported unsupported clear'
	assert_line --index 3 'unsupported unsupported unsupported'
}

@test "sysfs: the fattrs flags read unsupported, as the kernel refuses every user xattr there (getxattr says ENODATA, setxattr EOPNOTSUPP)" {
	require_cmd setfattr
	run -0 --separate-stderr xstat -c '%{offline} %{pinned} %{integrity} %{noscrub}' /sys/kernel
	assert_output 'unsupported unsupported unsupported unsupported'
	run -1 --separate-stderr setfattr -n user.fattr.offline -v 1 /sys/kernel
	[[ $stderr == *'Operation not supported'* ]] || fail "setfattr: $stderr"
}
