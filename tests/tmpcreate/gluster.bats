#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tmpcreate on GlusterFS, through two clients of one volume (two machines,
# as far as the volume can tell), and on rclone's mount of its own WebDAV
# server (tests/helpers/netfs.bash): --probe tells the truth, every mode
# keeps its promise or fails clearly, two clients never tear or clobber a
# FILE, a dead writer's hidden file is reclaimed and a live one's never,
# and losing a brick or the whole server mid-write leaves FILE whole.
# bats file_tags=tmpcreate,netfs,gluster

# Scripts for netfs_run are single-quoted: they expand inside the namespaces.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

setup_file() {
	load '../helpers/common'
	load '../helpers/netfs'
	netfs_setup_file gluster webdav
}

teardown_file() {
	load '../helpers/netfs'
	netfs_teardown_file
}

setup() {
	load '../helpers/common'
	load '../helpers/netfs'
	load '../helpers/fault'
}

# What --probe --json says of DIR, then what the operations do there (ln,
# setfattr): "o_tmpfile link rename_noreplace hard_links user_xattr method"
# and "ln: ..." "setfattr: ...", then what is left (on rclone's mount
# without its VFS cache, the probe's scratch name: see --scratch below).
# shellcheck disable=SC2034
_PROBE='
probe() {
	tmpcreate --probe --json "$1" |
		jq -r "[.o_tmpfile, .link, .rename_noreplace, .hard_links, .user_xattr, .method] | map(tostring) | join(\" \")"
	echo x >"$1/p"
	if ln "$1/p" "$1/q" 2>"$1.err"; then echo "ln: ok"; else echo "ln: $(sed "s/.*: //" "$1.err")"; fi
	if setfattr -n user.t -v 1 "$1/p" 2>"$1.err"; then echo "setfattr: ok"; else echo "setfattr: $(sed "s/.*: //" "$1.err")"; fi
	rm -f "$1/p" "$1/q" "$1.err"
	ls -A "$1" | sed "s/^\.tmpcreate\..*/.tmpcreate.*/"
}
'

@test "gluster, webdav: --probe tells what the operations do; it leaves nothing on GlusterFS" {
	require_cmd jq setfattr
	netfs_require gluster
	netfs_require webdav
	run -0 --separate-stderr netfs_run "$_PROBE"'probe "$DA"; probe "$RA"; probe "$DV"'
	assert_output "$(printf '%s\n' \
		'false null false true true named' 'ln: ok' 'setfattr: ok' \
		'false null false true true named' 'ln: ok' 'setfattr: ok' \
		'false null false false false named' 'ln: Input/output error' 'setfattr: Input/output error' \
		'.tmpcreate.*')"
}

# --scratch: GlusterFS has no O_TMPFILE, and a file whose name is removed
# cannot be opened again by its /dev/fd name (ESTALE), so the name stays
# while COMMAND runs and $TMPCREATE_FILE reads back what was written, as
# tmpcreate(1) says; it is gone afterwards.
# rclone's mount without its VFS cache makes a name removed while the file
# is open again when it is closed (it uploads then): the scratch file's
# name is left there, as tmpcreate(1) says (--vfs-cache-mode writes: not).
@test "gluster, webdav: mktemp mode, -d and --scratch make what GNU mktemp would; nothing is left on GlusterFS" {
	netfs_require gluster
	netfs_require webdav
	run -0 --separate-stderr netfs_run '
		for d in "$DA" "$RA" "$DV"; do
			f=$(tmpcreate -p "$d") && t=$(tmpcreate -d -p "$d") || exit 2
			g=$("$GNU_MKTEMP" -p "$d") && u=$("$GNU_MKTEMP" -d -p "$d") || exit 3
			[[ $(stat -c "%a %F" "$f" "$t") == "$(stat -c "%a %F" "$g" "$u")" ]] && echo "$(stat -c %F "$f"), $(stat -c %F "$t")"
			# rclone uploads a file when the kernel tells it the file
			# was closed, after the program has exited: removed before,
			# it comes back.  Let it finish.
			[[ $d != "$DV" ]] || sleep 1
			rm -rf "$f" "$t" "$g" "$u"
			tmpcreate --scratch -p "$d" -- sh -c "echo s >&\$TMPCREATE_FD && echo wrote; cat \"\$TMPCREATE_FILE\" 2>&1 | sed \"s/.*: //\"" || exit 4
			ls -A "$d" | sed "s/^\.tmpcreate\..*/.tmpcreate.*/"
		done'
	assert_output "$(printf '%s\n' 'regular empty file, directory' wrote s \
		'regular empty file, directory' wrote s 'regular empty file, directory' wrote s \
		'.tmpcreate.*')"
}

@test "gluster: -o through client A is read whole through client B, and leaves nothing on the brick" {
	netfs_require gluster
	run -0 --separate-stderr netfs_run '
		echo old >"$DA/F"
		head -c 300000 /dev/urandom >"$BATS_TEST_TMPDIR/new"
		tmpcreate -o "$DA/F" <"$BATS_TEST_TMPDIR/new" || exit 2
		sleep 1.1	# past client B'"'"'s entry and attribute caches
		cmp "$DB/F" "$BATS_TEST_TMPDIR/new" && cmp "$DBRICK/F" "$BATS_TEST_TMPDIR/new" && echo whole
		tmpcreate -n -o "$DB/F" <<<B; echo "rc=$?"
		tmpcreate -b -o "$DB/F" <<<B && cat "$DA/F" && cmp "$DA/F~" "$BATS_TEST_TMPDIR/new" && echo backup whole
		ls -A "$DBRICK"'
	assert_output "$(printf '%s\n' whole rc=1 B 'backup whole' F F~)"
	assert_equal "$stderr" "tmpcreate: cannot write '$BATS_FILE_TMPDIR/netfs/mnt/dist-b/test-$BATS_TEST_NUMBER/F': File exists"
}

@test "gluster: --no-clobber with 8 writers, 4 on each client: exactly one wins, whole" {
	netfs_require gluster
	run -0 --separate-stderr netfs_run '
		out() { yes "writer $1" | head -c 400000; }
		declare -A who
		for i in 1 2 3 4 5 6 7 8; do who[$(out $i | sha1sum)]=$i; done
		for i in 1 2 3 4 5 6 7 8; do
			if ((i % 2)); then d=$DA; else d=$DB; fi
			out $i | tmpcreate -n -o "$d/F" 2>"$BATS_TEST_TMPDIR/err.$i" &
			pids[i]=$!
		done
		for i in 1 2 3 4 5 6 7 8; do wait ${pids[i]}; echo "exit $?"; done >"$BATS_TEST_TMPDIR/rcs"
		sort "$BATS_TEST_TMPDIR/rcs" | uniq -c
		sed "s|$DA/F|F|; s|$DB/F|F|" "$BATS_TEST_TMPDIR"/err.* | sort | uniq -c
		if [[ -n ${who[$(sha1sum <"$DBRICK/F")]-} ]]; then echo "F is one writer"; else echo "F is a mix"; fi
		ls -A "$DBRICK"'
	assert_output "$(printf '%s\n' '      1 exit 0' '      7 exit 1' \
		"      7 tmpcreate: cannot write 'F': File exists" 'F is one writer' F)"
}

# A writer on client A replaces F 40 times (200 kB, each version one
# repeated line); a reader on client B reads F all the while: every read
# is one whole version, or fails with ESTALE (client B's entry cache still
# names a file the replace removed: see tmpcreate(1)); never a mix.  With
# GlusterFS's open-behind (on by default) the open succeeds and the first
# read fails: ESTALE, now and then ENOENT.  Both count as stale here.
@test "gluster: readers on client B never see a torn FILE written through client A" {
	netfs_require gluster
	run -0 --separate-stderr netfs_run '
		out() { yes "version $1" | head -c 200000; }
		declare -A ok
		for ((i = 0; i <= 40; i++)); do ok[$(out $i | sha1sum)]=1; done
		out 0 >"$DA/F"
		( for ((i = 1; i <= 40; i++)); do out $i | tmpcreate -o "$DA/F" || exit 1; done ) & w=$!
		whole=0 torn=0 stale=0 other=0
		while kill -0 $w 2>/dev/null; do
			if s=$(sha1sum <"$DB/F" 2>"$BATS_TEST_TMPDIR/err"); then
				if [[ -n ${ok[$s]-} ]]; then whole=$((whole + 1)); else torn=$((torn + 1)); fi
			elif grep -q "Stale file handle\|^sha1sum: -: No such file or directory" "$BATS_TEST_TMPDIR/err"; then
				stale=$((stale + 1))
			else
				other=$((other + 1)); cat "$BATS_TEST_TMPDIR/err" >&2
			fi
		done
		wait $w || exit 2
		echo "# reads through B: $whole whole, $stale ESTALE or ENOENT, $torn torn, $other other" >&3
		echo "torn $torn other $other"
		((whole > 0)) && echo "read whole"
		ls -A "$DBRICK"'
	assert_output "$(printf '%s\n' 'torn 0 other 0' 'read whole' F)"
}

# Writer A on client A holds its hidden file (locked, still reading its
# input).  A run on client B meanwhile publishes its own F and leaves A's
# hidden file alone: flock(2) through GlusterFS's FUSE client is the
# volume's, shared by every client.  Then A is killed with kill -9: the
# next run, on client B, reclaims its hidden file.
@test "gluster: a run on client B never removes a live writer's hidden file on client A; a killed one's is reclaimed" {
	netfs_require gluster
	run -0 --separate-stderr netfs_run '
		cd "$BATS_TEST_TMPDIR" && mkfifo in || exit 2
		tmpcreate -o "$DA/F" <in & w=$!
		exec 7>in
		echo "from A" >&7
		for ((i = 0; i < 100; i++)); do [[ -n $(ls -A "$DBRICK") ]] && break; sleep 0.05; done
		hidden=$(ls -A "$DBRICK")
		[[ $hidden == .tmpcreate.* ]] && echo "A writes to a hidden file"
		tmpcreate -o "$DB/F" <<<"from B" && echo "B published"
		[[ -e $DBRICK/$hidden ]] && echo "A'"'"'s hidden file is still there"
		kill -9 $w; wait $w; exec 7>&-
		[[ -e $DBRICK/$hidden && $(cat "$DBRICK/F") == "from B" ]] && echo "killed: hidden file left, F is B'"'"'s"
		tmpcreate -o "$DB/F" <<<"again from B" && cat "$DBRICK/F"
		ls -A "$DBRICK"'
	assert_output "$(printf '%s\n' 'A writes to a hidden file' 'B published' "A's hidden file is still there" \
		"killed: hidden file left, F is B's" 'again from B' F)"
}

# Writer A on client A is slow between the create of its hidden file and
# its lock (strace holds its flock(2) back): a run on client B meanwhile
# takes the empty, unlocked file for a dead writer's and removes it.
# Client A's caches still show the file (a forced stat: one link, the same
# inode), so A asks the server (an fchmod: ESTALE) and goes on under
# another name; both publish whole, and nothing is left.
@test "gluster: a writer whose hidden file was reclaimed before its lock goes on under another name" {
	netfs_require gluster
	fault_require
	run -0 --separate-stderr netfs_run '
		ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -qq -o /dev/null -e trace=flock -e inject=flock:delay_enter=700000:when=1 \
			tmpcreate -o "$DA/F" <<<"from A" 2>"$BATS_TEST_TMPDIR/err.a" & w=$!
		for ((i = 0; i < 100; i++)); do [[ -n $(ls -A "$DBRICK") ]] && break; sleep 0.02; done
		[[ $(ls -A "$DBRICK") == .tmpcreate.* ]] && echo "A made its hidden file"
		tmpcreate -o "$DB/F" <<<"from B" && echo "B published"
		wait $w && echo "A published"
		cat "$BATS_TEST_TMPDIR/err.a"
		cat "$DBRICK/F"
		ls -A "$DBRICK"'
	assert_output "$(printf '%s\n' 'A made its hidden file' 'B published' 'A published' 'from A' F)"
}

# Brick 2 of the replica volume is killed while -o writes (1 MiB, half of it
# written): the publish succeeds whole on the brick that is left, and once
# brick 2 is back and healed, both bricks hold the same bytes.
@test "gluster: one brick of the replica killed during -o: FILE whole, and after the heal both bricks agree" {
	netfs_require gluster
	run -0 --separate-stderr netfs_run '
		cd "$BATS_TEST_TMPDIR" && mkfifo in || exit 2
		head -c 1048576 /dev/urandom >new
		echo old >"$RA/F"
		tmpcreate -o "$RA/F" <in 2>err & w=$!
		exec 7>in
		head -c 524288 new >&7
		brick_kill repl 2
		tail -c +524289 new >&7
		exec 7>&-
		wait $w; echo "rc=$?"; cat err
		if cmp -s "$RA/F" new; then echo "F is new, whole"; elif [[ $(cat "$RA/F") == old ]]; then echo "F is old"; else echo "F is torn"; fi
		bricks_start repl && heal_wait 60 || exit 3
		cmp "$RBRICK1/F" "$RBRICK2/F" && echo "bricks agree"
		cmp -s "$RBRICK2/F" new && echo "brick 2 healed"
		ls -A "$RBRICK1"; ls -A "$RBRICK2"'
	assert_output "$(printf '%s\n' rc=0 'F is new, whole' 'bricks agree' 'brick 2 healed' F F)"
}

# glusterd and every brick of the distribute volume stop mid-write: a clear
# error, FILE untouched (read once the servers are back); the failed
# writer's hidden file is reclaimed by the next run.
@test "gluster: the server stopped mid-write is a clear error, and FILE is untouched" {
	netfs_require gluster
	run -0 --separate-stderr netfs_run '
		cd "$BATS_TEST_TMPDIR" && mkfifo in || exit 2
		echo old >"$DA/F"
		tmpcreate -o "$DA/F" <in 2>err & w=$!
		exec 7>in
		head -c 262144 /dev/zero >&7
		gluster_stop
		head -c 262144 /dev/zero >&7 2>/dev/null
		exec 7>&-
		wait $w; echo "rc=$?"
		sed "s|$DA/||" err
		gluster_start && client_wait "$DA" || exit 3
		cat "$DA/F" "$DBRICK/F"
		tmpcreate -o "$DA/F" <<<new && cat "$DA/F"
		ls -A "$DBRICK"'
	assert_line --index 0 rc=1
	assert_line --index 1 --regexp "^tmpcreate: cannot (write|set the mode of) 'F': (Transport endpoint is not connected|Input/output error|File descriptor in bad state)\$"
	assert_equal "$(printf '%s\n' "${lines[@]:2}")" "$(printf '%s\n' old old new F)"
}

# rclone's mount answers link(2) and every xattr call with EIO, and
# re-creates a name removed or renamed while the writer still has the file
# open (it uploads on close): -o still publishes whole, -n fails clearly
# (no link(2): no exclusive publish), and the next run of the same FILE
# reclaims the hidden file a failed one left.
@test "webdav: -o publishes whole, -n fails clearly, and the next run reclaims what a failed one left" {
	netfs_require webdav
	run -0 --separate-stderr netfs_run '
		cd "$DV" || exit 2
		head -c 200000 /dev/urandom >"$BATS_TEST_TMPDIR/new"
		tmpcreate -o F <"$BATS_TEST_TMPDIR/new" && cmp F "$BATS_TEST_TMPDIR/new" && cmp "$DVS/F" F && echo whole
		tmpcreate -n -o N <<<n; echo "rc=$?"
		[[ ! -e N ]] && echo "no N"
		tmpcreate --preserve=xattr -o F <<<x; echo "rc=$?"
		cmp -s F "$BATS_TEST_TMPDIR/new" && echo "F untouched"
		tmpcreate -o N <<<n2 && tmpcreate -o F <<<f2 && cat N F
		sleep 0.5; ls -A "$DVS"'
	assert_output "$(printf '%s\n' whole rc=1 'no N' rc=1 'F untouched' n2 f2 F N)"
	assert_equal "$stderr" "$(printf '%s\n' "tmpcreate: cannot write 'N': Input/output error" \
		"tmpcreate: cannot preserve the xattr of 'F': Input/output error")"
}

# What a GlusterFS client answers a lookup of a name another client has
# just replaced, until its entry cache expires: ESTALE (see the reader test
# above).  Injected here, on a local file: asked once more, the old FILE is
# found (its mode kept); a second ESTALE is an error, not a loop.
@test "a lookup of FILE answered ESTALE is asked once more, as the kernel does for NFS" {
	fault_require
	local f=$BATS_TEST_TMPDIR/f
	echo old >"$f" && chmod 640 "$f"
	run -0 --separate-stderr estale_run 1 "$f" tmpcreate -o "$f" <<<new
	assert_equal "$(cat "$f") $(stat -c %a "$f")" "new 640"
	assert_equal "$(grep -c 'ESTALE' "$BATS_TEST_TMPDIR/estale.trace")" 2
	run -1 --separate-stderr estale_run 1+ "$f" tmpcreate -o "$f" <<<newer
	assert_equal "$stderr" "tmpcreate: cannot write '$f': Stale file handle"
	assert_equal "$(grep -c 'ESTALE' "$BATS_TEST_TMPDIR/estale.trace")" 2
	assert_equal "$(cat "$f")" new
}
