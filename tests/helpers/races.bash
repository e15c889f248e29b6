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
