#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tmpcreate -o FILE where publishing can go wrong: symlinks followed as the
# kernel follows them for `>`, nothing left behind on any failure path,
# data flushed before any name is given, and what a replaced FILE keeps.
# bats file_tags=tmpcreate,output

# The fs_run scripts are single-quoted on purpose: they expand inside.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/mounts.bash
load '../helpers/mounts'

mounts_setup_more() {
	load '../helpers/sysctl'
	mounts_workdir
}

# Sysctls are global: set_sysctl's changes are put back, whatever happened.
teardown() {
	sysctl_restore
}

# `ls -A` of the current directory on one line.
names() {
	local n
	n=$(ls -A "$@")
	printf '%s\n' "${n//$'\n'/ }"
}

# ------------------------------------------------------------ symlinks

@test "fs.protected_symlinks on: -o refuses another user's link in a sticky world-writable directory, as > does" {
	require_fs_keeps symlinks
	require_root "own a link as another user"
	set_sysctl fs.protected_symlinks 1
	mkdir st && chmod 1777 st
	echo secret >target
	ln -s ../target st/x
	chown -h nobody: st/x
	# What the shell says.
	run -1 bash -c 'echo new >st/x'
	assert_output --partial "Permission denied"
	run -125 --separate-stderr tmpcreate -o st/x -- echo new
	assert_equal "$stderr" "tmpcreate: cannot write 'st/x': Permission denied"
	run -1 --separate-stderr tmpcreate -o st/x <<<new
	assert_equal "$stderr" "tmpcreate: cannot write 'st/x': Permission denied"
	assert_equal "$(cat target)" secret
	[[ -L st/x ]] || fail "st/x is no longer a link"
	assert_equal "$(names st)" x
	# A dangling one is refused too (> would not create its target).
	ln -s ../created st/d
	chown -h nobody: st/d
	run -1 --separate-stderr tmpcreate -o st/d <<<new
	assert_equal "$stderr" "tmpcreate: cannot write 'st/d': Permission denied"
	[[ ! -e created ]] || fail "the dangling link's target was created"
	# Its owner's own link, or the directory owner's, is followed.
	chown nobody: st
	run -0 --separate-stderr tmpcreate -o st/x <<<new
	assert_equal "$(cat target)" new
}

@test "fs.protected_symlinks off: the same link is followed, as > follows it" {
	require_fs_keeps symlinks
	require_root "own a link as another user"
	set_sysctl fs.protected_symlinks 0
	mkdir st && chmod 1777 st
	echo old >target
	ln -s ../target st/x
	chown -h nobody: st/x
	run -0 --separate-stderr tmpcreate -o st/x <<<new
	assert_equal "$stderr" ""
	assert_equal "$(cat target)" new
	[[ -L st/x ]] || fail "st/x is no longer a link"
}

@test "a link whose size reads as 0 (/proc) is followed to its target, not replaced itself" {
	require_fs_keeps symlinks
	# /proc/self/cwd: lstat says size 0, readlink gives the whole path.
	[[ $(stat -c %s /proc/self/cwd) == 0 ]] || skip "/proc links have a size here"
	mkdir d
	ln -s /proc/self/cwd d/l
	run -1 --separate-stderr tmpcreate -o d/l <<<new
	assert_equal "$stderr" "tmpcreate: cannot write 'd/l': Is a directory"
	[[ -L d/l ]] || fail "d/l is no longer a link"
}

@test "-n refuses a symlink FILE, dangling or not, as set -C and cp -n do" {
	require_fs_keeps symlinks
	ln -s gone dl
	echo old >t
	ln -s t l
	# What the shell says.
	run -1 bash -c 'set -C; echo x >dl'
	run -1 --separate-stderr tmpcreate -n -o dl <<<new
	assert_equal "$stderr" "tmpcreate: cannot write 'dl': File exists"
	run -1 --separate-stderr tmpcreate -n -o l <<<new
	assert_equal "$stderr" "tmpcreate: cannot write 'l': File exists"
	[[ ! -e gone && -L dl && -L l ]] || fail "a link was written through"
	assert_equal "$(cat t)" old
	assert_equal "$(names)" "dl l t"
}

# ------------------------------------------------------------ nothing left behind

@test "--backup when FILE~ is already a hard link of FILE: nothing is left beside them" {
	echo v1 >f
	ln f f~
	run -0 --separate-stderr tmpcreate -b -o f <<<v2
	assert_equal "$stderr" ""
	assert_equal "$(cat f) $(cat f~)" "v2 v1"
	assert_equal "$(names)" "f f~"
}

@test "racing --backup writers: FILE, FILE~ and nothing else" {
	# Two writers backing up the same old FILE: the second one's backup
	# is a rename between two links of one inode, which does nothing.
	echo old >F
	for ((r = 0; r < 20; r++)); do
		pids=()
		for i in 1 2 3 4 5 6 7 8; do
			tmpcreate -b -o F <<<"writer $i" &
			pids+=($!)
		done
		for p in "${pids[@]}"; do wait "$p" || fail "a writer failed"; done
	done
	assert_equal "$(names)" "F F~"
}

# racing_backups ROUNDS WRITERS: WRITERS "tmpcreate -b -o F" at once, ROUNDS
# times; then "failed N" (the writers that exited non-zero), their messages
# each once, and the names left.
racing_backups() {
	local r i p failed=0
	local -a pids
	echo old >F
	for ((r = 0; r < $1; r++)); do
		pids=()
		for ((i = 1; i <= $2; i++)); do
			tmpcreate -b -o F <<<"writer $i" 2>>"$BATS_TEST_TMPDIR/errors" &
			pids+=($!)
		done
		for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
	done
	echo "failed $failed"
	sort -u "$BATS_TEST_TMPDIR/errors"
	names
}

@test "racing --backup writers, 8 at once 200 times: none fails, FILE and FILE~ are left and nothing else" {
	# The tight form of the test above: a scan for a dead writer's hidden
	# backup link could take a live one's between its link and its lock,
	# the old FILE's inode could lose its last link between a writer's
	# lookup of FILE and its link, and a writer whose rename of its hidden
	# link did nothing removed whatever had that name afterwards: each
	# failed a writer now and then ("cannot back up 'F' as 'F~'") or left
	# a hidden name.
	run -0 racing_backups 200 8
	assert_output "failed 0
F F~"
}

@test "--backup: a writer held in its replace keeps its backup link; the writer that meets it waits" {
	# Writer A's replace (its first rename) is held 0.5 s, with its
	# staging lock held and its backup link made; writer B, started
	# meanwhile, waits for that lock instead of taking A's link for a
	# dead writer's, and goes on after A: A's FILE is B's FILE~.
	fault_require
	echo old >F
	echo older >F~
	ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o /dev/null \
		-e inject=renameat:delay_enter=500000:when=1 tmpcreate -b -o F <<<A 2>"$BATS_TEST_TMPDIR/a.err" &
	local a=$! i
	# B starts once A is in its replace: its new file, its backup link and
	# its staging lock are there beside F and F~ (a fixed sleep was too
	# short where A starts slowly: under emulation, on NFS, B went first).
	for ((i = 0; i < 200; i++)); do
		(($(ls -A | wc -l) >= 5)) && break
		sleep 0.05
	done
	run --separate-stderr tmpcreate -b -o F <<<B
	assert_success
	# shellcheck disable=SC2154  # set by run --separate-stderr
	assert_equal "$stderr" ""
	wait "$a" || fail "writer A failed: $(<"$BATS_TEST_TMPDIR/a.err")"
	assert_equal "$(cat F)" B
	assert_equal "$(cat F~)" A
	assert_equal "$(names)" "F F~"
}

@test "sticky directory: a replace that would be refused makes no FILE~ the caller could not remove" {
	require_fs_keeps modes
	require_root "act as two users"
	require_cmd setpriv
	mkdir st && chmod 1777 st
	echo theirs >st/f
	chown daemon: st/f
	chmod 666 st/f
	cd st
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	# What the kernel says to replacing it.
	run -1 as_nobody mv -f /dev/null f 2>/dev/null
	run -1 --separate-stderr as_nobody tmpcreate -b -o f <<<mine
	assert_equal "$stderr" "tmpcreate: cannot write 'f': Operation not permitted"
	assert_equal "$(cat f)" theirs
	assert_equal "$(names)" f
	# Without --backup, the same and nothing left either.
	run -1 --separate-stderr as_nobody tmpcreate -o f <<<mine
	assert_equal "$stderr" "tmpcreate: cannot write 'f': Operation not permitted"
	assert_equal "$(names)" f
	# The caller's own file there is replaced, with its backup.
	run -0 --separate-stderr as_nobody tmpcreate -o g <<<v1
	run -0 --separate-stderr as_nobody tmpcreate -b -o g <<<v2
	assert_equal "$(cat g) $(cat g~)" "v2 v1"
	assert_equal "$(names)" "f g g~"
}

@test "append-only directory: replacing is refused before anything is made; a new FILE is made" {
	require_root "chattr +a"
	mkdir ap
	echo old >ap/f
	chattr +a ap || skip "cannot make an append-only directory here"
	local m rc=0
	# Checked after chattr -a: a failed assertion must not leave the
	# directory append-only (nothing could clean it up).
	for m in auto named; do
		run --separate-stderr tmpcreate --method=$m -o ap/f <<<new
		[[ $status == 1 && $stderr == "tmpcreate: cannot "*"Operation not permitted" ]] || rc=1
		run --separate-stderr tmpcreate --method=$m -b -o ap/f <<<new
		[[ $status == 1 && $stderr == "tmpcreate: cannot "*"Operation not permitted" ]] || rc=1
	done
	run --separate-stderr tmpcreate -o ap/new <<<new
	[[ $status == 0 ]] || rc=1
	l=$(names ap)
	chattr -a ap
	assert_equal "$rc" 0
	assert_equal "$(cat ap/f)" old
	assert_equal "$l" "f new"
}

# TYPE [OPTION]: a writer killed (-9) while it reads stdin leaves its named
# scratch file (no O_TMPFILE there); the next writer of the same FILE
# reclaims it, whatever the first one had written, and nothing is left.
named_reclaim_on() {
	fs_require "$1"
	export OPT=${2-}
	run -0 --separate-stderr fs_run "$1" '
		cd "$D"
		echo old >F
		{
			{ echo part; sleep 5; } | tmpcreate $OPT -o F &
			pid=$!
			for ((i = 0; i < 100; i++)); do
				[[ -n $(compgen -G ".tmpcreate.*") ]] && break
				sleep 0.02
			done
			sleep 0.1
			kill -9 $pid
			wait $pid
		} 2>/dev/null
		echo "killed: $(ls -A | sed "s/^\.tmpcreate\..*/HIDDEN/" | sort | tr "\n" " ")"
		# Another FILE'"'"'s writer leaves it alone.
		tmpcreate $OPT -o G <<<g
		echo "other: $(ls -A | sed "s/^\.tmpcreate\..*/HIDDEN/" | sort | tr "\n" " ")"
		tmpcreate $OPT -o F <<<new; echo "rc $?"
		echo "after: $(ls -A | tr "\n" " ") $(cat F)"'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'killed: F HIDDEN ' 'other: F G HIDDEN ' 'rc 0' 'after: F G  new')"
}

@test "ntfs-3g: the named scratch file of a writer killed by kill -9 is reclaimed by the next writer" {
	named_reclaim_on ntfs-3g
}

@test "tmpfs: --method=named: a kill -9 leftover is reclaimed by the next writer of FILE" {
	named_reclaim_on tmpfs --method=named
}

# ------------------------------------------------------------ durability

# TRACE: the flushes and namings of a traced run, in order, one word each:
# fsync:ROLE / fdatasync:ROLE (ROLE: tmpfile, named, dir: what the
# descriptor was opened as), link, rename (successful calls only).
sync_events() {
	awk '
	{ sub(/^[0-9]+ +/, "") }
	/^openat\(.*O_TMPFILE.*\) = [0-9]+$/ { role[$NF] = "tmpfile" }
	/^openat\(.*O_CREAT\|O_EXCL.*\) = [0-9]+$/ { role[$NF] = "named" }
	/^openat\(.*O_DIRECTORY.*\) = [0-9]+$/ && !/O_PATH/ { role[$NF] = "dir" }
	/^f(data)?sync\([0-9]+\) += 0$/ {
		call = $0; sub(/\(.*/, "", call)
		fd = $0; sub(/^[a-z]+\(/, "", fd); sub(/\).*/, "", fd)
		printf "%s:%s ", call, (fd in role ? role[fd] : "other")
	}
	/^linkat\(.*\) += 0$/ { printf "link " }
	/^rename(at2?)?\(.*\) += 0$/ { printf "rename " }
	END { print "" }' "$1"
}

# EVENTS [OPTION...]: run tmpcreate OPTION... -o F under strace (the calls
# that flush and name files traced, with any --inject=SYSCALL:ERRNO
# faults), F holding "old" before when EVENTS starts with "replace".
sync_order_is() {
	local want=$1 inj=() a
	shift
	fault_require
	local -a opts=()
	for a in "$@"; do
		case $a in
		--inject=*) a=${a#--inject=}; inj+=("${a%%:*}" "${a#*:}") ;;
		*) opts+=("$a") ;;
		esac
	done
	rm -f F
	[[ ${want%% *} == replace ]] && echo old >F
	want=${want#replace }
	run -0 --separate-stderr fault_run "$BATS_TEST_TMPDIR/trace" "${inj[@]}" -- tmpcreate "${opts[@]}" -o F <<<new
	assert_equal "$stderr" ""
	assert_equal "$(cat F)" new
	assert_equal "$(names)" F
	run sync_events "$BATS_TEST_TMPDIR/trace"
	assert_output "$want "
}

@test "durability: every path that publishes flushes the data before the name, the directory after" {
	# O_TMPFILE, a new name and a replaced one (where tmpcreate uses it).
	if fs_keeps tmpfile; then
		sync_order_is "fsync:tmpfile link fsync:dir"
		sync_order_is "replace fsync:tmpfile link rename fsync:dir"
	fi
	# The named method (no O_TMPFILE): the named file itself.
	sync_order_is "fsync:named rename fsync:dir" --method=named
	sync_order_is "replace fsync:named rename fsync:dir" --method=named
	sync_order_is "fsync:named rename fsync:dir" --method=named -n
	fs_keeps tmpfile || return 0
	# An unnamed file that cannot be linked (no AT_EMPTY_PATH, no /proc) is
	# copied into a named one: the copy is flushed before its rename.
	sync_order_is "fsync:tmpfile fsync:named rename fsync:dir" --inject=linkat:ENOENT
	sync_order_is "replace fsync:tmpfile fsync:named rename fsync:dir" --inject=linkat:ENOENT
	# --sync=data: the data, no directory.
	sync_order_is "fdatasync:tmpfile link" --sync=data
	sync_order_is "fdatasync:tmpfile fdatasync:named rename" --sync=data --inject=linkat:ENOENT
	sync_order_is "fdatasync:named rename" --sync=data --method=named
	# --sync=none: nothing flushed.
	sync_order_is "rename" --sync=none --inject=linkat:ENOENT
}

@test "ntfs-3g: the named fallback flushes the file before the rename, the directory after" {
	fs_require ntfs-3g
	fault_require
	run -0 --separate-stderr fs_run ntfs-3g '
		cd "$D"
		echo old >F
		trace_run "$BATS_TEST_TMPDIR/trace" tmpcreate -o F <<<new; echo "rc $?"
		ls -A; cat F'
	assert_output "$(printf '%s\n' 'rc 0' F new)"
	run sync_events "$BATS_TEST_TMPDIR/trace"
	assert_output "fsync:named rename fsync:dir "
}

@test "--no-clobber where neither RENAME_NOREPLACE nor link(2) works: refused, never stat-then-rename" {
	fault_require
	local e
	for e in EPERM EOPNOTSUPP; do
		run -1 --separate-stderr fault_run "$BATS_TEST_TMPDIR/trace" renameat2 EINVAL linkat "$e" -- \
			tmpcreate --method=named -n -o F <<<new
		assert_equal "$stderr" "tmpcreate: cannot write 'F': this filesystem has neither RENAME_NOREPLACE nor hard links, so --no-clobber cannot be kept without a race"
		assert_equal "$(names)" ""
		refute_trace "$BATS_TEST_TMPDIR/trace" '^[0-9]+ +rename(at)?\('
	done
}

# ------------------------------------------------------------ what a replaced FILE keeps

# TYPE CHATTR-LETTERS: FILE with those flags (set while empty) replaced by
# -o keeps them; --preserve without flags (nor xattrs: btrfs shows
# compression as the btrfs.compression xattr too) drops them.
kflags_kept_on() {
	fs_require "$1"
	require_cmd lsattr chattr
	export LETTERS=$2
	run -0 --separate-stderr fs_run "$1" '
		cd "$D"
		: >f
		chattr +$LETTERS f || { echo "cannot chattr +$LETTERS here"; exit 0; }
		echo old >>f
		want=$(lsattr -d f | cut -d" " -f1)
		tmpcreate -o f <<<new; echo "rc $?"
		got=$(lsattr -d f | cut -d" " -f1)
		[[ $got == "$want" ]] && echo "flags kept" || echo "flags $want became $got"
		tmpcreate --preserve=mode,ownership -o f <<<newer
		[[ $(lsattr -d f | cut -d" " -f1) == "$want" ]] && echo "kept without flags" || echo "dropped without flags"
		cat f; ls -A'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'rc 0' 'flags kept' 'dropped without flags' newer f)"
}

@test "ext4: nodump and noatime survive a replace (chattr +dA)" {
	kflags_kept_on ext4 dA
}

@test "xfs: nodump, noatime and sync survive a replace (chattr +dAS)" {
	kflags_kept_on xfs dAS
}

@test "btrfs: nocow survives a replace, set while the new file is empty (chattr +C)" {
	kflags_kept_on btrfs C
}

@test "btrfs: compression survives a replace (chattr +c)" {
	kflags_kept_on btrfs c
}

@test "xfs: the project id survives a replace" {
	fs_require xfs
	require_cmd xfs_io
	run -0 --separate-stderr fs_run xfs '
		cd "$D"
		echo old >f
		xfs_io -c "chproj 42" f
		tmpcreate -o f <<<new; echo "rc $?"
		xfs_io -c lsproj f; cat f'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'rc 0' 'projid = 42' new)"
}

@test "a new FILE in a directory with a default ACL gets the mode and ACL > gives it" {
	require_cmd setfacl getfacl
	mkdir d
	setfacl -d -m u::rw,g::rw,o::r,u:daemon:rw d || skip "no ACLs here"
	umask 022
	echo x >d/shell
	tmpcreate -o d/auto <<<x
	tmpcreate --method=named -o d/named <<<x
	local m
	for m in auto named; do
		assert_equal "$(stat -c %a "d/$m")" "$(stat -c %a d/shell)"
		assert_equal "$(getfacl -cp "d/$m")" "$(getfacl -cp d/shell)"
	done
	assert_equal "$(stat -c %a d/shell)" 664
}

@test "an unreadable set-uid FILE the caller cannot give back to its owner loses its set-id bits" {
	require_fs_keeps modes owners
	require_root "act as two users"
	require_cmd setpriv
	mkdir d && chown nobody: d
	echo old >d/f
	chmod 6711 d/f
	cd d
	run -0 --separate-stderr setpriv --reuid=nobody --regid=nogroup --clear-groups tmpcreate -o f <<<new
	assert_equal "$stderr" ""
	assert_equal "$(stat -c '%a %U' f) $(cat f)" "711 nobody new"
}

@test "FILE's owner cannot be given back: its group still is where the caller may (as cp does), readable or not" {
	require_fs_keeps modes owners
	require_root "act as two users"
	require_cmd setpriv
	mkdir d && chmod 0777 d
	echo old >d/readable
	echo old >d/unreadable
	chown 0:100 d/readable d/unreadable
	chmod 0644 d/readable
	chmod 0600 d/unreadable
	cd d
	for f in readable unreadable; do
		run -0 --separate-stderr setpriv --reuid=nobody --regid=nogroup --groups=100 tmpcreate -o $f <<<new
		assert_equal "$stderr" ""
	done
	assert_equal "$(stat -c '%n %U %g %a' readable unreadable)" "$(printf '%s\n' 'readable nobody 100 644' 'unreadable nobody 100 600')"
}

@test "--if-changed with the same bytes but another -m: the mode is set in place, content and mtime untouched" {
	require_fs_keeps modes
	echo same >f
	chmod 600 f
	touch -d @1000000000 f
	ino=$(stat -c %i f)
	run -0 --separate-stderr tmpcreate -v --if-changed -m 644 -o f <<<same
	assert_equal "$stderr" "tmpcreate: 'f' is unchanged; only its mode was set"
	assert_equal "$(stat -c '%a %Y %i' f)" "644 1000000000 $ino"
	run -0 --separate-stderr tmpcreate -v --if-changed -m 644 -o f <<<same
	assert_equal "$stderr" "tmpcreate: 'f' is unchanged; left as it was"
}

# SYSCALL CMD...: run CMD under strace, held for 3 s just after
# SYSCALL returned, and send it SIGTERM there.  Prints how it ended.
term_after() {
	local sc=$1 spid tpid i
	shift
	ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o "$BATS_TEST_TMPDIR/trace" \
		-e "inject=$sc:delay_exit=3000000:when=1" "$@" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	spid=$!
	for ((i = 0; i < 500; i++)); do
		grep -q "^[0-9]* *$sc(" "$BATS_TEST_TMPDIR/trace" 2>/dev/null && break
		sleep 0.02
	done
	tpid=$(ps -o pid= --ppid "$spid")
	sleep 0.2
	[[ -n $tpid ]] && kill -TERM $tpid
	wait "$spid" 2>/dev/null || :
	grep -q "+++ killed by SIGTERM" "$BATS_TEST_TMPDIR/trace" && echo "killed by SIGTERM"
}

@test "--probe killed by SIGTERM at any step leaves nothing in the directory" {
	fault_require
	mkdir p
	local sc
	for sc in linkat renameat2; do
		run term_after "$sc" tmpcreate --probe p
		assert_output "killed by SIGTERM"
		assert_equal "$sc: $(names p)" "$sc: "
	done
}

@test "-d killed by SIGTERM before printing the name leaves no directory" {
	fault_require
	mkdir p
	run term_after mkdirat tmpcreate -d -p p
	assert_output "killed by SIGTERM"
	assert_equal "$(names p)" ""
	# Printed: the directory is the caller's.
	run -0 tmpcreate -d -p p
	assert_equal "$(names p)" "${output##*/}"
}

@test "fs.protected_regular: -o refuses another user's file in a sticky world-writable directory, as > does" {
	require_fs_keeps modes owners
	require_root "own a file as another user"
	mkdir st && chmod 1777 st
	echo theirs >st/f
	chown nobody: st/f
	chmod 666 st/f
	set_sysctl fs.protected_regular 1
	run -1 bash -c 'echo new >st/f'
	assert_output --partial "Permission denied"
	run -1 --separate-stderr tmpcreate -o st/f <<<new
	assert_equal "$stderr" "tmpcreate: cannot write 'st/f': Permission denied"
	assert_equal "$(cat st/f) $(stat -c %U st/f)" "theirs nobody"
	assert_equal "$(names st)" f
	# 2: group-writable sticky directories too.
	chmod 1775 st
	run -0 tmpcreate -o st/f <<<new1
	set_sysctl fs.protected_regular 2
	chmod 1770 st
	chown nobody: st/f
	run -1 --separate-stderr tmpcreate -o st/f <<<new2
	assert_equal "$stderr" "tmpcreate: cannot write 'st/f': Permission denied"
	# Off: replaced, as > writes into it.
	set_sysctl fs.protected_regular 0
	chmod 1777 st
	run -0 --separate-stderr tmpcreate -o st/f <<<new3
	assert_equal "$(cat st/f)" new3
}

@test "--probe of an append-only directory: refused, nothing made there" {
	require_root "chattr +a"
	mkdir ap
	chattr +a ap || skip "cannot make an append-only directory here"
	run --separate-stderr tmpcreate --probe ap
	l=$(names ap)
	chattr -a ap
	assert_equal "$status" 1
	assert_equal "$stderr" "tmpcreate: cannot probe 'ap': Operation not permitted"
	assert_equal "$l" ""
}

@test "an unnamed file that cannot be linked is copied with its kernel flags (nodump kept)" {
	fault_require
	require_cmd chattr lsattr
	echo old >f
	chattr +d f 2>/dev/null || skip "no chattr +d here"
	run -0 --separate-stderr fault_run "$BATS_TEST_TMPDIR/trace" linkat ENOENT -- tmpcreate -o f <<<new
	assert_equal "$stderr" ""
	assert_equal "$(cat f)" new
	assert_equal "$(lsattr -d f | cut -c7)" d
	assert_equal "$(names)" f
}
