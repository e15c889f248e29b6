# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sysctls a test changes for itself:  load '../helpers/sysctl'
#
#   set_sysctl NAME VALUE  set NAME for this test only (root; skips with a
#                          reason where it cannot be read or set)
#   sysctl_restore         put back every value set_sysctl changed, last
#                          change first; call it from teardown()
#
# Sysctls are global (unshare -m does not isolate them): every one a test
# changes is put back, whatever happened.

SAVED_SYSCTL=()

set_sysctl() {
	local old
	old=$(sysctl -n "$1") || skip "cannot read $1"
	SAVED_SYSCTL+=("$1=$old")
	sysctl -q -w "$1=$2" >/dev/null || skip "cannot set $1"
}

sysctl_restore() {
	local i
	# Last change first: the first value saved is the one left.
	for ((i = ${#SAVED_SYSCTL[@]} - 1; i >= 0; i--)); do
		sysctl -q -w "${SAVED_SYSCTL[i]}" >/dev/null 2>&1 || :
	done
}
