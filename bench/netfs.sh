#!/usr/bin/env bash
# bench/netfs.sh: bench/tmpcreate.sh and bench/atomic-output.sh on sshfs and on overlayfs, in one
# command (as root, from the build dir). It is a benchmark, not a test: it prints the two scripts'
# reports one after the other, and exits 0 once they have measured (1 when one could not run).
#
#   bash bench/netfs.sh >netfs.md                  # both scripts on sshfs, then on overlayfs
#   QUICK=1 bash bench/netfs.sh                    # smoke run (the scripts' QUICK=1)
#   NETFS=sshfs BENCHES=tmpcreate bash bench/netfs.sh
#
# sshfs: an OpenSSH server on 127.0.0.1 that this script starts (a free port, throw-away host and
# user keys, no ~/.bashrc run before sftp-server) and mounted with sshfs's default options, exactly
# as the tests do it: it is tests/helpers/fs.bash's own code (fs_prepare, fs_run sshfs), not a
# copy. Each script then runs with TARGET set to a directory on the mount (its FSLIST/DEST
# "target"); the server's directory is under the work dir.
# overlay: the scripts' own overlayfs over tmpfs layers (FSLIST=overlay, DEST=overlay).
#
# Environment:
#   NETFS      the filesystems, in order ("sshfs overlay")
#   BENCHES    the scripts, in order ("tmpcreate atomic-output")
#   TMPCREATE, QUICK, N, NPROC, ROUNDS, HF_RUNS, SIZE, SMALL, REPS, CC: passed on to the scripts
#   (see each; TMPCREATE is found here as they find it, and made absolute)
#
# Clean-up, whatever happens: it re-executes itself in new mount and PID namespaces (unshare -m -p
# --fork --kill-child): every mount (sshfs, overlay, tmpfs, the scripts' loop images, which are
# mounted with autoclear) lives only there, and every process it starts (sshd, sftp-server, sshfs,
# the benchmarks) dies with it, even when it is killed with SIGKILL; on a normal exit or Ctrl-C the
# helpers and the scripts stop the server, unmount, and delete their work dirs. After a SIGKILL
# only the work dir ${TMPDIR:-/tmp}/bench-netfs.XXXXXX is left (the scripts' own are inside it).
set -euo pipefail
export LC_ALL=C

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$(realpath "${BASH_SOURCE[0]}")")/lib.sh" # SELF, BENCH_DIR, BENCH_NAME
NOTE_PREFIX="$BENCH_NAME: "

[[ $(id -u) -eq 0 ]] || die "needs root (an sshd, FUSE and overlay mounts, in private namespaces)"
if [[ -z ${NETFS_BENCH_NS:-} ]]; then
	command -v unshare >/dev/null || die "missing tool: unshare"
	export NETFS_BENCH_NS=1
	exec unshare --mount --propagation private --pid --fork --kill-child --mount-proc -- \
		bash "$SELF" "$@"
fi

NETFS=${NETFS:-sshfs overlay}
BENCHES=${BENCHES:-tmpcreate atomic-output}
for b in $BENCHES; do
	[[ -f $BENCH_DIR/$b.sh ]] || die "BENCHES: no bench/$b.sh (tmpcreate, atomic-output)"
done
for fs in $NETFS; do
	case $fs in sshfs | overlay) ;; *) die "NETFS must be a list of: sshfs overlay" ;; esac
done
HELPERS=$(realpath "$BENCH_DIR/../tests/helpers")
[[ -r $HELPERS/fs.bash ]] || die "no tests/helpers/fs.bash next to bench/ (run it from a source tree or tarball)"

find_binary TMPCREATE tmpcreate # absolute: the scripts run from other directories
export TMPCREATE BENCH_DIR BENCHES

bench_workdir netfs # WORK; cleanup on EXIT/INT/TERM/HUP (bench/lib.sh)
# The scripts' own work dirs go in here too: one directory to delete after a SIGKILL.
export TMPDIR=$WORK/tmp
mkdir "$TMPDIR"

# tests/helpers/fs.bash keeps its keys, sshd configuration and mount points under these.
export BATS_FILE_TMPDIR=$WORK BATS_TEST_TMPDIR=$WORK/run
mkdir -p "$BATS_TEST_TMPDIR"
# shellcheck source-path=SCRIPTDIR source=../tests/helpers/fs.bash
. "$HELPERS/fs.bash"

failed=0
start=$SECONDS
for fs in $NETFS; do
	t=$SECONDS
	note "$fs: ${BENCHES// /, } ..."
	case $fs in
	sshfs)
		fs_prepare sshfs
		if [[ ! -e $FS_DIR/sshfs.ok ]]; then
			note "cannot mount sshfs here: $(cat "$FS_DIR/sshfs.skip")"
			failed=1
			continue
		fi
		# shellcheck disable=SC2016 # expanded inside, where D is the directory on the mount
		fs_run sshfs '
			rc=0
			for b in $BENCHES; do
				echo
				TARGET=$D bash "$BENCH_DIR/$b.sh" || rc=1
			done
			exit $rc' || failed=1
		;;
	overlay)
		for b in $BENCHES; do
			echo
			env -u TARGET FSLIST=overlay DEST=overlay bash "$BENCH_DIR/$b.sh" || failed=1
		done
		;;
	esac
	note "$fs: done in $((SECONDS - t)) s"
done
note "all done in $((SECONDS - start)) s"
exit "$failed"
