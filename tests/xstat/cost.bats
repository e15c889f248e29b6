#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What xstat asks of the kernel, from a full strace trace: one statx(2)
# per file asking for exactly the fields the format prints, nothing else
# (no /etc/passwd, no mount table, no libmount, no xattr) unless the
# format needs it, and user and group names looked up once per id.
# bats file_tags=xstat,strace

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	load '../helpers/fault'
	fault_require
	cd "$BATS_TEST_TMPDIR" || return
	touch a b c d e
	TRACE=$BATS_TEST_TMPDIR/trace
}

# trace_xstat ARG...: run xstat under strace -f into $TRACE (every call).
trace_xstat() {
	FAULT_NOTRACE= trace_run "$TRACE" xstat "$@" >/dev/null 2>&1
}

count() {
	grep -Ec -- "$1" "$TRACE" || :
}

@test "-c %s: one statx per file asking for STATX_SIZE only, and nothing else" {
	# AddressSanitizer's runtime itself reads /proc/self/exe (readlink) at start-up
	require_no_sanitizer "$(command -v xstat)" "the AddressSanitizer runtime makes system calls of its own"
	run -0 trace_xstat -c %s a b c d e
	assert_equal "$(count '^[0-9]+ +statx\(')" 5
	assert_equal "$(count '^[0-9]+ +statx\(AT_FDCWD, "[a-e]", AT_STATX_SYNC_AS_STAT\|AT_SYMLINK_NOFOLLOW, STATX_SIZE, ')" 5
	refute_trace "$TRACE" '/etc/passwd|/etc/group|nsswitch|mountinfo|libmount|xattr\(|readlink|chdir\(|getcwd|statfs\('
}

@test "-c %n: still one statx per file (errors must show), with an empty mask" {
	run -0 trace_xstat -c %n a b c
	assert_equal "$(count '^[0-9]+ +statx\(AT_FDCWD, "[a-c]", [^,]*, 0, ')" 3
	refute_trace "$TRACE" '/etc/passwd|/etc/group|mountinfo|libmount|xattr\('
}

@test "the mask is the union of the directives' fields" {
	run -0 trace_xstat -c '%i %h %.3Y %x %w %U' a
	assert_trace "$TRACE" 'statx\(AT_FDCWD, "a", [^,]*, STATX_NLINK\|STATX_UID\|STATX_ATIME\|STATX_MTIME\|STATX_INO\|STATX_BTIME, '
}

@test "%U and %G: /etc/passwd and /etc/group read once for five files of one owner" {
	run -0 trace_xstat -c '%U %G' a b c d e
	assert_equal "$(count 'open(at)?\(.*"/etc/passwd"')" 1
	assert_equal "$(count 'open(at)?\(.*"/etc/group"')" 1
}

@test "GNU's default output (the name stat) reads /etc/passwd once for many files, and no mount table" {
	mkdir bin && ln -s "$(command -v xstat)" bin/stat
	FAULT_NOTRACE= run -0 trace_run "$TRACE" bin/stat a b c d e
	assert_equal "$(count '^[0-9]+ +statx\(')" 5
	assert_equal "$(count 'open(at)?\(.*"/etc/passwd"')" 1
	refute_trace "$TRACE" 'mountinfo|libmount|xattr\(|syscall_0x1(cf|d[0-2])\('
}

# calls NAME TRACE: how many calls of NAME (strace 6.1 prints file_getattr as
# syscall_0x1d4, listxattrat as syscall_0x1d1, getxattrat as syscall_0x1d0:
# getxattrat-nofollow where its third argument is AT_SYMLINK_NOFOLLOW).
calls() {
	sed -E 's/^[0-9]+ +//; s/^syscall_0x1d4\(/file_getattr(/; s/^syscall_0x1d1\(/listxattrat(/
		s/^syscall_0x1d0\([^,]*, [^,]*, 0x100, /getxattrat-nofollow(/; s/^syscall_0x1d0\(/getxattrat(/' "$2" |
		grep -Ec "^$1\(" || :
}

@test "the default view: per file statx, file_getattr, listxattrat, and a getxattrat only for a user.fattr. name" {
	require_no_sanitizer "$(command -v xstat)" "the AddressSanitizer runtime makes system calls of its own"
	require_cmd setfattr
	touch f g h i j
	setfattr -n user.fattr.offline -v 1 c || skip "no user xattrs here"
	setfattr -n user.fattr.offline -v 1 h
	setfattr -n user.other -v 1 i
	# two runs, five more files in the second: the difference is what five files cost
	FAULT_NOTRACE= run -0 trace_run "$TRACE.5" xstat a b c d e
	FAULT_NOTRACE= run -0 trace_run "$TRACE.10" xstat a b c d e f g h i j
	local name d total=0
	for name in statx file_getattr listxattrat getxattrat-nofollow getxattrat; do
		d=$(($(calls "$name" "$TRACE.10") - $(calls "$name" "$TRACE.5")))
		case $name in
		statx | file_getattr | listxattrat) assert_equal "$name $d" "$name 5" ;;
		getxattrat-nofollow) assert_equal "$name $d" "$name 1" ;;	# h's user.fattr.offline only
		getxattrat) assert_equal "$name $d" "$name 0" ;;
		esac
	done
	# everything else but the output's writes: nothing per file
	total=$(($(grep -vc ' write(' "$TRACE.10") - $(grep -vc ' write(' "$TRACE.5")))
	assert_equal "calls for five files: $total" "calls for five files: 16"
	# the mount table once, the user and group names once
	TRACE=$TRACE.10
	assert_equal "$(count 'open(at)?\(.*"/proc/self/mountinfo"')" 1
	assert_equal "$(count 'open(at)?\(.*"/etc/passwd"')" 1
	# what the file system supports: asked once for the one mount, not per file
	(($(count 'statfs\("[a-j]"') <= 1))
	refute_trace "$TRACE" 'chdir\('
}

# The view on N files of MOUNT-ish types: how many file_getattr calls (and
# FS_IOC_GETFLAGS ioctls) the run made.  fs_run scripts call it.
flag_calls() {
	FAULT_NOTRACE= trace_run ../t xstat "$@" >../out || return
	echo "file_getattr $(grep -cE '^[0-9]+ +syscall_0x1d4\(' ../t) ioctl $(grep -cE '^[0-9]+ +ioctl\([0-9]+, FS_IOC_GETFLAGS' ../t)"
}

@test "the default view: a mount that refused kernel flags (ramfs) is asked once per file type, an overlay of it per file" {
	require_root "mount ramfs, tmpfs and overlayfs"
	require_no_sanitizer "$(command -v xstat)" "the AddressSanitizer runtime makes system calls of its own"
	load '../helpers/fs'
	fs_require ramfs
	FS_FUNCS=flag_calls run -0 --separate-stderr fs_run ramfs '
		cd "$D" && touch a b c d e && mkdir s t && mkfifo p q && mkdir lo up ov && touch lo/a lo/b lo/c || exit 1
		flag_calls a b c d e s t p q || exit 2
		cp ../out ../view
		mount -t tmpfs none up && mkdir up/u up/w || exit 3
		mount -t overlay ov -o lowerdir=lo,upperdir=up/u,workdir=up/w ov || exit 4
		flag_calls ov/a ov/b ov/c || exit 5
		grep -c "^    Kernel flags: unsupported: immutable append" ../view
		umount ov up'
	# a regular file, a directory, a fifo: one question each
	assert_line --index 0 'file_getattr 3 ioctl 0'
	# files of the lower layer (ramfs) through an overlay: each file's layer answers
	assert_line --index 1 'file_getattr 3 ioctl 0'
	# and the answer shown is the same for every file
	assert_line --index 2 9
}

@test "the default view on FUSE: a server with a row (sshfs) is asked once per file type, one without (bindfs) per file" {
	require_no_sanitizer "$(command -v xstat)" "the AddressSanitizer runtime makes system calls of its own"
	load '../helpers/fs'
	local fs
	for fs in sshfs bindfs; do
		fs_require "$fs"
		FS_FUNCS=flag_calls run -0 --separate-stderr fs_run "$fs" '
			cd "$D" && touch a b c d e || exit 1
			flag_calls a b c d e'
		case $fs in
		sshfs) assert_output 'file_getattr 1 ioctl 0' ;;
		bindfs) assert_output 'file_getattr 5 ioctl 0' ;;
		esac
	done
}

@test "the default view -a: the unique mount id costs one more statx per file" {
	require_no_sanitizer "$(command -v xstat)" "the AddressSanitizer runtime makes system calls of its own"
	FAULT_NOTRACE= run -0 trace_run "$TRACE" xstat -a a b c
	assert_equal "$(count '^[0-9]+ +statx\(AT_FDCWD, "[a-c]", [^,]*, [^,]*STATX_MNT_ID[|,]')" 3
	# strace 6.1 does not know STATX_MNT_ID_UNIQUE (0x4000) by name
	assert_equal "$(count '^[0-9]+ +statx\(AT_FDCWD, "[a-c]", [^,]*, (STATX_MNT_ID_UNIQUE|0x4000[ ,])')" 3
}

@test "%m walks up by directory descriptors: the working directory never changes, no mount table" {
	mkdir -p dir/sub
	run -0 trace_xstat -c %m a dir/sub /
	refute_trace "$TRACE" 'chdir\(|mountinfo|libmount'
	assert_equal "$(count '^[0-9]+ +newfstatat\([0-9]+, "\.\.", ')" "$(count '^[0-9]+ +newfstatat\([0-9]+, "\.\.", .*= 0$')"
	(($(count '^[0-9]+ +newfstatat\([0-9]+, "\.\.", ') >= 3)) || fail "no \"..\" stat'ed by descriptor"
}

@test "--cached=always and never: AT_STATX_DONT_SYNC and AT_STATX_FORCE_SYNC" {
	run -0 trace_xstat --cached=always -c %s a
	assert_trace "$TRACE" 'statx\(AT_FDCWD, "a", AT_STATX_DONT_SYNC\|AT_SYMLINK_NOFOLLOW, '
	run -0 trace_xstat --cached=never -c %s a
	assert_trace "$TRACE" 'statx\(AT_FDCWD, "a", AT_STATX_FORCE_SYNC\|AT_SYMLINK_NOFOLLOW, '
	run -0 trace_xstat --cached=default -L -c %s a
	assert_trace "$TRACE" 'statx\(AT_FDCWD, "a", AT_STATX_SYNC_AS_STAT, STATX_SIZE, '
}

@test "'-' is standard input: statx on descriptor 0 with AT_EMPTY_PATH" {
	FAULT_NOTRACE= trace_run "$TRACE" xstat -c %s - <a >/dev/null
	assert_trace "$TRACE" 'statx\(0, "", AT_STATX_SYNC_AS_STAT\|AT_EMPTY_PATH, STATX_SIZE, '
}

@test "--files0-from: the same calls as the names on the command line" {
	printf '%s\0' a b c >list
	run -0 trace_xstat -c '%n %s' --files0-from=list
	assert_equal "$(count '^[0-9]+ +statx\(AT_FDCWD, "[a-c]", [^,]*, STATX_SIZE, ')" 3
	run -0 xstat -c '%n %s' --files0-from=list
	assert_output $'a 0\nb 0\nc 0'
}

# A FUSE mount whose server is stopped (SIGSTOP): any request to it waits
# for ever.  The view of a file elsewhere reads the mount table but never
# asks anything of the other mounts in it.  timeout is a guard, not a timer.
# shellcheck disable=SC2016
DEAD_FUSE='
# ntfs-3g: the FUSE daemon stops; sshfs: the server (sshd and its
# sftp-server) stops answering, as a remote machine that went away
if [[ $FS_TYPE == sshfs ]]; then
	DEAD="$SSHD_PID $(_fs_descendants "$SSHD_PID" | tr "\n" " ")"
else
	DEAD=$FS_PID
fi
kill -STOP $DEAD || exit 2
trap "kill -CONT $DEAD" EXIT
# the mount is dead: statfs(2) on it does not come back
timeout -s KILL 3 stat -f -c %T "$MNT" >/dev/null 2>&1
[[ $? -eq 137 ]] || { echo "the FUSE mount still answers"; exit 3; }
cd "$LOCAL" || exit 2
timeout -s KILL 60 xstat -a local || exit 4
timeout -s KILL 60 xstat local >/dev/null || exit 5
timeout -s KILL 60 xstat -c "%{mount_point} %{fstype} %{offline}" local || exit 6
'

dead_mount() {
	load '../helpers/fs'
	fs_require "$1"
	LOCAL=$BATS_TEST_TMPDIR/local-dir
	mkdir "$LOCAL" && echo x >"$LOCAL/local"
	export LOCAL
	run -0 fs_run "$1" "$DEAD_FUSE"
	assert_line '  File: local'
	assert_line --regexp '^ +fattrs: '
}

@test "a dead FUSE mount (ntfs-3g stopped) elsewhere in the table does not hang the view of a local file" {
	dead_mount ntfs-3g
}

@test "a dead network mount (sshfs whose server stopped) elsewhere does not hang the view of a local file" {
	dead_mount sshfs
}

# The mount table is read when a mount field is first shown, and again
# when a file's mount id is not in it (mounted since): a long run sees the
# mounts made during it (at most 16 readings, once per id a reading lacked).
# Names come through a FIFO, so that mounts can appear between two files.
# shellcheck disable=SC2016
LATE_MOUNTS='
set -u
mkfifo list
strace -f -qq -o trace xstat --files0-from=list >out 2>err &
spid=$!
exec 3>list
# settle N: wait until xstat has read the table N times and waits for the next name
settle() {
	local i xpid
	for ((i = 0; i < 400; i++)); do
		xpid=$(awk "NR == 1 { print \$1 }" trace 2>/dev/null)
		if [[ -n $xpid && $(grep -c "open.*/proc/self/mountinfo" trace) -ge $1 &&
			$(cat /proc/"$xpid"/wchan 2>/dev/null) == *pipe_read ]]; then
			return 0
		fi
		sleep 0.05
	done
	echo "xstat did not settle" >&2
}
printf "a\0" >&3
settle 1
mkdir m1 m2 m3 && mount -t tmpfs fattrs-late1 m1 && mount -t tmpfs fattrs-late2 m2 || exit 2
touch m1/f m2/f
printf "m1/f\0b\0m2/f\0" >&3
settle 2
mount -t tmpfs fattrs-late3 m3 && touch m3/f || exit 2
printf "m3/f\0" >&3
exec 3>&-
wait "$spid"
rc=$?
umount m1 m2 m3
cat out
grep -c "open.*/proc/self/mountinfo" trace
exit $rc
'

@test "the mount table: read once, and again for each mount id not in it, in a long run too" {
	require_root "to mount in a private namespace"
	require_cmd strace
	require_no_sanitizer "$(command -v xstat)" "LeakSanitizer cannot run under strace (ptrace)"
	run -0 unshare -m --propagation private bash -c "$LATE_MOUNTS"
	# a, then m1/f: its mount is new, found on the second reading
	assert_line --regexp "^ +Mount: $BATS_TEST_TMPDIR/m1 \(tmpfs from fattrs-late1\), id [0-9]+\$"
	# m2/f: mounted at the same time as m1, so in the second reading too
	assert_line --regexp "^ +Mount: $BATS_TEST_TMPDIR/m2 \(tmpfs from fattrs-late2\), id [0-9]+\$"
	# m3/f: mounted after the second reading, found on a third
	assert_line --regexp "^ +Mount: $BATS_TEST_TMPDIR/m3 \(tmpfs from fattrs-late3\), id [0-9]+\$"
	refute_line --partial "not in this namespace's mount table"
	refute_line --partial 'did not settle'
	assert_equal "${lines[-1]}" 3
}
