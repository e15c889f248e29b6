#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The man pages and the completions say what the program does (doc/style.md,
# Documentation): every long option of --help is documented and completed, the man
# pages lint clean, and the SYNOPSIS matches --usage.  The option lists are
# read from the built program, never written down here.
# bats file_tags=docs

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	load '../helpers/completion'
	# The tool the helpers below look at; each test sets it.
	TOOL=tmpcreate
}

# The long options of "$TOOL --help", one per line, without "--".  Only
# the option column is read (a description may mention other options).
help_long_options() {
	"$TOOL" --help | sed -nE 's/^ {2,6}(-[^-], +)?--([[:alnum:]][[:alnum:]-]*).*/\2/p'
}

# The short option letters of "$TOOL --usage", one per line: from
# "[-duqtvV?]", "[-d|--directory]", "[-p DIR]" and the like.
usage_short_letters() {
	"$TOOL" --usage | grep -oE '(^|[[ |])-[^- |[]+' | sed -E 's/^[[ |]?-//; s/\]$//' | fold -w1 | sort -u
}

# Fail listing every long option of --help that FILE lacks.  PATTERN is an
# extended regex in which @OPT@ stands for the option name.
assert_options_in() {
	local file=$1 pattern=$2 opt missing=()
	local -a opts
	mapfile -t opts < <(help_long_options)
	((${#opts[@]} > 0)) || fail "no long options found in '$TOOL --help'"
	assert_file_exists "$file"
	for opt in "${opts[@]}"; do
		grep -Eq -- "${pattern//@OPT@/$opt}" "$file" || missing+=("--$opt")
	done
	((${#missing[@]} == 0)) || fail "${file#"$FATTRS_SRCDIR"/} lacks: ${missing[*]}"
}

# The text of a man page as a reader sees it, without overstrike.
render_man() {
	if [[ -n ${MANDOC:-} ]] || command -v mandoc >/dev/null 2>&1; then
		"${MANDOC:-mandoc}" -Tascii "$1" | col -b
	else
		groff -mandoc -Tascii -P-cbou "$1"
	fi
}

# ---- the checks of one tool's man page and completions, run for each tool below

check_help_lists_options() {
	run -0 help_long_options
	assert_line 'help'
	assert_line 'usage'
	assert_line 'version'
	(( ${#lines[@]} >= 4 ))
}

check_man_options() {
	assert_options_in "$FATTRS_SRCDIR/man/$TOOL.1" 'Fl Fl @OPT@([^[:alnum:]-]|$)'
}

check_bash_options() {
	assert_options_in "$COMPDIR/bash/$TOOL" "(^|[^[:alnum:]-])--@OPT@([^[:alnum:]-]|\$)"
}

check_zsh_options() {
	assert_options_in "$COMPDIR/zsh/_$TOOL" "(^|[^[:alnum:]-])--@OPT@([^[:alnum:]-]|\$)"
}

check_fish_options() {
	assert_options_in "$COMPDIR/fish/$TOOL.fish" "(^|[[:space:]])(-l|--long-option)[[:space:]]+'?@OPT@'?([[:space:]]|\$)"
}

check_synopsis_letters() {
	local -a letters
	local synopsis l missing=()
	command -v mandoc >/dev/null 2>&1 || [[ -n ${MANDOC:-} ]] || command -v groff >/dev/null 2>&1 ||
		skip "needs mandoc or groff to render the man page"
	mapfile -t letters < <(usage_short_letters)
	((${#letters[@]} > 0)) || fail "no option letters found in '$TOOL --usage'"
	synopsis=$(render_man "$FATTRS_SRCDIR/man/$TOOL.1" | sed -n '/^SYNOPSIS/,/^[A-Z]/{/^[A-Z]/!p}')
	[[ -n $synopsis ]] || fail "$TOOL.1 has no SYNOPSIS"
	# Option letters as the reader sees them: "[-dqtuv]", "-p dir", "-V | -?".
	local shown
	shown=$(grep -oE '(^|[[ |])-[^- |[]+' <<<"$synopsis" | sed -E 's/^[[ |]?-//; s/\]$//' | tr -d '\n')
	for l in "${letters[@]}"; do
		[[ $shown == *"$l"* ]] || missing+=("-$l")
	done
	((${#missing[@]} == 0)) || fail "SYNOPSIS lacks: ${missing[*]}"$'\n'"$synopsis"
}

@test "tmpcreate --help lists long options, --help and --usage among them" {
	TOOL=tmpcreate check_help_lists_options
}

@test "tmpcreate.1 documents every long option of --help as .Fl Fl" {
	TOOL=tmpcreate check_man_options
}

@test "the bash completion of tmpcreate offers every long option of --help" {
	TOOL=tmpcreate check_bash_options
}

@test "the zsh completion of tmpcreate offers every long option of --help" {
	TOOL=tmpcreate check_zsh_options
}

@test "the fish completion of tmpcreate offers every long option of --help" {
	TOOL=tmpcreate check_fish_options
}

@test "the SYNOPSIS of tmpcreate.1 names every option letter of --usage" {
	TOOL=tmpcreate check_synopsis_letters
}

@test "setfattrs --help lists long options, --help and --usage among them" {
	TOOL=setfattrs check_help_lists_options
}

@test "setfattrs.1 documents every long option of --help as .Fl Fl" {
	TOOL=setfattrs check_man_options
}

@test "the bash completion of setfattrs offers every long option of --help" {
	TOOL=setfattrs check_bash_options
}

@test "the zsh completion of setfattrs offers every long option of --help" {
	TOOL=setfattrs check_zsh_options
}

@test "the fish completion of setfattrs offers every long option of --help" {
	TOOL=setfattrs check_fish_options
}

@test "the SYNOPSIS of setfattrs.1 names every option letter of --usage" {
	TOOL=setfattrs check_synopsis_letters
}

# ---- setfattrs: the one flag table, as --list prints it, in the man page and completions

# "word letter readonly" per flag of 'setfattrs --list --json' ("-" for no letter).
list_flags() {
	setfattrs --list --json | sed -E 's/.*"flag":"([^"]*)","letter":("([^"]*)"|null).*"readonly":(true|false).*/\1 \3 \4/' |
		awk '{ if (NF == 2) print $1, "-", $2; else print }'
}

@test "setfattrs --list: every flag once, in the table's order, letters unique" {
	run -0 list_flags
	((${#lines[@]} >= 30)) || fail "only ${#lines[@]} flags"
	assert_line 'immutable i false'
	assert_line 'extents e true'
	assert_line 'offline - false'
	assert_equal "$(cut -d' ' -f1 <<<"$output" | sort | uniq -d)" ''
	assert_equal "$(cut -d' ' -f2 <<<"$output" | grep -v '^-$' | sort | uniq -d)" ''
}

@test "setfattrs.1 lists every flag of --list with its letter under FLAGS" {
	local w l ro missing=()
	while read -r w l ro; do
		if [[ $l == - ]]; then
			grep -Eq "^\.It Cm $w Ta - Ta" "$FATTRS_SRCDIR/man/setfattrs.1" || missing+=("$w")
		else
			grep -Eq "^\.It Cm $w Ta Cm $l Ta" "$FATTRS_SRCDIR/man/setfattrs.1" || missing+=("$w ($l)")
		fi
		if [[ $ro == true ]]; then
			grep -Eq "^\.It Cm $w Ta .*read-only" "$FATTRS_SRCDIR/man/setfattrs.1" || missing+=("$w: read-only")
		fi
	done < <(list_flags)
	((${#missing[@]} == 0)) || fail "setfattrs.1 lacks: ${missing[*]}"
}

@test "every setfattrs completion holds exactly the settable flag words and letters of --list" {
	local want_words want_letters f got
	want_words=$(list_flags | awk '$3 == "false" { print $1 }' | sort)
	want_letters=$(list_flags | awk '$3 == "false" && $2 != "-" { print $2 }' | sort)
	for f in bash/setfattrs zsh/_setfattrs fish/setfattrs.fish; do
		got=$(sed -nE "s/.*[[:space:]]flags=?[[:space:]]*'([^']*)'.*/\1/p" "$COMPDIR/$f" | tr ' ' '\n' | sort)
		assert_equal "$got" "$want_words"
		got=$(sed -nE "s/.*[[:space:]]letters=?[[:space:]]*'([^']*)'.*/\1/p" "$COMPDIR/$f" | fold -w1 | sort)
		assert_equal "$got" "$want_letters"
	done
}

# ---- xstat: the one directive table, as --help prints it, in the man page and completions

# The format directives of "xstat --help" ("%a", "%Hd", ...): MODE is
# "files" or "fs" (the two lists of --help).
help_directives() {
	local start
	case $1 in
	files) start='^The valid format sequences for files' ;;
	fs) start='^Valid format sequences for file systems' ;;
	esac
	xstat --help | sed -n "/$start/,/^\$/{p;}; /$start/,/^[^ ].*:\$/p" |
		sed -nE 's/^  (%[A-Za-z]{1,2}) +.*/\1/p' | sort -u
}

@test "xstat --help lists long options and both directive tables" {
	TOOL=xstat run -0 help_long_options
	assert_line 'format'
	assert_line 'printf'
	assert_line 'help'
	run -0 help_directives files
	assert_line '%Hd'
	assert_line '%Z'
	((${#lines[@]} == 36))
	run -0 help_directives fs
	assert_line '%S'
	((${#lines[@]} == 12))
}

@test "xstat.1 documents every long option of --help as .Fl Fl" {
	TOOL=xstat check_man_options
}

@test "the bash completion of xstat offers every long option of --help" {
	TOOL=xstat check_bash_options
}

@test "the zsh completion of xstat offers every long option of --help" {
	TOOL=xstat check_zsh_options
}

@test "the fish completion of xstat offers every long option of --help" {
	TOOL=xstat check_fish_options
}

@test "the SYNOPSIS of xstat.1 names every option letter of --usage" {
	TOOL=xstat check_synopsis_letters
}

@test "xstat.1 and the completions list every format directive of --help, and no other" {
	local mode d file man_list
	for mode in files fs; do
		mapfile -t want < <(help_directives $mode)
		# The man page: ".It Cm %X" rows of the two directive lists.
		case $mode in
		files) man_list=$(sed -n '/^\.Ss Directives for files/,/^\.El/p' "$FATTRS_SRCDIR/man/xstat.1") ;;
		fs) man_list=$(sed -n '/^\.Ss Directives for file systems/,/^\.El/p' "$FATTRS_SRCDIR/man/xstat.1") ;;
		esac
		assert_equal "$(sed -nE 's/^\.It Cm (\\&)?(%[A-Za-z]+)$/\2/p' <<<"$man_list" | sort -u)" "$(printf '%s\n' "${want[@]}")"
		for file in "$COMPDIR/bash/xstat" "$COMPDIR/zsh/_xstat" "$COMPDIR/fish/xstat.fish"; do
			local line
			case $mode in
			files) line=$(grep -E 'file_directives=|printf .* %a %A' "$file" | head -1) ;;
			fs) line=$(grep -E 'fs_directives=|printf .* %a %b %c' "$file" | head -1) ;;
			esac
			assert_equal "$(grep -oE '%[A-Za-z]+' <<<"$line" | sort -u)" "$(printf '%s\n' "${want[@]}")"
		done
	done
}

@test "bash: 'xstat -c %H' offers %Hd and %Hr, 'xstat -f -c %' the file-system directives" {
	require_bash_completion
	COMP_TOOL=xstat
	run -0 --separate-stderr bash_complete 'xstat -c %H'
	assert_output $'%Hd\n%Hr'
	run -0 --separate-stderr bash_complete 'xstat -f -c %S'
	assert_output '%S'
	run -0 --separate-stderr bash_complete 'xstat --cached=n'
	assert_output 'never'
}

@test "every man page is clean under mandoc -Tlint -Wwarning" {
	local mandoc=${MANDOC:-$(command -v mandoc)} page rc=0
	[[ -n $mandoc ]] || skip "needs mandoc"
	local -a pages=("$FATTRS_SRCDIR"/man/*.[1-8])
	[[ -e ${pages[0]} ]] || fail "no man pages in man/"
	for page in "${pages[@]}"; do
		run "$mandoc" -Tlint -Wwarning "$page"
		if ((status != 0)); then
			echo "${page#"$FATTRS_SRCDIR"/}: mandoc exit $status"
			echo "$output"
			rc=1
		fi
	done
	((rc == 0))
}

# A one-line enclosure (Ql, Sq, Dq, Qq) quotes everything up to the end of
# its line: '.Pq Ql s No is secrm' renders "(‘s is secrm’)", and a second
# Ql on the line nests the quotes.  The text after the quoted word goes on
# a line of its own.
@test "no man page quotes more than it means: no No, Ql, Sq, Dq or Qq after a Ql, Sq, Dq or Qq on one line" {
	local bad
	bad=$(awk '/^[.]/ {
		n = split($0, t, " "); enc = 0
		for (i = 1; i <= n; i++) {
			w = t[i]; sub(/^[.]/, "", w)
			if (enc && (w == "No" || w == "Ql" || w == "Sq" || w == "Dq" || w == "Qq")) {
				print FILENAME ":" FNR ": " $0; break
			}
			if (w == "Ql" || w == "Sq" || w == "Dq" || w == "Qq")
				enc = 1
		}
	}' "$FATTRS_SRCDIR"/man/*.[1-8])
	[[ -z $bad ]] || fail "quotes that run on (split the line):"$'\n'"${bad//"$FATTRS_SRCDIR"\//}"
}

@test "every man page formats without groff warnings" {
	local page
	require_cmd groff
	for page in "$FATTRS_SRCDIR"/man/*.[1-8]; do
		run --separate-stderr groff -mandoc -ww -z "$page"
		# groff exits 0 even when it warns: the warnings are the test.
		# shellcheck disable=SC2154
		[[ -z $stderr ]] || fail "${page#"$FATTRS_SRCDIR"/}: $stderr"
	done
}

@test "every man page has a NAME line that whatis can read" {
	local page
	require_cmd lexgrog
	for page in "$FATTRS_SRCDIR"/man/*.[1-8]; do
		run lexgrog "$page"
		assert_success
		assert_output --regexp ": \"[a-z][-a-z0-9]* - .+\"$"
	done
}

@test "every man page and completion file is installed by its local.mk" {
	local f missing=()
	for f in "$FATTRS_SRCDIR"/man/*.[1-8]; do
		grep -Eq "%D%/${f##*/}([[:space:]]|\$)" "$FATTRS_SRCDIR/man/local.mk" || missing+=("${f#"$FATTRS_SRCDIR"/}")
	done
	for f in "$COMPDIR"/bash/* "$COMPDIR"/zsh/* "$COMPDIR"/fish/*; do
		[[ -e $f ]] || continue
		f=${f#"$COMPDIR"/}
		grep -Eq "%D%/$f([[:space:]]|\$)" "$COMPDIR/local.mk" || missing+=("completions/$f")
	done
	((${#missing[@]} == 0)) || fail "not installed: ${missing[*]}"
}

@test "every benchmark script and source is in the tarball (EXTRA_DIST)" {
	local f missing=()
	for f in "$FATTRS_SRCDIR"/bench/*.sh "$FATTRS_SRCDIR"/bench/*.md "$FATTRS_SRCDIR"/bench/src/*.c; do
		[[ -e $f ]] || continue
		f=${f#"$FATTRS_SRCDIR"/}
		grep -Eq "(^|[[:space:]])$f([[:space:]]|\$)" "$FATTRS_SRCDIR/Makefile.am" || missing+=("$f")
	done
	((${#missing[@]} == 0)) || fail "not in EXTRA_DIST: ${missing[*]}"
}

@test "bench/README.md says how to run every benchmark; bench/RESULTS.md holds the figures" {
	local f name missing=()
	for f in "$FATTRS_SRCDIR"/bench/*.sh "$FATTRS_SRCDIR"/bench/src/*.c; do
		[[ -e $f ]] || continue
		name=${f#"$FATTRS_SRCDIR"/}
		grep -qF "$name" "$FATTRS_SRCDIR/bench/README.md" || missing+=("README.md does not name $name")
		# Every script but the sourced library has its heading in both files.
		[[ $f == */bench/*.sh && $f != */lib.sh ]] || continue
		name=$(basename "$f")
		grep -q "^## \(bench/\)\?$name" "$FATTRS_SRCDIR/bench/README.md" ||
			missing+=("README.md has no '## $name' section")
		grep -q "^## $name" "$FATTRS_SRCDIR/bench/RESULTS.md" ||
			missing+=("RESULTS.md has no '## $name' section")
	done
	# A how-to, short enough to read: measured figures (a dated section) go to RESULTS.md.
	(($(wc -l <"$FATTRS_SRCDIR/bench/README.md") < 300)) ||
		missing+=("README.md has $(wc -l <"$FATTRS_SRCDIR/bench/README.md") lines: a how-to stays under 300")
	grep -nE '^#+ .*(Figures|[0-9]{4}-[0-9]{2}-[0-9]{2})' "$FATTRS_SRCDIR/bench/README.md" &&
		missing+=("README.md has a section of figures (above): move it to RESULTS.md")
	((${#missing[@]} == 0)) || fail "${missing[*]}"
}

@test "every fuzz target is in the tarball and has a corpus" {
	local f name missing=()
	for f in "$FATTRS_SRCDIR"/tests/fuzz/*.c; do
		name=$(basename "$f" .c)
		grep -Eq "(^|[[:space:]])tests/fuzz/$name\.c([[:space:]]|\$)" \
			"$FATTRS_SRCDIR/tests/local.mk" || missing+=("tests/fuzz/$name.c not in EXTRA_DIST")
		grep -q 'FUZZ_SOURCES:' "$f" || missing+=("$name.c has no FUZZ_SOURCES line")
		[[ -n $(ls -A "$FATTRS_SRCDIR/tests/fuzz/corpus/$name" 2>/dev/null) ]] ||
			missing+=("no tests/fuzz/corpus/$name/")
	done
	((${#missing[@]} == 0)) || fail "${missing[*]}"
}

@test "the README's set-up command and CI install the one package list (.ci/packages)" {
	local readme
	readme=$(grep -F 'apt-get install' "$FATTRS_SRCDIR/README.md")
	[[ $readme == *"\$(sed 's/#.*//' .ci/packages)"* ]] ||
		fail "README's apt-get line does not install .ci/packages: $readme"
	grep -q '\.ci/packages' "$FATTRS_SRCDIR/.ci/run" || fail ".ci/run does not read .ci/packages"
	! grep -Eq '(^|[[:space:]])(libpopt-dev|bats-assert|e2fsprogs)([[:space:]]|$)' \
		"$FATTRS_SRCDIR/README.md" "$FATTRS_SRCDIR/.ci/run" ||
		fail "a second package list in README.md or .ci/run"
}

@test "every command a test requires (require_cmd) comes from a package of .ci/packages, or an Essential one" {
	# The package of each command; a command newly required needs a row here and
	# its package in .ci/packages, or a fresh machine set up as the README
	# says skips that test (shellcheck and python3 were missing).
	local -A pkg=(
		[chattr]=e2fsprogs [lsattr]=e2fsprogs [findmnt]=util-linux [setpriv]=util-linux
		[unshare]=util-linux [getfacl]=acl [setfacl]=acl [getfattr]=attr [setfattr]=attr
		[fish]=fish [zsh]=zsh [groff]=groff-base [lexgrog]=man-db [jq]=jq [python3]=python3
		[shellcheck]=shellcheck [strace]=strace [valgrind]=valgrind [xfs_io]=xfsprogs
		[git]=git [localedef]=Essential [timeout]=Essential [bash]=Essential
		[dpkg-buildpackage]=dpkg-dev [lintian]=lintian [smbclient]=smbclient
	)
	local listed c missing=()
	listed=$(sed 's/#.*//' "$FATTRS_SRCDIR/.ci/packages" | tr -s ' \t' '\n\n')
	for c in $(grep -rhoE 'require_cmd( [A-Za-z0-9_.+-]+)+' "$FATTRS_SRCDIR/tests" \
			--include='*.bats' --include='*.bash' | sed 's/^require_cmd //' | tr ' ' '\n' | sort -u); do
		if [[ -z ${pkg[$c]-} ]]; then
			missing+=("$c (no row in this test)")
		elif [[ ${pkg[$c]} != Essential ]] && ! grep -qx "${pkg[$c]}" <<<"$listed"; then
			missing+=("$c (${pkg[$c]} not in .ci/packages)")
		fi
	done
	((${#missing[@]} == 0)) || fail "required by tests, not installed by the README's set-up: ${missing[*]}"
}
