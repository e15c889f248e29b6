#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# src/lib/flags/fflags.c and the files beside it on real filesystems: the
# unit test (tests/unit/fflags.c) run on each, with FATTRS_TEST_FS saying
# what that filesystem must answer; then cross-checks with getfattr/setfattr,
# and strace for the system calls a change costs.  Each filesystem is
# mounted per test in a private mount namespace (tests/helpers/fs.bash).
# bats file_tags=lib

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/mounts.bash (every FS_TYPES image)
load '../helpers/mounts'

mounts_setup_more() {
	FFLAGS=$FATTRS_BUILDDIR/tests/unit/fflags
	export FFLAGS
	[[ -x $FFLAGS ]] || fail "$FFLAGS is not built (make check builds it)"
}

# The TAP in $output passed: a plan, as many "ok" lines, no "not ok", and
# exit status 0.  Otherwise fail, showing all of it.
assert_tap_passed() {
	local plan n_ok
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' <<<"$output")
	n_ok=$(grep -c '^ok ' <<<"$output")
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	if [[ $status -ne 0 || -z $plan || $n_ok -ne $plan ]] || grep -q '^not ok' <<<"$output"; then
		{
			echo "-- the unit test failed: status $status, plan ${plan:-none}, $n_ok ok --"
			printf '%s\n' "$output"
			echo "-- stderr --"
			printf '%s\n' "$stderr"
		} | fail
	fi
}

# The unit test, with $TMPDIR on TYPE: it passes, and its first comment
# says what it found there (DESCRIPTION), and a second one too if given.
unit_on() {
	local type=$1
	fs_require "$type"
	run --separate-stderr fs_run "$type" 'TMPDIR=$D FATTRS_TEST_FS=$FS_TYPE "$FFLAGS"'
	assert_tap_passed
	assert_line "# $type: $2"
	if [[ -n ${3-} ]]; then
		assert_line "$3"
	fi
}

@test "the unit test passes on tmpfs (user xattrs, no native word)" {
	unit_on tmpfs "user xattrs yes, native word none"
}

@test "the unit test passes on ramfs (no user xattrs: every flag unsupported)" {
	unit_on ramfs "user xattrs no, native word none"
}

@test "the unit test passes on ext4" {
	unit_on ext4 "user xattrs yes, native word none"
}

@test "the unit test passes on xfs" {
	unit_on xfs "user xattrs yes, native word none"
}

@test "the unit test passes on btrfs" {
	unit_on btrfs "user xattrs yes, native word none"
}

@test "the unit test passes on ntfs-3g (system.ntfs_attrib keeps offline only)" {
	unit_on ntfs-3g "user xattrs yes, native word ntfs" "# the native word keeps 0x1000 of the four bits"
}

# valgrind: every path that allocates (invalid values, unknown names, the
# grown list buffer, the native word) without leaks or bad reads.  valgrind
# 3.19 answers ENOSYS to the *xattrat calls: the path calls run here (the
# unit test forces them too, where the kernel has the others).
valgrind_on() {
	local type=$1
	fs_require "$type"
	require_cmd valgrind
	require_no_sanitizer "$FFLAGS"
	run --separate-stderr fs_run "$type" '
		TMPDIR=$D FATTRS_TEST_FS=$FS_TYPE valgrind -q --error-exitcode=9 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect "$FFLAGS"'
	assert_tap_passed
}

@test "the unit test is clean under valgrind on tmpfs" {
	valgrind_on tmpfs
}

@test "the unit test is clean under valgrind on ntfs-3g" {
	valgrind_on ntfs-3g
}

# getfattr and setfattr agree with the library about the reserved names.
tools_agree_on() {
	local type=$1
	fs_require "$type"
	require_cmd getfattr setfattr
	run -0 --separate-stderr fs_run "$type" '
		cd "$D" && : >f && : >g &&
		"$FFLAGS" set f +offline &&
		getfattr -d -m "^user\.fattr\." f &&
		"$FFLAGS" set f -offline &&
		getfattr -d -m "^user\.fattr\." f &&
		setfattr -n user.fattr.pinned -v 1 g && "$FFLAGS" get g &&
		setfattr -n user.fattr.pinned -v 2 g && "$FFLAGS" get g &&
		setfattr -n user.fattr.pinned -v 0 g && "$FFLAGS" get g'
	assert_output "+offline xattr
# file: f
user.fattr.offline=\"1\"

-offline xattr
offline clear
pinned set
integrity clear
noscrub clear
offline clear
pinned invalid
integrity clear
noscrub clear
offline clear
pinned clear
integrity clear
noscrub clear"
}

@test "getfattr sees +offline as user.fattr.offline=\"1\", and setfattr's values read back (tmpfs)" {
	tools_agree_on tmpfs
}

@test "getfattr sees +offline as user.fattr.offline=\"1\", and setfattr's values read back (ext4)" {
	tools_agree_on ext4
}

@test "ntfs-3g: +offline goes to system.ntfs_attrib, +pinned to user.fattr.pinned" {
	fs_require ntfs-3g
	require_cmd getfattr
	run -0 --separate-stderr fs_run ntfs-3g '
		cd "$D" && : >f &&
		"$FFLAGS" set f +offline +integrity &&
		echo "word $(getfattr --only-values -n system.ntfs_attrib f | od -An -tx4 | tr -d " ")" &&
		getfattr -d -m "^user\.fattr\." f &&
		{ "$FFLAGS" set f +pinned -offline =pinned || :; } &&
		echo "word $(getfattr --only-values -n system.ntfs_attrib f | od -An -tx4 | tr -d " ")" &&
		"$FFLAGS" get f'
	# shellcheck disable=SC2154
	assert_equal "${lines[0]}" "+offline native"
	assert_equal "${lines[1]}" "+integrity xattr"
	[[ ${lines[2]} =~ ^word\ ([0-9a-f]{8})$ ]] || fail "no word: ${lines[2]}"
	(( 0x${BASH_REMATCH[1]} & 0x1000 )) || fail "OFFLINE (0x1000) is not set in 0x${BASH_REMATCH[1]}"
	(( (0x${BASH_REMATCH[1]} & 0xa8000) == 0 )) || fail "a bit ntfs-3g drops is set: 0x${BASH_REMATCH[1]}"
	assert_equal "${lines[3]}" "# file: f"
	assert_equal "${lines[4]}" 'user.fattr.integrity="1"'
	# +pinned is refused while offline is set; -offline clears the native
	# bit; =pinned (no opposite check) then lands in the xattr.
	assert_equal "$stderr" "fflags: cannot +pinned 'f': File exists"
	assert_equal "${lines[5]}" "-offline native"
	assert_equal "${lines[6]}" "=pinned xattr"
	[[ ${lines[7]} =~ ^word\ ([0-9a-f]{8})$ ]] || fail "no word: ${lines[7]}"
	(( (0x${BASH_REMATCH[1]} & 0x1000) == 0 )) || fail "OFFLINE is still set in 0x${BASH_REMATCH[1]}"
	assert_equal "${lines[8]}" "offline clear"
	assert_equal "${lines[9]}" "pinned set"
	assert_equal "${lines[10]}" "integrity set"
	assert_equal "${lines[11]}" "noscrub clear"
}

# A user who may not read the file itself: the probe asks its directory.
# Through a followed link that is the directory of the file the link
# leads to (here on ramfs, no user xattrs), not the link's own (tmpfs).
# The directories above $D need not be searchable for that user (under
# $BATS_TEST_TMPDIR they are not): the links are relative, and followed
# without realpath(3).
@test "probe: a followed link to an unreadable file or a fifo is answered by the target's directory" {
	fs_require ramfs
	require_cmd setpriv
	run -0 --separate-stderr fs_run ramfs '
		cd "$D" && : >f && chmod 0600 f && mkfifo p && mkdir t && mount -t tmpfs fattrs-t t &&
		ln -s ../f t/l && ln -s ../p t/lp && chmod 0755 "$D" &&
		nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
		for args in "-L t/l" "t/l" "f" "-L t/lp" "t/lp"; do
			# shellcheck disable=SC2086  # the words of $args are meant
			nobody "$FFLAGS" probe $args || echo "status $?"
		done
		umount t'
	assert_equal "${lines[0]}" "user xattrs no, native word none"
	assert_equal "${lines[1]}" "user xattrs yes, native word none"
	assert_equal "${lines[2]}" "user xattrs no, native word none"
	assert_equal "${lines[3]}" "user xattrs no, native word none"
	assert_equal "${lines[4]}" "user xattrs yes, native word none"
	assert_equal "${#lines[@]}" 5
	assert_equal "$stderr" ""
}

# The system calls after the driver's marker (its probe is the caller's,
# once per mount), one name a line; the exit is left out.
calls_after_marker() {
	sed -n '/fflags-marker/,$p' "$1" | sed -E '1d; s/^[0-9]+ +//; /^\+\+\+ /d; s/\(.*//' |
		grep -vx 'exit_group'
}

@test "+offline is one getxattrat of user.fattr.pinned, one setxattrat, and user.fattr.pinned again; -offline one removexattrat; the path calls without them" {
	fs_require tmpfs
	fault_require
	nosys_require
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && : >f &&
		trace_run "$BATS_TEST_TMPDIR/at-set.trace" "$FFLAGS" set f +offline &&
		trace_run "$BATS_TEST_TMPDIR/at-clear.trace" "$FFLAGS" set f -offline &&
		trace_run "$BATS_TEST_TMPDIR/set.trace" "$NOSYS" xattrat "$FFLAGS" set f +offline &&
		trace_run "$BATS_TEST_TMPDIR/clear.trace" "$NOSYS" xattrat "$FFLAGS" set f -offline &&
		trace_run "$BATS_TEST_TMPDIR/absent.trace" "$NOSYS" xattrat "$FFLAGS" set f -offline'
	assert_output "+offline xattr
-offline xattr
+offline xattr
-offline xattr
-offline none"
	# getxattrat, setxattrat, getxattrat (as strace 6.1 prints them); removexattrat
	assert_equal "$(calls_after_marker "$BATS_TEST_TMPDIR/at-set.trace" | tr '\n' ' ')" "syscall_0x1d0 syscall_0x1cf syscall_0x1d0 "
	assert_equal "$(calls_after_marker "$BATS_TEST_TMPDIR/at-clear.trace" | tr '\n' ' ')" "syscall_0x1d2 "
	# Without them (ENOSYS, once, before the marker: the driver's probe),
	# the path calls by name.  The opposite again after the write: another
	# writer may have set it in between.
	assert_equal "$(calls_after_marker "$BATS_TEST_TMPDIR/set.trace" | tr '\n' ' ')" "lgetxattr lsetxattr lgetxattr "
	assert_trace "$BATS_TEST_TMPDIR/set.trace" '^[0-9]+ +lgetxattr\("f", "user\.fattr\.pinned", .*\) += -1 ENODATA'
	assert_trace "$BATS_TEST_TMPDIR/set.trace" '^[0-9]+ +lsetxattr\("f", "user\.fattr\.offline", "1", 1, 0\) += 0$'
	assert_equal "$(grep -cE '^[0-9]+ +lgetxattr\("f", "user\.fattr\.pinned", NULL, 0\) += -1 ENODATA' "$BATS_TEST_TMPDIR/set.trace")" 2
	assert_equal "$(calls_after_marker "$BATS_TEST_TMPDIR/clear.trace" | tr '\n' ' ')" "lremovexattr "
	assert_trace "$BATS_TEST_TMPDIR/clear.trace" '^[0-9]+ +lremovexattr\("f", "user\.fattr\.offline"\) += 0$'
	assert_trace "$BATS_TEST_TMPDIR/absent.trace" '^[0-9]+ +lremovexattr\("f", "user\.fattr\.offline"\) += -1 ENODATA'
}

@test "reading flags is one listxattrat, plus one getxattrat per flag name present (not for unknown ones); the path calls without them" {
	fs_require tmpfs
	fault_require
	nosys_require
	require_cmd setfattr
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && : >f && : >g && setfattr -n user.fattr.noscrub -v 1 g &&
		setfattr -n user.other -v 1 g && setfattr -n user.fattr.foo g &&
		trace_run "$BATS_TEST_TMPDIR/at-f.trace" "$FFLAGS" get f >/dev/null &&
		trace_run "$BATS_TEST_TMPDIR/at-g.trace" "$FFLAGS" get g >/dev/null &&
		trace_run "$BATS_TEST_TMPDIR/f.trace" "$NOSYS" xattrat "$FFLAGS" get f >/dev/null &&
		trace_run "$BATS_TEST_TMPDIR/g.trace" "$NOSYS" xattrat "$FFLAGS" get g'
	assert_line "noscrub set"
	assert_line "unknown user.fattr.foo"
	assert_equal "$(calls_after_marker "$BATS_TEST_TMPDIR/at-f.trace" | tr '\n' ' ')" "syscall_0x1d1 "
	assert_equal "$(calls_after_marker "$BATS_TEST_TMPDIR/at-g.trace" | tr '\n' ' ')" "syscall_0x1d1 syscall_0x1d0 "
	assert_equal "$(calls_after_marker "$BATS_TEST_TMPDIR/f.trace" | tr '\n' ' ')" "llistxattr "
	assert_equal "$(calls_after_marker "$BATS_TEST_TMPDIR/g.trace" | tr '\n' ' ')" "llistxattr lgetxattr "
	assert_trace "$BATS_TEST_TMPDIR/g.trace" '^[0-9]+ +lgetxattr\("g", "user\.fattr\.noscrub", "1", 64\) += 1$'
}

# Faults no filesystem produces on demand, injected with strace into the
# path calls (under $NOSYS: strace 6.1 cannot inject into *xattrat, whose
# errors the library takes the same way).  The driver's probe comes first
# and makes no llistxattr call, and two lgetxattr calls on tmpfs
# (user.fattr.offline, system.ntfs_attrib): the trace is checked to show
# that the fault hit the call it was meant for.
fault_get() {
	local inject=$1
	fs_require tmpfs
	fault_require
	nosys_require
	require_cmd setfattr
	run --separate-stderr fs_run tmpfs '
		cd "$D" && : >g && setfattr -n user.fattr.noscrub -v 1 g && setfattr -n user.fattr.foo g &&
		_fault_strace -o "$BATS_TEST_TMPDIR/trace" -e '"$inject"' -- "$NOSYS" xattrat "$FFLAGS" get g'
}

@test "a name list that grew after its size was asked is read again" {
	fault_get inject=llistxattr:error=ERANGE:when=1
	assert_success
	assert_output "offline clear
pinned clear
integrity clear
noscrub set
unknown user.fattr.foo"
	assert_trace "$BATS_TEST_TMPDIR/trace" '^[0-9]+ +llistxattr\("g", 0x[0-9a-f]+, 1024\) += -1 ERANGE .*\(INJECTED\)$'
	assert_trace "$BATS_TEST_TMPDIR/trace" '^[0-9]+ +llistxattr\("g", NULL, 0\) += 34$'
	assert_trace "$BATS_TEST_TMPDIR/trace" '^[0-9]+ +llistxattr\("g", "user\.fattr\..*, [0-9]+\) += 34$'
}

@test "a name list that keeps growing ends in E2BIG at the kernel's limit, not in a loop" {
	fault_get inject=llistxattr:error=ERANGE:when=1+2
	assert_failure 1
	assert_output ""
	# shellcheck disable=SC2154
	assert_equal "$stderr" "fflags: cannot read 'g': Argument list too long"
	assert_trace "$BATS_TEST_TMPDIR/trace" '^[0-9]+ +llistxattr\("g", 0x[0-9a-f]+, 65536\) += -1 ERANGE'
	refute_trace "$BATS_TEST_TMPDIR/trace" '^[0-9]+ +llistxattr\("g", 0x[0-9a-f]+, 131072\)'
}

@test "a flag removed between the list and the read of its value reads clear" {
	fault_get inject=lgetxattr:error=ENODATA:when=3
	assert_success
	assert_line "noscrub clear"
	assert_line "unknown user.fattr.foo"
	assert_trace "$BATS_TEST_TMPDIR/trace" '^[0-9]+ +lgetxattr\("g", "user\.fattr\.noscrub", .*\(INJECTED\)$'
}

@test "a read error of a flag's value is reported, not taken for clear" {
	fault_get inject=lgetxattr:error=EIO:when=3
	assert_failure 1
	assert_equal "$stderr" "fflags: cannot read 'g': Input/output error"
	assert_trace "$BATS_TEST_TMPDIR/trace" '^[0-9]+ +lgetxattr\("g", "user\.fattr\.noscrub", .*\(INJECTED\)$'
}

@test "ntfs-3g: +offline writes the word and reads it back under a flock of the file; +integrity, dropped there, then goes to the xattr" {
	fs_require ntfs-3g
	fault_require
	nosys_require
	# the path calls ($NOSYS), which strace names
	run -0 --separate-stderr fs_run ntfs-3g '
		cd "$D" && : >f &&
		trace_run "$BATS_TEST_TMPDIR/offline.trace" "$NOSYS" xattrat "$FFLAGS" set f +offline &&
		trace_run "$BATS_TEST_TMPDIR/integrity.trace" "$NOSYS" xattrat "$FFLAGS" set f +integrity &&
		trace_run "$BATS_TEST_TMPDIR/clear.trace" "$NOSYS" xattrat "$FFLAGS" set f -offline'
	assert_output "+offline native
+integrity xattr
-offline native"
	# The writers' lock (the file open read-only), the opposite's xattr, the
	# word read, written and read back through the locked descriptor, then
	# the opposite again in both places.
	assert_equal "$(calls_after_marker "$BATS_TEST_TMPDIR/offline.trace" | tr '\n' ' ')" \
		"openat flock lgetxattr fgetxattr fsetxattr fgetxattr lgetxattr fgetxattr close "
	assert_trace "$BATS_TEST_TMPDIR/offline.trace" '^[0-9]+ +openat\(AT_FDCWD, "f", O_RDONLY\|O_NOCTTY\|O_NONBLOCK\|O_NOFOLLOW\|O_CLOEXEC\) += [0-9]+$'
	assert_trace "$BATS_TEST_TMPDIR/offline.trace" '^[0-9]+ +flock\([0-9]+, LOCK_EX\|LOCK_NB\) += 0$'
	assert_trace "$BATS_TEST_TMPDIR/offline.trace" '^[0-9]+ +lgetxattr\("f", "user\.fattr\.pinned", .*ENODATA'
	assert_trace "$BATS_TEST_TMPDIR/offline.trace" '^[0-9]+ +fsetxattr\([0-9]+, "system\.ntfs_attrib", "[^"]*", 4, 0\) += 0$'
	# The same, and the xattr after the read back showed the bit dropped.
	assert_equal "$(calls_after_marker "$BATS_TEST_TMPDIR/integrity.trace" | tr '\n' ' ')" \
		"openat flock lgetxattr fgetxattr fsetxattr fgetxattr lsetxattr lgetxattr fgetxattr close "
	assert_trace "$BATS_TEST_TMPDIR/integrity.trace" '^[0-9]+ +lsetxattr\("f", "user\.fattr\.integrity", "1", 1, 0\) += 0$'
	# Clear: the xattr (absent), then the word: read, write, read back.
	assert_equal "$(calls_after_marker "$BATS_TEST_TMPDIR/clear.trace" | tr '\n' ' ')" \
		"openat flock lremovexattr fgetxattr fsetxattr fgetxattr close "
}
