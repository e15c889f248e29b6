#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tmpcreate -o FILE: output is written to an unnamed file beside FILE and
# published only when complete.  FILE is always the old content or the new,
# whole; nothing else is ever left in the directory.  Real filesystems are
# mounted per test in a private mount namespace (tests/helpers/fs.bash);
# faults are injected with strace (tests/helpers/fault.bash).
# bats file_tags=tmpcreate,output

# The fs_run scripts are single-quoted on purpose: they expand inside.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/mounts.bash (every FS_TYPES image)
load '../helpers/mounts'

mounts_setup_file_more() {
	# Two inputs of different sizes, with every byte value in them.
	export A=$BATS_FILE_TMPDIR/a B=$BATS_FILE_TMPDIR/b
	head -c 1048576 /dev/urandom >"$A"
	head -c 777777 /dev/urandom >"$B"
}

mounts_setup_more() {
	load '../helpers/races'
	# W: a directory of the test's own, so that listings show only FILE.
	mounts_workdir
}

# The content (checksum) and inode of FILE: equal before and after means
# FILE was not touched.
ident() {
	printf '%s %s\n' "$(sha1sum <"$1" | cut -d' ' -f1)" "$(stat -c %i "$1")"
}

# `ls -A` of the current directory on one line.
names() {
	local n
	n=$(ls -A)
	printf '%s\n' "${n//$'\n'/ }"
}

# ------------------------------------------------------------ the basics

# TYPE [MODES]: stdin and COMMAND forms, a new FILE's mode under umask 022
# and 077 (MODES=no where the filesystem has no modes), exact content, a
# replaced FILE, a failing COMMAND, and nothing else left in the directory.
basics_on() {
	local type=$1
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		cd "$D"
		umask 022; tmpcreate -o s <"$A"; echo "stdin $? $(stat -c %a s)"; cmp "$A" s && echo same
		umask 077; tmpcreate -o c -- cat "$B"; echo "command $? $(stat -c %a c)"; cmp "$B" c && echo same
		umask 022; tmpcreate -o s -- cat "$B"; echo "replaced $? $(stat -c %a s)"; cmp "$B" s && echo same
		tmpcreate -o s -- sh -c "cat \"\$A\"; exit 3"; echo "failed $?"; cmp "$B" s && echo same
		tmpcreate -o c <"$A"; echo "replaced $? $(stat -c %a c)"; cmp "$A" c && echo same
		ls -A'
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	assert_equal "$stderr" ""
	if [[ ${2-} == no ]]; then
		# No Unix modes here: every file shows the same one.
		output=${output//[0-7][0-7][0-7]/MODE}
		assert_output "$(printf '%s\n' 'stdin 0 MODE' same 'command 0 MODE' same \
			'replaced 0 MODE' same 'failed 3' same 'replaced 0 MODE' same c s)"
	else
		assert_output "$(printf '%s\n' 'stdin 0 644' same 'command 0 600' same \
			'replaced 0 644' same 'failed 3' same 'replaced 0 600' same c s)"
	fi
}

@test "ext4: -o writes stdin or COMMAND's output exactly, 0666 & ~umask, nothing else left" {
	basics_on ext4
}

@test "xfs: -o writes stdin or COMMAND's output exactly, 0666 & ~umask, nothing else left" {
	basics_on xfs
}

@test "btrfs: -o writes stdin or COMMAND's output exactly, 0666 & ~umask, nothing else left" {
	basics_on btrfs
}

@test "tmpfs: -o writes stdin or COMMAND's output exactly, 0666 & ~umask, nothing else left" {
	basics_on tmpfs
}

@test "ramfs: -o writes stdin or COMMAND's output exactly, 0666 & ~umask, nothing else left" {
	basics_on ramfs
}

@test "ntfs-3g: -o publishes through the named fallback exactly, nothing else left" {
	# ntfs-3g mounted without "permissions" has no Unix modes.
	basics_on ntfs-3g no
}

@test "-m gives a new FILE exactly that mode, whatever the umask" {
	require_fs_keeps modes
	umask 077
	run -0 --separate-stderr tmpcreate -m 0644 -o f </dev/null
	umask 022
	run -0 --separate-stderr tmpcreate --mode=0604 -o g </dev/null
	assert_equal "$(stat -c '%n %a' f g)" "f 644
g 604"
}

@test "-o with an invalid mode is a usage error" {
	run -1 --separate-stderr tmpcreate -m 9 -o f </dev/null
	assert_equal "$stderr" "tmpcreate: invalid mode '9'; give it in octal, such as 0644
Try 'tmpcreate --help' for more information."
	assert_equal "$(names)" ""
}

@test "-o takes a mode of octal digits only, as install -m does (no sign, no blank)" {
	require_fs_keeps modes
	for m in ' 644' '+644' '-0' '0x1'; do
		run -1 --separate-stderr tmpcreate -m "$m" -o f </dev/null
		assert_equal "$stderr" "tmpcreate: invalid mode '$m'; give it in octal, such as 0644
Try 'tmpcreate --help' for more information."
	done
	assert_equal "$(names)" ""
	run -0 --separate-stderr tmpcreate -m 00000644 -o f </dev/null
	assert_equal "$(stat -c %a f)" 644
}

@test "-oFILE takes no next word, whatever FILE ends with: --backup after it stays an option" {
	echo old >foo
	run -0 --separate-stderr tmpcreate -ofoo --backup echo new
	assert_equal "$stderr" ""
	assert_equal "$(cat foo)" new
	assert_equal "$(cat foo~)" old
	assert_equal "$(names)" "foo foo~"
}

@test "-o writes an empty stdin as an empty FILE" {
	run -0 --separate-stderr tmpcreate -o f </dev/null
	assert_equal "$stderr" ""
	assert_output ""
	assert_file_empty f
	assert_equal "$(names)" "f"
}

@test "-o prints nothing on stdout, and COMMAND's stdout goes only to FILE" {
	run -0 --separate-stderr tmpcreate -o f -- echo hello
	assert_output ""
	assert_equal "$stderr" ""
	assert_equal "$(cat f)" "hello"
}

# ------------------------------------------------------------ COMMAND fails

@test "-o leaves FILE untouched when COMMAND fails, and exits with COMMAND's status" {
	cp "$A" f
	before=$(ident f)
	run -3 --separate-stderr tmpcreate -o f -- sh -c 'cat "$B"; exit 3'
	assert_equal "$stderr" ""
	assert_equal "$(ident f)" "$before"
	assert_equal "$(names)" "f"
}

@test "-o creates no FILE when COMMAND fails" {
	run -3 --separate-stderr tmpcreate -o f -- sh -c 'echo partial; exit 3'
	assert_equal "$stderr" ""
	assert_equal "$(names)" ""
}

@test "-o exits 128+9 when COMMAND is killed by SIGKILL, FILE untouched" {
	cp "$A" f
	before=$(ident f)
	run -137 --separate-stderr tmpcreate -o f -- sh -c 'cat "$B"; kill -9 $$'
	assert_equal "$stderr" ""
	assert_equal "$(ident f)" "$before"
	assert_equal "$(names)" "f"
}

@test "-o exits 127 when COMMAND is not found, FILE untouched" {
	cp "$A" f
	before=$(ident f)
	run -127 --separate-stderr tmpcreate -o f -- nonexist arg
	assert_output ""
	assert_equal "$stderr" "tmpcreate: cannot run 'nonexist': No such file or directory"
	assert_equal "$(ident f)" "$before"
	assert_equal "$(names)" "f"
}

@test "-o exits 126 when COMMAND is not executable, and creates no FILE" {
	require_fs_keeps modes
	printf '#!/bin/sh\necho x\n' >notexec
	chmod 0644 notexec
	run -126 --separate-stderr tmpcreate -o f -- ./notexec
	assert_output ""
	assert_equal "$stderr" "tmpcreate: cannot run './notexec': Permission denied"
	assert_equal "$(names)" "notexec"
}

# ------------------------------------------------------------ kill -9

# TYPE [CHUNK]: kill -9 tmpcreate at a random moment in its first 0.2 s,
# 20 times, writing 10 chunks of CHUNK bytes (default 300000).  FILE is
# each time the old content or the new one, whole, and nothing else is
# left in the directory (the unnamed file dies with the process) -- but
# for the one leftover man tmpcreate's CAVEATS describe and the test
# "kill -9 between linking the hidden name ..." pins: a kill between
# linking the hidden name and renaming it over FILE (up to ~0.5 ms on
# btrfs: about one run in twenty hits it) leaves FILE old and one
# .tmpcreate.?????????? holding the whole new content.  Exactly that is
# accepted, counted and removed; anything else fails.
sigkill_on() {
	local type=$1
	export CHUNK=${2:-300000}
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		# 3 MB in 10 chunks by default, one cat(1) each: about 0.25 s of writing.
		for v in old new; do yes $v | head -c "$CHUNK" >"$BATS_TEST_TMPDIR/chunk.$v"; done
		slow() { local i; for ((i = 0; i < 10; i++)); do cat "$BATS_TEST_TMPDIR/chunk.$1"; done; }
		declare -A sum
		for v in old new; do sum[$v]=$(slow $v | sha1sum); done
		cd "$D"
		slow old >F
		cur=old published=0
		err=$BATS_TEST_TMPDIR/tmpcreate.err
		for ((n = 1; n <= 20; n++)); do
			if [[ $cur == old ]]; then next=new; else next=old; fi
			# The shell says "Killed" on its stderr: not that one.
			{
				slow $next | tmpcreate -o F 2>>"$err" &
				pid=$!
				sleep "$(printf "0.%03d" $((RANDOM % 200)))"
				kill -9 $pid
				wait $pid
			} 2>/dev/null
			s=$(sha1sum <F)
			if [[ $s == "${sum[$next]}" ]]; then
				cur=$next published=$((published + 1))
			elif [[ $s != "${sum[$cur]}" ]]; then
				echo "round $n: F is neither the old nor the new content"
			fi
			# At most one hidden name, FILE'"'"'s own, holding a whole
			# version: the next writer that gets as far as publishing
			# reclaims it.
			l=$(ls -A)
			if [[ $l != F ]]; then
				h=$(compgen -G ".tmpcreate.??????????")
				hs=$(sha1sum <"$h" 2>/dev/null)
				if [[ $l == "$h"$'"'"'\n'"'"'F && ( $hs == "${sum[old]}" || $hs == "${sum[new]}" ) ]]; then
					[[ $h == "${last_h:-$h}" ]] || echo "round $n: a second hidden name $h (first $last_h)"
					last_h=$h window=$((window + 1))
				else
					echo "round $n: left in the directory:" $l
				fi
			fi
		done
		# A writer that finishes leaves nothing: it reclaims a dead one'"'"'s name.
		slow old | tmpcreate -o F 2>>"$err" || echo "the last writer failed"
		[[ $(sha1sum <F) == "${sum[old]}" ]] || echo "the last writer did not publish"
		l=$(ls -A)
		[[ $l == F ]] || echo "after a complete run, left in the directory:" $l
		echo "$published of 20 published; ${window:-0} rounds found a dead writer'"'"'s hidden name"
		cat "$err" >&2'
	assert_equal "$stderr" ""
	assert_output --regexp '^[0-9]+ of 20 published; [0-9]+ rounds found a dead writer.s hidden name$'
	echo "# $type: $output" >&3
}

# bats test_tags=slow
@test "ext4: kill -9 during a large write leaves FILE old or new, whole, and nothing else" {
	sigkill_on ext4
}

# bats test_tags=slow
@test "xfs: kill -9 during a large write leaves FILE old or new, whole, and nothing else" {
	sigkill_on xfs
}

# bats test_tags=slow
@test "btrfs: kill -9 during a large write leaves FILE old or new, whole, and nothing else" {
	sigkill_on btrfs
}

# bats test_tags=slow
@test "tmpfs: kill -9 during a large write leaves FILE old or new, whole, and nothing else" {
	sigkill_on tmpfs
}

# 20 MB: past the 8 MiB steps at which the copy is sent to the disk
# (sync_file_range), so a kill lands while writeback is under way.
# bats test_tags=slow
@test "xfs: kill -9 during a 20 MB write, past the write-behind steps: FILE old or new, nothing else" {
	sigkill_on xfs 2000000
}

# bats test_tags=slow
@test "btrfs: kill -9 during a 10 MB write, past the write-behind step: FILE old or new, nothing else" {
	sigkill_on btrfs 1000000
}

@test "kill -9 between linking the hidden name and renaming it over FILE: FILE whole, and the next writer reclaims the name" {
	# Replacing FILE links the unnamed file under a hidden name, then
	# renames it over FILE: no system call links an unnamed file over an
	# existing name.  A SIGKILL in that sub-millisecond window is the one way the
	# O_TMPFILE path can leave a name behind (man tmpcreate, CAVEATS):
	# FILE is still the old file, whole, and the leftover is a
	# recognisable .tmpcreate.* name holding the complete new data.
	# Hold tmpcreate in renameat (strace delays it) and kill it there.
	fault_require
	echo old >F
	ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o "$BATS_TEST_TMPDIR/trace" \
		-e inject=rename,renameat,renameat2:delay_enter=3000000 \
		tmpcreate -o F <"$A" 2>"$BATS_TEST_TMPDIR/strace.err" &
	spid=$!
	for ((i = 0; i < 100; i++)); do
		compgen -G ".tmpcreate.*" >/dev/null && break
		sleep 0.02
	done
	tpid=$(ps -o pid= --ppid "$spid")
	[[ -n $tpid ]] && kill -9 "$tpid"
	wait "$spid" 2>/dev/null || :
	assert_equal "$(cat F)" "old"
	run -0 compgen -G ".tmpcreate.??????????"
	assert_equal "${#lines[@]}" 1
	cmp "$A" "${lines[0]}"
	assert_equal "$(ls -A | grep -v '^\.tmpcreate\.')" F
	# Its lock died with it: the next writer of F removes the name and
	# uses it itself (strace shows the name reclaimed, then renamed).
	hidden=${lines[0]}
	run -0 --separate-stderr trace_run "$BATS_TEST_TMPDIR/trace2" tmpcreate -o F <<<new
	assert_equal "$stderr" ""
	assert_equal "$(cat F)" new
	assert_equal "$(ls -A)" F
	assert_trace "$BATS_TEST_TMPDIR/trace2" "^[0-9]+ +unlinkat\(AT_FDCWD, \"\./$(re_escape "$hidden")\", 0\) = 0"
	assert_trace "$BATS_TEST_TMPDIR/trace2" "^[0-9]+ +rename(at2?)?\(.*\"\./$(re_escape "$hidden")\", .*\"F\"(, 0)?\) = 0"
}

@test "a live writer's hidden name is left alone: the second writer uses a random one" {
	# Writer 1 is held in renameat (strace delays it) with its hidden name
	# linked and locked; writer 2 finds the name taken and locked.
	fault_require
	echo old >F
	ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o "$BATS_TEST_TMPDIR/trace" \
		-e inject=rename,renameat,renameat2:delay_enter=2000000 \
		tmpcreate -o F <<<first 2>"$BATS_TEST_TMPDIR/strace.err" &
	spid=$!
	for ((i = 0; i < 100; i++)); do
		compgen -G ".tmpcreate.*" >/dev/null && break
		sleep 0.02
	done
	hidden=$(compgen -G ".tmpcreate.*")
	run -0 --separate-stderr tmpcreate -o F <<<second
	assert_equal "$stderr" ""
	wait "$spid"
	assert_equal "$(cat F)" first
	assert_equal "$(ls -A)" F
	[[ -n $hidden ]] || fail "writer 1 never linked its hidden name"
}

# ------------------------------------------------------------ racing writers

# TYPE: 8 writers at once, each with its own 400 kB: FILE is exactly one
# writer's output, every writer succeeds, nothing else is left.
race_on() {
	local type=$1
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		out() { yes "writer $1" | head -c 400000; }
		declare -A who
		for i in 1 2 3 4 5 6 7 8; do who[$(out $i | sha1sum)]=$i; done
		cd "$D"
		echo old >F
		pids=()
		for i in 1 2 3 4 5 6 7 8; do out $i | tmpcreate -o F & pids+=($!); done
		for p in "${pids[@]}"; do wait $p; echo "exit $?"; done >"$BATS_TEST_TMPDIR/rcs"
		sort "$BATS_TEST_TMPDIR/rcs" | uniq -c
		s=$(sha1sum <F)
		if [[ -n ${who[$s]-} ]]; then echo "F is one writer"; else echo "F is a mix"; fi
		ls -A'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' '      8 exit 0' 'F is one writer' F)"
}

@test "8 racing writers: FILE is exactly one writer's complete output" {
	out() { yes "writer $1" | head -c 400000; }
	declare -A who
	for i in 1 2 3 4 5 6 7 8; do who[$(out $i | sha1sum)]=$i; done
	echo old >F
	pids=()
	for i in 1 2 3 4 5 6 7 8; do out $i | tmpcreate -o F & pids+=($!); done
	for p in "${pids[@]}"; do
		wait "$p" || fail "a writer failed with status $?"
	done
	s=$(sha1sum <F)
	[[ -n ${who[$s]-} ]] || fail "F is no writer's whole output"
	assert_equal "$(names)" "F"
}

@test "ext4: 8 racing writers: FILE is exactly one writer's complete output" {
	race_on ext4
}

@test "ntfs-3g: 8 racing writers: FILE is exactly one writer's complete output" {
	race_on ntfs-3g
}

@test "tmpfs: 8 racing writers with -n on a missing FILE: one succeeds, the others get File exists" {
	race_noclobber_on tmpfs
}

@test "xfs: 8 racing writers with -n on a missing FILE: one succeeds, the others get File exists" {
	race_noclobber_on xfs
}

@test "ntfs-3g: 8 racing writers with -n on a missing FILE: one succeeds, the others get File exists" {
	# No RENAME_NOREPLACE on FUSE here: the named fallback must still be exclusive.
	race_noclobber_on ntfs-3g
}

# ------------------------------------------------------------ -n

@test "-n refuses an existing FILE with File exists and leaves it untouched" {
	cp "$A" f
	before=$(ident f)
	run -1 --separate-stderr tmpcreate -n -o f <"$B"
	assert_equal "$stderr" "tmpcreate: cannot write 'f': File exists"
	assert_equal "$(ident f)" "$before"
	assert_equal "$(names)" "f"
}

@test "--no-clobber with COMMAND exits 125 on an existing FILE and does not run COMMAND" {
	echo old >f
	run -125 --separate-stderr tmpcreate --no-clobber -o f -- touch ran
	assert_equal "$stderr" "tmpcreate: cannot write 'f': File exists"
	assert_equal "$(cat f)" "old"
	assert_equal "$(names)" "f"
}

@test "-n creates a missing FILE" {
	run -0 --separate-stderr tmpcreate -n -o f <"$A"
	assert_equal "$stderr" ""
	cmp "$A" f
	assert_equal "$(names)" "f"
}

@test "ntfs-3g: --no-clobber refuses an existing FILE and creates a missing one" {
	fs_require ntfs-3g
	run -0 --separate-stderr fs_run ntfs-3g '
		cd "$D"
		echo old >f
		tmpcreate -n -o f <"$A"; echo "existing $?"; cat f
		tmpcreate -n -o g <"$A"; echo "missing $?"; cmp "$A" g && echo same
		ls -A'
	assert_equal "$stderr" "tmpcreate: cannot write 'f': File exists"
	assert_output "$(printf '%s\n' 'existing 1' old 'missing 0' same f g)"
}

@test "ntfs-3g: -v says the named method was used" {
	fs_require ntfs-3g
	run -0 --separate-stderr fs_run ntfs-3g '
		cd "$D"
		echo new | tmpcreate -v -o f; echo "new $?"
		echo again | tmpcreate -v -o f; echo "again $?"; cat f
		ls -A'
	assert_output "$(printf '%s\n' 'new 0' 'again 0' again f)"
	assert_equal "$stderr" "tmpcreate: created 'f' with method named (O_TMPFILE is not supported here: Operation not supported)
tmpcreate: replaced 'f' with method named (O_TMPFILE is not supported here: Operation not supported)"
}

# ------------------------------------------------------------ ENOSPC

@test "tmpfs: ENOSPC: exit 1 (125 with COMMAND), message, old FILE untouched, nothing left" {
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		mkdir "$D/small"
		mount -t tmpfs -o size=1m fattrs-small "$D/small" || exit 125
		cd "$D/small"
		echo old >f
		head -c 3M /dev/zero | tmpcreate -o f; echo "stdin $?"; cat f; ls -A
		tmpcreate -o f -- head -c 3M /dev/zero; echo "command $?"; cat f; ls -A
		tmpcreate -o g -- head -c 3M /dev/zero; echo "new $?"; ls -A
		df -k . | awk "NR == 2 { print \"used \" \$3 }"
		cd / && umount "$D/small"'
	assert_equal "$stderr" "tmpcreate: cannot write 'f': No space left on device
tmpcreate: cannot write 'f': No space left on device
tmpcreate: cannot write 'g': No space left on device"
	# "used 4": the one-line f, nothing of the failed writes.
	assert_output "$(printf '%s\n' 'stdin 1' old f 'command 125' old f 'new 125' f 'used 4')"
}

@test "ntfs-3g: ENOSPC removes the named scratch file and leaves FILE untouched" {
	fs_require ntfs-3g
	run -0 --separate-stderr fs_run ntfs-3g '
		cd "$D"
		echo old >f
		head -c 20M /dev/zero | tmpcreate -o f; echo "stdin $?"; cat f
		ls -A'
	assert_equal "$stderr" "tmpcreate: cannot write 'f': No space left on device"
	assert_output "$(printf '%s\n' 'stdin 1' old f)"
}

# ------------------------------------------------------------ sync

@test "fsync failing with EIO: exit 1, cannot sync, FILE untouched, nothing left" {
	fault_require
	cp "$A" f
	before=$(ident f)
	run -1 --separate-stderr fault_run "$BATS_TEST_TMPDIR/trace" fsync EIO fdatasync EIO -- \
		tmpcreate -o f <"$B"
	assert_equal "$stderr" "tmpcreate: cannot sync 'f': Input/output error"
	assert_equal "$(ident f)" "$before"
	assert_equal "$(names)" "f"
}

@test "fsync failing with EIO under COMMAND: exit 125, FILE untouched" {
	fault_require
	cp "$A" f
	before=$(ident f)
	run -125 --separate-stderr fault_run "$BATS_TEST_TMPDIR/trace" fsync EIO fdatasync EIO -- \
		tmpcreate -o f -- cat "$B"
	assert_equal "$stderr" "tmpcreate: cannot sync 'f': Input/output error"
	assert_equal "$(ident f)" "$before"
	assert_equal "$(names)" "f"
}

@test "--sync=data failing with EIO: cannot sync, a new FILE is not created" {
	fault_require
	run -1 --separate-stderr fault_run "$BATS_TEST_TMPDIR/trace" fsync EIO fdatasync EIO -- \
		tmpcreate --sync=data -o f <"$B"
	assert_equal "$stderr" "tmpcreate: cannot sync 'f': Input/output error"
	assert_equal "$(names)" ""
}

@test "the directory's fsync failing with EIO: exit 1, cannot sync the directory" {
	fault_require
	echo old >f
	run -1 --separate-stderr fault_run "$BATS_TEST_TMPDIR/trace" fsync:when=2 EIO -- \
		tmpcreate -o f <"$A"
	assert_equal "$stderr" "tmpcreate: cannot sync the directory of 'f': Input/output error"
	assert_equal "$(names)" "f"
}

# The descriptor numbers in TRACE of the O_TMPFILE and of the directories
# opened with O_DIRECTORY.
tmpfile_fd() {
	grep -oE 'O_TMPFILE[^)]*\) = [0-9]+$' "$1" | grep -oE '[0-9]+$'
}
sync_calls() {
	grep -oE '(fsync|fdatasync|syncfs|sync_file_range)\([0-9]+' "$1" | sort
}

@test "--sync=none does no fsync, fdatasync or syncfs at all" {
	fault_require
	trace=$BATS_TEST_TMPDIR/trace
	run -0 --separate-stderr trace_run "$trace" tmpcreate --sync=none -o f <"$A"
	cmp "$A" f
	refute_trace "$trace" '(^|[^a-z_])(fsync|fdatasync|syncfs|sync_file_range|sync)\('
}

@test "--sync=data syncs the file's data but not the directory" {
	require_fs_keeps tmpfile
	fault_require
	trace=$BATS_TEST_TMPDIR/trace
	echo old >f
	run -0 --separate-stderr trace_run "$trace" tmpcreate --sync=data -o f <"$A"
	cmp "$A" f
	fd=$(tmpfile_fd "$trace")
	[[ -n $fd ]] || fail "no O_TMPFILE in the trace"
	run sync_calls "$trace"
	assert_output --regexp "^f(data)?sync\\($fd\$"
}

@test "--sync=full (the default) syncs the file, then its directory" {
	require_fs_keeps tmpfile
	fault_require
	trace=$BATS_TEST_TMPDIR/trace
	echo old >f
	run -0 --separate-stderr trace_run "$trace" tmpcreate -o f <"$A"
	cmp "$A" f
	fd=$(tmpfile_fd "$trace")
	dirfds=$(grep -oE 'O_DIRECTORY[^)]*\) = [0-9]+$' "$trace" | grep -oE '[0-9]+$' | sort -u)
	[[ -n $fd && -n $dirfds ]] || fail "no O_TMPFILE or O_DIRECTORY open in the trace"
	# In the trace's order (sync_calls sorts by descriptor number, which
	# says nothing about which came first).
	run grep -oE '(fsync|fdatasync|syncfs|sync_file_range)\([0-9]+' "$trace"
	assert_line --index 0 --regexp "^f(data)?sync\\($fd\$"
	[[ ${#lines[@]} -eq 2 ]] || fail "expected two syncs, got: $output"
	grep -qx "${lines[1]#*(}" <<<"$dirfds" || fail "the second sync is not of a directory: $output"
	# ... and in that order: the file's data before the name, the directory after.
	run grep -nE "(fsync|fdatasync)\\($fd\\)|renameat|linkat" "$trace"
	assert_line --index 0 --regexp "sync\\($fd\\)"
}

# Past 8 MiB the copy is sent to the disk as it goes (sync_file_range), so
# that the final fsync has little left to do; the error it reports is the
# copy's, since fsync would not report it a second time.
@test "a large FILE is sent to the disk while it is copied, then fsynced; not with --sync=none" {
	require_fs_keeps tmpfile
	fault_require
	for _ in {1..20}; do cat "$A"; done >"$BATS_TEST_TMPDIR/big"
	trace=$BATS_TEST_TMPDIR/trace
	echo old >f
	run -0 --separate-stderr trace_run "$trace" tmpcreate -o f <"$BATS_TEST_TMPDIR/big"
	cmp "$BATS_TEST_TMPDIR/big" f
	fd=$(tmpfile_fd "$trace")
	[[ -n $fd ]] || fail "no O_TMPFILE in the trace"
	# 20 MiB: two 8 MiB steps started, none old enough to wait for; all on the temp file.
	run grep -cE "sync_file_range\\($fd, (0|8388608), 8388608, SYNC_FILE_RANGE_WRITE\\)" "$trace"
	assert_output 2
	run grep -nE "sync_file_range|f(data)?sync\\($fd\\)" "$trace"
	assert_line --index 2 --regexp "fsync\\($fd\\)"
	run -0 --separate-stderr trace_run "$trace" tmpcreate --sync=none -o f <"$BATS_TEST_TMPDIR/big"
	cmp "$BATS_TEST_TMPDIR/big" f
	refute_trace "$trace" 'sync_file_range\('
}

@test "writeback failing with EIO during the copy: exit 1, cannot write, FILE untouched, nothing left" {
	fault_require
	for _ in {1..12}; do cat "$A"; done >"$BATS_TEST_TMPDIR/big"
	cp "$B" f
	before=$(ident f)
	run -1 --separate-stderr fault_run "$BATS_TEST_TMPDIR/trace" sync_file_range EIO -- \
		tmpcreate -o f <"$BATS_TEST_TMPDIR/big"
	assert_equal "$stderr" "tmpcreate: cannot write 'f': Input/output error"
	assert_equal "$(ident f)" "$before"
	assert_equal "$(names)" "f"
	# The same from COMMAND: tmpcreate's failure, 125.
	run -125 --separate-stderr fault_run "$BATS_TEST_TMPDIR/trace" sync_file_range EIO -- \
		tmpcreate -o f -- cat "$BATS_TEST_TMPDIR/big"
	assert_equal "$stderr" "tmpcreate: cannot write 'f': Input/output error"
	assert_equal "$(ident f)" "$before"
	assert_equal "$(names)" "f"
}

@test "sync_file_range unsupported (EINVAL): the copy goes on and fsync does the flushing" {
	fault_require
	for _ in {1..12}; do cat "$A"; done >"$BATS_TEST_TMPDIR/big"
	trace=$BATS_TEST_TMPDIR/trace
	run -0 --separate-stderr fault_run "$trace" sync_file_range EINVAL -- \
		tmpcreate -o f <"$BATS_TEST_TMPDIR/big"
	cmp "$BATS_TEST_TMPDIR/big" f
	run grep -c 'sync_file_range(' "$trace"
	assert_output 1
	run grep -cE '(^|[^a-z_])fsync\(' "$trace"
	assert_output 2
}

# ------------------------------------------------------------ preservation

# TYPE: as root, a replaced FILE keeps mode, owner and group, xattrs (the
# fattrs flags included) and ACLs; --preserve=mode keeps only the mode;
# -m overrides the mode and keeps the rest.
preserve_on() {
	local type=$1
	fs_require "$type"
	require_root "chown files"
	require_cmd setfattr getfattr setfacl getfacl
	run -0 --separate-stderr fs_run "$type" '
		show() {
			echo "$1: $(stat -c "%a %u:%g" "$1") $(cat "$1")" \
				$(getfattr --absolute-names -d -m "^user\\." "$1" 2>/dev/null | sed "/^#/d;/^\$/d" | sort)
		}
		cd "$D"
		for f in m p o; do
			echo old >$f
			chown 65534:65534 $f && chmod 0640 $f &&
			setfattr -n user.x -v 1 $f && setfattr -n user.fattr.offline -v 1 $f || exit 125
		done
		echo old >a
		setfacl -m u:65534:rw a || exit 125
		echo new | tmpcreate -o m; echo "default $?"
		echo new | tmpcreate --preserve=mode -o p; echo "mode only $?"
		echo new | tmpcreate -m 0600 -o o; echo "-m 0600 $?"
		echo new | tmpcreate -o a; echo "acl $?"
		show m; show p; show o
		getfacl -cn a
		ls -A'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'default 0' 'mode only 0' '-m 0600 0' 'acl 0' \
		'm: 640 65534:65534 new user.fattr.offline="1" user.x="1"' \
		'p: 640 0:0 new' \
		'o: 600 65534:65534 new user.fattr.offline="1" user.x="1"' \
		'user::rw-' 'user:65534:rw-' 'group::r--' 'mask::rw-' 'other::r--' '' a m o p)"
}

@test "ext4: as root, mode, owner, group, xattrs and ACLs are kept; --preserve=mode and -m narrow that" {
	preserve_on ext4
}

@test "xfs: as root, mode, owner, group, xattrs and ACLs are kept; --preserve=mode and -m narrow that" {
	preserve_on xfs
}

@test "btrfs: as root, mode, owner, group, xattrs and ACLs are kept; --preserve=mode and -m narrow that" {
	preserve_on btrfs
}

@test "tmpfs: as root, mode, owner, group, xattrs and ACLs are kept; --preserve=mode and -m narrow that" {
	preserve_on tmpfs
}

@test "ramfs: without xattr support, mode and owner are still kept, and --preserve=xattr has nothing to lose" {
	# An old FILE with xattrs cannot exist on ramfs (it has none), and the
	# old FILE and the new one always share a filesystem: a failing
	# --preserve=xattr cannot happen here.  What can: nothing to keep.
	fs_require ramfs
	require_root "chown files"
	run -0 --separate-stderr fs_run ramfs '
		cd "$D"
		for f in d x; do echo old >$f; chown 65534:65534 $f; chmod 0640 $f; done
		echo new | tmpcreate -o d; echo "default $?"
		echo new | tmpcreate --preserve=xattr -o x; echo "xattr $?"
		stat -c "%n %a %u:%g" d x
		ls -A'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'default 0' 'xattr 0' 'd 640 65534:65534' 'x 644 0:0' d x)"
}

@test "--preserve=ownership fails when the caller may not give FILE its owner; by default it is dropped" {
	require_fs_keeps modes
	require_root "switch to another user"
	require_cmd setpriv
	mkdir pub
	chmod 0777 pub
	cd pub
	echo old >f
	echo old >g
	chmod 0666 f g
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }
	as_nobody tmpcreate --version >/dev/null 2>&1 || skip "nobody cannot run the built tmpcreate here"
	run -125 --separate-stderr as_nobody tmpcreate --preserve=ownership -o f -- echo new
	assert_equal "$stderr" "tmpcreate: cannot preserve the ownership of 'f': Operation not permitted"
	assert_equal "$(cat f)" "old"
	run -0 --separate-stderr as_nobody tmpcreate -o g -- echo new
	assert_equal "$stderr" ""
	assert_equal "$(stat -c '%a %u:%g' g) $(cat g)" "666 65534:65534 new"
	assert_equal "$(names)" "f g"
}

# ------------------------------------------------------------ symlinks

@test "a symlink FILE: the target is replaced, the link stays a link" {
	require_fs_keeps symlinks
	echo old >t
	ln -s t l
	run -0 --separate-stderr tmpcreate -o l -- echo new
	assert_equal "$stderr" ""
	[[ -L l && $(readlink l) == t ]] || fail "l is no longer the link to t"
	assert_equal "$(cat t)" "new"
	assert_equal "$(names)" "l t"
}

@test "a relative symlink into another directory: the target is replaced in the target's directory" {
	require_fs_keeps symlinks
	fault_require
	mkdir a b
	echo old >b/t
	ln -s ../b/t a/l
	run -0 --separate-stderr trace_run "$BATS_TEST_TMPDIR/trace" tmpcreate -o a/l -- echo new
	assert_equal "$stderr" ""
	[[ -L a/l && $(readlink a/l) == ../b/t ]] || fail "a/l is no longer the link to ../b/t"
	assert_equal "$(cat b/t)" "new"
	assert_equal "$(ls -A a) | $(ls -A b)" "l | t"
	assert_trace "$BATS_TEST_TMPDIR/trace" 'openat\(AT_FDCWD, "a/\.\./b", [^)]*O_TMPFILE'
}

@test "tmpfs: a symlink to a file on another filesystem: the target is replaced there" {
	require_fs_keeps symlinks
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		echo old >"$D/t"
		ln -s "$D/t" "$BATS_TEST_TMPDIR/w/l"
		cd "$BATS_TEST_TMPDIR/w"
		tmpcreate -o l <"$A"; echo "rc $?"
		cmp "$A" "$D/t" && echo same
		[[ -L l ]] && echo link
		ls -A; ls -A "$D"'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'rc 0' same link l t)"
}

@test "-P replaces a symlink FILE itself with a regular file, the target untouched" {
	require_fs_keeps symlinks
	echo old >t
	ln -s t l
	run -0 --separate-stderr tmpcreate -P -o l -- echo new
	assert_equal "$stderr" ""
	[[ -f l && ! -L l ]] || fail "l is not a regular file"
	assert_equal "$(cat l) $(cat t)" "new old"
	assert_equal "$(names)" "l t"
}

@test "--no-dereference is -P" {
	require_fs_keeps symlinks
	echo old >t
	ln -s t l
	run -0 --separate-stderr tmpcreate --no-dereference -o l -- echo new
	[[ -f l && ! -L l ]] || fail "l is not a regular file"
	assert_equal "$(cat t)" "old"
}

@test "a dangling symlink FILE: its target is created and the link kept" {
	require_fs_keeps symlinks
	mkdir sub
	ln -s sub/t l
	run -0 --separate-stderr tmpcreate -o l -- echo new
	assert_equal "$stderr" ""
	[[ -L l && $(readlink l) == sub/t ]] || fail "l is no longer the link to sub/t"
	assert_equal "$(cat sub/t)" "new"
	assert_equal "$(names) | $(ls -A sub)" "l sub | t"
}

# ------------------------------------------------------------ --backup

@test "--backup keeps the old FILE as FILE~, the same inode, and FILE gets the new content" {
	cp "$A" f
	ino=$(stat -c %i f)
	run -0 --separate-stderr tmpcreate --backup -o f <"$B"
	assert_equal "$stderr" ""
	cmp "$A" f~
	cmp "$B" f
	assert_equal "$(stat -c %i f~)" "$ino"
	assert_equal "$(names)" "f f~"
}

@test "-b is --backup with the default suffix" {
	echo old >f
	run -0 --separate-stderr tmpcreate -b -o f -- echo new
	assert_equal "$(cat f~) $(cat f)" "old new"
	assert_equal "$(names)" "f f~"
}

@test "--backup=.bak keeps the old FILE as FILE.bak" {
	echo old >f
	run -0 --separate-stderr tmpcreate --backup=.bak -o f -- echo new
	assert_equal "$stderr" ""
	assert_equal "$(cat f.bak) $(cat f)" "old new"
	assert_equal "$(names)" "f f.bak"
}

@test "--backup replaces an existing backup" {
	echo older >f~
	echo old >f
	run -0 --separate-stderr tmpcreate --backup -o f -- echo new
	assert_equal "$stderr" ""
	assert_equal "$(cat f~) $(cat f)" "old new"
	assert_equal "$(names)" "f f~"
}

@test "--backup makes no backup when FILE did not exist" {
	run -0 --separate-stderr tmpcreate --backup -o f -- echo new
	assert_equal "$stderr" ""
	assert_equal "$(cat f)" "new"
	assert_equal "$(names)" "f"
}

@test "--backup leaves FILE and its backup alone when COMMAND fails" {
	echo older >f~
	echo old >f
	run -4 --separate-stderr tmpcreate --backup -o f -- sh -c 'echo new; exit 4'
	assert_equal "$(cat f~) $(cat f)" "older old"
	assert_equal "$(names)" "f f~"
}

@test "ntfs-3g: --backup works through the named fallback" {
	fs_require ntfs-3g
	run -0 --separate-stderr fs_run ntfs-3g '
		cd "$D"
		echo old >f
		echo new | tmpcreate --backup -o f; echo "rc $?"
		echo newer | tmpcreate --backup -o f; echo "rc $?"
		echo "$(cat f~) $(cat f)"
		ls -A'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'rc 0' 'rc 0' 'new newer' f f~)"
}

# ------------------------------------------------------------ --if-changed

@test "--if-changed with the same bytes: exit 0, FILE, its inode and mtime untouched" {
	cp "$A" f
	touch -d @1000000000 f
	before=$(stat -c '%Y %i' f)
	run -0 --separate-stderr tmpcreate --if-changed -o f <"$A"
	assert_equal "$stderr" ""
	assert_equal "$(stat -c '%Y %i' f)" "$before"
	cmp "$A" f
	assert_equal "$(names)" "f"
}

@test "--if-changed with different bytes of the same size replaces FILE" {
	printf 'aaaa' >f
	touch -d @1000000000 f
	before=$(stat -c '%Y %i' f)
	run -0 --separate-stderr tmpcreate --if-changed -o f -- printf 'aaab'
	assert_equal "$stderr" ""
	assert_not_equal "$(stat -c '%Y %i' f)" "$before"
	assert_equal "$(cat f)" "aaab"
	assert_equal "$(names)" "f"
}

@test "--if-changed with different bytes replaces FILE" {
	cp "$A" f
	before=$(stat -c '%Y %i' f)
	run -0 --separate-stderr tmpcreate --if-changed -o f <"$B"
	cmp "$B" f
	assert_not_equal "$(stat -c '%Y %i' f)" "$before"
	assert_equal "$(names)" "f"
}

@test "--if-changed creates a missing FILE" {
	run -0 --separate-stderr tmpcreate --if-changed -o f <"$A"
	cmp "$A" f
	assert_equal "$(names)" "f"
}

# ------------------------------------------------------------ refusals

@test "FILE is a directory: cannot write, Is a directory; COMMAND is not run" {
	mkdir d
	run -1 --separate-stderr tmpcreate -o d </dev/null
	assert_equal "$stderr" "tmpcreate: cannot write 'd': Is a directory"
	run -125 --separate-stderr tmpcreate -o d -- touch ran
	assert_equal "$stderr" "tmpcreate: cannot write 'd': Is a directory"
	assert_equal "$(names) | $(ls -A d)" "d | "
}

@test "a fifo FILE is refused, not replaced: it stays a fifo; COMMAND is not run" {
	require_fs_keeps fifos
	mkfifo p
	run -1 --separate-stderr tmpcreate -o p </dev/null
	assert_equal "$stderr" "tmpcreate: cannot replace 'p': not a regular file; use shell redirection for fifos and devices"
	run -125 --separate-stderr tmpcreate -o p -- touch ran
	assert_equal "$stderr" "tmpcreate: cannot replace 'p': not a regular file; use shell redirection for fifos and devices"
	[ -p p ]
	assert_equal "$(names)" "p"
}

@test "a character device reached through a symlink is refused, not replaced" {
	require_fs_keeps symlinks
	ln -s /dev/null devnull
	run -1 --separate-stderr tmpcreate -o devnull </dev/null
	assert_equal "$stderr" "tmpcreate: cannot replace 'devnull': not a regular file; use shell redirection for fifos and devices"
	[ -c /dev/null ]
	[ -L devnull ]
}

@test "-p and --tmpdir are refused with -o: FILE's own directory is used" {
	run -1 --separate-stderr tmpcreate -o f -p "$W" </dev/null
	assert_equal "${stderr_lines[0]}" "tmpcreate: --tmpdir does not apply to --output: FILE's own directory is used"
	assert_equal "${stderr_lines[1]}" "Try 'tmpcreate --help' for more information."
	assert_equal "$(names)" ""
}

@test "a closed stdin is an error, not a read of whatever file takes its number" {
	echo old >F
	run -1 --separate-stderr bash -c 'exec <&-; exec tmpcreate -o F'
	assert_equal "$stderr" "tmpcreate: cannot read standard input: Bad file descriptor"
	assert_equal "$(cat F) | $(names)" "old | F"
}

@test "a missing directory: cannot create a temporary file in it" {
	run -1 --separate-stderr tmpcreate -o nodir/f </dev/null
	assert_equal "$stderr" "tmpcreate: cannot create a temporary file in 'nodir': No such file or directory"
	run -125 --separate-stderr tmpcreate -o nodir/f -- touch ran
	assert_equal "$stderr" "tmpcreate: cannot create a temporary file in 'nodir': No such file or directory"
	assert_equal "$(names)" ""
}

@test "a read-only directory: Permission denied, FILE untouched" {
	local -a as_user=()
	mkdir ro
	echo old >ro/f
	chmod 0555 ro
	if [[ $EUID -eq 0 ]]; then
		# Root bypasses permissions: run tmpcreate as nobody, who may
		# traverse this test's own directories but not write in ro.
		command -v setpriv >/dev/null || skip "needs setpriv to drop root"
		as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
		local d=$W
		while [[ $d == "$BATS_RUN_TMPDIR"* && $d != / ]]; do
			chmod o+x "$d"
			d=${d%/*}
		done
		"${as_user[@]}" test -x "$(command -v tmpcreate)" ||
			skip "nobody cannot run the built tmpcreate from here"
	fi
	run -1 --separate-stderr "${as_user[@]}" tmpcreate -o ro/f </dev/null
	assert_equal "$stderr" "tmpcreate: cannot create a temporary file in 'ro': Permission denied"
	run -125 --separate-stderr "${as_user[@]}" tmpcreate -o ro/f -- echo new
	assert_equal "$stderr" "tmpcreate: cannot create a temporary file in 'ro': Permission denied"
	chmod 0755 ro
	assert_equal "$(cat ro/f) | $(ls -A ro)" "old | f"
}

@test "tmpfs: a read-only mount: Read-only file system, FILE untouched" {
	fs_require tmpfs
	run -0 --separate-stderr fs_run tmpfs '
		mkdir "$D/ro"
		mount -t tmpfs fattrs-ro "$D/ro" || exit 125
		echo old >"$D/ro/f"
		mount -o remount,ro "$D/ro" || exit 125
		cd "$D"
		tmpcreate -o ro/f <"$A"; echo "stdin $?"
		tmpcreate -o ro/f -- cat "$A"; echo "command $?"
		cat ro/f; ls -A ro
		cd / && umount "$D/ro"'
	assert_equal "$stderr" "tmpcreate: cannot create a temporary file in 'ro': Read-only file system
tmpcreate: cannot create a temporary file in 'ro': Read-only file system"
	assert_output "$(printf '%s\n' 'stdin 1' 'command 125' old f)"
}

# FLAG WORD: chattr +FLAG on FILE in ext4: refused with the exact message,
# FILE and the flag untouched, nothing left.
flagged_on_ext4() {
	local flag=$1 word=$2 lsattr_word=$3
	fs_require ext4
	require_root "set chattr flags"
	require_cmd chattr lsattr
	run -0 --separate-stderr fs_run ext4 '
		cd "$D"
		echo old >f
		chattr +'"$flag"' f || exit 125
		trap "chattr -'"$flag"' \"\$D/f\"" EXIT
		tmpcreate -o f <"$A"; echo "stdin $?"
		tmpcreate -o f -- touch ran; echo "command $?"
		cat f
		lsattr -l f | sed "s/^f *//"
		ls -A'
	assert_equal "$stderr" "tmpcreate: cannot replace 'f': it is $word; tmpcreate never clears flags (see chattr(1))
tmpcreate: cannot replace 'f': it is $word; tmpcreate never clears flags (see chattr(1))"
	assert_line --index 0 'stdin 1'
	assert_line --index 1 'command 125'
	assert_line --index 2 'old'
	assert_line --index 3 --partial "$lsattr_word"
	assert_line --index 4 'f'
	[[ ${#lines[@]} -eq 5 ]] || fail "unexpected output: $output"
}

@test "ext4: an immutable FILE is refused, untouched, and stays immutable" {
	flagged_on_ext4 i immutable Immutable
}

@test "ext4: an append-only FILE is refused, untouched, and stays append-only" {
	flagged_on_ext4 a append-only Append_Only
}

# ------------------------------------------------------------ signals (named fallback)

@test "ntfs-3g: SIGTERM, SIGINT and SIGHUP while reading stdin remove the hidden scratch file" {
	require_fs_keeps fifos
	fs_require ntfs-3g
	run -0 --separate-stderr fs_run ntfs-3g '
		fifo=$BATS_TEST_TMPDIR/fifo
		mkfifo "$fifo"
		echo old >"$D/F"
		cd /
		for sig in TERM INT HUP; do
			# A background job starts with SIGINT ignored, and tmpcreate
			# keeps it ignored (inherit.bats): give it the default back.
			env --default-signal=INT tmpcreate -o "$D/F" <"$fifo" &
			pid=$!
			exec 4>"$fifo"
			echo partial >&4
			# Wait until its hidden file exists.
			for ((i = 0; i < 100; i++)); do
				compgen -G "$D/.tmpcreate.*" >/dev/null && break
				sleep 0.02
			done
			echo "$sig during: $(cd "$D" && ls -A | sed "s/^\.tmpcreate\.[A-Za-z0-9]\{10\}$/HIDDEN/" | tr "\n" " ")"
			kill -s $sig $pid
			wait $pid 2>/dev/null
			echo "$sig exit $?"
			exec 4>&-
			echo "$sig after: $(cat "$D/F") $(ls -A "$D" | tr "\n" " ")"
		done'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' \
		'TERM during: HIDDEN F ' 'TERM exit 143' 'TERM after: old F ' \
		'INT during: HIDDEN F ' 'INT exit 130' 'INT after: old F ' \
		'HUP during: HIDDEN F ' 'HUP exit 129' 'HUP after: old F ')"
}

@test "--method=named: SIGTERM while reading stdin removes the hidden scratch file" {
	require_fs_keeps fifos
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	echo old >F
	tmpcreate --method=named -o F <"$BATS_TEST_TMPDIR/fifo" &
	pid=$!
	exec 4>"$BATS_TEST_TMPDIR/fifo"
	echo partial >&4
	for ((i = 0; i < 100; i++)); do
		compgen -G ".tmpcreate.*" >/dev/null && break
		sleep 0.02
	done
	[[ $i -lt 100 ]] || fail "no hidden scratch file appeared"
	kill -TERM $pid
	rc=0
	wait $pid || rc=$?
	exec 4>&-
	assert_equal "$rc" 143
	assert_equal "$(cat F) | $(names)" "old | F"
}
