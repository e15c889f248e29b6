#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/helpers/fs.bash itself, for the network and stacked types: each one
# mounts in the test's own namespace, is what it says it is, and leaves
# nothing behind (no mount, no process, no server directory) whatever the
# script did: failed, stopped its server, stopped its FUSE daemon.
# bats file_tags=helpers

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

setup_file() {
	load '../helpers/common'
	load '../helpers/fs'
	export BATS_NO_PARALLELIZE_WITHIN_FILE=true
	fs_prepare "${NET_FS_TYPES[@]}"
}

setup() {
	load '../helpers/common'
	load '../helpers/fs'
}

# Nothing of the test's mounts or processes outlived fs_run: no mount
# under $BATS_TEST_TMPDIR in this namespace, no process that has it, or
# the test's key directory, on its command line.
assert_all_gone() {
	local left
	if grep -F "$BATS_TEST_TMPDIR" /proc/self/mountinfo; then
		fail "a mount of the test is left in the host's table"
	fi
	# The patterns from a file, so that grep's own command line is not a match.
	printf '%s\n' "$BATS_TEST_TMPDIR" "$FS_DIR/ssh" >"$BATS_TEST_TMPDIR/gone.pat"
	left=$(grep -lasF -f "$BATS_TEST_TMPDIR/gone.pat" /proc/[0-9]*/cmdline || :)
	if [[ -n $left ]]; then
		for f in $left; do tr '\0' ' ' <"$f"; echo; done | fail "processes of the test are left"
	fi
	[[ ! -e $BATS_TEST_TMPDIR/srv ]] || fail "the server directory is left"
}

# TYPE FSTYPE: TYPE mounts as FSTYPE, a file written in $D is in $SD (or
# in the upper layer), and all is gone afterwards.
mounts_as() {
	local type=$1 fstype=$2
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		findmnt -n -o FSTYPE --mountpoint "$MNT"
		echo data >"$D/f"
		cat "$SD/f"
		echo "$SRV"'
	assert_equal "${lines[0]}" "$fstype"
	assert_equal "${lines[1]}" data
	assert_equal "$(fs_ls)" f
	assert_all_gone
}

# bats test_tags=mount
@test "sshfs: mounts a directory served by a private sshd on 127.0.0.1, then nothing is left" {
	mounts_as sshfs fuse.sshfs
	assert_equal "${lines[2]}" "$BATS_TEST_TMPDIR/srv"
}

# bats test_tags=mount
@test "sshfs: the server listens on 127.0.0.1 only, and takes only the test's key" {
	fs_require sshfs
	run -0 --separate-stderr fs_run sshfs '
		printf -v hex "%04X" "$SSHD_PORT"
		grep -hE "^ *[0-9]+: [0-9A-F]{8}:$hex [0-9A-F]{8}:0000 0A" /proc/net/tcp /proc/net/tcp6 |
			awk "{print \$2}"
		ssh -F /dev/null -p "$SSHD_PORT" -o BatchMode=yes -o IdentitiesOnly=yes \
			-o PubkeyAuthentication=no -o StrictHostKeyChecking=no -o LogLevel=ERROR \
			-o UserKnownHostsFile=/dev/null root@127.0.0.1 true 2>&1 || echo refused'
	# One listening socket on the port, and it is 127.0.0.1's; without the
	# test's key, no way in.
	[[ ${lines[0]} == 0100007F:* ]]
	assert_equal "${#lines[@]}" 3
	assert_line -n 1 --partial 'Permission denied (publickey)'
	assert_line -n 2 refused
}

# bats test_tags=mount
@test "sshfs-rename and sshfs-nocache: mount with their options" {
	fs_require sshfs-rename
	run -0 --separate-stderr fs_run sshfs-rename 'tr "\0" " " </proc/$FS_PID/cmdline'
	assert_output --partial 'workaround=rename'
	fs_require sshfs-nocache
	run -0 --separate-stderr fs_run sshfs-nocache 'tr "\0" " " </proc/$FS_PID/cmdline'
	assert_output --partial 'cache=no,dir_cache=no'
	assert_all_gone
}

# bats test_tags=mount
@test "sshfs: sshfs_mount makes a second client of the same server" {
	fs_require sshfs
	run -0 --separate-stderr fs_run sshfs '
		sshfs_mount "$BATS_TEST_TMPDIR/mnt2" || exit
		echo one >"$D/f"
		cat "$BATS_TEST_TMPDIR/mnt2/${D##*/}/f"'
	assert_output one
	assert_all_gone
}

# cat_after STEP: on sshfs, write $D/f, run STEP (sshd_stop or sftp_kill),
# then cat $D/f (20 s at most); prints what cat said and "cat: STATUS".
cat_after() {
	fs_run sshfs '
		echo x >"$D/f"
		'"$1"'
		timeout 20 cat "$D/f" 2>&1
		echo "cat: $?"'
}

# bats test_tags=mount
@test "sshfs: after sshd_stop the mount fails at once, and cleanup still unmounts" {
	fs_require sshfs
	run -0 --separate-stderr cat_after sshd_stop
	assert_line -n 1 'cat: 1'
	assert_all_gone
}

# bats test_tags=mount
@test "sshfs: sftp_kill kills the sftp-server, and the mount fails at once" {
	fs_require sshfs
	run -0 --separate-stderr cat_after sftp_kill
	assert_line -n 1 'cat: 1'
	assert_all_gone
}

# stopped_daemon_aborted TYPE CMD: with TYPE's FUSE daemon stopped, CMD on
# $D hangs (killed after 1 s), and cleanup still leaves nothing behind.
stopped_daemon_aborted() {
	fs_require "$1"
	run -0 --separate-stderr fs_run "$1" '
		fuse_stop
		timeout -s KILL 1 '"$2"' "$D" >/dev/null 2>&1
		echo "$?"'
	assert_output 137
	assert_all_gone
}

# bats test_tags=mount
@test "sshfs: a stopped FUSE daemon is aborted by cleanup, not waited for" {
	stopped_daemon_aborted sshfs stat
}

# bats test_tags=mount
@test "bindfs: mounts a passthrough of a plain directory, then nothing is left" {
	mounts_as bindfs fuse
}

# bats test_tags=mount
@test "bindfs: a stopped daemon is aborted by cleanup, not waited for" {
	stopped_daemon_aborted bindfs ls
}

# A file unlinked while open is renamed .fuse_hidden* by libfuse, and
# removed when the daemon handles its RELEASE, which the kernel sends in
# the background after the last close.  The daemon is slowed down here
# (strace delays its system calls): a plain ls of the server just after the
# close still sees the hidden name; srv_ls, and the listing fs_ls shows,
# wait for the daemon (fuse_settle), and see what was really left.
# bats test_tags=mount
@test "bindfs: srv_ls and fs_ls wait for the FUSE daemon: a file closed after its unlink is not shown" {
	require_cmd strace
	fs_require bindfs
	run -0 --separate-stderr fs_run bindfs '
		echo x >"$D/f"
		echo y >"$D/kept"
		exec 3<"$D/f"
		rm "$D/f"
		strace -qq -f -o /dev/null -e inject=close,unlink,unlinkat:delay_enter=300000 \
			$(printf -- "-p %s " $(ls /proc/$FS_PID/task)) 3<&- &
		sp=$!
		for ((i = 0; i < 500; i++)); do
			grep -q "^TracerPid:[[:space:]]*[1-9]" /proc/$FS_PID/status && break
			sleep 0.01
		done
		exec 3<&-
		echo "ls: $(ls -A "$SD" | sed "s/^\.fuse_hidden.*/HIDDEN/" | tr "\n" " ")"
		echo "srv_ls: $(srv_ls | tr "\n" " ")"
		exec 3<"$D/kept"
		rm "$D/kept"
		exec 3<&-
		kill $sp; wait $sp || :'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'ls: HIDDEN kept ' 'srv_ls: kept ')"
	assert_equal "$(fs_ls)" ""
	assert_all_gone
}

# bats test_tags=mount
@test "overlay: mounts over tmpfs layers, writes go to the upper layer" {
	mounts_as overlay overlay
}

# bats test_tags=mount
@test "overlay-ext4: mounts over layers on an ext4 image, and frees its loop device" {
	mounts_as overlay-ext4 overlay
	run -0 losetup -j "$FS_DIR/overlay-ext4.img"
	assert_output ''
}

# bats test_tags=mount
@test "overlay: FS_LOWER fills the lower layer first; a write copies the file up" {
	fs_require overlay
	FS_LOWER='echo low >f; setfattr -n user.k -v v f' run -0 --separate-stderr fs_run overlay '
		[[ ! -e $SD/f ]] && echo "not up yet"
		echo more >>"$D/f"
		cat "$SD/f"
		getfattr --only-values -n user.k "$SD/f"; echo'
	assert_equal "$output" "$(printf 'not up yet\nlow\nmore\nv')"
	assert_all_gone
}

# bats test_tags=mount
@test "a failing script fails fs_run with its status, and cleanup still runs" {
	local type
	for type in sshfs bindfs overlay; do
		fs_require "$type"
		run -3 --separate-stderr fs_run "$type" 'touch "$D/f"; exit 3'
		assert_equal "$(fs_ls)" f
		assert_all_gone
	done
}

# bats test_tags=mount
@test "FS_FUNCS: the test's functions named there are defined for SCRIPT and FS_LOWER, no others; a name that is no function, or one of fs_run's, is refused" {
	fs_require overlay
	greet() { echo "hello $1"; }
	twice() { greet "$1"; greet "$1"; }
	unlisted() { echo "unlisted"; }
	FS_FUNCS='greet twice' FS_LOWER='greet lower >f' run -0 --separate-stderr fs_run overlay '
		cat "$D/f"
		twice "$FS_TYPE"
		declare -F unlisted || echo "no unlisted"'
	assert_equal "$stderr" ""
	assert_equal "$output" "$(printf 'hello lower\nhello overlay\nhello overlay\nno unlisted')"
	assert_all_gone
	FS_FUNCS='greet nosuch' run -125 --separate-stderr fs_run overlay 'greet x'
	assert_equal "$stderr" "fs_run: FS_FUNCS: nosuch is not a shell function"
	assert_equal "$output" ""
	srv_ls() { echo "not fs_run's"; }
	FS_FUNCS=srv_ls run -125 --separate-stderr fs_run overlay 'srv_ls'
	assert_equal "$stderr" "fs_run: FS_FUNCS: srv_ls is one of fs_run's own functions"
	assert_all_gone
}
