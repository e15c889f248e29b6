#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tmpcreate --scratch -- COMMAND: COMMAND runs with an unnamed file open
# ($TMPCREATE_FD, $TMPCREATE_FILE, {}), and nothing is ever left in the
# directory, whatever kills COMMAND.  Real filesystems are mounted per test
# in a private mount namespace (tests/helpers/fs.bash).
# bats file_tags=tmpcreate,scratch

# The fs_run scripts are single-quoted on purpose: they expand inside.
# shellcheck disable=SC2016

bats_require_minimum_version 1.5.0

setup_file() {
	load '../helpers/common'
	load '../helpers/fs'
	export BATS_NO_PARALLELIZE_WITHIN_FILE=true
	fs_prepare tmpfs ext4 xfs btrfs ntfs-3g
}

setup() {
	load '../helpers/common'
	load '../helpers/fs'
	W=$BATS_TEST_TMPDIR/w
	mkdir "$W"
	cd "$W" || return 1
}

names() {
	local n
	n=$(ls -A "${1:-.}")
	printf '%s\n' "${n//$'\n'/ }"
}

@test "--scratch sets TMPCREATE_FD and TMPCREATE_FILE=/dev/fd/N" {
	run -0 --separate-stderr tmpcreate --scratch -p "$W" -- sh -c 'echo "$TMPCREATE_FD $TMPCREATE_FILE"'
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	assert_equal "$stderr" ""
	assert_output --regexp '^([0-9]+) /dev/fd/[0-9]+$'
	fd=${output%% *}
	assert_output "$fd /dev/fd/$fd"
	assert_equal "$(names)" ""
}

@test "--scratch: what COMMAND writes to the descriptor reads back through \$TMPCREATE_FILE" {
	run -0 --separate-stderr tmpcreate --scratch -p "$W" -- sh -c '
		printf "hello\nworld\n" >&"$TMPCREATE_FD"
		cat "$TMPCREATE_FILE"
		head -c 100000 /dev/zero >"$TMPCREATE_FILE"
		wc -c <"$TMPCREATE_FILE"'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' hello world 100000)"
	assert_equal "$(names)" ""
}

@test "--scratch: the file is a regular file with mode 0600 in -p DIR" {
	mkdir sub
	run -0 --separate-stderr tmpcreate --scratch -p "$W/sub" -- sh -c '
		echo x >&"$TMPCREATE_FD"
		stat -L -c "%F %a" "$TMPCREATE_FILE"
		readlink "/proc/$$/fd/$TMPCREATE_FD"'
	assert_equal "$stderr" ""
	assert_line --index 0 "regular file 600"
	assert_line --index 1 --regexp "^$W/sub/"
	assert_equal "$(names) | $(names sub)" "sub | "
}

@test "--scratch without -p uses \$TMPDIR" {
	mkdir t
	TMPDIR=$W/t run -0 --separate-stderr tmpcreate --scratch -- sh -c 'readlink "/proc/$$/fd/$TMPCREATE_FD"'
	assert_output --regexp "^$W/t/"
}

@test "--scratch replaces {} as a whole argument and inside one" {
	run -0 --separate-stderr tmpcreate --scratch -p "$W" -- \
		printf '%s|%s|%s|%s\n' '{}' 'x{}y' '{}{}' 'fd={' 
	assert_equal "$stderr" ""
	assert_output --regexp '^/dev/fd/([0-9]+)\|x/dev/fd/[0-9]+y\|/dev/fd/[0-9]+/dev/fd/[0-9]+\|fd=\{$'
	f=${output%%|*}
	assert_output "$f|x${f}y|$f$f|fd={"
}

@test "--scratch: {} names the same file as \$TMPCREATE_FILE" {
	run -0 --separate-stderr tmpcreate --scratch -p "$W" -- sh -c 'echo data >"$1"; cat "$TMPCREATE_FILE"; [ "$1" = "$TMPCREATE_FILE" ] && echo same' sh '{}'
	assert_output "$(printf '%s\n' data same)"
}

@test "--scratch passes COMMAND's exit status through" {
	run -7 --separate-stderr tmpcreate --scratch -p "$W" -- sh -c 'exit 7'
	assert_equal "$stderr" ""
	run -0 tmpcreate --scratch -p "$W" -- true
	run -137 tmpcreate --scratch -p "$W" -- sh -c 'kill -9 $$'
	assert_equal "$(names)" ""
}

@test "--scratch exits 127 when COMMAND is not found" {
	run -127 --separate-stderr tmpcreate --scratch -p "$W" -- nonexist '{}'
	assert_output ""
	assert_equal "$stderr" "tmpcreate: cannot run 'nonexist': No such file or directory"
	assert_equal "$(names)" ""
}

@test "--scratch exits 126 when COMMAND is not executable" {
	printf '#!/bin/sh\necho x\n' >notexec
	chmod 0644 notexec
	run -126 --separate-stderr tmpcreate --scratch -p "$W" -- ./notexec
	assert_output ""
	assert_equal "$stderr" "tmpcreate: cannot run './notexec': Permission denied"
	assert_equal "$(names)" "notexec"
}

@test "--scratch without COMMAND is a usage error" {
	run -1 --separate-stderr tmpcreate --scratch -p "$W"
	assert_output ""
	assert_equal "$stderr" "tmpcreate: --scratch needs a COMMAND to run
Try 'tmpcreate --help' for more information."
	run -1 --separate-stderr tmpcreate --scratch -p "$W" --
	assert_equal "$stderr" "tmpcreate: --scratch needs a COMMAND to run
Try 'tmpcreate --help' for more information."
	assert_equal "$(names)" ""
}

@test "--scratch in a missing directory exits 125 and does not run COMMAND" {
	run -125 --separate-stderr tmpcreate --scratch -p "$W/nodir" -- touch "$W/ran"
	assert_equal "$stderr" "tmpcreate: cannot create a temporary file in '$W/nodir': No such file or directory"
	assert_equal "$(names)" ""
}

@test "--scratch with -o is a usage error" {
	run -1 --separate-stderr tmpcreate --scratch -o f -- true
	assert_equal "$stderr" "tmpcreate: --output, --scratch and --probe cannot be combined
Try 'tmpcreate --help' for more information."
	assert_equal "$(names)" ""
}

# TYPE: the directory is empty while COMMAND runs, and after kill -9 of
# COMMAND; the data was really in the file.  On FUSE (ntfs-3g) the kernel
# keeps an unlinked but open file as .fuse_hidden* until it is closed
# (unless mounted with -o hard_remove): that is not tmpcreate's name and
# is ignored while COMMAND runs, but must be gone after.
killed_on() {
	local type=$1
	fs_require "$type"
	run -0 --separate-stderr fs_run "$type" '
		cd /
		err=$BATS_TEST_TMPDIR/tmpcreate.err
		# The shell says "Killed" on its stderr: not that one.
		{
			tmpcreate --scratch -p "$D" -- sh -c "
				head -c 1000000 /dev/zero >&\$TMPCREATE_FD
				echo \"size \$(stat -L -c %s \$TMPCREATE_FILE)\"
				echo \"during: \$(ls -A \"$D\" | grep -v \"^\.fuse_hidden\" | tr \"\\n\" \" \")\"
				exec sleep 30" 2>"$err" &
			pid=$!
			for ((i = 0; i < 200; i++)); do
				[[ $(ps -o comm= -p $pid) == sleep ]] && break
				sleep 0.02
			done
			kill -9 $pid
			wait $pid
			echo "exit $?"
		} 2>/dev/null
		echo "after: $(ls -A "$D" | tr "\n" " ")"
		cat "$err" >&2'
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'size 1000000' 'during: ' 'exit 137' 'after: ')"
}

@test "ext4: kill -9 of COMMAND leaves nothing in the directory" {
	killed_on ext4
}

@test "xfs: kill -9 of COMMAND leaves nothing in the directory" {
	killed_on xfs
}

@test "btrfs: kill -9 of COMMAND leaves nothing in the directory" {
	killed_on btrfs
}

@test "tmpfs: kill -9 of COMMAND leaves nothing in the directory" {
	killed_on tmpfs
}

@test "ntfs-3g: the named fallback is unlinked before COMMAND runs: nothing there, even after kill -9" {
	killed_on ntfs-3g
}

@test "ntfs-3g: -v says the scratch file was made with the named method" {
	fs_require ntfs-3g
	run -0 --separate-stderr fs_run ntfs-3g '
		tmpcreate -v --scratch -p "$D" -- sh -c "echo x >&\$TMPCREATE_FD; cat \$TMPCREATE_FILE; ls -A \"$D\" | grep -v \"^\.fuse_hidden\"; :"'
	assert_output "x"
	assert_equal "$stderr" "tmpcreate: scratch file in '$BATS_TEST_TMPDIR/mnt/test-$BATS_TEST_NUMBER' with method named (O_TMPFILE is not supported here: Operation not supported)"
}
