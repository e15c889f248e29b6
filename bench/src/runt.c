/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runt: run one command; report its wall time, CPU time and peak RSS.
 * For bench/atomic-output.sh.
 *
 *   runt [-o FILE] [--] COMMAND [ARG]...
 *
 * Appends one line to FILE (default: standard output):
 *
 *   WALL_NS USER_NS SYS_NS MAXRSS_KIB EXIT
 *
 * WALL_NS is CLOCK_MONOTONIC from just before fork() to just after wait4().
 * USER_NS, SYS_NS and MAXRSS_KIB come from wait4()'s rusage, which covers the
 * child and every descendant it waited for; MAXRSS_KIB is the peak resident set
 * of the largest single process among them (not a sum), and survives exec():
 * `runt sh -c 'exec PROG'` reports max(sh, PROG).
 * EXIT is the command's exit status, 128+N when killed by signal N; runt exits
 * with it too (125 when runt itself fails, 127 when COMMAND cannot be run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long ts_ns(const struct timespec *t) { return t->tv_sec * 1000000000LL + t->tv_nsec; }
static long long tv_ns(const struct timeval *t) { return t->tv_sec * 1000000000LL + t->tv_usec * 1000LL; }

int main(int argc, char **argv)
{
	const char *out = NULL;
	int i = 1;
	if (i + 1 < argc && strcmp(argv[i], "-o") == 0) {
		out = argv[i + 1];
		i += 2;
	}
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i >= argc) {
		fprintf(stderr, "usage: runt [-o FILE] [--] COMMAND [ARG]...\n");
		return 125;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0) {
		perror("runt: fork");
		return 125;
	}
	if (pid == 0) {
		execvp(argv[i], argv + i);
		fprintf(stderr, "runt: cannot run '%s': %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	int st;
	struct rusage ru;
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("runt: wait4");
			return 125;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	FILE *f = stdout;
	if (out && !(f = fopen(out, "a"))) {
		fprintf(stderr, "runt: cannot open '%s': %s\n", out, strerror(errno));
		return 125;
	}
	fprintf(f, "%lld %lld %lld %ld %d\n", ts_ns(&t1) - ts_ns(&t0), tv_ns(&ru.ru_utime), tv_ns(&ru.ru_stime),
		ru.ru_maxrss, rc);
	if (f != stdout && fclose(f) != 0) {
		fprintf(stderr, "runt: cannot write '%s': %s\n", out, strerror(errno));
		return 125;
	}
	return rc;
}
