# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the tests/setfattrs/*.bats files share: their setup_file and setup.
# Load it at the top of the file (after bats_require_minimum_version):
#   load '../helpers/setfattrs'
#
#   setup_file             tests/helpers/mounts.bash's: common and fs, no
#                          parallel tests within the file (its tests share
#                          fs.bash's images), images made as tests need them
#   setup                  the helpers (common, fs, fault), KFLAGS (the unit
#                          test binary's CLI), the test's own temporary
#                          directory as the working directory, then
#                          setfattrs_setup_more if the file defines it
#   stderr_has [--partial] LINE
#                          the last run's stderr (run --separate-stderr) has
#                          LINE exactly, or with --partial as part of a line

# setup_file and setup: tests/helpers/mounts.bash, images made as tests need them.
MOUNT_TYPES=()
load '../helpers/mounts'

mounts_setup_more() {
	KFLAGS=$FATTRS_BUILDDIR/tests/unit/kflags
	export KFLAGS
	cd "$BATS_TEST_TMPDIR" || return
	if declare -F setfattrs_setup_more >/dev/null; then
		setfattrs_setup_more
	fi
}

stderr_has() {
	local l partial=false
	[[ $1 == --partial ]] && { partial=true; shift; }
	# shellcheck disable=SC2154  # set by run --separate-stderr
	for l in "${stderr_lines[@]}"; do
		if $partial; then
			[[ $l == *"$1"* ]] && return 0
		else
			[[ $l == "$1" ]] && return 0
		fi
	done
	fail "stderr has no line ${partial:+containing }'$1':"$'\n'"$stderr"
}
