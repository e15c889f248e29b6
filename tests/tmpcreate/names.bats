#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bats file_tags=tmpcreate,names
#
# Names printed for people go through the quoting helper, so that no name
# (a mount source, a FUSE fsname, a mount point) can forge lines or escape
# sequences on a terminal; and every message names the file that failed.

# Scripts for unshare are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

setup() {
	load '../helpers/common'
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/w"
	cd "$T/w" || return 1
}

# bats test_tags=mount
@test "--probe quotes a mount source and mount point holding a newline and an escape; --json keeps them exact" {
	require_root "mount a tmpfs"
	require_cmd unshare
	local evil=$'evil\n\e[31mx' dir=$'m\n\e[1mp'
	mkdir -- "$dir"
	run -0 --separate-stderr unshare -m --propagation private -- bash -c '
		mount -t tmpfs -o size=1m "$1" "$2" || exit 125
		tmpcreate --probe "$2" && tmpcreate --probe --json "$2"' _ "$evil" "$dir"
	# shellcheck disable=SC2154  # set by run --separate-stderr
	assert_equal "$stderr" ""
	# Eight lines of human output and one of JSON: nothing forged, no ESC.
	assert_equal "${#lines[@]}" 9
	[[ $output != *$'\e'* ]] || fail "an escape reached the output"
	assert_equal "${lines[0]}" "'m\\n\\033[1mp':"
	assert_equal "${lines[1]}" "  filesystem:        tmpfs on '$T/w/m\\n\\033[1mp' ('evil\\n\\033[31mx')"
	# JSON: the exact bytes, escaped as JSON escapes them.
	assert_equal "$(grep -o '"source":"[^"]*"' <<<"${lines[8]}")" '"source":"evil\n\u001b[31mx"'
}

@test "a failed backup names FILE~, not FILE; FILE is left as it was and nothing else" {
	echo old >f
	mkdir 'f~' f.orig
	run -1 --separate-stderr bash -c 'echo new | tmpcreate -b -o f'
	assert_equal "$stderr" "tmpcreate: cannot back up 'f' as 'f~': Is a directory"
	run -125 --separate-stderr tmpcreate -o f --backup=.orig -- echo new
	assert_equal "$stderr" "tmpcreate: cannot back up 'f' as 'f.orig': Is a directory"
	run -1 --separate-stderr bash -c 'echo new | tmpcreate --method=named -b -o f'
	assert_equal "$stderr" "tmpcreate: cannot back up 'f' as 'f~': Is a directory"
	assert_equal "$(cat f) $(ls -A | tr '\n' ' ')" "old f f.orig f~ "
}
