#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bats file_tags=tmpcreate,argv
#
# How tmpcreate reads its argv: with -o and --scratch the first operand is
# COMMAND and ends the options, as with env(1), timeout(1) and nice(1);
# "--" still works; mktemp and probe mode permute as GNU getopt does.  A
# backup suffix only follows '='; an empty --preserve list is refused, as
# cp(1) refuses it.

# The sh -c scripts are single-quoted on purpose: they expand inside.
# shellcheck disable=SC2016

setup() {
	load '../helpers/common'
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/w"
	cd "$T/w" || return 1
	printf '%s\n' 10 9 100 >in
	seq 1 12 >nums
	TRY="Try 'tmpcreate --help' for more information."
}

@test "-o FILE COMMAND: COMMAND's options are its own (sort -n, grep -v), with or without --" {
	run -0 tmpcreate -o sorted sort -n in
	assert_equal "$(cat sorted)" "$(sort -n in)"
	run -0 tmpcreate -o g grep -v 9 nums
	assert_equal "$(cat g)" "$(grep -v 9 nums)"
	run -0 tmpcreate -o sorted2 -- sort -n in
	assert_equal "$(cat sorted2)" "$(sort -n in)"
	# Options of tmpcreate before COMMAND, clustered, joined, abbreviated.
	run -0 --separate-stderr tmpcreate -vo e echo a -n -v
	assert_equal "$(cat e)" "a -n -v"
	assert_equal "$stderr" "tmpcreate: created 'e' with method tmpfile (O_TMPFILE works here)"
	run -0 tmpcreate -oe2 -m 0600 echo -- x
	assert_equal "$(cat e2) $(stat -c %a e2)" "-- x 600"
	run -0 tmpcreate --outp=e3 -n printf '%s\n' -n
	assert_equal "$(cat e3)" "-n"
	run -0 tmpcreate --output e4 -- echo -- y
	assert_equal "$(cat e4)" "-- y"
}

@test "--scratch COMMAND: COMMAND's options are its own, with or without --" {
	run -0 tmpcreate --scratch -p "$T/w" sh -c 'echo "$1 $2"' sh -v -p
	assert_output "-v -p"
	run -0 tmpcreate --scratch -p "$T/w" -- sh -c 'echo "$1"' sh -o
	assert_output "-o"
	run -0 tmpcreate -p "$T/w" --scratch wc -c {}
	assert_output --regexp '^0 /dev/fd/[0-9]+$'
}

@test "-o or --scratch after the first operand is a usage error; that operand is not run" {
	run -1 --separate-stderr tmpcreate touch ran -o f
	assert_equal "${stderr_lines[0]}" "tmpcreate: option '-o' must come before 'touch' (COMMAND starts at the first operand)"
	assert_equal "${stderr_lines[1]}" "$TRY"
	run -1 --separate-stderr tmpcreate touch ran --scratch
	assert_equal "${stderr_lines[0]}" "tmpcreate: option '--scratch' must come before 'touch' (COMMAND starts at the first operand)"
	run -1 --separate-stderr tmpcreate touch ran --out=f
	assert_equal "${stderr_lines[0]}" "tmpcreate: option '--out=f' must come before 'touch' (COMMAND starts at the first operand)"
	assert_file_not_exists ran
	assert_file_not_exists f
}

@test "mktemp and probe mode still take options after operands, as GNU mktemp does" {
	run -0 tmpcreate foo.XXXXXX -u -p "$T/w"
	assert_output --regexp "^$T/w/foo\\.[A-Za-z0-9]{6}\$"
	run -0 "$GNU_MKTEMP" foo.XXXXXX -u -p "$T/w"
	run -0 tmpcreate --probe . --json
	assert_output --partial '"dir":"."'
}

@test "--backup SUFFIX (no '='): a COMMAND that reads as a suffix is refused, not run" {
	printf '#!/bin/sh\necho ran >"$1"\n' >.orig
	chmod +x .orig
	echo old >f
	local opt word
	for opt in --backup -b --back; do
		for word in .orig '~' .bak; do
			run -1 --separate-stderr tmpcreate -o f "$opt" "$word" x
			assert_equal "${stderr_lines[0]}" "tmpcreate: '$word' looks like a backup suffix, not a COMMAND: a suffix only follows '=', as in --backup=SUFFIX (to run a COMMAND of that name, write ./NAME)"
			assert_equal "${stderr_lines[1]}" "$TRY"
		done
	done
	assert_equal "$(cat f) $(ls -A | tr '\n' ' ')" "old .orig f in nums "
	# With '=' it is the suffix; ./.orig is a COMMAND.
	run -0 tmpcreate -o f --backup=.orig -- echo new
	assert_equal "$(cat f) $(cat f.orig)" "new old"
	run -0 tmpcreate -o f -b ./.orig x
	assert_equal "$(cat x) $(cat f~)" "ran new"
}

@test "--backup= (empty suffix) is a usage error, not FILE backed up as itself" {
	echo old >f
	run -1 --separate-stderr tmpcreate -o f --backup= -- echo new
	assert_equal "${stderr_lines[0]}" "tmpcreate: invalid backup suffix '': it must not be empty"
	assert_equal "$(cat f)" old
}

@test "--preserve with an empty list or an empty word is refused as cp refuses it; bare --preserve is all" {
	local list
	echo old >f
	for list in '' , mode, ,mode mode,,xattr; do
		run -1 --separate-stderr tmpcreate -o f "--preserve=$list" -- echo new
		assert_equal "[$list] ${stderr_lines[0]}" "[$list] tmpcreate: invalid argument '' for '--preserve'; valid arguments are 'mode', 'ownership', 'xattr', 'flags', 'all'"
		assert_equal "${stderr_lines[1]}" "$TRY"
		# cp refuses the same lists.
		run -1 cp "--preserve=$list" in in.copy
	done
	assert_equal "$(cat f)" old
	chmod 0640 f
	run -0 tmpcreate -o f --preserve -- echo new
	assert_equal "$(cat f) $(stat -c %a f)" "new 640"
	run -0 tmpcreate -o f --preserve=mode,xattr -- echo newer
	assert_equal "$(cat f) $(stat -c %a f)" "newer 640"
}

@test "a cluster whose option holds its argument (-p-p) does not take the next word: GNU mktemp agrees" {
	local gnu ours
	gnu=$(TMPDIR=$T/w "$GNU_MKTEMP" -u -p-p --tmpdir foo.XXX)
	ours=$(TMPDIR=$T/w tmpcreate -u -p-p --tmpdir foo.XXX)
	assert_equal "${ours%.*}" "${gnu%.*}"
	assert_equal "${ours%.*}" "$T/w/foo"
	run -0 tmpcreate -o-o --backup -- echo new
	assert_equal "$(cat -- -o)" new
}
