#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the libFuzzer targets of tests/fuzz/ with clang, straight from the
# sources (the gcc build is not touched), run each on its committed corpus,
# then fuzz it for a bounded time.  TAP on stdout, one line per target;
# the counts also go to OUT/fuzz-suite.log in automake's summary format.
#
#   tests/fuzz/run.sh [-b BUILDDIR] [-o OUT] [-t SECONDS] [TARGET...]
#
# -b: a configured build tree, for config.h (default: the source tree,
#     else ./).  -o: where binaries, logs, new inputs and crashes go
#     (default: BUILDDIR/fuzz-out).  -t: seconds of fuzzing per target
#     (default 30; 0 runs the corpus only).  TARGET: names of
#     tests/fuzz/NAME.c (default: all of them).
#
# A target is tests/fuzz/NAME.c defining LLVMFuzzerTestOneInput(), with a
# line "FUZZ_SOURCES: src/a.c src/b.c" naming the project files it links
# (and optionally "FUZZ_LIBS: -lpopt"), and a corpus in
# tests/fuzz/corpus/NAME/ (tests/fuzz/NAME.dict is used when present).
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=
out=
seconds=30
while getopts b:o:t: opt; do
	case $opt in
	b) builddir=$(cd "$OPTARG" && pwd) || exit 2 ;;
	o) out=$OPTARG ;;
	t) seconds=$OPTARG ;;
	*) echo "usage: $0 [-b BUILDDIR] [-o OUT] [-t SECONDS] [TARGET...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ -z "$builddir" ]; then
	if [ -f "$srcdir/config.h" ]; then builddir=$srcdir; else builddir=$(pwd); fi
fi
if [ ! -f "$builddir/config.h" ]; then
	echo "$0: no config.h in $builddir: run configure first (or give -b BUILDDIR)" >&2
	exit 2
fi
out=${out:-$builddir/fuzz-out}
CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null; then
	echo "$0: $CLANG not found (Debian: clang libclang-rt-dev, see .ci/packages)" >&2
	exit 2
fi

if [ $# -eq 0 ]; then
	set --
	for f in "$here"/*.c; do
		set -- "$@" "$(basename "$f" .c)"
	done
fi
mkdir -p "$out" || exit 2

CFLAGS="-std=gnu11 -g -O1 -fno-omit-frame-pointer -Wall -Wextra
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
# The project's own flags for popt, libmount and libattr headers, if any.
CPPFLAGS="-I$builddir -I$srcdir/src/lib -I$srcdir/src/cli -I$srcdir/src/xstat -I$here
	$(pkg-config --cflags popt mount libattr 2>/dev/null)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

echo "1..$#"
n=0 pass=0 fail=0
for name; do
	n=$((n + 1))
	src=$here/$name.c
	bin=$out/$name
	log=$out/$name.log
	corpus=$here/corpus/$name
	if [ ! -f "$src" ]; then
		echo "not ok $n - $name: no $src"
		fail=$((fail + 1))
		continue
	fi
	sources=$(sed -n 's/.*FUZZ_SOURCES:\(.*\)$/\1/p' "$src" | head -n 1)
	libs=$(sed -n 's/.*FUZZ_LIBS:\(.*\)$/\1/p' "$src" | head -n 1)
	# shellcheck disable=SC2086  # word lists
	if ! (cd "$srcdir" && $CLANG $CFLAGS $CPPFLAGS -o "$bin" "$src" $sources $libs) \
		>"$log" 2>&1; then
		echo "not ok $n - $name: does not build"
		sed 's/^/# /' "$log" | head -n 40
		fail=$((fail + 1))
		continue
	fi
	dict=()
	[ -f "$here/$name.dict" ] && dict=(-dict="$here/$name.dict")
	# The committed corpus, every input once: regressions first.
	inputs=$(find "$corpus" -type f 2>/dev/null | wc -l)
	if ! "$bin" -runs=0 -artifact_prefix="$out/$name-" "${dict[@]}" "$corpus" >>"$log" 2>&1; then
		echo "not ok $n - $name: fails on its committed corpus ($inputs inputs)"
		grep -E 'check failed|ERROR|SUMMARY|runtime error|Test unit written' "$log" |
			head -n 10 | sed 's/^/# /'
		fail=$((fail + 1))
		continue
	fi
	# Then new inputs, kept in OUT/NAME.new (the committed corpus is read only).
	if [ "$seconds" -gt 0 ]; then
		mkdir -p "$out/$name.new"
		if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix="$out/$name-" -print_final_stats=1 "${dict[@]}" \
			"$out/$name.new" "$corpus" >>"$log" 2>&1; then
			echo "not ok $n - $name: crash after fuzzing (log: $log)"
			grep -E 'check failed|ERROR|SUMMARY|runtime error|Test unit written' "$log" |
				head -n 10 | sed 's/^/# /'
			fail=$((fail + 1))
			continue
		fi
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	echo "ok $n - $name: $inputs corpus inputs, ${seconds}s of fuzzing (${execs:-0} runs)"
	pass=$((pass + 1))
done
printf '# TOTAL: %d\n# PASS:  %d\n# SKIP:  0\n# XFAIL: 0\n# FAIL:  %d\n# XPASS: 0\n# ERROR: 0\n' \
	"$n" "$pass" "$fail" >"$out/fuzz-suite.log"
[ "$fail" -eq 0 ]
