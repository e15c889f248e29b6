/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nosys GROUP COMMAND [ARG]...: run COMMAND with the system calls of GROUP
 * answering ENOSYS, as a kernel without them answers, through a seccomp(2)
 * filter that COMMAND and its children inherit:
 *
 *   xattrat    setxattrat(2), getxattrat(2), listxattrat(2), removexattrat(2)
 *              (Linux 6.13)
 *   file_attr  file_getattr(2), file_setattr(2) (Linux 6.17)
 *
 * strace 6.1 cannot name these calls for -e inject=, so the tests that
 * inject faults into the path calls the library falls back to run the
 * programs under this.  Exit status 77 (a skip) where the filter cannot be
 * installed or the architecture is not known here, 125 for a usage error,
 * else COMMAND's (127 when it cannot be run).
 */
#include "config.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "compat/linux.h"

#if defined(__x86_64__)
# define NOSYS_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
# define NOSYS_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
# define NOSYS_ARCH AUDIT_ARCH_I386
#endif

int main(int argc, char **argv)
{
	unsigned first, last;

	if (argc < 3) {
		fprintf(stderr, "usage: nosys xattrat|file_attr COMMAND [ARG]...\n");
		return 125;
	}
	if (strcmp(argv[1], "xattrat") == 0) {
		first = __NR_setxattrat;
		last = __NR_removexattrat;
	} else if (strcmp(argv[1], "file_attr") == 0) {
		first = __NR_file_getattr;
		last = __NR_file_setattr;
	} else {
		fprintf(stderr, "nosys: unknown group '%s'\n", argv[1]);
		return 125;
	}
#ifdef NOSYS_ARCH
	{
		struct sock_filter code[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NOSYS_ARCH, 1, 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, first, 0, 2),
			BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, last, 1, 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = sizeof(code) / sizeof(code[0]), .filter = code };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0) {
			fprintf(stderr, "nosys: cannot install the filter: %s\n", strerror(errno));
			return 77;
		}
	}
#else
	(void)first;
	(void)last;
	fprintf(stderr, "nosys: this architecture is not known here\n");
	return 77;
#endif
	execvp(argv[2], argv + 2);
	fprintf(stderr, "nosys: cannot run '%s': %s\n", argv[2], strerror(errno));
	return 127;
}
