/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flag-loop: the bare system calls a flag change needs, over the files
 * named on the command line, in one process: the limits bench/setfattrs.sh
 * compares setfattrs with.  No library, no checks beyond the calls' own.
 *
 *   flag-loop MODE FILE...
 *
 * MODE: oset      setxattr(user.fattr.offline, "1")
 *       oset-opp  lgetxattr(user.fattr.pinned) (ENODATA) + setxattr
 *       oclr      removexattr(user.fattr.offline)
 *       nset      file_getattr + file_setattr(+NODUMP), by path
 *       nclr      file_getattr + file_setattr(-NODUMP), by path
 * Exit 1 on the first call that fails (other than the expected ENODATA).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

struct fa {
	uint64_t xflags;
	uint32_t extsize, nextents, projid, cowextsize;
};

#define XFLAG_NODUMP 0x80

static int kflag(const char *f, int on)
{
	struct fa a = { 0 };

	if (syscall(468, AT_FDCWD, f, &a, sizeof(a), 0) < 0)
		return -1;
	a.xflags = on ? a.xflags | XFLAG_NODUMP : a.xflags & ~(uint64_t)XFLAG_NODUMP;
	a.nextents = 0;
	return (int)syscall(469, AT_FDCWD, f, &a, sizeof(a), 0);
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	for (int i = 2; i < argc; i++) {
		const char *f = argv[i];
		char v[2];
		int r;

		if (strcmp(m, "oset") == 0) {
			r = setxattr(f, "user.fattr.offline", "1", 1, 0);
		} else if (strcmp(m, "oset-opp") == 0) {
			if (lgetxattr(f, "user.fattr.pinned", v, sizeof(v)) >= 0 || errno != ENODATA)
				return 1;
			r = setxattr(f, "user.fattr.offline", "1", 1, 0);
		} else if (strcmp(m, "oset-race") == 0) {
			/* setfattrs(1) "Races and durability": the opposite looked at again after the write */
			if (lgetxattr(f, "user.fattr.pinned", v, sizeof(v)) >= 0 || errno != ENODATA)
				return 1;
			r = setxattr(f, "user.fattr.offline", "1", 1, 0);
			if (r == 0 && (lgetxattr(f, "user.fattr.pinned", v, sizeof(v)) >= 0 || errno != ENODATA))
				return 1;
		} else if (strcmp(m, "oclr") == 0) {
			r = removexattr(f, "user.fattr.offline");
		} else if (strcmp(m, "nset") == 0 || strcmp(m, "nclr") == 0) {
			r = kflag(f, m[1] == 's');
		} else {
			fprintf(stderr, "flag-loop: unknown mode '%s'\n", m);
			return 2;
		}
		if (r < 0) {
			fprintf(stderr, "flag-loop: %s '%s': %s\n", m, f, strerror(errno));
			return 1;
		}
	}
	return 0;
}
