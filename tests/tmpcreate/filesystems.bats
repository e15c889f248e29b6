#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tmpcreate on real filesystems: which method makes the file (O_TMPFILE then
# linkat, or a named O_CREAT|O_EXCL file), the modes, and that nothing stray
# is left behind.  Each filesystem is mounted per test in a private mount
# namespace (tests/helpers/fs.bash); strace shows the system calls.
# bats file_tags=tmpcreate

# Scripts for fs_run are single-quoted: they expand inside the namespace.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

# setup_file and setup: tests/helpers/mounts.bash (every FS_TYPES image)
load '../helpers/mounts'

# The file's name as mktemp makes it from the default template in $D.
name_re() {
	printf '^%s/tmp\\.[A-Za-z0-9]{10}$' "$(re_escape "$D")"
}

# The checks on a file that the named method made: exclusive, no symlinks
# followed, never an O_TMPFILE, never a link.
assert_named_trace() {
	local trace=$1 path=$2
	assert_trace "$trace" "openat\\(AT_FDCWD, \"$(re_escape "$path")\", O_RDWR\\|O_CREAT\\|O_EXCL\\|O_NOFOLLOW\\|O_CLOEXEC, 0600\\) = [0-9]+$"
	refute_trace "$trace" '^[0-9]+ +linkat\('
}

# TYPE: the default method is O_TMPFILE, linked with AT_EMPTY_PATH;
# --method=named never tries O_TMPFILE.
tmpfile_and_named() {
	local type=$1 tr=$BATS_TEST_TMPDIR/trace path
	fs_require "$type"
	fault_require
	run -0 --separate-stderr fs_run "$type" '
		trace_run "$BATS_TEST_TMPDIR/trace" tmpcreate -v -p "$D" &&
		trace_run "$BATS_TEST_TMPDIR/trace.named" tmpcreate -v --method=named -p "$D" &&
		stat -c %F "$D"/*'
	assert_equal "${#lines[@]}" 4
	assert_regex "${lines[0]}" "$(name_re)"
	assert_regex "${lines[1]}" "$(name_re)"
	assert_equal "${lines[2]}" "regular empty file"
	assert_equal "${lines[3]}" "regular empty file"

	path=${lines[0]}
	# shellcheck disable=SC2154  # $stderr_lines is set by run --separate-stderr
	assert_equal "${stderr_lines[0]}" "tmpcreate: created file '$path' with method tmpfile (O_TMPFILE works here); linked with AT_EMPTY_PATH"
	assert_trace "$tr" "openat\\(AT_FDCWD, \"$(re_escape "$D")\", [^)]*O_TMPFILE[^)]*, 0600\\) = [0-9]+$"
	assert_trace "$tr" "linkat\\([0-9]+, \"\", AT_FDCWD, \"$(re_escape "$path")\", AT_EMPTY_PATH\\) = 0$"
	refute_trace "$tr" 'O_CREAT'

	path=${lines[1]}
	assert_equal "${stderr_lines[1]}" "tmpcreate: created file '$path' with method named (as --method asked)"
	assert_named_trace "$tr.named" "$path"
	refute_trace "$tr.named" 'O_TMPFILE'
	assert_equal "${#stderr_lines[@]}" 2

	# The two new names, and nothing else.
	assert_equal "$(fs_ls)" "$(printf '%s\n' "${lines[0]##*/}" "${lines[1]##*/}" | LC_ALL=C sort)"
}

# TYPE: files and directories get the modes GNU mktemp gives them in the same
# directory, under each umask; POSIX filesystems: 0600 and 0700.
# Each line: umask, then the modes of tmpcreate's file, tmpcreate
# --method=named's file, mktemp's file, tmpcreate -d's dir, mktemp -d's dir,
# then how many entries the directory held.
modes_match_mktemp() {
	local type=$1 posix=$2 u line
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		for u in 022 077 027 0; do
			(
				umask "$u"
				a=$(tmpcreate -p "$D") && b=$(tmpcreate --method=named -p "$D") &&
				c=$("$GNU_MKTEMP" -p "$D") && d=$(tmpcreate -d -p "$D") &&
				e=$("$GNU_MKTEMP" -d -p "$D") || exit
				echo "$u" $(stat -c %a "$a" "$b" "$c" "$d" "$e") $(ls -A "$D" | wc -l)
				rm -rf "$a" "$b" "$c" "$d" "$e"
			) || exit
		done'
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	assert_equal "$stderr" ''
	assert_equal "${#lines[@]}" 4
	for line in "${lines[@]}"; do
		read -r u a b c d e n <<<"$line"
		assert_equal "$n" 5
		if [[ $posix == posix ]]; then
			assert_equal "$line" "$u 600 600 600 700 700 5"
		else
			assert_equal "$a $b $d" "$c $c $e"
		fi
	done
	assert_equal "$(fs_ls)" ''
}

# bats test_tags=mount
@test "ext4: makes the file with O_TMPFILE and AT_EMPTY_PATH, or named with --method=named" {
	tmpfile_and_named ext4
}

# bats test_tags=mount
@test "xfs: makes the file with O_TMPFILE and AT_EMPTY_PATH, or named with --method=named" {
	tmpfile_and_named xfs
}

# bats test_tags=mount
@test "btrfs: makes the file with O_TMPFILE and AT_EMPTY_PATH, or named with --method=named" {
	tmpfile_and_named btrfs
}

# bats test_tags=mount
@test "tmpfs: makes the file with O_TMPFILE and AT_EMPTY_PATH, or named with --method=named" {
	tmpfile_and_named tmpfs
}

# bats test_tags=mount
@test "ramfs: makes the file with O_TMPFILE and AT_EMPTY_PATH, or named with --method=named" {
	tmpfile_and_named ramfs
}

# bats test_tags=mount
@test "ntfs-3g: falls back to a named file where O_TMPFILE is missing" {
	local tr=$BATS_TEST_TMPDIR/trace path
	fs_require ntfs-3g
	fault_require
	run -0 --separate-stderr fs_run ntfs-3g '
		trace_run "$BATS_TEST_TMPDIR/trace" tmpcreate -v -p "$D" &&
		trace_run "$BATS_TEST_TMPDIR/trace.named" tmpcreate -v --method=named -p "$D" &&
		tmpcreate -p "$D" --suffix=.txt data.XXXXXX &&
		stat -c %F "$D"/*'
	assert_equal "${#lines[@]}" 6
	assert_regex "${lines[0]}" "$(name_re)"
	assert_regex "${lines[1]}" "$(name_re)"
	assert_regex "${lines[2]}" "^$(re_escape "$D")/data\\.[A-Za-z0-9]{6}\\.txt\$"
	assert_equal "${lines[3]}" "regular empty file"
	assert_equal "${lines[4]}" "regular empty file"
	assert_equal "${lines[5]}" "regular empty file"

	# Plain: O_TMPFILE tried, EOPNOTSUPP, then the named method.
	path=${lines[0]}
	# shellcheck disable=SC2154  # $stderr_lines is set by run --separate-stderr
	assert_equal "${stderr_lines[0]}" "tmpcreate: created file '$path' with method named (O_TMPFILE is not supported here: Operation not supported)"
	assert_trace "$tr" "openat\\(AT_FDCWD, \"$(re_escape "$D")\", [^)]*O_TMPFILE[^)]*\\) = -1 EOPNOTSUPP"
	assert_named_trace "$tr" "$path"

	# --method=named: not even tried.
	path=${lines[1]}
	assert_equal "${stderr_lines[1]}" "tmpcreate: created file '$path' with method named (as --method asked)"
	assert_named_trace "$tr.named" "$path"
	refute_trace "$tr.named" 'O_TMPFILE'
	assert_equal "${#stderr_lines[@]}" 2

	assert_equal "$(fs_ls)" "$(printf '%s\n' "${lines[@]:0:3}" | sed 's|.*/||' | LC_ALL=C sort)"
}

# bats test_tags=mount
@test "ntfs-3g: --method=tmpfile is refused and leaves nothing behind" {
	fs_require ntfs-3g
	run -1 --separate-stderr fs_run ntfs-3g 'tmpcreate -v --method=tmpfile -p "$D"'
	assert_output ''
	# shellcheck disable=SC2154
	[ "$stderr" = "tmpcreate: failed to create file via template '$D/tmp.XXXXXXXXXX': Operation not supported; this filesystem has no O_TMPFILE (use --method=auto)" ]
	[ "$(fs_ls)" = '' ]
}

# bats test_tags=mount
@test "ext4: files are 0600 and directories 0700 under every umask, as with mktemp" {
	modes_match_mktemp ext4 posix
}

# bats test_tags=mount
@test "xfs: files are 0600 and directories 0700 under every umask, as with mktemp" {
	modes_match_mktemp xfs posix
}

# bats test_tags=mount
@test "btrfs: files are 0600 and directories 0700 under every umask, as with mktemp" {
	modes_match_mktemp btrfs posix
}

# bats test_tags=mount
@test "tmpfs: files are 0600 and directories 0700 under every umask, as with mktemp" {
	modes_match_mktemp tmpfs posix
}

# bats test_tags=mount
@test "ramfs: files are 0600 and directories 0700 under every umask, as with mktemp" {
	modes_match_mktemp ramfs posix
}

# bats test_tags=mount
@test "ntfs-3g: files and directories get the modes mktemp gets under every umask" {
	# Mounted without -o permissions: ntfs-3g shows fixed modes to everyone.
	modes_match_mktemp ntfs-3g fixed
}

# ---- faults no filesystem produces on its own

# A directory here where O_TMPFILE works, or skip.
tmpfile_dir() {
	D=$BATS_TEST_TMPDIR/d
	mkdir "$D"
	local json
	json=$(tmpcreate --probe --json "$D")
	[[ $json == *'"o_tmpfile":true'* ]] || skip "O_TMPFILE does not work in $BATS_TEST_TMPDIR"
}

# TRACE PROC: the output of the last run is the one file in $D, a named
# one made after linking the unnamed file failed both ways: AT_EMPTY_PATH
# (injected ENOENT), then /proc/self/fd (ENOENT, and PROC, an ERE, after
# it); and stderr says why.
assert_link_fallback() {
	local trace=$1 path
	assert_output --regexp "$(name_re)"
	path=$output
	assert_trace "$trace" 'linkat\([0-9]+, "", .*AT_EMPTY_PATH\) = -1 ENOENT .*\(INJECTED\)'
	assert_trace "$trace" 'linkat\(AT_FDCWD, "/proc/self/fd/[0-9]+", .*AT_SYMLINK_FOLLOW\) = -1 ENOENT'"$2"
	assert_trace "$trace" "openat\\(AT_FDCWD, \"$(re_escape "$path")\", O_RDWR\\|O_CREAT\\|O_EXCL\\|O_NOFOLLOW\\|O_CLOEXEC, 0600\\) = [0-9]+$"
	# shellcheck disable=SC2154
	[ "$stderr" = "tmpcreate: created file '$path' with method named (an unnamed file cannot be linked here: AT_EMPTY_PATH and /proc/self/fd both failed)" ]
	[ "$(ls -A "$D")" = "${path##*/}" ]
}

@test "when both ways of linking fail, falls back to a named file and says why" {
	local trace=$BATS_TEST_TMPDIR/trace
	fault_require
	tmpfile_dir
	run -0 --separate-stderr fault_run "$trace" linkat ENOENT -- tmpcreate -v -p "$D"
	assert_link_fallback "$trace" '.*\(INJECTED\)'
}

@test "without AT_EMPTY_PATH and without /proc, falls back to a named file and says why" {
	local trace=$BATS_TEST_TMPDIR/trace
	require_root "to hide /proc in a private mount namespace"
	fault_require
	require_no_sanitizer "$(command -v tmpcreate)" "AddressSanitizer itself needs /proc"
	tmpfile_dir
	# AT_EMPTY_PATH refused (as before Linux 6.10 without the capability),
	# and /proc really absent: an empty tmpfs over it in a private namespace.
	run -0 --separate-stderr unshare -m --propagation private -- bash -c '
		mount -t tmpfs fattrs-noproc /proc || exit 125
		ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -s 4096 -o "$1" \
			-e inject=linkat:error=ENOENT:when=1 -- tmpcreate -v -p "$2"' \
		_ "$trace" "$D"
	assert_link_fallback "$trace" ' \(No such file or directory\)$'
}

@test "a name taken between choosing and linking is retried under another name" {
	local trace=$BATS_TEST_TMPDIR/trace path
	fault_require
	tmpfile_dir
	run -0 --separate-stderr fault_run "$trace" linkat EEXIST:when=1 -- tmpcreate -v -p "$D"
	assert_output --regexp "$(name_re)"
	path=$output
	assert_trace "$trace" 'linkat\(.*\) = -1 EEXIST .*\(INJECTED\)'
	assert_trace "$trace" "linkat\\([0-9]+, \"\", AT_FDCWD, \"$(re_escape "$path")\", AT_EMPTY_PATH\\) = 0$"
	# shellcheck disable=SC2154
	[ "$stderr" = "tmpcreate: created file '$path' with method tmpfile (O_TMPFILE works here); linked with AT_EMPTY_PATH" ]
	[ "$(ls -A "$D")" = "${path##*/}" ]
}
