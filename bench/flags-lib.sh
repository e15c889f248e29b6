#!/usr/bin/env bash
# bench/flags-lib.sh: the libfattrs flag calls that setfattrs and xstat make (fattrs_fflag_set,
# fattrs_fflags_get, fattrs_kattr_get, fattrs_kattr_change), one per file over 10 directories x
# 1,000 files in ONE process, against the bare system calls that are their limits, in one run. A benchmark, not a test: it exits 0
# once it has measured (1 only when it cannot run), and prints PASS/MISS.
#
#   cd BUILD && bash /path/to/fattrs/bench/flags-lib.sh   # from a build dir: links its libfattrs.a
#   QUICK=1 bash ../bench/flags-lib.sh                     # smoke run, seconds
#
# It compiles bench/src/flags-lib.c against the build dir's static library (src/lib/.libs/
# libfattrs.a, the build dir's config.h, the source tree's src/lib headers, the Makefile's
# ATTR_LIBS). What it measures:
#  1. Time, per filesystem, in interleaved rounds (round r starts at case r mod n) with paired
#     ratios (median over rounds of case / its limit measured in the same round). The C program
#     times its own loop (CLOCK_MONOTONIC around the per-file loop: no process start-up, no list
#     reading). Before each timed run, untimed, the files are put in the opposite state (so every
#     run changes every file), then `sync -f`; the program refuses to run (exit 3) if they are not,
#     and after its loop checks, untimed, that every file changed (exit 1 otherwise: CHECK FAILED).
#     Reads run on files where every 20th has user.fattr.offline=1, every 20th pinned=1 (10 % with
#     one flag xattr, as xstat.sh's corpus) and every 20th nodump, and must find them.
#  2. Syscalls per file from a full trace (strace -f -qq -o FILE, one line per syscall; Debian
#     12's strace -c leaves out file_getattr/file_setattr, which the trace shows as
#     syscall_0x1d4/0x1d5): only the timed loop is counted (flags-lib brackets it with two
#     getppid calls), at N/10 and 3N/10 files; per file = the slope, one-time = the intercept
#     (fattrs_fsupport_probe, once per run). Pinned to CPU 0. First filesystem only.
#  3. Per filesystem, for each settable kernel flag (not immutable/append) on a new file: what
#     file_setattr and FS_IOC_SETFLAGS answer when asked to set it and whether a read-back finds
#     it kept (a 0 answer for a dropped bit is what the library's read-back is there to catch).
#  4. Summary: PASS/MISS against the targets of bench/README.md (setting flags, and xstat's
#     read of them) that apply to a library call, and a WARNING when the 1-minute load
#     exceeded the CPU count at the start or the end.
#
# Environment:
#   N        files (10000, in NDIRS=10 directories)   ROUNDS  timed rounds (5, plus 1 warm-up)
#   FSLIST   filesystems to mount and measure on ("tmpfs ext4"); root only
#   QUICK=1  N=1000 ROUNDS=2: a smoke run in seconds
#   BUILD    the build dir (default: the current directory)     CC  compiler (cc)
#
# As root it re-executes itself in a private mount namespace (unshare -m): a fresh 512 MiB tmpfs
# and a fresh ext4 loop image (mount -o loop, auto-detached at umount), invisible to the rest of
# the machine; on exit (Ctrl-C included) it unmounts, detaches any loop device still bound to its
# image, and deletes its work dir. Not root: no mounts, it measures in its work dir under /tmp.
set -euo pipefail
export LC_ALL=C

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$(realpath "${BASH_SOURCE[0]}")")/lib.sh" # SELF, BENCH_DIR, BENCH_NAME

private_ns FLAGS_LIB_BENCH_NS "$@"

N=${N:-10000}
ROUNDS=${ROUNDS:-5}
NDIRS=${NDIRS:-10}
if [[ ${QUICK:-0} == 1 ]]; then
	N=1000 ROUNDS=2
fi
PER=$(((N + NDIRS - 1) / NDIRS))
N=$((PER * NDIRS))

# ------------------------------------------------------------------ the build dir and the library
BUILD=$(realpath "${BUILD:-.}")
ARCHIVE=$BUILD/src/lib/.libs/libfattrs.a
[[ -f $BUILD/Makefile && -f $BUILD/config.h ]] || die "run from a configured build dir (no Makefile/config.h in $BUILD), or set BUILD"
[[ -f $ARCHIVE ]] || die "no $ARCHIVE: run make in $BUILD first"
SRCDIR=$(sed -n 's/^srcdir = //p' "$BUILD/Makefile")
SRCDIR=$(cd "$BUILD" && realpath "${SRCDIR:-$BENCH_DIR/..}")
[[ -f $SRCDIR/src/lib/flags/fflags.h ]] || die "no src/lib/flags/fflags.h under $SRCDIR"
ATTR_LIBS=$(sed -n 's/^ATTR_LIBS = //p' "$BUILD/Makefile")
need_tools strace taskset awk sync "${CC:-cc}"

# ------------------------------------------------------------------ work dir, cleanup, build
bench_workdir flags-lib # WORK, RES, ROOT; cleanup on EXIT/INT/TERM/HUP (bench/lib.sh)
FL=$WORK/bin/flags-lib
# shellcheck disable=SC2086 # ATTR_LIBS is a list of words
"${CC:-cc}" -O2 -Wall -Wextra -DHAVE_CONFIG_H -I"$BUILD" -I"$SRCDIR/src/lib" -I"$SRCDIR/src/cli" -I"$SRCDIR" \
	-o "$FL" "$BENCH_DIR/src/flags-lib.c" "$ARCHIVE" $ATTR_LIBS || die "cannot build flags-lib.c"
stale=$(find "$SRCDIR/src/lib" -name '*.[ch]' -newer "$ARCHIVE" | sed 's|.*/||' | paste -sd' ')
[[ -z $stale ]] || note "WARNING: newer than libfattrs.a: $stale (run make in $BUILD)"

default_fslist

load_start
echo "# libfattrs flag calls vs the bare syscalls: bench/flags-lib.sh"
echo
echo "machine: $(machine)"
echo "library: $ARCHIVE ($(date -u -r "$ARCHIVE" +%Y-%m-%dT%H:%MZ)), headers $SRCDIR/src/lib, ATTR_LIBS=${ATTR_LIBS:-none}"
echo "N=$N files ($NDIRS dirs x $PER), ROUNDS=$ROUNDS (+1 warm-up); times are of the in-process loop only"
if ((ROOT)); then
	echo "filesystems: $FSLIST (mounted fresh, in a private mount namespace)"
else
	echo "NOT ROOT: no tmpfs/ext4 mounts; measuring in $WORK ($(stat -f -c %T "$WORK"))"
fi

# ------------------------------------------------------------------ the cases
# group: title, the reset mode run before each timed run, its cases
GROUPS_=(oset oclr nset nclr read)
declare -A TITLE=(
	[oset]="+offline: set user.fattr.offline"
	[oclr]="-offline: clear user.fattr.offline"
	[nset]="+nodump (kernel-native, file_getattr/file_setattr)"
	[nclr]="-nodump (kernel-native)"
	[read]="reading the flags (xstat), 10 % of files with one user.fattr.* xattr, 5 % nodump"
)
declare -A RESET=([oset]=reset-offline-clear [oclr]=reset-offline-set [nset]=reset-nodump-clear
	[nclr]=reset-nodump-set [read]=reset-read)
declare -A CASES=(
	[oset]="set set-excl lib-set"
	[oclr]="clear lib-clear"
	[nset]="fsa-set fsa-set-rb lib-kset ioc-set lib-kset-ioc"
	[nclr]="fsa-clear fsa-clear-rb lib-kclear ioc-clear lib-kclear-ioc"
	[read]="list list-get lib-get lib-get0 fsa-get lib-kget stx-list stx-list-get stx-lib-get stx-list-fsa stx-lib-all"
)
declare -A LABEL=(
	[set]="(a) setxattr(offline, \"1\") (limit)"
	[set-excl]="(a2) lgetxattr(pinned)=ENODATA + setxattr (limit with the opposite check)"
	[lib-set]="**fattrs_fflag_set(OFFLINE, on)**"
	[clear]="(a) removexattr(offline) (limit)"
	[lib-clear]="**fattrs_fflag_set(OFFLINE, off)**"
	[fsa-set]="file_getattr + file_setattr(+NODUMP) (limit)"
	[fsa-set-rb]="file_getattr + file_setattr + file_getattr (limit with read-back)"
	[lib-kset]="**fattrs_kattr_change(+nodump)**"
	[fsa-clear]="file_getattr + file_setattr(-NODUMP) (limit)"
	[fsa-clear-rb]="file_getattr + file_setattr + file_getattr (limit with read-back)"
	[lib-kclear]="**fattrs_kattr_change(-nodump)**"
	[ioc-set]="open + FS_IOC_GETFLAGS + FS_IOC_SETFLAGS(+NODUMP) + close (limit, ioctl path)"
	[lib-kset-ioc]="**fattrs_kattr_change(+nodump), ioctl fallback forced**"
	[ioc-clear]="open + FS_IOC_GETFLAGS + FS_IOC_SETFLAGS(-NODUMP) + close (limit, ioctl path)"
	[lib-kclear-ioc]="**fattrs_kattr_change(-nodump), ioctl fallback forced**"
	[list]="llistxattr"
	[list-get]="llistxattr + lgetxattr of present user.fattr.* (limit)"
	[lib-get]="**fattrs_fflags_get(mode from the caller)**"
	[lib-get0]="fattrs_fflags_get(mode 0: it stats)"
	[fsa-get]="file_getattr (limit)"
	[lib-kget]="**fattrs_kattr_get(XFLAGS)**"
	[stx-list]="(b) statx + llistxattr (xstat.sh (b))"
	[stx-list-get]="statx + llistxattr + lgetxattr of present names"
	[stx-lib-get]="**statx + fattrs_fflags_get**"
	[stx-list-fsa]="(b2) statx + llistxattr + file_getattr (section 1 (b2))"
	[stx-lib-all]="**statx + fattrs_fflags_get + fattrs_kattr_get**"
)
# the limit each case is compared with (paired), and a second reference
declare -A REF=([set-excl]=set [lib-set]=set-excl [lib-clear]=clear [fsa-set-rb]=fsa-set [lib-kset]=fsa-set
	[fsa-clear-rb]=fsa-clear [lib-kclear]=fsa-clear [list-get]=list [lib-get]=list-get [lib-get0]=lib-get
	[lib-kget]=fsa-get [lib-kset-ioc]=ioc-set [lib-kclear-ioc]=ioc-clear [ioc-set]=fsa-set [ioc-clear]=fsa-clear [stx-list-get]=stx-list [stx-lib-get]=stx-list [stx-list-fsa]=stx-list
	[stx-lib-all]=stx-list-fsa)
declare -A REF2=([lib-set]=set [lib-kset]=fsa-set-rb [lib-kclear]=fsa-clear-rb [stx-lib-get]=stx-list-get
	[lib-get0]=list-get [lib-kset-ioc]=lib-kset [lib-kclear-ioc]=lib-kclear)

# flags MODE LIST: run flags-lib in the corpus ($C), names relative to it as a tool is given them
flags() { (cd "$C" && "$FL" "$1" "$2"); }

# run_case FS RAW GROUP INDEX ROUND: untimed reset + sync, one timed run (the program's own clock)
run_case() {
	local fs=$1 raw=$2 g=$3 i=$4 r=$5 out rc=0 cases
	read -ra cases <<<"${CASES[$g]}"
	local c=${cases[i]}
	flags "${RESET[$g]}" "$L" >/dev/null || die "reset ${RESET[$g]} failed"
	sync -f "$C"
	out=$(flags "$c" "$L" 2>"$WORK/err") || rc=$?
	if ((rc != 0)); then
		note "CHECK FAILED: $fs $c (round $r): exit $rc: $(head -c 300 "$WORK/err")"
		res "failed.$fs.$c" 1
		return 0
	fi
	# out: N CHANGED NS
	((r < 0)) || printf '%s %s %s\n' "$c" "$r" "${out##* }" >>"$raw"
}

# ------------------------------------------------------------------ syscalls (strace)
# region TRACE: the syscalls of the timed loop only (between flags-lib's two getppid markers)
region() { awk '/^([0-9]+ +)?getppid\(/ { m++; next } m == 1' "$1"; }
syscalls() { # FS: every case at S1 and S2 files, pinned to CPU 0
	local g c S1=$((N / 10)) S2=$((N * 3 / 10)) L1=$WORK/l1 L2=$WORK/l2
	head -z -n "$S1" "$L" >"$L1"
	head -z -n "$S2" "$L" >"$L2"
	echo
	echo "## 2. $1: syscalls in the timed loop (strace -f -qq -o FILE, full trace; slope $S1 -> $S2 files)"
	echo
	echo "file_getattr = syscall_0x1d4, file_setattr = syscall_0x1d5 (Debian 12's strace 6.1 has no names for them)."
	echo
	echo "| case | syscalls per file | one-time (probe) | by name, per file |"
	echo "|---|---:|---:|---|"
	for g in "${GROUPS_[@]}"; do
		for c in ${CASES[$g]}; do
			flags "${RESET[$g]}" "$L1" >/dev/null
			(cd "$C" && taskset -c 0 strace -f -qq -o "$WORK/s1" "$FL" "$c" "$L1" >/dev/null 2>&1) || note "traced $c failed"
			flags "${RESET[$g]}" "$L2" >/dev/null
			(cd "$C" && taskset -c 0 strace -f -qq -o "$WORK/s2" "$FL" "$c" "$L2" >/dev/null 2>&1) || note "traced $c failed"
			trace_slope "$S1" "$S2" "$WORK/s1" "$WORK/s2" region
			printf '| %s | %s | %s | %s |\n' "${LABEL[$c]}" "$TRACE_SLOPE" "$TRACE_ONCE" "$TRACE_BYNAME"
			res "sys.$c" "$TRACE_SLOPE"
			res "sysnames.$c" "$TRACE_BYNAME"
		done
	done
}

# ------------------------------------------------------------------ the run
first_fs=
for fs in $FSLIST; do
	MNT=$WORK/mnt/$fs
	mount_fs "$fs" "$MNT"
	[[ -n $first_fs ]] || first_fs=$fs
	C=$MNT/c
	L=$WORK/list.$fs
	"$FL" mkcorpus "$C" "$NDIRS" "$PER" >"$L" || die "cannot make the corpus on $fs"
	sync -f "$C"
	echo
	echo "## 1. $fs ($(findmnt -no FSTYPE -T "$MNT" 2>/dev/null || stat -f -c %T "$MNT"), $N files in $NDIRS dirs): time per file, $ROUNDS interleaved rounds, paired ratios"
	measure_groups "$fs" limit "CHECK FAILED"
	[[ $fs != "$first_fs" ]] || syscalls "$fs"
	echo
	echo "### $fs: what a set answers, and whether a read-back finds it kept (why fattrs_kattr_change reads back)"
	echo
	"$FL" drops "$MNT" | tee "$WORK/drops.$fs"
	res "drops.$fs" "$(awk -F' [|] ' '/DROPPED/ { w = ($2 ~ /DROPPED/ ? "x" : "") ($3 ~ /DROPPED/ ? "i" : ""); sub(/^[|] /, "", $1); printf "%s%s (%s)", (n++ ? ", " : ""), $1, w }' "$WORK/drops.$fs")"
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
	row "$fs: +offline fattrs_fflag_set x (a2) lgetxattr+setxattr (4)$(failed_note "$fs" lib-set)" "ratio.$fs.lib-set.set-excl" '<=' 1.15
	row "$fs: -offline fattrs_fflag_set x (a) removexattr (4)$(failed_note "$fs" lib-clear)" "ratio.$fs.lib-clear.clear" '<=' 1.20
	row "$fs: +nodump fattrs_kattr_change x file_getattr+file_setattr (4)$(failed_note "$fs" lib-kset)" "ratio.$fs.lib-kset.fsa-set" '<=' 1.20
	row "$fs: -nodump fattrs_kattr_change x file_getattr+file_setattr (4)$(failed_note "$fs" lib-kclear)" "ratio.$fs.lib-kclear.fsa-clear" '<=' 1.20
	row "$fs: +nodump on the ioctl fallback x open+GETFLAGS+SETFLAGS+close (4)$(failed_note "$fs" lib-kset-ioc)" "ratio.$fs.lib-kset-ioc.ioc-set" '<=' 1.20
	row "$fs: -nodump on the ioctl fallback x open+GETFLAGS+SETFLAGS+close (4)$(failed_note "$fs" lib-kclear-ioc)" "ratio.$fs.lib-kclear-ioc.ioc-clear" '<=' 1.20
	row "$fs: statx + fattrs_fflags_get x (b) statx+llistxattr (1, flags format: whole xstat budget)$(failed_note "$fs" stx-lib-get)" "ratio.$fs.stx-lib-get.stx-list" '<=' 1.30
	row "$fs: statx + fflags_get + kattr_get x (b2) statx+llistxattr+file_getattr (1, default format)$(failed_note "$fs" stx-lib-all)" "ratio.$fs.stx-lib-all.stx-list-fsa" '<=' 1.40
	echo "| $fs: read-back alone: limit with read-back x limit, +nodump / -nodump | $(fmt "$(get "ratio.$fs.fsa-set-rb.fsa-set")" %.3f) / $(fmt "$(get "ratio.$fs.fsa-clear-rb.fsa-clear")" %.3f) | | info |"
	echo "| $fs: fattrs_kattr_change x the 3-syscall limit with read-back, +nodump / -nodump | $(fmt "$(get "ratio.$fs.lib-kset.fsa-set-rb")" %.3f) / $(fmt "$(get "ratio.$fs.lib-kclear.fsa-clear-rb")" %.3f) | | info |"
	echo "| $fs: fattrs_fflags_get x llistxattr+lgetxattr; mode 0 x mode given | $(fmt "$(get "ratio.$fs.lib-get.list-get")" %.3f); $(fmt "$(get "ratio.$fs.lib-get0.lib-get")" %.3f) | | info |"
	echo "| $fs: fattrs_kattr_get x file_getattr | $(fmt "$(get "ratio.$fs.lib-kget.fsa-get")" %.3f) | | info |"
	echo "| $fs: (a2) x (a): the opposite check itself (baseline, whole processes: 1.27-1.45) | $(fmt "$(get "ratio.$fs.set-excl.set")" %.3f) | | info |"
	echo "| $fs: set answered 0 but not kept, x = file_setattr, i = FS_IOC_SETFLAGS (nodump is never one) | $(get "drops.$fs") | | info |"
	echo "| $fs: per file: fflag_set on / off, kattr_change +/-, statx+fflags_get, +kattr_get | $(fmt "$(get "perfile.$fs.lib-set")" '%.0f') / $(fmt "$(get "perfile.$fs.lib-clear")" '%.0f') / $(fmt "$(get "perfile.$fs.lib-kset")" '%.0f') / $(fmt "$(get "perfile.$fs.lib-kclear")" '%.0f') / $(fmt "$(get "perfile.$fs.stx-lib-get")" '%.0f') / $(fmt "$(get "perfile.$fs.stx-lib-all")" '%.0f') ns | | info |"
done
row "syscalls per file, +offline fattrs_fflag_set ($(get sysnames.lib-set))" sys.lib-set '<=' 2 %.2f
row "syscalls per file, -offline fattrs_fflag_set ($(get sysnames.lib-clear))" sys.lib-clear '==' 1 %.2f
row "syscalls per file, +nodump fattrs_kattr_change, no open ($(get sysnames.lib-kset))" sys.lib-kset '==' 2 %.2f
row "syscalls per file, -nodump fattrs_kattr_change, no open ($(get sysnames.lib-kclear))" sys.lib-kclear '==' 2 %.2f
row "syscalls per file, +nodump on the ioctl fallback ($(get sysnames.lib-kset-ioc))" sys.lib-kset-ioc '<=' 4 %.2f
row "syscalls per file, -nodump on the ioctl fallback ($(get sysnames.lib-kclear-ioc))" sys.lib-kclear-ioc '<=' 4 %.2f
row "syscalls per file, statx + fattrs_fflags_get (2 + a getxattr per present name: 0.10 here) ($(get sysnames.stx-lib-get))" sys.stx-lib-get '<=' 2.1 %.2f
row "syscalls per file, default format: + fattrs_kattr_get ($(get sysnames.stx-lib-all))" sys.stx-lib-all '<=' 4 %.2f
echo "| syscalls per file, fattrs_fflags_get with mode 0 / fattrs_kattr_get alone | $(get sys.lib-get0) / $(get sys.lib-kget) | | info |"
echo
echo "Times are of the in-process loop (no start-up); ratios are medians of same-round ratios."
load_report
