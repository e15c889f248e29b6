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
#   trusted_mounts_only    inside fs_run's namespace (FS_FUNCS=trusted_mounts_only):
#                          detach every mount of a type setfattrs does not
#                          trust to keep flags (FUSE, NFS, overlayfs: mounted
#                          on the machine, nothing of the test's), so that what
#                          setfattrs costs depends on what the test mounted;
#                          exit status 77 and the reason on stderr when one
#                          cannot go (the root, or what the test runs in)
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

# The types whose flags setfattrs trusts (src/lib/fs/fstype.c, flags_trusted).
trusted_mounts_only() {
	local trusted=" ext2 ext3 ext4 xfs btrfs tmpfs devtmpfs proc sysfs devpts cgroup cgroup2 mqueue securityfs debugfs tracefs pstore bpf configfs hugetlbfs binfmt_misc fusectl nsfs ramfs "
	local target type left
	# Innermost first; findmnt -r writes a space as \x20.
	while read -r target type; do
		[[ $trusted == *" $type "* ]] && continue
		umount -l -- "$(printf '%b' "$target")" 2>/dev/null || :
	done < <(findmnt -rn -o TARGET,FSTYPE | tac)
	left=$(findmnt -rn -o TARGET,FSTYPE | while read -r target type; do
		[[ $trusted == *" $type "* ]] || printf '%s (%s) ' "$target" "$type"
	done)
	[[ -z $left ]] && return 0
	echo "cannot detach ${left% }: setfattrs stats every file here" >&2
	return 77
}
