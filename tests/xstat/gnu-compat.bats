#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# xstat linked as "stat" against GNU stat 9.1 itself: the same argv through
# both, stdout, stderr and exit status compared byte for byte
# (tests/helpers/stat-compat.bash).  Every file type, hostile names, every
# directive alone and combined, flags, widths, precisions, escapes, the
# default and terse outputs, messages and option errors.
#
# make check runs it in the C locale, and a bounded set of the comparisons
# in German and French (the two "in German and French" tests).  To run
# every comparison in another locale, in GNU's words from coreutils'
# catalog (the locale is made with localedef in the file's own temporary
# directory, or the tests skip):
#   STAT_COMPAT_LOCALE=de_DE.UTF-8 make -C build check TESTS=tests/xstat/gnu-compat.bats
# (fr_FR.UTF-8 likewise).  The tests that set LC_ALL themselves keep theirs.
# bats file_tags=xstat

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	load '../helpers/stat-compat'
	stat_compat_setup
	FIX=$BATS_TEST_TMPDIR/fix
	make_fixtures "$FIX"
	cd "$FIX" || return
	# The names of every fixture, the extra hard link and . and .. too.
	ALL=("${STAT_FIXTURES[@]}" hardlinked.2 . ..)
}

teardown() {
	stat_compat_teardown
	[[ -n ${NOBODY_DIR:-} ]] && rm -rf "$NOBODY_DIR"
	return 0
}

# nobody_setup: $NOBODY_DIR, a directory user nobody can reach (the bats
# directories are private) and owns, with stat links to both programs.
nobody_setup() {
	require_root
	require_cmd setpriv
	NOBODY_DIR=$(mktemp -d /tmp/stat-compat-nobody.XXXXXX)
	mkdir "$NOBODY_DIR/gnu" "$NOBODY_DIR/ours" "$NOBODY_DIR/w"
	ln -s "$GNU_STAT" "$NOBODY_DIR/gnu/stat"
	ln -s "$FATTRS_BUILDDIR/xstat" "$NOBODY_DIR/ours/stat"
	chmod 755 "$NOBODY_DIR"
	chown 65534:65534 "$NOBODY_DIR/w"
}

# same_as_gnu_nobody DIR SH ARG...: "stat ARG..." through both as user
# nobody, in DIR (under $NOBODY_DIR/w), after the shell words SH run there
# as nobody; before each run, every directory under $NOBODY_DIR/w is made
# 755 again.  Fails showing the difference, as same_as_gnu.
same_as_gnu_nobody() {
	local dir=$1 pre=$2 which out=$STAT_CMP_DIR/nobody
	local -a st
	shift 2
	for which in gnu ours; do
		find "$NOBODY_DIR/w" -type d -exec chmod 755 {} +
		setpriv --reuid=65534 --regid=65534 --clear-groups bash -c \
			'cd "$1" && eval "$2" && shift 3 && PATH=$0:$PATH exec stat "$@"' \
			"$NOBODY_DIR/$which" "$dir" "$pre" - "$@" </dev/null >"$out.$which.out" 2>"$out.$which.err"
		st+=($?)
	done
	if ! cmp -s "$out.gnu.out" "$out.ours.out" || ! cmp -s "$out.gnu.err" "$out.ours.err" || ((st[0] != st[1])); then
		printf 'differs from GNU stat, as nobody in %s after %s: stat' "$dir" "$pre"
		printf ' %q' "$@"
		printf '\n--- exit status: GNU %d, xstat %d\n--- stdout (GNU first):\n' "${st[0]}" "${st[1]}"
		diff "$out.gnu.out" "$out.ours.out"
		printf -- '--- stderr (GNU first):\n'
		diff "$out.gnu.err" "$out.ours.err"
		return 1
	fi
}

FILE_DIRECTIVES=(a A b B C d D Hd Ld f F g G h i m n N o s r R Hr Lr t T u U w W x X y Y z Z)
FS_DIRECTIVES=(a b c d f i l n s S t T)

@test "the default output, for every file type and hostile name" {
	run -0 same_as_gnu -- "${ALL[@]}"
}

@test "the default output with -L (dereference)" {
	run -0 same_as_gnu -L -- "${ALL[@]}"
}

@test "the terse output, with and without -L" {
	run -0 same_as_gnu -t -- "${ALL[@]}"
	run -0 same_as_gnu -t -L -- "${ALL[@]}"
}

@test "every file directive alone, on every fixture" {
	local d
	for d in "${FILE_DIRECTIVES[@]}"; do
		same_as_gnu -c "%$d" -- "${ALL[@]}" || return
		same_as_gnu -L -c "[%$d]" -- "${ALL[@]}" || return
	done
}

@test "every file directive with flags, widths and precisions" {
	local d spec
	for d in "${FILE_DIRECTIVES[@]}"; do
		for spec in '-12' '012' '#' '+' ' ' "'" 'I' '#010' '-#8' '.3' '12.5' '-12.5' '.0' '.' '020.12' '-0+ #5' '.15' '1.' '3.1'; do
			same_as_gnu -c "<%$spec$d>" -- regular dir link chardev $'new\nline' || return
		done
	done
}

@test "precision on the time directives, including a time before the Epoch" {
	touch -d '1969-12-31 23:59:59.250' old
	touch -d '1960-01-01 00:00:00' older
	touch -d '1970-01-01 00:00:00.5' epoch
	touch -d '2100-06-07 08:09:10.000000001' future
	local d spec
	for d in x X y Y z Z w W; do
		for spec in '' '.' '.0' '.1' '.3' '.9' '.10' '.20' '10.3' '-10.3' '010.3' '+.3' '-+12.2' '025.9' '2.' '0.' "'15.3"; do
			same_as_gnu -c "|%$spec$d|" -- old older epoch future regular || return
		done
	done
}

@test "--printf: escapes, warnings, no trailing newline" {
	run -0 same_as_gnu --printf '%n\t%s\n\a\b\e\f\r\v\\\"\101\7777\x41\x4g\xz\0 end\n' -- regular dir
	run -0 same_as_gnu --printf 'unknown \q \% escapes\n' -- regular empty
	run -0 same_as_gnu --printf 'trailing backslash\' -- regular
	run -0 same_as_gnu -c 'no escapes in -c: \n \t \\' -- regular
}

@test "unknown and invalid directives, % at the end, %{ reserved" {
	local f
	for f in '%' 'a%' '%%' '%5' '%5%' 'x%-3%y' '%q' '%H' '%Hx' '%L' '%Lq' '%Hd%Lr' '%{nosuchfield}' '%{name' '%-5.3.2s' '%.5' "%'" \
		'%#' '%0' '%1$s' '%*d' '%ls' '%hs' '%jd' '%zu' '%lld'; do
		same_as_gnu -c "$f" -- regular dir || return
		same_as_gnu --printf "$f" -- regular || return
		same_as_gnu -f -c "$f" -- . || return
	done
}

@test "%N under every QUOTING_STYLE, in the C and UTF-8 locales" {
	local q loc
	for loc in C C.UTF-8; do
		for q in literal shell shell-always shell-escape shell-escape-always c c-maybe escape locale clocale \
			'' bogus l sh c-m e; do
			QUOTING_STYLE=$q LC_ALL=$loc same_as_gnu -c '%N|%n' -- "${ALL[@]}" || return
		done
		LC_ALL=$loc same_as_gnu -c '%N' -- "${ALL[@]}" || return
		# Only a literal "%N" reads QUOTING_STYLE.
		QUOTING_STYLE=c LC_ALL=$loc same_as_gnu -c '%5N' -- "${ALL[@]}" || return
		QUOTING_STYLE=bogus LC_ALL=$loc same_as_gnu -- link || return
	done
}

@test "messages: missing files, missing operand, bad options, --cached" {
	run -0 same_as_gnu
	run -0 same_as_gnu nothing regular $'no\nsuch' "it's not" ''
	run -0 same_as_gnu -c %n regular/ dangling/ link/
	run -0 same_as_gnu -c
	run -0 same_as_gnu --format
	run -0 same_as_gnu -x regular
	run -0 same_as_gnu --bogus regular
	run -0 same_as_gnu --cached=bogus regular
	run -0 same_as_gnu --cached= regular
	run -0 same_as_gnu --cached regular
	run -0 same_as_gnu --terse=x regular
	local m
	for m in always never default al n d; do
		same_as_gnu --cached=$m -c '%n %s' regular || return
	done
}

@test "option order: the last of --format and --printf wins, a format beats -t" {
	run -0 same_as_gnu --printf='%s' --format='%n' regular
	run -0 same_as_gnu --format='%n' --printf='%s\n' regular
	run -0 same_as_gnu -t -c '%n' regular
	run -0 same_as_gnu -c '%n' regular -L link
	run -0 same_as_gnu --form='%n' --print='%s\n' --deref --ter regular
	run -0 same_as_gnu -- -dash
}

@test "'-' is standard input: a file, a directory, a pipe, and closed" {
	STAT_STDIN=$FIX/regular run -0 same_as_gnu -
	STAT_STDIN=$FIX/regular run -0 same_as_gnu -c '%n %N %s %F %m' -
	STAT_STDIN=$FIX/dir run -0 same_as_gnu -t -
	STAT_STDIN=$FIX/chardev run -0 same_as_gnu - regular
	run -0 same_as_gnu -f -
	run -0 same_as_gnu -f -c %n - regular
	# Closed: GNU stat reports EBADF; xstat must too, though the tools
	# open /dev/null on a closed descriptor 0 at start.
	STAT_STDIN=closed run -0 same_as_gnu - regular
	STAT_STDIN=closed run -0 same_as_gnu -c %n regular -
	STAT_STDIN=closed run -0 same_as_gnu -c %n regular
}

@test "-f: every file-system directive, flags and widths, default and terse" {
	local d spec
	# The fixture directory's file system may be busy (free counts move):
	# these directives do not read them.
	for d in i l n s S t T; do
		for spec in '' '-20' '020' '#' '+' '.2' '#20'; do
			same_as_gnu -f -c "<%$spec$d>" -- . regular / /proc /sys /dev/pts || return
		done
	done
	run -0 same_as_gnu -f -c '%T' /proc /sys /dev /dev/pts /run /
	run -0 same_as_gnu -f nothing -
	run -0 same_as_gnu -f -c '%n %t %i' -- '' link 'link to dir' dangling regular/ dir/.. /proc/self
}

@test "%m walks up like GNU stat, from files, directories and symlinks" {
	run -0 same_as_gnu -c '%m|%-30m|%.3m' -- "${ALL[@]}" / /proc/self /proc/self/fd /dev/null /sys/kernel
	run -0 same_as_gnu -L -c '%m' -- "${ALL[@]}" /proc/self
	run -0 same_as_gnu -c '%m' -- nothing dangling
}

@test "%m as a user the permissions apply to: directories not searchable, not readable, on the way and the working one" {
	nobody_setup
	local w=$NOBODY_DIR/w
	setpriv --reuid=65534 --regid=65534 --clear-groups bash -c '
		cd "$1" && mkdir -p s/t/u nox noread && touch s/t/f s/t/u/g noread/f && ln -s nox to-nox && ln -s s/t to-t' - "$w" ||
		fail "cannot make the tree as nobody"
	# a directory to start from that may be read but not searched, named and through a symlink
	run -0 same_as_gnu_nobody "$w" 'chmod 644 nox' -c '%n|%m' -- nox nox/ to-nox s/t/f
	run -0 same_as_gnu_nobody "$w" 'chmod 644 nox' -L -c '%n|%m' -- to-nox to-t
	# searchable, not readable, on the way up and where the walk starts
	run -0 same_as_gnu_nobody "$w" 'chmod 311 s s/t s/t/u noread' -c '%n|%m' -- s/t/f s/t/u/g s/t s/t/u noread/f noread "$w/s/t"
	run -0 same_as_gnu_nobody "$w/s/t/u" 'chmod 311 ..' -c '%n|%m' -- g . .. ../f
	# a directory on the way up that may not be searched: ".." cannot be entered
	run -0 same_as_gnu_nobody "$w/s/t" 'chmod 600 ..' -c '%n|%m' -- f . u u/g
	run -0 same_as_gnu_nobody "$w/s/t/u" 'chmod 600 ../..' -c '%n|%m' -- g . ..
	# the working directory: not searchable (GNU cannot come back to it), not readable, neither
	run -0 same_as_gnu_nobody "$w/s" 'chmod 600 .' -c 'a %m b' -- /etc/passwd /
	run -0 same_as_gnu_nobody "$w/s" 'chmod 300 .' -c 'a %m b' -- /etc/passwd / t/f
	run -0 same_as_gnu_nobody "$w/s" 'chmod 0 .' -c 'a %m b' -- /etc/passwd
	run -0 same_as_gnu_nobody "$w/s" 'chmod 600 .' -c '%n' -- /etc/passwd /
}

@test "%C without SELinux: '?' and GNU's message" {
	run -0 same_as_gnu -c '%C|%-10C|%.1C|%05C' -- regular link dir
	run -0 same_as_gnu -L -c '%C' -- link dangling
}

@test "%C of a security.selinux value: as it is up to a NUL, and an empty one is GNU's 'Operation not supported'" {
	require_root
	require_cmd setfattr
	setfattr -n security.selinux -v 'system_u:object_r:etc_t:s0' regular 2>/dev/null ||
		skip "security.selinux cannot be set here (SELinux checks contexts, or no security xattrs)"
	setfattr -n security.selinux -v '""' empty || fail "cannot set an empty security.selinux"
	setfattr -n security.selinux -v 0x6100620063 dir || fail "cannot set a security.selinux with a NUL in it"
	setfattr -h -n security.selinux -v 'a:link' link || fail "cannot set security.selinux on a symlink"
	run -0 same_as_gnu -c '%n|%C|%-30C|%.3C' -- regular empty dir link
	run -0 same_as_gnu -L -c '%n|%C' -- regular empty dir link
}

@test "%U and %G for ids with no name" {
	require_root
	touch nobody-owned
	chown 54321:54322 nobody-owned
	run -0 same_as_gnu -c '%U %G %u %g %8U|%-8G|' -- nobody-owned regular
	run -0 same_as_gnu -- nobody-owned
}

@test "thousands grouping (the ' flag) and the decimal point in a locale that has them" {
	local loc=en_US.UTF-8
	make_locale "$loc"
	LC_ALL=$loc run -0 same_as_gnu -c "%'s %'i %'12b %'Y %'.3Y %'-20.2X| %'d %'h %'a" -- regular / "$GNU_STAT"
	LC_ALL=$loc run -0 same_as_gnu -- regular
	LC_ALL=$loc run -0 same_as_gnu -f -c "%'s %'S %'l" -- /
}

@test "TZ decides the human-readable times" {
	local tz
	for tz in UTC Asia/Kolkata America/St_Johns Pacific/Chatham 'XYZ-5:30' ''; do
		TZ=$tz same_as_gnu -c '%x|%y|%z|%w' -- regular link || return
	done
}

@test "a width larger than memory is streamed, as GNU stat streams it: the same bytes within 60 MB of address space" {
	require_no_sanitizer "$FATTRS_BUILDDIR/xstat" "AddressSanitizer reserves terabytes of address space (ulimit -v)"
	# Regression: the output buffer grew to hold the whole field, 2 GiB for
	# %2147483647n ("memory exhausted" under a limit GNU stat never feels).
	run -0 same_as_gnu -c '%100000000n|%-3000000x|%s' -- regular
	run -0 same_as_gnu --printf '%+100000000s|%n\n' -- regular
	run -0 bash -c 'ulimit -v 60000 && "$1" -c "%100000000n|%-3000000x|%s" regular | wc -c' - "$FATTRS_BUILDDIR/xstat"
	(( output > 103000000 )) || fail "xstat under ulimit -v 60000: $output"
}

@test "messages name the program as argv[0] gives it, as GNU stat's: '/usr/local/bin/stat: ...'" {
	local argv0 args gout gerr
	for argv0 in /usr/local/bin/stat ./stat stat; do
		for args in 'nonexistent' '--bogus' '-c' '-c %5% regular' '--printf=%n\q regular'; do
			# shellcheck disable=SC2086  # $args is words
			gerr=$( (exec -a "$argv0" "$GNU_STAT" $args) 2>&1 >/dev/null) || true
			# shellcheck disable=SC2086
			run --separate-stderr bash -c 'exec -a "$0" "$@"' "$argv0" "$STAT_OURS_DIR/stat" $args
			assert_equal "[$argv0 $args] $stderr" "[$argv0 $args] $gerr"
		done
	done
}

@test "long options abbreviate as GNU stat's: '--fi' is --file-system, '--f' ambiguous as GNU says" {
	local args
	for args in '--file -c %n regular' '-c %t --fi regular' '--f regular' '--fo=%n regular' '--form %n regular' \
		'--pr=%n\n regular' '--te regular' '--de -c %F link' '--ca=never -c %n regular' \
		'--c=never -c %n regular' '--x regular' '--dereference=x regular' '--fil=x regular' \
		'--js regular' '--al regular' '--nu -c %n regular' '--us regular'; do
		# shellcheck disable=SC2086  # $args is words
		run -0 same_as_gnu $args
	done
}

@test "in German and French, GNU's own words from coreutils' catalog: default output, -f, %F, messages, option errors" {
	local loc lang args
	for loc in de_DE.UTF-8 fr_FR.UTF-8; do
		lang=${loc%%_*}
		[[ -r /usr/share/locale/$lang/LC_MESSAGES/coreutils.mo ]] ||
			skip "needs coreutils' $lang catalog (/usr/share/locale/$lang/LC_MESSAGES/coreutils.mo)"
		make_locale "$loc"
		LC_ALL=$loc run -0 same_as_gnu -- "${ALL[@]}"
		LC_ALL=$loc run -0 same_as_gnu -L -- "${ALL[@]}"
		LC_ALL=$loc run -0 same_as_gnu -c '%F|%N|%.3Y|%'"'"'s' -- "${ALL[@]}"
		LC_ALL=$loc run -0 same_as_gnu -f -c '%n %T %l' -- . /
		for args in nonexistent '-f nonexistent' '--bogus' '-q' '-c' '--format' '--terse=1 regular' \
			'--f regular' '-c %5% regular' '--printf=%n\q regular' '--printf=%n\ regular' '-c %C regular' \
			'-f -' '-c %m nonexistent'; do
			# shellcheck disable=SC2086  # $args is words
			LC_ALL=$loc run -0 same_as_gnu $args
		done
	done
}

# The comparisons that tell most about a locale, bounded for make check (the
# whole file in a locale is STAT_COMPAT_LOCALE's, by hand: see the top).
@test "in German and French: terse, every directive alone, -f, escapes, locale quoting, grouping, messages" {
	local loc lang d args
	for loc in de_DE.UTF-8 fr_FR.UTF-8; do
		lang=${loc%%_*}
		[[ -r /usr/share/locale/$lang/LC_MESSAGES/coreutils.mo ]] ||
			skip "needs coreutils' $lang catalog (/usr/share/locale/$lang/LC_MESSAGES/coreutils.mo)"
		make_locale "$loc"
		export LC_ALL=$loc
		run -0 same_as_gnu -t -- "${ALL[@]}"
		run -0 same_as_gnu -t -L -- "${ALL[@]}"
		for d in "${FILE_DIRECTIVES[@]}"; do
			same_as_gnu -c "%$d" -- "${ALL[@]}" || return
		done
		run -0 same_as_gnu -L --printf "$(printf '[%%%s]' "${FILE_DIRECTIVES[@]}")\n" -- "${ALL[@]}"
		# Quiet file systems only: the free counts of a busy one move between the two runs.
		for d in "${FS_DIRECTIVES[@]}"; do
			same_as_gnu -f -c "<%$d>" -- /proc /sys /dev/pts || return
		done
		run -0 same_as_gnu -f -- /proc /sys
		run -0 same_as_gnu -f -t -- /proc /sys
		run -0 same_as_gnu --printf '%n\t%s\n\a\e\\\"\101\x41\xz\q\0 end\n' -- regular dir
		run -0 same_as_gnu --printf 'trailing backslash\' -- regular
		run -0 same_as_gnu -c "%'s|%'20s|%'-20s|%'020s|%'i|%'.3Y" -- regular "$GNU_STAT"
		QUOTING_STYLE=locale run -0 same_as_gnu -c '%N' -- "${ALL[@]}"
		QUOTING_STYLE=clocale run -0 same_as_gnu -c '%N' -- "${ALL[@]}"
		for args in '' '-x regular' '--terse=x regular' '--cached=bogus regular' '--cached= regular' \
			'-c %n regular/ dangling/'; do
			# shellcheck disable=SC2086  # $args is words
			run -0 same_as_gnu $args
		done
		STAT_STDIN=closed run -0 same_as_gnu - regular
	done
}

@test "widths and precisions of 20 digits and more are GNU's (printf refuses them), and overflow nothing" {
	local fmt
	for fmt in '%99999999999999999999s|' '%.99999999999999999999n|' '%099999999999999999999d|' \
		'%-18446744073709551617.18446744073709551617i|'; do
		run -0 same_as_gnu -c "$fmt" -- regular
	done
}
