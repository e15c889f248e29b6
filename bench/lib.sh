# shellcheck shell=bash
# bench/lib.sh: what the bench scripts share. Sourced, never run: `. "$BENCH_DIR/lib.sh"`.
# It only defines functions; nothing happens until a script calls one. The scripts set first:
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

# find_binaries: set TMPCREATE to the binary to measure, made absolute: $TMPCREATE if set, else
# ./src/tmpcreate, else ../src/tmpcreate next to this script, else tmpcreate on PATH; die when
# there is none or it is not executable. Also sets TRUE to /usr/bin/true (the builtin would not
# spawn).
find_binaries() {
	local c
	if [[ -z ${TMPCREATE:-} ]]; then
		for c in ./src/tmpcreate "$BENCH_DIR/../src/tmpcreate"; do
			[[ -x $c ]] && { TMPCREATE=$c; break; }
		done
		[[ -n ${TMPCREATE:-} ]] || TMPCREATE=$(command -v tmpcreate || true)
		[[ -n $TMPCREATE ]] || die "no tmpcreate found: run from the build dir, or set TMPCREATE=/path/to/tmpcreate"
	fi
	TMPCREATE=$(realpath "$TMPCREATE")
	[[ -x $TMPCREATE ]] || die "TMPCREATE=$TMPCREATE is not executable"
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

# FSLIST unless set: as root "tmpfs ext4" (fresh mounts; ext4 dropped without
# mkfs.ext4), else "local" (the work dir's own filesystem).  After bench_workdir.
default_fslist() {
	if ((ROOT)); then
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
# auto-detached at umount). FS "local" only makes DIR (nothing is mounted).
mount_fs() {
	local fs=$1 dir=$2 mib=${3:-512} img
	mkdir -p "$dir"
	case $fs in
	local) return 0 ;;
	tmpfs) mount -t tmpfs -o "size=${mib}m,mode=0755" tmpfs "$dir" ;;
	ext4)
		img=$WORK/$(basename "$dir").ext4.img
		truncate -s "${mib}M" "$img"
		IMAGES+=("$img")
		# no lazy init: no kernel thread zeroing inode tables while we measure
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img"
		mount -o loop "$img" "$dir"
		;;
	*) die "unknown filesystem '$fs' (tmpfs, ext4)" ;;
	esac
	MOUNTS+=("$dir")
}

# umount_fs DIR: unmount what mount_fs mounted on DIR (lazily when busy), drop it from MOUNTS and
# delete its loop image. Does nothing when DIR is not in MOUNTS (FS "local").
umount_fs() {
	local i
	[[ ${MOUNTS[*]} == *"$1"* ]] || return 0
	umount "$1" || umount -l "$1"
	for i in "${!MOUNTS[@]}"; do [[ ${MOUNTS[i]} == "$1" ]] && unset 'MOUNTS[i]'; done
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
