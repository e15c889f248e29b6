#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/check.sh [-b BUILDDIR] [-o OUT] [SUITE...]: the guest tests
# (tests/vm/netfs.bats and VM_PROGRAM_TESTS on the cifs and nfs mounts, and the kill -9 soak of
# tests/soak on cifs and nfs: VM_SOAK_TRIALS, default 50, trials of -o and
# VM_SOAK_BACKUP_TRIALS, default 20, of -b -o) on each Debian kernel
# (bookworm trixie sid: 6.1, 6.12, 7.x), one guest at a time (vm.sh).  As
# root; what `make vm-check` and .ci/run run.  TAP per kernel in
# OUT/SUITE.tap (test names start with the kernel), the counts in
# OUT/vm-suite.log in automake's summary format.  A guest that cannot start
# here (no qemu, not root, no kernel to fetch) is a skip with the reason.
# What each client does on each kernel (tests/vm/facts.py) goes to
# OUT/facts.md, the table of doc/kernel.md §6.
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=$srcdir
out=
while getopts b:o: o; do
	case $o in
	b) builddir=$(cd "$OPTARG" && pwd) || exit 2 ;;
	o) out=$OPTARG ;;
	*) echo "usage: check.sh [-b BUILDDIR] [-o OUT] [SUITE...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
(($#)) || set -- bookworm trixie sid
out=${out:-$builddir/vm-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The programs' bats files that also run on the cifs and nfs mounts (all of
# them, less the tests tagged mount or netfs, take over 30 minutes a kernel
# under TCG: VM_PROGRAM_TESTS="tests/tmpcreate tests/xstat ..." by hand).
VM_PROGRAM_TESTS=${VM_PROGRAM_TESTS:-tests/tmpcreate/names.bats tests/cli/quoting.bats}

# The job in the guest: the programs of BUILDDIR, the tests of the source
# tree: netfs.bats, then the kill -9 soak (tests/soak/run.sh) on a cifs
# and an nfs mount of their own, VM_SOAK_TRIALS trials of -o and
# VM_SOAK_BACKUP_TRIALS of -b -o, as one TAP stream (the soak's lines
# numbered on after the bats tests, the plan last).
cat >"$out/job" <<JOB
export FATTRS_SRCDIR=$(printf %q "$srcdir") FATTRS_BUILDDIR=$(printf %q "$builddir")
cd "\$FATTRS_SRCDIR" || exit 1
bats --tap tests/vm/netfs.bats >/tmp/netfs.tap
rc=\$?
# The programs' own tests with their directories on the cifs and on the nfs
# mount (FATTRS_TEST_DIR), both at once; what mounts or serves is left out.
for fs in cifs nfs; do
	d=\$VM_SMB; [ \$fs = nfs ] && d=\$VM_NFS
	(set -o pipefail
	FATTRS_TEST_DIR=\$d/programs bats --tap --filter-tags '!mount,!netfs' $VM_PROGRAM_TESTS 2>&1 |
		sed "s/^\\(\\(not \\)\\?ok [0-9]*\\) /\\1 \$fs: /" ||
		echo "not ok 999 \$fs: bats $VM_PROGRAM_TESTS failed") >/tmp/programs-\$fs.tap &
done
wait
rm -rf "\$VM_SMB/programs" "\$VM_NFS/programs"
tests/soak/run.sh -b "\$FATTRS_BUILDDIR" -o /tmp/soak -n ${VM_SOAK_TRIALS:-50} cifs nfs >/tmp/soak.tap
tests/soak/run.sh -b "\$FATTRS_BUILDDIR" -o /tmp/soak-b -n ${VM_SOAK_BACKUP_TRIALS:-20} -B cifs nfs >/tmp/soak-b.tap
awk '
	FNR == 1 { what = FILENAME ~ /soak-b/ ? "soak -b -o, kill -9: " : FILENAME ~ /soak/ ? "soak -o, kill -9: " : FILENAME ~ /programs/ ? "programs on " : "" }
	/^1\.\./ { next }
	/^(not )?ok [0-9]+/ {
		n++
		sub(/ok [0-9]+ (- )?/, "ok " n " " what)
	}
	{ print }
	END { print "1.." n }' /tmp/netfs.tap /tmp/programs-cifs.tap /tmp/programs-nfs.tap /tmp/soak.tap /tmp/soak-b.tap >/tmp/all.tap
cat /tmp/all.tap
# Failed: a test not ok that is no TODO, or a TODO that passes.
grep -v '# TODO' /tmp/all.tap | grep -q '^not ok' && rc=1
grep -q '^ok .*# TODO' /tmp/all.tap && rc=1
PATH=\$FATTRS_BUILDDIR:\$PATH python3 tests/vm/facts.py "\$VM_KVER" cifs="\$VM_SMB" nfs4="\$VM_NFS"
exit \$rc
JOB

status=0
for suite in "$@"; do
	start=$SECONDS
	"$here/vm.sh" "$suite" "$out/job" >"$out/$suite.raw" 2>"$out/$suite.err"
	rc=$?
	if [[ $rc -eq 77 ]]; then
		printf '1..1\nok 1 %s # SKIP %s\n' "$suite" "$(tail -n 1 "$out/$suite.err")" >"$out/$suite.tap"
	else
		sed -n "s/^\(\(not \)\?ok [0-9]*\) /\1 $suite: /p; /^1\.\./p; /^#/p" "$out/$suite.raw" >"$out/$suite.tap"
		if [[ $rc -ne 0 ]] && ! grep -q '^not ok' "$out/$suite.tap"; then
			# The guest itself failed: one failure, with why.
			printf 'not ok 999 %s: the guest failed (exit %d): %s\n' "$suite" "$rc" \
				"$(tail -n 1 "$out/$suite.err" | tr '\n' ' ')" >>"$out/$suite.tap"
		fi
		[[ $rc -eq 0 ]] || status=1
	fi
	sed -n 's/^FACT| /| /p' "$out/$suite.raw" >"$out/$suite.facts"
	cat "$out/$suite.tap"
	echo "# $suite took $((SECONDS - start)) s"
done

# What the clients did, per kernel (tests/vm/facts.py): doc/kernel.md's table.
{
	echo "| client | kernel | O_TMPFILE | O_TMPFILE linked and renamed over FILE | RENAME_NOREPLACE | flock twice on one open file | user.* xattrs | FS_IOC_GETFLAGS | FS_IOC_FSGETXATTR | statx btime |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for suite in "$@"; do
		cat "$out/$suite.facts"
	done | sort
} >"$out/facts.md"

cd "$out" || exit 1
{
	awk '
		/^ok .*# [Ss][Kk][Ii][Pp]/ { skip++; next }
		/^ok .*# TODO/ { xpass++; next }
		/^not ok .*# TODO/ { xfail++; next }
		/^ok / { pass++; next }
		/^not ok / { fail++; next }
		END {
			printf "tests/vm/check.sh\n\n# TOTAL: %d\n# PASS:  %d\n# SKIP:  %d\n# XFAIL: %d\n# FAIL:  %d\n# XPASS: %d\n# ERROR: 0\n\n",
				pass + skip + fail + xfail + xpass, pass, skip, xfail, fail, xpass
		}' "${@/%/.tap}"
	cat "${@/%/.tap}"
} >"$out/vm-suite.log" 2>/dev/null
exit $status
