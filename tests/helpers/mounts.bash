# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The setup_file and setup of a .bats file whose tests mount filesystems
# (fs.bash).  Load it at the top of the file (after bats_require_minimum_version):
#   load '../helpers/mounts'
#
#   setup_file             common and fs; no parallel tests within the file
#                          (they share fs.bash's images); the images of
#                          MOUNT_TYPES prepared (an array the file may set
#                          at its top; unset: every FS_TYPES; empty: none);
#                          then mounts_setup_file_more if the file defines it
#   setup                  common, fs and fault, then mounts_setup_more if
#                          the file defines it
#   mounts_workdir         W=$BATS_TEST_TMPDIR/w, made and entered, umask 022:
#                          a directory of the test's own, so that listings
#                          show only what the test made

setup_file() {
	load '../helpers/common'
	load '../helpers/fs'
	export BATS_NO_PARALLELIZE_WITHIN_FILE=true
	if declare -p MOUNT_TYPES >/dev/null 2>&1; then
		(( ${#MOUNT_TYPES[@]} == 0 )) || fs_prepare "${MOUNT_TYPES[@]}"
	else
		fs_prepare "${FS_TYPES[@]}"
	fi
	if declare -F mounts_setup_file_more >/dev/null; then
		mounts_setup_file_more
	fi
}

setup() {
	load '../helpers/common'
	load '../helpers/fs'
	load '../helpers/fault'
	if declare -F mounts_setup_more >/dev/null; then
		mounts_setup_more
	fi
}

mounts_workdir() {
	W=$BATS_TEST_TMPDIR/w
	mkdir "$W"
	cd "$W" || return 1
	umask 022
}
