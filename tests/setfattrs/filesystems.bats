#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# setfattrs on the filesystems whose behaviour differs most (ntfs-3g's
# native attribute word, xfs flags on special files), as a user without
# privileges, and with concurrent writers; each result checked with a tool
# this project did not write (getfattr, lsattr, xfs_io).
# bats file_tags=setfattrs

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/setfattrs.bash
load '../helpers/setfattrs'

@test "ntfs-3g: +offline goes to system.ntfs_attrib, +pinned (dropped there) to user.fattr.pinned; kernel flags are refused" {
	require_cmd getfattr
	fs_require ntfs-3g
	run -0 --separate-stderr fs_run ntfs-3g '
		cd "$D" && touch f g || exit 1
		setfattrs +offline f; echo "rc=$?"
		getfattr --absolute-names -n system.ntfs_attrib -e hex f | grep =
		getfattr --absolute-names -d -m user.fattr. f | grep = || echo "no user.fattr"
		setfattrs +pinned f; echo "rc=$?"
		setfattrs -offline +pinned f; echo "rc=$?"
		getfattr --absolute-names -n system.ntfs_attrib -e hex f | grep =
		getfattr --absolute-names -d -m user.fattr. f | grep =
		setfattrs --list f | awk "\$1 == \"offline\" || \$1 == \"pinned\" { print \$1, \$4, \$5 }"
		setfattrs +nodump g; echo "rc=$?"
		# named as findmnt names it, and its server
		[[ $(findmnt -no FSTYPE -T .) == fuse ]] || echo "findmnt: not fuse"'
	assert_equal "${lines[0]}" 'rc=0'
	# OFFLINE 0x1000 (with ARCHIVE 0x20), little-endian.
	assert_equal "${lines[1]}" 'system.ntfs_attrib=0x20100000'
	assert_equal "${lines[2]}" 'no user.fattr'
	assert_equal "${lines[3]}" 'rc=1'
	assert_equal "${lines[4]}" 'rc=0'
	assert_equal "${lines[5]}" 'system.ntfs_attrib=0x20000000'
	assert_equal "${lines[6]}" 'user.fattr.pinned="1"'
	assert_equal "${lines[7]}" 'offline clear yes'
	assert_equal "${lines[8]}" 'pinned set yes'
	assert_equal "${lines[9]}" 'rc=1'
	refute_line 'findmnt: not fuse'
	assert_equal "$stderr" "setfattrs: cannot set 'pinned' on 'f': its opposite 'offline' is set; '-offline +pinned' clears it first
setfattrs: cannot set 'nodump' on 'g': the fuse (ntfs-3g) filesystem keeps no attribute flags for a regular file"
}

@test "xfs: -h changes a fifo's and a symlink's own kernel flags (xfs_io agrees); a fattrs flag is refused there" {
	require_cmd xfs_io
	fs_require xfs
	run -0 --separate-stderr fs_run xfs '
		cd "$D" && mkfifo p && touch f && ln -s f l || exit 1
		setfattrs -h +nodump p l; echo "rc=$?"
		xfs_io -c lsattr p 2>&1 | cut -c7
		setfattrs --list -h l | awk "\$1 == \"nodump\" { print \$1, \$4 }"
		lsattr f | cut -d" " -f1
		setfattrs -h -d p; echo "rc=$?"
		setfattrs -h +offline p; echo "rc=$?"'
	assert_equal "${lines[0]}" 'rc=0'
	assert_equal "${lines[1]}" 'd'
	assert_equal "${lines[2]}" 'nodump set'
	assert_equal "${lines[3]}" '----------------------'
	assert_equal "${lines[4]}" 'rc=0'
	assert_equal "${lines[5]}" 'rc=1'
	assert_equal "$stderr" "setfattrs: cannot set 'offline' on 'p': a fifo cannot carry it (the kernel keeps user xattrs on regular files and directories only)"
}

@test "as nobody: own files change; others' are refused by name; immutable names CAP_LINUX_IMMUTABLE" {
	require_root "switch to nobody"
	require_cmd setpriv lsattr getfattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && chmod 777 . && touch theirs && chmod 644 theirs || exit 1
		as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
		as_nobody touch mine
		as_nobody setfattrs +nodump,offline mine; echo "rc=$?"
		lsattr mine | cut -d" " -f1; getfattr --absolute-names -d -m user.fattr. mine | grep =
		as_nobody setfattrs +offline theirs; echo "rc=$?"
		as_nobody setfattrs +nodump theirs; echo "rc=$?"
		as_nobody setfattrs +i mine; echo "rc=$?"
		as_nobody setfattrs +a,noatime mine; echo "rc=$?"
		lsattr mine | cut -d" " -f1'
	assert_equal "${lines[0]}" 'rc=0'
	assert_equal "${lines[1]}" '------d---------------'
	assert_equal "${lines[2]}" 'user.fattr.offline="1"'
	assert_equal "${lines[3]}" 'rc=1'
	assert_equal "${lines[4]}" 'rc=1'
	assert_equal "${lines[5]}" 'rc=1'
	assert_equal "${lines[6]}" 'rc=1'
	assert_equal "${lines[7]}" '------d---------------'
	assert_equal "$stderr" "setfattrs: cannot set 'offline' on 'theirs': Permission denied
setfattrs: cannot set 'nodump' on 'theirs': Operation not permitted
setfattrs: cannot set 'immutable' on 'mine': Operation not permitted (changing it needs CAP_LINUX_IMMUTABLE)
setfattrs: cannot set 'append' on 'mine': Operation not permitted (changing it needs CAP_LINUX_IMMUTABLE)
setfattrs: cannot set 'noatime' on 'mine': Operation not permitted"
}

@test "as nobody, on an immutable file: not told to clear it with -i, which needs CAP_LINUX_IMMUTABLE, but whom to ask" {
	require_root "switch to nobody"
	require_cmd setpriv chattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && chmod 777 . && touch mine a && chown nobody mine a && chattr +i mine && chattr +a a || exit 1
		as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
		as_nobody setfattrs +offline mine; echo "rc=$?"
		as_nobody setfattrs -offline a; echo "rc=$?"
		setfattrs +offline mine; echo "rc=$?"
		chattr -i mine; chattr -a a'
	assert_equal "${lines[*]}" 'rc=1 rc=1 rc=1'
	assert_equal "$stderr" "setfattrs: cannot set 'offline' on 'mine': Operation not permitted (the file is immutable, and clearing that needs CAP_LINUX_IMMUTABLE, which this process lacks: ask an administrator to run 'setfattrs -i' on it)
setfattrs: cannot clear 'offline' on 'a': Operation not permitted (the file is append-only, and clearing that needs CAP_LINUX_IMMUTABLE, which this process lacks: ask an administrator to run 'setfattrs -a' on it)
setfattrs: cannot set 'offline' on 'mine': Operation not permitted (the file is immutable; '-i +offline' clears that first)"
}

@test "root without CAP_LINUX_IMMUTABLE: +i is refused with the capability named" {
	require_root
	require_cmd setpriv
	fs_require tmpfs
	run -1 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f && setpriv --inh-caps=-linux_immutable --bounding-set=-linux_immutable setfattrs +i f'
	assert_equal "$stderr" "setfattrs: cannot set 'immutable' on 'f': Operation not permitted (changing it needs CAP_LINUX_IMMUTABLE)"
}

@test "a kernel flag refused says why: the file is immutable (root too), journal needs CAP_SYS_RESOURCE (ext4), a flag or pair the filesystem refuses (btrfs nocow with compress, xfs realtime without a realtime device)" {
	require_root
	require_cmd setpriv lsattr
	fs_require ext4
	run -0 --separate-stderr fs_run ext4 '
		cd "$D" && touch f g && chattr +i f || exit 1
		setfattrs +d f; echo "rc=$?"
		setfattrs -i +d f; echo "rc=$?"
		echo "f $(lsattr -d f | cut -d" " -f1 | tr -d e-)"
		setpriv --inh-caps=-sys_resource --bounding-set=-sys_resource setfattrs +j g; echo "rc=$?"
		echo "g $(lsattr -d g | cut -d" " -f1 | tr -d e-)"'
	assert_equal "${lines[*]}" "rc=1 rc=0 f d rc=1 g "
	assert_equal "${stderr_lines[0]}" "setfattrs: cannot set 'nodump' on 'f': Operation not permitted (the file is immutable; '-i +nodump' clears that first)"
	assert_equal "${stderr_lines[1]}" "setfattrs: cannot set 'journal' on 'g': Operation not permitted (changing it needs CAP_SYS_RESOURCE)"
	assert_equal "${#stderr_lines[@]}" 2
	local fs
	for fs in btrfs xfs; do
		fs_require "$fs"
		run -0 --separate-stderr fs_run "$fs" '
			cd "$D" && touch f || exit 1
			if [[ $FS_TYPE == btrfs ]]; then setfattrs +C,c f; else setfattrs +realtime f; fi
			echo "rc=$?"'
		assert_equal "${lines[*]}" "rc=1"
		if [[ $fs == btrfs ]]; then
			stderr_has "setfattrs: cannot set 'nocow' on 'f': Invalid argument (the btrfs filesystem refuses it on this regular file, or with the other flags it has or is given)"
			stderr_has "setfattrs: cannot set 'compress' on 'f': Invalid argument (the btrfs filesystem refuses it on this regular file, or with the other flags it has or is given)"
		else
			assert_equal "$stderr" "setfattrs: cannot set 'realtime' on 'f': Invalid argument (the xfs filesystem refuses it on this regular file, or with the other flags it has or is given)"
		fi
	done
}

# Two processes, each toggling its own flag on one file many times, each
# checking after every set that its flag is there (getfattr/lsattr).
@test "ext4: two processes toggling offline and integrity (and nodump) on one file 300 times lose no update" {
	require_cmd getfattr lsattr
	fs_require ext4
	run -0 --separate-stderr fs_run ext4 '
		cd "$D" && touch f || exit 1
		toggle() {
			local flag=$1 lost=0 i
			for ((i = 0; i < 300; i++)); do
				setfattrs +$flag f || exit 9
				if [[ $flag == nodump ]]; then
					lsattr f | cut -c7 | grep -q d || lost=$((lost + 1))
				else
					getfattr --absolute-names -n user.fattr.$flag --only-values f >/dev/null 2>&1 || lost=$((lost + 1))
				fi
				setfattrs -$flag f || exit 9
			done
			setfattrs +$flag f
			echo "$flag lost $lost"
		}
		toggle offline >../a & toggle integrity >../b & toggle nodump >../c & wait
		cat ../a ../b ../c
		getfattr --absolute-names -d -m user.fattr. f | grep =; lsattr f | cut -d" " -f1'
	assert_equal "${lines[0]}" 'offline lost 0'
	assert_equal "${lines[1]}" 'integrity lost 0'
	assert_equal "${lines[2]}" 'nodump lost 0'
	assert_equal "${lines[3]}" 'user.fattr.integrity="1"'
	assert_equal "${lines[4]}" 'user.fattr.offline="1"'
	assert_equal "${lines[5]}" '------d-------e-------'
}
