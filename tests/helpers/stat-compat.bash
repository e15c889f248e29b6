# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Differential testing of xstat against GNU stat 9.1:  load '../helpers/stat-compat'
#
#   stat_compat_setup     in setup(): two directories of one symlink each,
#                         both named "stat": one to /usr/bin/stat, one to
#                         the built xstat, so both say "stat:" in messages;
#                         with STAT_COMPAT_LOCALE set (de_DE.UTF-8), that
#                         locale made (make_locale) and exported as LC_ALL
#                         for both, instead of common.bash's C
#   same_as_gnu ARG...    run "stat ARG..." through both in the current
#                         directory; fail showing the difference unless
#                         stdout, stderr and exit status are byte for byte
#                         the same.  Environment variables pass through.
#   make_fixtures DIR     every file type and hostile names in DIR, with
#                         fixed times (see below)
#   make_locale NAME      the locale NAME (de_DE.UTF-8) made with localedef
#                         once per .bats file, in a LOCPATH of the file's
#                         own, or skip saying why
#
# The file's times are set to fixed values and every file is read once
# first, so that no access (relatime) moves an atime between the two runs.

GNU_STAT=${GNU_STAT:-/usr/bin/stat}

stat_compat_setup() {
	[[ -x $GNU_STAT ]] || skip "needs GNU stat ($GNU_STAT)"
	"$GNU_STAT" --version | head -1 | grep -q 'GNU coreutils' || skip "$GNU_STAT is not GNU stat"
	STAT_GNU_DIR=$BATS_TEST_TMPDIR/gnu-bin
	STAT_OURS_DIR=$BATS_TEST_TMPDIR/ours-bin
	# The outputs go here, not beside the files compared (a directory's mtime would move).
	STAT_CMP_DIR=$(mktemp -d "${TMPDIR:-/tmp}/stat-cmp.XXXXXX")
	mkdir -p "$STAT_GNU_DIR" "$STAT_OURS_DIR"
	ln -sf "$GNU_STAT" "$STAT_GNU_DIR/stat"
	ln -sf "$FATTRS_BUILDDIR/xstat" "$STAT_OURS_DIR/stat"
	export STAT_GNU_DIR STAT_OURS_DIR STAT_CMP_DIR
	case ${STAT_COMPAT_LOCALE:-C} in
	C | POSIX) ;;
	*)
		make_locale "$STAT_COMPAT_LOCALE"
		export LC_ALL=$STAT_COMPAT_LOCALE
		;;
	esac
}

# same_as_gnu ARG...: see above.  $STAT_STDIN, if set, is a file both read
# as standard input ("closed": both start with descriptor 0 closed).
same_as_gnu() {
	local out=$STAT_CMP_DIR/same gs os in=${STAT_STDIN:-/dev/null}
	if [[ $in == closed ]]; then
		PATH=$STAT_GNU_DIR:$PATH stat "$@" <&- >"$out.gout" 2>"$out.gerr"
		gs=$?
		PATH=$STAT_OURS_DIR:$PATH stat "$@" <&- >"$out.oout" 2>"$out.oerr"
		os=$?
	else
		PATH=$STAT_GNU_DIR:$PATH stat "$@" <"$in" >"$out.gout" 2>"$out.gerr"
		gs=$?
		PATH=$STAT_OURS_DIR:$PATH stat "$@" <"$in" >"$out.oout" 2>"$out.oerr"
		os=$?
	fi
	if ! cmp -s "$out.gout" "$out.oout" || ! cmp -s "$out.gerr" "$out.oerr" || ((gs != os)); then
		printf 'differs from GNU stat: stat'
		printf ' %q' "$@"
		printf '\n--- exit status: GNU %d, xstat %d\n--- stdout (GNU first):\n' "$gs" "$os"
		diff <(od -c "$out.gout") <(od -c "$out.oout") | head -20
		printf -- '--- stderr (GNU first):\n'
		diff "$out.gerr" "$out.oerr" | head -20
		rm -f "$out".*
		return 1
	fi
	rm -f "$out".*
	return 0
}

# teardown: remove the comparison directory.
stat_compat_teardown() {
	[[ -n ${STAT_CMP_DIR:-} ]] && rm -rf "$STAT_CMP_DIR"
	return 0
}

# The fixture names, relative to the fixture directory.
STAT_FIXTURES=(regular empty dir link dangling fifo sock chardev blockdev
	'with space' "it's" $'new\nline' 'back\slash' 'dq"uote' $'bad\xffutf8' $'\xc3\xa9t\xc3\xa9'
	'-dash' '$dollar' 'tab	tab' 'setuid' 'sticky' 'link to dir' 'hardlinked')

# make_fixtures DIR: STAT_FIXTURES in DIR (devices only as root).
make_fixtures() {
	local d=$1 f
	mkdir -p "$d" || return
	(
		cd "$d" || exit 1
		printf 'some bytes\n' >regular
		: >empty
		mkdir dir
		ln -s regular link
		ln -s nowhere dangling
		ln -s dir 'link to dir'
		mkfifo fifo
		python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' sock 2>/dev/null ||
			mkfifo sock
		if [[ $EUID -eq 0 ]]; then
			mknod chardev c 1 3
			mknod blockdev b 7 200
		else
			: >chardev
			: >blockdev
		fi
		for f in 'with space' "it's" $'new\nline' 'back\slash' 'dq"uote' $'bad\xffutf8' \
			$'\xc3\xa9t\xc3\xa9' '-dash' '$dollar' 'tab	tab'; do
			printf x >"./$f"
		done
		: >setuid && chmod 4755 setuid
		mkdir sticky && chmod 1777 sticky
		: >hardlinked && ln hardlinked hardlinked.2
		# Fixed times, then read everything once: no later access moves an atime.
		touch -h -d '2021-02-03 04:05:06.123456789' -- ./* 2>/dev/null
		touch -h -d '2019-12-31 23:59:59.999999999' -- regular link
		cat regular empty ./*space >/dev/null
		readlink link dangling 'link to dir' >/dev/null
		ls -la . dir sticky >/dev/null
	)
}

# make_locale NAME (de_DE.UTF-8): NAME made with localedef in a LOCPATH of
# this .bats file's own (nothing on the machine changes), once for all its
# tests, or skip saying why.
make_locale() {
	local name=$1 dir=$BATS_FILE_TMPDIR/locale
	[[ $name == *_*.UTF-8 ]] || skip "make_locale makes LANGUAGE_TERRITORY.UTF-8 locales, not '$name'"
	if [[ ! -d $dir/$name ]]; then
		require_cmd localedef
		[[ -r /usr/share/i18n/locales/${name%%.*} ]] ||
			skip "needs the locales package's source of ${name%%.*} for localedef"
		mkdir -p "$dir"
		localedef -i "${name%%.*}" -f UTF-8 "$dir/$name" >/dev/null 2>&1 || {
			rm -rf "${dir:?}/$name"
			skip "localedef cannot make $name"
		}
	fi
	export LOCPATH=$dir
}
