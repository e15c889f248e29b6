#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Random formats through GNU stat 9.1 and xstat (both linked as "stat"):
# the same stdout, stderr and exit status, whatever the format, on files
# of every type.  The formats are made of GNU's flags, widths, precisions,
# every letter, "%" at odd places, backslashes and text.  The seed is
# printed on failure; XSTAT_FUZZ_SEED=N reruns one, XSTAT_FUZZ_COUNT=N
# sets how many formats a test tries.  (tests/fuzz/format.c fuzzes the
# parser alone, with libFuzzer.)
# bats file_tags=xstat

bats_require_minimum_version 1.5.0

setup() {
	load '../helpers/common'
	load '../helpers/stat-compat'
	stat_compat_setup
	FIX=$BATS_TEST_TMPDIR/fix
	make_fixtures "$FIX"
	cd "$FIX" || return
}

teardown() {
	stat_compat_teardown
}

# random_format: one format on stdout, from $RANDOM.
random_format() {
	local -a text=(a ' ' '|' '\' '\\' '\n' '\t' '\x4' '\101' '\q' '"' "'" '{' '}' ':' '.' '0' '9' '-')
	local letters=aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ%{
	local flags="'-+ #0I" f='' n i piece
	n=$((RANDOM % 6 + 1))
	for ((i = 0; i < n; i++)); do
		if ((RANDOM % 3 == 0)); then
			f+=${text[RANDOM % ${#text[@]}]}
			continue
		fi
		piece=%
		while ((RANDOM % 3 == 0)); do
			piece+=${flags:RANDOM % ${#flags}:1}
		done
		((RANDOM % 2)) && piece+=$((RANDOM % 30))
		if ((RANDOM % 3 == 0)); then
			piece+=.
			((RANDOM % 3)) && piece+=$((RANDOM % 14))
		fi
		((RANDOM % 5 == 0)) && piece+=${letters:RANDOM % 4 + 0:0}$(((RANDOM % 2)) && echo H || echo L)
		piece+=${letters:RANDOM % ${#letters}:1}
		f+=$piece
	done
	((RANDOM % 10 == 0)) && f+=%
	printf '%s' "$f"
}

# fuzz_against_gnu SEED COUNT ARGS...: COUNT random formats, each as -c and
# as --printf, with ARGS before the files.
fuzz_against_gnu() {
	local seed=$1 count=$2 i fmt
	shift 2
	RANDOM=$seed
	for ((i = 0; i < count; i++)); do
		fmt=$(random_format)
		same_as_gnu "$@" -c "$fmt" -- regular dir link chardev fifo "it's" $'new\nline' || {
			echo "seed $seed, format $i: $(printf '%q' "$fmt")"
			return 1
		}
		same_as_gnu "$@" --printf "$fmt" -- regular link $'bad\xffutf8' || {
			echo "seed $seed, format $i: $(printf '%q' "$fmt")"
			return 1
		}
	done
}

@test "random file formats give GNU's bytes" {
	run -0 fuzz_against_gnu "${XSTAT_FUZZ_SEED:-1}" "${XSTAT_FUZZ_COUNT:-150}"
}

@test "random file formats with -L give GNU's bytes" {
	run -0 fuzz_against_gnu "${XSTAT_FUZZ_SEED:-2}" "${XSTAT_FUZZ_COUNT:-60}" -L
}

@test "random file-system formats give GNU's bytes" {
	# Only directives whose values do not move while the test runs: the
	# free counts (%a %f %d) of a busy file system could.
	fs_format() { random_format | sed 's/%\([^afd]*\)[afd]/%\1n/g'; }
	local i fmt
	RANDOM=${XSTAT_FUZZ_SEED:-3}
	for ((i = 0; i < ${XSTAT_FUZZ_COUNT:-60}; i++)); do
		fmt=$(fs_format)
		same_as_gnu -f -c "$fmt" -- . / /proc || fail "seed ${XSTAT_FUZZ_SEED:-3}, format $i: $(printf '%q' "$fmt")"
	done
}
