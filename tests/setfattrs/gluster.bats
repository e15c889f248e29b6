#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# setfattrs on GlusterFS, through two clients of one volume (two machines,
# as far as the volume can tell), and on rclone's mount of its own WebDAV
# server (tests/helpers/netfs.bash): the fattrs flags are user xattrs that
# reach the brick, two writers on two clients lose nothing of each other's
# flags and never leave both of an opposite pair set, kernel flags are a
# clear "not supported"; on the WebDAV mount, whose server answers every
# xattr call with EIO, the fattrs flags read unsupported and setting one
# says why.
# bats file_tags=setfattrs,netfs,gluster

# Scripts for netfs_run are single-quoted: they expand inside the namespaces.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

setup_file() {
	load '../helpers/common'
	load '../helpers/netfs'
	netfs_setup_file gluster webdav
}

teardown_file() {
	load '../helpers/netfs'
	netfs_teardown_file
}

setup() {
	load '../helpers/common'
	load '../helpers/netfs'
	load '../helpers/fault'
}

# The user.fattr.* xattrs of FILE on the brick, "none" if it has none.
# shellcheck disable=SC2034
_ON_BRICK='
on_brick() { getfattr --absolute-names -d -m "^user\.fattr\." "$1" 2>/dev/null | grep = | sort | paste -sd" " | grep . || echo none; }
'

@test "gluster: the four fattrs flags are user xattrs on the brick, read through the other client" {
	require_cmd getfattr
	netfs_require gluster
	run -0 --separate-stderr netfs_run "$_ON_BRICK"'
		echo x >"$DA/f" && mkdir "$DA/d" || exit 2
		setfattrs +offline,integrity "$DA/f" && setfattrs =noscrub "$DA/d" || exit 3
		on_brick "$DBRICK/f"; on_brick "$DBRICK/d"
		xstat -c "%{offline} %{pinned} %{integrity} %{noscrub}" "$DB/f" "$DB/d"
		setfattrs -offline,integrity +pinned "$DB/f" || exit 4
		on_brick "$DBRICK/f"
		xstat -c "%{offline} %{pinned} %{integrity} %{noscrub}" "$DA/f"
		setfattrs --list "$DB/f" | awk "\$1 ~ /^(offline|pinned|integrity|noscrub)\$/ { print \$1, \$4, \$5 }"'
	assert_output "$(printf '%s\n' \
		'user.fattr.integrity="1" user.fattr.offline="1"' 'user.fattr.noscrub="1"' \
		'set clear set clear' 'clear clear clear set' 'user.fattr.pinned="1"' 'clear set clear clear' \
		'offline clear yes' 'pinned set yes' 'integrity clear yes' 'noscrub clear yes')"
}

@test "gluster: a kernel flag is a clear 'not supported' (the client answers ENOTTY)" {
	netfs_require gluster
	run -0 --separate-stderr netfs_run '
		cd "$DA" && echo x >f && mkdir d || exit 2
		for op in +nodump +immutable -append =A; do setfattrs "$op" f; echo "rc=$?"; done
		setfattrs +nodump d; echo "rc=$?"
		setfattrs --list f | awk "\$1 == \"nodump\" { print \$1, \$4, \$5 }"'
	assert_output "$(printf '%s\n' rc=1 rc=1 rc=1 rc=1 rc=1 'nodump unsupported no')"
	assert_equal "$(printf '%s\n' "$stderr" | sort -u)" \
		"$(printf '%s\n' \
		"setfattrs: cannot clear 'append' on 'f': the fuse.glusterfs filesystem keeps no attribute flags for a regular file" \
		"setfattrs: cannot set 'immutable' on 'f': the fuse.glusterfs filesystem keeps no attribute flags for a regular file" \
		"setfattrs: cannot set 'noatime' on 'f': the fuse.glusterfs filesystem keeps no attribute flags for a regular file" \
		"setfattrs: cannot set 'nodump' on 'd': the fuse.glusterfs filesystem keeps no attribute flags for a directory" \
		"setfattrs: cannot set 'nodump' on 'f': the fuse.glusterfs filesystem keeps no attribute flags for a regular file")"
}

# Two writers, one on each client, each toggling its own flag 500 times
# (from set: -, +, ..., ending set) on one file: neither loses the other's
# flag, nor a change of its own.
@test "gluster: two clients toggling different flags on one file 500 times each lose nothing" {
	require_cmd getfattr
	netfs_require gluster
	run -0 --separate-stderr netfs_run "$_ON_BRICK"'
		toggle() {
			local f=$1 flag=$2 i fails=0
			for ((i = 1; i <= 500; i++)); do
				if ((i % 2)); then setfattrs "-$flag" "$f"; else setfattrs "+$flag" "$f"; fi || fails=$((fails + 1))
			done
			echo "$flag: $fails failed"
		}
		echo x >"$RA/f" && setfattrs +offline,integrity "$RA/f" || exit 2
		toggle "$RA/f" offline >"$BATS_TEST_TMPDIR/a" 2>&1 &
		toggle "$RB/f" integrity >"$BATS_TEST_TMPDIR/b" 2>&1
		wait $!
		cat "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
		heal_wait 30 || exit 3
		on_brick "$RBRICK1/f"; on_brick "$RBRICK2/f"'
	assert_output "$(printf '%s\n' 'offline: 0 failed' 'integrity: 0 failed' \
		'user.fattr.integrity="1" user.fattr.offline="1"' \
		'user.fattr.integrity="1" user.fattr.offline="1"')"
}

# +offline on client A and +pinned on client B at once, 40 rounds: each
# round ends with at most one of them set (setfattrs clears, or refuses,
# the opposite), and the bricks agree.
@test "gluster: opposites set at once from both clients never both end set" {
	require_cmd getfattr
	netfs_require gluster
	run -0 --separate-stderr netfs_run "$_ON_BRICK"'
		echo x >"$RA/f" || exit 2
		both=0 one=0 none=0
		for ((i = 0; i < 40; i++)); do
			setfattrs -offline,pinned "$RA/f" || exit 3
			setfattrs +offline "$RA/f" 2>/dev/null & a=$!
			setfattrs +pinned "$RB/f" 2>/dev/null & b=$!
			wait $a $b
			case $(on_brick "$RBRICK1/f") in
			*offline*pinned*) both=$((both + 1)) ;;
			*offline* | *pinned*) one=$((one + 1)) ;;
			*) none=$((none + 1)) ;;
			esac
		done
		echo "both $both"
		[[ $(on_brick "$RBRICK1/f") == "$(on_brick "$RBRICK2/f")" ]] && echo bricks agree'
	assert_output "$(printf '%s\n' 'both 0' 'bricks agree')"
}

@test "webdav: every fattrs flag reads unsupported, and setting one fails naming the filesystem" {
	netfs_require webdav
	run -0 --separate-stderr netfs_run '
		cd "$DV" && echo x >f && mkdir d || exit 2
		setfattrs --list f | awk "\$1 ~ /^(offline|pinned|integrity|noscrub)\$/ { print \$1, \$4, \$5 }"
		setfattrs +offline f; echo "rc=$?"
		setfattrs -pinned d; echo "rc=$?"
		setfattrs +nodump f; echo "rc=$?"'
	assert_output "$(printf '%s\n' 'offline unsupported no' 'pinned unsupported no' \
		'integrity unsupported no' 'noscrub unsupported no' rc=1 rc=1 rc=1)"
	assert_equal "$stderr" "$(printf '%s\n' \
		"setfattrs: cannot set 'offline' on 'f': the fuse.rclone filesystem has neither user xattrs nor a native attribute word" \
		"setfattrs: cannot clear 'pinned' on 'd': the fuse.rclone filesystem has neither user xattrs nor a native attribute word" \
		"setfattrs: cannot set 'nodump' on 'f': the fuse.rclone filesystem keeps no attribute flags for a regular file")"
}

# What a GlusterFS client answers a call by the name of a file another
# client has just replaced, until its entry cache expires: ESTALE.
# Injected here, on a local file, into the first getxattr and setxattr
# (the path calls, under $NOSYS: strace 6.1 cannot inject into *xattrat):
# each is asked once more; a second ESTALE is an error, not a loop.
@test "an xattr call answered ESTALE is asked once more, as the kernel does for NFS" {
	fault_require
	nosys_require
	require_cmd getfattr
	cd "$BATS_TEST_TMPDIR" && echo x >f || return 1
	xattr_estale() {
		ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o "$BATS_TEST_TMPDIR/estale.trace" \
			-e trace=getxattr,setxattr -e "inject=getxattr,setxattr:error=ESTALE:when=$1" -- \
			"$NOSYS" xattrat "${@:2}"
	}
	run -0 --separate-stderr xattr_estale 1 setfattrs +offline f
	assert_equal "$(getfattr --only-values -n user.fattr.offline f)" 1
	assert_equal "$(grep -c 'ESTALE' "$BATS_TEST_TMPDIR/estale.trace")" 2
	run -1 --separate-stderr xattr_estale 1+ setfattrs +integrity f
	assert_equal "$stderr" "setfattrs: cannot set 'integrity' on 'f': Stale file handle"
	assert_equal "$(grep -c 'ESTALE' "$BATS_TEST_TMPDIR/estale.trace")" 2
}
