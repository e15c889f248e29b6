#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What setfattrs asks of the kernel per file, from a full strace trace
# (strace -c leaves out file_getattr/file_setattr, which Debian 12's strace
# prints as syscall_0x1d4/0x1d5): a kernel flag costs file_getattr and
# file_setattr by name in a directory only the caller and root can write,
# and elsewhere the pin (an O_PATH open) and close as well; no stat of
# setfattrs' own; an operand's directory is entered once for the operands
# in it (each call then looks up one name); a fattrs flag costs the
# opposite's getxattrat and the setxattrat (a clear: one removexattrat; strace
# 6.1 prints the *xattrat calls as syscall_0x1cf to 0x1d2); -R takes a
# regular file's type from its directory entry; devices and fifos are still
# never opened, and every error still names its file.  Each cost holds
# whatever else is mounted: the tests build both cases (fs_run_both).
# bats file_tags=setfattrs,strace

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/setfattrs.bash
load '../helpers/setfattrs'

setfattrs_setup_more() {
	fault_require
	FS_FUNCS='calls by_name pins'	# fs_run scripts call them
}

# fs_run_both TYPE SCRIPT: fs_run TYPE SCRIPT twice, in namespaces made
# for it: first with an overlayfs (a type setfattrs does not trust)
# mounted beside $D, then with every mount of a trusted type (the others
# detached in the test's own namespace, trusted_mounts_only).  The two
# must print the same, exit status and stderr included, but for the whole
# run's "... calls N" lines (the first run asks once where its directory
# is: a few calls more per run), whose per-file slope assert_per_file
# checks in both: a file's cost does not depend on mounts it is not on.
# output, lines, stderr and status are the second run's, as run sets
# them; ELSEWHERE is the first run's output.
fs_run_both() {
	local type=$1 script=$2 first
	FS_FUNCS="$FS_FUNCS trusted_mounts_only untrusted_elsewhere" run --separate-stderr fs_run "$type" \
		"trusted_mounts_only && untrusted_elsewhere || exit; $script"
	ELSEWHERE=$output
	first="$status $(grep -v " calls [0-9]*$" <<<"$output") $stderr"
	FS_FUNCS="$FS_FUNCS trusted_mounts_only" run --separate-stderr fs_run "$type" "trusted_mounts_only || exit; $script"
	# shellcheck disable=SC2154  # set by run --separate-stderr
	((status != 77)) || skip "$stderr"
	assert_equal "with an overlayfs elsewhere: $first" \
		"with an overlayfs elsewhere: $status $(grep -v " calls [0-9]*$" <<<"$output") $stderr"
}

# untrusted_elsewhere: an overlayfs at $MNT/elsewhere/ov, beside $D (not
# below it). fs_run scripts call it.
untrusted_elsewhere() {
	local e=$MNT/elsewhere
	mkdir -p "$e/lo" "$e/up" "$e/wk" "$e/ov" &&
		mount -t overlay elsewhere -o "lowerdir=$e/lo,upperdir=$e/up,workdir=$e/wk" "$e/ov"
}

# pins TRACE NAME-RE: how many O_PATH opens of NAME-RE in TRACE succeeded,
# by openat(2) or, where the pin must stay on the directory's mount,
# openat2(2). fs_run scripts use it.
pins() {
	grep -cE "openat2?\([^,]+, \"$2\", (\{flags=)?[A-Z_|]*O_PATH[A-Z_|]*(, resolve=[A-Z_|]+\}, [0-9]+)?\) = [0-9]" "$1"
}

# calls TRACE: how many calls TRACE has, but the allocator's own (a
# sanitizer's maps memory as it goes). fs_run scripts use it (FS_FUNCS).
calls() {
	grep -E "^[0-9]+ +[a-z_0-9]+\(" "$1" | grep -cvE "^[0-9]+ +(mmap|munmap|mprotect|madvise|mremap|brk)\("
}

# by_name TRACE: how many file_setattr calls of TRACE went by a name, not
# followed (AT_SYMLINK_NOFOLLOW), rather than by a /proc/self/fd link (0).
by_name() {
	grep -cE "syscall_0x1d5\(0x[0-9a-f]+, 0x[0-9a-f]+, 0x[0-9a-f]+, 0x18, 0x100, " "$1"
}

# assert_per_file OP CALLS: the output's "OP 10 calls N" and "OP 30 calls M"
# lines (a trace of 10 files and one of 30) differ by CALLS per file ("4.0"),
# and so do ELSEWHERE's, where fs_run_both set it.
assert_per_file() {
	local c10 c30 out
	for out in "$output" ${ELSEWHERE+"$ELSEWHERE"}; do
		c10=$(sed -n "s/^$1 10 calls //p" <<<"$out") c30=$(sed -n "s/^$1 30 calls //p" <<<"$out")
		assert_equal "$1: $(((c30 - c10) / 20)).$(((c30 - c10) % 20))" "$1: $2"
	done
}

@test "+nodump on N files named in a directory only its owner can write: 2 calls per file (file_getattr, file_setattr by name), no pin, no stat" {
	require_root "mount tmpfs"
	fs_require tmpfs
	fs_run_both tmpfs '
		mkdir "$D/d" && cd "$D/d" && seq -f "f%02g" 30 | xargs touch && cd .. || exit 1
		for n in 10 30; do
			FAULT_NOTRACE= trace_run t$n setfattrs +nodump $(seq -f "d/f%02g" $n) || exit 1
			echo "+nodump $n calls $(calls t$n)"
			echo "$n pin $(pins t$n "(d/)?f[0-9]+")"
			echo "$n stat $(grep -cE "(newfstatat|stat|lstat|statx)\([^,]+, \"(d/)?f[0-9]+\"" t$n)"
			echo "$n get $(grep -cE "syscall_0x1d4\(" t$n)"
			echo "$n set $(grep -cE "syscall_0x1d5\(" t$n)"
			echo "$n dir $(grep -cE "^[0-9]+ +openat\(AT_FDCWD, \"d\", O_RDONLY\|O_CLOEXEC\|O_PATH\|O_DIRECTORY\) = " t$n)"
			setfattrs -nodump d/f* || exit 1
		done
		setfattrs +nodump d/f01 d/f02 && lsattr -d d/f01 d/f02'
	assert_success
	# the slope: 2 calls per file
	assert_per_file +nodump 2.0
	assert_line --index 1 '10 pin 0'
	assert_line --index 2 '10 stat 0'
	# the first change of nodump in the run is read back, the others trusted
	assert_line --index 3 '10 get 11'
	assert_line --index 4 '10 set 10'
	# the operands' directory: opened once
	assert_line --index 5 '10 dir 1'
	assert_line --index 7 '30 pin 0'
	assert_line --index 8 '30 stat 0'
	assert_line --index 9 '30 get 31'
	assert_line --index 10 '30 set 30'
	assert_line --index 11 '30 dir 1'
	assert_line --index 12 --regexp '^-+d-+ d/f01$'
	assert_line --index 13 --regexp '^-+d-+ d/f02$'
}

@test "+nodump where another user could rename a file over the name (a directory others or the group can write, or another user's): each file pinned first; by name only in the caller's or root's own" {
	require_root "mount tmpfs, chown"
	require_cmd lsattr
	fs_require tmpfs
	fs_run_both tmpfs '
		cd "$D" && mkdir own root700 sticky grp other && chmod 1777 sticky && chmod 0775 grp && chmod 0700 root700 &&
			chown nobody other own && chmod 0755 own || exit 1
		for d in own root700 sticky grp other; do touch $d/f1 $d/f2 $d/f3 || exit 1; done
		chown nobody own/*
		for d in root700 sticky grp other; do
			trace_run t-$d setfattrs +nodump $d/f1 $d/f2 $d/f3 || exit 1
			echo "$d pin $(pins t-$d "f[0-9]")" \
				"by name $(by_name t-$d)" \
				"nodump $(lsattr $d/f1 $d/f2 $d/f3 | grep -c "^[^ ]*d")"
		done
		trace_run t-R setfattrs -R -nodump grp || exit 1
		echo "-R grp pin $(pins t-R "f[0-9]") nodump $(lsattr grp/f1 grp/f2 grp/f3 | grep -c "^[^ ]*d")"
		# as nobody: its own directory by name, root'"'"'s sticky one pinned
		chown nobody sticky/f1 sticky/f2 sticky/f3 && setfattrs -nodump sticky/* || exit 1
		for d in own sticky; do
			trace_run t-n$d setpriv --reuid=nobody --regid=nogroup --clear-groups setfattrs +nodump $d/f1 $d/f2 $d/f3 || exit 1
			echo "nobody $d pin $(pins t-n$d "f[0-9]")" \
				"by name $(by_name t-n$d)" \
				"nodump $(lsattr $d/f1 $d/f2 $d/f3 | grep -c "^[^ ]*d")"
		done'
	assert_success
	assert_equal "${lines[*]}" "root700 pin 0 by name 3 nodump 3 sticky pin 3 by name 0 nodump 3 grp pin 3 by name 0 nodump 3 other pin 3 by name 0 nodump 3 -R grp pin 3 nodump 0 nobody own pin 0 by name 3 nodump 3 nobody sticky pin 3 by name 0 nodump 3"
}

@test "by name in the caller's own directory, a symlink is still followed (tmpfs: to the pinned way; xfs, which keeps flags on symlinks: pinned from the start) and a fifo never opened" {
	require_root "mount tmpfs and xfs"
	require_cmd lsattr xfs_io
	fs_require tmpfs
	fs_require xfs
	local fs
	for fs in tmpfs xfs; do
		fs_run_both "$fs" '
			cd "$D" && mkdir d && touch d/a d/b && ln -s a d/lnk && ln -s b d/lnk2 && mkfifo d/fifo || exit 1
			trace_run t setfattrs +nodump d/lnk || exit 1
			echo "pin $(pins t lnk)"
			echo "a $(lsattr -d d/a | cut -d" " -f1 | tr -d e-)"
			trace_run t2 setfattrs -h +nodump d/lnk2 d/fifo; echo "rc=$?"
			echo "by name $(by_name t2), fifo opened $(grep -E "open(at)?\(.*\"fifo\"" t2 | grep -cv O_PATH)"
			echo "b $(lsattr -d d/b | cut -d" " -f1 | tr -d e-)"
			if [[ $(stat -f -c %T .) == xfs ]]; then
				for l in d/lnk d/lnk2; do setfattrs --list -h $l | awk "\$1 == \"nodump\" { print \$1, \$4 }"; done
			fi'
	assert_success
		if [[ $fs == tmpfs ]]; then
			# the read by name said "no flags on a symlink": pinned, followed;
			# with -h the symlink and the fifo fail by name, and again pinned
			assert_equal "${lines[*]}" "pin 1 a d rc=1 by name 0, fifo opened 0 b "
			assert_equal "${stderr_lines[0]}" "setfattrs: cannot set 'nodump' on 'd/lnk2': the tmpfs filesystem keeps no attribute flags for a symbolic link"
			assert_equal "${stderr_lines[1]}" "setfattrs: cannot set 'nodump' on 'd/fifo': the tmpfs filesystem keeps no attribute flags for a fifo"
		else
			# following on xfs: never by name (it would change the link's own
			# flags); with -h by name, the link's and the fifo's own
			assert_equal "${lines[*]}" "pin 1 a d rc=0 by name 2, fifo opened 0 b  nodump clear nodump set"
			assert_equal "${#stderr_lines[@]}" 0
		fi
	done
}

@test "without its own stat: a fifo and a device are never opened, a symlink with -h and a missing file are named, the rest is done, exit 1" {
	require_root "make a device node"
	require_cmd lsattr
	fs_require tmpfs
	fs_run_both tmpfs '
		cd "$D" && touch a b && mkfifo fifo && mknod null c 1 3 && ln -s a lnk || exit 1
		trace_run ../t setfattrs +nodump fifo null missing a || echo "rc=$?"
		trace_run ../th setfattrs -h +nodump lnk b || echo "rc=$?"
		grep -E "open(at)?\(.*\"(fifo|null)\"" ../t | grep -v O_PATH
		lsattr -d a b | awk "{ print \$2, (\$1 ~ /d/ ? \"nodump\" : \"-\") }"
		exit 1'
	assert_failure 1
	assert_equal "${#stderr_lines[@]}" 4
	assert_equal "${stderr_lines[0]}" "setfattrs: cannot set 'nodump' on 'fifo': the tmpfs filesystem keeps no attribute flags for a fifo"
	assert_equal "${stderr_lines[1]}" "setfattrs: cannot set 'nodump' on 'null': the tmpfs filesystem keeps no attribute flags for a character device"
	assert_equal "${stderr_lines[2]}" "setfattrs: cannot stat 'missing': No such file or directory"
	assert_equal "${stderr_lines[3]}" "setfattrs: cannot set 'nodump' on 'lnk': the tmpfs filesystem keeps no attribute flags for a symbolic link"
	# no open of the fifo or the device but the O_PATH pin
	assert_equal "${lines[*]}" "rc=1 rc=1 a nodump b nodump"
}

@test "with an overlayfs elsewhere, a name that leads there is stat'ed after all: the pin refuses to cross (kernel flags), a symlink refuses a fattrs flag by its name" {
	require_root "mount tmpfs and overlayfs"
	require_cmd lsattr getfattr
	fs_require tmpfs
	FS_FUNCS="$FS_FUNCS trusted_mounts_only untrusted_elsewhere" run -0 --separate-stderr fs_run tmpfs '
		trusted_mounts_only && untrusted_elsewhere || exit 1
		g=$MNT/elsewhere/ov/g
		cd "$D" && mkdir -m 1777 s && touch s/a a "$g" && ln -s "$g" s/l && ln -s "$g" l || exit 1
		stats() { echo "$1 stat $(grep -cE "(newfstatat|stat|lstat|statx)\([^,]+, \"$2\"" "$3")"; }
		trace_run ../k setfattrs +nodump s/a s/l || exit 1
		stats s/a a ../k; stats s/l l ../k
		echo "g $(lsattr "$g" | cut -c1-22) s/a $(lsattr s/a | cut -c1-22)"
		trace_run ../f setfattrs +offline a l || exit 1
		stats a a ../f; stats l l ../f
		getfattr -n user.fattr.offline a "$g" 2>&1 | grep -c "^user.fattr.offline"'
	# l: its stat, and the overlay mount's probe for the fattrs flags (once per mount)
	assert_equal "${lines[*]}" "s/a stat 0 s/l stat 1 g ------d--------------- s/a ------d--------------- a stat 0 l stat 2 2"
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

@test "files stat'ed (-v): the read-back rule is kept per mount, so a bind mount of the same tmpfs has a first read-back of its own" {
	require_root "mount overlayfs"
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && mkdir lo up wk ov a b c && touch a/f1 a/f2 c/f1 c/f2 &&
			mount -t overlay ov -o lowerdir=lo,upperdir=up,workdir=wk ov && mount --bind c b || exit 1
		FAULT_NOTRACE= trace_run ../t setfattrs -v +nodump a/f1 a/f2 b/f1 b/f2 >/dev/null || exit 1
		echo "stat $(grep -cE "(newfstatat|stat|lstat|statx)\([^,]+, \"f[0-9]\"" ../t)"
		echo "get $(grep -cE "syscall_0x1d4\(" ../t)"
		lsattr a/f1 a/f2 b/f1 b/f2
		umount b ov'
	assert_line --index 0 'stat 4'
	# each file read before (-v) and before its change, and one read-back on a, one on b
	assert_line --index 1 'get 10'
	assert_line --index 2 --regexp '^-+d-+ a/f1$'
	assert_line --index 5 --regexp '^-+d-+ b/f2$'
}

@test "a FUSE mount elsewhere (bindfs) costs nothing on tmpfs: still 2 calls per file, no stat; a symlink followed is read back, the mount point and files on the FUSE mount are stat'ed" {
	require_root "mount tmpfs, bindfs"
	require_cmd strace
	fs_require bindfs
	fs_require tmpfs
	FS_FUNCS='calls trusted_mounts_only' run --separate-stderr fs_run tmpfs '
		trusted_mounts_only || exit
		mkdir "$D/t10" "$D/t30" "$MNT/src" "$MNT/fuse" && (cd "$D/t10" && seq -f "f%02g" 10 | xargs touch) &&
			(cd "$D/t30" && seq -f "f%02g" 30 | xargs touch) && (cd "$MNT/src" && touch f1 f2 f3) || exit 1
		cd "$D" || exit 1
		for m in none fuse; do
			[[ $m == none ]] || bindfs "$MNT/src" "$MNT/fuse" || exit 1
			for n in 10 30; do
				FAULT_NOTRACE= trace_run ../h$n setfattrs -h +nodump $(seq -f "t$n/f%02g" $n) &&
					setfattrs -nodump t$n/f* || exit 1
				FAULT_NOTRACE= trace_run ../r$n setfattrs -R +nodump t$n && setfattrs -nodump t$n/f* || exit 1
				FAULT_NOTRACE= trace_run ../l$n setfattrs +nodump $(seq -f "t$n/f%02g" $n) || exit 1
				echo "$m-h $n calls $(calls ../h$n)"
				echo "$m-R $n calls $(calls ../r$n)"
				echo "$m-L $n calls $(calls ../l$n)"
				echo "$m $n stat $(cat ../h$n ../r$n | grep -cE "(newfstatat|stat|lstat|statx)\([^,]+, \"(t[0-9]+/)?f[0-9]+\"")"
				setfattrs -nodump t$n/f* || exit 1
			done
		done
		FAULT_NOTRACE= trace_run ../f setfattrs -h +nodump "$MNT"/fuse/f1 "$MNT"/fuse/f2 "$MNT"/fuse/f3
		for f in f1 f2 f3; do
			echo "on fuse $f stat $(grep -cE "(newfstatat|stat|lstat|statx)\([^,]+, \"$f\"" ../f)"
		done
		# a symlink followed is read back: by name it has no flags (file_getattr fails), pinned: get, set, get
		mkdir "$D/s" && touch "$D/s/a" "$D/s/b" "$D/s/c" "$MNT/src/g" && ln -s "$MNT/src/g" "$D/s/l" || exit 1
		FAULT_NOTRACE= trace_run "$D/sb" setfattrs +nodump "$D/s/a" "$D/s/b" &&
			FAULT_NOTRACE= trace_run "$D/sl" setfattrs +nodump "$D/s/c" "$D/s/l" || exit 1
		echo "symlink get $(grep -cE "syscall_0x1d4\(" "$D/sb") $(grep -cE "syscall_0x1d4\(" "$D/sl")"
		# a mount point named directly: its directory has the FUSE mount below it
		cd "$MNT" && FAULT_NOTRACE= trace_run "$D/mp" setfattrs -h +nodump fuse
		echo "mount point first $(grep -m1 -E "\\([^,]+, \"fuse\"" "$D/mp" | grep -oE "^[0-9]+ +[a-z0-9_]+" | grep -oE "[a-z0-9_]+$")"
		cd / && fusermount -u "$MNT/fuse"'
	# shellcheck disable=SC2154  # set by run --separate-stderr
	((status != 77)) || skip "$stderr"
	assert_success
	assert_per_file none-h 2.0
	assert_per_file none-R 2.0
	assert_per_file none-L 2.0
	assert_line 'none 30 stat 0'
	# the FUSE mount is not below t10 or t30: nothing changes there
	assert_per_file fuse-h 2.0
	assert_per_file fuse-R 2.0
	assert_line 'fuse 30 stat 0'
	# a name followed, kernel flags only, in a directory where they go by name: the same
	assert_per_file fuse-L 2.0
	# a, c: get, set, get (the first); b: get, set; l: get by name (fails), get, set, get (read back)
	assert_line 'symlink get 3 5'
	# the files on the FUSE mount itself: each stat'ed (a change there is read back)
	assert_line --regexp '^on fuse f1 stat [1-9]$'
	assert_line --regexp '^on fuse f2 stat [1-9]$'
	assert_line --regexp '^on fuse f3 stat [1-9]$'
	assert_line --regexp '^mount point first (newfstatat|stat|lstat|statx)$'
}

@test "+offline on N files named: 3 calls per file (the opposite's getxattrat, setxattrat, the opposite again), -offline 1 (removexattrat), no stat" {
	require_root "mount tmpfs"
	fs_require tmpfs
	fs_run_both tmpfs '
		cd "$D" && seq -f "f%02g" 30 | xargs touch || exit 1
		for op in +offline -offline; do
			for n in 10 30; do
				FAULT_NOTRACE= trace_run ../t$n setfattrs $op $(seq -f "f%02g" $n) || exit 1
				echo "$op $n calls $(calls ../t$n)"
				echo "$op $n stat $(grep -cE "(newfstatat|stat|lstat|statx)\(AT_FDCWD, \"f[0-9]+\"" ../t$n)"
				echo "$op $n xattr $(grep -cE "^[0-9]+ +syscall_0x(1cf|1d0|1d2)\(0xffffff9c, " ../t$n)"
				[[ $op == -offline ]] || setfattrs -offline f* || exit 1
			done
		done
		getfattr -n user.fattr.offline f01 2>&1 | grep -c "^user.fattr.offline" || :'
	assert_success
	assert_per_file +offline 3.0
	assert_per_file -offline 1.0
	assert_line '+offline 10 stat 0'
	assert_line '+offline 30 stat 0'
	assert_line '+offline 30 xattr 90'
	assert_line '-offline 30 stat 0'
	assert_line '-offline 30 xattr 30'
	# the last -offline cleared them
	assert_line --index 12 '0'
}

@test "-R: no stat of a regular file met (its directory entry's type is enough): +nodump 2 calls per file (by name: root's own directories), +offline 3" {
	require_root "mount tmpfs"
	fs_require tmpfs
	fs_run_both tmpfs '
		mkdir "$D/t10" "$D/t30" && (cd "$D/t10" && seq -f "f%02g" 10 | xargs touch) &&
			(cd "$D/t30" && seq -f "f%02g" 30 | xargs touch) || exit 1
		cd "$D" || exit 1
		for op in +nodump +offline; do
			for n in 10 30; do
				FAULT_NOTRACE= trace_run ../r$n setfattrs -R $op t$n || exit 1
				echo "$op $n calls $(calls ../r$n)"
				echo "$op $n stat $(grep -cE "(newfstatat|stat|lstat|statx)\([0-9]+, \"f[0-9]+\"" ../r$n)"
			done
		done
		lsattr t30/f30 | cut -c1-22; getfattr -n user.fattr.offline t30/f30 2>&1 | grep -c "^user.fattr.offline"'
	assert_success
	assert_per_file +nodump 2.0
	assert_per_file +offline 3.0
	assert_line '+nodump 30 stat 0'
	assert_line '+offline 30 stat 0'
	assert_line --index 8 --regexp '^-+d-+$'
	assert_line --index 9 '1'
}

@test "fattrs flags without a stat of their own: a fifo, a device, a symlink with -h, a missing file, an opposite and ramfs named as before, the rest done, exit 1" {
	require_root "make a device node, mount ramfs"
	fs_require tmpfs
	fs_run_both tmpfs '
		cd "$D" && touch a b opp && mkfifo fifo && mknod null c 1 3 && ln -s a lnk &&
			setfattr -n user.fattr.pinned -v 1 opp && mkdir r && mount -t ramfs r r && touch r/x || exit 1
		trace_run ../t setfattrs +offline fifo null missing opp a r/x || echo "rc=$?"
		setfattrs -h +offline lnk b || echo "rc=$?"
		setfattrs -offline fifo missing a || echo "rc=$?"
		grep -cE "(newfstatat|stat|lstat|statx)\(AT_FDCWD, \"a\"" ../t
		getfattr -n user.fattr.offline a b 2>&1 | grep -c "^user.fattr.offline"
		umount r; exit 1'
	assert_failure 1
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
