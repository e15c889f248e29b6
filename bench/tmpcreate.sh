#!/usr/bin/env bash
# bench/tmpcreate.sh: tmpcreate as a mktemp(1) drop-in, measured beside mktemp, the spawn floor
# (/usr/bin/true) and the syscall floor (bench/src/tmp-loop.c), in one run. It is a benchmark, not a
# test: it always exits 0 once it has measured (1 only when it cannot run), and prints PASS/MISS.
#
#   bash bench/tmpcreate.sh                        # from the build dir: uses ./tmpcreate
#   TMPCREATE=/path/to/tmpcreate bash bench/tmpcreate.sh
#   QUICK=1 bash bench/tmpcreate.sh                # smoke run, a few seconds
#
# What it measures (every figure comes from this one run):
#  1. Time, interleaved rounds (round r starts at case r mod n), paired ratios (median over rounds of
#     case/reference measured in the same round), on a fresh tmpfs and a fresh ext4 loop image:
#     NPROC files made one process per file (xargs -n1 spawns each directly) by tmpcreate -p DIR,
#     tmpcreate --method=named -p DIR, mktemp -p DIR, the C loop as a one-shot (tmp-loop empty DIR 1)
#     and /usr/bin/true (no file: the spawn floor); and N files made in ONE process by the C loop
#     (tmp-loop empty|proc|excl DIR N). tmpcreate's in-process cost is its per-file time minus
#     /usr/bin/true's, paired per round, set beside the C loop's cost per creation.
#  2. hyperfine -N of one run each (not interleaved: hyperfine runs the commands one after another).
#  3. Syscalls from a full trace (strace -f -qq -o FILE, one line per syscall; Debian 12's strace -c
#     leaves out the syscalls it has no name for): per run, by name; the syscalls of the creation
#     itself marked in the trace of one tmpcreate run (auto and --method=named); the C loop's slope
#     between 100 and 1,100 files.
#  4. What the dynamic loader pulls in: ldd, NEEDED, libraries initialised at run time (LD_DEBUG=libs,
#     which also shows a dlopen), LD_DEBUG=statistics.
#
# Environment:
#   TMPCREATE  the binary (default: ./tmpcreate, else ../tmpcreate next to this script, else
#              tmpcreate on PATH)
#   N          files per in-process C loop run (10000)     NPROC   files per one-process-per-file run (1000)
#   ROUNDS     timed rounds (5, plus 1 warm-up)           HF_RUNS hyperfine runs per command (300)
#   FSLIST     filesystems to mount and measure on ("tmpfs ext4"; also overlay); root only; or
#              target (the default when TARGET is set)
#   TARGET     a directory on the filesystem to measure (an sshfs mount, an overlay...): a fresh
#              directory is made there, used, and removed
#   QUICK=1    N=1000 NPROC=100 ROUNDS=2 HF_RUNS=30: a smoke run in seconds
#   CC         compiler for tmp-loop.c (cc)
#
# As root it re-executes itself in a private mount namespace (unshare -m): the tmpfs and the ext4
# loop image (mount -o loop, auto-detached at umount) are invisible to the rest of the machine, and
# go away with the process even if it is killed; on exit (Ctrl-C included) it unmounts, detaches
# any loop device still bound to its image, and deletes its work dir. Not root: the mounts are
# skipped and everything runs in a directory under the work dir, on whatever filesystem that is.
set -euo pipefail
export LC_ALL=C

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$(realpath "${BASH_SOURCE[0]}")")/lib.sh" # SELF, BENCH_DIR, BENCH_NAME

private_ns TMPCREATE_BENCH_NS "$@"

N=${N:-10000}
NPROC=${NPROC:-1000}
ROUNDS=${ROUNDS:-5}
HF_RUNS=${HF_RUNS:-300}
if [[ ${QUICK:-0} == 1 ]]; then
	N=1000 NPROC=100 ROUNDS=2 HF_RUNS=30
fi

# ------------------------------------------------------------------ the binaries
find_binaries            # TMPCREATE, TRUE
MKTEMP=$(type -P mktemp) # /usr/bin/mktemp
need_tools xargs strace taskset find ldd "${CC:-cc}"

# ------------------------------------------------------------------ work dir, cleanup
bench_workdir tmpcreate # WORK, RES, ROOT; cleanup on EXIT/INT/TERM/HUP (bench/lib.sh)
build_c tmp-loop
LOOP=$WORK/bin/tmp-loop
TEMPL=$WORK/templates # one mktemp template per line: xargs -n1 appends one to each command
for ((i = 0; i < NPROC; i++)); do echo tmp.XXXXXXXXXX; done >"$TEMPL"

default_fslist

load_start
echo "# tmpcreate vs mktemp: bench/tmpcreate.sh"
echo
echo "machine: $(machine)"
echo "tmpcreate: $TMPCREATE ($("$TMPCREATE" --version 2>/dev/null | head -1 || true))"
echo "mktemp: $MKTEMP ($("$MKTEMP" --version | head -1)); true: $TRUE"
echo "N=$N (in-process loop), NPROC=$NPROC (one process per file), ROUNDS=$ROUNDS (+1 warm-up), HF_RUNS=$HF_RUNS"
if ((ROOT)); then
	echo "filesystems: $FSLIST (mounted fresh, in a private mount namespace)"
else
	echo "NOT ROOT: no tmpfs/ext4 mounts; measuring in $WORK ($(stat -f -c %T "$WORK"))"
fi

# ------------------------------------------------------------------ 1. timed cases
# Each case is a function that makes its files in $D; IDS/LABELS/UNITS/EXPECT describe them.
c_true() { xargs -n1 "$TRUE" <"$TEMPL" >/dev/null; }
c_mktemp() { xargs -n1 "$MKTEMP" -p "$D" <"$TEMPL" >/dev/null; }
c_tc() { xargs -n1 "$TMPCREATE" -p "$D" <"$TEMPL" >/dev/null; }
c_tcn() { xargs -n1 "$TMPCREATE" --method=named -p "$D" <"$TEMPL" >/dev/null; }
c_l1() { xargs -n1 "$LOOP" empty "$D" 1 <"$TEMPL" >/dev/null; }
c_le() { "$LOOP" empty "$D" "$N"; }
c_lp() { "$LOOP" proc "$D" "$N"; }
c_lx() { "$LOOP" excl "$D" "$N"; }
IDS=(true mktemp tc tcn l1 le lp lx)
LABELS=(
	"(0) xargs -n1 /usr/bin/true (spawn floor, no file)"
	"(m) xargs -n1 mktemp -p DIR"
	"(t) xargs -n1 tmpcreate -p DIR"
	"(tn) xargs -n1 tmpcreate --method=named -p DIR"
	"(l1) xargs -n1 tmp-loop empty DIR 1 (C, one-shot)"
	"(a2) tmp-loop empty DIR N (C loop, AT_EMPTY_PATH)"
	"(a) tmp-loop proc DIR N (C loop, /proc/self/fd)"
	"(b2) tmp-loop excl DIR N (C loop, O_CREAT|O_EXCL)"
)
UNITS=("$NPROC" "$NPROC" "$NPROC" "$NPROC" "$NPROC" "$N" "$N" "$N")
EXPECT=(0 "$NPROC" "$NPROC" "$NPROC" "$NPROC" "$N" "$N" "$N")

now_us() { local t=$EPOCHREALTIME; echo "${t/./}"; } # EPOCHREALTIME is seconds.micros (LC_ALL=C)

# run_case FS RAW INDEX ROUND: untimed reset of $D, one timed run, a check of the file count in round 0
run_case() {
	local fs=$1 raw=$2 i=$3 r=$4 t0 t1 rc=0 got
	rm -rf "$D" && mkdir "$D" && sync -f "$MNT"
	t0=$(now_us)
	"c_${IDS[i]}" || rc=$?
	t1=$(now_us)
	if ((r == 0)); then
		got=$(find "$D" -type f | wc -l)
		if ((rc != 0 || got != EXPECT[i])); then
			note "CHECK FAILED: $fs ${LABELS[i]}: exit $rc, $got files, expected ${EXPECT[i]}"
			res "failed.$fs.${IDS[i]}" 1
		fi
	fi
	((r < 0)) || printf '%s %s %s\n' "${IDS[i]}" "$r" "$((t1 - t0))" >>"$raw"
}

# summarise FS RAW: the table, and key/value results for the summary
summarise() {
	local fs=$1 raw=$2
	IDS_STR="${IDS[*]}" LABELS_STR=$(printf '%s\n' "${LABELS[@]}") UNITS_STR="${UNITS[*]}" \
		awk -v fs="$fs" -v res="$RES" "$(awk_stats)"'
	function per(c, r) { return w[c, r] / u[c] }           # microseconds per file, one run
	function excess(a, b,   r, q, m) { m = 0; for (r = 0; r < nr; r++) q[++m] = per(a, r) - per(b, r); return median(q, m) }
	function exratio(a, b, c,   r, q, m) { m = 0; for (r = 0; r < nr; r++) q[++m] = (per(a, r) - per(b, r)) / per(c, r); return median(q, m) }
	function us(x) { return x >= 100 ? sprintf("%.0f us", x) : sprintf("%.1f us", x) }
	BEGIN {
		n = split(ENVIRON["IDS_STR"], id, " "); split(ENVIRON["LABELS_STR"], lab, "\n"); split(ENVIRON["UNITS_STR"], un, " ")
		for (i = 1; i <= n; i++) u[id[i]] = un[i]
	}
	{ w[$1, $2] = $3; have[$1] = 1; if ($2 + 1 > nr) nr = $2 + 1 }
	END {
		printf "| case | median ms/run | files/run | per file | x mktemp | x true | x (a2) C loop |\n"
		printf "|---|---:|---:|---:|---:|---:|---:|\n"
		for (i = 1; i <= n; i++) {
			c = id[i]; m = 0
			for (r = 0; r < nr; r++) a[++m] = w[c, r]
			med = median(a, m)
			printf "| %s | %.1f | %d | %s | %.2f | %.2f | %.2f |\n", lab[i], med / 1000, u[c], us(med / u[c]), ratio(c, "mktemp"), ratio(c, "true"), ratio(c, "le")
			print "perfile." fs "." c, med / u[c] >> res
		}
		print ""
		printf "In-process cost, per file: the per-file time minus /usr/bin/true'"'"'s, paired per round (spawn cost cancels):\n\n"
		printf "| program | in-process cost per file | x (a2) C loop per creation |\n|---|---:|---:|\n"
		split("tc tcn mktemp l1", ex, " ")
		for (k = 1; k <= 4; k++) {
			c = ex[k]
			for (i = 1; i <= n; i++) if (id[i] == c) l = lab[i]
			sub(/^\([a-z0-9]+\) xargs -n1 /, "", l)
			printf "| %s | %s | %.1f |\n", l, us(excess(c, "true")), exratio(c, "true", "le")
			print "inproc." fs "." c, excess(c, "true") >> res
		}
		printf "| C loop (a2) per creation, for scale | %s | 1.0 |\n", us(median_per("le"))
		print "ratio." fs ".tc.mktemp", ratio("tc", "mktemp") >> res
		print "ratio." fs ".tc.true", ratio("tc", "true") >> res
		print "ratio." fs ".tcn.mktemp", ratio("tcn", "mktemp") >> res
		print "ratio." fs ".mktemp.true", ratio("mktemp", "true") >> res
		print "ratio." fs ".lp.le", ratio("lp", "le") >> res
		print "ratio." fs ".lx.le", ratio("lx", "le") >> res
		print "exratio." fs ".tc.le", exratio("tc", "true", "le") >> res
	}
	function median_per(c,   r, q, m) { m = 0; for (r = 0; r < nr; r++) q[++m] = per(c, r); return median(q, m) }
	' "$raw"
}

first_fs=
for fs in $FSLIST; do
	MNT=$WORK/mnt/$fs
	D=$MNT/d
	mount_fs "$fs" "$MNT"
	[[ -n $first_fs ]] || first_fs=$fs
	raw=$WORK/raw.$fs
	: >"$raw"
	echo
	echo "## 1. $fs ($(findmnt -no FSTYPE -T "$MNT" 2>/dev/null || stat -f -c %T "$MNT")): time, $ROUNDS interleaved rounds, paired ratios"
	echo
	interleave "$ROUNDS" ${#IDS[@]} run_case "$fs" "$raw"
	summarise "$fs" "$raw"
	rm -rf "$D"
	mkdir "$D"

	if [[ $fs == "$first_fs" ]]; then
		# -------------------------------------------------------- 2. hyperfine
		echo
		echo "## 2. $fs: one run each, hyperfine -N --warmup 30 --runs $HF_RUNS (sequential, not interleaved)"
		echo
		if command -v hyperfine >/dev/null && command -v jq >/dev/null; then
			hyperfine -N --warmup 30 --runs "$HF_RUNS" --export-json "$WORK/hf.json" \
				-n "/usr/bin/true" "$TRUE" \
				-n "mktemp -p DIR" "$MKTEMP -p $D" \
				-n "tmpcreate -p DIR" "$TMPCREATE -p $D" \
				-n "tmpcreate --method=named -p DIR" "$TMPCREATE --method=named -p $D" \
				-n "tmp-loop empty DIR 1 (C one-shot)" "$LOOP empty $D 1" >/dev/null 2>&1 ||
				note "hyperfine failed"
			echo "| command | median ms | mean ms +- sd | x mktemp (median) | x true (median) |"
			echo "|---|---:|---:|---:|---:|"
			jq -r '.results as $r | $r[] | [.command, .median * 1000, .mean * 1000, .stddev * 1000,
				.median / $r[1].median, .median / $r[0].median] | @tsv' "$WORK/hf.json" |
				awk -F'\t' '{printf "| %s | %.3f | %.3f +- %.3f | %.2f | %.2f |\n", $1, $2, $3, $4, $5, $6}'
			res hf.tc.mktemp "$(jq -r '.results[2].median / .results[1].median' "$WORK/hf.json")"
			res hf.tcn.mktemp "$(jq -r '.results[3].median / .results[1].median' "$WORK/hf.json")"
		else
			echo "(skipped: hyperfine or jq is not installed)"
		fi
		rm -rf "$D"
		mkdir "$D"

		# -------------------------------------------------------- 3. syscalls
		# Full trace: every line "PID name(...)" is one syscall (-qq drops the exit/signal lines).
		trace() { # OUT PROG ARGS...: one traced run on CPU 0, stdout to /dev/null as in the timed runs
			local out=$1
			shift
			taskset -c 0 strace -f -qq -o "$out" "$@" >/dev/null 2>&1 || true
		}
		count() { grep -cE '^[0-9]+ +[a-z_0-9]+\(' "$1" || true; }
		byname() {
			sed -nE 's/^[0-9]+ +([a-z_0-9]+)\(.*/\1/p' "$1" | sort | uniq -c | sort -k1,1nr -k2 |
				awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 } END { print "" }'
		}
		echo
		echo "## 3. $fs: syscalls (strace -f -qq -o FILE, full trace, one line per syscall)"
		echo
		echo "| one process, one file, stdout to /dev/null | syscalls per run | by name |"
		echo "|---|---:|---|"
		for spec in "true|/usr/bin/true|$TRUE" "mktemp|mktemp -p DIR|$MKTEMP -p $D" \
			"tc|tmpcreate -p DIR|$TMPCREATE -p $D" "tcn|tmpcreate --method=named -p DIR|$TMPCREATE --method=named -p $D" \
			"l1|tmp-loop empty DIR 1 (C one-shot)|$LOOP empty $D 1"; do
			IFS='|' read -r key label cmd <<<"$spec"
			# shellcheck disable=SC2086 # cmd is a word list made above, with no spaces inside words
			trace "$WORK/trace.$key" $cmd
			printf '| %s | %s | %s |\n' "$label" "$(count "$WORK/trace.$key")" "$(byname "$WORK/trace.$key")"
			res "sys.$key" "$(count "$WORK/trace.$key")"
		done

		# The creation: from the openat() in DIR to the close() of the descriptor it returned.
		# Marked ">>" when the syscall acts on the file (its descriptor, or a name in DIR), "+" when
		# it is in the window for another reason (printing the name, which tmpcreate does before it
		# lets go of the file). The name pool: getrandom(256 bytes, flags 0), once per process, once per ~24 names,
		# wherever it falls (glibc's own getrandom(8, GRND_NONBLOCK) for malloc is not counted).
		mark() { # TRACE KEY
			awk -v dir="$D" -v key="$2" -v res="$RES" '
			{ line = $0; sub(/^[0-9]+ +/, "", line) }
			line ~ /^getrandom\(/ && line !~ /GRND_NONBLOCK/ { pool++ }
			!inw && line ~ /^openat\(/ && index(line, "\"" dir) { inw = 1; fd = line; sub(/.*= /, "", fd); fd += 0 }
			{
				tag = "   "
				if (inw) {
					nm = line; sub(/\(.*/, "", nm)
					# On the file: its descriptor is the first argument, or a name in DIR.
					if (nm != "getrandom" && (line ~ ("^[a-z0-9_]+\\(" fd "[,)]") || index(line, "\"" dir))) {
						tag = ">> "; file++; names = names (names ? ", " : "") nm
					} else {
						tag = " + "
					}
				}
				if (length(line) > 118) line = substr(line, 1, 115) "..."
				print tag line
				if (inw && line ~ "^close\\(" fd "\\)") inw = 0
			}
			END { print "create." key, file + 0 >> res; print "createnames." key, names >> res; print "createpool." key, pool + 0 >> res }' "$1"
		}
		for key in tc tcn; do
			echo
			if [[ $key == tc ]]; then echo "Trace of one \`tmpcreate -p DIR\` run (>> = the creation's syscalls):"; else echo "Trace of one \`tmpcreate --method=named -p DIR\` run:"; fi
			echo
			echo '```'
			mark "$WORK/trace.$key" "$key"
			echo '```'
		done
		for key in tc tcn; do
			echo "creation syscalls, $key: $(get "create.$key") ($(get "createnames.$key"); name pool: getrandom x$(get "createpool.$key") per process)"
		done

		echo
		echo "| C loop, one process | syscalls per creation (slope 100 -> 1100 files) | by name, per creation |"
		echo "|---|---:|---|"
		for m in empty proc excl; do
			rm -rf "$D" && mkdir "$D" && trace "$WORK/s1" "$LOOP" "$m" "$D" 100
			rm -rf "$D" && mkdir "$D" && trace "$WORK/s2" "$LOOP" "$m" "$D" 1100
			slope=$(awk -v a="$(count "$WORK/s1")" -v b="$(count "$WORK/s2")" 'BEGIN { printf "%.2f", (b - a) / 1000 }')
			names=$(join -a2 -e0 -o 2.1,1.2,2.2 \
				<(sed -nE 's/^[0-9]+ +([a-z_0-9]+)\(.*/\1/p' "$WORK/s1" | sort | uniq -c | awk '{print $2, $1}' | sort) \
				<(sed -nE 's/^[0-9]+ +([a-z_0-9]+)\(.*/\1/p' "$WORK/s2" | sort | uniq -c | awk '{print $2, $1}' | sort) |
				awk '{ d = ($3 - $2) / 1000; if (d >= 0.005) printf "%s%s %.2f", (n++ ? ", " : ""), $1, d }')
			printf '| tmp-loop %s | %s | %s |\n' "$m" "$slope" "$names"
			res "slope.$m" "$slope"
		done
		rm -rf "$D"
		mkdir "$D"
	fi
	umount_fs "$MNT"
done

# ------------------------------------------------------------------ 4. the dynamic loader
echo
echo "## 4. What the dynamic loader pulls in"
echo
for spec in "tmpcreate|$TMPCREATE" "mktemp|$MKTEMP" "true|$TRUE"; do
	IFS='|' read -r label bin <<<"$spec"
	echo "### $label ($bin)"
	echo
	echo '```'
	echo "ldd:"
	ldd "$bin" | sed 's/ (0x[0-9a-f]*)//; s/^/  /'
	if command -v readelf >/dev/null; then
		echo "NEEDED: $(readelf -d "$bin" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p' | paste -sd' ')"
	fi
	args=()
	[[ $label == true ]] || args=(-p "$WORK")
	echo "initialised at run time (LD_DEBUG=libs, a dlopen would show here):"
	LD_DEBUG=libs "$bin" "${args[@]}" 2>&1 >/dev/null | sed -nE 's/^ *[0-9]+:[[:space:]]*calling init: (.*)/  \1/p'
	# LD_DEBUG=statistics: relocation counts are exact; start-up cycles vary, median of 21 runs
	for ((i = 0; i < 21; i++)); do
		LD_DEBUG=statistics "$bin" "${args[@]}" 2>&1 >/dev/null
	done | awk '
		/total startup time in dynamic loader/ { c[++n] = $(NF-1) }
		/number of relocations:/ { rel = $NF } /relocations from cache/ { cache = $NF } /relative relocations/ { relr = $NF }
		END {
			for (i = 2; i <= n; i++) { x = c[i]; for (j = i - 1; j >= 1 && c[j] > x; j--) c[j+1] = c[j]; c[j+1] = x }
			printf "LD_DEBUG=statistics: %d relocations (%d from cache), %d relative; loader start-up %d cycles (median of %d)\n", rel, cache, relr, c[int((n+1)/2)], n
		}'
	echo '```'
	echo
	res "ldd.$label" "$(ldd "$bin" | grep -c '=>' || true)"
done
find "$WORK" -maxdepth 1 -name 'tmp.*' -delete

# ------------------------------------------------------------------ summary

echo "## Summary"
echo
echo "machine: $(machine)"
echo
echo "| target | measured | limit | verdict |"
echo "|---|---:|---:|---|"
for fs in $FSLIST; do
	row "$fs: xargs -n1 tmpcreate -p DIR, per file, x mktemp (paired)$(failed_note "$fs" tc)" "ratio.$fs.tc.mktemp" '<=' 1.10
	row "$fs: same, x /usr/bin/true (spawn floor)" "ratio.$fs.tc.true" '<=' 1.20
	row "$fs: xargs -n1 tmpcreate --method=named -p DIR, x mktemp$(failed_note "$fs" tcn)" "ratio.$fs.tcn.mktemp" '<=' 1.10
	echo "| $fs: mktemp x /usr/bin/true, for scale | $(fmt "$(get "ratio.$fs.mktemp.true")" %.3f) | | info |"
	echo "| $fs: tmpcreate in-process cost per file (minus true) | $(fmt "$(get "inproc.$fs.tc")" '%.0f us') | | info |"
	echo "| $fs: mktemp in-process cost per file (minus true) | $(fmt "$(get "inproc.$fs.mktemp")" '%.0f us') | | info |"
	echo "| $fs: C loop (a2) AT_EMPTY_PATH, per creation | $(fmt "$(get "perfile.$fs.le")" '%.1f us') | | info |"
	echo "| $fs: tmpcreate in-process cost x (a2) per creation | $(fmt "$(get "exratio.$fs.tc.le")" %.1f) | | info |"
	echo "| $fs: C loop (a) /proc/self/fd x (a2) | $(fmt "$(get "ratio.$fs.lp.le")" %.2f) | | info |"
	echo "| $fs: C loop (b2) O_EXCL x (a2) | $(fmt "$(get "ratio.$fs.lx.le")" %.2f) | | info |"
done
row "hyperfine, one tmpcreate -p DIR x one mktemp -p DIR (medians)" hf.tc.mktemp '<=' 1.10
row "hyperfine, one tmpcreate --method=named x one mktemp" hf.tcn.mktemp '<=' 1.10
row "syscalls per run, tmpcreate -p DIR" sys.tc '<=' 50 %s
row "syscalls per run, tmpcreate --method=named -p DIR" sys.tcn '<=' 50 %s
echo "| syscalls per run, mktemp -p DIR (reference: 40) | $(get sys.mktemp) | | info |"
echo "| syscalls per run, /usr/bin/true / C one-shot | $(get sys.true) / $(get sys.l1) | | info |"
row "creation syscalls, O_TMPFILE path ($(get createnames.tc); name pool: getrandom x$(get createpool.tc) per process)" create.tc '==' 3 %s
row "creation syscalls, --method=named ($(get createnames.tcn); name pool: getrandom x$(get createpool.tcn) per process)" create.tcn '==' 2 %s
echo "| C loop slope: empty / proc / excl, syscalls per creation | $(get slope.empty) / $(get slope.proc) / $(get slope.excl) | 3 / 3 / 2 | info |"
echo "| shared objects (ldd =>): tmpcreate / mktemp | $(get ldd.tmpcreate) / $(get ldd.mktemp) | | info |"
echo
echo "Ratios are medians of per-round ratios; other jobs may be loading the machine (load above)."
load_report
