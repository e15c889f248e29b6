#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The tree documents itself: doc/ is shipped, every reference to a section
# of doc/design.md or doc/kernel.md names a section that exists, nothing
# cites a file outside the tree, no file speaks of how the project was
# worked on rather than of the project, and every C file of src/ opens with
# what it is for, leaving stories and contracts to doc/.
# bats file_tags=docs

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
}

# The project's own text files (not a build tree that may sit inside the
# source tree), one per line.
project_files() {
	(
		cd "$FATTRS_SRCDIR" || exit
		find README.md HACKING.md NEWS Makefile.am configure.ac .ci src man completions doc bench tests \
			-type f ! -name '*.o' ! -name '*.lo' ! -name '*.log' ! -name '*.trs' ! -path '*/.deps/*' \
			! -path '*/.libs/*' ! -path 'tests/fuzz/corpus/*' ! -path tests/docs/tree.bats 2>/dev/null
	)
}

@test "every file of doc/ is in the tarball (EXTRA_DIST)" {
	local f missing=()
	for f in "$FATTRS_SRCDIR"/doc/*; do
		f=${f#"$FATTRS_SRCDIR"/}
		grep -Eq "(^|[[:space:]])$f([[:space:]]|\$)" "$FATTRS_SRCDIR/Makefile.am" || missing+=("$f")
	done
	((${#missing[@]} == 0)) || fail "not in EXTRA_DIST: ${missing[*]}"
}

@test "every 'doc/design.md §N' or 'doc/kernel.md §N.M' names a section that exists" {
	local ref file sec bad=()
	while IFS= read -r ref; do
		file=${ref%% *}
		sec=${ref##*§}
		if [[ $sec == *.* ]]; then
			grep -q "^### ${sec//./\\.} " "$FATTRS_SRCDIR/$file" || bad+=("$ref")
		else
			grep -q "^## $sec\\. " "$FATTRS_SRCDIR/$file" || bad+=("$ref")
		fi
	done < <(project_files | (cd "$FATTRS_SRCDIR" && xargs -d '\n' grep -ohE 'doc/(design|kernel)\.md §[0-9]+(\.[0-9]+)?') | sort -u)
	((${#bad[@]} == 0)) || fail "no such section: ${bad[*]}"
}

@test "every C file of src/ opens with its SPDX line and one or two lines saying what it is for" {
	local f n bad=()
	while IFS= read -r f; do
		# The number of lines of text in the comment that starts on line 2
		# (0 when line 1 is not the SPDX line or line 2 opens no comment).
		n=$(awk 'NR == 1 { if (!/SPDX-License-Identifier/) exit; next }
			NR == 2 && !/^\/\*/ { exit }
			!/^[[:space:]]*(\/\*|\*\/|\*)[[:space:]]*$/ { n++ }
			/\*\// { print n; exit }' "$FATTRS_SRCDIR/$f")
		((${n:-0} >= 1 && ${n:-0} <= 2)) || bad+=("$f (${n:-0})")
	done < <(project_files | grep -E '^src/.*\.[ch]$')
	((${#bad[@]} == 0)) || fail "a story, a measurement or a contract belongs in doc/: ${bad[*]}"
}

@test "no file cites a document outside the tree" {
	local hits
	hits=$(project_files | (cd "$FATTRS_SRCDIR" && xargs -d '\n' grep -nE \
		'\.\./shared/|DESIGN( §|\.md)|KERNEL\.md|STYLE rule|ECOSYSTEM( §|\.md)') || :)
	[[ -z $hits ]] || fail "$hits"
}

@test "no file speaks of how the project was worked on" {
	local hits
	# An sshd's sessions are the tests' own business.
	hits=$(project_files | (cd "$FATTRS_SRCDIR" && xargs -d '\n' grep -niwE \
		'sessions?|worktrees?|subagents?|agents?|coordinator|claude|sprint|engineers?') | grep -viE 'sshd|ssh ' || :)
	[[ -z $hits ]] || fail "$hits"
}
