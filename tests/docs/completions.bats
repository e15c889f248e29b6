#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The shell completions, driven without a terminal (doc/style.md, Tests): bash by
# calling the completion function with COMP_* set, fish with complete -C,
# zsh by parsing the file, registering it through compinit, and reading
# the candidates from a zpty-driven shell.
# bats file_tags=docs,completions
# shellcheck disable=SC2016  # single-quoted scripts are for the shells they run in

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	load '../helpers/completion'
	# Keep every shell away from the real home and its caches.
	export HOME="$BATS_TEST_TMPDIR/home" XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/home/.config" \
		XDG_DATA_HOME="$BATS_TEST_TMPDIR/home/.local/share" \
		XDG_CACHE_HOME="$BATS_TEST_TMPDIR/home/.cache" ZDOTDIR="$BATS_TEST_TMPDIR/home"
	unset BASH_COMPLETION_USER_DIR
	mkdir -p "$HOME" "$BATS_TEST_TMPDIR/cwd/dir1" "$BATS_TEST_TMPDIR/cwd/dir2"
	touch "$BATS_TEST_TMPDIR/cwd/file1"
	cd "$BATS_TEST_TMPDIR/cwd" || return
}

# ------------------------------------------------------------------ bash

@test "bash: the completion file registers _tmpcreate for tmpcreate" {
	require_bash_completion
	run -0 bash -c 'source "$1"; source "$2"; complete -p tmpcreate' _ "$BASH_COMPLETION" "$COMPDIR/bash/tmpcreate"
	assert_output 'complete -F _tmpcreate tmpcreate'
}

@test "bash: 'tmpcreate --me' completes to --method= with no space after" {
	require_bash_completion
	run -0 --separate-stderr bash_complete 'tmpcreate --me'
	assert_output '--method='
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	output=$stderr assert_output 'compopt -o nospace'
}

@test "bash: 'tmpcreate --method=' offers auto, named and tmpfile" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate --method='
	assert_output $'auto\nnamed\ntmpfile'
}

@test "bash: 'tmpcreate --method=t' offers tmpfile only" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate --method=t'
	assert_output 'tmpfile'
}

@test "bash: 'tmpcreate -p ' offers directories only" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate -p '
	assert_output $'dir1\ndir2'
}

@test "bash: 'tmpcreate --tmpdir=' offers directories only" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate --tmpdir='
	assert_output $'dir1\ndir2'
}

@test "bash: 'tmpcreate --probe ' offers directories only" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate --probe '
	assert_output $'dir1\ndir2'
}

@test "bash: nothing is offered after --help" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate --help '
	assert_output ''
}

@test "bash: 'tmpcreate --sync=' offers data, full and none" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate -o out --sync='
	assert_output $'data\nfull\nnone'
}

@test "bash: 'tmpcreate --preserve=' completes each word of the comma list" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate -o out --preserve='
	assert_output $'all\nflags\nmode\nownership\nxattr'
	run -0 bash_complete 'tmpcreate -o out --preserve=mode,o'
	assert_output 'mode,ownership'
}

@test "bash: 'tmpcreate -o ' offers files, '-m ' nothing" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate -o '
	assert_output $'dir1\ndir2\nfile1'
	run -0 bash_complete 'tmpcreate --output='
	assert_output $'dir1\ndir2\nfile1'
	run -0 bash_complete 'tmpcreate -o out -m '
	assert_output ''
}

@test "bash: the new options are offered, and --backup= takes no space" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate --no-'
	assert_output $'--no-clobber\n--no-dereference'
	run -0 --separate-stderr bash_complete 'tmpcreate --backup='
	assert_output ''
	run -0 bash_complete 'tmpcreate --sc'
	assert_output '--scratch'
}

@test "bash: after -o FILE -- and --scratch --, COMMAND is completed" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate -o out -- ech'
	assert_line 'echo'
	run -0 bash_complete 'tmpcreate --scratch -v -- ech'
	assert_line 'echo'
}

@test "bash: in -o and --scratch mode COMMAND needs no '--': the first operand is completed as a command" {
	require_bash_completion
	local line
	for line in 'tmpcreate -o out ech' 'tmpcreate --output=out ech' 'tmpcreate --output out ech' \
		'tmpcreate -vo out ech' 'tmpcreate -oout ech' 'tmpcreate -o out -m 644 ech' \
		'tmpcreate --method=named -o out ech' 'tmpcreate -o out -b ech' 'tmpcreate --scratch ech' \
		'tmpcreate -p . --scratch -v ech'; do
		run -0 bash_complete "$line"
		assert_line 'echo'
	done
	# "--" is never offered; before COMMAND, commands are.
	run -0 bash_complete 'tmpcreate -o out '
	refute_line -- '--'
	assert_line 'echo'
	# After COMMAND, its arguments: files, not tmpcreate's options.
	run -0 bash_complete 'tmpcreate -o out cat fi'
	assert_output 'file1'
	run -0 bash_complete 'tmpcreate -o out cat --no-'
	refute_output --partial -- '--no-clobber'
	# tmpcreate's own options before COMMAND still complete.
	run -0 bash_complete 'tmpcreate -o out --no-'
	assert_output $'--no-clobber\n--no-dereference'
}

@test "bash: in mktemp mode '--' only ends the options" {
	require_bash_completion
	run -0 bash_complete 'tmpcreate -- '
	assert_output $'dir1\ndir2'
}

@test "bash: the completion file passes shellcheck" {
	require_cmd shellcheck
	run -0 shellcheck "$COMPDIR/bash/tmpcreate"
}

# ------------------------------------------------------------------ fish

@test "fish: the completion file parses" {
	require_cmd fish
	run -0 fish --no-config -n "$COMPDIR/fish/tmpcreate.fish"
}

@test "fish: 'tmpcreate --me' completes to --method" {
	require_cmd fish
	run -0 fish_complete 'tmpcreate --me'
	assert_output $'--method\tHow files are made'
}

@test "fish: 'tmpcreate --method=' offers auto, named and tmpfile" {
	require_cmd fish
	run -0 fish_complete 'tmpcreate --method='
	assert_equal "$(cut -f1 <<<"$output" | sort)" $'--method=auto\n--method=named\n--method=tmpfile'
}

@test "fish: 'tmpcreate -p ' offers directories only" {
	require_cmd fish
	run -0 fish_complete 'tmpcreate -p '
	assert_equal "$(cut -f1 <<<"$output" | sort)" $'dir1/\ndir2/'
}

@test "fish: 'tmpcreate --probe ' offers directories only" {
	require_cmd fish
	run -0 fish_complete 'tmpcreate --probe '
	assert_equal "$(cut -f1 <<<"$output" | sort)" $'dir1/\ndir2/'
}

@test "fish: 'tmpcreate --sync=' offers data, full and none" {
	require_cmd fish
	run -0 fish_complete 'tmpcreate -o out --sync='
	assert_equal "$(cut -f1 <<<"$output" | sort)" $'--sync=data\n--sync=full\n--sync=none'
}

@test "fish: 'tmpcreate --preserve=' offers the attribute words only, as a comma list" {
	require_cmd fish
	run -0 fish_complete 'tmpcreate -o out --preserve='
	assert_equal "$(cut -f1 <<<"$output" | sort)" $'--preserve=all\n--preserve=flags\n--preserve=mode\n--preserve=ownership\n--preserve=xattr'
	run -0 fish_complete 'tmpcreate -o out --preserve=mode,o'
	assert_equal "$(cut -f1 <<<"$output")" '--preserve=mode,ownership'
}

@test "fish: 'tmpcreate -o ' offers files" {
	require_cmd fish
	run -0 fish_complete 'tmpcreate -o '
	assert_equal "$(cut -f1 <<<"$output" | sort)" $'dir1/\ndir2/\nfile1'
}

@test "fish: after -o FILE -- COMMAND is completed" {
	require_cmd fish
	run -0 fish_complete 'tmpcreate -o out -- ech'
	assert_line --regexp $'^echo(\t|$)'
	run -0 fish_complete 'tmpcreate --scratch -- ech'
	assert_line --regexp $'^echo(\t|$)'
}

@test "fish: in -o and --scratch mode COMMAND needs no '--': the first operand is completed as a command" {
	require_cmd fish
	local line
	for line in 'tmpcreate -o out ech' 'tmpcreate --output=out ech' 'tmpcreate -vo out ech' \
		'tmpcreate -o out -m 644 ech' 'tmpcreate -o out -b ech' 'tmpcreate --scratch ech'; do
		run -0 fish_complete "$line"
		assert_line --regexp $'^echo(\t|$)'
	done
	run -0 fish_complete 'tmpcreate -o out cat fi'
	assert_equal "$(cut -f1 <<<"$output")" 'file1'
	# After COMMAND, tmpcreate's own options are not offered.
	run -0 fish_complete 'tmpcreate -o out cat --no-'
	refute_output --partial -- '--no-clobber'
	run -0 fish_complete 'tmpcreate -o out --no-'
	assert_line --regexp '^--no-clobber'
}

# ------------------------------------------------------------------ zsh

@test "zsh: the completion file parses" {
	require_cmd zsh
	run -0 zsh -n "$COMPDIR/zsh/_tmpcreate"
}

@test "zsh: compinit registers _tmpcreate for tmpcreate through #compdef" {
	require_cmd zsh
	run -0 zsh -fc 'fpath=($1 $fpath); autoload -U compinit; compinit -u -D; print -r -- $_comps[tmpcreate]' \
		_ "$COMPDIR/zsh"
	assert_output '_tmpcreate'
}

# Skip unless zsh_complete can run: zsh, timeout and zsh's zpty module.
require_zsh_complete() {
	require_cmd zsh timeout
	zsh -fc 'zmodload zsh/zpty' 2>/dev/null || skip "needs the zsh/zpty module"
}

# zsh_complete 'line': what <Tab> offers, one candidate per line (a zsh -f -i
# in a zpty whose fpath has a copy of completions/zsh; zsh_complete_script).
zsh_complete() {
	mkdir -p "$BATS_TEST_TMPDIR/zsh"
	cp "$COMPDIR"/zsh/_* "$BATS_TEST_TMPDIR/zsh/"
	zsh_complete_script "$BATS_TEST_TMPDIR/zcomplete.zsh" \
		"fpath=(${BATS_TEST_TMPDIR@Q}/zsh \$fpath)" 'autoload -U compinit && compinit -u -D'
	timeout 20 zsh -f "$BATS_TEST_TMPDIR/zcomplete.zsh" "$1"
}

@test "zsh: 'tmpcreate --method=' offers auto, named and tmpfile" {
	require_zsh_complete
	run -0 zsh_complete 'tmpcreate --method='
	assert_equal "$(sort -u <<<"$output")" $'auto\nnamed\ntmpfile'
}

@test "zsh: 'tmpcreate --me' completes to --method" {
	require_zsh_complete
	run -0 zsh_complete 'tmpcreate --me'
	assert_output '--method'
}

@test "zsh: 'tmpcreate --sync=' offers data, full and none" {
	require_zsh_complete
	run -0 zsh_complete 'tmpcreate -o out --sync='
	assert_equal "$(sort -u <<<"$output")" $'data\nfull\nnone'
}

@test "zsh: 'tmpcreate --preserve=mode,' offers the other attribute words" {
	require_zsh_complete
	run -0 zsh_complete 'tmpcreate -o out --preserve=mode,'
	assert_equal "$(sort -u <<<"$output")" $'all\nflags\nownership\nxattr'
}

@test "zsh: after -o FILE -- COMMAND is completed" {
	require_zsh_complete
	run -0 zsh_complete 'tmpcreate -o out -- ech'
	assert_line 'echo'
}

@test "zsh: in -o and --scratch mode COMMAND needs no '--': the first operand is completed as a command" {
	require_zsh_complete
	local line
	for line in 'tmpcreate -o out ech' 'tmpcreate --output=out ech' 'tmpcreate -vo out ech' \
		'tmpcreate -o out -m 644 ech' 'tmpcreate --scratch ech'; do
		run -0 zsh_complete "$line"
		assert_line 'echo'
	done
	run -0 zsh_complete 'tmpcreate -o out '
	refute_line -- '--'
	run -0 zsh_complete 'tmpcreate -o out cat fi'
	assert_output 'file1'
	run -0 zsh_complete 'tmpcreate -o out cat --no-'
	refute_output --partial -- '--no-clobber'
}

# ------------------------------------------------------------------ setfattrs

@test "bash: setfattrs completes operations, the last word of a comma list, options and files" {
	require_bash_completion
	COMP_TOOL=setfattrs
	run -0 bash_complete 'setfattrs +nodu'
	assert_output '+nodump'
	run -0 bash_complete 'setfattrs +nodump,offl'
	assert_output '+nodump,offline'
	run -0 bash_complete 'setfattrs -immu'
	assert_output '-immutable'
	run -0 bash_complete 'setfattrs =pin'
	assert_output '=pinned'
	run -0 bash_complete 'setfattrs --dry'
	assert_output '--dry-run'
	run -0 bash_complete 'setfattrs +nodump fi'
	assert_output 'file1'
	# A read-only flag is never offered.
	run -0 bash_complete 'setfattrs +exte'
	assert_output ''
}

@test "bash: setfattrs: after an operation an empty word is a file; after 'OP --', --reference and --list no operation is offered" {
	require_bash_completion
	COMP_TOOL=setfattrs
	# Nothing yet: the operators.
	run -0 --separate-stderr bash_complete 'setfattrs -v '
	assert_output $'+\n-\n='
	# An operation given: the files (before the fix, '+ - =' again and never a file).
	for line in 'setfattrs +nodump ' 'setfattrs -v -i,d ' 'setfattrs =nodump ' 'setfattrs +d -- ' \
		'setfattrs --list ' 'setfattrs --reference=file1 '; do
		run -0 --separate-stderr bash_complete "$line"
		assert_output $'dir1\ndir2\nfile1'
	done
	# After "+d --" every word is a file, whatever it starts with.
	run -0 bash_complete 'setfattrs +d -- +no'
	assert_output ''
	# Operations after options and other operations still complete.
	run -0 bash_complete 'setfattrs =nodump -v +offl'
	assert_output '+offline'
}

@test "bash: the setfattrs completion passes shellcheck" {
	require_cmd shellcheck
	run -0 shellcheck "$COMPDIR/bash/setfattrs"
}

@test "fish: setfattrs completes operations and options" {
	require_cmd fish
	COMP_TOOL=setfattrs
	run -0 fish --no-config -n "$COMPDIR/fish/setfattrs.fish"
	run -0 fish_complete 'setfattrs +nodump,offl'
	assert_equal "$(cut -f1 <<<"$output")" '+nodump,offline'
	run -0 fish_complete 'setfattrs -immu'
	assert_equal "$(cut -f1 <<<"$output")" '-immutable'
	run -0 fish_complete 'setfattrs --verb'
	assert_equal "$(cut -f1 <<<"$output")" '--verbose'
}

@test "fish: setfattrs: after an operation an empty word is a file; after 'OP --', --reference and --list no operation is offered" {
	require_cmd fish
	COMP_TOOL=setfattrs
	run -0 fish_complete 'setfattrs -v '
	assert_line --partial '+nodump'
	refute_line --partial 'file1'
	for line in 'setfattrs +nodump ' 'setfattrs -v -i,d ' 'setfattrs +nodump fi' 'setfattrs +d -- ' \
		'setfattrs --list ' 'setfattrs --reference file1 '; do
		run -0 fish_complete "$line"
		assert_line --regexp '^file1'
		refute_line --partial '+nodump'
	done
	run -0 fish_complete 'setfattrs +d -- +no'
	assert_output ''
	run -0 fish_complete 'setfattrs =nodump -v +offl'
	assert_equal "$(cut -f1 <<<"$output")" '+offline'
}

@test "zsh: the setfattrs completion parses and compinit registers it" {
	require_cmd zsh
	run -0 zsh -n "$COMPDIR/zsh/_setfattrs"
	run -0 zsh -fc 'fpath=($1 $fpath); autoload -U compinit; compinit -u -D; print -r -- $_comps[setfattrs]' \
		_ "$COMPDIR/zsh"
	assert_output '_setfattrs'
}

@test "zsh: setfattrs completes the last flag of an operation, and options" {
	require_zsh_complete
	run -0 zsh_complete 'setfattrs +nodump,offl'
	assert_output 'offline'
	run -0 zsh_complete 'setfattrs --verb'
	assert_output '--verbose'
}

@test "zsh: setfattrs offers no operation after 'OP --', --reference or --list, only files" {
	require_cmd zsh timeout
	zsh -fc 'zmodload zsh/zpty' 2>/dev/null || skip "needs the zsh/zpty module"
	for line in 'setfattrs +d -- ' 'setfattrs --list ' 'setfattrs --reference=file1 '; do
		run -0 zsh_complete "$line"
		assert_line 'file1'
		refute_line 'nodump'
	done
	run -0 zsh_complete 'setfattrs +nodump '
	assert_line 'file1'
}
