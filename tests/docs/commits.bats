#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# .ci/check-commits, the check of HACKING.md's commit rule that .ci/run
# runs: every commit after the base of .ci/commit-base has an "area:
# summary" subject of at most 72 characters, a blank second line and a
# body; merges and the history before the base are exempt; a clone
# without the history to check says so and counts a skip, not a pass.
# Each test makes a repository of its own.
# bats file_tags=docs

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	require_cmd git
	CHECK=$FATTRS_SRCDIR/.ci/check-commits
	R=$BATS_TEST_TMPDIR/repo
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t \
		GIT_COMMITTER_EMAIL=t@example.org GIT_CONFIG_NOSYSTEM=1 HOME=$BATS_TEST_TMPDIR
	git init -q -b main "$R"
	commit 'an old subject that runs on and on with no area and no body, as the history before the base did'
	BASE=$(git -C "$R" rev-parse HEAD)
	mkdir -p "$R/.ci"
	printf '# the rule holds after this commit\n%s\n' "$BASE" >"$R/.ci/commit-base"
}

# commit MESSAGE: a commit of one new file (no two branches conflict), with MESSAGE as is.
commit() {
	mktemp -p "$R" f.XXXXXX >/dev/null
	git -C "$R" add -A
	git -C "$R" commit -q --cleanup=verbatim -m "$1"
}

check() {
	CHECK_COMMITS_REPO=$R "$CHECK" "$@"
}

@test "commits that follow the rule pass, merges are exempt, the history before the base is not checked" {
	commit $'doc: say why in the body\n\nA body that says why.'
	git -C "$R" checkout -q -b side
	commit $'tests, bench: two areas joined by a comma\n\nWhy.'
	git -C "$R" checkout -q main
	commit $'tests/fuzz: an area may be a folder\n\nWhy.'
	git -C "$R" merge -q --no-ff --no-edit side
	run -0 check
	assert_line --index 0 '# PASS:  3'
	assert_line --index 1 '# FAIL:  0'
	assert_line --index 2 '# SKIP:  0'
	assert_line '1..3'
	refute_output --partial 'not ok'
}

@test "a subject that is a paragraph, without 'area: ', or a message without a blank second line or a body fails, each with why" {
	commit $'setfattrs: '"$(printf 'word %.0s' {1..14})"$'\n\nWhy.'
	commit $'Fix the thing\n\nWhy.'
	commit $'xstat: a summary\nno blank line before this'
	commit 'libfattrs: a subject and nothing else'
	commit $'xstat -R: a space in the area\n\nWhy.'
	run -1 check
	assert_line --index 0 '# PASS:  0'
	assert_line --index 1 '# FAIL:  5'
	assert_line '#   the subject is 81 characters (at most 72: the rest goes in the body)'
	assert_line --partial "not ok 2 - "
	assert_line "#   the second line is not blank"
	assert_line "#   there is no body saying why"
	run -0 bash -c "CHECK_COMMITS_REPO='$R' '$CHECK' | grep -c \"is not 'area: summary'\""
	assert_output 2
}

@test "a subject of exactly 72 characters passes, and characters count, not bytes" {
	local s
	s="doc: $(printf 'é%.0s' {1..67})"
	commit "$s"$'\n\nWhy.'
	run -0 check
	assert_line --index 0 '# PASS:  1'
}

@test "a shallow clone that does not reach the base says so and counts a skip, not a pass" {
	commit $'doc: one\n\nWhy.'
	commit $'doc: two\n\nWhy.'
	git clone -q --depth 1 "file://$R" "$BATS_TEST_TMPDIR/shallow"
	R=$BATS_TEST_TMPDIR/shallow run -0 check
	assert_line --index 0 '# PASS:  0'
	assert_line --index 2 '# SKIP:  1'
	assert_line --partial 'ok 1 # SKIP shallow clone'
	assert_line --partial 'git fetch --unshallow'
}

@test "a tree without git history (a tarball) counts a skip" {
	mkdir "$BATS_TEST_TMPDIR/tarball"
	R=$BATS_TEST_TMPDIR/tarball
	GIT_CEILING_DIRECTORIES=$BATS_TEST_TMPDIR run -0 check
	assert_line --index 2 '# SKIP:  1'
	assert_line --partial 'no git history'
}

@test "a base that is not an ancestor of HEAD in a full clone is a failure" {
	printf '%s\n' 0123456789012345678901234567890123456789 >"$R/.ci/commit-base"
	run -1 check
	assert_line --index 1 '# FAIL:  1'
	assert_line --partial 'is not an ancestor of HEAD'
}

@test "the project's .ci/commit-base names one commit" {
	run -0 sed 's/#.*//; /^[[:space:]]*$/d' "$FATTRS_SRCDIR/.ci/commit-base"
	assert_output --regexp '^[0-9a-f]{40}$'
}

@test "a commit named in .ci/commit-exempt counts as a skip; any other that breaks the rule still fails" {
	commit 'a subject with no area and no body'
	local bad
	bad=$(git -C "$R" rev-parse HEAD)
	commit 'another one with no area'
	printf '# landed before the check\n%s the first one\n' "$bad" >"$R/.ci/commit-exempt"
	run -1 check
	assert_line --index 0 '# PASS:  0'
	assert_line --index 1 '# FAIL:  1'
	assert_line --index 2 '# SKIP:  1'
	assert_line --partial "${bad:0:12} a subject with no area and no body # SKIP exempt"
	assert_line --partial 'not ok 2 - '
}

