#!/usr/bin/env bash
# bench/atomic-output.sh: `tmpcreate -o FILE` (atomic replace of FILE by standard input) measured in
# one run beside `cat > FILE` (not atomic: the speed reference), `sponge FILE` (moreutils) and a bare C
# O_TMPFILE writer (bench/src/atomic-writer.c: the floor), at 1 GiB and at 4 KiB, from a regular file
# and from a pipe. It is a benchmark, not a test: it exits 0 once it has measured (1 only when it
# cannot run) and prints PASS/MISS per target.
#
#   bash bench/atomic-output.sh                    # from the build dir: uses ./tmpcreate (~5-8 min:
#                                                  # sponge at 1 GiB takes 5-20 s a run)
#   TMPCREATE=/path/to/tmpcreate bash bench/atomic-output.sh
#   QUICK=1 bash bench/atomic-output.sh            # smoke run: 8 MiB, 10 writes, 2 rounds (seconds)
#   DEST="disk ext4 tmpfs" bash bench/atomic-output.sh
#
# Method (every figure comes from this one run):
#  - The source SRC is on a tmpfs (a private one as root, else /dev/shm), made of non-zero bytes.
#    "From a file" is `WRITER <SRC`; "from a pipe" is `cat SRC | WRITER`.
#  - FILE exists before every run (4 bytes, mode 0640) and every writer replaces it. It is reset, and
#    its filesystem synced (sync -f), untimed, before each timed run.
#  - Writers: cat >FILE; TMPDIR=FILE's dir sponge FILE; atomic-writer -s none|full FILE (C: O_TMPFILE,
#    copy_file_range->sendfile from a file, splice from a pipe grown to 1 MiB, fsync file (+ dir for
#    full), linkat + renameat); tmpcreate -o FILE --sync=none; tmpcreate -o FILE (default: full).
#    At 4 KiB each timed run is REPS writes, one process each, in an sh loop, and /usr/bin/true in
#    the same loop is the process floor.
#  - Time: runt (bench/src/runt.c: CLOCK_MONOTONIC around fork..wait4) of `sh -c 'PIPELINE'`.
#    Rounds are interleaved (round r starts at case r mod n, so drift and order hit every case
#    alike); a ratio is the median over rounds of case/reference measured in the same round.
#  - Peak RSS: one untimed warm-up run per case with the writer itself as runt's child
#    (`runt WRITER <SRC`, `cat SRC | runt WRITER`): wait4's ru_maxrss of the writer alone.
#  - Checks: after every tmpcreate run (and after the first run of every other writer) FILE must
#    equal SRC (cmp), the writer must have exited 0, and for the atomic writers FILE must have kept
#    mode 0640 and be the only entry left in its directory; else the row says CHECK FAILED.
#  - Syscalls: one strace -f of tmpcreate and of the C writer per source (data-moving calls, bytes
#    per call, F_SETPIPE_SZ), on min(SIZE, 64 MiB).
#
# Environment:
#   TMPCREATE  the binary (default: ./tmpcreate, else ../tmpcreate next to this script, else
#              tmpcreate on PATH)
#   SIZE       the large size (1G; numfmt --from=iec: 512M, 2G...)   SMALL  the small size (4K)
#   REPS       writes per timed run at the small size (100)
#   ROUNDS     timed rounds per section (default 3 at SIZE, 7 at SMALL), plus one warm-up
#   DEST       where FILE lives, one or more of: disk (a directory under ${TMPDIR:-/tmp}; default),
#              tmpfs, ext4, overlay (fresh mounts; root only, skipped otherwise), target (a fresh
#              directory under TARGET; the default when TARGET is set)
#   TARGET     a directory on the filesystem to measure (an sshfs mount, an overlay...)
#   QUICK=1    SIZE=8M REPS=10 ROUNDS=2: a smoke run in seconds
#   CC         compiler for bench/src/*.c (cc)
#
# As root it re-executes itself in a private mount namespace (unshare -m): the tmpfs and the ext4
# loop image (mount -o loop: the loop device is auto-detached at umount) are invisible to the rest of
# the machine and go away with the process even if it is killed; on exit (Ctrl-C included) it
# unmounts, detaches any loop device still bound to its own image, and deletes its work dir.
# shellcheck disable=SC2002 # `cat SRC | WRITER` is the point: the "from a pipe" cases
set -euo pipefail
export LC_ALL=C

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$(realpath "${BASH_SOURCE[0]}")")/lib.sh" # SELF, BENCH_DIR, BENCH_NAME
NOTE_PREFIX="$BENCH_NAME: "

private_ns ATOMIC_BENCH_NS "$@"

SIZE=${SIZE:-1G}
SMALL=${SMALL:-4K}
REPS=${REPS:-100}
if [[ -n ${TARGET:-} ]]; then DEST=${DEST:-target}; else DEST=${DEST:-disk}; fi
if [[ ${QUICK:-0} == 1 ]]; then
	SIZE=8M REPS=10 ROUNDS=2
fi
BIG_BYTES=$(numfmt --from=iec "$SIZE") || die "SIZE=$SIZE: not a size"
SMALL_BYTES=$(numfmt --from=iec "$SMALL") || die "SMALL=$SMALL: not a size"
((BIG_BYTES > 0 && SMALL_BYTES > 0)) || die "sizes must be positive"

# ------------------------------------------------------------------ the binaries
find_binaries # TMPCREATE, TRUE
need_tools cat cmp numfmt stat find strace findmnt "${CC:-cc}"
HAVE_SPONGE=0
command -v sponge >/dev/null && HAVE_SPONGE=1
((HAVE_SPONGE)) || note "sponge not found (apt-get install moreutils): its rows and the sponge target are skipped"

# ------------------------------------------------------------------ work dir, cleanup
bench_workdir atomic # WORK, RES, ROOT; cleanup on EXIT/INT/TERM/HUP (bench/lib.sh)
build_c atomic-writer runt
CW=$WORK/bin/atomic-writer
RUNT=$WORK/bin/runt
LOG=$WORK/stderr.log # the writers' stderr
: >"$LOG"

sq() { local s=${1//\'/\'\\\'\'}; printf "'%s'" "$s"; } # quote for sh -c

# ------------------------------------------------------------------ the source (tmpfs)
if ((ROOT)); then
	SRCM=$WORK/mnt/src
	mount_fs tmpfs "$SRCM" $((BIG_BYTES / 1048576 + 160)) # + the 64 MiB strace source
	SRCDESC="private tmpfs"
elif [[ $(stat -f -c %T /dev/shm 2>/dev/null) == tmpfs && -w /dev/shm ]]; then
	SRCM=$(mktemp -d /dev/shm/bench-atomic-src.XXXXXX)
	EXTRA_DIRS+=("$SRCM") # cleanup deletes it
	SRCDESC="/dev/shm (tmpfs)"
else
	SRCM=$WORK/src && mkdir -p "$SRCM"
	SRCDESC="NOT a tmpfs: $(stat -f -c %T "$SRCM") (not root, no /dev/shm)"
fi
mksrc() { # BYTES FILE: non-zero bytes, so nothing can take a zero-page shortcut
	(set +o pipefail; yes 'fattrs atomic output benchmark 0123456789' | head -c "$1" >"$2")
}
SRC_BIG=$SRCM/big
SRC_SMALL=$SRCM/small
SRC_DIAG=$SRCM/diag
mksrc "$BIG_BYTES" "$SRC_BIG"
mksrc "$SMALL_BYTES" "$SRC_SMALL"
DIAG_BYTES=$((BIG_BYTES < 67108864 ? BIG_BYTES : 67108864))
mksrc "$DIAG_BYTES" "$SRC_DIAG"

# ------------------------------------------------------------------ the cases
# ID, label, and the writer as sh text (W_*); the writer alone as a bash command for the RSS run.
declare -A LABEL=(
	[cat]="cat > FILE (not atomic: reference)"
	[sponge]="TMPDIR=DIR sponge FILE"
	[cwn]="C atomic-writer -s none FILE"
	[cwf]="C atomic-writer -s full FILE"
	[tcn]="tmpcreate -o FILE --sync=none"
	[tcf]="tmpcreate -o FILE (default --sync=full)"
	[true]="(0) /usr/bin/true: process floor, no file"
)
writer_sh() { # ID -> sh text of the writer, reading stdin
	case $1 in
	cat) echo "cat >$(sq "$F")" ;;
	sponge) echo "TMPDIR=$(sq "$DDIR") sponge $(sq "$F")" ;;
	cwn) echo "$(sq "$CW") -s none $(sq "$F")" ;;
	cwf) echo "$(sq "$CW") -s full $(sq "$F")" ;;
	tcn) echo "$(sq "$TMPCREATE") -o $(sq "$F") --sync=none" ;;
	tcf) echo "$(sq "$TMPCREATE") -o $(sq "$F")" ;;
	true) sq "$TRUE" && echo ;;
	esac
}
writer_rss() { # ID OUT: the writer itself as runt's child, stdin inherited
	case $1 in
	cat) "$RUNT" -o "$2" cat >"$F" ;;
	sponge) TMPDIR=$DDIR "$RUNT" -o "$2" sponge "$F" ;;
	cwn) "$RUNT" -o "$2" "$CW" -s none "$F" ;;
	cwf) "$RUNT" -o "$2" "$CW" -s full "$F" ;;
	tcn) "$RUNT" -o "$2" "$TMPCREATE" -o "$F" --sync=none ;;
	tcf) "$RUNT" -o "$2" "$TMPCREATE" -o "$F" ;;
	true) "$RUNT" -o "$2" "$TRUE" ;;
	esac
}

reset_file() { # untimed, before every run
	find "$DDIR" -mindepth 1 -delete
	printf 'old\n' >"$F"
	chmod 0640 "$F"
	sync -f "$DDIR"
}

check_file() { # ID RC -> 0 when the result is right
	local id=$1 rc=$2
	[[ $id == true ]] && return 0
	((rc == 0)) || { note "CHECK FAILED: $SEC ${LABEL[$id]}: exit $rc"; return 1; }
	cmp -s "$S" "$F" || { note "CHECK FAILED: $SEC ${LABEL[$id]}: FILE differs from SRC"; return 1; }
	case $id in
	cwn | cwf | tcn | tcf)
		local mode n
		mode=$(stat -c %a "$F")
		[[ $mode == 640 ]] || { note "CHECK FAILED: $SEC ${LABEL[$id]}: mode $mode, not 640"; return 1; }
		n=$(find "$DDIR" -mindepth 1 | wc -l)
		((n == 1)) || { note "CHECK FAILED: $SEC ${LABEL[$id]}: $n entries in FILE's directory (leftovers)"; return 1; }
		;;
	esac
	return 0
}

# run_case RAW INDEX ROUND: reset, one timed run of case ${IDS[INDEX]} (REPS writes at the small
# size), checks
run_case() {
	local raw=$1 id=${IDS[$2]} r=$3 w cmd line chk=ok
	reset_file
	if ((r < 0)); then # warm-up: the writer alone under runt, for its peak RSS
		rm -f "$WORK/.rss"
		if [[ $SRCKIND == pipe ]]; then
			cat "$S" | writer_rss "$id" "$WORK/.rss" 2>>"$LOG" || true
		else
			writer_rss "$id" "$WORK/.rss" <"$S" 2>>"$LOG" || true
		fi
		read -r _ _ _ line _ <"$WORK/.rss"
		printf '%s %s rss %s\n' "$SEC" "$id" "$line" >>"$RES"
		return 0
	fi
	w=$(writer_sh "$id")
	if [[ $SRCKIND == pipe ]]; then w="cat $(sq "$S") | $w"; else w="$w <$(sq "$S")"; fi
	if ((UNITS > 1)); then cmd="i=0; while [ \$i -lt $UNITS ]; do $w || exit \$?; i=\$((i+1)); done"; else cmd=$w; fi
	rm -f "$WORK/.t"
	"$RUNT" -o "$WORK/.t" sh -c "$cmd" 2>>"$LOG" >/dev/null || true
	read -r line <"$WORK/.t"
	if [[ $id == tc? ]] || ((r == 0)); then
		check_file "$id" "${line##* }" || chk=FAILED
	fi
	printf '%s %s %s\n' "$id" "$r" "$line" >>"$raw"
	[[ $chk == ok ]] || res "failed.$SEC.$id" 1
}

# summarise RAW: the table, and key/value results for the summary
summarise() {
	local raw=$1
	IDS_STR="${IDS[*]}" LABELS_STR=$(for id in "${IDS[@]}"; do echo "${LABEL[$id]}"; done) \
		awk -v sec="$SEC" -v res="$RES" -v units="$UNITS" -v bytes="$BYTES" "$(awk_stats)"'
	function per(c, r) { return w[c, r] } # nanoseconds, one run
	function rng(a, b,   r, x, lo, hi) {
		lo = 1e30; hi = 0
		for (r = 0; r < nr; r++) { x = w[a, r] / w[b, r]; if (x < lo) lo = x; if (x > hi) hi = x }
		return sprintf("%.2f-%.2f", lo, hi)
	}
	function fr(x) { return x < 0 ? "–" : sprintf("%.2f", x) }
	BEGIN {
		n = split(ENVIRON["IDS_STR"], id, " "); split(ENVIRON["LABELS_STR"], lab, "\n")
		pre = "failed." sec "."
		while ((getline line < res) > 0) {
			split(line, f, " ")
			if (f[1] == sec && f[3] == "rss") rss[f[2]] = f[4]
			if (substr(f[1], 1, length(pre)) == pre) bad[substr(f[1], length(pre) + 1)] = 1
		}
		close(res)
	}
	{ w[$1, $2] = $3; c[$1, $2] = $4 + $5; have[$1] = 1; if ($2 + 1 > nr) nr = $2 + 1; if ($7 != 0 && $1 != "true") bad[$1] = 1 }
	END {
		if (units > 1) printf "| case | median ms/run | min-max ms | per write | MB/s | x cat (paired) | x C -s none | x C -s full | sponge / case | cpu ms | peak RSS (writer) |\n"
		else printf "| case | median ms | min-max ms | MB/s | x cat (paired) | x C -s none | x C -s full | sponge / case | cpu ms | peak RSS (writer) |\n"
		printf "|---|---:|---:|%s---:|---:|---:|---:|---:|---:|\n", (units > 1 ? "---:|---:|" : "---:|")
		for (i = 1; i <= n; i++) {
			k = id[i]; m = 0; lo = 1e30; hi = 0
			for (r = 0; r < nr; r++) { a[++m] = w[k, r]; cc[m] = c[k, r]; if (w[k, r] < lo) lo = w[k, r]; if (w[k, r] > hi) hi = w[k, r] }
			med = median(a, m); mc = median(cc, m)
			mbs = (k == "true") ? "–" : sprintf(bytes * units / (med / 1e9) / 1e6 < 10 ? "%.2f" : "%.0f", bytes * units / (med / 1e9) / 1e6)
			pw = med / units / 1000
			sp = ratio("sponge", k)
			printf "| %s%s | %.1f | %.1f-%.1f |%s %s | %s | %s | %s | %s | %.1f | %s |\n", lab[i], (k in bad) ? " **CHECK FAILED**" : "", med / 1e6, lo / 1e6, hi / 1e6,
				(units > 1 ? sprintf(" %.0f us |", pw) : ""), mbs, fr(ratio(k, "cat")), fr(ratio(k, "cwn")), fr(ratio(k, "cwf")),
				(k == "true" || sp < 0) ? "–" : sprintf("%.2f", sp), mc / 1e6, (k in rss) ? sprintf("%.2f MiB", rss[k] / 1024) : "–"
			print sec ".med." k, med >> res
			print sec ".per." k, pw >> res
		}
		print sec ".x.tcf.cat", ratio("tcf", "cat") >> res; print sec ".r.tcf.cat", rng("tcf", "cat") >> res
		print sec ".x.tcn.cat", ratio("tcn", "cat") >> res; print sec ".r.tcn.cat", rng("tcn", "cat") >> res
		print sec ".x.tcn.cwn", ratio("tcn", "cwn") >> res; print sec ".r.tcn.cwn", rng("tcn", "cwn") >> res
		print sec ".x.tcf.cwf", ratio("tcf", "cwf") >> res; print sec ".r.tcf.cwf", rng("tcf", "cwf") >> res
		print sec ".x.cwf.cat", ratio("cwf", "cat") >> res
		print sec ".x.cwn.cat", ratio("cwn", "cat") >> res
		if ("sponge" in have) { print sec ".x.sponge.tcf", ratio("sponge", "tcf") >> res; print sec ".r.sponge.tcf", rng("sponge", "tcf") >> res }
		for (k in bad) print sec ".bad." k, 1 >> res
	}' "$raw"
}

# ------------------------------------------------------------------ syscalls of one run
diag() { # ID: writer alone under strace, from a file and from a pipe, on SRC_DIAG
	local id=$1 kind t
	for kind in file pipe; do
		t=$WORK/trace.$id.$kind
		reset_file
		local -a argv
		case $id in
		cwf) argv=("$CW" -s full "$F") ;;
		tcf) argv=("$TMPCREATE" -o "$F") ;;
		esac
		if [[ $kind == pipe ]]; then
			cat "$SRC_DIAG" | strace -f -qq -o "$t" "${argv[@]}" 2>>"$LOG" || true
		else
			strace -f -qq -o "$t" "${argv[@]}" <"$SRC_DIAG" 2>>"$LOG" || true
		fi
		awk -v label="${LABEL[$id]}" -v kind="$kind" '
		{ line = $0; sub(/^[0-9]+ +/, "", line) }
		line ~ /^[a-z_0-9]+\(/ { total++; nm = line; sub(/\(.*/, "", nm); cnt[nm]++
			ret = line; sub(/.*\) += /, "", ret); sub(/ .*/, "", ret)
			if (ret ~ /^[0-9]+$/) bytes[nm] += ret }
		line ~ /F_SETPIPE_SZ/ { ps = line; sub(/.*= /, "", ps); pipesz = ps }
		END {
			s = ""
			split("splice copy_file_range sendfile read write fsync fdatasync linkat renameat renameat2 fchmod fchown fsetxattr flistxattr", want, " ")
			for (i = 1; i in want; i++) { nm = want[i]; if (cnt[nm] == 0) continue
				if (nm ~ /^(splice|copy_file_range|sendfile|read|write)$/) s = s sprintf("%s%s %d (%.0f KiB/call)", s ? ", " : "", nm, cnt[nm], bytes[nm] / cnt[nm] / 1024)
				else s = s sprintf("%s%s %d", s ? ", " : "", nm, cnt[nm]) }
			printf "| %s | %s | %d | %s | %s |\n", label, kind, total, pipesz == "" ? "not called" : pipesz, s
		}' "$t"
	done
}

# ------------------------------------------------------------------ run
echo "# Atomic output: bench/atomic-output.sh"
echo
echo "machine: $(machine)"
echo "uptime at start: $(uptime)"
echo "tmpcreate: $TMPCREATE ($("$TMPCREATE" --version 2>/dev/null | head -1 || true))"
echo "tools: $(cat --version | head -1); sponge: $( ((HAVE_SPONGE)) && dpkg-query -W -f '${Package} ${Version}' moreutils 2>/dev/null || echo none); C writer: bench/src/atomic-writer.c (${CC:-cc} -O2)"
echo "sizes: $SIZE ($BIG_BYTES bytes, one write per run) and $SMALL ($SMALL_BYTES bytes, $REPS writes per run); SRC on $SRCDESC"
START=$SECONDS

dests=()
for d in $DEST; do
	case $d in
	disk) dests+=(disk) ;;
	target) [[ -n ${TARGET:-} ]] || die "DEST=target needs TARGET=DIR"; dests+=(target) ;;
	tmpfs | ext4 | overlay)
		if ((ROOT)); then dests+=("$d"); else note "DEST=$d needs root (a mount): skipped"; fi
		if [[ $d == ext4 ]] && ! command -v mkfs.ext4 >/dev/null; then note "no mkfs.ext4: ext4 skipped"; unset 'dests[-1]'; fi
		;;
	*) die "DEST must be a list of: disk tmpfs ext4 overlay target" ;;
	esac
done
((${#dests[@]})) || die "nothing to measure (DEST=$DEST)"

for dest in "${dests[@]}"; do
	case $dest in
	disk) DDIR=$WORK/dst && mkdir -p "$DDIR" ;;
	*)
		mount_fs "$dest" "$WORK/mnt/dst" $((BIG_BYTES * 3 / 1048576 + 512))
		DDIR=$WORK/mnt/dst/d && mkdir -p "$DDIR"
		;;
	esac
	F=$DDIR/out
	echo
	echo "## FILE on $dest: $(findmnt -n -o FSTYPE,SOURCE,OPTIONS --target "$DDIR" | tr -s ' ')"
	reset_file
	echo
	echo "C writer's copy path: $("$CW" -v -s none "$F" <"$SRC_SMALL" 2>&1 | sed 's/^atomic-writer: //') (from a file); $(cat "$SRC_SMALL" | "$CW" -v -s none "$F" 2>&1 | sed 's/^atomic-writer: //') (from a pipe)"
	for size in big small; do
		for SRCKIND in file pipe; do
			if [[ $size == big ]]; then
				S=$SRC_BIG BYTES=$BIG_BYTES UNITS=1 SZ=$SIZE rounds=${ROUNDS:-3}
				IDS=(cat cwn cwf tcn tcf)
			else
				S=$SRC_SMALL BYTES=$SMALL_BYTES UNITS=$REPS SZ=$SMALL rounds=${ROUNDS:-7}
				IDS=(true cat cwn cwf tcn tcf)
			fi
			((HAVE_SPONGE)) && IDS=("${IDS[@]:0:${#IDS[@]}-4}" sponge "${IDS[@]: -4}")
			SEC=$dest.$size.$SRCKIND
			raw=$WORK/raw.$SEC
			: >"$raw"
			echo
			echo "### $SZ from a $SRCKIND into $dest: $rounds interleaved rounds (+1 warm-up: peak RSS), $UNITS write(s) per run"
			echo
			interleave "$rounds" ${#IDS[@]} run_case "$raw"
			summarise "$raw"
			echo
			echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
		done
	done
	if [[ $dest == "${dests[0]}" ]]; then
		echo
		echo "### Syscalls of one run on $dest, $DIAG_BYTES bytes (strace -f of the writer alone)"
		echo
		echo "| writer | from a | syscalls | F_SETPIPE_SZ returns | data and publishing calls |"
		echo "|---|---|---:|---:|---|"
		diag cwf
		diag tcf
	fi
	find "$DDIR" -mindepth 1 -delete
	[[ $dest == disk ]] || umount_fs "$WORK/mnt/dst"
done

# ------------------------------------------------------------------ summary
bad() { # SEC ID...: non-empty when a check failed
	local id
	for id in "${@:2}"; do [[ $(get "$1.bad.$id") == 1 ]] && { echo bad; return; }; done
	return 0
}
maxrss() { # ID...: the largest peak RSS (KiB) of these writers over every section
	awk -v ids="$*" 'BEGIN { n = split(ids, w, " "); for (i = 1; i <= n; i++) want[w[i]] = 1 }
		$3 == "rss" && ($2 in want) && $4 > m { m = $4 } END { print m + 0 }' "$RES"
}

echo
echo "## Summary"
echo
echo "machine: $(machine)"
echo "wall time of the whole run: $((SECONDS - START)) s"
echo
echo "Ratios are medians of per-round ratios (range over rounds in brackets); \"x cat\" < 1 means faster than cat."
echo
echo "| target | measured | limit | verdict |"
echo "|---|---:|---:|---|"
for dest in "${dests[@]}"; do
	# Against cat: the default, and --sync=none (the copy path alone).
	for kind in pipe file; do
		s=$dest.big.$kind
		if [[ $kind == pipe ]]; then lim=0.50 what=">= 2x throughput"; else lim=1.00 what="no slower"; fi
		v=$(get "$s.x.tcf.cat")
		echo "| $dest, $SIZE from a $kind: tmpcreate (default) time x cat > FILE ($what) [$(get "$s.r.tcf.cat")]; the C floor -s full: $(fmt "$(get "$s.x.cwf.cat")" %.2f) | $(fmt "$v" %.2f) | $lim | $(verdict "$v" '<=' $lim "$(bad "$s" tcf)") |"
		v=$(get "$s.x.tcn.cat")
		echo "| $dest, $SIZE from a $kind: tmpcreate --sync=none time x cat > FILE ($what) [$(get "$s.r.tcn.cat")]; the C floor -s none: $(fmt "$(get "$s.x.cwn.cat")" %.2f) | $(fmt "$v" %.2f) | $lim | $(verdict "$v" '<=' $lim "$(bad "$s" tcn)") |"
	done
	# Against the bare C writer at the same sync level.
	for kind in file pipe; do
		s=$dest.big.$kind
		if [[ $kind == pipe ]]; then lim=1.15; else lim=1.10; fi
		v=$(get "$s.x.tcn.cwn")
		echo "| $dest, $SIZE from a $kind: tmpcreate --sync=none time x C -s none [$(get "$s.r.tcn.cwn")] | $(fmt "$v" %.2f) | $lim | $(verdict "$v" '<=' $lim "$(bad "$s" tcn)") |"
		v=$(get "$s.x.tcf.cwf")
		echo "| $dest, $SIZE from a $kind: tmpcreate (default) time x C -s full [$(get "$s.r.tcf.cwf")] | $(fmt "$v" %.2f) | $lim | $(verdict "$v" '<=' $lim "$(bad "$s" tcf)") |"
	done
	if ((HAVE_SPONGE)); then
		s=$dest.big.file
		v=$(get "$s.x.sponge.tcf")
		echo "| $dest, $SIZE from a file: sponge time / tmpcreate (default) time [$(get "$s.r.sponge.tcf")] | $(fmt "$v" %.2f) | >= 5 | $(verdict "$v" '>=' 5 "$(bad "$s" tcf)") |"
		v=$(get "$dest.big.pipe.x.sponge.tcf")
		echo "| $dest, $SIZE from a pipe: sponge time / tmpcreate (default) time [$(get "$dest.big.pipe.r.sponge.tcf")] | $(fmt "$v" %.2f) | >= 5 | $(verdict "$v" '>=' 5 "$(bad "$dest.big.pipe" tcf)") |"
	fi
	for kind in file pipe; do
		s=$dest.small.$kind
		v=$(get "$s.x.tcn.cwn")
		echo "| $dest, $SMALL from a $kind: tmpcreate --sync=none per write x C -s none [$(get "$s.r.tcn.cwn")] | $(fmt "$v" %.3f) | 1.15 | $(verdict "$v" '<=' 1.15 "$(bad "$s" tcn)") |"
		v=$(get "$s.x.tcf.cwf")
		echo "| $dest, $SMALL from a $kind: tmpcreate (default) per write x C -s full [$(get "$s.r.tcf.cwf")] | $(fmt "$v" %.3f) | 1.15 | $(verdict "$v" '<=' 1.15 "$(bad "$s" tcf)") |"
	done
done
v=$(awk -v k="$(maxrss tcn tcf)" 'BEGIN { print (k > 0 ? k / 1024 : "n/a") }')
echo "| peak RSS of tmpcreate -o, largest over every section and sync level (MiB) | $(fmt "$v" %.2f) | 4.00 | $(verdict "$v" '<=' 4) |"
echo "| peak RSS of the C writer / cat / sponge, largest (MiB) | $(awk -v a="$(maxrss cwn cwf)" -v b="$(maxrss cat)" -v c="$(maxrss sponge)" 'BEGIN { printf "%.2f / %.2f / %.2f", a / 1024, b / 1024, c / 1024 }') | | info |"
echo
echo "uptime at end: $(uptime)"
if [[ -s $LOG ]]; then
	echo
	echo "Writers' stderr (first 20 lines):"
	echo
	echo '```'
	head -20 "$LOG"
	echo '```'
fi
