#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bats file_tags=tmpcreate
#
# tmpcreate as a drop-in for GNU mktemp (doc/design.md §7): the built tmpcreate is
# run through a symlink named "mktemp" and GNU mktemp is run with argv[0]
# "mktemp", both with the same arguments in the same directory.  Exit status
# and stderr must be equal byte for byte; stdout must have the same shape
# (random characters masked).  Everything happens under $BATS_TEST_TMPDIR.

setup() {
	load '../helpers/common'
	T=$BATS_TEST_TMPDIR
	OURS=$T/bin/mktemp
	local built=$FATTRS_BUILDDIR/tmpcreate
	[[ -x $built ]] || built=$(command -v tmpcreate)
	mkdir -p "$T/bin" "$T/w" "$T/tmp" "$T/p"
	ln -s "$built" "$OURS"
	export TMPDIR=$T/tmp
	cd "$T/w" || return 1
}

# GNU mktemp prints argv[0] as given, and so does ours under that name:
# call both "mktemp" so both print the same name.
gnu_mktemp() {
	(exec -a mktemp "$GNU_MKTEMP" "$@")
}

# read_into VAR FILE: VAR is FILE's content without its trailing newlines,
# as $(<FILE) would give, without a fork.
read_into() {
	local -n _v=$1
	_v=''
	IFS= read -rd '' _v <"$2" || true
	while [[ $_v == *$'\n' ]]; do
		_v=${_v%$'\n'}
	done
}

# run_both ARG...: run GNU mktemp, then ours, with the same arguments, and
# keep each one's exit status, stdout and stderr (without trailing newlines,
# as "run" would).  Plain command substitution: "run" costs more forks.
run_both() {
	gnu_status=0 ours_status=0 gnu_err='' ours_err=''
	gnu_out=$(exec -a mktemp "$GNU_MKTEMP" "$@" 2>"$T/gnu.err") || gnu_status=$?
	ours_out=$(exec -a mktemp "$OURS" "$@" 2>"$T/ours.err") || ours_status=$?
	read_into gnu_err "$T/gnu.err"
	read_into ours_err "$T/ours.err"
}

# shape_ok TEXT SHAPE: TEXT is SHAPE where each '?' in SHAPE stands for one
# random character [A-Za-z0-9], every other byte for itself.
shape_ok() {
	local t=$1 s=$2 i
	((${#t} == ${#s})) || return 1
	for ((i = 0; i < ${#s}; i++)); do
		if [[ ${s:i:1} == '?' ]]; then
			[[ ${t:i:1} == [A-Za-z0-9] ]] || return 1
		elif [[ ${t:i:1} != "${s:i:1}" ]]; then
			return 1
		fi
	done
}

# compare_both STATUS SHAPE ARG...: both exit STATUS with the same stderr, and
# both print a name of SHAPE on stdout (SHAPE '' means nothing at all).
compare_both() {
	local want=$1 shape=$2
	shift 2
	run_both "$@"
	assert_equal "$gnu_status" "$want"	# the test's own premise
	assert_equal "$ours_err" "$gnu_err"
	assert_equal "$ours_status" "$gnu_status"
	if [[ -z $shape ]]; then
		assert_equal "$gnu_out" ""
		assert_equal "$ours_out" ""
	else
		shape_ok "$gnu_out" "$shape" ||
			fail "GNU printed '$gnu_out', not of the shape '$shape'"
		shape_ok "$ours_out" "$shape" ||
			fail "tmpcreate printed '$ours_out', not of the shape '$shape' (GNU: '$gnu_out')"
	fi
}

# both_are TYPE MODE: GNU's and our result are both of stat %F TYPE, mode MODE.
both_are() {
	local want="$1 $2" got
	got=$(exec stat -c '%F %a' -- "$gnu_out" "$ours_out")
	assert_equal "$got" "$want"$'\n'"$want"
}

# assert_dir_empty DIR: nothing in DIR, not even a dot file (builtins only).
assert_dir_empty() {
	if compgen -G "$1/*" >/dev/null || compgen -G "$1/.[!.]*" >/dev/null ||
	   compgen -G "$1/..?*" >/dev/null; then
		fail "'$1' is not empty: $(ls -A -- "$1")"
	fi
}

# ------------------------------------------------------------ defaults

@test "with no arguments both make tmp.XXXXXXXXXX in \$TMPDIR, else in /tmp, and print it with one newline" {
	compare_both 0 "$T/tmp/tmp.??????????"
	both_are 'regular empty file' 600
	assert_dir_empty "$T/w"
	TMPDIR="$T/tmp///" compare_both 0 "$T/tmp/tmp.??????????"
	mkdir "$T/t m p"
	TMPDIR="$T/t m p" compare_both 0 "$T/t m p/tmp.??????????"
	both_are 'regular empty file' 600
	TMPDIR='' compare_both 0 '/tmp/tmp.??????????' -u
	unset TMPDIR
	compare_both 0 '/tmp/tmp.??????????' -u
	local g o
	g=$(gnu_mktemp -u foo.XXX | od -An -c | tr -s ' ')
	o=$("$OURS" -u foo.XXX | od -An -c | tr -s ' ')
	assert_equal "${o//[A-Za-z0-9]/R}" "${g//[A-Za-z0-9]/R}"
	assert_equal "${o##* }" '\n'
}

# ------------------------------------------------------------ templates

@test "a template is made where it says, with only its last run of X's replaced" {
	compare_both 0 'foo.???' foo.XXX
	both_are 'regular empty file' 600
	mkdir sub
	compare_both 0 'sub/foo.??????' sub/foo.XXXXXX
	both_are 'regular empty file' 600
	compare_both 0 "$T/w/sub/foo.???" "$T/w/sub/foo.XXX"
	compare_both 0 'foo??????bar' fooXXXXXXbar
	both_are 'regular empty file' 600
	compare_both 0 'XXXa???' XXXaXXX
}

@test "templates with spaces, quotes, newlines and invalid UTF-8 make the same names" {
	compare_both 0 'a b ???' 'a b XXX'
	compare_both 0 "a'b\"???" "a'b\"XXX"
	compare_both 0 $'a\nb???' $'a\nbXXX'
	compare_both 0 $'\xff\xfe???' $'\xff\xfeXXX'
	compare_both 0 $'a\tb???' $'a\tbXXX'
	both_are 'regular empty file' 600
}

# ------------------------------------------------------------ -p / --tmpdir / -t

@test "-p DIR puts the template, or tmp.XXXXXXXXXX, in DIR ahead of TMPDIR, with one slash between" {
	compare_both 0 "$T/p/tmp.??????????" -p "$T/p"
	both_are 'regular empty file' 600
	compare_both 0 "$T/p/foo.????" -p "$T/p" foo.XXXX
	both_are 'regular empty file' 600
	mkdir "$T/p/d"
	compare_both 0 "$T/p/d/foo.????" -p "$T/p" d/foo.XXXX
	compare_both 0 'p/.foo???' -u -p p .fooXXX
	compare_both 0 "$T/p/foo.????" -p "$T/p//" foo.XXXX
	compare_both 0 "$T/p/tmp.??????????" -p "$T/p/"
	compare_both 0 "$T/p/./foo.????" -p "$T/p/" ./foo.XXXX
	compare_both 0 '/foo.????' -u -p / foo.XXXX
	compare_both 0 '//foo.????' -u -p // foo.XXXX
}

@test "--tmpdir=DIR is -p DIR; an empty one falls back to TMPDIR, and the last one given wins" {
	compare_both 0 "$T/tmp/foo.???" -p '' foo.XXX
	compare_both 0 "$T/tmp/foo.???" --tmpdir= foo.XXX
	compare_both 0 "$T/tmp/tmp.??????????" -u -p ''
	compare_both 0 "$T/p/foo.???" -u --tmpdir="$T/tmp" -p "$T/p" foo.XXX
	compare_both 0 "$T/tmp/foo.???" -u --tmpdir="$T/p" --tmpdir= foo.XXX
	compare_both 0 "$T/p/foo.???" --tmpdir="$T/p" foo.XXX
	both_are 'regular empty file' 600
	compare_both 0 "$T/p/tmp.??????????" --tmpdir="$T/p"
}

@test "--tmpdir alone takes no argument: the next word is the template" {
	compare_both 0 "$T/tmp/foo.????" --tmpdir foo.XXXX
	both_are 'regular empty file' 600
	assert_dir_empty "$T/w"
	compare_both 0 "$T/tmp/tmp.??????????" --tmpdir
	unset TMPDIR
	compare_both 0 '/tmp/foo.???' -u --tmpdir foo.XXX
}

@test "an absolute template with --tmpdir or -p, and a slash in a -t template, are refused" {
	compare_both 1 '' --tmpdir /abs/fooXXX
	assert_equal "$ours_err" "mktemp: invalid template, '/abs/fooXXX'; with --tmpdir, it may not be absolute"
	compare_both 1 '' -p "$T/p" /abs/fooXXX
	assert_dir_empty "$T/p"
}

@test "-t puts the template in \$TMPDIR, else in -p DIR, else in /tmp" {
	compare_both 0 "$T/tmp/foo.???" -t -p "$T/p" foo.XXX
	both_are 'regular empty file' 600
	assert_dir_empty "$T/p"
	TMPDIR='' compare_both 0 "$T/p/foo.???" -t -p "$T/p" foo.XXX
	unset TMPDIR
	compare_both 0 "$T/p/foo.???" -t -p "$T/p" foo.XXX
	both_are 'regular empty file' 600
	compare_both 0 '/tmp/foo.???' -u -t foo.XXX
	compare_both 0 '/tmp/tmp.??????????' -u -t
	compare_both 1 '' -t a/fooXXX
	assert_equal "$ours_err" "mktemp: invalid template, 'a/fooXXX', contains directory separator"
	compare_both 1 '' -t -p "$T/p" /abs/fooXXX
	assert_equal "$ours_err" "mktemp: invalid template, '/abs/fooXXX', contains directory separator"
}

# ------------------------------------------------------------ -d -u -q

@test "-d and --directory make an empty directory with mode 0700" {
	compare_both 0 "$T/p/foo.???" -d -p "$T/p" foo.XXX
	both_are directory 700
	assert_dir_empty "$gnu_out"
	assert_dir_empty "$ours_out"
	compare_both 0 'foo.???' --directory foo.XXX
	both_are directory 700
}

@test "-u prints a name and creates nothing, even where the directory is missing, but not under a file" {
	compare_both 0 "$T/p/foo.????" -u -p "$T/p" foo.XXXX
	compare_both 0 "$T/p/foo.????" --dry-run -d -p "$T/p" foo.XXXX
	compare_both 0 "$T/tmp/tmp.??????????" -u
	assert_dir_empty "$T/p"
	assert_dir_empty "$T/tmp"
	assert_dir_empty "$T/w"
	compare_both 0 "$T/missing/foo.???" -u "$T/missing/foo.XXX"
	compare_both 0 "$T/missing/foo.???" -u -p "$T/missing" foo.XXX
	[[ ! -e $T/missing ]]
	touch f
	compare_both 1 '' -u f/aXXX
	assert_equal "$ours_err" "mktemp: failed to create file via template 'f/aXXX': Not a directory"
}

@test "-q silences the failure to create a file or directory, and only that" {
	compare_both 1 '' -q "$T/missing/fooXXX"
	compare_both 1 '' -q -d "$T/missing/fooXXX"
	compare_both 1 '' --quiet -p "$T/missing" fooXXX
	[[ ! -e $T/missing ]]
	compare_both 1 '' -q aXX
	assert_equal "$ours_err" "mktemp: too few X's in template 'aXX'"
	compare_both 1 '' -q --bogus
	compare_both 1 '' -q --suffix=x aXXXa
	compare_both 1 '' -q a b
	compare_both 1 '' -q -t a/bXXX
}

# ------------------------------------------------------------ --suffix

@test "--suffix appends SUFF after the X's, and needs a template ending in X and a suffix without a slash" {
	compare_both 0 'foo.???.txt' --suffix=.txt foo.XXX
	both_are 'regular empty file' 600
	compare_both 0 "$T/p/foo???.d" -d --suffix .d -p "$T/p" fooXXX
	both_are directory 700
	compare_both 0 'foo???' -u --suffix= fooXXX
	compare_both 0 "$T/tmp/tmp.??????????.x" -u --suffix=.x
	compare_both 1 '' --suffix=.txt aXX
	assert_equal "$ours_err" "mktemp: too few X's in template 'aXX.txt'"
	compare_both 1 '' --suffix=x aXXXa
	assert_equal "$ours_err" "mktemp: with --suffix, template 'aXXXa' must end in X"
	compare_both 1 '' --suffix=x ''
	assert_equal "$ours_err" "mktemp: with --suffix, template '' must end in X"
	compare_both 1 '' --suffix=a/b fooXXX
	assert_equal "$ours_err" "mktemp: invalid suffix 'a/b', contains directory separator"
	compare_both 1 '' --suffix=/ fooXXX
	assert_equal "$ours_err" "mktemp: invalid suffix '/', contains directory separator"
	compare_both 1 '' -u "$T/p/aXXX/b"
	assert_equal "$ours_err" "mktemp: invalid suffix '/b', contains directory separator"
}

@test "a suffix that only ends in slashes is accepted, as GNU's last_component does" {
	compare_both 0 'foo???x/' -d --suffix=x/ fooXXX
	compare_both 0 'foo???x//' -d 'fooXXXx//'
	compare_both 1 '' --suffix=x/ fooXXX
	assert_equal "$ours_err" "mktemp: failed to create file via template 'fooXXXx/': Is a directory"
}

# ------------------------------------------------------------ template errors

@test "fewer than 3 X's or more than one template is refused" {
	compare_both 1 '' aXX
	assert_equal "$ours_err" "mktemp: too few X's in template 'aXX'"
	compare_both 1 '' X
	compare_both 1 '' ''
	assert_equal "$ours_err" "mktemp: too few X's in template ''"
	compare_both 1 '' -p "$T/p" fooXXbar
	compare_both 1 '' a b
	assert_equal "$ours_err" $'mktemp: too many templates\nTry \'mktemp --help\' for more information.'
}

@test "messages quote newlines, invalid UTF-8, quotes and backslashes like GNU" {
	compare_both 1 '' $'a\nbXX'
	assert_equal "$ours_err" "mktemp: too few X's in template 'a\\nbXX'"
	compare_both 1 '' $'\xffXX'
	assert_equal "$ours_err" "mktemp: too few X's in template '\\377XX'"
	compare_both 1 '' "a'bXX"
	assert_equal "$ours_err" "mktemp: too few X's in template 'a\\'bXX'"
	compare_both 1 '' 'a\bXX'
	# shellcheck disable=SC2016  # a literal $ in the template
	compare_both 1 '' 'a"b $c XX'
	compare_both 1 '' $'a\tb\x1bXX'
	compare_both 1 '' $'\xc3\xa9XX'
	compare_both 1 '' "$T/no such/a'b"$'\nXXX'
}

@test "a missing directory: failed to create file (or directory) via template" {
	compare_both 1 '' "$T/missing/fooXXX"
	assert_equal "$ours_err" "mktemp: failed to create file via template '$T/missing/fooXXX': No such file or directory"
	compare_both 1 '' -p "$T/missing" fooXXX
	assert_equal "$ours_err" "mktemp: failed to create file via template '$T/missing/fooXXX': No such file or directory"
	compare_both 1 '' -p "$T/missing"
	compare_both 1 '' -d "$T/missing/fooXXX"
	assert_equal "$ours_err" "mktemp: failed to create directory via template '$T/missing/fooXXX': No such file or directory"
	compare_both 1 '' -d --tmpdir="$T/missing" 'a b XXX'
	[[ ! -e $T/missing ]]
	touch f
	compare_both 1 '' f/aXXX
	assert_equal "$ours_err" "mktemp: failed to create file via template 'f/aXXX': Not a directory"
	compare_both 1 '' -d f/aXXX
	assert_equal "$ours_err" "mktemp: failed to create directory via template 'f/aXXX': Not a directory"
}

# ------------------------------------------------------------ option parsing

@test "unknown options, missing arguments and unwanted arguments are reported in getopt's words" {
	local try=$'\nTry \'mktemp --help\' for more information.'
	compare_both 1 '' --bogus
	assert_equal "$ours_err" "mktemp: unrecognized option '--bogus'$try"
	compare_both 1 '' --bogus=1 fooXXX
	compare_both 1 '' -z
	assert_equal "$ours_err" "mktemp: invalid option -- 'z'$try"
	compare_both 1 '' -dz
	assert_equal "$ours_err" "mktemp: invalid option -- 'z'$try"
	compare_both 1 '' -p
	assert_equal "$ours_err" "mktemp: option requires an argument -- 'p'$try"
	compare_both 1 '' --suffix
	assert_equal "$ours_err" "mktemp: option '--suffix' requires an argument$try"
	compare_both 1 '' --directory=1
	assert_equal "$ours_err" "mktemp: option '--directory' doesn't allow an argument$try"
	compare_both 1 '' --dry-run=x
	compare_both 1 '' --quiet=x
	compare_both 1 '' --help=x
	compare_both 1 '' --version=1
	assert_dir_empty "$T/tmp"
}

@test "options are parsed as by getopt: clustered, with -p's argument attached, after the template, up to --" {
	compare_both 0 "$T/p/tmp.??????????" -dup "$T/p"
	compare_both 0 "$T/p/tmp.??????????" -up"$T/p"
	compare_both 0 "$T/p/foo???" -qdp "$T/p" fooXXX
	both_are directory 700
	compare_both 0 'foo???' fooXXX -d
	both_are directory 700
	compare_both 0 '-foo???' -- -fooXXX
	compare_both 1 '' -u fooXXX -- -d
}

@test "long options may be abbreviated as with getopt" {
	compare_both 0 'foo???' --dir fooXXX
	both_are directory 700
	compare_both 0 "$T/p/foo???" --dry --tmp="$T/p" fooXXX
	compare_both 0 'foo???.x' -u --suf=.x fooXXX
	compare_both 0 "$T/tmp/foo???" -u --tmp fooXXX
	compare_both 1 '' --d
	assert_equal "$ours_err" $'mktemp: option \'--d\' is ambiguous; possibilities: \'--directory\' \'--dry-run\'\nTry \'mktemp --help\' for more information.'
}

@test "-V, --version and --help exit 0 with their text on stdout" {
	local opt
	for opt in -V --version; do
		run_both "$opt"
		assert_equal "$gnu_status" 0
		assert_equal "$ours_status" 0
		assert_equal "$ours_err" ''
		assert_regex "${ours_out%%$'\n'*}" '^mktemp \([^)]+\) [0-9]+\.[0-9]+'
	done
	run_both --help
	assert_equal "$ours_status" 0
	assert_equal "$ours_err" ''
	assert_regex "${ours_out%%$'\n'*}" '^Usage: mktemp '
	assert_dir_empty "$T/tmp"
}

# ------------------------------------------------------------ modes

@test "files are 0600 and directories 0700 under umask 077, 022 and 000, like GNU's" {
	local u
	for u in 077 022 000; do
		umask "$u"
		compare_both 0 "$T/p/tmp.??????????" -p "$T/p"
		both_are 'regular empty file' 600
		compare_both 0 "$T/p/tmp.??????????" -d -p "$T/p"
		both_are directory 700
	done
	assert_equal "$(stat -c '%u:%g %h' -- "$ours_out")" "$(stat -c '%u:%g %h' -- "$gnu_out")"
}

# ------------------------------------------------------------ locale

@test "under LC_ALL=C.UTF-8 messages quote like GNU's" {
	locale -a 2>/dev/null | grep -qixE 'c\.utf-?8' || skip "no C.UTF-8 locale"
	export LC_ALL=C.UTF-8
	compare_both 1 '' $'a\nbXX'
	assert_equal "$ours_err" "mktemp: too few X's in template ‘a\\nbXX’"
	compare_both 1 '' "a'bXX"
	compare_both 1 '' $'\xc3\xa9\xffXX'
	compare_both 1 '' -p "$T/missing" 'a bXXX'
	assert_equal "$ours_err" "mktemp: failed to create file via template ‘$T/missing/a bXXX’: No such file or directory"
	compare_both 1 '' --bogus
}

# ------------------------------------------------------------ scripts

@test "a script that uses mktemp works unchanged" {
	cat >"$T/script.sh" <<'SCRIPT'
#!/bin/sh
set -eu
command -v mktemp >"$LOG"
tmp=$(mktemp)
dir=$(mktemp -d)
t2=$(mktemp -t foo.XXXXXX)
t3=$(mktemp --tmpdir foo.XXXXXX)
t4=$(mktemp -p "$dir" bar.XXXXXXXX)
trap 'rm -rf "$tmp" "$dir" "$t2" "$t3"' EXIT
printf '%s\n' "$tmp" "$dir" "$t2" "$t3" "$t4" >>"$LOG"
echo hello >"$tmp"
[ -f "$tmp" ] && [ -d "$dir" ] && [ -f "$t2" ] && [ -f "$t3" ] && [ -f "$t4" ]
case $tmp in "$TMPDIR"/tmp.??????????) ;; *) echo "bad name: $tmp"; exit 3 ;; esac
case $t2 in "$TMPDIR"/foo.??????) ;; *) echo "bad -t name: $t2"; exit 3 ;; esac
case $t3 in "$TMPDIR"/foo.??????) ;; *) echo "bad --tmpdir name: $t3"; exit 3 ;; esac
case $t4 in "$dir"/bar.????????) ;; *) echo "bad -p name: $t4"; exit 3 ;; esac
if mktemp -q "$TMPDIR/missing/x.XXXXXX"; then echo "made the impossible"; exit 3; fi
cat "$tmp"
SCRIPT
	chmod +x "$T/script.sh"
	local gnu_path=/usr/local/bin:/usr/bin:/bin
	[[ $(PATH=$gnu_path command -v mktemp) == "$GNU_MKTEMP" ]] ||
		skip "GNU mktemp is not first on $gnu_path"

	LOG=$T/gnu.log PATH=$gnu_path run --separate-stderr "$T/script.sh"
	assert_success
	assert_output hello
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	assert_equal "$stderr" ''
	assert_equal "$(head -n1 "$T/gnu.log")" "$GNU_MKTEMP"
	assert_dir_empty "$T/tmp"

	LOG=$T/ours.log PATH=$T/bin:$gnu_path run --separate-stderr "$T/script.sh"
	assert_success
	assert_output hello
	# shellcheck disable=SC2154  # $stderr is set by run --separate-stderr
	assert_equal "$stderr" ''
	assert_equal "$(head -n1 "$T/ours.log")" "$OURS"
	assert_equal "$(wc -l <"$T/ours.log")" 6
	assert_dir_empty "$T/tmp"
	assert_dir_empty "$T/w"
}

@test "messages name the program as argv[0] gives it, as GNU mktemp's: '/usr/local/bin/mktemp: ...'" {
	local argv0 args gerr
	for argv0 in /usr/local/bin/mktemp ./mktemp; do
		for args in '/nonexistent/XXXXXX' '--bogus' 'aXX' '-p /nonexistent'; do
			# shellcheck disable=SC2086  # $args is words
			gerr=$( (exec -a "$argv0" "$GNU_MKTEMP" $args) 2>&1 >/dev/null) || true
			# shellcheck disable=SC2086
			run --separate-stderr bash -c 'exec -a "$0" "$@"' "$argv0" "$OURS" $args
			assert_equal "[$argv0 $args] $stderr" "[$argv0 $args] $gerr"
		done
	done
}

@test "long options abbreviate as GNU mktemp's: '--s=.x' is --suffix, '--d' ambiguous, tmpcreate's own only in full" {
	compare_both 0 'a???.x' -u --s=.x aXXX
	compare_both 0 'a???.x' -u --su .x aXXX
	compare_both 0 'a???' --dr aXXX
	compare_both 0 'a???' --di -u aXXX
	compare_both 0 'a???' --q -u aXXX
	compare_both 1 '' --d -u aXXX
	compare_both 1 '' --sy=none aXXX
	compare_both 1 '' --scr aXXX
	compare_both 0 "$T/p/a???" -u --tmp="$T/p" aXXX
}
