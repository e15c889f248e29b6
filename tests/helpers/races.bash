# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Racing tmpcreate writers on one FILE, on any filesystem of fs.bash:
#   load '../helpers/races'
#
#   race_noclobber_on TYPE [BYTES]
#       8 writers of BYTES each (default 400000) with -n and no FILE yet:
#       exactly one succeeds, the others fail with File exists, FILE is the
#       winner's whole output and nothing else is left; on the network and
#       stacked types FILE and the listing are read on the server side ($SD,
#       srv_ls: once the FUSE daemon has answered every request)
#   race_backup_eio_on [TYPE]
#       two --backup writers of F (was A) over one F~: writer 1 makes F~
#       (a new link of F), then its replace fails (EIO injected on its
#       renames, 2 s late, with strace); meanwhile writer 2 backs up F over
#       that F~ and replaces F.  F~ is then writer 2's backup: writer 1 must
#       not take it away, and nothing else is left.  On TYPE (fs_run; F, F~
#       and the listing read on the server side) or, without TYPE, in the
#       current directory.  Needs fault.bash.
#   race_backup_eio
#       the race itself, in the current directory: prints what the
#       assertions of race_backup_eio_on compare (fs_run scripts may call
#       it with FS_FUNCS=race_backup_eio)

# The fs_run script is single-quoted on purpose: it expands inside.
# shellcheck disable=SC2016
race_noclobber_on() {
	local type=$1
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		out() { yes "writer $1" | head -c '"${2:-400000}"'; }
		declare -A who
		for i in 1 2 3 4 5 6 7 8; do who[$(out $i | sha1sum)]=$i; done
		cd "$D"
		pids=()
		for i in 1 2 3 4 5 6 7 8; do
			out $i | tmpcreate -n -o F 2>"$BATS_TEST_TMPDIR/err.$i" &
			pids[i]=$!
		done
		for i in 1 2 3 4 5 6 7 8; do wait ${pids[i]}; echo "exit $?"; done >"$BATS_TEST_TMPDIR/rcs"
		sort "$BATS_TEST_TMPDIR/rcs" | uniq -c
		cat "$BATS_TEST_TMPDIR"/err.* | sort | uniq -c
		s=$(sha1sum <"${SD:-$D}/F")
		if [[ -n ${who[$s]-} ]]; then echo "F is one writer"; else echo "F is a mix"; fi
		srv_ls'
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' '      1 exit 0' '      7 exit 1' \
		"      7 tmpcreate: cannot write 'F': File exists" 'F is one writer' F)"
}

race_backup_eio() {
	local srv=${SD:-.} i w1 rc=0
	echo A >F
	ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o /dev/null \
		-e inject=rename,renameat,renameat2:error=EIO:delay_enter=2000000 \
		tmpcreate -b -o F <<<N1 2>"$BATS_TEST_TMPDIR/w1.err" &
	w1=$!
	for ((i = 0; i < 150; i++)); do
		[[ -e $srv/F~ ]] && break
		sleep 0.02
	done
	[[ -e $srv/F~ ]] || echo "writer 1 never made F~"
	tmpcreate -b -o F <<<N2 || rc=$?
	echo "writer 2: $rc"
	rc=0
	wait "$w1" || rc=$?
	echo "writer 1: $rc $(cat "$BATS_TEST_TMPDIR/w1.err")"
	# srv_ls inside fs_run: the server side once the FUSE daemon is done.
	echo "$(cat "$srv/F") $(cat "$srv/F~") | $(if declare -F srv_ls >/dev/null; then
		srv_ls; else ls -A; fi | tr '\n' ' ')"
}

race_backup_eio_on() {
	fault_require
	if [[ $# -gt 0 ]]; then
		fs_require "$1"
		FS_FUNCS=race_backup_eio run -0 --separate-stderr fs_run "$1" 'cd "$D" && race_backup_eio'
	else
		run -0 --separate-stderr race_backup_eio
	fi
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'writer 2: 0' "writer 1: 1 tmpcreate: cannot write 'F': Input/output error" 'N2 A | F F~ ')"
}
