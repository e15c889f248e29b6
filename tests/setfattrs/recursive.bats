#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# setfattrs -R on hostile trees (a symlink to outside, symlink loops, a
# fifo, a device, 10,000 entries, a deep tree under a small descriptor
# limit), -x, and --reference across filesystems, each result checked with
# lsattr and getfattr.
# bats file_tags=setfattrs

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/setfattrs.bash
load '../helpers/setfattrs'

@test "tmpfs: -R over a hostile tree changes what is inside, follows no symlink, leaves fifos and devices alone" {
	require_root "make a device node"
	require_cmd lsattr getfattr strace
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		# LeakSanitizer cannot run under strace (tests/helpers/fault.bash).
		export ASAN_OPTIONS=$FAULT_ASAN_OPTIONS
		cd "$D" || exit 1
		mkdir -p outside root/d/e root/many && touch outside/victim root/f root/d/g root/d/e/h
		ln -s ../outside root/out && ln -s ../../outside/victim root/d/vlink
		ln -s loop root/loop && ln -s . root/self && ln -s .. root/d/up
		mkfifo root/fifo && mknod root/null c 1 3
		(cd root/many && seq -f "n%05g" 10000 | xargs touch)
		strace -qq -o ../trace setfattrs -R +nodump,offline root; echo "rc=$?"
		lsattr -d outside outside/victim | cut -d" " -f1
		getfattr --absolute-names -d -m user.fattr. outside outside/victim | grep -c = || :
		lsattr -R root 2>/dev/null | grep -c "^------d"
		getfattr --absolute-names -h -P -R -d -m user.fattr. root 2>/dev/null | grep -c "offline=\"1\""
		lsattr -d root/d/e/h | cut -d" " -f1
		# From the top only the operand itself is looked up by path.
		grep -E "^(openat|newfstatat|statx)\(AT_FDCWD, \"root/" ../trace | head -3
		grep -E "^openat\([0-9]+, \"[^\"]*\", O_RDONLY\|O_NOCTTY\|O_NONBLOCK\|O_NOFOLLOW\|O_CLOEXEC\|O_DIRECTORY\)" ../trace >../dirs
		grep -vc "\"\.\.\"" ../dirs; grep -c "\"\.\.\"" ../dirs
		grep -E "^openat\([0-9]+, \"(out|loop|self|up|vlink|fifo|null)\"" ../trace | grep -v O_PATH | head -3
		grep -E "^l?(set|get|remove)xattr\(\"[^\"]*/" ../trace | grep -v "^getxattr(\"/proc" | head -3'
	# 4 (root itself, d, e, many) + 3 files + 10000
	assert_equal "${lines[0]}" 'rc=0'
	assert_equal "${lines[1]}" '----------------------'
	assert_equal "${lines[2]}" '----------------------'
	assert_equal "${lines[3]}" '0'
	# lsattr -R lists what is inside root (not root itself): d, e, many, f, g, h and 10000.
	assert_equal "${lines[4]}" '10006'
	assert_equal "${lines[5]}" '10007'
	assert_equal "${lines[6]}" '------d---------------'
	# The directories d, d/e and many were entered, each by openat(dirfd, NAME, O_NOFOLLOW|O_DIRECTORY).
	assert_equal "${lines[7]}" '3'
	# ... and left again through their "..", checked: one descriptor at a time.
	assert_equal "${lines[8]}" '3'
	assert_equal "${#lines[@]}" 9
	assert_equal "$stderr" ''
}

@test "tmpfs: -R +offline, and +offline on named files, where one file has its opposite set: that file named, the others set (getfattr), exit 1" {
	require_cmd getfattr setfattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		mkdir "$D/t" && cd "$D/t" && touch a b c && setfattr -n user.fattr.pinned -v 1 b && mkdir s && touch s/d s/e && cd .. || exit 1
		setfattrs -R +offline t; echo "rc=$?"
		getfattr -R --absolute-names -n user.fattr.offline t 2>/dev/null | sed -n "s/^# file: //p" | sort | tr "\n" " "; echo
		setfattrs -R -offline t && setfattrs +offline t/a t/b t/c t/s/d; echo "rc=$?"
		getfattr -R --absolute-names -n user.fattr.offline t 2>/dev/null | sed -n "s/^# file: //p" | sort | tr "\n" " "; echo'
	assert_equal "${lines[*]}" "rc=1 t t/a t/c t/s t/s/d t/s/e  rc=1 t/a t/c t/s/d "
	assert_equal "${stderr_lines[0]}" "setfattrs: cannot set 'offline' on 't/b': its opposite 'pinned' is set; '-pinned +offline' clears it first"
	assert_equal "${stderr_lines[1]}" "setfattrs: cannot set 'offline' on 't/b': its opposite 'pinned' is set; '-pinned +offline' clears it first"
	assert_equal "${#stderr_lines[@]}" 2
}

@test "tmpfs: -R and operands in a directory never change the working directory: both kinds of flag go by the directory's descriptor and the name, with the *xattrat calls and without them; messages name the path" {
	require_cmd getfattr setfattr lsattr
	fault_require
	nosys_require
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		export ASAN_OPTIONS=$FAULT_ASAN_OPTIONS
		cd "$D" || exit 1
		for m in at path; do
			mkdir -p $m/t/s/u && touch $m/t/a $m/t/s/b $m/t/s/u/c $m/t/s/u/p &&
				setfattr -n user.fattr.pinned -v 1 $m/t/s/u/p || exit 1
		done
		trace_run ../at-R setfattrs -R +offline,nodump at/t; echo "rc=$?"
		trace_run ../at-op setfattrs -integrity at/t/s/b at/t/s/u/c; echo "rc=$?"
		trace_run ../path-R "$NOSYS" xattrat setfattrs -R +offline,nodump path/t; echo "rc=$?"
		trace_run ../path-op "$NOSYS" xattrat setfattrs -integrity path/t/s/b path/t/s/u/c; echo "rc=$?"
		for m in at path; do
			getfattr -R --absolute-names -n user.fattr.offline $m/t 2>/dev/null | sed -n "s/^# file: //p" | sort | tr "\n" " "; echo
			lsattr -d $m/t/s/u/c | cut -d" " -f1
		done
		cat ../at-R ../at-op ../path-R ../path-op | grep -cE "^[0-9]+ +f?chdir\(" || :
		# without them, the path calls reach each name through its directory descriptor
		grep -cE "^[0-9]+ +lsetxattr\(\"/proc/self/fd/[0-9]+/c\", \"user\.fattr\.offline\"" ../path-R'
	assert_equal "${lines[*]}" "rc=1 rc=0 rc=1 rc=0 at/t at/t/a at/t/s at/t/s/b at/t/s/u at/t/s/u/c  ------d--------------- path/t path/t/a path/t/s path/t/s/b path/t/s/u path/t/s/u/c  ------d--------------- 0 1"
	assert_equal "${stderr_lines[0]}" "setfattrs: cannot set 'offline' on 'at/t/s/u/p': its opposite 'pinned' is set; '-pinned +offline' clears it first"
	assert_equal "${stderr_lines[1]}" "setfattrs: 'at/t/s/u/p': applied '+nodump'; failed '+offline'"
	assert_equal "${stderr_lines[2]}" "setfattrs: cannot set 'offline' on 'path/t/s/u/p': its opposite 'pinned' is set; '-pinned +offline' clears it first"
	assert_equal "${stderr_lines[3]}" "setfattrs: 'path/t/s/u/p': applied '+nodump'; failed '+offline'"
	assert_equal "${#stderr_lines[@]}" 4
}

@test "tmpfs: -R depth is not limited by a small descriptor limit (ulimit -n 12, 300 levels)" {
	require_cmd lsattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" || exit 1
		p=deep; for ((i = 0; i < 300; i++)); do p=$p/d; done
		mkdir -p "$p" && touch "$p/leaf"
		(ulimit -n 12 && setfattrs -R +nodump deep); echo "rc=$?"
		lsattr -d "$p/leaf" | cut -d" " -f1
		lsattr -R deep 2>/dev/null | grep -c "^------d"'
	assert_equal "${lines[0]}" 'rc=0'
	assert_equal "${lines[1]}" '------d---------------'
	assert_equal "${lines[2]}" '301'
}

@test "tmpfs: -x does not enter another filesystem; the mount point itself is changed" {
	require_cmd lsattr
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" || exit 1
		mkdir -p top/sub top/other && touch top/other/x
		mount -t tmpfs inner top/sub && touch top/sub/inside || exit 1
		setfattrs -Rx +nodump top; echo "rc=$?"
		lsattr -d top/sub top/sub/inside top/other/x | cut -d" " -f1
		setfattrs -R +nodump top; echo "rc=$?"
		lsattr -d top/sub/inside | cut -d" " -f1
		umount top/sub'
	assert_equal "${lines[0]}" 'rc=0'
	assert_equal "${lines[1]}" '------d---------------'
	assert_equal "${lines[2]}" '----------------------'
	assert_equal "${lines[3]}" '------d---------------'
	assert_equal "${lines[4]}" 'rc=0'
	assert_equal "${lines[5]}" '------d---------------'
}

@test "tmpfs: -R names an unreadable directory and goes on with the rest (as nobody)" {
	require_root "switch to nobody"
	require_cmd setpriv getfattr
	fs_require tmpfs
	run -1 --separate-stderr fs_run tmpfs '
		cd "$D" && chmod 755 . || exit 1
		mkdir -p t/closed t/open && touch t/open/f t/closed/g && chmod 700 t/closed
		chown -R nobody: t && chown root: t/closed
		setpriv --reuid=nobody --regid=nogroup --clear-groups setfattrs -R +offline t; rc=$?
		getfattr --absolute-names -d -m user.fattr. t/open/f t/closed/g | grep =
		exit $rc'
	assert_output 'user.fattr.offline="1"'
	assert_equal "$stderr" "setfattrs: cannot set 'offline' on 't/closed': Permission denied
setfattrs: cannot read directory 't/closed': Permission denied"
}

# A real race, made deterministic: strace delays the walk's reopening of
# ".." (the only call -P .. selects) while this script moves the directory
# being left to another parent; the walk must see the other inode and stop.
@test "tmpfs: -R with a directory moved away during the walk: named, the rest of that operand left, the other operands done, exit 1" {
	require_root "mount tmpfs"
	require_cmd lsattr
	fault_require
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && mkdir -p root/a/b && touch root/a/b/f other || exit 1
		ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -qq -o ../trace -P .. -e trace=openat \
			-e inject=openat:delay_enter=1000000 setfattrs -R +nodump root other 2>../err &
		spid=$!
		# Wait until setfattrs sits in the delayed openat (257) of "..": the
		# same call seen on three polls in a row (a call not delayed is gone).
		same=0 last=
		for ((i = 0; i < 1000 && same < 3; i++)); do
			read -r pid _ <"/proc/$spid/task/$spid/children" 2>/dev/null
			now=$(cat "/proc/${pid:-0}/syscall" 2>/dev/null)
			if [[ $now == "257 "* && $now == "$last" ]]; then ((same++)); else same=0; fi
			last=$now
			sleep 0.02
		done
		mv root/a/b root/moved
		wait "$spid"; echo "rc=$?"
		grep "^setfattrs:" ../err
		lsattr -d root root/a root/moved root/moved/f other | awk "{ print \$2, (\$1 ~ /d/ ? \"nodump\" : \"-\") }"
		grep -c "\"\.\.\".*DELAYED" ../trace'
	assert_equal "${lines[0]}" 'rc=1'
	assert_equal "${lines[1]}" "setfattrs: cannot go back up from 'root/a/b': it was moved during the walk; the rest of 'root' is left alone"
	# everything met before the move, and the next operand, were changed
	assert_equal "${lines[*]:2}" 'root nodump root/a nodump root/moved nodump root/moved/f nodump other nodump 1'
}

@test "ext4 -> tmpfs: --reference copies the flags the file's filesystem can hold, and only those" {
	require_cmd lsattr getfattr
	fs_require tmpfs
	touch ref
	setfattrs +sync,nodump,offline ref 2>/dev/null || skip "the test directory's filesystem keeps no sync flag"
	REF=$BATS_TEST_TMPDIR/ref run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch f g && setfattrs +noatime,pinned f g || exit 1
		setfattrs -v --reference="$REF" f; echo "rc=$?"
		lsattr f | cut -d" " -f1
		getfattr --absolute-names -d -m user.fattr. f | grep =
		setfattrs --reference="$REF" +d g; echo "rc=$?"'
	assert_equal "${lines[0]}" 'changed f: nodump: clear -> set, noatime: set -> clear, offline: clear -> set, pinned: set -> clear'
	assert_equal "${lines[1]}" 'rc=0'
	assert_equal "${lines[2]}" '------d---------------'
	assert_equal "${lines[3]}" 'user.fattr.offline="1"'
	assert_equal "${lines[4]}" 'rc=1'
	assert_equal "$stderr" "setfattrs: --reference takes no operations
Try 'setfattrs --help' for more information."
}

@test "tmpfs -> ext4, xfs -> ext4: --reference leaves alone a flag RFILE's filesystem cannot hold (sync, secrm)" {
	require_cmd lsattr chattr
	fs_require tmpfs
	fs_require xfs
	touch f g
	chattr +Ssd f g 2>/dev/null || skip "the test directory's filesystem keeps no sync or secrm flag"
	# tmpfs holds nodump and noatime, not sync nor secrm
	T=$BATS_TEST_TMPDIR run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && touch ref && setfattrs +noatime ref || exit 1
		setfattrs -v --reference=ref "$T/f"; echo "rc=$?"
		lsattr "$T/f" | cut -d" " -f1 | tr e -'
	assert_equal "${lines[0]}" "changed $BATS_TEST_TMPDIR/f: nodump: set -> clear, noatime: clear -> set"
	assert_equal "${lines[1]}" 'rc=0'
	assert_equal "${lines[2]}" 's-S----A--------------'
	assert_equal "$stderr" ''
	# xfs holds sync and nodump, not secrm
	T=$BATS_TEST_TMPDIR run -0 --separate-stderr fs_run xfs '
		cd "$D" && touch ref || exit 1
		setfattrs -v --reference=ref "$T/g"; echo "rc=$?"
		lsattr "$T/g" | cut -d" " -f1 | tr e -'
	assert_equal "${lines[0]}" "changed $BATS_TEST_TMPDIR/g: nodump: set -> clear, sync: set -> clear"
	assert_equal "${lines[1]}" 'rc=0'
	assert_equal "${lines[2]}" 's---------------------'
	assert_equal "$stderr" ''
}

@test "xfs: --reference copies a size hint with its flag (xfs_io agrees)" {
	require_cmd xfs_io
	fs_require xfs
	run -0 --separate-stderr fs_run xfs '
		cd "$D" && touch ref f && mkdir dref d && setfattrs +extsize=1m,cowextsize=64k ref &&
			setfattrs +extszinherit=256k dref || exit 1
		setfattrs -v --reference=ref f; echo "rc=$?"
		setfattrs -v --reference=dref d; echo "rc=$?"
		xfs_io -c extsize -c cowextsize f d'
	assert_equal "$stderr" ''
	assert_equal "$output" "changed f: extsize: clear -> set (size 0 -> 1048576), cowextsize: clear -> set (size 0 -> 65536)
rc=0
changed d: extszinherit: clear -> set (size 0 -> 262144)
rc=0
[1048576] f
[262144] d
[65536] f
[0] d"
}

@test "tmpfs: -R names an entry that vanished after it was listed, as chmod -R does, and exits 1" {
	fault_require
	fs_require tmpfs
	# The walk's stat of "gone" (by name, in root) fails as when the name was removed meanwhile.
	run -1 --separate-stderr fs_run tmpfs '
		cd "$D" && mkdir root && touch root/gone root/f && cd root || exit 1
		ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -qq -o ../trace -P gone -e trace=statx \
			-e inject=statx:error=ENOENT:when=1 setfattrs -R -v +nodump .'
	stderr_has "setfattrs: cannot access './gone': No such file or directory"
	assert_line 'changed ./f: nodump: clear -> set'
}

@test "tmpfs: -R does not enter a directory replaced between its stat and its open: named, left alone, exit 1" {
	require_cmd getfattr
	fault_require
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && mkdir -p root/sub && touch root/sub/f && cd root || exit 1
		ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -qq -o ../trace -P sub -e trace=openat \
			-e inject=openat:delay_enter=1000000 setfattrs -R +offline . 2>../err &
		spid=$!
		# Wait until setfattrs sits in the delayed openat (257) of "sub".
		same=0 last=
		for ((i = 0; i < 1000 && same < 3; i++)); do
			read -r pid _ <"/proc/$spid/task/$spid/children" 2>/dev/null
			now=$(cat "/proc/${pid:-0}/syscall" 2>/dev/null)
			if [[ $now == "257 "* && $now == "$last" ]]; then ((same++)); else same=0; fi
			last=$now
			sleep 0.02
		done
		mv sub old && mkdir sub && touch sub/evil
		wait "$spid"; echo "rc=$?"
		grep "^setfattrs:" ../err
		getfattr --absolute-names -n user.fattr.offline --only-values old old/f sub sub/evil 2>/dev/null; echo'
	assert_equal "${lines[0]}" 'rc=1'
	assert_equal "${lines[1]}" "setfattrs: cannot enter './sub': it was replaced during the walk; what is below it is left alone"
	# only the directory stat'ed (before the swap) was changed: nothing below either one
	assert_equal "${lines[2]}" '1'
	assert_equal "${#lines[@]}" 3
}

@test "tmpfs: -R does not walk an operand replaced between its change and its open: named, left alone, exit 1" {
	require_cmd getfattr
	fault_require
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" && mkdir top && touch top/f || exit 1
		ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -qq -o trace -P top -e trace=openat \
			-e inject=openat:delay_enter=1000000 setfattrs -R +offline top 2>err &
		spid=$!
		# Wait until setfattrs sits in the delayed openat (257) of "top".
		same=0 last=
		for ((i = 0; i < 1000 && same < 3; i++)); do
			read -r pid _ <"/proc/$spid/task/$spid/children" 2>/dev/null
			now=$(cat "/proc/${pid:-0}/syscall" 2>/dev/null)
			if [[ $now == "257 "* && $now == "$last" ]]; then ((same++)); else same=0; fi
			last=$now
			sleep 0.02
		done
		mv top old && mkdir top && touch top/evil
		wait "$spid"; echo "rc=$?"
		grep "^setfattrs:" err
		getfattr --absolute-names -n user.fattr.offline --only-values old old/f top top/evil 2>/dev/null; echo'
	assert_equal "${lines[0]}" 'rc=1'
	assert_equal "${lines[1]}" "setfattrs: cannot walk 'top': it was replaced after it was changed; what is below it is left alone"
	# only the directory stat'ed (before the swap) was changed: nothing below either one
	assert_equal "${lines[2]}" '1'
	assert_equal "${#lines[@]}" 3
}
