#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's own SMB and NFS clients, in the guest of tests/vm (make
# vm-check): tmpcreate -o returns and leaves nothing, publishes for real
# (read back on the server's disk), and tells a live writer from a dead
# one across two clients of one share.  Outside the guest every test skips.
# bats file_tags=vm

bats_require_minimum_version 1.5.0
load '../helpers/common'

setup() {
	[[ -n ${VM_SMB-} ]] || skip "runs in the guest of tests/vm (make vm-check)"
	N=t$BATS_TEST_NUMBER
}

# Every name in DIR, dot files too, on one line.
names() {
	ls -A "$1" | tr '\n' ' ' | sed 's/ $//'
}

# KIND: the client's mount, the second client's and the server's directory.
on() {
	case $1 in
	smb) C=$VM_SMB/$N C2=$VM_SMB2/$N S=$VM_SMB_SRV/$N ;;
	nfs) C=$VM_NFS/$N C2=$VM_NFS2/$N S=$VM_NFS_SRV/$N ;;
	esac
	# Made through the client: cifs 7.x caches the share's directory
	# (a lease) and would not see one made on the server behind it.
	rm -rf "$C" && mkdir "$C"
}

# What the server holds: FILE's bytes.
server_has() {
	assert_equal "$(cat "$S/$1")" "$2"
}

@test "-o makes a new FILE on cifs and nfs: it returns, and only FILE is left on the server" {
	local k m
	for k in smb nfs; do
		for m in auto named; do
			on $k
			run -0 timeout 60 tmpcreate --method=$m -o "$C/out" <<<hello
			server_has out hello
			assert_equal "$(names "$S")" out
		done
	done
}

@test "-o replaces FILE on cifs and nfs: FILE on the server is the new one, nothing else is left" {
	local k m
	for k in smb nfs; do
		for m in auto named; do
			on $k
			echo old >"$C/f"
			run -0 timeout 60 tmpcreate --method=$m -o "$C/f" <<<new
			echo 3 >/proc/sys/vm/drop_caches
			server_has f new
			assert_equal "$k $m: $(names "$S")" "$k $m: f"
		done
	done
}

@test "cifs, nfs: -o uses O_TMPFILE only where the kernel publishes a file made so (facts.py decides)" {
	local k fact method
	for k in smb nfs; do
		on $k
		# The kernel's own answer: O_TMPFILE, link, rename over FILE, FILE read back.
		fact=$(python3 "$FATTRS_SRCDIR/tests/vm/facts.py" --fact tmpfile_publish "$C")
		case $fact in
		yes) method=tmpfile ;;
		*) method=named ;;
		esac
		echo old >"$C/f"
		run -0 --separate-stderr timeout 60 tmpcreate -v -o "$C/f" <<<new
		[[ $stderr == *"with method $method"* ]] ||
			fail "$k ($VM_KVER): O_TMPFILE publishing: $fact; -v: $stderr"
		echo 3 >/proc/sys/vm/drop_caches
		server_has f new
		assert_equal "$k: $(names "$S")" "$k: f"
		# --probe says the same, and why.
		run -0 timeout 120 tmpcreate --probe "$C"
		case $fact in
		yes) assert_line --regexp '^  O_TMPFILE: +yes$' ;;
		no:*) assert_line --regexp '^  O_TMPFILE: +not used \(its files lose their name in a rename here\)$' ;;
		*) assert_line --regexp '^  O_TMPFILE: +no \(' ;;
		esac
		assert_line --regexp "^  auto method: +$method "
	done
}

@test "-b -o on cifs and nfs keeps the old FILE as FILE~, twice over" {
	local k
	for k in smb nfs; do
		on $k
		echo 1 >"$C/f"
		run -0 timeout 60 tmpcreate -b -o "$C/f" <<<2
		run -0 timeout 60 tmpcreate -b -o "$C/f" <<<3
		server_has f 3
		server_has f~ 2
		assert_equal "$k: $(names "$S")" "$k: f f~"
	done
}

# kept_old OUTPUT: the name that tmpcreate's message says the old content is kept as.
kept_old() {
	sed -n "s/.*its old content is kept as '\(.*\)'\$/\1/p" <<<"$1"
}

@test "cifs, nfs: -o and -b -o over a FILE open on this client never lose the old FILE" {
	# Linux's SMB client before 7.1 answers the server's refusal of a
	# rename over a file it holds open by removing the target, then fails
	# the rename: mv(1) loses the file so.  tmpcreate keeps it under a link
	# of its own meanwhile: the replace fails, says where the old content
	# is, and that name holds it once FILE has gone.  7.1 and
	# later move the open file aside and the replace is done.
	local k b kept n holder
	for k in smb nfs; do
		for b in "" -b; do
			on $k
			echo old >"$C/f"
			sleep 60 <"$C/f" &
			holder=$!
			run timeout 60 tmpcreate $b -o "$C/f" <<<new
			kill "$holder"
			wait "$holder" || true
			sleep 3	# the removal waits for the last close, deferred up to 1 s
			if ((status == 0)); then
				server_has f new
			elif [[ -e $S/f ]]; then
				# refused with FILE left as it was
				assert_equal "$k $b: $status $(cat "$S/f")" "$k $b: 1 old"
			else
				assert_equal "$k $b: $status" "$k $b: 1"
				kept=$(kept_old "$output")
				[[ -n $kept ]] || fail "$k $b: no name for the old content: $output"
				assert_equal "$(cat "$kept")" old
			fi
			[[ -z $b ]] || ((status != 0)) || server_has f~ old
			# Nothing else of tmpcreate's: a failure leaves the kept name only.
			n=0
			[[ -z $kept ]] || n=1
			assert_equal "$k $b: $(ls -A "$S" | grep -c '^\.tmpcreate\.')" "$k $b: $n"
			kept=
		done
	done
}

@test "-o -- COMMAND and --scratch on cifs and nfs leave nothing behind" {
	local k
	for k in smb nfs; do
		on $k
		run -0 timeout 60 tmpcreate -o "$C/f" -- echo made
		server_has f made
		run -0 timeout 60 tmpcreate -p "$C" --scratch -- sh -c 'echo x >"$TMPCREATE_FILE"; cat "$TMPCREATE_FILE"'
		assert_output x
		assert_equal "$(names "$S")" f
	done
}

@test "cifs, nfs: a live writer's hidden file is left alone by a second client; a dead one's is reclaimed" {
	local k hidden pid
	for k in smb nfs; do
		on $k
		echo old >"$C/f"
		# A live writer on client 1: its hidden file exists while it waits for input.
		coproc W { exec tmpcreate --method=named -o "$C/f"; }
		pid=$W_PID
		for _ in $(seq 100); do
			hidden=$(cd "$S" && ls -A | grep '^\.tmpcreate' || :)
			[[ -n $hidden ]] && break
			sleep 0.1
		done
		[[ -n $hidden ]] || fail "$k: no hidden file of the live writer"
		# Client 2 writes the same FILE meanwhile: the live one's name stays.
		run -0 timeout 60 tmpcreate --method=named -o "$C2/f" <<<second
		[[ -e $S/$hidden ]] || fail "$k: client 2 removed the live writer's $hidden"
		# kill -9: the next writer, on the other client, takes the name back.
		kill -9 "$pid"
		wait "$pid" 2>/dev/null || :
		sleep 1
		run -0 timeout 60 tmpcreate --method=named -o "$C2/f" <<<third
		echo 3 >/proc/sys/vm/drop_caches
		server_has f third
		assert_equal "$k: $(names "$S")" "$k: f"
	done
}

@test "--probe on cifs and nfs answers, and says which method -o will use" {
	local k
	for k in smb nfs; do
		on $k
		run -0 timeout 120 tmpcreate --probe "$C"
		assert_output --partial "method"
		assert_equal "$(names "$S")" ""
	done
}

@test "cifs, nfs: +offline is kept on the server and read back by the other client; Windows sees no OFFLINE bit" {
	local k
	for k in smb nfs; do
		on $k
		echo x >"$C/f"
		run -0 timeout 60 setfattrs +offline "$C/f"
		assert_equal "$(getfattr --only-values -n user.fattr.offline "$S/f")" 1
		run -0 timeout 60 xstat -c '%{offline}' "$C2/f"
		assert_output set
	done
	# What a Windows client sees: Samba drops the bit a client writes.
	require_cmd smbclient
	run -0 smbclient -N //127.0.0.1/share -c "allinfo $N/f"
	assert_output --partial 'attributes: A (20)'
}

@test "cifs, nfs: xstat shows no kernel flag as clear that the filesystem cannot hold; setfattrs --list agrees" {
	local k
	for k in smb nfs; do
		on $k
		echo x >"$C/f"
		run -0 xstat -c '%{noatime} %{sync} %{nodump} %{immutable}' "$C/f"
		assert_output "unsupported unsupported unsupported unsupported"
		run -0 setfattrs --list "$C/f"
		assert_equal "$k: $(awk '$1 ~ /^(noatime|sync|nodump|immutable)$/ { printf "%s %s %s, ", $1, $4, $5 }' <<<"$output")" \
			"$k: immutable unsupported no, nodump unsupported no, noatime unsupported no, sync unsupported no, "
		run -1 --separate-stderr setfattrs +nodump "$C/f"
		assert_output ""
		[[ $stderr == *"'$C/f'"* ]] || fail "$k: the error names no file: $stderr"
	done
}
