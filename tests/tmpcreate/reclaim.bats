#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What a writer leaves when it fails or is killed half-way, and who takes
# it back: --backup over an older FILE~ (a failed replace keeps both, a
# kill -9 leaves only names the next writer reclaims), --scratch's named
# fallback, and hidden names tied to this machine (network filesystems).
# Faults and kills are injected with strace at the system call that
# matters (tests/helpers/fault.bash).
# bats file_tags=tmpcreate,output

# The fs_run scripts are single-quoted on purpose: they expand inside.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/mounts.bash
MOUNT_TYPES=(ntfs-3g sshfs)
load '../helpers/mounts'

mounts_setup_more() {
	load '../helpers/races'
	mounts_workdir
}

# Every name in DIR (default .), dot files too, on one line.
names() {
	ls -A "${1:-.}" | tr '\n' ' ' | sed 's/ $//'
}

# WHEN CMD...: run CMD under strace, killed by SIGKILL as it enters its
# WHEN-th rename.  Prints nothing; the kill is checked in the trace.
kill_at_rename() {
	local when=$1
	shift
	# In a subshell of its own: the shell's "Killed" goes to /dev/null too.
	(ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o "$BATS_TEST_TMPDIR/trace" \
		-e "inject=rename,renameat,renameat2:signal=SIGKILL:when=$when" "$@" || :) 2>/dev/null
	grep -q '+++ killed by SIGKILL +++' "$BATS_TEST_TMPDIR/trace" ||
		fail "not killed at rename $when: $(cat "$BATS_TEST_TMPDIR/trace")"
}

# ------------------------------------------------------------ --backup over an older FILE~

# backup_renames_fail PATH METHOD: echo N | tmpcreate --method=METHOD -b -o
# $W/f, traced into $BATS_TEST_TMPDIR/trace, every rename that names PATH
# failing with EIO.
backup_renames_fail() {
	echo N | ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o "$BATS_TEST_TMPDIR/trace" \
		-P "$1" -e inject=rename,renameat,renameat2:error=EIO \
		tmpcreate --method="$2" -b -o "$W/f"
}

@test "--backup: a replace that fails after FILE~ exists leaves FILE and the older FILE~ as they were" {
	# The replace (the rename over FILE) fails: every rename that names
	# FILE gets EIO (strace -P).  The older FILE~ must still be there:
	# it is replaced only once FILE has been.
	fault_require
	local m
	for m in auto named; do
		echo A >f
		echo B >'f~'
		run -1 --separate-stderr backup_renames_fail "$W/f" "$m"
		assert_equal "$stderr" "tmpcreate: cannot write '$W/f': Input/output error"
		assert_trace "$BATS_TEST_TMPDIR/trace" 'rename.*"'"$(re_escape "$W/f")"'"\) = -1 EIO .*INJECTED'
		assert_equal "$m: $(cat f) $(cat 'f~') | $(names)" "$m: A B | f f~"
	done
}

@test "--backup: when renaming the old FILE over FILE~ fails after the replace, the replace is undone" {
	# FILE has been replaced; then the old FILE's hidden link cannot be
	# renamed over FILE~ (EIO on the renames naming FILE~): both are put
	# back as they were, and the failure is the backup's.
	fault_require
	local m
	for m in auto named; do
		echo A >f
		echo B >'f~'
		run -1 --separate-stderr backup_renames_fail "$W/f~" "$m"
		assert_equal "$stderr" "tmpcreate: cannot back up '$W/f' as '$W/f~': Input/output error"
		assert_equal "$m: $(cat f) $(cat 'f~') | $(names)" "$m: A B | f f~"
	done
}

@test "--backup: kill -9 at either rename leaves only names the next --backup writer reclaims" {
	# Rename 1 puts the new file over FILE, rename 2 the old FILE over
	# FILE~.  Killed at either, FILE is whole (old or new) and FILE~ is
	# the older backup; what is left is the hidden output and the old
	# FILE's hidden link, both locked by the dead writer: the next writer
	# takes them back.
	fault_require
	local m when
	for m in auto named; do
		for when in 1 2; do
			rm -f f 'f~' .tmpcreate.*
			echo A >f
			echo B >'f~'
			kill_at_rename "$when" tmpcreate --method="$m" -b -o f <<<N
			case $when in
			1) assert_equal "$m $when: $(cat f) $(cat 'f~')" "$m $when: A B" ;;
			2) assert_equal "$m $when: $(cat f) $(cat 'f~')" "$m $when: N B" ;;
			esac
			run -0 compgen -G '.tmpcreate.*'
			run -0 --separate-stderr tmpcreate --method="$m" -b -o f <<<N2
			assert_equal "$stderr" ""
			case $when in
			1) assert_equal "$m $when: $(cat f) $(cat 'f~') | $(names)" "$m $when: N2 A | f f~" ;;
			2) assert_equal "$m $when: $(cat f) $(cat 'f~') | $(names)" "$m $when: N2 N | f f~" ;;
			esac
		done
	done
}

@test "--backup: the old FILE left only under its hidden backup name, FILE gone, becomes FILE~" {
	# cifs replaces a file that is open on the server by removing it
	# first and renaming after: a writer killed in between leaves no FILE,
	# and the old FILE only under its hidden backup link.  Stand-in: killed
	# at its rename, then FILE removed.  The next writer finds no FILE to
	# keep, and makes that link FILE~ rather than lose it.
	fault_require
	echo A >f
	echo B >'f~'
	kill_at_rename 1 tmpcreate -b -o f <<<N
	rm f
	run -0 --separate-stderr tmpcreate -b -o f <<<N2
	assert_equal "$stderr" ""
	assert_equal "$(cat f) $(cat 'f~')" "N2 A"
	# The dead writer's new file keeps its hidden name until the next
	# replace of FILE, which reclaims it.
	run -0 --separate-stderr tmpcreate -b -o f <<<N3
	assert_equal "$(cat f) $(cat 'f~') | $(names)" "N3 N2 | f f~"
}

# kill_before_backup: in the current directory, with f (A) and f~ (B),
# "tmpcreate -b -o f" killed by SIGKILL as it enters each call up to its
# replace that makes or locks its hidden names (the 1st to 3rd linkat(2),
# the 1st and 2nd flock(2), the 1st rename; one that it does not make is
# no kill: f is then put back to A), then run again.  One line per call: the call, then f, f~
# and every name left after the next run; last, "killed N" (the runs
# killed).
kill_before_backup() {
	local at killed=0
	for at in linkat:1 linkat:2 linkat:3 flock:1 flock:2 renameat:1; do
		rm -f f 'f~' .tmpcreate.*
		echo A >f
		echo B >'f~'
		(ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o "$BATS_TEST_TMPDIR/trace" \
			-e "inject=${at%:*}:signal=SIGKILL:when=${at#*:}" tmpcreate -b -o f <<<C || :) 2>/dev/null
		if grep -q '+++ killed by SIGKILL +++' "$BATS_TEST_TMPDIR/trace"; then
			killed=$((killed + 1))
		else
			echo A >f	# it ran to the end: f as if it had not
		fi
		tmpcreate -b -o f <<<D || echo "$at: the next run failed"
		echo "$at: $(cat f) $(cat 'f~') | $(ls -A | tr '\n' ' ')"
	done
	echo "killed $killed"
}

@test "--backup: kill -9 before the replace leaves no hidden name the next writer does not reclaim" {
	# Before, the old FILE was linked under a random hidden name first,
	# locked there, then linked to its own name: killed in between, the
	# random name (the old FILE) stayed for good.  Killed just before the
	# replace, the dead writer's hidden link is still FILE: it goes.  On
	# tmpfs and on FUSE.
	fault_require
	local type at
	for type in tmpfs ntfs-3g; do
		fs_require "$type"
		FS_FUNCS=kill_before_backup run -0 --separate-stderr fs_run "$type" 'cd "$D" && kill_before_backup'
		for at in linkat:1 linkat:2 linkat:3 flock:1 flock:2 renameat:1; do
			assert_line "$at: D A | f f~ "
		done
		[[ ${lines[-1]} == 'killed '[456] ]] || fail "$type: $output"
	done
}

@test "--backup: a writer whose replace fails keeps the FILE~ another writer made meanwhile" {
	# tests/helpers/races.bash; tests/tmpcreate/netfs.bats: sshfs, bindfs.
	race_backup_eio_on
}

@test "--backup: a live writer's hidden backup link is left alone" {
	# Writer 1 is held just before its replace, with the old FILE linked
	# under its hidden name and its staging lock held; writer 2 must not
	# take that name: it waits for the lock, and goes on after writer 1.
	fault_require
	echo A >f
	echo B >'f~'
	ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o "$BATS_TEST_TMPDIR/trace" \
		-e inject=rename,renameat,renameat2:delay_enter=2000000:when=1 \
		tmpcreate -b -o f <<<first 2>"$BATS_TEST_TMPDIR/strace.err" &
	spid=$!
	for ((i = 0; i < 150; i++)); do
		[[ $(compgen -G '.tmpcreate.*' | wc -l) == 3 ]] && break
		sleep 0.02
	done
	[[ $(compgen -G '.tmpcreate.*' | wc -l) == 3 ]] || fail "writer 1 never made its names"
	run -0 --separate-stderr tmpcreate -b -o f <<<second
	assert_equal "$stderr" ""
	# Writer 1 replaced FILE and put its backup (A) over FILE~ first (it
	# fails if writer 2 took its hidden link); then writer 2 kept writer
	# 1's FILE as FILE~.
	wait "$spid" || fail "writer 1 failed: $(cat "$BATS_TEST_TMPDIR/strace.err")"
	assert_equal "$(cat f) $(cat 'f~') | $(names)" "second first | f f~"
}

# ------------------------------------------------------------ --scratch's named fallback

@test "--scratch, named: kill -9 while the scratch file has its name; the next --scratch run reclaims it" {
	# The named fallback (no O_TMPFILE: ramfs, sshfs) names the file only
	# until COMMAND's descriptor is made; a SIGKILL as the name is being
	# removed leaves it.  Its name is the same each time, and locked while
	# in use: the next run in that directory takes it back.
	fault_require
	mkdir d
	ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o "$BATS_TEST_TMPDIR/trace" \
		-e inject=unlinkat:signal=SIGKILL:when=1 \
		tmpcreate --method=named --scratch -p d -- true 2>/dev/null || :
	assert_trace "$BATS_TEST_TMPDIR/trace" '\+\+\+ killed by SIGKILL \+\+\+'
	run -0 compgen -G 'd/.tmpcreate.*'
	left=${output#d/}
	run -0 --separate-stderr trace_run "$BATS_TEST_TMPDIR/trace2" \
		tmpcreate --method=named --scratch -p d -- sh -c 'echo x >&$TMPCREATE_FD'
	assert_equal "$stderr" ""
	assert_trace "$BATS_TEST_TMPDIR/trace2" "unlinkat\(AT_FDCWD, \"d/$(re_escape "$left")\", 0\) = 0"
	assert_equal "$(names d)" ""
}

@test "ntfs-3g (FUSE, no O_TMPFILE): kill -9 of --scratch leaves a name the next run reclaims; a live one's is kept" {
	# ramfs has O_TMPFILE since Linux 6.x: FUSE is where the named
	# fallback is the default, and flock(2) there is the kernel's local one.
	fault_require
	fs_require ntfs-3g
	run -0 --separate-stderr fs_run ntfs-3g '
		cd "$D"
		ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o "$BATS_TEST_TMPDIR/trace" \
			-e inject=unlinkat:signal=SIGKILL:when=1 \
			tmpcreate --scratch -p . -- true 2>/dev/null
		echo "left: $(ls -A | wc -l)"
		# A live one holds the name (and its lock) while another runs.
		ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o /dev/null \
			-e inject=unlinkat:delay_enter=1500000:when=1 \
			tmpcreate --scratch -p . -- true &
		for ((i = 0; i < 100; i++)); do
			[[ $(ls -A | wc -l) == 1 ]] && break
			sleep 0.02
		done
		sleep 0.2	# locked just after it was made
		live=$(ls -A)
		tmpcreate --scratch -p . -- true
		echo "beside a live one: $(ls -A | wc -l) $( [[ $(ls -A) == "$live" ]] && echo same)"
		wait
		echo "after: $(ls -A | wc -l)"'
	assert_output "$(printf '%s\n' 'left: 1' 'beside a live one: 1 same' 'after: 0')"
}

# ------------------------------------------------------------ this machine's names

@test "hidden names end in this machine's tag: a name another machine left is never taken" {
	# Another machine sharing the directory (a network filesystem, where
	# flock(2) is local) uses other names for the same FILE.  Stand-in:
	# the same name with another tag, unlocked, as a dead writer here
	# would leave it.  It is left alone; this machine's own is reclaimed.
	fault_require
	echo old >F
	kill_at_rename 1 tmpcreate -o F <<<mine
	run -0 compgen -G '.tmpcreate.*'
	ours=$output
	[[ $ours =~ ^\.tmpcreate\.[A-Za-z0-9]{10}$ ]] || fail "unexpected name $ours"
	tag=${ours: -4}
	# Every hidden name of this machine ends in the same tag.
	echo A >g
	echo B >'g~'
	kill_at_rename 1 tmpcreate -b -o g <<<N
	mkdir s
	ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o /dev/null -e inject=unlinkat:signal=SIGKILL:when=1 \
		tmpcreate --method=named --scratch -p s -- true 2>/dev/null || :
	run -0 bash -c 'compgen -G ".tmpcreate.*"; compgen -G "s/.tmpcreate.*"'
	assert_equal "${#lines[@]}" 5
	for n in "${lines[@]}"; do
		assert_equal "${n: -4}" "$tag"
	done
	rm -f .tmpcreate.* s/.tmpcreate.* g 'g~'
	rmdir s
	# A foreign machine's leftover for F: same hash, another tag.
	other=${ours%????}$([[ $tag == ZZZZ ]] && echo YYYY || echo ZZZZ)
	echo theirs >"$other"
	kill_at_rename 1 tmpcreate -o F <<<mine
	run -0 --separate-stderr tmpcreate -o F <<<again
	assert_equal "$stderr" ""
	assert_equal "$(cat F) $(cat "$other") | $(names)" "again theirs | $other F"
}

# ------------------------------------------------------------ sshfs: this machine and others

@test "sshfs: flock(2) is this machine's only: held within one mount, not seen from a second mount or the server" {
	# Measured, because the reclaim scheme depends on it: sshfs has no
	# flock support, so the kernel keeps FUSE locks locally.
	fs_require sshfs
	run -0 --separate-stderr fs_run sshfs '
		cd "$D"
		echo x >f
		held() { flock -n -x "$1" true && echo free || echo held; }
		flock -x f sleep 1.5 & sleep 0.5
		echo "same mount: $(held f)"
		wait $!
		sshfs_mount "$BATS_TEST_TMPDIR/m2"
		flock -x f sleep 1.5 & sleep 0.5
		echo "second mount: $(held "$BATS_TEST_TMPDIR/m2/${D##*/}/f")"
		wait $!
		flock -x "$SD/f" sleep 1.5 & sleep 0.5
		echo "the server: $(held f)"
		wait $!'
	assert_output "$(printf '%s\n' 'same mount: held' 'second mount: free' 'the server: free')"
}

@test "sshfs: kill -9 on the named path leaves a hidden file on the server; the next run here reclaims it" {
	fault_require
	fs_require sshfs
	run -0 --separate-stderr fs_run sshfs '
		cd "$D"
		echo old >F
		(ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o /dev/null \
			-e inject=rename,renameat,renameat2:signal=SIGKILL:when=1 tmpcreate -v -o F <<<new || :) 2>/dev/null
		echo "server after kill: $(srv_ls | sed "s/^\.tmpcreate\.[A-Za-z0-9]\{10\}$/HIDDEN/" | tr "\n" " ")"
		echo "F: $(cat F)"
		tmpcreate -v -o F <<<newer
		echo "server after the next run: $(srv_ls | tr "\n" " ")"
		echo "F: $(cat F)"'
	assert_output "$(printf '%s\n' 'server after kill: HIDDEN F ' 'F: old' 'server after the next run: F ' 'F: newer')"
	assert_equal "${stderr_lines[0]}" "tmpcreate: replaced 'F' with method named (O_TMPFILE is not supported here: Operation not supported)"
}

@test "sshfs: a writer on another machine sharing the server is never disturbed, live or dead" {
	# The other machine: a second sshfs client of the same server, in a
	# UTS namespace with another host name (its hidden names end in
	# another tag).  Its flock(2) is not seen here (see above), so only
	# the name keeps this machine's writer off its file.
	fault_require
	fs_require sshfs
	run -0 --separate-stderr fs_run sshfs '
		M2=$BATS_TEST_TMPDIR/m2
		sshfs_mount "$M2"
		cd "$D"
		echo old >F
		other() { unshare -u sh -c "hostname other-machine; exec \"\$@\"" sh "$@"; }
		# Live: held 2 s in its rename, its hidden file on the server.
		other env ASAN_OPTIONS="$FAULT_ASAN_OPTIONS" strace -f -qq -o /dev/null \
			-e inject=rename,renameat,renameat2:delay_enter=2000000:when=1 \
			tmpcreate -o "$M2/${D##*/}/F" <<<theirs 2>"$BATS_TEST_TMPDIR/other.err" &
		opid=$!
		for ((i = 0; i < 150; i++)); do
			[[ -n $(ls -A "$SD" | grep "^\.tmpcreate\.") ]] && break
			sleep 0.02
		done
		theirs=$(ls -A "$SD" | grep "^\.tmpcreate\.")
		echo "their hidden file: ${theirs:+yes}"
		tmpcreate -o F <<<mine && echo "mine: $(cat F)"
		# Read on the server: this client caches the size F had.
		wait $opid && echo "theirs: $(cat "$SD/F")"
		echo "server: $(srv_ls | tr "\n" " ")"
		# Dead: killed in its rename; left alone here, reclaimed there.
		(other env ASAN_OPTIONS="$FAULT_ASAN_OPTIONS" strace -f -qq -o /dev/null \
			-e inject=rename,renameat,renameat2:signal=SIGKILL:when=1 \
			tmpcreate -o "$M2/${D##*/}/F" <<<theirs2 || :) 2>/dev/null
		tmpcreate -o F <<<mine2
		echo "after our run: $(srv_ls | sed "s/^\.tmpcreate\..*/HIDDEN/" | tr "\n" " ") $(cat "$SD/F")"
		other tmpcreate -o "$M2/${D##*/}/F" <<<theirs3
		echo "after their run: $(srv_ls | tr "\n" " ") $(cat "$SD/F")"'
	assert_output "$(printf '%s\n' 'their hidden file: yes' 'mine: mine' 'theirs: theirs' 'server: F ' \
		'after our run: HIDDEN F  mine2' 'after their run: F  theirs3')"
}

@test "sshfs: FILE is never missing on the server while it is replaced (nothing of tmpcreate holds it open)" {
	# libfuse renames an open target out of the way (.fuse_hidden*)
	# before renaming over it, and deletes it at the last close.  With
	# the server's renames slowed down (strace on its sftp-server), the
	# server is listed all along: F must be there at every look.
	fault_require
	fs_require sshfs
	run -0 --separate-stderr fs_run sshfs '
		cd "$D"
		echo old >F
		echo older >F~
		srv=$(_fs_named sftp-server "$SSHD_PID")
		[[ -n $srv ]] || { echo "no sftp-server"; exit 1; }
		look() {
			local i gone=0
			for ((i = 0; i < 60; i++)); do
				[[ -e $SD/F ]] || gone=1
				sleep 0.025
			done
			echo "$1: F missing on the server: $gone"
		}
		for opts in "" "-b" "--preserve=mode"; do
			strace -qq -o /dev/null -p "$srv" -e inject=rename,renameat,renameat2:delay_enter=400000 &
			spid=$!
			sleep 0.5
			tmpcreate $opts -o F <<<"new $opts" &
			look "${opts:-default}"
			wait $!
			kill $spid; wait $spid 2>/dev/null
		done
		echo "F: $(cat "$SD/F"); server: $(srv_ls | tr "\n" " ")"'
	assert_output "$(printf '%s\n' 'default: F missing on the server: 0' '-b: F missing on the server: 0' \
		'--preserve=mode: F missing on the server: 0' 'F: new --preserve=mode; server: F F~ ')"
}

# ------------------------------------------------- locks that mean something else (cifs)

# CMD...: run CMD under strace with every flock(2) after the first failing
# with ERRNO ($LOCK_ERRNO, default EACCES): what the cifs client does, whose
# flock(2) is an SMB byte-range lock, so a second lock on an open file that
# holds one conflicts with it.  Bounded: a writer that loops is killed.
second_lock_fails() {
	ASAN_OPTIONS=$FAULT_ASAN_OPTIONS timeout -k 5 60 strace -f -qq -o "$BATS_TEST_TMPDIR/trace" \
		-e trace=flock,openat -e "inject=flock:error=${LOCK_ERRNO:-EACCES}:when=${LOCK_WHEN:-2+}" "$@"
}

@test "a second flock(2) on one open file failing (cifs) costs no name: -o makes one file and returns" {
	fault_require
	local how
	for how in "--method=named -o new" "--method=named -o old" "--method=named -b -o old" \
		   "-o old2" "--scratch -- true"; do
		rm -rf "$W"/* "$W"/.[!.]* && cd "$W"
		echo A >old && echo B >old2
		run -0 second_lock_fails tmpcreate $how <<<N
		# One exclusive create per hidden name; nothing left but the files.
		[[ $(grep -c 'O_CREAT|O_EXCL' "$BATS_TEST_TMPDIR/trace") -le 1 ]] ||
			fail "$how: more than one name made: $(grep O_EXCL "$BATS_TEST_TMPDIR/trace")"
		case $how in
		*"-o new") assert_equal "$(names)" "new old old2"; assert_equal "$(<new)" N ;;
		*"-b -o old") assert_equal "$(names)" "old old2 old~"; assert_equal "$(<old)" N
			      assert_equal "$(<old~)" A ;;
		*"-o old") assert_equal "$(names)" "old old2"; assert_equal "$(<old)" N ;;
		*"-o old2") assert_equal "$(names)" "old old2"; assert_equal "$(<old2)" N ;;
		*) assert_equal "$(names)" "old old2" ;;
		esac
	done
}

@test "names made and lost again and again: a bounded number of tries, a clear error, nothing left" {
	fault_require
	# Every lock held elsewhere: each name made is given up (and removed) again.
	LOCK_ERRNO=EAGAIN LOCK_WHEN=1+ run -1 --separate-stderr second_lock_fails \
		tmpcreate --method=named -o "$W/f" <<<N
	assert_equal "$stderr" "tmpcreate: cannot create a temporary file in '$W': No locks available"
	assert_equal "$(names "$W")" ""
	local made
	made=$(grep -c 'O_CREAT|O_EXCL' "$BATS_TEST_TMPDIR/trace")
	((made >= 16 && made <= 24)) || fail "$made names tried"
}

# A network filesystem may answer a rename (or a link) with success and
# do otherwise: cifs on 7.2 lost a file made with O_TMPFILE that way, and
# a client may believe a rename its server did not make.  strace makes
# the call return 0 without doing it; on tmpfs (no block device, so the
# check is made, as on cifs, NFS and FUSE) tmpcreate must find FILE not
# the file written, say so, exit 1, leave FILE as it was and the new
# content under the one name it reports.
@test "a rename or link reported done that was not: exit 1, FILE as it was, the content under the name said" {
	fault_require
	run -0 --separate-stderr fs_run tmpfs '
		cd "$D" || exit 2
		for how in "rename -o f" "rename --method=named -o f" "rename -b -o f" \
			   "rename --method=named -o g" "link -o g" "rename --method=named -n -o g" "link -n -o g"; do
			rm -f f f~ g .tmpcreate.* && echo A >f
			set -- $how
			call=$1
			shift
			[[ $call == rename ]] && call=rename,renameat,renameat2 || call=link,linkat
			echo N | ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 timeout -k 5 60 \
				strace -f -qq -o /dev/null -e "inject=$call:retval=0" tmpcreate "$@" 2>../err
			echo "$call $* exit $?: $(ls -A | sed "s/^\.tmpcreate\..*/.tmpcreate.*/" | tr "\n" " ")"
			kept=$(sed -n "s/.* the new content is in .\(.*\).$/\1/p" ../err)
			[[ -f $kept && $(<"$kept") == N && $(<f) == A ]] || { cat ../err; exit 3; }
			sed "s|$kept|KEPT|" ../err
		done'
	assert_output - <<'OUT'
rename,renameat,renameat2 -o f exit 1: .tmpcreate.* f 
tmpcreate: cannot write 'f': the filesystem reported it published, but it is not the file written; the new content is in 'KEPT'
rename,renameat,renameat2 --method=named -o f exit 1: .tmpcreate.* f 
tmpcreate: cannot write 'f': the filesystem reported it published, but it is not the file written; the new content is in 'KEPT'
rename,renameat,renameat2 -b -o f exit 1: .tmpcreate.* f f~ 
tmpcreate: cannot write 'f': the filesystem reported it published, but it is not the file written; the new content is in 'KEPT'
rename,renameat,renameat2 --method=named -o g exit 1: .tmpcreate.* f 
tmpcreate: cannot write 'g': the filesystem reported it published, but it is not the file written; the new content is in 'KEPT'
link,linkat -o g exit 1: .tmpcreate.* f 
tmpcreate: cannot write 'g': the filesystem reported it published, but it is not the file written; the new content is in 'KEPT'
rename,renameat,renameat2 --method=named -n -o g exit 1: .tmpcreate.* f 
tmpcreate: cannot write 'g': the filesystem reported it published, but it is not the file written; the new content is in 'KEPT'
link,linkat -n -o g exit 1: .tmpcreate.* f 
tmpcreate: cannot write 'g': the filesystem reported it published, but it is not the file written; the new content is in 'KEPT'
OUT
}
