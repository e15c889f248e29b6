#!/usr/bin/env bash
# bench/setfattrs.sh: setfattrs setting then clearing a flag on N files (10 directories x N/10),
# listed on the command line and with -R, against a bare C loop of the essential system calls
# (bench/src/flag-loop.c), setfattr(1), chattr(1) and xfs_io(8), as paired ratios in one run, plus
# system calls per file from a full trace. A benchmark, not a test: it exits 0 once it has
# measured (1 only when it cannot run), and prints PASS/MISS against its targets (bench/README.md).
#
#   cd BUILD && bash /path/to/fattrs/bench/setfattrs.sh   # measures ./setfattrs
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
#  3. Summary: PASS/MISS against the targets: +offline within 1.15x a bare loop of the same three
#     calls (setfattrs(1) "Races and durability": the opposite's check, the write, the opposite's
#     check again; the bare setxattr loop is info); at most
#     3 system calls per file beyond the walk for +offline (those three;
#     the walk is an fstatat per file where setfattrs must stat, none where every mount is of a
#     type setfattrs(1) trusts, "The read-back", and the calls made once per directory of the
#     operands: openat, fchdir, close, fstat, fstatfs); -offline one removexattr per file; +nodump at least 2.5x
#     faster than chattr in the same run (ratio <= 0.4); +nodump and -nodump at most 2 system calls
#     per file (file_getattr and file_setattr by name: the corpus directories are root's, 0755, so
#     setfattrs(1) "Races and durability" needs no pin; no stat of setfattrs' own). For comparison
#     (info): +nodump with the directories made sticky and world-writable (1777), where each file is
#     pinned first (O_PATH open, file_getattr and file_setattr through /proc/self/fd, close).
#
# Environment: N (10000), ROUNDS (5, plus 1 warm-up), FSLIST ("tmpfs ext4", root only; "target"
# with TARGET=DIR: a fresh directory under DIR, any filesystem), SF_GROUPS (the groups measured,
# "oset oclr nset nclr": +offline, -offline, +nodump, -nodump; "oset oclr" where the filesystem has
# no kernel flags, GlusterFS say), QUICK=1 (N=1000 ROUNDS=2), SETFATTRS, CC. As root it runs in a private mount namespace with fresh
# mounts (bench/lib.sh); not root, it measures in its work dir under /tmp.
set -euo pipefail
export LC_ALL=C

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$(realpath "${BASH_SOURCE[0]}")")/lib.sh" # SELF, BENCH_DIR, BENCH_NAME

private_ns SETFATTRS_BENCH_NS "$@"

N=${N:-10000}
ROUNDS=${ROUNDS:-5}
NDIRS=10
if [[ ${QUICK:-0} == 1 ]]; then
	N=1000 ROUNDS=2
fi
PER=$(((N + NDIRS - 1) / NDIRS))
N=$((PER * NDIRS))

find_binary SETFATTRS setfattrs
need_tools strace awk sync setfattr chattr "${CC:-cc}"
HAVE_XFS_IO=0
command -v xfs_io >/dev/null && HAVE_XFS_IO=1

bench_workdir setfattrs
build_c flag-loop runt
LOOP=$WORK/bin/flag-loop
RUNT=$WORK/bin/runt
default_fslist

load_start
echo "# setfattrs vs the bare system calls, setfattr, chattr and xfs_io: bench/setfattrs.sh"
echo
echo "machine: $(machine)"
echo "setfattrs: $SETFATTRS ($(date -u -r "$SETFATTRS" +%Y-%m-%dT%H:%MZ))"
echo "N=$N files ($NDIRS dirs x $PER), ROUNDS=$ROUNDS (+1 warm-up); one process per case, start-up included"

# ------------------------------------------------------------------ the cases
# shellcheck disable=SC2206 # a list of words
GROUPS_=(${SF_GROUPS:-oset oclr nset nclr})
declare -A TITLE=([oset]="+offline" [oclr]="-offline" [nset]="+nodump" [nclr]="-nodump")
# the untimed reset before each run: the opposite state
declare -A RESET=([oset]=-offline [oclr]=+offline [nset]=-nodump [nclr]=+nodump)
declare -A OP=([oset]=+offline [oclr]=-offline [nset]=+nodump [nclr]=-nodump)
declare -A CASES=(
	[oset]="loop-oset loop-oset-opp loop-oset-race setfattr-oset sf-oset sf-R-oset"
	[oclr]="loop-oclr setfattr-oclr sf-oclr sf-R-oclr"
	[nset]="loop-nset chattr-nset chattr-R-nset xfsio-nset sf-nset sf-R-nset sf-S-nset"
	[nclr]="loop-nclr chattr-nclr chattr-R-nclr sf-nclr sf-R-nclr"
)
declare -A LABEL=(
	[loop-oset]="bare setxattr loop (limit)"
	[loop-oset-opp]="bare lgetxattr(opposite) + setxattr loop"
	[loop-oset-race]="bare lgetxattr(opposite) + setxattr + lgetxattr(opposite) loop (the race rule)"
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
	[sf-S-nset]="setfattrs +nodump FILE..., directories 1777 (each file pinned)"
	[loop-nclr]="bare file_getattr + file_setattr loop (limit)"
	[chattr-nclr]="chattr -d FILE..."
	[chattr-R-nclr]="chattr -R -d DIR"
	[sf-nclr]="**setfattrs -nodump FILE...**"
	[sf-R-nclr]="**setfattrs -R -nodump DIR**"
)
# the case each is compared with in the same round
declare -A REF=([loop-oset-opp]=loop-oset [loop-oset-race]=loop-oset [setfattr-oset]=loop-oset [sf-oset]=loop-oset [sf-R-oset]=loop-oset
	[setfattr-oclr]=loop-oclr [sf-oclr]=loop-oclr [sf-R-oclr]=loop-oclr
	[chattr-nset]=loop-nset [chattr-R-nset]=loop-nset [xfsio-nset]=loop-nset [sf-nset]=chattr-nset
	[sf-R-nset]=chattr-R-nset [sf-S-nset]=chattr-nset [chattr-nclr]=loop-nclr [chattr-R-nclr]=loop-nclr [sf-nclr]=chattr-nclr
	[sf-R-nclr]=chattr-R-nclr)
declare -A REF2=([sf-oset]=loop-oset-race [sf-R-oset]=loop-oset-race [sf-oclr]=setfattr-oclr [sf-nset]=loop-nset [sf-nclr]=loop-nclr
	[sf-R-nset]=loop-nset [sf-S-nset]=loop-nset)

# cmd CASE: the command line of CASE, run in the corpus $C (FILES relative to it)
cmd() {
	case $1 in
	loop-oset) echo "$LOOP" oset ;;
	loop-oset-opp) echo "$LOOP" oset-opp ;;
	loop-oset-race) echo "$LOOP" oset-race ;;
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
	sf-S-*)
		# the same files, in directories anyone can write: the chmods are not timed
		(cd "$C" && chmod 1777 d[0-9]* && "$RUNT" -- "$SETFATTRS" "${OP[${c#sf-S-}]}" "${FILES[@]}" 2>/dev/null
			rc=$?
			chmod 0755 d[0-9]*
			exit "$rc")
		;;
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

# ------------------------------------------------------------------ syscalls (strace)
syscalls() { # FS
	local c g op S1=$((N / 10)) S2=$((N * 3 / 10))
	echo
	echo "## 2. $1: system calls per file (strace -f -qq -o FILE, full trace; slope $S1 -> $S2 files)"
	echo
	echo "file_getattr = syscall_0x1d4, file_setattr = syscall_0x1d5 (Debian 12's strace 6.1 has no names for them)."
	echo
	echo "| case | per file | one-time | by name, per file |"
	echo "|---|---:|---:|---|"
	for g in "${GROUPS_[@]}"; do
		c=sf-$g
		op=${OP[$g]}
		reset "$g"
		(cd "$C" && strace -f -qq -o "$WORK/s1" "$SETFATTRS" "$op" "${FILES[@]:0:S1}" 2>/dev/null) || note "traced $c failed"
		reset "$g"
		(cd "$C" && strace -f -qq -o "$WORK/s2" "$SETFATTRS" "$op" "${FILES[@]:0:S2}" 2>/dev/null) || note "traced $c failed"
		trace_slope "$S1" "$S2" "$WORK/s1" "$WORK/s2"
		printf '| %s | %s | %s | %s |\n' "${LABEL[$c]}" "$TRACE_SLOPE" "$TRACE_ONCE" "$TRACE_BYNAME"
		res "sys.$c" "$TRACE_SLOPE"
		res "sysnames.$c" "$TRACE_BYNAME"
		# the walk: a statx per file named on the command line, if setfattrs stats them (an
		# fstatat where statx is missing), and what it costs per directory (entering one:
		# openat, close; whether its changes can go by name: newfstatat, fstatfs, geteuid),
		# which is well under one call per file with N/10 files in each
		res "sysbeyond.$c" "$(awk -v b="$TRACE_BYNAME" 'BEGIN { n = split(b, p, ", "); t = 0
			for (i = 1; i <= n; i++) { split(p[i], q, " "); if (q[1] != "newfstatat" && q[1] != "statx" && q[2] >= 0.5) t += q[2] }
			printf "%.2f", t }')"
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
	measure_groups "$fs" ref "not measured"
	[[ $fs != "$first_fs" ]] || syscalls "$fs"
	umount_fs "$MNT"
done

# ------------------------------------------------------------------ summary
VERDICT_SLACK=0.005 # a ratio printed as the limit passes
echo
echo "## Summary"
echo
echo "machine: $(machine)"
echo
echo "| target | measured | limit | verdict |"
echo "|---|---:|---:|---|"
for fs in $FSLIST; do
	row "$fs: setfattrs +offline FILE... x bare loop of the race rule's 3 calls" "ratio.$fs.sf-oset.loop-oset-race" '<=' 1.15
	row "$fs: setfattrs -R +offline x bare loop of the race rule's 3 calls" "ratio.$fs.sf-R-oset.loop-oset-race" '<=' 1.15
	echo "| $fs: info: setfattrs +offline FILE... / -R x bare setxattr loop; the 3-call loop x the same | $(fmt "$(get "ratio.$fs.sf-oset.loop-oset")" %.3f) / $(fmt "$(get "ratio.$fs.sf-R-oset.loop-oset")" %.3f); $(fmt "$(get "ratio.$fs.loop-oset-race.loop-oset")" %.3f) | | info |"
	row "$fs: setfattrs +nodump FILE... x chattr +d FILE... (2.5x faster)" "ratio.$fs.sf-nset.chattr-nset" '<=' 0.4
	row "$fs: setfattrs -R +nodump x chattr -R +d (2.5x faster)" "ratio.$fs.sf-R-nset.chattr-R-nset" '<=' 0.4
	echo "| $fs: info: setfattrs -offline x removexattr loop; x setfattr -x | $(fmt "$(get "ratio.$fs.sf-oclr.loop-oclr")" %.3f); $(fmt "$(get "ratio.$fs.sf-oclr.setfattr-oclr")" %.3f) | | info |"
	echo "| $fs: info: setfattrs +nodump / -nodump x bare file_getattr+file_setattr loop | $(fmt "$(get "ratio.$fs.sf-nset.loop-nset")" %.3f) / $(fmt "$(get "ratio.$fs.sf-nclr.loop-nclr")" %.3f) | | info |"
	echo "| $fs: info: setfattrs +nodump FILE..., directories 1777 (pinned) x chattr +d; x bare loop | $(fmt "$(get "ratio.$fs.sf-S-nset.chattr-nset")" %.3f); $(fmt "$(get "ratio.$fs.sf-S-nset.loop-nset")" %.3f) | | info |"
	echo "| $fs: info: chattr +d x bare loop; xfs_io x bare loop | $(fmt "$(get "ratio.$fs.chattr-nset.loop-nset")" %.3f); $(fmt "$(get "ratio.$fs.xfsio-nset.loop-nset")" %.3f) | | info |"
done
row "system calls per file beyond the walk (fstatat), +offline ($(get sysnames.sf-oset))" sysbeyond.sf-oset '<=' 3 %.2f
row "system calls per file beyond the walk, -offline ($(get sysnames.sf-oclr))" sysbeyond.sf-oclr '==' 1 %.2f
# no stat of its own when only kernel flags change and every mount keeps them (setfattrs.1, "The
# read-back"), and no pin in directories only root can write ("Races and durability")
row "system calls per file beyond the walk, +nodump FILE... ($(get sysnames.sf-nset))" sysbeyond.sf-nset '<=' 2 %.2f
row "system calls per file beyond the walk, -nodump FILE... ($(get sysnames.sf-nclr))" sysbeyond.sf-nclr '<=' 2 %.2f
echo
load_report
