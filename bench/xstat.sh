#!/usr/bin/env bash
# bench/xstat.sh: xstat as a GNU stat drop-in over 100,000 files, against GNU stat through xargs,
# find -printf and the floor, a bare C statx loop (bench/src/stat-loop.c), in one run. A benchmark,
# not a test: it exits 0 once it has measured (1 only when it cannot run), and prints PASS/MISS.
#
#   cd BUILD && bash /path/to/fattrs/bench/xstat.sh     # uses ./xstat (or XSTAT=/path)
#   QUICK=1 bash ../bench/xstat.sh                       # smoke run, seconds
#
# What it measures, on a fresh tmpfs (as root, in a private mount namespace; not root: in the work
# dir) holding NDIRS x PER empty-ish files:
#  1. Time per file, interleaved rounds (round r starts at case r mod n), wall time of the whole
#     command from $EPOCHREALTIME, ratios paired (median over rounds of case / reference measured in
#     the same round). Every command runs in the corpus on relative names, output to /dev/null.
#       (a) stat-loop LIST                               the floor: statx + hand-formatted line
#       (x) xstat -c '%n %s %Y' --files0-from=LIST       one process
#       (c) xargs -0 stat -c '%n %s %Y' <LIST            GNU stat 9.1
#       (e) find . -type f -printf '%p %s %T@\n'         findutils (fractional %T@: more digits)
#       (xd) xargs -0 xstat-as-stat <DLIST               GNU's default output, xstat linked as stat
#       (d) xargs -0 stat <DLIST                         GNU's default output (re-reads passwd/group)
#     (d) and (xd) run on the first DSUB directories only (GNU's default output is slow); their
#     figures are per file, so they compare directly.
#  2. One file's start-up: STARTS runs of `stat FILE` and of xstat linked as stat, interleaved.
#  3. Syscalls per file from a full trace (strace -f -qq -o FILE, one line per call): xstat at
#     N/10 and 2N/10 files, the slope; and which calls they are.
#  4. Output check: xstat's bytes against GNU stat's for the same format and files.
#  6. The default view (xstat FILE under its own name) and --json, one process over the list,
#     against the bare loop of the view's calls (stat-loop -v: statx of every field, file_getattr,
#     llistxattr, a getxattr per user.fattr.* name), GNU stat's default output (on DLIST, per file),
#     xargs lsattr -d and xargs getfattr -d; paired ratios; syscalls per file from full traces.
#     One file in FATTR_EVERY carries user.fattr.offline=1, so the getxattr path is in the figures.
#
# Environment: XSTAT (binary), NDIRS (100), PER (1000), DSUB (10), ROUNDS (5, +1 warm-up),
# STARTS (300), FATTR_EVERY (10), QUICK=1 (NDIRS=10, DSUB=2, ROUNDS=2, STARTS=50), CC, TARGET
# (a directory on any filesystem, a network mount say: the corpus goes in a fresh directory made
# under it, removed at exit, instead of on a fresh tmpfs).
set -euo pipefail
export LC_ALL=C

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$(realpath "${BASH_SOURCE[0]}")")/lib.sh" # SELF, BENCH_DIR, BENCH_NAME

private_ns XSTAT_BENCH_NS "$@"

NDIRS=${NDIRS:-100}
PER=${PER:-1000}
DSUB=${DSUB:-10}
ROUNDS=${ROUNDS:-5}
STARTS=${STARTS:-300}
if [[ ${QUICK:-0} == 1 ]]; then
	NDIRS=10 DSUB=2 ROUNDS=2 STARTS=50
fi
N=$((NDIRS * PER))

find_binary XSTAT xstat
GNU_STAT=$(type -P stat)
"$GNU_STAT" --version | head -1 | grep -q 'GNU coreutils' || die "$GNU_STAT is not GNU stat"
FATTR_EVERY=${FATTR_EVERY:-10}
need_tools strace xargs find awk lsattr getfattr "${CC:-cc}"

bench_workdir xstat
build_c stat-loop flag-loop
LOOP=$WORK/bin/stat-loop
# xstat under the name "stat", for GNU's default output and messages
mkdir -p "$WORK/as-stat"
ln -s "$XSTAT" "$WORK/as-stat/stat"
XAS=$WORK/as-stat/stat

load_start
echo "# xstat against GNU stat: bench/xstat.sh"
echo
echo "machine: $(machine)"
echo "xstat: $XSTAT; $("$GNU_STAT" --version | head -1); $(find . -maxdepth 0 --version | head -1)"

C=$WORK/mnt/tmpfs
CFS=tmpfs
if [[ -n ${TARGET:-} ]]; then
	C=$WORK/mnt/target
	mount_fs target "$C"
	CFS=$(findmnt -no FSTYPE -T "$C" 2>/dev/null || "$GNU_STAT" -f -c %T "$C")
	echo "corpus: a fresh directory under TARGET=$TARGET ($CFS), $NDIRS dirs x $PER files = $N, 1-64 bytes each"
elif ((ROOT)); then
	mount_fs tmpfs "$C" 1024
	echo "corpus: fresh tmpfs, $NDIRS dirs x $PER files = $N, 1-64 bytes each"
else
	mkdir -p "$C"
	echo "NOT ROOT: corpus in $C ($("$GNU_STAT" -f -c %T "$C")), $N files"
fi
for ((d = 0; d < NDIRS; d++)); do
	dir=$(printf 'd%03d' "$d")
	mkdir "$C/$dir"
	(cd "$C/$dir" && for ((i = 0; i < PER; i++)); do printf '%*s' $((i % 64 + 1)) '' >"f$i"; done)
done
L=$WORK/list
DL=$WORK/dlist
(cd "$C" && find . -mindepth 2 -type f -printf '%P\0') >"$L"
(cd "$C" && find $(seq -f 'd%03g' 0 $((DSUB - 1))) -type f -print0) >"$DL"
ND=$(tr -cd '\0' <"$DL" | wc -c)
echo "lists: $(tr -cd '\0' <"$L" | wc -c) names; default-output subset: $ND names"

FMT='%n %s %Y'
CASES=(a x c e xd d)
declare -A CMD=(
	[a]="'$LOOP' '$L'"
	[x]="'$XSTAT' -c '$FMT' --files0-from='$L'"
	[c]="xargs -0 '$GNU_STAT' -c '$FMT' <'$L'"
	[e]="find . -type f -printf '%p %s %T@\\n'"
	[xd]="xargs -0 '$XAS' <'$DL'"
	[d]="xargs -0 '$GNU_STAT' <'$DL'"
)
declare -A LABEL=(
	[a]="(a) C statx loop, hand-formatted (floor)"
	[x]="**xstat -c '%n %s %Y' --files0-from=L**"
	[c]="(c) xargs -0 stat -c '%n %s %Y'"
	[e]="(e) find . -printf '%p %s %T@'"
	[xd]="**xargs -0 xstat-as-stat (GNU default output)**"
	[d]="(d) xargs -0 stat (GNU default output)"
)
declare -A COUNT=([a]=$N [x]=$N [c]=$N [e]=$N [xd]=$ND [d]=$ND)

# ------------------------------------------------------------------ 4. the output check (first: a
# wrong answer makes the times meaningless)
check=PASS
(cd "$C" && xargs -0 "$GNU_STAT" -c "$FMT" <"$L") >"$WORK/gnu.out"
(cd "$C" && "$XSTAT" -c "$FMT" --files0-from="$L") >"$WORK/xstat.out"
cmp -s "$WORK/gnu.out" "$WORK/xstat.out" || check="FAIL (xstat -c output differs from GNU stat)"
(cd "$C" && xargs -0 "$GNU_STAT" <"$DL") >"$WORK/gnu.def"
(cd "$C" && xargs -0 "$XAS" <"$DL") >"$WORK/xstat.def"
cmp -s "$WORK/gnu.def" "$WORK/xstat.def" || check="FAIL (the default output differs from GNU stat)"
(cd "$C" && "$LOOP" "$L") | cmp -s - "$WORK/gnu.out" || check="FAIL (the C loop's output differs)"
res check "$check"

# ------------------------------------------------------------------ 1. time per file
RAW=$WORK/raw
: >"$RAW"
run_case() {
	local k=${CASES[$1]} r=$2 t0 t1
	t0=$EPOCHREALTIME
	(cd "$C" && eval "${CMD[$k]}" >/dev/null)
	t1=$EPOCHREALTIME
	((r < 0)) || awk -v k="$k" -v r="$r" -v a="$t0" -v b="$t1" -v n="${COUNT[$k]}" \
		'BEGIN { printf "%s %d %.1f\n", k, r, (b - a) * 1e9 / n }' >>"$RAW"
}
interleave "$ROUNDS" "${#CASES[@]}" run_case

echo
echo "## 1. Time per file ($CFS, $ROUNDS rounds + warm-up, paired ratios: median over rounds)"
echo
{
	for k in "${CASES[@]}"; do printf 'L %s\t%s\n' "$k" "${LABEL[$k]}"; done
	cat "$RAW"
} | awk "$(awk_stats)"'
	function per(c, r) { return w[c, r] }
	/^L / { sub(/^L /, ""); split($0, f, "\t"); lab[f[1]] = f[2]; order[++no] = f[1]; next }
	{ w[$1, $2] = $3; have[$1] = 1; if ($2 + 1 > nr) nr = $2 + 1 }
	END {
		printf "| case | ns per file (median) | x floor (a), paired | x xargs stat -c (c), paired |\n|---|---:|---:|---:|\n"
		for (i = 1; i <= no; i++) {
			c = order[i]; m = 0
			for (r = 0; r < nr; r++) v[++m] = w[c, r]
			printf "| %s | %.0f | %.2f | %.2f |\n", lab[c], median(v, m), ratio(c, "a"), ratio(c, "c")
			printf "ns.%s %.0f\n", c, median(v, m) > "/dev/stderr"
		}
		printf "ratio.x.a %.3f\nratio.x.c %.3f\nratio.xd.d %.3f\nratio.x.e %.3f\n", ratio("x", "a"), ratio("x", "c"), ratio("xd", "d"), ratio("x", "e") > "/dev/stderr"
	}' 2>>"$RES"

# ------------------------------------------------------------------ 2. one file's start-up
F1=$C/d000/f1
: >"$WORK/starts"
start_case() {
	local r=$2 t0 t1 k
	case $1 in 0) k=gnu ;; 1) k=xstat ;; esac
	t0=$EPOCHREALTIME
	if [[ $k == gnu ]]; then "$GNU_STAT" "$F1" >/dev/null; else "$XAS" "$F1" >/dev/null; fi
	t1=$EPOCHREALTIME
	((r < 0)) || awk -v k="$k" -v r="$r" -v a="$t0" -v b="$t1" 'BEGIN { printf "%s %d %.1f\n", k, r, (b - a) * 1e6 }' >>"$WORK/starts"
}
interleave "$STARTS" 2 start_case
echo
echo "## 2. One file, default output: $STARTS runs each, interleaved"
echo
awk "$(awk_stats)"'
	function per(c, r) { return w[c, r] }
	{ w[$1, $2] = $3; have[$1] = 1; if ($2 + 1 > nr) nr = $2 + 1 }
	END {
		for (c in have) { m = 0; for (r = 0; r < nr; r++) v[++m] = w[c, r]; med[c] = median(v, m) }
		printf "| command | us per run (median) |\n|---|---:|\n| stat FILE (GNU) | %.0f |\n| xstat linked as stat, FILE | %.0f |\n\n", med["gnu"], med["xstat"]
		printf "paired ratio xstat / GNU stat: %.3f\n", ratio("xstat", "gnu")
		printf "ratio.start %.3f\n", ratio("xstat", "gnu") > "/dev/stderr"
	}' "$WORK/starts" 2>>"$RES"

# ------------------------------------------------------------------ 3. syscalls per file
echo
echo "## 3. System calls (full trace: strace -f -qq -o FILE, one line per call)"
echo
n1=$((N / 10)) n2=$((2 * N / 10))
awk -v RS='\0' -v ORS='\0' -v n="$n1" 'NR <= n' "$L" >"$WORK/l1"
awk -v RS='\0' -v ORS='\0' -v n="$n2" 'NR <= n' "$L" >"$WORK/l2"
(cd "$C" && strace -f -qq -o "$WORK/t1" "$XSTAT" -c "$FMT" --files0-from="$WORK/l1" >/dev/null)
(cd "$C" && strace -f -qq -o "$WORK/t2" "$XSTAT" -c "$FMT" --files0-from="$WORK/l2" >/dev/null)
c1=$(wc -l <"$WORK/t1") c2=$(wc -l <"$WORK/t2")
s1=$(grep -c ' statx(' "$WORK/t1") s2=$(grep -c ' statx(' "$WORK/t2")
per=$(awk -v a="$c1" -v b="$c2" -v n1="$n1" -v n2="$n2" 'BEGIN { printf "%.3f", (b - a) / (n2 - n1) }')
sper=$(awk -v a="$s1" -v b="$s2" -v n1="$n1" -v n2="$n2" 'BEGIN { printf "%.3f", (b - a) / (n2 - n1) }')
fixed=$(awk -v a="$c1" -v p="$per" -v n1="$n1" 'BEGIN { printf "%.0f", a - p * n1 }')
echo "xstat -c '$FMT' --files0-from: $per calls per file, of which $sper statx; $fixed calls of start-up and list reading"
echo "calls by name at $n2 files: $(sed -E 's/^[0-9]+ +//; s/\(.*//' "$WORK/t2" | sort | uniq -c | sort -rn | awk '{ printf "%s %s, ", $2, $1 }' | sed 's/, $//')"
(cd "$C" && strace -f -qq -o "$WORK/t3" "$XAS" d000/f1 >/dev/null)
echo "one 'stat FILE' (xstat as stat, default output): $(wc -l <"$WORK/t3") calls; GNU stat: $(cd "$C" && strace -f -qq -o "$WORK/t4" "$GNU_STAT" d000/f1 >/dev/null; wc -l <"$WORK/t4") calls"
res calls.per "$per"
res statx.per "$sper"

# ------------------------------------------------------------------ 6. the default view and --json
# user.fattr.offline on one file in FATTR_EVERY (after the checks above: GNU stat does not see it)
awk -v RS='\0' -v ORS='\0' -v e="$FATTR_EVERY" 'NR % e == 1' "$L" | (cd "$C" && xargs -0 "$WORK/bin/flag-loop" oset)
JSON=0
"$XSTAT" --json /dev/null >/dev/null 2>&1 && JSON=1
VCASES=(b v gd l g)
((JSON)) && VCASES+=(j)
CMD+=(
	[b]="'$LOOP' -v '$L'"
	[v]="'$XSTAT' --files0-from='$L'"
	[j]="'$XSTAT' --json --files0-from='$L'"
	[gd]="xargs -0 '$GNU_STAT' <'$DL'"
	[l]="xargs -0 lsattr -d <'$L'"
	[g]="xargs -0 getfattr -d <'$L'"
)
LABEL+=(
	[b]="(b) C loop: statx + file_getattr + llistxattr (+ getxattr) (floor)"
	[v]="**(v) xstat --files0-from=L (default view)**"
	[j]="**(j) xstat --json --files0-from=L**"
	[gd]="(gd) xargs -0 stat (GNU default output, on the subset)"
	[l]="(l) xargs -0 lsattr -d"
	[g]="(g) xargs -0 getfattr -d"
)
COUNT+=([b]=$N [v]=$N [j]=$N [gd]=$ND [l]=$N [g]=$N)
declare -A REF=([v]=b [j]=v [gd]=v [l]=v [g]=v) REF2=([v]=gd [j]=b)
VRAW=$WORK/vraw
: >"$VRAW"
declare -A VFAILED=()
# the whole run's time scaled to N files, as paired_table reads it
run_vcase() {
	local k=${VCASES[$1]} r=$2 t0 t1
	t0=$EPOCHREALTIME
	# A tool that fails on this filesystem (lsattr where there are no kernel flags: ENOTTY)
	# is still timed, and said so under the table.
	(cd "$C" && eval "${CMD[$k]}" >/dev/null 2>&1) || VFAILED[$k]=1
	t1=$EPOCHREALTIME
	((r < 0)) || awk -v k="$k" -v r="$r" -v a="$t0" -v b="$t1" -v c="${COUNT[$k]}" -v n="$N" \
		'BEGIN { printf "%s %d %.1f\n", k, r, (b - a) * 1e9 * n / c }' >>"$VRAW"
}
interleave "$ROUNDS" "${#VCASES[@]}" run_vcase
echo
echo "## 6. The default view and --json ($CFS, one file in $FATTR_EVERY with user.fattr.offline; paired ratios)"
echo
((JSON)) || echo "(this xstat has no --json: its case is left out)"
paired_table view "$VRAW" "${VCASES[*]}" ref "not measured"
for k in "${!VFAILED[@]}"; do
	echo
	echo "${LABEL[$k]}: exit status not 0 here (it failed on some files: timed all the same)"
done
echo
(cd "$C" && strace -f -qq -o "$WORK/tv1" "$XSTAT" --files0-from="$WORK/l1" >/dev/null)
(cd "$C" && strace -f -qq -o "$WORK/tv2" "$XSTAT" --files0-from="$WORK/l2" >/dev/null)
trace_slope "$n1" "$n2" "$WORK/tv1" "$WORK/tv2"
echo "default view: $TRACE_SLOPE calls per file ($TRACE_BYNAME); $TRACE_ONCE calls of start-up and list reading"
res vcalls.per "$TRACE_SLOPE"
if ((JSON)); then
	(cd "$C" && strace -f -qq -o "$WORK/tj1" "$XSTAT" --json --files0-from="$WORK/l1" >/dev/null)
	(cd "$C" && strace -f -qq -o "$WORK/tj2" "$XSTAT" --json --files0-from="$WORK/l2" >/dev/null)
	trace_slope "$n1" "$n2" "$WORK/tj1" "$WORK/tj2"
	echo "--json: $TRACE_SLOPE calls per file ($TRACE_BYNAME); $TRACE_ONCE calls of start-up and list reading"
	res jcalls.per "$TRACE_SLOPE"
fi

# ------------------------------------------------------------------ 5. summary
echo
echo "## Summary"
echo
echo "| target | measured | limit | |"
echo "|---|---:|---:|---|"
row "xstat -c --files0-from x C statx loop (paired)" ratio.x.a '<=' 1.30
v=$(get ratio.x.c); echo "| xstat -c --files0-from x xargs stat -c (paired) | $v | < 1.00 | $(verdict "$v" '<=' 0.999) |"
row "statx per file" statx.per '<=' 1
row "one file's start-up, xstat as stat x stat (paired)" ratio.start '<=' 1.00
v=$(get ratio.xd.d); echo "| GNU default output, xstat as stat x GNU stat (paired) | $v | <= 0.333 (3x faster) | $(verdict "$v" '<=' 0.3334) |"
row "default view x GNU stat's default output (paired; 3x faster)" ratio.view.v.gd '<=' 0.3334
row "default view x C loop of its calls (paired)" ratio.view.v.b '<=' 1.50
row "--json x default view (paired)" ratio.view.j.v '<=' 1.20
row "default view: system calls per file" vcalls.per '<=' 4 %.2f
echo "| output identical to GNU stat's | $(get check) | | |"
echo
echo "ns per file: floor $(get ns.a), xstat $(get ns.x), xargs stat -c $(get ns.c), find -printf $(get ns.e), default output: xstat-as-stat $(get ns.xd), GNU stat $(get ns.d)"
echo
load_report
