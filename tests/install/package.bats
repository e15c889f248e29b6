#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What a user gets from the Debian package: the tarball make dist made
# (FATTRS_TARBALL) is built into a source and a binary package, lintian
# checks both, apt-get installs the .deb on this machine, the installed man
# pages and completions are used as a user's shell uses them, and apt-get
# purge removes every file again.  The tests run in order and depend on
# each other.  Root only: it installs a package (.ci/run runs it; by hand:
#   FATTRS_TARBALL=build/fattrs-VERSION.tar.xz bats tests/install/package.bats).
# Not part of make check.

bats_require_minimum_version 1.5.0

# The programs under test are the installed ones.
FATTRS_BUILDDIR=/usr/bin

setup_file() {
	export PKG_DIR=$BATS_FILE_TMPDIR/pkg
	mkdir -p "$PKG_DIR"
}

teardown_file() {
	# Whatever failed on the way, the machine is left without the package.
	if dpkg-query -W -f '${Status}' fattrs 2>/dev/null | grep -q installed; then
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq fattrs >/dev/null 2>&1
	fi
	return 0
}

setup() {
	load '../helpers/common'
	load '../helpers/completion'
	[[ -n ${FATTRS_TARBALL:-} ]] || skip 'FATTRS_TARBALL names no tarball (make dist makes one)'
	require_root 'install a package'
	require_cmd dpkg-buildpackage lintian
	HERE=$BATS_TEST_DIRNAME
	PROGRAMS=(tmpcreate xstat setfattrs)
}

# The package's source tree, unpacked from the tarball by the first test.
src_tree() {
	local d
	for d in "$PKG_DIR"/fattrs-*/; do
		[[ -f $d/debian/control ]] && { printf '%s\n' "${d%/}"; return 0; }
	done
	return 1
}

@test "the tarball holds every file git tracks but those tests/install/not-in-tarball names" {
	run -0 tar -xJf "$FATTRS_TARBALL" -C "$PKG_DIR"
	local tree
	tree=$(src_tree) || fail "no debian/control in $FATTRS_TARBALL"
	assert_file_exists "$tree/.tarball-version"
	assert_file_not_empty "$tree/ChangeLog"
	git -C "$FATTRS_SRCDIR" rev-parse --git-dir >/dev/null 2>&1 ||
		skip "$FATTRS_SRCDIR is no git checkout"
	local -a missing
	mapfile -t missing < <(comm -23 \
		<(git -C "$FATTRS_SRCDIR" ls-files | sort) \
		<( (cd "$tree" && find . -type f | sed 's|^\./||'; sed 's/#.*//; /^[[:space:]]*$/d' "$HERE/not-in-tarball") | sort -u))
	((${#missing[@]} == 0)) || fail "tracked but not in the tarball: ${missing[*]}"
}

@test "dpkg-buildpackage builds the source package (.dsc)" {
	local tree
	tree=$(src_tree) || fail 'no unpacked tarball'
	cd "$tree"
	run -0 dpkg-buildpackage -us -uc -S
	assert_file_exists "$PKG_DIR"/fattrs_*.dsc
}

@test "dpkg-buildpackage builds the binary package (.deb)" {
	local tree
	tree=$(src_tree) || fail 'no unpacked tarball'
	cd "$tree"
	# DEB_BUILD_OPTIONS from the caller (CI: nocheck, .ci/run runs the tests).
	run -0 dpkg-buildpackage -us -uc -b -j2
	compgen -G "$PKG_DIR/fattrs_*.deb" >/dev/null || fail "no .deb: $output"
	# Debian's hardening flags (fortify: warn_unused_result) warn of nothing.
	local warnings
	warnings=$(grep -E '(^|[^[:alnum:]_])(warning|error): ' <<<"$output" | grep -vE '^dpkg-|lintian' || :)
	[[ -z $warnings ]] || fail "the compiler warned: $warnings"
}

@test "lintian: no error and no warning; each info tag left is named in debian/" {
	local tree
	tree=$(src_tree) || fail 'no unpacked tarball'
	run -0 lintian --fail-on error,warning --display-info --no-tag-display-limit \
		"$PKG_DIR"/fattrs_*.changes "$PKG_DIR"/fattrs_*.dsc
	local tag unnamed=()
	for tag in $(sed -n 's/^[IP]: [^:]*: \([^ ]*\).*/\1/p' <<<"$output" | sort -u); do
		grep -rqs -- "$tag" "$tree/debian/README.source" "$tree/debian/source/lintian-overrides" ||
			unnamed+=("$tag")
	done
	((${#unnamed[@]} == 0)) || fail "info tags debian/ does not name: ${unnamed[*]}"$'\n'"$output"
}

@test "apt-get install ./fattrs_*.deb puts the three programs on PATH" {
	local deb
	deb=$(compgen -G "$PKG_DIR/fattrs_*_*.deb" | grep -v dbgsym | head -n 1) || fail 'no .deb'
	DEBIAN_FRONTEND=noninteractive run -0 apt-get install -y -qq --no-install-recommends "$deb"
	local p
	for p in "${PROGRAMS[@]}"; do
		run -0 command -v "$p"
		assert_output "/usr/bin/$p"
		run -0 "$p" --version
		assert_output --regexp "^$p \(fattrs\) "
	done
}

@test "dpkg -L fattrs lists what tests/install/files.list lists, and nothing else" {
	run -0 diff -u "$HERE/files.list" <(dpkg -L fattrs | sort)
}

@test "man NAME finds each installed page and renders it without a warning" {
	local page err
	for page in tmpcreate xstat setfattrs '7 fattrs'; do
		# shellcheck disable=SC2086  # '7 fattrs' is two words
		run -0 man -w $page
		assert_output --regexp '^/usr/share/man/man[17]/'
		err=$(MANWIDTH=80 man --warnings $page 2>&1 >/dev/null) || fail "man $page failed: $err"
		[[ -z $err ]] || fail "man --warnings $page: $err"
	done
}

# bash_installed 'LINE': what bash offers at the end of LINE, one per line, in
# a shell that loads bash-completion as ~/.bashrc does and nothing else: the
# program's completion is loaded on demand from the installed directory
# (complete -D), as at a first <Tab>.
bash_installed() {
	env -i HOME="$BATS_TEST_TMPDIR" PATH=/usr/bin:/bin TERM=dumb \
		BASH_COMPLETION_USER_DIR="$BATS_TEST_TMPDIR/none" XDG_DATA_DIRS=/usr/local/share:/usr/share \
		bash --norc --noprofile -c '
		source /usr/share/bash-completion/bash_completion || exit 3
		line=$1
		read -ra COMP_WORDS <<<"$line"
		[[ $line == *" " ]] && COMP_WORDS+=("")
		COMP_LINE=$line COMP_POINT=${#line} COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		cmd=${COMP_WORDS[0]}
		! complete -p "$cmd" >/dev/null 2>&1 || { echo "$cmd: completion loaded before its first use" >&2; exit 4; }
		loader=$(complete -p -D | sed -n "s/.*-F \([^ ]*\).*/\1/p")
		[[ -n $loader ]] || { echo "no default completion (complete -D)" >&2; exit 5; }
		"$loader" "$cmd" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		fn=$(complete -p "$cmd" 2>/dev/null | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
		[[ -n $fn ]] || { echo "$cmd: bash-completion loaded no completion" >&2; exit 6; }
		compopt() { :; }
		COMPREPLY=()
		"$fn" "$cmd" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		((${#COMPREPLY[@]} == 0)) || printf "%s\n" "${COMPREPLY[@]}"
	' _ "$1"
}

# fish_installed 'LINE': what fish offers, from its own search path (an
# empty user configuration).
fish_installed() {
	env -i HOME="$BATS_TEST_TMPDIR" PATH=/usr/bin:/bin XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/config" \
		fish -c 'complete -C $argv[1]' "$1" | cut -f 1
}

# zsh_installed 'LINE': what <Tab> offers in an interactive zsh whose
# compinit reads the default $fpath only (zsh_complete_script).
zsh_installed() {
	zsh_complete_script "$BATS_TEST_TMPDIR/zc.zsh" 'autoload -U compinit && compinit -u -D'
	env -i HOME="$BATS_TEST_TMPDIR" PATH=/usr/bin:/bin TERM=dumb \
		timeout 30 zsh -f "$BATS_TEST_TMPDIR/zc.zsh" "$1"
}

# The long options of PROG --help, one per line, with their "--".
help_long_options() {
	"$1" --help | sed -nE 's/^ {2,6}(-[^-], +)?--([[:alnum:]][[:alnum:]-]*).*/--\2/p' | sort -u
}

# PROG SHELL-FUNCTION: fail naming each long option of PROG --help that the
# shell does not offer at 'PROG --'.
assert_completes_options() {
	local prog=$1 fn=$2 offered opt missing=()
	offered=$("$fn" "$prog --") || fail "$fn '$prog --' failed (exit $?)"
	[[ -n $offered ]] || fail "$fn offers nothing at '$prog --'"
	for opt in $(help_long_options "$prog"); do
		grep -Eqx -- "$opt=?" <<<"$offered" || missing+=("$opt")
	done
	((${#missing[@]} == 0)) || fail "$fn: '$prog --' does not offer ${missing[*]}"
}

@test "bash: bash-completion loads each program's completion from /usr/share on first use, which offers every long option" {
	require_cmd bash
	[[ -r /usr/share/bash-completion/bash_completion ]] || skip 'needs bash-completion'
	local p
	for p in "${PROGRAMS[@]}"; do
		assert_file_exists "/usr/share/bash-completion/completions/$p"
		assert_completes_options "$p" bash_installed
	done
}

@test "zsh: compinit finds each program's completion in vendor-completions, which offers every long option" {
	require_cmd zsh timeout
	local p
	for p in "${PROGRAMS[@]}"; do
		assert_file_exists "/usr/share/zsh/vendor-completions/_$p"
		assert_completes_options "$p" zsh_installed
	done
}

@test "fish: each program's completion is found in vendor_completions.d and offers every long option" {
	require_cmd fish
	local p
	for p in "${PROGRAMS[@]}"; do
		assert_file_exists "/usr/share/fish/vendor_completions.d/$p.fish"
		assert_completes_options "$p" fish_installed
	done
}

@test "apt-get purge fattrs leaves no file of the package behind" {
	local -a files
	mapfile -t files < <(dpkg -L fattrs) || fail 'fattrs is not installed'
	DEBIAN_FRONTEND=noninteractive run -0 apt-get purge -y -qq fattrs
	run -1 dpkg-query -W -f '${Status}' fattrs
	local f left=()
	for f in "${files[@]}"; do
		[[ $f == /. ]] && continue
		# A directory another package owns too (/usr/share/man/man1) stays.
		[[ -d $f && ! -L $f ]] && dpkg-query -S "$f" >/dev/null 2>&1 && continue
		[[ -e $f || -L $f ]] && left+=("$f")
	done
	((${#left[@]} == 0)) || fail "left behind: ${left[*]}"
	for p in "${PROGRAMS[@]}"; do
		run -1 command -v "$p"
	done
}
