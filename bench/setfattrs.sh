#!/usr/bin/env bash
# bench/setfattrs.sh: setfattrs setting then clearing a flag on N files (10 directories x N/10),
# listed on the command line and with -R, against a bare C loop of the essential system calls
# (bench/src/flag-loop.c), setfattr(1), chattr(1) and xfs_io(8), as paired ratios in one run, plus
# system calls per file from a full trace. A benchmark, not a test: it exits 0 once it has
# measured (1 only when it cannot run), and prints PASS/MISS against issue 8's targets.
#
#   cd BUILD && bash /path/to/fattrs/bench/setfattrs.sh   # measures ./src/setfattrs
#   SETFATTRS=/path/to/setfattrs bash bench/setfattrs.sh   # any binary
#   QUICK=1 bash bench/setfattrs.sh                        # smoke run, seconds
#
# What it measures:
#  1. Time, per filesystem: every case is one process over all N files (start-up included,
#     amortised over N), timed by bench/src/runt.c (CLOCK_MONOTONIC around fork/wait), in
#     interleaved rounds (round r starts at case r mod n); before each timed run, untimed, the
#     files are put in the opposite state, then `sync -f`. Ratios are medians of same-round ratios.
#  2. System calls per file of each setfattrs case from a full trace (strace -f -qq -o), at N/10
#     and 3N/10 files: the slope is per file, the intercept the one-time cost (start-up, probes).
#     First filesystem only.
#  3. Summary: PASS/MISS against the targets: +offline within 1.6x the bare setxattr loop; at most
#     2 system calls per file beyond the walk for +offline (the opposite's check and the write;
#     the walk is one fstatat per file); -offline one removexattr per file; +nodump at least 2.5x
#     faster than chattr in the same run (ratio <= 0.4).
#
# Environment: N (10000), ROUNDS (5, plus 1 warm-up), FSLIST ("tmpfs ext4", root only), QUICK=1
# (N=1000 ROUNDS=2), SETFATTRS, CC. As root it runs in a private mount namespace with fresh
# mounts (bench/lib.sh); not root, it measures in its work dir under /tmp.
set -euo pipefail
export LC_ALL=C

SELF=$(realpath "${BASH_SOURCE[0]}")
BENCH_DIR=$(dirname "$SELF")
BENCH_NAME=setfattrs.sh
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$BENCH_DIR/lib.sh"

private_ns SETFATTRS_BENCH_NS "$@"

N=${N:-10000}
ROUNDS=${ROUNDS:-5}
NDIRS=10
if [[ ${QUICK:-0} == 1 ]]; then
	N=1000 ROUNDS=2
fi
PER=$(((N + NDIRS - 1) / NDIRS))
N=$((PER * NDIRS))

if [[ -z ${SETFATTRS:-} ]]; then
	for c in ./src/setfattrs "$BENCH_DIR/../src/setfattrs"; do
		[[ -x $c ]] && { SETFATTRS=$c; break; }
	done
	[[ -n ${SETFATTRS:-} ]] || SETFATTRS=$(command -v setfattrs || true)
	[[ -n $SETFATTRS ]] || die "no setfattrs found: run from the build dir, or set SETFATTRS=/path/to/setfattrs"
fi
SETFATTRS=$(realpath "$SETFATTRS")
need_tools strace awk sync setfattr chattr "${CC:-cc}"
HAVE_XFS_IO=0
command -v xfs_io >/dev/null && HAVE_XFS_IO=1

bench_workdir setfattrs
build_c flag-loop runt
LOOP=$WORK/bin/flag-loop
RUNT=$WORK/bin/runt
default_fslist

LOAD_START=$(cut -d' ' -f1 /proc/loadavg)
echo "# setfattrs vs the bare system calls, setfattr, chattr and xfs_io: bench/setfattrs.sh"
echo
echo "machine: $(machine)"
echo "setfattrs: $SETFATTRS ($(date -u -r "$SETFATTRS" +%Y-%m-%dT%H:%MZ))"
echo "N=$N files ($NDIRS dirs x $PER), ROUNDS=$ROUNDS (+1 warm-up); one process per case, start-up included"

# ------------------------------------------------------------------ the cases
GROUPS_=(oset oclr nset nclr)
declare -A TITLE=([oset]="+offline" [oclr]="-offline" [nset]="+nodump" [nclr]="-nodump")
# the untimed reset before each run: the opposite state
declare -A RESET=([oset]=-offline [oclr]=+offline [nset]=-nodump [nclr]=+nodump)
declare -A OP=([oset]=+offline [oclr]=-offline [nset]=+nodump [nclr]=-nodump)
declare -A CASES=(
	[oset]="loop-oset loop-oset-opp setfattr-oset sf-oset sf-R-oset"
	[oclr]="loop-oclr setfattr-oclr sf-oclr sf-R-oclr"
	[nset]="loop-nset chattr-nset chattr-R-nset xfsio-nset sf-nset sf-R-nset"
	[nclr]="loop-nclr chattr-nclr chattr-R-nclr sf-nclr sf-R-nclr"
)
declare -A LABEL=(
	[loop-oset]="bare setxattr loop (limit)"
	[loop-oset-opp]="bare lgetxattr(opposite) + setxattr loop"
	[setfattr-oset]="setfattr -n user.fattr.offline -v 1 FILE..."
	[sf-oset]="**setfattrs +offline FILE...**"
	[sf-R-oset]="**setfattrs -R +offline DIR**"
	[loop-oclr]="bare removexattr loop (limit)"
	[setfattr-oclr]="setfattr -x user.fattr.offline FILE..."
	[sf-oclr]="**setfattrs -offline FILE...**"
	[sf-R-oclr]="**setfattrs -R -offline DIR**"
	[loop-nset]="bare file_getattr + file_setattr loop (limit)"
	[chattr-nset]="chattr +d FILE..."
	[chattr-R-nset]="chattr -R +d DIR"
	[xfsio-nset]="xfs_io -c 'open F' -c 'chattr +d' -c close ..."
	[sf-nset]="**setfattrs +nodump FILE...**"
	[sf-R-nset]="**setfattrs -R +nodump DIR**"
	[loop-nclr]="bare file_getattr + file_setattr loop (limit)"
	[chattr-nclr]="chattr -d FILE..."
	[chattr-R-nclr]="chattr -R -d DIR"
	[sf-nclr]="**setfattrs -nodump FILE...**"
	[sf-R-nclr]="**setfattrs -R -nodump DIR**"
)
# the case each is compared with in the same round
declare -A REF=([loop-oset-opp]=loop-oset [setfattr-oset]=loop-oset [sf-oset]=loop-oset [sf-R-oset]=loop-oset
	[setfattr-oclr]=loop-oclr [sf-oclr]=loop-oclr [sf-R-oclr]=loop-oclr
	[chattr-nset]=loop-nset [chattr-R-nset]=loop-nset [xfsio-nset]=loop-nset [sf-nset]=chattr-nset
	[sf-R-nset]=chattr-R-nset [chattr-nclr]=loop-nclr [chattr-R-nclr]=loop-nclr [sf-nclr]=chattr-nclr
	[sf-R-nclr]=chattr-R-nclr)
declare -A REF2=([sf-oset]=setfattr-oset [sf-oclr]=setfattr-oclr [sf-nset]=loop-nset [sf-nclr]=loop-nclr
	[sf-R-nset]=loop-nset)

# cmd CASE: the command line of CASE, run in the corpus $C (FILES relative to it)
cmd() {
	case $1 in
	loop-oset) echo "$LOOP" oset ;;
	loop-oset-opp) echo "$LOOP" oset-opp ;;
	loop-oclr) echo "$LOOP" oclr ;;
	loop-nset) echo "$LOOP" nset ;;
	loop-nclr) echo "$LOOP" nclr ;;
	setfattr-oset) echo setfattr -n user.fattr.offline -v 1 ;;
	setfattr-oclr) echo setfattr -x user.fattr.offline ;;
	chattr-nset) echo chattr +d ;;
	chattr-nclr) echo chattr -d ;;
	sf-oset) echo "$SETFATTRS" +offline ;;
	sf-oclr) echo "$SETFATTRS" -offline ;;
	sf-nset) echo "$SETFATTRS" +nodump ;;
	sf-nclr) echo "$SETFATTRS" -nodump ;;
	*) die "no command line for $1" ;;
	esac
}

# run CASE: CASE over every file (or the tree), with runt's line on stdout
run() {
	local c=$1
	local -a argv
	case $c in
	sf-R-*) (cd "$C" && "$RUNT" -- "$SETFATTRS" -R "${OP[${c#sf-R-}]}" . 2>/dev/null) ;;
	chattr-R-nset) (cd "$C" && "$RUNT" -- chattr -R +d . 2>/dev/null) ;;
	chattr-R-nclr) (cd "$C" && "$RUNT" -- chattr -R -d . 2>/dev/null) ;;
	xfsio-nset) (cd "$C" && "$RUNT" -- xfs_io "${XFSIO_ARGS[@]}" 2>/dev/null) ;;
	*)
		read -ra argv <<<"$(cmd "$c")"
		(cd "$C" && "$RUNT" -- "${argv[@]}" "${FILES[@]}" 2>/dev/null)
		;;
	esac
}

# reset GROUP: untimed, every file (and directory) in the opposite state
reset() {
	local op=${RESET[$1]}
	(cd "$C" && "$SETFATTRS" -R "$op" . 2>/dev/null) || true
	sync -f "$C"
}

# run_case FS RAW GROUP INDEX ROUND
run_case() {
	local fs=$1 raw=$2 g=$3 i=$4 r=$5 out
	local -a cases
	read -ra cases <<<"${CASES[$g]}"
	local c=${cases[i]}
	if [[ $c == xfsio-* ]] && ((!HAVE_XFS_IO)); then return 0; fi
	reset "$g"
	out=$(run "$c") || true
	# runt: WALL_NS USER_NS SYS_NS MAXRSS_KIB EXIT
	# shellcheck disable=SC2086 # five numbers
	set -- $out
	if [[ ${5:-1} != 0 ]]; then
		note "FAILED: $fs $c (round $r): exit ${5:-?}"
		res "failed.$fs.$c" 1
		return 0
	fi
	((r < 0)) || printf '%s %s %s\n' "$c" "$r" "$1" >>"$raw"
}

summarise() { # FS GROUP RAW
	local fs=$1 g=$2 raw=$3 c labels="" refs=""
	for c in ${CASES[$g]}; do
		labels+="$c"$'\t'"${LABEL[$c]}"$'\n'
		refs+="$c ${REF[$c]:--} ${REF2[$c]:--}"$'\n'
	done
	LABELS_STR=$labels REFS_STR=$refs CASES_STR=${CASES[$g]} awk -v fs="$fs" -v n="$N" -v res="$RES" "$(awk_stats)"'
	function per(c, r) { return w[c, r] / n }
	function pr(a, b,   r, q, m, lo, hi, x) {
		m = 0; lo = 1e9; hi = 0
		for (r = 0; r < nr; r++) if (((a, r) in w) && ((b, r) in w)) {
			x = per(a, r) / per(b, r); q[++m] = x; if (x < lo) lo = x; if (x > hi) hi = x
		}
		if (m == 0) return "n/a"
		PRMED = median(q, m)
		return sprintf("%.3f (%.2f-%.2f)", PRMED, lo, hi)
	}
	BEGIN {
		k = split(ENVIRON["CASES_STR"], id, " ")
		split(ENVIRON["LABELS_STR"], ll, "\n"); for (i in ll) if (ll[i] != "") { split(ll[i], f, "\t"); lab[f[1]] = f[2] }
		split(ENVIRON["REFS_STR"], rl, "\n"); for (i in rl) if (rl[i] != "") { split(rl[i], f, " "); ref[f[1]] = f[2]; ref2[f[1]] = f[3] }
	}
	{ w[$1, $2] = $3; if ($2 + 1 > nr) nr = $2 + 1 }
	END {
		printf "| case | per file (median) | x ref, paired (min-max) | ref | x 2nd ref | 2nd ref |\n"
		printf "|---|---:|---:|---|---:|---|\n"
		for (i = 1; i <= k; i++) {
			c = id[i]; m = 0
			for (r = 0; r < nr; r++) if ((c, r) in w) a[++m] = per(c, r)
			if (m == 0) { printf "| %s | not measured | | | | |\n", lab[c]; continue }
			med = median(a, m)
			print "perfile." fs "." c, med >> res
			r1 = "-"; r2 = "-"
			if (ref[c] != "-") { r1 = pr(c, ref[c]); if (r1 != "n/a") print "ratio." fs "." c "." ref[c], PRMED >> res }
			if (ref2[c] != "-") { r2 = pr(c, ref2[c]); if (r2 != "n/a") print "ratio." fs "." c "." ref2[c], PRMED >> res }
			printf "| %s | %.2f us | %s | %s | %s | %s |\n", lab[c], med / 1000, r1, (ref[c] == "-" ? "" : ref[c]), r2, (ref2[c] == "-" ? "" : ref2[c])
		}
	}' "$raw"
}

# ------------------------------------------------------------------ syscalls (strace)
count() { grep -cE '^[0-9]+ +[a-z_0-9]+\(' "$1" || true; }
names() { sed -nE 's/^[0-9]+ +([a-z_0-9]+)\(.*/\1/p' "$1" | sort | uniq -c | awk '{print $2, $1}' | sort; }
syscalls() { # FS
	local c op S1=$((N / 10)) S2=$((N * 3 / 10)) c1 c2 slope icpt byname
	echo
	echo "## 2. $1: system calls per file (strace -f -qq -o FILE, full trace; slope $S1 -> $S2 files)"
	echo
	echo "file_getattr = syscall_0x1d4, file_setattr = syscall_0x1d5 (Debian 12's strace 6.1 has no names for them)."
	echo
	echo "| case | per file | one-time | by name, per file |"
	echo "|---|---:|---:|---|"
	for c in sf-oset sf-oclr sf-nset sf-nclr; do
		local g=${c#sf-}
		op=${OP[$g]}
		reset "$g"
		(cd "$C" && strace -f -qq -o "$WORK/s1" "$SETFATTRS" "$op" "${FILES[@]:0:S1}" 2>/dev/null) || note "traced $c failed"
		reset "$g"
		(cd "$C" && strace -f -qq -o "$WORK/s2" "$SETFATTRS" "$op" "${FILES[@]:0:S2}" 2>/dev/null) || note "traced $c failed"
		c1=$(count "$WORK/s1") c2=$(count "$WORK/s2")
		slope=$(awk -v a="$c1" -v b="$c2" -v x="$S1" -v y="$S2" 'BEGIN { printf "%.2f", (b - a) / (y - x) }')
		icpt=$(awk -v a="$c1" -v s="$slope" -v x="$S1" 'BEGIN { v = a - s * x; printf "%d", v < 0 ? v - 0.5 : v + 0.5 }')
		byname=$(join -a2 -e0 -o 2.1,1.2,2.2 <(names "$WORK/s1") <(names "$WORK/s2") |
			awk -v x="$S1" -v y="$S2" '{ d = ($3 - $2) / (y - x); sub(/^syscall_0x1d4$/, "file_getattr", $1); sub(/^syscall_0x1d5$/, "file_setattr", $1)
				if (d >= 0.005) printf "%s%s %.2f", (n++ ? ", " : ""), $1, d }')
		printf '| %s | %s | %s | %s |\n' "${LABEL[$c]}" "$slope" "$icpt" "$byname"
		res "sys.$c" "$slope"
		res "sysnames.$c" "$byname"
		# the walk: one fstatat per file named on the command line
		res "sysbeyond.$c" "$(awk -v s="$slope" -v b="$byname" 'BEGIN { n = split(b, p, ", "); w = 0
			for (i = 1; i <= n; i++) if (p[i] ~ /^newfstatat /) { split(p[i], q, " "); w = q[2] }
			printf "%.2f", s - w }')"
	done
}

# ------------------------------------------------------------------ the run
first_fs=
for fs in $FSLIST; do
	MNT=$WORK/mnt/$fs
	mount_fs "$fs" "$MNT"
	[[ -n $first_fs ]] || first_fs=$fs
	C=$MNT/c
	mkdir -p "$C"
	FILES=()
	XFSIO_ARGS=()
	for ((d = 0; d < NDIRS; d++)); do
		mkdir -p "$C/d$d"
		(cd "$C/d$d" && seq -f "f%05g" "$PER" | xargs touch)
		for ((i = 1; i <= PER; i++)); do
			f=$(printf 'd%d/f%05d' "$d" "$i")
			FILES+=("$f")
			XFSIO_ARGS+=(-c "open $f" -c "chattr +d" -c close)
		done
	done
	sync -f "$C"
	echo
	echo "## 1. $fs ($(findmnt -no FSTYPE -T "$MNT" 2>/dev/null || stat -f -c %T "$MNT"), $N files in $NDIRS dirs): time per file, $ROUNDS interleaved rounds"
	for g in "${GROUPS_[@]}"; do
		raw=$WORK/raw.$fs.$g
		: >"$raw"
		read -ra cs <<<"${CASES[$g]}"
		interleave "$ROUNDS" ${#cs[@]} run_case "$fs" "$raw" "$g"
		echo
		echo "### $fs: ${TITLE[$g]}"
		echo
		summarise "$fs" "$g" "$raw"
	done
	[[ $fs != "$first_fs" ]] || syscalls "$fs"
	umount_fs "$MNT"
done

# ------------------------------------------------------------------ summary
verdict() { # VALUE OP LIMIT
	awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
		if (v == "n/a" || v == "") { print "n/a"; exit }
		ok = (op == "<=") ? v + 0 <= l + 0.005 : (v + 0 >= l - 0.005 && v + 0 <= l + 0.005)
		print ok ? "PASS" : "MISS"
	}'
}
fmt() { awk -v v="$1" -v f="$2" 'BEGIN { if (v == "n/a" || v == "") print "n/a"; else printf f, v }'; }
row() { # TEXT KEY OP LIMIT [FORMAT]
	local v
	v=$(get "$2")
	echo "| $1 | $(fmt "$v" "${5:-%.3f}") | $3 $4 | $(verdict "$v" "$3" "$4") |"
}
echo
echo "## Summary"
echo
echo "machine: $(machine)"
echo
echo "| target (issue 8 item 7) | measured | limit | verdict |"
echo "|---|---:|---:|---|"
for fs in $FSLIST; do
	row "$fs: setfattrs +offline FILE... x bare setxattr loop" "ratio.$fs.sf-oset.loop-oset" '<=' 1.6
	row "$fs: setfattrs -R +offline x bare setxattr loop" "ratio.$fs.sf-R-oset.loop-oset" '<=' 1.6
	row "$fs: setfattrs +nodump FILE... x chattr +d FILE... (2.5x faster)" "ratio.$fs.sf-nset.chattr-nset" '<=' 0.4
	row "$fs: setfattrs -R +nodump x chattr -R +d (2.5x faster)" "ratio.$fs.sf-R-nset.chattr-R-nset" '<=' 0.4
	echo "| $fs: info: setfattrs -offline x removexattr loop; x setfattr -x | $(fmt "$(get "ratio.$fs.sf-oclr.loop-oclr")" %.3f); $(fmt "$(get "ratio.$fs.sf-oclr.setfattr-oclr")" %.3f) | | info |"
	echo "| $fs: info: setfattrs +offline x setfattr -n -v 1 | $(fmt "$(get "ratio.$fs.sf-oset.setfattr-oset")" %.3f) | | info |"
	echo "| $fs: info: setfattrs +nodump / -nodump x bare file_getattr+file_setattr loop | $(fmt "$(get "ratio.$fs.sf-nset.loop-nset")" %.3f) / $(fmt "$(get "ratio.$fs.sf-nclr.loop-nclr")" %.3f) | | info |"
	echo "| $fs: info: chattr +d x bare loop; xfs_io x bare loop | $(fmt "$(get "ratio.$fs.chattr-nset.loop-nset")" %.3f); $(fmt "$(get "ratio.$fs.xfsio-nset.loop-nset")" %.3f) | | info |"
done
row "system calls per file beyond the walk (fstatat), +offline ($(get sysnames.sf-oset))" sysbeyond.sf-oset '<=' 2 %.2f
row "system calls per file beyond the walk, -offline ($(get sysnames.sf-oclr))" sysbeyond.sf-oclr '==' 1 %.2f
echo "| system calls per file, +nodump / -nodump ($(get sysnames.sf-nset) / $(get sysnames.sf-nclr)) | $(get sys.sf-nset) / $(get sys.sf-nclr) | | info |"
echo
LOAD_END=$(cut -d' ' -f1 /proc/loadavg)
echo "1-minute load: $LOAD_START at the start, $LOAD_END at the end, on $(nproc) CPUs."
if awk -v a="$LOAD_START" -v b="$LOAD_END" -v n="$(nproc)" 'BEGIN { exit !(a > n || b > n) }'; then
	echo "WARNING: the load exceeded the CPU count: the times and ratios above are not reliable (the system call counts are); run again when the machine is quiet."
fi
