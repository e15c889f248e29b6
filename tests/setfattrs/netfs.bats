#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# setfattrs and the flag modules on network and stacked filesystems:
# sshfs (no user xattrs through SFTP, no flags), bindfs (a FUSE
# passthrough: user xattrs go through, kernel flags do not) and overlayfs
# (flags of a lower file read through the overlay, and what copy-up keeps).
# Each result checked on the server side or the layers, with getfattr and
# lsattr where they can read it.
# bats file_tags=setfattrs,netfs

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/setfattrs.bash
load '../helpers/setfattrs'

# The STATE and SUPPORTED columns of `setfattrs --list FILE` for FLAG...
# (a function the scripts define, as they run inside the namespace).
# shellcheck disable=SC2034
_LISTED='
listed() { local f=$1; shift; for w in "$@"; do setfattrs --list "$f" | awk -v w="$w" "\$1 == w { print w, \$4, \$5 }"; done; }
'

# ---------------------------------------------------------------- sshfs

@test "sshfs: the fattrs flags read unsupported, and setting one is an error naming the filesystem; nothing reaches the server" {
	require_cmd getfattr
	fs_require sshfs
	run -1 --separate-stderr fs_run sshfs "$_LISTED"'
		cd "$D" && touch f && mkdir d || exit 2
		listed f offline pinned integrity noscrub
		listed d offline
		setfattrs --list --json f | grep "\"flag\":\"offline\""
		xstat -c "%{offline} %{pinned} %{integrity} %{noscrub} %{nodump} %{immutable}" f d
		xstat --json f | tr , "\n" | grep -E "^\"(offline|nodump)\":" | sort | paste -sd" "
		setfattrs +offline f; echo "rc=$?"
		setfattrs -pinned d; echo "rc=$?"
		getfattr --absolute-names -d -m - "$SD/f" "$SD/d" | grep = || echo "server: no xattr"
		exit 1'
	assert_equal "${lines[0]}" 'offline unsupported no'
	assert_equal "${lines[1]}" 'pinned unsupported no'
	assert_equal "${lines[2]}" 'integrity unsupported no'
	assert_equal "${lines[3]}" 'noscrub unsupported no'
	assert_equal "${lines[4]}" 'offline unsupported no'
	assert_line --index 5 --partial '"state":"unsupported","supported":"no"'
	# xstat says the same of both kinds
	assert_equal "${lines[6]}" 'unsupported unsupported unsupported unsupported unsupported unsupported'
	assert_equal "${lines[7]}" 'unsupported unsupported unsupported unsupported unsupported unsupported'
	assert_equal "${lines[8]}" '"nodump":"unsupported" "offline":"unsupported"'
	assert_equal "${lines[9]}" 'rc=1'
	assert_equal "${lines[10]}" 'rc=1'
	assert_equal "${lines[11]}" 'server: no xattr'
	assert_equal "${stderr_lines[0]}" "setfattrs: cannot set 'offline' on 'f': the fuse.sshfs filesystem has neither user xattrs nor a native attribute word"
	assert_equal "${stderr_lines[1]}" "setfattrs: cannot clear 'pinned' on 'd': the fuse.sshfs filesystem has neither user xattrs nor a native attribute word"
	assert_equal "${#stderr_lines[@]}" 2
}

@test "sshfs: kernel flags are refused clearly, through file_getattr and through the ioctls, and the other files are still done" {
	fs_require sshfs
	[[ -x $KFLAGS ]] || fail "no $KFLAGS: run make check"
	run -1 --separate-stderr fs_run sshfs "$_LISTED"'
		cd "$D" && touch f g && mkdir d || exit 2
		listed f nodump immutable
		setfattrs +nodump f d; echo "rc=$?"
		setfattrs -R -d d; echo "rc=$?"
		for mode in "" --ioctl; do
			"$KFLAGS" $mode get f; echo "rc=$?"
			"$KFLAGS" $mode change +nodump g; echo "rc=$?"
		done
		exit 1'
	assert_equal "${lines[0]}" 'nodump unsupported no'
	assert_equal "${lines[1]}" 'immutable unsupported no'
	assert_equal "${lines[2]}" 'rc=1'
	assert_equal "${lines[3]}" 'rc=1'
	# kflags change prints the library's answer: -EOPNOTSUPP, nodump (0x80) not in effect
	assert_equal "${lines[*]:4}" 'rc=1 r=-95 dropped=0x80,0x0,0x0,0x0 rc=1 rc=1 r=-95 dropped=0x80,0x0,0x0,0x0 rc=1'
	assert_equal "${stderr_lines[0]}" "setfattrs: cannot set 'nodump' on 'f': the fuse.sshfs filesystem keeps no attribute flags for a regular file"
	assert_equal "${stderr_lines[1]}" "setfattrs: cannot set 'nodump' on 'd': the fuse.sshfs filesystem keeps no attribute flags for a directory"
	assert_equal "${stderr_lines[2]}" "setfattrs: cannot clear 'nodump' on 'd': the fuse.sshfs filesystem keeps no attribute flags for a directory"
	# the library's own answer, both ways: "no flags here", not a hang or EINVAL
	assert_equal "${stderr_lines[3]}" "kflags: cannot get flags of 'f': Operation not supported"
	assert_equal "${stderr_lines[4]}" "kflags: cannot change flags of 'g': Operation not supported"
	assert_equal "${stderr_lines[5]}" "kflags: cannot get flags of 'f': Operation not supported"
	assert_equal "${stderr_lines[6]}" "kflags: cannot change flags of 'g': Operation not supported"
}

# ---------------------------------------------------------------- bindfs (FUSE passthrough)

@test "bindfs: the fattrs flags go through to the served directory; kernel flags are refused clearly both ways" {
	require_cmd getfattr
	fs_require bindfs
	[[ -x $KFLAGS ]] || fail "no $KFLAGS: run make check"
	run -1 --separate-stderr fs_run bindfs "$_LISTED"'
		cd "$D" && touch f g || exit 2
		setfattrs +offline,integrity f; echo "rc=$?"
		getfattr --absolute-names -d -m user.fattr. "$SD/f" | grep = | sort
		listed f offline pinned nodump
		setfattrs -offline +pinned f; echo "rc=$?"
		getfattr --absolute-names -d -m user.fattr. "$SD/f" | grep = | sort
		xstat -c "%{offline} %{pinned} %{integrity} %{noscrub} %{nodump}" f
		setfattrs +nodump f; echo "rc=$?"
		"$KFLAGS" get g; echo "rc=$?"
		"$KFLAGS" --ioctl change +nodump g; echo "rc=$?"
		exit 1'
	assert_equal "${lines[0]}" 'rc=0'
	assert_equal "${lines[1]}" 'user.fattr.integrity="1"'
	assert_equal "${lines[2]}" 'user.fattr.offline="1"'
	assert_equal "${lines[3]}" 'offline set yes'
	assert_equal "${lines[4]}" 'pinned clear yes'
	assert_equal "${lines[5]}" 'nodump unsupported no'
	assert_equal "${lines[6]}" 'rc=0'
	assert_equal "${lines[7]}" 'user.fattr.integrity="1"'
	assert_equal "${lines[8]}" 'user.fattr.pinned="1"'
	assert_equal "${lines[9]}" 'clear set set clear unsupported'
	assert_equal "${lines[*]:10}" 'rc=1 rc=1 r=-95 dropped=0x80,0x0,0x0,0x0 rc=1'
	assert_equal "${stderr_lines[0]}" "setfattrs: cannot set 'nodump' on 'f': the fuse filesystem keeps no attribute flags for a regular file"
	assert_equal "${stderr_lines[1]}" "kflags: cannot get flags of 'g': Operation not supported"
	assert_equal "${stderr_lines[2]}" "kflags: cannot change flags of 'g': Operation not supported"
}

# ---------------------------------------------------------------- overlayfs

# The lower layer, before the overlay is mounted: flags of each kind.
# shellcheck disable=SC2034
_OV_LOWER='
touch f g h i && mkdir d &&
setfattrs +nodump,offline f && setfattrs +noatime,pinned g && setfattrs +immutable,noscrub h &&
setfattrs +append,integrity i && setfattrs +nodump,noatime,offline d
'

# The kernel flags lsattr reads (letters, sorted) and the user.fattr names getfattr reads.
# shellcheck disable=SC2034
_OV_SEEN='
seen() { local f; for f; do printf "%s %s %s\n" "$f" "$(lsattr -d "$f" | cut -d" " -f1 | tr -d - | fold -w1 | LC_ALL=C sort | tr -d "\n")" "$(getfattr --absolute-names -d -m user.fattr. "$f" 2>/dev/null | sed -n "s/^user.fattr.\([a-z]*\)=.*/\1/p" | sort | paste -sd, -)"; done; }
'

@test "overlay: flags set on a lower file are read through the overlay, by setfattrs as by lsattr and getfattr" {
	require_cmd lsattr getfattr
	fs_require overlay
	FS_LOWER=$_OV_LOWER run -0 --separate-stderr fs_run overlay "$_LISTED$_OV_SEEN"'
		cd "$D" || exit 2
		seen f g h i d
		listed f nodump offline pinned
		listed h immutable noscrub
		listed i append integrity
		xstat -c "%n %{nodump} %{noatime} %{immutable} %{append} %{offline} %{pinned} %{integrity} %{noscrub}" f g h i d
		# nothing was copied up by reading
		ls -A "$SD" 2>/dev/null | wc -l'
	assert_equal "${lines[0]}" 'f d offline'
	assert_equal "${lines[1]}" 'g A pinned'
	assert_equal "${lines[2]}" 'h i noscrub'
	assert_equal "${lines[3]}" 'i a integrity'
	assert_equal "${lines[4]}" 'd Ad offline'
	assert_equal "${lines[5]}" 'nodump set yes'
	assert_equal "${lines[6]}" 'offline set yes'
	assert_equal "${lines[7]}" 'pinned clear yes'
	assert_equal "${lines[8]}" 'immutable set yes'
	assert_equal "${lines[9]}" 'noscrub set yes'
	assert_equal "${lines[10]}" 'append set yes'
	assert_equal "${lines[11]}" 'integrity set yes'
	assert_equal "${lines[12]}" 'f set clear clear clear set clear clear clear'
	assert_equal "${lines[13]}" 'g clear set clear clear clear set clear clear'
	assert_equal "${lines[14]}" 'h clear clear set clear clear clear clear set'
	assert_equal "${lines[15]}" 'i clear clear clear set clear clear set clear'
	assert_equal "${lines[16]}" 'd set set clear clear set clear clear clear'
	assert_equal "${lines[17]}" '0'
}

# What copy-up keeps is the kernel's choice (fs/overlayfs/copy_up.c): every
# user xattr, and of the flags only sync, noatime, append and immutable
# (append and immutable in trusted.overlay.protattr, not on the upper
# file); nodump is not copied.  setfattrs on a lower file copies it up
# itself and writes the whole word it read, so it keeps nodump.
@test "overlay: copy-up keeps user.fattr.*, noatime, append and immutable, drops nodump; setfattrs' own copy-up keeps nodump too" {
	require_cmd lsattr getfattr
	fs_require overlay
	FS_LOWER=$_OV_LOWER'touch j k && setfattrs +nodump,offline j k' run -0 --separate-stderr fs_run overlay "$_OV_SEEN"'
		cd "$D" || exit 2
		echo x >>f && echo x >>g && echo x >>i && touch d/new && touch -a h 2>/dev/null
		setfattrs -immutable h && echo x >>h && setfattrs +immutable h
		setfattrs +noatime j
		setfattrs -offline k
		seen f g h i d j k
		echo upper:
		cd "$SD" && seen f g i d j k'
	assert_equal "${lines[0]}" 'f  offline'
	assert_equal "${lines[1]}" 'g A pinned'
	assert_equal "${lines[2]}" 'h i noscrub'
	assert_equal "${lines[3]}" 'i a integrity'
	assert_equal "${lines[4]}" 'd A offline'
	assert_equal "${lines[5]}" 'j Ad offline'
	assert_equal "${lines[6]}" 'k d '
	assert_equal "${lines[7]}" 'upper:'
	# append and immutable are not on the upper file: overlayfs keeps them aside
	assert_equal "${lines[8]}" 'f  offline'
	assert_equal "${lines[9]}" 'g A pinned'
	assert_equal "${lines[10]}" 'i  integrity'
	assert_equal "${lines[11]}" 'd A offline'
	assert_equal "${lines[12]}" 'j Ad offline'
	assert_equal "${lines[13]}" 'k d '
}

# On ext4 layers sync is kept too (tmpfs has no sync to keep).
@test "overlay on ext4: copy-up keeps sync and noatime and drops nodump; setfattrs' copy-up puts nodump back" {
	require_cmd lsattr getfattr
	fs_require overlay-ext4
	FS_LOWER='touch f g && setfattrs +sync,noatime,nodump,offline f g' run -0 --separate-stderr fs_run overlay-ext4 "$_OV_SEEN"'
		cd "$D" || exit 2
		seen f g
		echo x >>f
		setfattrs +pinned -offline g
		seen f g
		cd "$SD" && seen f g'
	# e: ext4's extents (read-only)
	assert_equal "${lines[0]}" 'f ASde offline'
	assert_equal "${lines[1]}" 'g ASde offline'
	assert_equal "${lines[2]}" 'f ASe offline'
	assert_equal "${lines[3]}" 'g ASde pinned'
	assert_equal "${lines[4]}" 'f ASe offline'
	assert_equal "${lines[5]}" 'g ASde pinned'
}
