#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bats file_tags=tmpcreate
#
# tmpcreate's messages and exit statuses (doc/style.md, Messages): a name that
# cannot be printed is a leak, so what was made is removed; usage errors are
# one message plus the Try line; the program name follows argv[0].

setup() {
	load '../helpers/common'
	load '../helpers/callers'
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/d" "$T/bin"
	TRY="Try 'tmpcreate --help' for more information."
}

assert_dir_empty() {
	if compgen -G "$1/*" >/dev/null || compgen -G "$1/.[!.]*" >/dev/null ||
	   compgen -G "$1/..?*" >/dev/null; then
		fail "'$1' is not empty: $(ls -A -- "$1")"
	fi
}

@test "with stdout on /dev/full what was made is removed, and the exit is 1 with a write error" {
	require_dev_full
	run -1 --separate-stderr to_full tmpcreate -p "$T/d"
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	assert_equal "$stderr" 'tmpcreate: write error: No space left on device'
	assert_dir_empty "$T/d"
	run -1 --separate-stderr to_full tmpcreate -d -p "$T/d" 'a b.XXXXXX'
	assert_equal "$stderr" 'tmpcreate: write error: No space left on device'
	assert_dir_empty "$T/d"
	run -1 --separate-stderr to_full tmpcreate --method=named -p "$T/d"
	assert_equal "$stderr" 'tmpcreate: write error: No space left on device'
	assert_dir_empty "$T/d"
}

@test "-q with stdout on /dev/full exits 1 silently and leaves nothing" {
	require_dev_full
	run -1 --separate-stderr to_full tmpcreate -q -p "$T/d"
	assert_equal "$stderr" ''
	assert_dir_empty "$T/d"
	run -1 --separate-stderr to_full tmpcreate -q -d -p "$T/d"
	assert_equal "$stderr" ''
	assert_dir_empty "$T/d"
}

@test "-u with stdout on /dev/full exits 1 with a write error, even with -q, as GNU mktemp does" {
	require_dev_full
	run -1 --separate-stderr to_full tmpcreate -u -p "$T/d"
	assert_equal "$stderr" 'tmpcreate: write error: No space left on device'
	run -1 --separate-stderr to_full tmpcreate -u -q -p "$T/d"
	assert_equal "$stderr" 'tmpcreate: write error: No space left on device'
	assert_dir_empty "$T/d"
}

@test "with stdout closed the name cannot be printed: what was made is removed, exit 1" {
	# GNU mktemp: "write error: Bad file descriptor", exit 1, file removed.
	run -1 --separate-stderr stdout_closed tmpcreate -p "$T/d"
	assert_equal "$stderr" 'tmpcreate: write error: Bad file descriptor'
	assert_dir_empty "$T/d"
	run -1 --separate-stderr stdout_closed tmpcreate -u -p "$T/d"
	assert_equal "$stderr" 'tmpcreate: write error: Bad file descriptor'
}

@test "--method with an unknown word exits 1 naming the word and the valid words, then the Try line" {
	run -1 --separate-stderr tmpcreate --method=bogus -p "$T/d"
	assert_output ''
	assert_equal "$stderr" "tmpcreate: invalid argument 'bogus' for '--method'; valid arguments are 'auto', 'tmpfile', 'named'"$'\n'"$TRY"
	run -1 --separate-stderr tmpcreate --method= -p "$T/d"
	assert_equal "$stderr" "tmpcreate: invalid argument '' for '--method'; valid arguments are 'auto', 'tmpfile', 'named'"$'\n'"$TRY"
	run -1 --separate-stderr tmpcreate -p "$T/d" --method
	assert_equal "$stderr" "tmpcreate: option '--method' requires an argument"$'\n'"$TRY"
	assert_dir_empty "$T/d"
}

@test "--method=named and --method=tmpfile make a 0600 file here, and -v says how" {
	require_fs_keeps modes
	run -0 --separate-stderr tmpcreate -v --method=named -p "$T/d"
	assert_regex "$output" "^$T/d/tmp\\.[A-Za-z0-9]{10}\$"
	assert_equal "$stderr" "tmpcreate: created file '$output' with method named (as --method asked)"
	assert_equal "$(stat -c '%F %a' -- "$output")" 'regular empty file 600'

	run --separate-stderr tmpcreate -v --method=tmpfile -p "$T/d" foo.XXX
	[[ $status -eq 0 || $stderr != *O_TMPFILE* ]] || skip "no O_TMPFILE on $T: $stderr"
	assert_success
	assert_regex "$output" "^$T/d/foo\\.[A-Za-z0-9]{3}\$"
	assert_regex "$stderr" "^tmpcreate: created file '$output' with method tmpfile \\(as --method asked\\); linked with (AT_EMPTY_PATH|/proc/self/fd)\$"
	assert_equal "$(stat -c '%F %a %h' -- "$output")" 'regular empty file 600 1'

	run -0 --separate-stderr tmpcreate --method=auto -p "$T/d"
	assert_equal "$stderr" ''
	assert_equal "$(stat -c '%F %a' -- "$output")" 'regular empty file 600'
}

@test "--help, -? and --usage exit 0 with Usage: on stdout" {
	local opt
	for opt in --help '-?' --usage; do
		run -0 --separate-stderr tmpcreate "$opt"
		assert_equal "$stderr" ''
		assert_line --index 0 --regexp '^Usage: tmpcreate '
	done
	run -0 --separate-stderr tmpcreate --help
	assert_output --partial '--directory'
	assert_output --partial '--suffix'
	assert_output --partial '--method'
}

@test "--version and -V print 'tmpcreate (fattrs) VERSION' and exit 0, or 1 on /dev/full" {
	run -0 --separate-stderr tmpcreate --version
	# The forms of build-aux/git-version-gen: 0.2.0, 0.2.0.5-1a2b3c4,
	# 0.1.0-dev.176-1a2b3c4, each with -dirty after it in a changed tree.
	assert_regex "$output" '^tmpcreate \(fattrs\) [0-9]+\.[0-9]+\.[0-9]+(\.[0-9]+-[0-9a-f]{7,}|-dev\.[0-9]+-[0-9a-f]{7,})?(-dirty)?$'
	assert_equal "$stderr" ''
	local v=$output
	run -0 --separate-stderr tmpcreate -V
	assert_equal "$output" "$v"
	require_dev_full
	run -1 --separate-stderr to_full tmpcreate --version
	assert_equal "$stderr" 'tmpcreate: write error: No space left on device'
	run -1 --separate-stderr to_full tmpcreate --help
	assert_equal "$stderr" 'tmpcreate: write error: No space left on device'
}

@test "messages follow the grammar and name the program as argv[0] says" {
	require_fs_keeps symlinks
	run -1 --separate-stderr tmpcreate --bogus
	assert_output ''
	assert_equal "$stderr" "tmpcreate: unrecognized option '--bogus'"$'\n'"$TRY"
	run -1 --separate-stderr tmpcreate -p "$T/missing" $'a\nb.XXX'
	assert_equal "$stderr" "tmpcreate: failed to create file via template '$T/missing/a\\nb.XXX': No such file or directory"
	run -1 --separate-stderr tmpcreate aXX
	assert_equal "$stderr" "tmpcreate: too few X's in template 'aXX'"

	ln -s "$(command -v tmpcreate)" "$T/bin/foo"
	run -1 --separate-stderr "$T/bin/foo" --bogus
	assert_equal "$stderr" "foo: unrecognized option '--bogus'"$'\n'"Try 'foo --help' for more information."
	run -1 --separate-stderr "$T/bin/foo" -d "$T/missing/fooXXX"
	assert_equal "$stderr" "foo: failed to create directory via template '$T/missing/fooXXX': No such file or directory"
	run -1 --separate-stderr "$T/bin/foo" a b
	assert_equal "$stderr" "foo: too many templates"$'\n'"Try 'foo --help' for more information."
	[[ ! -e $T/missing ]]
}
