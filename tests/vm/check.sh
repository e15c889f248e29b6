#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/check.sh [-b BUILDDIR] [-o OUT] [SUITE...]: the guest tests
# (tests/vm/netfs.bats, on the cifs and nfs mounts) on each Debian kernel
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

# The job in the guest: the programs of BUILDDIR, the tests of the source tree.
cat >"$out/job" <<JOB
export FATTRS_SRCDIR=$(printf %q "$srcdir") FATTRS_BUILDDIR=$(printf %q "$builddir")
cd "\$FATTRS_SRCDIR" || exit 1
bats --tap tests/vm/netfs.bats
rc=\$?
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
	echo "| client | kernel | O_TMPFILE | RENAME_NOREPLACE | flock twice on one open file | user.* xattrs | FS_IOC_GETFLAGS | FS_IOC_FSGETXATTR | statx btime |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for suite in "$@"; do
		cat "$out/$suite.facts"
	done | sort
} >"$out/facts.md"

cd "$out" || exit 1
{
	awk '
		/^ok .*# [Ss][Kk][Ii][Pp]/ { skip++; next }
		/^ok / { pass++; next }
		/^not ok / { fail++; next }
		END {
			printf "tests/vm/check.sh\n\n# TOTAL: %d\n# PASS:  %d\n# SKIP:  %d\n# FAIL:  %d\n# ERROR: 0\n\n",
				pass + skip + fail, pass, skip, fail
		}' "${@/%/.tap}"
	cat "${@/%/.tap}"
} >"$out/vm-suite.log" 2>/dev/null
exit $status
