# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Loaded by every .bats file:  load '../helpers/common'
#
# Loads bats-support, bats-assert and bats-file, puts the freshly built
# programs first on PATH, and offers small require_* helpers that skip
# with a reason when the environment cannot run a test.

bats_require_minimum_version 1.5.0

bats_load_library bats-support
bats_load_library bats-assert
bats_load_library bats-file

# make check sets FATTRS_SRCDIR/FATTRS_BUILDDIR and PATH; by hand from an
# in-tree build ("bats tests/tmpcreate"), fall back to the source tree.
: "${FATTRS_SRCDIR:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
: "${FATTRS_BUILDDIR:=$FATTRS_SRCDIR}"
case ":$PATH:" in
*":$FATTRS_BUILDDIR:"*) ;;
*) PATH="$FATTRS_BUILDDIR:$PATH" ;;
esac
export FATTRS_SRCDIR FATTRS_BUILDDIR PATH
export LC_ALL=C
unset POSIXLY_CORRECT POSIX_ME_HARDER

# FATTRS_TEST_DIR=DIR: each test's own directory ($BATS_TEST_TMPDIR, where
# the tests work) is made on DIR instead, a mount under test (tests/vm runs
# the programs' tests so on its cifs and nfs mounts; bats keeps its own
# files, which need symlinks, where they were).  Whoever sets it removes DIR.
if [[ -n ${FATTRS_TEST_DIR-} && -n ${BATS_TEST_TMPDIR-} && $BATS_TEST_TMPDIR != "$FATTRS_TEST_DIR"/* ]]; then
	BATS_TEST_TMPDIR=$FATTRS_TEST_DIR/${BATS_TEST_FILENAME##*/}.$BATS_SUITE_TEST_NUMBER
	rm -rf "$BATS_TEST_TMPDIR" && mkdir -p "$BATS_TEST_TMPDIR" || return 1
	export BATS_TEST_TMPDIR
fi

# The real GNU mktemp, to compare against (never written to or near).
GNU_MKTEMP=/usr/bin/mktemp

require_root() {
	[[ $EUID -eq 0 ]] || skip "needs root${1:+ to $1}"
}

require_nonroot() {
	[[ $EUID -ne 0 ]] || skip "needs a non-root user${1:+ to $1} (root bypasses permissions)"
}

# PROGRAM [WHY]: skip under --enable-sanitizers (PROGRAM linked with
# libasan), for WHY (default: valgrind cannot run such programs).
require_no_sanitizer() {
	! ldd "$1" 2>/dev/null | grep -q libasan ||
		skip "built with --enable-sanitizers: ${2:-valgrind cannot run programs built with AddressSanitizer}"
}

# fs_keeps WHAT: whether the test's directory ($BATS_TEST_TMPDIR) keeps
# WHAT, tried there once per test: modes (a chmod sticks), symlinks, fifos,
# owners (root's chown to nobody:100 sticks), tmpfile (tmpcreate's auto
# method here is O_TMPFILE: open(2) takes O_TMPFILE there, asked with
# python3 so that the program under test does not decide whether it is
# tested, and it is not the SMB client, whose O_TMPFILE files lose their
# name: doc/kernel.md §6).  A cifs mount without POSIX extensions keeps
# no modes, symlinks or fifos, and NFS squashes root's chown (tests/vm runs
# the programs' tests there): a promise about those cannot hold there.
fs_keeps() {
	local p=$BATS_TEST_TMPDIR/.fs-keeps-probe ok=1
	rm -f "$p"
	case $1 in
	modes) : >"$p" && chmod 0640 "$p" && [[ $(stat -c %a "$p") == 640 ]] && ok=0 ;;
	symlinks) ln -s target "$p" 2>/dev/null && ok=0 ;;
	fifos) mkfifo "$p" 2>/dev/null && ok=0 ;;
	owners) : >"$p" && chown 65534:100 "$p" 2>/dev/null && [[ $(stat -c %u:%g "$p") == 65534:100 ]] && ok=0 ;;
	tmpfile)
		case $(stat -f -c %T "$BATS_TEST_TMPDIR") in
		smb2 | cifs) ;;
		*) python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_TMPFILE | os.O_RDWR, 0o600))' \
			"$BATS_TEST_TMPDIR" 2>/dev/null && ok=0 ;;
		esac ;;
	*) echo "fs_keeps: no such property: $1" >&2; ok=2 ;;
	esac
	rm -f "$p"
	return $ok
}

# require_fs_keeps WHAT...: skip unless the test's directory keeps each WHAT (fs_keeps).
require_fs_keeps() {
	local w
	for w; do
		fs_keeps "$w" || skip "the test directory's filesystem ($(stat -f -c %T "$BATS_TEST_TMPDIR")) keeps no $w"
	done
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "needs $c"
	done
}
