#!/usr/bin/env bash
# bench/netfs.sh: the benchmarks on network and stacked filesystems, in one command (as root, from
# the build dir): bench/tmpcreate.sh and bench/atomic-output.sh on sshfs and on overlayfs, and those
# two with bench/xstat.sh and bench/setfattrs.sh on GlusterFS. It is a benchmark, not a test: it
# prints the scripts' reports one after the other, and exits 0 once they have measured (1 when one
# could not run).
#
#   bash bench/netfs.sh >netfs.md                  # sshfs, then overlayfs, then GlusterFS
#   QUICK=1 bash bench/netfs.sh                    # smoke run (the scripts' QUICK=1)
#   NETFS=sshfs BENCHES=tmpcreate bash bench/netfs.sh
#   NETFS=gluster BENCHES=xstat bash bench/netfs.sh   # xstat against GNU stat on 10,000 files
#
# sshfs: an OpenSSH server on 127.0.0.1 that this script starts (a free port, throw-away host and
# user keys, no ~/.bashrc run before sftp-server) and mounted with sshfs's default options, exactly
# as the tests do it: it is tests/helpers/fs.bash's own code (fs_prepare, fs_run sshfs), not a
# copy. Each script then runs with TARGET set to a directory on the mount (its FSLIST/DEST
# "target"); the server's directory is under the work dir.
# overlay: the scripts' own overlayfs over tmpfs layers (FSLIST=overlay, DEST=overlay).
# gluster: glusterd with a distribute volume of one brick, mounted by the GlusterFS FUSE client, as
# the tests do it (tests/helpers/netfs.bash: netfs_start gluster, netfs_run; its own network
# namespace where the host name resolves to 127.0.0.1); each script runs with TARGET on client A's
# mount. xstat.sh gets NDIRS=10 PER=1000 (10,000 files) and DSUB=2 there unless they are set;
# setfattrs.sh SF_GROUPS="oset oclr" (GlusterFS keeps user xattrs, and has no kernel flags).
# xstat.sh and setfattrs.sh run on GlusterFS only (sshfs keeps no user xattrs).
#
# Environment:
#   NETFS      the filesystems, in order ("sshfs overlay gluster")
#   BENCHES    the scripts, in order ("tmpcreate atomic-output xstat setfattrs"); each runs where
#              it applies
#   TMPCREATE, XSTAT, SETFATTRS, QUICK, N, NPROC, ROUNDS, HF_RUNS, SIZE, SMALL, REPS, NDIRS, PER,
#   DSUB, STARTS, SF_GROUPS, CC: passed on to the scripts (see each; the binaries are found here as
#   they find them, and made absolute)
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

NETFS=${NETFS:-sshfs overlay gluster}
BENCHES=${BENCHES:-tmpcreate atomic-output xstat setfattrs}
for b in $BENCHES; do
	case $b in
	tmpcreate | atomic-output | xstat | setfattrs) ;;
	*) die "BENCHES must be a list of: tmpcreate atomic-output xstat setfattrs" ;;
	esac
done
for fs in $NETFS; do
	case $fs in sshfs | overlay | gluster) ;; *) die "NETFS must be a list of: sshfs overlay gluster" ;; esac
done

# applies FS BENCH: whether BENCH runs on FS.
applies() {
	case $1:$2 in
	*:tmpcreate | *:atomic-output | gluster:*) return 0 ;;
	*) return 1 ;;
	esac
}
HELPERS=$(realpath "$BENCH_DIR/../tests/helpers")
[[ -r $HELPERS/fs.bash ]] || die "no tests/helpers/fs.bash next to bench/ (run it from a source tree or tarball)"

find_binary TMPCREATE tmpcreate # absolute: the scripts run from other directories
[[ " $BENCHES " != *" xstat "* ]] || find_binary XSTAT xstat
[[ " $BENCHES " != *" setfattrs "* ]] || find_binary SETFATTRS setfattrs
export TMPCREATE XSTAT SETFATTRS BENCH_DIR

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
		RUN_BENCHES=$(for b in $BENCHES; do applies sshfs "$b" && echo "$b"; done) fs_run sshfs '
			rc=0
			for b in $RUN_BENCHES; do
				echo
				TARGET=$D bash "$BENCH_DIR/$b.sh" || rc=1
			done
			exit $rc' || failed=1
		;;
	overlay)
		for b in $BENCHES; do
			applies overlay "$b" || continue
			echo
			env -u TARGET FSLIST=overlay DEST=overlay bash "$BENCH_DIR/$b.sh" || failed=1
		done
		;;
	gluster)
		[[ -r $HELPERS/netfs.bash ]] || {
			note "cannot run on GlusterFS: no tests/helpers/netfs.bash"
			failed=1
			continue
		}
		# shellcheck source-path=SCRIPTDIR source=../tests/helpers/netfs.bash
		. "$HELPERS/netfs.bash"
		if ! netfs_start gluster; then
			note "cannot start GlusterFS here: $(cat "$NETFS_DIR/gluster.skip" 2>/dev/null)"
			netfs_stop
			failed=1
			continue
		fi
		note "gluster: $(gluster --version 2>/dev/null | head -n 1); volume fattrs-dist (distribute, one brick), client A"
		# shellcheck disable=SC2016 # expanded inside, where DA is the directory on client A
		RUN_BENCHES=$BENCHES NDIRS=${NDIRS:-10} PER=${PER:-1000} DSUB=${DSUB:-2} \
		SF_GROUPS=${SF_GROUPS:-oset oclr} netfs_run '
			rc=0
			for b in $RUN_BENCHES; do
				echo
				TARGET=$DA bash "$BENCH_DIR/$b.sh" || rc=1
			done
			exit $rc' || failed=1
		netfs_stop
		;;
	esac
	note "$fs: done in $((SECONDS - t)) s"
done
note "all done in $((SECONDS - start)) s"
exit "$failed"
