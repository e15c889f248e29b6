# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A hostile caller's stdout and descriptors:  load '../helpers/callers'
#
#   require_dev_full       skip unless /dev/full can be written to
#   to_full CMD...         CMD with stdout on /dev/full
#   stdout_closed CMD...   CMD with stdout closed
#   nowhere_to_read CMD... CMD with stdout on a pipe nobody reads (with
#                          SIGPIPE ignored, a write fails with EPIPE)
#   with_closed FDS CMD... CMD with the descriptors named in FDS (digits
#                          0-2) closed; stdin, stdout and stderr that stay
#                          open are this function's own
#   closed_report FDS CMD...
#                          with_closed on /dev/null, files for stdout and
#                          stderr; prints one line: "rc=N err=[STDERR]
#                          out=[STDOUT]", each message's "PROG: " removed,
#                          to compare two programs

require_dev_full() {
	[[ -c /dev/full && -w /dev/full ]] || skip "needs a writable /dev/full"
}

to_full() {
	"$@" >/dev/full
}

stdout_closed() {
	"$@" >&-
}

nowhere_to_read() {
	local p=$BATS_TEST_TMPDIR/nowhere-to-read.fifo rc=0
	rm -f "$p"
	mkfifo "$p"
	# shellcheck disable=SC2094  # a reader opened only to let the writer open
	exec 4<>"$p" 5>"$p"
	exec 4<&-
	"$@" >&5 || rc=$?
	exec 5>&-
	rm -f "$p"
	return "$rc"
}

with_closed() {
	local fds=$1
	shift
	# shellcheck disable=SC2016  # expanded by sh
	sh -c '
		case $1 in *0*) exec 0<&-;; esac
		case $1 in *1*) exec 1>&-;; esac
		case $1 in *2*) exec 2>&-;; esac
		shift
		exec "$@"' sh "$fds" "$@"
}

closed_report() {
	local fds=$1 rc=0 d=$BATS_TEST_TMPDIR
	shift
	with_closed "$fds" "$@" </dev/null >"$d/closed.out" 2>"$d/closed.err" || rc=$?
	printf 'rc=%s err=[%s] out=[%s]\n' "$rc" "$(sed 's/^[^ :]*: //' "$d/closed.err")" \
		"$(cat "$d/closed.out")"
}
