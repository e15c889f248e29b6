#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What setfattrs asks of the kernel per file, from a full strace trace
# (strace -c leaves out file_getattr/file_setattr, which Debian 12's strace
# prints as syscall_0x1d4/0x1d5): a kernel flag on files named on the
# command line costs the pin (an O_PATH open), file_getattr, file_setattr
# and close, and no stat of setfattrs' own; a fattrs flag costs the
# opposite's getxattr and the setxattr (a clear: one removexattr); -R takes a
# regular file's type from its directory entry; devices and fifos are still
# never opened, and every error still names its file.
# bats file_tags=setfattrs,strace

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/setfattrs.bash
load '../helpers/setfattrs'

setfattrs_setup_more() {
	fault_require
}

# The filesystem types with which setfattrs skips its own stat (src/setfattrs.c,
# keeps_trusted[]): written again here, as the test's own oracle.
KEEPS_TRUSTED=" ext2 ext3 ext4 xfs btrfs tmpfs devtmpfs proc sysfs devpts cgroup cgroup2 mqueue securityfs debugfs tracefs pstore bpf configfs hugetlbfs binfmt_misc fusectl nsfs ramfs "

# Skip unless every mount of this namespace is of a type on that list (a
# container on overlayfs takes the other path, which the last tests check).
require_trusted_mounts() {
	local t
	for t in $(findmnt -rn -o FSTYPE | sort -u); do
		[[ $KEEPS_TRUSTED == *" $t "* ]] || skip "a $t filesystem is mounted here: setfattrs stats every file"
	done
}

# assert_per_file OP CALLS: the output's "OP 10 calls N" and "OP 30 calls M"
# lines (a trace of 10 files and one of 30) differ by CALLS per file ("4.0").
assert_per_file() {
	local c10 c30
	c10=$(sed -n "s/^$1 10 calls //p" <<<"$output") c30=$(sed -n "s/^$1 30 calls //p" <<<"$output")
	assert_equal "$1: $(((c30 - c10) / 20)).$(((c30 - c10) % 20))" "$1: $2"
}

@test "+nodump on N files named: 4 calls per file (O_PATH pin, file_getattr, file_setattr, close), no stat" {
	require_root "mount tmpfs"
	require_trusted_mounts
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && seq -f "f%02g" 30 | xargs touch || exit 1
		for n in 10 30; do
			FAULT_NOTRACE= trace_run ../t$n setfattrs +nodump $(seq -f "f%02g" $n) || exit 1
			# every call but the allocator'"'"'s own (a sanitizer'"'"'s maps memory as it goes)
			echo "$n calls $(grep -E "^[0-9]+ +[a-z_0-9]+\(" ../t$n | grep -cvE "^[0-9]+ +(mmap|munmap|mprotect|madvise|mremap|brk)\(")"
			echo "$n pin $(grep -cE "openat\(AT_FDCWD, \"f[0-9]+\", O_RDONLY\|O_CLOEXEC\|O_PATH\) = " ../t$n)"
			echo "$n stat $(grep -cE "(newfstatat|stat|lstat|statx)\(AT_FDCWD, \"f[0-9]+\"" ../t$n)"
			echo "$n get $(grep -cE "syscall_0x1d4\(" ../t$n)"
			echo "$n set $(grep -cE "syscall_0x1d5\(" ../t$n)"
			setfattrs -nodump f* || exit 1
		done
		setfattrs +nodump f01 f02 && lsattr -d f01 f02'
	assert_line --index 0 --regexp '^10 calls [0-9]+$'
	local c10 c30
	c10=${lines[0]##* } c30=${lines[5]##* }
	# the slope: 4 calls per file
	assert_equal "$(((c30 - c10) / 20)).$(((c30 - c10) % 20))" "4.0"
	assert_line --index 1 '10 pin 10'
	assert_line --index 2 '10 stat 0'
	# the first change of nodump in the run is read back, the others trusted
	assert_line --index 3 '10 get 11'
	assert_line --index 4 '10 set 10'
	assert_line --index 6 '30 pin 30'
	assert_line --index 7 '30 stat 0'
	assert_line --index 8 '30 get 31'
	assert_line --index 9 '30 set 30'
	assert_line --index 10 --regexp '^-+d-+ f01$'
	assert_line --index 11 --regexp '^-+d-+ f02$'
}

@test "without its own stat: a fifo and a device are never opened, a symlink with -h and a missing file are named, the rest is done, exit 1" {
	require_root "make a device node"
	require_trusted_mounts
	require_cmd lsattr
	fs_require tmpfs
	run -1 --separate-stderr fs_run tmpfs '
		cd "$D" && touch a b && mkfifo fifo && mknod null c 1 3 && ln -s a lnk || exit 1
		trace_run ../t setfattrs +nodump fifo null missing a || echo "rc=$?"
		trace_run ../th setfattrs -h +nodump lnk b || echo "rc=$?"
		grep -E "open(at)?\(.*\"(fifo|null)\"" ../t | grep -v O_PATH
		lsattr -d a b | awk "{ print \$2, (\$1 ~ /d/ ? \"nodump\" : \"-\") }"
		exit 1'
	assert_equal "${#stderr_lines[@]}" 4
	assert_equal "${stderr_lines[0]}" "setfattrs: cannot set 'nodump' on 'fifo': the tmpfs filesystem keeps no attribute flags for a fifo"
	assert_equal "${stderr_lines[1]}" "setfattrs: cannot set 'nodump' on 'null': the tmpfs filesystem keeps no attribute flags for a character device"
	assert_equal "${stderr_lines[2]}" "setfattrs: cannot stat 'missing': No such file or directory"
	assert_equal "${stderr_lines[3]}" "setfattrs: cannot set 'nodump' on 'lnk': the tmpfs filesystem keeps no attribute flags for a symbolic link"
	# no open of the fifo or the device but the O_PATH pin
	assert_equal "${lines[*]}" "rc=1 rc=1 a nodump b nodump"
}

@test "a filesystem not on the list mounted (overlayfs): every file is stat'ed and read back per filesystem, as before" {
	require_root "mount overlayfs"
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && mkdir lo up wk ov && touch f1 f2 f3 && mount -t overlay ov -o lowerdir=lo,upperdir=up,workdir=wk ov || exit 1
		FAULT_NOTRACE= trace_run ../t setfattrs +nodump f1 f2 f3 || exit 1
		echo "stat $(grep -cE "(newfstatat|stat|lstat|statx)\(AT_FDCWD, \"f[0-9]\"" ../t)"
		echo "get $(grep -cE "syscall_0x1d4\(" ../t)"
		umount ov'
	assert_line --index 0 'stat 3'
	assert_line --index 1 'get 4'
}

@test "+offline on N files named: 2 calls per file (the opposite's getxattr, setxattr), -offline 1 (removexattr), no stat" {
	require_root "mount tmpfs"
	require_trusted_mounts
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && seq -f "f%02g" 30 | xargs touch || exit 1
		for op in +offline -offline; do
			for n in 10 30; do
				FAULT_NOTRACE= trace_run ../t$n setfattrs $op $(seq -f "f%02g" $n) || exit 1
				echo "$op $n calls $(grep -E "^[0-9]+ +[a-z_0-9]+\(" ../t$n | grep -cvE "^[0-9]+ +(mmap|munmap|mprotect|madvise|mremap|brk)\(")"
				echo "$op $n stat $(grep -cE "(newfstatat|stat|lstat|statx)\(AT_FDCWD, \"f[0-9]+\"" ../t$n)"
				echo "$op $n xattr $(grep -cE "^[0-9]+ +(l?getxattr|l?setxattr|l?removexattr)\(\"f[0-9]+\"" ../t$n)"
				[[ $op == -offline ]] || setfattrs -offline f* || exit 1
			done
		done
		getfattr -n user.fattr.offline f01 2>&1 | grep -c "^user.fattr.offline" || :'
	assert_per_file +offline 2.0
	assert_per_file -offline 1.0
	assert_line '+offline 10 stat 0'
	assert_line '+offline 30 stat 0'
	assert_line '+offline 30 xattr 60'
	assert_line '-offline 30 stat 0'
	assert_line '-offline 30 xattr 30'
	# the last -offline cleared them
	assert_line --index 12 '0'
}

@test "-R: no stat of a regular file met (its directory entry's type is enough): +nodump 4 calls per file, +offline 2" {
	require_root "mount tmpfs"
	require_trusted_mounts
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		mkdir "$D/t10" "$D/t30" && (cd "$D/t10" && seq -f "f%02g" 10 | xargs touch) &&
			(cd "$D/t30" && seq -f "f%02g" 30 | xargs touch) || exit 1
		cd "$D" || exit 1
		for op in +nodump +offline; do
			for n in 10 30; do
				FAULT_NOTRACE= trace_run ../r$n setfattrs -R $op t$n || exit 1
				echo "$op $n calls $(grep -E "^[0-9]+ +[a-z_0-9]+\(" ../r$n | grep -cvE "^[0-9]+ +(mmap|munmap|mprotect|madvise|mremap|brk)\(")"
				echo "$op $n stat $(grep -cE "(newfstatat|stat|lstat|statx)\([0-9]+, \"f[0-9]+\"" ../r$n)"
			done
		done
		lsattr t30/f30 | cut -c1-22; getfattr -n user.fattr.offline t30/f30 2>&1 | grep -c "^user.fattr.offline"'
	assert_per_file +nodump 4.0
	assert_per_file +offline 2.0
	assert_line '+nodump 30 stat 0'
	assert_line '+offline 30 stat 0'
	assert_line --index 8 --regexp '^-+d-+$'
	assert_line --index 9 '1'
}

@test "fattrs flags without a stat of their own: a fifo, a device, a symlink with -h, a missing file, an opposite and ramfs named as before, the rest done, exit 1" {
	require_root "make a device node, mount ramfs"
	require_trusted_mounts
	fs_require tmpfs
	run -1 --separate-stderr fs_run tmpfs '
		cd "$D" && touch a b opp && mkfifo fifo && mknod null c 1 3 && ln -s a lnk &&
			setfattr -n user.fattr.pinned -v 1 opp && mkdir r && mount -t ramfs r r && touch r/x || exit 1
		trace_run ../t setfattrs +offline fifo null missing opp a r/x || echo "rc=$?"
		setfattrs -h +offline lnk b || echo "rc=$?"
		setfattrs -offline fifo missing a || echo "rc=$?"
		grep -cE "(newfstatat|stat|lstat|statx)\(AT_FDCWD, \"a\"" ../t
		getfattr -n user.fattr.offline a b 2>&1 | grep -c "^user.fattr.offline"
		umount r; exit 1'
	assert_equal "${stderr_lines[0]}" "setfattrs: cannot set 'offline' on 'fifo': a fifo cannot carry it (the kernel keeps user xattrs on regular files and directories only)"
	assert_equal "${stderr_lines[1]}" "setfattrs: cannot set 'offline' on 'null': a character device cannot carry it (the kernel keeps user xattrs on regular files and directories only)"
	assert_equal "${stderr_lines[2]}" "setfattrs: cannot stat 'missing': No such file or directory"
	assert_equal "${stderr_lines[3]}" "setfattrs: cannot set 'offline' on 'opp': its opposite 'pinned' is set; '-pinned +offline' clears it first"
	assert_equal "${stderr_lines[4]}" "setfattrs: cannot set 'offline' on 'r/x': the ramfs filesystem has neither user xattrs nor a native attribute word"
	assert_equal "${stderr_lines[5]}" "setfattrs: cannot set 'offline' on 'lnk': a symbolic link cannot carry it (the kernel keeps user xattrs on regular files and directories only)"
	assert_equal "${stderr_lines[6]}" "setfattrs: cannot clear 'offline' on 'fifo': a fifo cannot carry it (the kernel keeps user xattrs on regular files and directories only)"
	assert_equal "${stderr_lines[7]}" "setfattrs: cannot stat 'missing': No such file or directory"
	assert_equal "${#stderr_lines[@]}" 8
	# a: set, then cleared; b set; a was not stat'ed
	assert_equal "${lines[*]}" "rc=1 rc=1 rc=1 0 1"
}
