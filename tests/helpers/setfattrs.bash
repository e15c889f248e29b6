# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the tests/setfattrs/*.bats files share:  load '../helpers/setfattrs'
#
#   setfattrs_setup_file   in setup_file: the helpers, and no parallel tests
#                          within the file (its tests share fs.bash's images)
#   setfattrs_setup        in setup: the helpers (common, fs), and the test's
#                          own temporary directory as the working directory
#   stderr_has [--partial] LINE
#                          the last run's stderr (run --separate-stderr) has
#                          LINE exactly, or with --partial as part of a line

setfattrs_setup_file() {
	load '../helpers/common'
	load '../helpers/fs'
	export BATS_NO_PARALLELIZE_WITHIN_FILE=true
}

setfattrs_setup() {
	load '../helpers/common'
	load '../helpers/fs'
	cd "$BATS_TEST_TMPDIR" || return
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
