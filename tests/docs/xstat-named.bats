#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# xstat's named directives (%{name}) come from one table (src/xstat/fields.c):
# --help lists it, and the man page, the three completions and the keys of
# --json must say the same, in the same order.
# bats file_tags=docs,xstat

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	load '../helpers/completion'
	cd "$BATS_TEST_TMPDIR" || return
}

# The named directives of "xstat --help", "%{name}" one per line, in order.
help_named() {
	xstat --help | sed -nE 's/^  (%\{[^}]+\}) .*/\1/p'
}

@test "--help lists the named directives: unique names of [a-z0-9_-]" {
	run -0 help_named
	((${#lines[@]} > 70))
	assert_line '%{btime}'
	assert_line '%{mnt_id_unique}'
	assert_line '%{mount_point}'
	assert_line '%{immutable}'
	assert_line '%{offline}'
	assert_line '%{projid}'
	assert_equal "$(sort <<<"$output" | uniq -d)" ''
	refute_line --regexp '^%\{.*[^a-z0-9_{}-].*\}$'
}

@test "xstat.1 lists every named directive of --help, in order, and no other" {
	local man
	man=$(sed -n '/^\.Ss Named directives/,/^\.El/p' "$FATTRS_SRCDIR/man/xstat.1" |
		sed -nE 's/^\.It Cm \\&(%\{[^}]+\})$/\1/p')
	assert_equal "$man" "$(help_named)"
}

@test "the man page's description of each named directive is --help's" {
	local name help man
	while read -r name help; do
		man=$(grep -A1 -F ".It Cm \\&$name" "$FATTRS_SRCDIR/man/xstat.1" | tail -1 | sed 's/\\(aq/'"'"'/g; s/\\e/\\/g')
		assert_equal "${man,}" "$help."
	done < <(xstat --help | sed -nE 's/^  (%\{[^}]+\}) +(.*)$/\1 \2/p')
}

@test "the bash, zsh and fish completions list every named directive of --help" {
	local want got
	want=$(help_named)
	got=$(grep -E '^ *local named_directives=' "$COMPDIR/bash/xstat" | grep -oE '%\{[^}]+\}')
	assert_equal "$got" "$want"
	got=$(grep -E '^named_directives=' "$COMPDIR/zsh/_xstat" | grep -oE '%\{[^}]+\}')
	assert_equal "$got" "$want"
	got=$(grep -A1 'The named directives' "$COMPDIR/fish/xstat.fish" | tail -1 | grep -oE '%\{[^}]+\}')
	assert_equal "$got" "$want"
}

@test "bash: 'xstat -c %{mnt' offers the mount id directives, and not with -f" {
	require_bash_completion
	COMP_TOOL=xstat
	run -0 --separate-stderr bash_complete 'xstat -c %{mnt'
	assert_output $'%{mnt_id_unique}\n%{mnt_id}'	# sorted in the C locale
	run -0 --separate-stderr bash_complete 'xstat -f -c %{mnt'
	assert_output ''
	run -0 --separate-stderr bash_complete 'xstat --js'
	assert_output '--json'
}

@test "fish: 'xstat -c %{imm' offers %{immutable}" {
	require_cmd fish
	COMP_TOOL=xstat
	run -0 fish_complete 'xstat -c %{imm'
	assert_equal "$(cut -f1 <<<"$output")" '%{immutable}'
}

@test "zsh: the named directives are offered for a format" {
	command -v zsh >/dev/null || skip "needs zsh"
	# The array as zsh itself reads it (quoting, no brace expansion).
	run -0 zsh -fc "$(grep -E '^named_directives=' "$COMPDIR/zsh/_xstat"); print -l -- \$named_directives"
	assert_equal "$output" "$(help_named)"
}

@test "--json: the keys are the named directives, in order (plus NAME_str for identifiers)" {
	command -v jq >/dev/null || skip "needs jq"
	touch f
	run -0 xstat --json -a f
	local keys want
	# inline-data: the former key of inline_data, still written beside it (xstat.1)
	keys=$(jq -r 'keys_unsorted[]' <<<"$output" | grep -v -e '_str$' -e '^inline-data$')
	want=$(help_named | sed -E 's/^%\{(.*)\}$/\1/')
	assert_equal "$keys" "$want"
	keys=$(jq -r 'keys_unsorted[]' <<<"$output" | sed -n 's/_str$//p' | tr '\n' ' ')
	assert_equal "$keys" 'ino dev rdev mnt_id mnt_id_unique subvol '
	# Without -a, the fields marked (-a) in --help are left out.
	run -0 xstat --json f
	keys=$(jq -r 'keys_unsorted[]' <<<"$output" | grep -v '_str$')
	want=$(xstat --help | sed -nE '/\(-a\)$/!s/^  %\{([^}]+)\} .*/\1/p')
	assert_equal "$keys" "$want"
}
