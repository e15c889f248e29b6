#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tmpcreate on network and stacked filesystems: sshfs (over a private
# OpenSSH server on 127.0.0.1), bindfs (a FUSE passthrough) and overlayfs
# (tests/helpers/fs.bash).  --probe tells the truth there, every mode keeps
# its promise or fails clearly, signals leave nothing on the server side,
# losing the server mid-write is a clear error with FILE untouched, and a
# stale mount elsewhere never hangs a program.
# bats file_tags=tmpcreate,netfs

# The fs_run scripts are single-quoted on purpose: they expand inside.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

setup_file() {
	load '../helpers/common'
	load '../helpers/fs'
	export BATS_NO_PARALLELIZE_WITHIN_FILE=true
	fs_prepare sshfs bindfs overlay overlay-ext4
}

setup() {
	load '../helpers/common'
	load '../helpers/fs'
	load '../helpers/fault'
	load '../helpers/races'
}

# ------------------------------------------------------------ --probe

# TYPE EXPECTED: --probe --json of $D, then what each operation really does
# there, found with other tools: O_TMPFILE and linking it (xfs_io -T,
# flink), RENAME_NOREPLACE (mv -n, traced), hard links (ln), user xattrs
# (setfattr).  Both must be EXPECTED ("o_tmpfile link rename_noreplace
# hard_links user_xattr method"),
# and the probe leaves nothing behind, on the server side either.
probe_truth_on() {
	local type=$1 want=$2
	require_cmd jq
	require_cmd xfs_io
	require_cmd strace
	require_cmd setfattr
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		tmpcreate --probe --json "$D" |
			jq -r "[.o_tmpfile, .link, .rename_noreplace, .hard_links, .user_xattr, .method] | map(tostring) | join(\" \")"
		echo "left: $(ls -A "$D") $([[ -z $SD ]] || srv_ls)"
		# What the operations do.
		if xfs_io -T -c "pwrite -q 0 1" "$D" 2>/dev/null; then
			t=true
			if xfs_io -T -c "pwrite -q 0 1" -c "flink $D/linked" "$D" 2>/dev/null &&
				[[ -f $D/linked ]]; then l=AT_EMPTY_PATH; else l=impossible; fi
		else
			t=false l=null
		fi
		echo a >"$D/a"
		strace -qq -e trace=renameat2 -o "$BATS_TEST_TMPDIR/mv.trace" mv -n "$D/a" "$D/b"
		if grep -q "RENAME_NOREPLACE) = 0" "$BATS_TEST_TMPDIR/mv.trace"; then n=true; else n=false; fi
		if ln "$D/b" "$D/c" 2>/dev/null; then h=true; else h=false; fi
		if setfattr -n user.t -v 1 "$D/b" 2>/dev/null; then x=true; else x=false; fi
		if [[ $t == true && $l != impossible ]]; then m=tmpfile; else m=named; fi
		echo "$t $l $n $h $x $m"'
	assert_equal "$stderr" ""
	assert_equal "${lines[0]}" "${lines[2]}"
	assert_equal "${lines[0]}" "$want"
	assert_equal "${lines[1]}" "left:  "
}

# bats test_tags=mount
@test "sshfs: --probe says what sshfs does: no O_TMPFILE, no RENAME_NOREPLACE, no user xattrs" {
	probe_truth_on sshfs "false null false true false named"
}

# bats test_tags=mount
@test "bindfs: --probe says what a libfuse 2 passthrough does: no O_TMPFILE, no RENAME_NOREPLACE, xattrs" {
	probe_truth_on bindfs "false null false true true named"
}

# bats test_tags=mount
@test "overlay: --probe says what overlayfs on tmpfs does: O_TMPFILE (6.10), RENAME_NOREPLACE, xattrs" {
	probe_truth_on overlay "true AT_EMPTY_PATH true true true tmpfile"
}

# bats test_tags=mount
@test "sshfs: --probe says so when the server has no hard links (no hardlink@openssh.com)" {
	FS_SFTP_ARGS='-P hardlink' probe_truth_on sshfs "false null false false false named"
}

# bats test_tags=mount
@test "overlay-ext4: --probe says what overlayfs on ext4 does" {
	probe_truth_on overlay-ext4 "true AT_EMPTY_PATH true true true tmpfile"
}

# ------------------------------------------------------------ every mode

# TYPE METHOD: mktemp mode (a file 0600 and a directory 0700 that exist on
# the server side), -o (new, replaced with its mode kept, -n refusing and
# creating), --scratch; with the method -v names; nothing else left.
modes_on() {
	local type=$1 method=$2
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		cd "$D"
		umask 022
		f=$(tmpcreate -p .) && echo "file $(stat -c %a "$SD/${f##*/}")"
		d=$(tmpcreate -d -p .) && echo "dir $(stat -c %a "$SD/${d##*/}")"
		u=$(tmpcreate -u -p .) && [[ ! -e $u ]] && echo "dry run makes nothing"
		rm -r "$f" "$d"
		tmpcreate -v -o F <<<one 2>&1
		chmod 640 F
		tmpcreate -v -o F <<<two 2>&1
		echo "F: $(cat "$SD/F") $(stat -c %a "$SD/F")"
		tmpcreate -n -o F <<<three 2>&1; echo "-n on F: $?"
		tmpcreate -n -o G <<<four; echo "-n on G: $? $(cat "$SD/G")"
		tmpcreate --scratch -- sh -c "echo s >&\$TMPCREATE_FD; cat \"\$TMPCREATE_FILE\""
		echo "scratch: $?"
		srv_ls'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'file 600' 'dir 700' 'dry run makes nothing' \
		"tmpcreate: created 'F' with method $method" \
		"tmpcreate: replaced 'F' with method $method" 'F: two 640' \
		"tmpcreate: cannot write 'F': File exists" '-n on F: 1' '-n on G: 0 four' \
		s 'scratch: 0' F G)"
}

# bats test_tags=mount
@test "sshfs: mktemp mode, -o, -n and --scratch keep their promises through the named method" {
	modes_on sshfs "named (O_TMPFILE is not supported here: Operation not supported)"
}

# bats test_tags=mount
@test "sshfs-nocache: mktemp mode, -o, -n and --scratch keep their promises without sshfs caches" {
	modes_on sshfs-nocache "named (O_TMPFILE is not supported here: Operation not supported)"
}

# bats test_tags=mount
@test "bindfs: mktemp mode, -o, -n and --scratch keep their promises through the named method" {
	modes_on bindfs "named (O_TMPFILE is not supported here: Operation not supported)"
}

# bats test_tags=mount
@test "overlay: mktemp mode, -o, -n and --scratch keep their promises with O_TMPFILE" {
	modes_on overlay "tmpfile (O_TMPFILE works here)"
}

# bats test_tags=mount
@test "sshfs: --method=tmpfile is refused clearly and leaves nothing on the server" {
	fs_require sshfs
	run -1 --separate-stderr fs_run sshfs 'tmpcreate --method=tmpfile -p "$D"'
	[[ $stderr == "tmpcreate: failed to create file via template '"*"/tmp.XXXXXXXXXX': Operation not supported; this filesystem has no O_TMPFILE (use --method=auto)" ]] ||
		fail "unexpected message: $stderr"
	assert_equal "$(fs_ls)" ''
}

# bats test_tags=mount
@test "overlay: -o replaces a file of the lower layer: copied up, xattrs and mode kept" {
	fs_require overlay
	FS_LOWER='echo old >F; chmod 640 F; setfattr -n user.k -v v F' \
	run -0 --separate-stderr fs_run overlay '
		tmpcreate -o "$D/F" <<<new
		echo "$(cat "$D/F") $(stat -c %a "$D/F") $(getfattr --absolute-names --only-values -n user.k "$D/F")"
		echo "upper: $(cat "$SD/F")"
		echo "lower: $(cat "$LOWER/${D##*/}/F")"'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'new 640 v' 'upper: new' 'lower: old')"
}

# ------------------------------------------------------------ renames that do not replace

# A server without posix-rename@openssh.com answers a rename over an
# existing name with a failure.  Replacing FILE must then fail clearly,
# FILE untouched -- not succeed by other means that leave FILE missing for
# a moment.  (libfuse's high-level API first moves a rename's target aside
# as .fuse_hidden* when the target is open: tmpcreate holding the old FILE
# open across the rename made sshfs do exactly that.)
# bats test_tags=mount
@test "sshfs: on a server without posix-rename, replacing FILE fails clearly and FILE is untouched" {
	fs_require sshfs
	FS_SFTP_ARGS='-P posix-rename' run -1 --separate-stderr fs_run sshfs '
		echo old >"$D/F"
		tmpcreate -o "$D/F" <<<new
		rc=$?
		echo "F: $(cat "$SD/F")"
		exit $rc'
	assert_equal "$stderr" "tmpcreate: cannot write '$BATS_TEST_TMPDIR/mnt/test-$BATS_TEST_NUMBER/F': Operation not permitted"
	assert_output 'F: old'
	assert_equal "$(fs_ls)" F
}

# What the server does for a replace: bindfs serves a plain directory, so
# its own system calls are the server's; one rename, of the hidden name
# over FILE.
# bats test_tags=mount
@test "bindfs: replacing FILE is one rename in the directory served, never FILE moved aside first" {
	fs_require bindfs
	require_cmd strace
	run -0 --separate-stderr fs_run bindfs '
		echo old >"$D/F"
		T=$BATS_TEST_TMPDIR/daemon.trace
		strace -qq -f -e trace=rename,renameat,renameat2 -o "$T" \
			$(printf -- "-p %s " $(ls /proc/$FS_PID/task)) &
		sp=$!
		for ((i = 0; i < 500; i++)); do
			grep -q "^TracerPid:[[:space:]]*[1-9]" /proc/$FS_PID/status && break
			sleep 0.01
		done
		tmpcreate -o "$D/F" <<<new
		echo "F: $(cat "$SD/F")"
		kill $sp; wait $sp
		grep -c rename "$T"
		grep -v "^[0-9]* *rename[a-z0-9]*(\"[^\"]*\.tmpcreate\.[^\"]*\", \"[^\"]*/F\")" "$T" >&2
		srv_ls'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'F: new' 1 F)"
}

# What tmpcreate.1 warns about: with -o workaround=rename, sshfs itself
# replaces a name the server will not rename over by moving it aside
# first; tmpcreate cannot tell, and the replace succeeds.
# bats test_tags=mount
@test "sshfs-rename: on a server without posix-rename, sshfs replaces FILE itself (not atomically)" {
	fs_require sshfs-rename
	FS_SFTP_ARGS='-P posix-rename' run -0 --separate-stderr fs_run sshfs-rename '
		echo old >"$D/F"
		tmpcreate -o "$D/F" <<<new
		echo "F: $(cat "$SD/F")"'
	assert_equal "$stderr" ""
	assert_output 'F: new'
	assert_equal "$(fs_ls)" F
}

# bats test_tags=mount
@test "sshfs: on a server without hard links or posix-rename, -n refuses clearly instead of racing" {
	fs_require sshfs
	FS_SFTP_ARGS='-P posix-rename,hardlink' run -1 --separate-stderr fs_run sshfs '
		tmpcreate -n -o "$D/G" <<<new'
	assert_equal "$stderr" "tmpcreate: cannot write '$BATS_TEST_TMPDIR/mnt/test-$BATS_TEST_NUMBER/G': this filesystem has neither RENAME_NOREPLACE nor hard links, so --no-clobber cannot be kept without a race"
	assert_equal "$(fs_ls)" ''
}

# ------------------------------------------------------------ --backup where links have inode numbers of their own

# sshfs (without -o use_ino) gives every name an inode number of its own,
# and nlink 1: two links of one file cannot be told apart by stat(2).
# --backup must still remove what it made, and only that.

# bats test_tags=mount
@test "sshfs: on a server without posix-rename, a failed --backup replace leaves FILE and the older FILE~ as they were, nothing else" {
	fs_require sshfs
	FS_SFTP_ARGS='-P posix-rename' run -0 --separate-stderr fs_run sshfs '
		cd "$D"
		echo old >F
		tmpcreate -b -o F <<<new; echo "no FILE~ before: $? $(cat "$SD/F") | $(srv_ls | tr "\n" " ")"
		rm -f F~ && echo older >F~
		tmpcreate -b -o F <<<new; echo "an older FILE~: $? $(cat "$SD/F") $(cat "$SD/F~") | $(srv_ls | tr "\n" " ")"'
	assert_equal "$stderr" "$(printf "tmpcreate: cannot write 'F': Operation not permitted\n%.0s" 1 2)"
	assert_output "$(printf '%s\n' 'no FILE~ before: 1 old | F ' 'an older FILE~: 1 old older | F F~ ')"
}

# TYPE: FILE~ is a hard link of FILE (ln): renaming the old FILE's hidden
# link over FILE~ is then a rename between two links of one file, which
# succeeds and does nothing; the hidden name must not stay behind.
backup_over_own_link_on() {
	local type=$1
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		cd "$D"
		echo old >F
		ln F F~
		tmpcreate -b -o F <<<new; echo "exit $?"
		echo "$(cat "$SD/F") $(cat "$SD/F~") | $(srv_ls | tr "\n" " ")"
		ln F F~2
		tmpcreate --backup=~2 -o F <<<newer; echo "exit $?"
		echo "$(cat "$SD/F") $(cat "$SD/F~2") | $(srv_ls | tr "\n" " ")"'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'exit 0' 'new old | F F~ ' 'exit 0' 'newer new | F F~ F~2 ')"
}

# bats test_tags=mount
@test "sshfs: --backup where FILE~ is a hard link of FILE leaves nothing else on the server" {
	backup_over_own_link_on sshfs
}

# bats test_tags=mount
@test "sshfs-nocache: --backup where FILE~ is a hard link of FILE leaves nothing else on the server" {
	backup_over_own_link_on sshfs-nocache
}

# bats test_tags=mount
@test "bindfs: --backup where FILE~ is a hard link of FILE leaves nothing else in the directory served" {
	backup_over_own_link_on bindfs
}

# bats test_tags=mount
@test "sshfs: a --backup writer whose replace fails keeps the FILE~ another writer made meanwhile" {
	race_backup_eio_on sshfs
}

# bats test_tags=mount
@test "bindfs: a --backup writer whose replace fails keeps the FILE~ another writer made meanwhile" {
	race_backup_eio_on bindfs
}

# bats test_tags=mount
@test "sshfs: 8 racing writers with -n on a missing FILE: one succeeds, the others are refused" {
	race_noclobber_on sshfs 100000
}

# ------------------------------------------------------------ signals

# TYPE: SIGTERM while reading stdin (-o) and while COMMAND runs
# (--scratch): nothing published, nothing left on the server side.
sigterm_on() {
	local type=$1
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		fifo=$BATS_TEST_TMPDIR/fifo
		mkfifo "$fifo"
		echo old >"$D/F"
		tmpcreate -o "$D/F" <"$fifo" &
		pid=$!
		exec 4>"$fifo"
		echo partial >&4
		for ((i = 0; i < 200; i++)); do
			[[ $(ls -A "${SD:-$D}" | wc -l) -gt 1 ]] && break
			[[ $FS_TYPE == overlay* ]] && break	# O_TMPFILE: nothing to see
			sleep 0.02
		done
		kill -TERM $pid
		wait $pid
		echo "-o: $? $(cat "${SD:-$D}/F") $(srv_ls | tr "\n" " ")"
		exec 4>&-
		tmpcreate --scratch -- sh -c "echo x >&\$TMPCREATE_FD; touch \"\$BATS_TEST_TMPDIR/up\"; exec sleep 100" &
		pid=$!
		for ((i = 0; i < 500; i++)); do [[ -e $BATS_TEST_TMPDIR/up ]] && break; sleep 0.02; done
		kill -TERM $pid
		wait $pid
		echo "--scratch: $? $(srv_ls | tr "\n" " ")"'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' '-o: 143 old F ' '--scratch: 143 F ')"
}

# bats test_tags=mount
@test "sshfs: SIGTERM during -o or --scratch leaves nothing on the server" {
	sigterm_on sshfs
}

# bats test_tags=mount
@test "bindfs: SIGTERM during -o or --scratch leaves nothing in the directory served" {
	sigterm_on bindfs
}

# bats test_tags=mount
@test "overlay: SIGTERM during -o or --scratch leaves nothing in the upper layer" {
	sigterm_on overlay
}

# TYPE: kill -9 tmpcreate -o at random moments, 8 times: FILE is each time
# the old content or the new one, whole.  On the named method (sshfs,
# bindfs) a dead writer's hidden file may stay until the next run reclaims
# it (tests/tmpcreate/reclaim.bats); nothing else is ever left.
sigkill_on() {
	local type=$1
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		for v in old new; do yes $v | head -c 200000 >"$BATS_TEST_TMPDIR/chunk.$v"; done
		slow() { local i; for ((i = 0; i < 5; i++)); do cat "$BATS_TEST_TMPDIR/chunk.$1"; done; }
		declare -A sum
		for v in old new; do sum[$v]=$(slow $v | sha1sum); done
		cd "$D"
		slow old >F
		cur=old
		for ((n = 1; n <= 8; n++)); do
			if [[ $cur == old ]]; then next=new; else next=old; fi
			{
				slow $next | tmpcreate -o F 2>/dev/null &
				pid=$!
				sleep "$(printf "0.%03d" $((RANDOM % 300)))"
				kill -9 $pid
				wait $pid
			} 2>/dev/null
			s=$(sha1sum <"${SD:-.}/F")
			if [[ $s == "${sum[$next]}" ]]; then
				cur=$next
			elif [[ $s != "${sum[$cur]}" ]]; then
				echo "round $n: F is neither the old nor the new content"
			fi
			for f in $(srv_ls); do
				[[ $f == F || $f == .tmpcreate.* ]] || echo "round $n: left: $f"
			done
			[[ $FS_TYPE != overlay* || $(ls -A) == F ]] || echo "round $n: left on overlay: $(ls -A)"
		done
		echo done'
	assert_equal "$stderr" ""
	assert_output done
}

# bats test_tags=mount,slow
@test "sshfs: kill -9 during -o leaves FILE old or new, whole" {
	sigkill_on sshfs
}

# bats test_tags=mount,slow
@test "overlay: kill -9 during -o leaves FILE old or new, whole, and nothing else" {
	sigkill_on overlay
}

# ------------------------------------------------------------ the server goes away

# HOW (sshd_stop or sftp_kill) while tmpcreate -o is between two writes of
# COMMAND: a clear error, exit 125, FILE untouched on the server.
server_gone_during_write() {
	local how=$1
	fs_require sshfs
	run -0 --separate-stderr fs_run sshfs '
		echo old >"$D/F"
		tmpcreate -o "$D/F" -- sh -c "
			head -c 100000 /dev/zero
			touch \"\$BATS_TEST_TMPDIR/half\"
			while [ ! -e \"\$BATS_TEST_TMPDIR/gone\" ]; do sleep 0.02; done
			head -c 100000 /dev/zero" 2>"$BATS_TEST_TMPDIR/err" &
		pid=$!
		for ((i = 0; i < 500; i++)); do [[ -e $BATS_TEST_TMPDIR/half ]] && break; sleep 0.02; done
		'"$how"'
		touch "$BATS_TEST_TMPDIR/gone"
		timeout -s KILL 60 tail --pid=$pid -f /dev/null
		wait $pid
		echo "exit $?"
		echo "F: $(cat "$SD/F")"
		cat "$BATS_TEST_TMPDIR/err"'
	assert_equal "$stderr" ""
	assert_line -n 0 'exit 125'
	assert_line -n 1 'F: old'
	# The cause is the kernel's word for a dead FUSE server or connection.
	assert_line -n 2 --regexp "^tmpcreate: cannot (write|sync) '.*/F': (Transport endpoint is not connected|Input/output error|Software caused connection abort|Connection reset by peer)$"
	assert_equal "${#lines[@]}" 3
}

# bats test_tags=mount
@test "sshfs: the server stopped mid-write: a clear error, exit 125, FILE untouched" {
	server_gone_during_write sshd_stop
}

# bats test_tags=mount
@test "sshfs: the sftp-server killed mid-write: a clear error, exit 125, FILE untouched" {
	server_gone_during_write sftp_kill
}

# ------------------------------------------------------------ stale mounts elsewhere

# HOW makes $MNT stale (a stopped server, or a FUSE daemon that stops
# answering); then the programs, on files elsewhere, finish (timeout is a
# hang guard only).
stale_elsewhere() {
	local type=$1 how=$2
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		L=$BATS_TEST_TMPDIR/local
		mkdir "$L" && echo x >"$L/f"
		cd "$L"
		'"$how"'
		g() { timeout -s KILL 60 "$@" >/dev/null 2>&1; echo "$1 $?"; }
		g tmpcreate --probe "$L"
		g tmpcreate --probe --json "$L"
		g tmpcreate -p "$L"
		g tmpcreate -o "$L/g" -- echo y
		g xstat "$L/f"
		g xstat -t "$L/f"
		g xstat --json "$L/f"
		g xstat -f "$L/f"
		g xstat -c "%m %{mnt_id}" "$L/f"
		g setfattrs +nodump "$L/f"
		g setfattrs -R -offline "$L"
		g setfattrs --list "$L/f"'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s 0\n' tmpcreate tmpcreate tmpcreate tmpcreate xstat xstat xstat xstat \
		xstat setfattrs setfattrs setfattrs)"
}

# bats test_tags=mount
@test "sshfs: with the server stopped, programs on other filesystems finish" {
	stale_elsewhere sshfs sshd_stop
}

# bats test_tags=mount
@test "sshfs: with sshfs stopped (SIGSTOP), programs on other filesystems finish" {
	stale_elsewhere sshfs fuse_stop
}

# bats test_tags=mount
@test "bindfs: with the FUSE daemon stopped (SIGSTOP), programs on other filesystems finish" {
	stale_elsewhere bindfs fuse_stop
}

# bats test_tags=mount
@test "sshfs: with the server stopped, --probe and -o of the dead mount fail at once and clearly" {
	fs_require sshfs
	run -0 --separate-stderr fs_run sshfs '
		sshd_stop
		timeout -s KILL 60 tmpcreate --probe "$D"; echo "probe $?"
		timeout -s KILL 60 tmpcreate -o "$D/F" <<<x; echo "-o $?"' 
	assert_output "$(printf '%s\n' 'probe 1' '-o 1')"
	assert_equal "${#stderr_lines[@]}" 2
	[[ ${stderr_lines[0]} == "tmpcreate: cannot probe '"*"': "* ]] || fail "probe: ${stderr_lines[0]}"
	[[ ${stderr_lines[1]} == "tmpcreate: cannot "*" '"*"': "* ]] || fail "-o: ${stderr_lines[1]}"
	echo "# ${stderr_lines[*]}" >&3
}

# --probe of $D when the FUSE connection of $MNT is aborted WHEN: "under"
# the probe's first request (the daemon stopped, the probe asleep on it:
# ECONNABORTED) or "before" the probe (ENOTCONN).  $D was just stat'ed, so
# its attributes are fresh in the kernel and the probe's stat of it answers;
# only its tries fail, as when an sshfs dies while a probe runs.  They say
# nothing of what sshfs can do: the probe fails with the error, prints no
# table, and leaves nothing on the server side.
probe_cut_off() {
	local when=$1 cause=$2
	fs_require sshfs
	run -0 --separate-stderr fs_run sshfs '
		stat "$D" >/dev/null || exit
		case '"$when"' in
		under)
			fuse_stop
			tmpcreate --probe "$D" >"$BATS_TEST_TMPDIR/out" & p=$!
			fuse_asleep "$p" && fuse_abort
			wait "$p"; echo "probe $?" ;;
		before)
			fuse_abort
			tmpcreate --probe "$D" >"$BATS_TEST_TMPDIR/out"; echo "probe $?" ;;
		esac
		cat "$BATS_TEST_TMPDIR/out"
		echo "left: $(ls -A "$SD")"'
	assert_output "$(printf '%s\n' 'probe 1' 'left: ')"
	assert_equal "$stderr" "tmpcreate: cannot probe '$BATS_TEST_TMPDIR/mnt/test-$BATS_TEST_NUMBER': $cause"
}

# bats test_tags=mount
@test "sshfs: a --probe its FUSE connection is aborted under fails: Software caused connection abort" {
	probe_cut_off under 'Software caused connection abort'
}

# bats test_tags=mount
@test "sshfs: a --probe of a mount whose FUSE connection was aborted fails: not connected" {
	probe_cut_off before 'Transport endpoint is not connected'
}
