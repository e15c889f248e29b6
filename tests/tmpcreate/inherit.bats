#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bats file_tags=tmpcreate,inherit
#
# What tmpcreate inherits from its caller and hands on to COMMAND: closed
# descriptors 0, 1 and 2 (no file of ours may take them; a closed stdout
# that must be written is a write error; a closed stderr with nothing to
# say is no failure), ignored signals (never re-enabled, neither for
# tmpcreate nor for COMMAND), the signal mask, and the signals that end a
# run while COMMAND works.  GNU mktemp 9.1 is the reference where it
# applies.

# The sh -c scripts are single-quoted on purpose: they expand inside.
# shellcheck disable=SC2016

setup() {
	load '../helpers/common'
	load '../helpers/callers'
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/w"
	: >"$T/in"
	cd "$T/w" || return 1
}

# ------------------------------------------------------------ descriptors

# closed CLOSED DIR PROG ARG...: run PROG with the descriptors named in
# CLOSED (digits 0-2) closed and DIR emptied first; print one line: exit
# status, stdout and stderr (program name, random names and DIR masked) and
# how many entries DIR holds afterwards.
closed() {
	local fds=$1 dir=$2 rc=0
	shift 2
	rm -rf "$dir"
	mkdir "$dir"
	with_closed "$fds" "$@" <"$T/in" >"$T/out" 2>"$T/err" || rc=$?
	printf 'closed=%s rc=%s out=[%s] err=[%s] left=%s\n' "$fds" "$rc" \
		"$(sed "s|$dir/[^/]*\$|NAME|" "$T/out")" "$(sed 's/^[^ :]*: //' "$T/err")" \
		"$(find "$dir" -mindepth 1 -maxdepth 1 | wc -l)"
}

@test "mktemp mode: every combination of 0, 1 and 2 closed behaves as GNU mktemp, -d, -u and -q included" {
	local fds opts gnu ours
	for opts in '' '-d' '-u' '-q' '-q -d'; do
		for fds in - 0 1 2 01 02 12 012; do
			# shellcheck disable=SC2086  # $opts is words
			gnu=$(closed "$fds" "$T/g" "$GNU_MKTEMP" $opts -p "$T/g")
			# shellcheck disable=SC2086
			ours=$(closed "$fds" "$T/o" tmpcreate $opts -p "$T/o")
			[[ $gnu == "$ours" ]] || fail "opts '$opts': GNU: $gnu; tmpcreate: $ours"
		done
	done
}

@test "a closed stderr with nothing to report is no failure: -p DIR 2>&- keeps the file and exits 0" {
	run -0 --separate-stderr bash -c 'tmpcreate -p "$1" 2>&-' sh "$T/w"
	assert_output --regexp "^$T/w/tmp\\.[A-Za-z0-9]{10}\$"
	assert_file_exists "$output"
}

@test "-o with stderr closed: the -v message goes nowhere, FILE holds exactly the data, exit 0" {
	echo data >"$T/in"
	run -0 bash -c 'tmpcreate -v -o out <"$1" 2>&-' sh "$T/in"
	assert_equal "$(od -An -c out)" "$(od -An -c "$T/in")"
	run -0 bash -c 'tmpcreate -v --method=named -o out2 -- cat "$1" 2>&-' sh "$T/in"
	assert_equal "$(od -An -c out2)" "$(od -An -c "$T/in")"
	assert_equal "$(ls -A)" "$(printf '%s\n' out out2)"
}

@test "-o with stdout closed writes FILE as usual; a closed stdin is a read error, FILE untouched" {
	echo data >"$T/in"
	run -0 bash -c 'tmpcreate -o out <"$1" >&-' sh "$T/in"
	assert_equal "$(cat out)" data
	echo old >old
	run -1 --separate-stderr bash -c 'tmpcreate -o old <&-'
	assert_equal "$stderr" "tmpcreate: cannot read standard input: Bad file descriptor"
	run -1 --separate-stderr bash -c 'tmpcreate --method=named -o old <&-'
	assert_equal "$stderr" "tmpcreate: cannot read standard input: Bad file descriptor"
	assert_equal "$(cat old) $(ls -A | tr '\n' ' ')" "old old out "
}

# Which of descriptors 0, 1 and 2 are open in the sh running it, into $FDS.
fds_script='for f in 0 1 2; do if [ -e /proc/self/fd/$f ]; then w=open; else w=closed; fi; printf "%s%s " $w $f >>"$FDS"; done'

@test "COMMAND gets 0, 1 and 2 closed as tmpcreate got them (-o and --scratch), and no file of ours on them" {
	local fds want
	export FDS=$T/fds
	for fds in - 0 1 2 01 02 12 012; do
		rm -f "$FDS"
		closed "$fds" "$T/d" sh -c "$fds_script" >/dev/null
		want=$(cat "$FDS")
		rm -f "$FDS"
		run -0 closed "$fds" "$T/d" tmpcreate --scratch -p "$T/d" -- sh -c "$fds_script"
		assert_output --regexp ' rc=0 .* left=0$'
		assert_equal "$fds: $(cat "$FDS")" "$fds: $want"
		rm -f "$FDS"
		run -0 closed "$fds" "$T/d" tmpcreate -o "$T/d/f" -- sh -c "$fds_script"
		assert_output --regexp ' rc=0 .* left=1$'
		# -o: COMMAND's stdout is the pipe to FILE.
		assert_equal "$fds: $(cat "$FDS")" "$fds: ${want/closed1/open1}"
	done
}

@test "--scratch -v with stderr closed: the scratch file starts empty" {
	run -0 bash -c 'tmpcreate -v --scratch -p "$1" -- sh -c "wc -c <\"\$TMPCREATE_FILE\"" 2>&-' sh "$T/w"
	assert_output 0
	run -0 bash -c 'tmpcreate -v --method=named --scratch -p "$1" -- sh -c "wc -c <\"\$TMPCREATE_FILE\"" 2>&-' sh "$T/w"
	assert_output 0
}

@test "--probe: stdout closed is a write error (exit 1); stderr closed with nothing to say exits 0" {
	run -1 --separate-stderr bash -c 'tmpcreate --probe . >&-'
	assert_equal "$stderr" "tmpcreate: write error: Bad file descriptor"
	run -0 bash -c 'tmpcreate --probe . 2>&- >/dev/null'
	run -1 bash -c 'tmpcreate --probe /nonexistent 2>&- >/dev/null'
}

# ------------------------------------------------------------ signals

# sigs: the SigIgn and SigBlk lines of the process reading /proc/self/status.
sigs() {
	grep -E '^Sig(Ign|Blk):' /proc/self/status
}

@test "COMMAND gets exactly the ignored signals and the mask tmpcreate was started with (-o and --scratch)" {
	local env want
	for env in '' --ignore-signal=HUP --ignore-signal=INT --ignore-signal=TERM \
		   --ignore-signal=PIPE --ignore-signal=CHLD --ignore-signal=QUIT,USR1 \
		   --block-signal=TERM --block-signal=HUP,INT,PIPE \
		   '--ignore-signal=HUP --block-signal=CHLD'; do
		# shellcheck disable=SC2086  # $env is words
		want=$(env $env grep -E '^Sig(Ign|Blk):' /proc/self/status)
		# shellcheck disable=SC2086
		run -0 env $env tmpcreate --scratch -p "$T/w" -- grep -E '^Sig(Ign|Blk):' /proc/self/status
		assert_equal "[$env] $output" "[$env] $want"
		# shellcheck disable=SC2086
		run -0 env $env tmpcreate -o out -- grep -E '^Sig(Ign|Blk):' /proc/self/status
		assert_equal "[$env] $(cat out)" "[$env] $want"
		# shellcheck disable=SC2086
		run -0 env $env tmpcreate --method=named -o out -- grep -E '^Sig(Ign|Blk):' /proc/self/status
		assert_equal "[$env] $(cat out)" "[$env] $want"
	done
	assert_equal "$(ls -A)" out
}

@test "start-up asks for no signal's disposition: each handler's own sigaction tells the old one (4 calls, not 9 or 66)" {
	require_cmd strace
	require_no_sanitizer "$(command -v tmpcreate)" "ASan's runtime installs its own handlers"
	# Regression: recording every signal's disposition cost 61 system
	# calls per run (112 in all for "tmpcreate -p DIR", mktemp makes 40);
	# asking for the five it changes before changing them cost 5 more
	# (55; bench/tmpcreate.sh's target is 50).
	# Each one ignored costs one more call (put back): none is, here, whatever
	# the suite inherited (nohup, a background job's SIGINT).
	run -0 env --default-signal=HUP,INT,TERM,PIPE strace -f -qq -e trace=rt_sigaction -o "$T/trace" \
		tmpcreate -p "$T/w"
	local n
	n=$(grep -c rt_sigaction "$T/trace")
	(( n == 4 )) || fail "$n rt_sigaction calls (HUP INT TERM PIPE once each): $(head -n 20 "$T/trace")"
	# One ignored: its old disposition is put back at once, still no query.
	run -0 env --ignore-signal=TERM strace -f -qq -e trace=rt_sigaction -o "$T/trace" tmpcreate -p "$T/w"
	n=$(grep -c 'rt_sigaction(SIGTERM' "$T/trace")
	(( n == 2 )) || fail "$n rt_sigaction(SIGTERM) calls: $(cat "$T/trace")"
	grep -q 'rt_sigaction(SIGTERM, {sa_handler=SIG_IGN' "$T/trace" || fail "SIGTERM not put back to SIG_IGN: $(cat "$T/trace")"
}

@test "nohup: a SIGHUP the caller ignores does not stop -o; COMMAND's output is published" {
	run -0 env --ignore-signal=HUP tmpcreate -o out -- sh -c 'kill -HUP $PPID; sleep 0.1; echo data'
	assert_equal "$(cat out)" data
	run -0 env --ignore-signal=HUP tmpcreate --method=named -o out2 -- sh -c 'kill -HUP $PPID; sleep 0.1; echo data'
	assert_equal "$(cat out2)" data
	# The real nohup (stdout is not a terminal here: no nohup.out).
	run -0 nohup tmpcreate -o out3 -- sh -c 'kill -HUP $PPID; sleep 0.1; echo data'
	assert_equal "$(cat out3)" data
	assert_equal "$(ls -A | tr '\n' ' ')" "out out2 out3 "
}

@test "a background job's ignored SIGINT stays ignored; --scratch keeps it too" {
	run -0 env --ignore-signal=INT tmpcreate -o out -- sh -c 'kill -INT $PPID; sleep 0.1; echo data'
	assert_equal "$(cat out)" data
	run -0 env --ignore-signal=INT tmpcreate --method=named --scratch -p "$T/w" -- \
		sh -c 'kill -INT $$; echo alive'
	assert_output alive
	assert_equal "$(ls -A)" out
}

@test "SIGCHLD inherited as ignored: -o still waits for COMMAND and publishes" {
	run -0 env --ignore-signal=CHLD tmpcreate -o out -- echo data
	assert_equal "$(cat out)" data
	run -3 env --ignore-signal=CHLD tmpcreate -o out -- sh -c 'echo new; exit 3'
	assert_equal "$(cat out)" data
	run -127 --separate-stderr env --ignore-signal=CHLD tmpcreate -o out -- ./no-such-command
	assert_equal "$(cat out) $(ls -A)" "data out"
}

# forwarded SIG [OPTION...]: start `tmpcreate -o out OPTION... -- COMMAND`
# in the background, COMMAND trapping SIG; once COMMAND runs, send SIG to
# tmpcreate.  Prints tmpcreate's exit status and what COMMAND noted.
forwarded() {
	local sig=$1 pid rc=0 i
	shift
	rm -f "$T/ready" "$T/got"
	# SIGINT of a background job is ignored unless set back (env --default-signal).
	env --default-signal="$sig" tmpcreate -o out "$@" -- sh -c '
		trap "echo got-$1 >\"$2\"; exit 9" "$1"
		echo $$ >"$3"
		i=0
		while [ $i -lt 250 ]; do sleep 0.02; i=$((i + 1)); done' sh "$sig" "$T/got" "$T/ready" &
	pid=$!
	for ((i = 0; i < 250; i++)); do
		[[ -s $T/ready ]] && break
		sleep 0.02
	done
	kill -"$sig" "$pid"
	wait "$pid" || rc=$?
	for ((i = 0; i < 250; i++)); do
		[[ -s $T/got ]] && break
		sleep 0.02
	done
	echo "rc=$rc $(cat "$T/got" 2>/dev/null)"
	# A COMMAND that was not told must not outlive the test.
	kill "$(cat "$T/ready")" 2>/dev/null || :
}

@test "SIGTERM, SIGINT and SIGHUP while COMMAND runs: passed on to COMMAND, nothing published or left, tmpcreate dies of it" {
	local sig method n
	echo old >out
	for method in auto named; do
		for sig in TERM INT HUP; do
			n=$(kill -l "$sig")
			run -0 forwarded "$sig" --method="$method"
			assert_equal "$method $output" "$method rc=$((128 + n)) got-$sig"
			assert_equal "$(cat out) $(ls -A)" "old out"
		done
	done
}

@test "SIGPIPE ignored: writing the name into a closed pipe is 'write error: Broken pipe', exit 1, nothing left, as GNU mktemp" {
	mkdir g o
	run -1 --separate-stderr nowhere_to_read env --ignore-signal=PIPE "$GNU_MKTEMP" -p g
	assert_equal "$stderr" "$GNU_MKTEMP: write error: Broken pipe"
	assert_equal "$(ls -A g)" ""
	local opts
	for opts in '' -d -u --method=named; do
		# shellcheck disable=SC2086
		run -1 --separate-stderr nowhere_to_read env --ignore-signal=PIPE tmpcreate $opts -p o
		assert_equal "[$opts] $stderr" "[$opts] tmpcreate: write error: Broken pipe"
		assert_equal "$(ls -A o)" ""
	done
	# Not ignored: SIGPIPE kills (141), but nothing is left (GNU mktemp leaves the file).
	run -141 nowhere_to_read tmpcreate -p o
	assert_equal "$(ls -A o)" ""
}
