#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# File names in messages: every program quotes them as GNU coreutils'
# quoteaf() does (ls, chmod, stat), 'NAME' shell-escaped, in the C locale,
# in C.UTF-8 and in a UTF-8 locale with a language (en_US.UTF-8, made here
# with localedef): each message is compared with ls's for the same name in
# the same locale.  What coreutils quotes with quote() (a template, a mode,
# a command) stays in the locale's quotes, as theirs do.
# bats file_tags=cli

bats_require_minimum_version 1.5.0

setup_file() {
	load '../helpers/common'
	# en_US.UTF-8 in a directory of the file's own (LOCPATH): whatever the
	# machine has installed, the test has the locale it needs.
	if command -v localedef >/dev/null && [[ -e /usr/share/i18n/locales/en_US ]]; then
		mkdir -p "$BATS_FILE_TMPDIR/locale"
		localedef -i en_US -f UTF-8 "$BATS_FILE_TMPDIR/locale/en_US.UTF-8" >/dev/null 2>&1 || :
	fi
}

setup() {
	load '../helpers/common'
	[[ -e $BATS_FILE_TMPDIR/locale/en_US.UTF-8 ]] ||
		skip "needs localedef and the en_US locale source (package locales)"
	export LOCPATH=$BATS_FILE_TMPDIR/locale
	[[ $(LC_ALL=en_US.UTF-8 locale charmap 2>/dev/null) == UTF-8 ]] ||
		skip "the en_US.UTF-8 made with localedef does not load"
	[[ $(LC_ALL=C.UTF-8 locale charmap 2>/dev/null) == UTF-8 ]] || skip "needs the C.UTF-8 locale"
	cd "$BATS_TEST_TMPDIR" || return
}

LOCALES=(C C.UTF-8 en_US.UTF-8)

# Names under a directory that does not exist: a space, a quote, a
# backslash, a newline, a byte that is not UTF-8, a letter that is.
names() {
	printf '%s\0' "missing/plain" "missing/a b" "missing/it's" 'missing/back\slash' \
		$'missing/new\nline' $'missing/\xff' "missing/été"
}

# GNU's quoting of NAME in locale L: ls's message about it, its words cut.
gnu_quote() {
	local out
	out=$(LC_ALL=$1 ls -d -- "$2" 2>&1)
	out=${out#"ls: cannot access "}
	printf '%s\n' "${out%": No such file or directory"}"
}

@test "xstat, setfattrs and tmpcreate quote a file name in a message as ls does, in C, C.UTF-8 and en_US.UTF-8" {
	local l n q bad=()
	while IFS= read -r -d '' n; do
		for l in "${LOCALES[@]}"; do
			q=$(gnu_quote "$l" "$n")
			[[ $(LC_ALL=$l xstat -- "$n" 2>&1) == "xstat: cannot statx $q: No such file or directory" ]] ||
				bad+=("xstat $l: $(LC_ALL=$l xstat -- "$n" 2>&1) (ls: $q)")
			[[ $(LC_ALL=$l setfattrs +offline -- "$n" 2>&1) == "setfattrs: cannot stat $q: No such file or directory" ]] ||
				bad+=("setfattrs $l: $(LC_ALL=$l setfattrs +offline -- "$n" 2>&1) (ls: $q)")
			[[ $(LC_ALL=$l setfattrs --list -- "$n" 2>&1) == "setfattrs: cannot statx $q: No such file or directory" ]] ||
				bad+=("setfattrs --list $l: $(LC_ALL=$l setfattrs --list -- "$n" 2>&1) (ls: $q)")
			# The directory that is missing is the one named.
			[[ $(LC_ALL=$l tmpcreate -o "$n/f" </dev/null 2>&1) == "tmpcreate: cannot create a temporary file in $q: No such file or directory" ]] ||
				bad+=("tmpcreate $l: $(LC_ALL=$l tmpcreate -o "$n/f" </dev/null 2>&1) (ls: $q)")
		done
	done < <(names)
	((${#bad[@]} == 0)) || fail "$(printf '%s\n' "${bad[@]}")"
}

@test "a message that names a flag and a file uses one kind of quotes for both in C.UTF-8" {
	# cifs without unix extensions holds no fifo (tests/vm runs this file there).
	mkfifo fifo 2>/dev/null || skip "needs a filesystem that holds fifos, not $(stat -f -c %T .)"
	run -1 env LC_ALL=C.UTF-8 setfattrs +offline fifo
	assert_output --regexp "^setfattrs: cannot set 'offline' on 'fifo': "
	refute_output --partial $'\xe2\x80\x98'
}

@test "a usage error that names a file quotes every word in it as a file name, in C, C.UTF-8 and en_US.UTF-8" {
	local l
	touch f ./+d
	for l in "${LOCALES[@]}"; do
		run -1 env LC_ALL="$l" setfattrs +d f +x
		assert_line -n 0 "setfattrs: operation '+x' after the file 'f': give every operation before the files (a file named so: './+x')"
		run -1 env LC_ALL="$l" setfattrs +d +d
		assert_line -n 0 "setfattrs: missing file operand: '+d' names a flag, so it is taken as an operation; name the file as './+d' (or after a -- that follows the operations)"
	done
}

# A usage error's first line in locale L.
first_line() {
	local l=$1
	shift
	LC_ALL=$l "$@" 2>&1 </dev/null | head -1
}

@test "a usage error quotes what was typed and what it suggests alike, in C, C.UTF-8 and en_US.UTF-8" {
	local l c u cmd bad=()
	local -a cmds=(
		"setfattrs +ofline f"
		"setfattrs +qq f"
		"setfattrs -vd f"
		"setfattrs -extsize=1m f"
		"setfattrs +nodump=1m f"
		"setfattrs +offline +pinned f"
		"setfattrs f"
		"tmpcreate --method=bogus"
		"tmpcreate --preserve=mode,x"
		"tmpcreate -o f -b .orig"
	)
	for cmd in "${cmds[@]}"; do
		# shellcheck disable=SC2086 # each command is its words
		c=$(first_line C $cmd)
		[[ $c == *"'"*"'"* && $c != *$'\xe2\x80'* ]] || bad+=("C: $c")
		for l in C.UTF-8 en_US.UTF-8; do
			# The same words, each quoted thing in the locale's quotes and none in ASCII ones.
			u=$(printf '%s\n' "$c" | sed "s/'\([^']*\)'/‘\1’/g")
			# shellcheck disable=SC2086
			[[ $(first_line "$l" $cmd) == "$u" ]] || bad+=("$l: $(first_line "$l" $cmd)")
		done
	done
	((${#bad[@]} == 0)) || fail "$(printf '%s\n' "${bad[@]}")"
}

@test "a template is quoted as coreutils' quote() does: in the locale's quotes, as mktemp does" {
	local l
	for l in "${LOCALES[@]}"; do
		assert_equal "$(LC_ALL=$l tmpcreate abc 2>&1 | head -1)" \
			"$(LC_ALL=$l mktemp abc 2>&1 | sed 's/^mktemp:/tmpcreate:/' | head -1)"
	done
}
