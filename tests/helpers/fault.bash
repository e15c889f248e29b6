# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# System-call traces and injected faults:  load '../helpers/fault'
#
#   fault_require                 skip unless strace can trace and inject here
#   trace_run TRACE CMD [ARG]...  run CMD under strace, its calls into TRACE
#   fault_run TRACE SYSCALL ERRNO [SYSCALL ERRNO]... -- CMD [ARG]...
#                                 run CMD with every SYSCALL failing with ERRNO
#                                 (the calls, injected ones marked, into TRACE)
#   assert_trace TRACE ERE        some line of TRACE matches ERE
#   refute_trace TRACE ERE        no line of TRACE matches ERE
#   re_escape STRING              STRING quoted for use inside an ERE
#   nosys_require                 skip unless $NOSYS can run a command here
#   "$NOSYS" GROUP CMD [ARG]...   run CMD with GROUP's system calls answering
#                                 ENOSYS (tests/helpers/nosys.c): xattrat,
#                                 file_attr; under trace_run and fault_run too
#
# strace 6.1 knows neither the *xattrat calls (Linux 6.13) nor
# file_getattr/file_setattr (6.17): it prints them as syscall_0x1cf
# (setxattrat), 0x1d0 (getxattrat), 0x1d1 (listxattrat), 0x1d2
# (removexattrat), 0x1d4, 0x1d5, without their arguments, and cannot name
# them for -e inject=.  Under nosys the library takes the path calls it
# falls back to, which strace names and injects faults into.
NOSYS=$FATTRS_BUILDDIR/tests/helpers/nosys
export NOSYS
#
# The command's own stdout, stderr and exit status pass through unchanged
# (strace writes only to TRACE), so these work under `run`, and inside
# fs_run scripts too: the functions are exported.

# fault_require: strace must exist and be allowed to trace (ptrace_scope,
# seccomp in containers).
# The answer is kept for the rest of the .bats file.
fault_require() {
	local ok=${BATS_FILE_TMPDIR:-/nonexistent}/strace.ok
	[[ -e $ok ]] && return 0
	command -v strace >/dev/null 2>&1 || skip "needs strace"
	strace -qq -o /dev/null -e inject=getpid:error=ENOSYS true >/dev/null 2>&1 ||
		skip "strace cannot trace or inject faults here"
	: >"$ok" 2>/dev/null || :
}

# -f: follow children; -s: paths in full; -qq: no attach/exit chatter;
# not the calls that only move data or memory about (they would bury the
# rest when a failed assertion prints the trace).
# Injection works only on traced calls: FAULT_NOTRACE (set by fault_run)
# is the list left out.
# LeakSanitizer stops the world with ptrace(2), which a process already
# traced by strace cannot do: under --enable-sanitizers it would fail every
# traced run.  Leaks are checked by every untraced run instead.
FAULT_ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export FAULT_ASAN_OPTIONS

_fault_strace() {
	local skip=${FAULT_NOTRACE-read,pread64,readv,write,pwrite64,writev,mmap,mprotect,munmap,brk}
	ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -s 4096 ${skip:+-e "trace=!$skip"} "$@"
}

trace_run() {
	local trace=$1
	shift
	_fault_strace -o "$trace" -- "$@"
}

fault_run() {
	local trace=$1 sc
	local -a inj=()
	local FAULT_NOTRACE=,read,pread64,readv,write,pwrite64,writev,mmap,mprotect,munmap,brk,
	shift
	while [[ $# -gt 0 && $1 != -- ]]; do
		[[ $# -ge 2 ]] || { echo "fault_run: SYSCALL without ERRNO" >&2; return 125; }
		inj+=(-e "inject=$1:error=$2")
		for sc in ${1//,/ }; do
			FAULT_NOTRACE=${FAULT_NOTRACE//,$sc,/,}
		done
		shift 2
	done
	FAULT_NOTRACE=${FAULT_NOTRACE#,}
	FAULT_NOTRACE=${FAULT_NOTRACE%,}
	[[ ${1-} == -- ]] && shift
	_fault_strace -o "$trace" "${inj[@]}" -- "$@"
}

# estale_run WHEN FILE COMMAND...: COMMAND with its openat(2) and statx(2)
# of FILE (an absolute path) answered ESTALE, as a GlusterFS client answers
# a lookup of a name another client has just replaced: WHEN is strace's
# (1: the first call of each only; 1+: every call).  The calls that touch
# FILE are traced to $BATS_TEST_TMPDIR/estale.trace.
estale_run() {
	local when=$1 file=$2
	shift 2
	ASAN_OPTIONS=$FAULT_ASAN_OPTIONS strace -f -qq -o "$BATS_TEST_TMPDIR/estale.trace" -P "$file" \
		-e trace=openat,statx -e "inject=openat,statx:error=ESTALE:when=$when" -- "$@"
}

re_escape() {
	local s=$1 c out='' i
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case $c in
		[][\\.*^\$+?\(\){}\|]) out+="\\$c" ;;
		*) out+=$c ;;
		esac
	done
	printf '%s\n' "$out"
}

assert_trace() {
	local trace=$1 ere=$2
	if ! grep -Eq -- "$ere" "$trace"; then
		{
			echo "-- no system call in the trace matches --"
			echo "pattern : $ere"
			echo "trace   : $trace"
			sed 's/^/  /' "$trace"
			echo "--"
		} | fail
		return 1
	fi
}

refute_trace() {
	local trace=$1 ere=$2
	if grep -Eq -- "$ere" "$trace"; then
		{
			echo "-- a system call in the trace matches, but should not --"
			echo "pattern : $ere"
			grep -E -- "$ere" "$trace" | sed 's/^/  /'
			echo "--"
		} | fail
		return 1
	fi
}

nosys_require() {
	[[ -x $NOSYS ]] || fail "$NOSYS is not built (make check builds it)"
	"$NOSYS" xattrat true 2>/dev/null || skip "a seccomp filter cannot be installed here"
}

export -f _fault_strace trace_run fault_run re_escape
