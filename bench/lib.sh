# shellcheck shell=bash
# bench/lib.sh: what the bench scripts share. Sourced, never run, as the script's first step:
#   . "$(dirname "$(realpath "${BASH_SOURCE[0]}")")/lib.sh"
# Sourcing it sets SELF, BENCH_DIR and BENCH_NAME (below) from the script that sources it, unless
# the script set them first; otherwise it only defines functions: nothing happens until a script
# calls one.
#   SELF        the script's own path (realpath), for the re-exec in a mount namespace
#   BENCH_DIR   the folder of the script (bench/), for bench/src/*.c
#   BENCH_NAME  the script's name, the prefix of die's message ("tmpcreate.sh")
#   NOTE_PREFIX the prefix of note's message (default: none)
# The functions use and set these globals:
#   WORK        the work dir (bench_workdir makes it; cleanup deletes it)
#   MOUNTS      mount points to unmount at exit, in the order mounted (mount_fs adds to it)
#   IMAGES      loop images: at exit, a loop device still bound to one of them is detached
#   EXTRA_DIRS  more directories to delete at exit, after WORK (a script adds its own)
#   RES         the "key value" results file (res writes it, get reads it)
#   ROOT        1 when running as root, else 0

SELF=${SELF:-$(realpath "${BASH_SOURCE[1]}")}
BENCH_DIR=${BENCH_DIR:-$(dirname "$SELF")}
BENCH_NAME=${BENCH_NAME:-$(basename "$SELF")}

# die MESSAGE...: print "BENCH_NAME: MESSAGE" on stderr and exit 1 (cleanup still runs).
die() {
	printf '%s: %s\n' "${BENCH_NAME:-bench}" "$*" >&2
	exit 1
}

# note MESSAGE...: print NOTE_PREFIX and MESSAGE on stderr, and go on.
note() { printf '%s%s\n' "${NOTE_PREFIX-}" "$*" >&2; }

# private_ns VAR [ARG]...: as root, re-execute this script ($SELF, with ARGs) in a private mount
# namespace (unshare -m), with VAR=1 in its environment so that the second run goes on instead.
# Its mounts are invisible to the rest of the machine and go away with the process even if it is
# killed. Does nothing when not root, when VAR is already set, or without unshare.
private_ns() {
	local var=$1
	shift
	if [[ $(id -u) -eq 0 && -z ${!var:-} ]] && command -v unshare >/dev/null; then
		export "$var=1"
		exec unshare --mount --propagation private -- bash "$SELF" "$@"
	fi
}

# find_binary VAR NAME: set VAR to the binary NAME to measure, made absolute: $VAR if set, else
# ./NAME (the top of a build tree), else ../NAME next to this script, else NAME on PATH; die when there is none or
# it is not executable.
find_binary() {
	local var=$1 name=$2 c
	if [[ -z ${!var:-} ]]; then
		for c in "./$name" "$BENCH_DIR/../$name"; do
			[[ -x $c ]] && { printf -v "$var" %s "$c"; break; }
		done
		[[ -n ${!var:-} ]] || printf -v "$var" %s "$(command -v "$name" || true)"
		[[ -n ${!var} ]] || die "no $name found: run from the build dir, or set $var=/path/to/$name"
	fi
	printf -v "$var" %s "$(realpath "${!var}")"
	[[ -x ${!var} ]] || die "$var=${!var} is not executable"
}

# find_binaries: find_binary TMPCREATE tmpcreate; also sets TRUE to /usr/bin/true (the builtin
# would not spawn).
find_binaries() {
	find_binary TMPCREATE tmpcreate
	# shellcheck disable=SC2034 # for the scripts
	TRUE=$(type -P true)
}

# need_tools TOOL...: die "missing tool: TOOL" for the first TOOL not on PATH.
need_tools() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || die "missing tool: $t"
	done
}

# cleanup: the EXIT trap (bench_workdir sets it). Unmounts MOUNTS (last first; lazily when busy),
# detaches any loop device still bound to one of IMAGES (and only those), deletes WORK and then
# EXTRA_DIRS, and exits with the status the script was exiting with.
cleanup() {
	local rc=$? i img dev dir
	trap - EXIT INT TERM HUP
	cd /
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		if mountpoint -q "${MOUNTS[i]}"; then
			umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}" || note "could not unmount ${MOUNTS[i]}"
		fi
	done
	# mount -o loop sets autoclear, so the device goes at umount; this only catches a mount that
	# failed half way. Only devices bound to our own image are touched.
	for img in "${IMAGES[@]}"; do
		for dev in $(losetup --list --noheadings --output NAME --associated "$img" 2>/dev/null); do
			losetup --detach "$dev" || note "could not detach $dev"
		done
	done
	[[ -n $WORK && -d $WORK ]] && rm -rf "$WORK"
	for dir in "${EXTRA_DIRS[@]}"; do
		[[ -n $dir && -d $dir ]] && rm -rf "$dir"
	done
	exit "$rc"
}

# bench_workdir NAME: empty MOUNTS, IMAGES and EXTRA_DIRS; trap EXIT to cleanup and INT, TERM, HUP
# to an exit with 130, 143, 129 (which runs cleanup too); make WORK=${TMPDIR:-/tmp}/bench-NAME.XXXXXX
# with bin/ and mnt/ in it; start an empty results file RES=$WORK/results; set ROOT.
bench_workdir() {
	WORK=
	MOUNTS=()
	IMAGES=()
	EXTRA_DIRS=()
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-$1.XXXXXX")
	mkdir -p "$WORK/bin" "$WORK/mnt"
	RES=$WORK/results # "key value" lines for the summary
	: >"$RES"
	# shellcheck disable=SC2034 # for the scripts
	if [[ $(id -u) -eq 0 ]]; then ROOT=1; else ROOT=0; fi
}

# FSLIST unless set: "target" when TARGET is set (see mount_fs); else as root
# "tmpfs ext4" (fresh mounts; ext4 dropped without mkfs.ext4), else "local"
# (the work dir's own filesystem).  After bench_workdir.
default_fslist() {
	if [[ -n ${TARGET:-} && -z ${FSLIST:-} ]]; then
		FSLIST=target
	elif ((ROOT)); then
		FSLIST=${FSLIST:-tmpfs ext4}
		command -v mkfs.ext4 >/dev/null || { note "no mkfs.ext4: ext4 skipped"; FSLIST=${FSLIST//ext4/}; }
	else
		FSLIST=local
	fi
}

# build_c NAME...: compile bench/src/NAME.c into $WORK/bin/NAME (${CC:-cc} -O2), or die.
build_c() {
	local src
	for src in "$@"; do
		"${CC:-cc}" -O2 -Wall -Wextra -o "$WORK/bin/$src" "$BENCH_DIR/src/$src.c" || die "cannot build $src.c"
	done
}

# res KEY VALUE: record a result for the summary.
res() { printf '%s %s\n' "$1" "$2" >>"$RES"; }

# get KEY: the last value recorded for KEY, or "n/a".
get() { awk -v k="$1" '$1 == k { v = substr($0, length(k) + 2) } END { print (v == "" ? "n/a" : v) }' "$RES"; }

# mount_fs FS DIR [MIB]: make DIR and mount a fresh FS of MIB MiB (512) on it, added to MOUNTS:
# tmpfs, or ext4 on a loop image $WORK/<DIR's name>.ext4.img (added to IMAGES; mount -o loop,
# auto-detached at umount), or overlay (overlayfs over tmpfs layers mounted on DIR.layers).
# FS "local" only makes DIR (nothing is mounted).  FS "target": a fresh directory made under
# $TARGET (an existing directory on any filesystem: an sshfs or NFS mount, an overlay...),
# bind-mounted on DIR as root, else DIR is a symbolic link to it; removed at exit.
mount_fs() {
	local fs=$1 dir=$2 mib=${3:-512} img t
	mkdir -p "$dir"
	case $fs in
	local) return 0 ;;
	target)
		[[ -n ${TARGET:-} && -d $TARGET ]] || die "TARGET=${TARGET:-} is not a directory"
		t=$(mktemp -d "$TARGET/bench-$(basename "$dir").XXXXXX") || die "cannot make a directory in TARGET=$TARGET"
		EXTRA_DIRS+=("$t")
		if ((ROOT)); then
			mount --bind "$t" "$dir" || die "cannot bind-mount $t"
		else
			rmdir "$dir" && ln -s "$t" "$dir"
			return 0
		fi
		;;
	overlay)
		mkdir -p "$dir.layers"
		mount -t tmpfs -o "size=${mib}m,mode=0755" tmpfs "$dir.layers"
		MOUNTS+=("$dir.layers")
		mkdir "$dir.layers/lower" "$dir.layers/upper" "$dir.layers/work"
		mount -t overlay -o "lowerdir=$dir.layers/lower,upperdir=$dir.layers/upper,workdir=$dir.layers/work" \
			overlay "$dir"
		;;
	tmpfs) mount -t tmpfs -o "size=${mib}m,mode=0755" tmpfs "$dir" ;;
	ext4)
		img=$WORK/$(basename "$dir").ext4.img
		truncate -s "${mib}M" "$img"
		IMAGES+=("$img")
		# no lazy init: no kernel thread zeroing inode tables while we measure
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img"
		mount -o loop "$img" "$dir"
		;;
	*) die "unknown filesystem '$fs' (tmpfs, ext4, overlay, target)" ;;
	esac
	MOUNTS+=("$dir")
}

# umount_fs DIR: unmount what mount_fs mounted on DIR (lazily when busy), drop it from MOUNTS and
# delete its loop image. Does nothing when DIR is not in MOUNTS (FS "local").
umount_fs() {
	local i m
	[[ -L $1 ]] && { rm -f "$1"; return 0; } # FS "target" without root
	[[ ${MOUNTS[*]} == *"$1"* ]] || return 0
	for m in "$1" "$1.layers"; do # overlay: then its layers
		[[ " ${MOUNTS[*]} " == *" $m "* ]] || continue
		umount "$m" || umount -l "$m"
		for i in "${!MOUNTS[@]}"; do [[ ${MOUNTS[i]} == "$m" ]] && unset 'MOUNTS[i]'; done
	done
	MOUNTS=("${MOUNTS[@]}")
	rm -f "$WORK/$(basename "$1")".*.img
}

# machine: one line on the machine and its load: date (UTC), kernel, CPU model, cores, RAM,
# load averages, distribution.
machine() {
	printf '%s, Linux %s, %s, %s cores, %s, load %s, %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(uname -r)" \
		"$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)" "$(nproc)" \
		"$(awk '/^MemTotal/ {printf "%.0f GiB RAM", $2/1048576}' /proc/meminfo)" \
		"$(cut -d' ' -f1-3 /proc/loadavg)" "$(
			# shellcheck source=/dev/null
			. /etc/os-release && echo "$PRETTY_NAME"
		)"
}

# interleave ROUNDS N FUNC [ARG]...: the interleaved rounds. Calls FUNC ARG... INDEX ROUND for every
# case INDEX 0..N-1 in every round -1 (the warm-up, cases in order) .. ROUNDS-1, round r starting
# at case r mod N, so that drift and order hit every case alike.
interleave() {
	local nr=$1 n=$2 r k
	shift 2
	for ((r = -1; r < nr; r++)); do
		for ((k = 0; k < n; k++)); do
			"$@" $(((k + (r < 0 ? 0 : r)) % n)) "$r"
		done
	done
}

# awk_stats: awk functions for the summaries, to put before an awk program: awk "$(awk_stats)"'...'.
#   median(a, m)  the median of a[1..m]
#   ratio(a, b)   the median over rounds 0..nr-1 of per(a, r) / per(b, r), the paired ratio of
#                 case a to case b; -1 when a or b was not measured (not in have[])
# The program defines per(c, r) (the figure of case c in round r), and fills have[c] and nr.
awk_stats() {
	cat <<'EOF'
	function median(a, m,   t, i, j, x) {
		for (i = 1; i <= m; i++) t[i] = a[i]
		for (i = 2; i <= m; i++) { x = t[i]; for (j = i - 1; j >= 1 && t[j] > x; j--) t[j+1] = t[j]; t[j+1] = x }
		return (m % 2) ? t[(m+1)/2] : (t[m/2] + t[m/2+1]) / 2
	}
	function ratio(a, b,   r, q, m) {
		if (!(a in have) || !(b in have)) return -1
		m = 0; for (r = 0; r < nr; r++) q[++m] = per(a, r) / per(b, r); return median(q, m)
	}
EOF
}

# paired_table FS RAW CASES REFWORD MISSING: the markdown table of one group of cases measured in
# interleaved rounds. RAW holds "CASE ROUND NS" lines (NS for the whole run of N files); CASES the
# case ids in table order (one word, space-separated); the global associative arrays LABEL[case]
# (the row's text), REF[case] and REF2[case] (the cases it is compared with, paired per round; may
# be missing) and N (files per run). REFWORD names the first reference in the heading ("limit",
# "ref"); MISSING is the row's text for a case with no round (e.g. "CHECK FAILED"). Writes
# perfile.FS.CASE (ns per file, median) and ratio.FS.CASE.REFCASE (paired median) to $RES.
paired_table() {
	local fs=$1 raw=$2 cases=$3 refword=$4 missing=$5 c labels="" refs=""
	for c in $cases; do
		labels+="$c"$'\t'"${LABEL[$c]}"$'\n'
		refs+="$c ${REF[$c]:--} ${REF2[$c]:--}"$'\n'
	done
	LABELS_STR=$labels REFS_STR=$refs CASES_STR=$cases awk -v fs="$fs" -v n="$N" -v res="$RES" \
		-v refword="$refword" -v missing="$missing" "$(awk_stats)"'
	function per(c, r) { return w[c, r] / n }          # ns per file, one run
	function pr(a, b,   r, q, m, lo, hi, x) {          # paired ratio: median, and min-max over rounds
		m = 0; lo = 1e9; hi = 0
		for (r = 0; r < nr; r++) if (((a, r) in w) && ((b, r) in w)) {
			x = per(a, r) / per(b, r); q[++m] = x; if (x < lo) lo = x; if (x > hi) hi = x
		}
		if (m == 0) return "n/a"
		PRMED = median(q, m)
		return sprintf("%.3f (%.2f-%.2f)", PRMED, lo, hi)
	}
	function us(ns) { return ns >= 10000 ? sprintf("%.1f us", ns / 1000) : sprintf("%.2f us", ns / 1000) }
	BEGIN {
		k = split(ENVIRON["CASES_STR"], id, " ")
		split(ENVIRON["LABELS_STR"], ll, "\n"); for (i in ll) if (ll[i] != "") { split(ll[i], f, "\t"); lab[f[1]] = f[2] }
		split(ENVIRON["REFS_STR"], rl, "\n"); for (i in rl) if (rl[i] != "") { split(rl[i], f, " "); ref[f[1]] = f[2]; ref2[f[1]] = f[3] }
	}
	{ w[$1, $2] = $3; if ($2 + 1 > nr) nr = $2 + 1 }
	END {
		printf "| case | per file (median) | x %s, paired (min-max) | %s | x 2nd ref | 2nd ref |\n", refword, refword
		printf "|---|---:|---:|---|---:|---|\n"
		for (i = 1; i <= k; i++) {
			c = id[i]; m = 0
			for (r = 0; r < nr; r++) if ((c, r) in w) a[++m] = per(c, r)
			if (m == 0) { printf "| %s | %s | | | | |\n", lab[c], missing; continue }
			med = median(a, m)
			print "perfile." fs "." c, med >> res
			r1 = "-"; r2 = "-"
			if (ref[c] != "-") { r1 = pr(c, ref[c]); if (r1 != "n/a") print "ratio." fs "." c "." ref[c], PRMED >> res }
			if (ref2[c] != "-") { r2 = pr(c, ref2[c]); if (r2 != "n/a") print "ratio." fs "." c "." ref2[c], PRMED >> res }
			printf "| %s | %s | %s | %s | %s | %s |\n", lab[c], us(med), r1, (ref[c] == "-" ? "" : ref[c]), r2, (ref2[c] == "-" ? "" : ref2[c])
		}
	}' "$raw"
}

# measure_groups FS REFWORD MISSING: for every group G of the global array GROUPS_, in order, the
# interleaved rounds (ROUNDS) of its cases CASES[G] (the script's run_case FS RAW G INDEX ROUND
# appends "CASE ROUND NS" lines to RAW), then its table under "### FS: TITLE[G]" (paired_table
# FS RAW CASES[G] REFWORD MISSING).
measure_groups() {
	local fs=$1 g raw
	local -a cs
	for g in "${GROUPS_[@]}"; do
		raw=$WORK/raw.$fs.$g
		: >"$raw"
		# shellcheck disable=SC2153 # CASES, GROUPS_ and TITLE are the script's
		read -ra cs <<<"${CASES[$g]}"
		interleave "$ROUNDS" ${#cs[@]} run_case "$fs" "$raw" "$g"
		echo
		echo "### $fs: ${TITLE[$g]}"
		echo
		paired_table "$fs" "$raw" "${CASES[$g]}" "$2" "$3"
	done
}

# trace_calls_ FILTER TRACE: the name of every system call in the part of TRACE that FILTER keeps,
# one a line; trace_names_ FILTER TRACE: "name count" lines, sorted (for join).
trace_calls_() { "$1" "$2" | sed -nE 's/^([0-9]+ +)?([a-z_0-9]+)\(.*/\2/p'; }
trace_names_() { trace_calls_ "$1" "$2" | sort | uniq -c | awk '{print $2, $1}' | sort; }

# trace_slope S1 S2 TRACE1 TRACE2 [FILTER]: system calls per file from two full traces
# (strace -f -qq -o FILE: one line per call, "PID name(...") of the same command over S1 and S2
# files. FILTER, a command given the trace file, keeps the part to count (default: all of it).
# Sets TRACE_SLOPE (calls per file, %.2f), TRACE_ONCE (the intercept: start-up, probes) and
# TRACE_BYNAME ("name per-file, ..." for every call with a slope >= 0.005; file_getattr and
# file_setattr named, which Debian 12's strace 6.1 prints as syscall_0x1d4/0x1d5).
trace_slope() {
	local s1=$1 s2=$2 t1=$3 t2=$4 filter=${5:-cat} c1 c2
	c1=$(trace_calls_ "$filter" "$t1" | wc -l)
	c2=$(trace_calls_ "$filter" "$t2" | wc -l)
	TRACE_SLOPE=$(awk -v a="$c1" -v b="$c2" -v x="$s1" -v y="$s2" 'BEGIN { printf "%.2f", (b - a) / (y - x) }')
	# shellcheck disable=SC2034 # for the scripts
	TRACE_ONCE=$(awk -v a="$c1" -v s="$TRACE_SLOPE" -v x="$s1" 'BEGIN { v = a - s * x; printf "%d", v < 0 ? v - 0.5 : v + 0.5 }')
	# shellcheck disable=SC2034 # for the scripts
	TRACE_BYNAME=$(join -a2 -e0 -o 2.1,1.2,2.2 <(trace_names_ "$filter" "$t1") <(trace_names_ "$filter" "$t2") |
		awk -v x="$s1" -v y="$s2" '{ d = ($3 - $2) / (y - x); sub(/^syscall_0x1d4$/, "file_getattr", $1); sub(/^syscall_0x1d5$/, "file_setattr", $1)
			if (d >= 0.005) printf "%s%s %.2f", (n++ ? ", " : ""), $1, d }')
}

# ------------------------------------------------------------------ the summary table
# verdict VALUE OP LIMIT [FAILED]: PASS or MISS for VALUE OP LIMIT (OP: <=, >= or ==); "n/a" when
# VALUE is "n/a", empty or negative (not measured); "MISS (CHECK FAILED)" when FAILED is not empty.
# == allows 0.005 either side (a slope of calls per file); <= and >= allow VERDICT_SLACK (0).
verdict() {
	awk -v v="$1" -v op="$2" -v l="$3" -v bad="${4:-}" -v s="${VERDICT_SLACK:-0}" 'BEGIN {
		if (v == "n/a" || v == "" || v < 0) { print "n/a"; exit }
		if (op == "<=") ok = v + 0 <= l + s
		else if (op == ">=") ok = v + 0 >= l - s
		else ok = v + 0 >= l - 0.005 && v + 0 <= l + 0.005
		print ((bad != "") ? "MISS (CHECK FAILED)" : (ok ? "PASS" : "MISS"))
	}'
}

# fmt VALUE FORMAT: VALUE through printf FORMAT, or "n/a" (see verdict).
fmt() { awk -v v="$1" -v f="$2" 'BEGIN { if (v == "n/a" || v == "" || v < 0) print "n/a"; else printf f, v }'; }

# row TEXT KEY OP LIMIT [FORMAT]: a summary row "| TEXT | value | OP LIMIT | verdict |" for the
# result KEY (printed with FORMAT, %.3f).
row() {
	local v
	v=$(get "$2")
	echo "| $1 | $(fmt "$v" "${5:-%.3f}") | $3 $4 | $(verdict "$v" "$3" "$4") |"
}

# failed_note FS CASE: " (CHECK FAILED)" when failed.FS.CASE was recorded, else nothing.
failed_note() { if [[ $(get "failed.$1.$2") == 1 ]]; then echo " (CHECK FAILED)"; fi; }

# load_start: record the 1-minute load (LOAD_START) at the start of the measurements.
load_start() { LOAD_START=$(cut -d' ' -f1 /proc/loadavg); }

# load_report: the 1-minute load at the start (load_start) and now, and a WARNING when either
# exceeded the CPU count: the times are then not reliable (the counts of calls are).
load_report() {
	local end n
	end=$(cut -d' ' -f1 /proc/loadavg) n=$(nproc)
	echo "1-minute load: ${LOAD_START:-?} at the start, $end at the end, on $n CPUs."
	if awk -v a="${LOAD_START:-0}" -v b="$end" -v n="$n" 'BEGIN { exit !(a > n || b > n) }'; then
		echo "WARNING: the load exceeded the CPU count: the times and ratios above are not reliable (the system call counts are); run again when the machine is quiet."
	fi
}
