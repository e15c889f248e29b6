#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kill -9 soak of `tmpcreate -o FILE`: on each filesystem, TRIALS
# trials of tests/soak/killer.c (read its head: a writer killed at a random
# moment of its write or of its publish, FILE checked byte for byte against
# the old and the new content, and the next run must leave no hidden
# .tmpcreate.* name).  Not part of `make check`: as root, from anywhere.
# TAP on stdout, one line per filesystem; the counts also go to
# OUT/soak-suite.log in automake's summary format (for .ci/run), and the
# figures to OUT/soak.md (a Markdown table, for bench/RESULTS.md).
#
#   tests/soak/run.sh [-b BUILDDIR] [-o OUT] [-n TRIALS] [-q] [-m METHOD] [-B] [FS...]
#
# -b: a build tree with tmpcreate at its top (default: ./, else the
#     source tree), or TMPCREATE=/path/to/tmpcreate.  -o: where the
#     killer, the logs and torn files go (default: BUILDDIR/soak-out).
# -n: trials per filesystem (default 1000).  -q: QUICK, 50 trials each
#     (what .ci/run runs: about 2-3 minutes for all of them on 2 busy cores).
# -m: every tmpcreate runs with --method=METHOD (named: the hidden name and
#     its reclaim where auto would use O_TMPFILE; the figures' rows say so).
# -B: every tmpcreate runs with --backup: FILE~ is checked too (killer.c).
# FS: tmpfs ext4 xfs btrfs ntfs-3g overlay sshfs gluster (the default,
#     all of them), or any other type of tests/helpers/fs.bash.
#
# Filesystems are mounted by the tests' own helpers (tests/helpers/fs.bash:
# loop images, one loop device at a time; sshfs against a throw-away sshd
# on 127.0.0.1; tests/helpers/netfs.bash: glusterd and a FUSE client of
# a distribute volume), inside new mount and PID namespaces (unshare -m -p
# --kill-child): whatever happens, even a SIGKILL of this script, the
# mounts and the servers go with it.  A filesystem that cannot be mounted
# here is a skip with the reason.  Each killer run is bounded by
# SOAK_TIMEOUT seconds (default 20 per 10 trials, at least 120).
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=
out=
trials=1000
method=
backup=
while getopts b:o:n:qm:B opt; do
	case $opt in
	b) builddir=$(cd "$OPTARG" && pwd) || exit 2 ;;
	o) out=$OPTARG ;;
	n) trials=$OPTARG ;;
	q) trials=50 ;;
	m) method=$OPTARG ;;
	B) backup=-b ;;
	*) echo "usage: $0 [-b BUILDDIR] [-o OUT] [-n TRIALS] [-q] [-m METHOD] [-B] [FS...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${QUICK:-0}" = 1 ] && trials=50
if [ $# -eq 0 ]; then
	set -- tmpfs ext4 xfs btrfs ntfs-3g overlay sshfs gluster
fi
if [ -z "$builddir" ]; then
	if [ -x ./tmpcreate ]; then builddir=$(pwd); else builddir=$srcdir; fi
fi
TMPCREATE=${TMPCREATE:-$builddir/tmpcreate}
if [ ! -x "$TMPCREATE" ]; then
	echo "$0: no tmpcreate at $TMPCREATE: build first, give -b BUILDDIR or TMPCREATE=" >&2
	exit 2
fi
TMPCREATE=$(realpath "$TMPCREATE")
out=$(mkdir -p "${out:-$builddir/soak-out}" && cd "${out:-$builddir/soak-out}" && pwd) || exit 2
if [ "$(id -u)" -ne 0 ]; then
	# As make check's tests do: a skip with the reason, not a failure.
	echo "1..$#"
	n=0
	for fs in "$@"; do
		n=$((n + 1))
		echo "ok $n - $fs # skip needs root to mount $fs"
	done
	printf '# TOTAL: %d\n# PASS:  0\n# SKIP:  %d\n# XFAIL: 0\n# FAIL:  0\n# XPASS: 0\n# ERROR: 0\n' \
		"$n" "$n" >"$out/soak-suite.log"
	exit 0
fi

# Everything below runs in new mount and PID namespaces.
if [ -z "${SOAK_NS:-}" ]; then
	export SOAK_NS=1
	exec unshare --mount --propagation private --pid --fork --kill-child --mount-proc -- \
		bash "$0" -b "$builddir" -o "$out" -n "$trials" ${method:+-m "$method"} ${backup:+-B} "$@"
fi

KILLER=$out/killer
"${CC:-cc}" -std=gnu11 -O2 -Wall -Wextra -o "$KILLER" "$here/killer.c" || {
	echo "$0: cannot build $here/killer.c" >&2
	exit 2
}
soak_timeout=${SOAK_TIMEOUT:-$((trials * 2 > 120 ? trials * 2 : 120))}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/soak.XXXXXX") || exit 2
trap 'cd /; rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# tests/helpers/fs.bash keeps its images, keys and mount points under these.
export BATS_FILE_TMPDIR=$WORK BATS_TEST_TMPDIR=$WORK/run
mkdir -p "$BATS_TEST_TMPDIR"
# shellcheck source=tests/helpers/fs.bash
. "$srcdir/tests/helpers/fs.bash"
export KILLER TMPCREATE trials soak_timeout out method backup

# The killer in DIR; its figures line on stdout, its stderr to the log.
# shellcheck disable=SC2016 # expanded inside, where D is the directory on the mount
soak_in='timeout -s KILL "$soak_timeout" "$KILLER" -n "$trials" -k "$out" ${method:+-m "$method"} $backup ${settle:+-w "$settle"} \
	-t "$TMPCREATE" "$SOAK_DIR"'

# soak_on FS LOG: the killer on FS; prints its figures line.
soak_on() {
	local fs=$1 log=$2
	# The kernel clients (in the guest): a killed writer's last request
	# may still be carried out after it is gone (killer.c, -w).
	case $fs in
	cifs | nfs) export settle=200 ;;
	*) export settle= ;;
	esac
	case $fs in
	gluster)
		: >"$log"
		if [ ! -r "$srcdir/tests/helpers/netfs.bash" ]; then
			echo "skip: no tests/helpers/netfs.bash here" >"$log"
			return 77
		fi
		# shellcheck source=/dev/null
		. "$srcdir/tests/helpers/netfs.bash"
		if ! netfs_start gluster >>"$log" 2>&1; then
			echo "skip: $(cat "$NETFS_DIR/gluster.skip" 2>/dev/null)" >>"$log"
			netfs_stop >/dev/null 2>&1
			return 77
		fi
		# shellcheck disable=SC2016 # expanded inside
		netfs_run 'SOAK_DIR=$DA; '"$soak_in" 2>>"$log"
		local rc=$?
		netfs_stop >>"$log" 2>&1
		return $rc ;;
	*)
		fs_prepare "$fs"
		if [ ! -e "$FS_DIR/$fs.ok" ]; then
			echo "skip: $(cat "$FS_DIR/$fs.skip")" >"$log"
			return 77
		fi
		# shellcheck disable=SC2016 # expanded inside
		fs_run "$fs" 'SOAK_DIR=$D; '"$soak_in" 2>"$log" ;;
	esac
}

# fig KEY: the value of KEY in the killer's figures line ($line).
fig() { printf ' %s\n' "$line" | sed -n "s/.* $1=\([0-9.]*\).*/\1/p"; }

echo "1..$#"
n=0 pass=0 fail=0 skip=0
{
	echo "| filesystem | trials | torn | left | old / new | kills in the write / publish | publish: old / new / ended first | hidden name after the kill | time |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$out/soak.md"
for fs in "$@"; do
	n=$((n + 1))
	log=$out/$fs.log
	start=$SECONDS
	line=$(soak_on "$fs" "$log")
	rc=$?
	secs=$((SECONDS - start))
	if [ $rc -eq 77 ]; then
		echo "ok $n - $fs # skip $(sed -n 's/^skip: //p' "$log" | tail -n 1)"
		skip=$((skip + 1))
		continue
	fi
	if [ $rc -eq 0 ] && [ "$(fig trials)" = "$trials" ]; then
		echo "ok $n - $fs: $line"
		pass=$((pass + 1))
	else
		echo "not ok $n - $fs (status $rc): ${line:-no figures}"
		sed 's/^/# /' "$log" | tail -n 20
		fail=$((fail + 1))
	fi
	if [ -n "$(fig trials)" ]; then
		printf '| %s | %s | %s | %s | %s / %s | %s / %s | %s / %s / %s | %s | %s s |\n' \
			"$fs${method:+, --method=$method}${backup:+, --backup}" "$(fig trials)" "$(fig torn)" "$(fig left)" "$(fig old)" "$(fig new)" \
			"$(fig write_kills)" "$(fig publish_kills)" "$(fig publish_old)" \
			"$(fig publish_new)" "$(fig finished)" "$(fig hidden_after_kill)" "$secs" >>"$out/soak.md"
	fi
done
printf '# TOTAL: %d\n# PASS:  %d\n# SKIP:  %d\n# XFAIL: 0\n# FAIL:  %d\n# XPASS: 0\n# ERROR: 0\n' \
	"$n" "$pass" "$skip" "$fail" >"$out/soak-suite.log"
[ $fail -eq 0 ]
