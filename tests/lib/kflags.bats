#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel flag module (src/lib/flags/kflags.c, kattr.c and ktarget.c) on
# real filesystems: the unit test binary runs on each, told which it is
# (FATTRS_TEST_FS) so that it checks what that filesystem keeps; lsattr/chattr
# agree with it on ext4; strace shows the system calls of one change.
# bats file_tags=lib

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/mounts.bash (every FS_TYPES image)
load '../helpers/mounts'

mounts_setup_more() {
	KFLAGS=$FATTRS_BUILDDIR/tests/unit/kflags
	export KFLAGS
	[[ -x $KFLAGS ]] || fail "no $KFLAGS: run make check"
}

# The unit test binary on TYPE: exit 0, a plan, no "not ok", no bail out,
# and nothing left in the directory.
unit_on() {
	local type=$1
	fs_require "$type"
	run fs_run "$type" 'TMPDIR=$D FATTRS_TEST_FS=$FS_TYPE "$KFLAGS"'
	assert_success
	assert_line --regexp '^1\.\.[1-9][0-9]*$'
	assert_line --regexp "^# filesystem: $type; file_getattr\\(2\\): "
	refute_line --regexp '^not ok'
	refute_line --partial 'Bail out!'
	assert_equal "$(fs_ls)" ""
}

@test "the unit tests pass on tmpfs" {
	unit_on tmpfs
}

@test "the unit tests pass on ramfs (no flags at all)" {
	unit_on ramfs
}

@test "the unit tests pass on ext4" {
	unit_on ext4
}

@test "the unit tests pass on xfs" {
	unit_on xfs
}

@test "the unit tests pass on btrfs" {
	unit_on btrfs
}

@test "the unit tests pass on ntfs-3g (FUSE answers EINVAL)" {
	unit_on ntfs-3g
}

# The letters of `lsattr -d FILE`, and of `kflags get FILE`, sorted.
# shellcheck disable=SC2034
_KF_LETTERS='
lsattr_letters() { lsattr -d "$1" | cut -d" " -f1 | tr -d - | fold -w1 | LC_ALL=C sort | tr -d "\n"; echo; }
kflags_letters() { "$KFLAGS" $2 get "$1" | sed -n "s/.* letters=//p" | fold -w1 | LC_ALL=C sort | tr -d "\n"; echo; }
'

@test "ext4: lsattr sees what the module set, and the module sees what chattr set" {
	require_cmd lsattr chattr
	fs_require ext4
	run -0 --separate-stderr fs_run ext4 "$_KF_LETTERS"'
		cd "$D" && touch f g h && mkdir d
		for mode in "" --ioctl; do
			"$KFLAGS" $mode change +nodump +noatime +sync +secrm +undelete f >/dev/null
			echo "f $(lsattr_letters f) $(kflags_letters f "$mode")"
			"$KFLAGS" $mode change +dirsync +topdir +projinherit d >/dev/null
			echo "d $(lsattr_letters d) $(kflags_letters d "$mode")"
			chattr +d +A +c g
			echo "g $(lsattr_letters g) $(kflags_letters g "$mode")"
			chattr +S +d h
			"$KFLAGS" $mode change -sync -nodump h >/dev/null
			echo "h $(lsattr_letters h) $(kflags_letters h "$mode")"
			chattr -d -A -c -s -u -S f g && chattr -D -T -P d
		done'
	# Each line: name, lsattr's letters, the module's letters (sorted).
	for i in 0 4; do
		assert_equal "${lines[i]}" "f ASdesu ASdesu"
		assert_equal "${lines[i + 1]}" "d DPTe DPTe"
		assert_equal "${lines[i + 2]}" "g Acde Acde"
		assert_equal "${lines[i + 3]}" "h e e"
	done
	assert_equal "${#lines[@]}" 8
}

# The lines of TRACE (strace of one kflags run) that touch the file or
# its flags: file_getattr/file_setattr (strace 6.1 does not know their
# names: syscall_0x1d4/0x1d5), stat, open and ioctl calls.
flag_calls() {
	grep -E '(^|[^a-z_])(file_getattr|syscall_0x1d4|file_setattr|syscall_0x1d5|stat|statx|fstatat|newfstatat|open|openat|ioctl)\(' "$1" |
		grep -vE '"/(etc|lib|usr|proc|sys)/|newfstatat\([0-9]+, ""' |
		sed -E 's/^[0-9]+ +//; s/syscall_0x1d4/file_getattr/; s/syscall_0x1d5/file_setattr/; s/\(.*//'
}

@test "+nodump pins the file (O_PATH), then file_getattr, file_setattr, file_getattr on it; a no-op reads once" {
	fault_require
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f &&
		trace_run "$BATS_TEST_TMPDIR/set" "$KFLAGS" change +nodump f &&
		trace_run "$BATS_TEST_TMPDIR/noop" "$KFLAGS" change +nodump f &&
		"$KFLAGS" get f'
	assert_equal "${lines[0]}" "r=1 dropped=0x0,0x0,0x0,0x0"
	assert_equal "${lines[1]}" "r=0 dropped=0x0,0x0,0x0,0x0"
	assert_equal "${lines[2]}" "xflags=0x00000080 iflags=0x00000040 via=file_getattr letters=d"
	assert_equal "$(flag_calls "$BATS_TEST_TMPDIR/set" | tr '\n' ' ')" \
		"openat file_getattr file_setattr file_getattr "
	assert_equal "$(flag_calls "$BATS_TEST_TMPDIR/noop" | tr '\n' ' ')" "openat file_getattr "
	# The only open of the file is O_PATH: the writes go through that
	# descriptor (its /proc/self/fd link), never through the name again.
	assert_trace "$BATS_TEST_TMPDIR/set" 'openat\(AT_FDCWD, "f", O_RDONLY\|O_CLOEXEC\|O_PATH\) = [0-9]+$'
	refute_trace "$BATS_TEST_TMPDIR/set" 'open(at)?\([^)]*"f", O_RDONLY\|O_NOCTTY'
}

@test "the ioctl path: the file pinned (O_PATH), identified, reopened through /proc, then the ioctls" {
	fault_require
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f &&
		trace_run "$BATS_TEST_TMPDIR/set" "$KFLAGS" --ioctl change +nodump f &&
		"$KFLAGS" --ioctl get f'
	assert_equal "${lines[0]}" "r=1 dropped=0x0,0x0,0x0,0x0"
	assert_equal "${lines[1]}" "xflags=0x00000080 iflags=0x00000040 via=ioctl letters=d"
	assert_equal "$(flag_calls "$BATS_TEST_TMPDIR/set" | tr '\n' ' ')" \
		"openat ioctl ioctl ioctl "
	local pfd
	pfd=$(sed -nE 's/.*openat\(AT_FDCWD, "f", O_RDONLY\|O_CLOEXEC\|O_PATH\) = ([0-9]+)$/\1/p' "$BATS_TEST_TMPDIR/set")
	[[ -n $pfd ]] || fail "no O_PATH open of f"
	assert_trace "$BATS_TEST_TMPDIR/set" "newfstatat\\($pfd, \"\", \\{st_mode=S_IFREG\\|0644, .*AT_EMPTY_PATH\\) = 0\$"
	assert_trace "$BATS_TEST_TMPDIR/set" "openat\\(AT_FDCWD, \"/proc/self/fd/$pfd\", O_RDONLY\\|O_NOCTTY\\|O_NONBLOCK\\|O_CLOEXEC\\) = [0-9]+\$"
	# What the name leads to is never opened for real: only the pinned descriptor is reopened.
	refute_trace "$BATS_TEST_TMPDIR/set" 'openat\(AT_FDCWD, "f", O_RDONLY\|O_NOCTTY'

	assert_trace "$BATS_TEST_TMPDIR/set" 'ioctl\([0-9]+, FS_IOC_FSSETXATTR, \{fsx_xflags=FS_XFLAG_NODUMP,'
}

# valgrind 3.19 answers ENOSYS to file_getattr(2): the fallback the
# library finds by itself, and no memory errors or leaks on any path.
@test "the unit tests pass under valgrind (where file_getattr is ENOSYS)" {
	require_cmd valgrind
	require_no_sanitizer "$KFLAGS"
	run env TMPDIR="$BATS_TEST_TMPDIR" valgrind -q --error-exitcode=9 --leak-check=full \
		--errors-for-leak-kinds=all "$KFLAGS"
	assert_success
	assert_line --regexp '^1\.\.[1-9][0-9]*$'
	refute_line --regexp '^not ok'
	refute_line --regexp '^==[0-9]+=='
}

# The same on ext4, told which it is: its per-filesystem cases write the
# iflags word (FS_IOC_SETFLAGS, whose number says long for an int).
@test "the unit tests are clean under valgrind on ext4 (FS_IOC_SETFLAGS writes)" {
	require_cmd valgrind
	require_no_sanitizer "$KFLAGS"
	fs_require ext4
	run fs_run ext4 'TMPDIR=$D FATTRS_TEST_FS=$FS_TYPE valgrind -q --error-exitcode=9 \
		--leak-check=full --errors-for-leak-kinds=all "$KFLAGS"'
	assert_success
	assert_line --regexp '^1\.\.[1-9][0-9]*$'
	assert_line --regexp '^ok [0-9]+ - ext4 (syscall|ioctl): secrm sets and clears on a file'
	refute_line --regexp '^not ok'
	refute_line --regexp '^==[0-9]+=='
}

@test "a fifo and a device are never opened, on the ioctl path either" {
	fault_require
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && mkfifo p && mknod null c 1 3 &&
		for f in p null; do
			trace_run "$BATS_TEST_TMPDIR/$f" "$KFLAGS" --ioctl change +nodump $f
			trace_run "$BATS_TEST_TMPDIR/$f.get" "$KFLAGS" --ioctl get $f
			echo "$f $?"
		done'
	assert_equal "${lines[0]}" "r=-95 dropped=0x80,0x0,0x0,0x0"
	assert_equal "${lines[1]}" "p 1"
	assert_equal "${lines[2]}" "r=-95 dropped=0x80,0x0,0x0,0x0"
	assert_equal "${lines[3]}" "null 1"
	for f in p p.get null null.get; do
		# Pinned with O_PATH (no open of the fifo or device itself), identified, left alone.
		refute_trace "$BATS_TEST_TMPDIR/$f" 'open(at)?\([^)]*"(p|null)", O_(RDONLY|WRONLY|RDWR)(\|O_(NOCTTY|NONBLOCK|CLOEXEC|LARGEFILE))*\)'
		refute_trace "$BATS_TEST_TMPDIR/$f" 'open(at)?\([^)]*"/proc/self/fd/'
		refute_trace "$BATS_TEST_TMPDIR/$f" 'ioctl\('
		assert_trace "$BATS_TEST_TMPDIR/$f" 'openat\(AT_FDCWD, "(p|null)", O_RDONLY\|O_CLOEXEC\|O_PATH\) = [0-9]+$'
		assert_trace "$BATS_TEST_TMPDIR/$f" 'newfstatat\([0-9]+, "", \{st_mode=S_IF(IFO|CHR)'
	done
}

@test "without CAP_LINUX_IMMUTABLE: +immutable is EPERM (not 'not supported'), +nodump still works" {
	require_cmd setpriv
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f &&
		nocap() { setpriv --inh-caps=-linux_immutable --bounding-set=-linux_immutable "$@"; }
		nocap "$KFLAGS" change +immutable +nodump f; echo "status $?"
		nocap "$KFLAGS" change +nodump f; echo "status $?"
		"$KFLAGS" get f'
	assert_equal "${lines[0]}" "r=-1 dropped=0x0,0x0,0x0,0x0"
	assert_equal "${lines[1]}" "status 1"
	assert_equal "${lines[2]}" "r=1 dropped=0x0,0x0,0x0,0x0"
	assert_equal "${lines[3]}" "status 0"
	assert_equal "${lines[4]}" "xflags=0x00000080 iflags=0x00000040 via=file_getattr letters=d"
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	assert_equal "$stderr" "kflags: cannot change flags of 'f': Operation not permitted"
}
