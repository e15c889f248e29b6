/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flags-lib: one flag operation per file over many files in ONE process, as
 * the bare system calls (the limits) and as the libfattrs calls setfattrs and
 * xstat will make (fattrs_fflag_set, fattrs_fflags_get, fattrs_kattr_get,
 * fattrs_kattr_change).  Built and run by bench/flags-lib.sh.
 *
 *   flags-lib MODE LISTFILE          LISTFILE: NUL-separated names (relative
 *                                    to the current directory, as a tool is given them)
 *   flags-lib mkcorpus DIR NDIRS PER make DIR/dNN/fNNNNN (empty files), list on stdout
 *   flags-lib drops DIR              for each settable kernel flag but immutable and
 *                                    append, on a new file in DIR: what file_setattr and
 *                                    FS_IOC_SETFLAGS answer when asked to set it, whether
 *                                    a read-back finds it kept, and what fattrs_kattr_change
 *                                    returns (a markdown table; each file is deleted after)
 *
 * Writes (before the timed loop every file must be in the opposite state, else
 * exit 3; after it every file must be in the new state, else exit 1):
 *   set          setxattr("user.fattr.offline", "1")                      limit (a)
 *   set-excl     lgetxattr("user.fattr.pinned") = ENODATA, then setxattr  limit (a2)
 *   lib-set      fattrs_fflag_set(OFFLINE, on), fsup probed once, mode 0
 *   clear        removexattr("user.fattr.offline")                        limit (a)
 *   lib-clear    fattrs_fflag_set(OFFLINE, off), fsup probed once, mode 0
 *   fsa-set      file_getattr + file_setattr(|FS_XFLAG_NODUMP)            limit
 *   fsa-set-rb   the same + file_getattr again (the library's read-back)
 *   lib-kset     fattrs_kattr_change(+nodump), AT_SYMLINK_NOFOLLOW, mode 0
 *   fsa-clear, fsa-clear-rb, lib-kclear: the same, clearing FS_XFLAG_NODUMP
 *   ioc-set      open + FS_IOC_GETFLAGS + FS_IOC_SETFLAGS(|FS_NODUMP_FL) + close: the
 *                limit before Linux 6.17 (chattr's path)
 *   lib-kset-ioc fattrs_kattr_change(+nodump) forced onto its ioctl fallback
 *                (fattrs_kattr_force_ioctl), mode 0
 *   ioc-clear, lib-kclear-ioc: the same, clearing
 * Reads (on files prepared by reset-read: every 20th file from index 0 has
 * user.fattr.offline=1, from 10 user.fattr.pinned=1, from 5 nodump; the found
 * count must match, else exit 1):
 *   list         llistxattr (1 KiB buffer)
 *   list-get     llistxattr + lgetxattr of each user.fattr.* name present
 *   lib-get      fattrs_fflags_get, nofollow, fsup probed once, mode from an
 *                lstat done before the timed loop (the caller's statx)
 *   lib-get0     the same with mode 0 (the library stats the file itself)
 *   fsa-get      file_getattr                         lib-kget  fattrs_kattr_get(XFLAGS)
 *   stx-list     statx + llistxattr                   (xstat.sh's (b))
 *   stx-list-get statx + llistxattr + lgetxattr of present user.fattr.* names
 *   stx-lib-get  statx + fattrs_fflags_get(mode and stx from that statx)
 *   stx-list-fsa statx + llistxattr + file_getattr    (xstat.sh's (b2))
 *   stx-lib-all  statx + fattrs_fflags_get + fattrs_kattr_get(XFLAGS)
 * State resets (untimed, for the script): reset-offline-set, reset-offline-clear
 * (removes offline and pinned), reset-nodump-set, reset-nodump-clear, reset-read.
 *
 * Output, one line: "N CHANGED NS": files, files changed (writes) or found
 * (reads), and nanoseconds of the timed loop alone (CLOCK_MONOTONIC: list
 * reading, state checks and start-up are outside it).  The loop is bracketed
 * by two getppid() calls so that a trace can count its system calls alone.
 * Exit: 0 done and checked; 1 check failed or a call failed; 2 usage; 3 the
 * files were not in the expected state before the loop.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "fattrs.h"
#include "testing.h"

#define X_OFFLINE "user.fattr.offline"
#define X_PINNED "user.fattr.pinned"
#define X_PREFIX "user.fattr."
#define STX_MASK (STATX_BASIC_STATS | STATX_BTIME) /* what bt-statx asks for */

enum kind { K_WRITE, K_READ, K_RESET };
enum state { S_NONE, S_OFF_SET, S_OFF_CLEAR, S_ND_SET, S_ND_CLEAR };

static const struct mode {
	const char *name;
	enum kind kind;
	enum state pre, post; /* writes: required before, checked after */
} modes[] = {
	{ "set", K_WRITE, S_OFF_CLEAR, S_OFF_SET },
	{ "set-excl", K_WRITE, S_OFF_CLEAR, S_OFF_SET },
	{ "lib-set", K_WRITE, S_OFF_CLEAR, S_OFF_SET },
	{ "clear", K_WRITE, S_OFF_SET, S_OFF_CLEAR },
	{ "lib-clear", K_WRITE, S_OFF_SET, S_OFF_CLEAR },
	{ "fsa-set", K_WRITE, S_ND_CLEAR, S_ND_SET },
	{ "fsa-set-rb", K_WRITE, S_ND_CLEAR, S_ND_SET },
	{ "lib-kset", K_WRITE, S_ND_CLEAR, S_ND_SET },
	{ "fsa-clear", K_WRITE, S_ND_SET, S_ND_CLEAR },
	{ "fsa-clear-rb", K_WRITE, S_ND_SET, S_ND_CLEAR },
	{ "lib-kclear", K_WRITE, S_ND_SET, S_ND_CLEAR },
	{ "ioc-set", K_WRITE, S_ND_CLEAR, S_ND_SET },
	{ "lib-kset-ioc", K_WRITE, S_ND_CLEAR, S_ND_SET },
	{ "ioc-clear", K_WRITE, S_ND_SET, S_ND_CLEAR },
	{ "lib-kclear-ioc", K_WRITE, S_ND_SET, S_ND_CLEAR },
	{ "list", K_READ, S_NONE, S_NONE },
	{ "list-get", K_READ, S_NONE, S_NONE },
	{ "lib-get", K_READ, S_NONE, S_NONE },
	{ "lib-get0", K_READ, S_NONE, S_NONE },
	{ "fsa-get", K_READ, S_NONE, S_NONE },
	{ "lib-kget", K_READ, S_NONE, S_NONE },
	{ "stx-list", K_READ, S_NONE, S_NONE },
	{ "stx-list-get", K_READ, S_NONE, S_NONE },
	{ "stx-lib-get", K_READ, S_NONE, S_NONE },
	{ "stx-list-fsa", K_READ, S_NONE, S_NONE },
	{ "stx-lib-all", K_READ, S_NONE, S_NONE },
	{ "reset-offline-set", K_RESET, S_NONE, S_OFF_SET },
	{ "reset-offline-clear", K_RESET, S_NONE, S_OFF_CLEAR },
	{ "reset-nodump-set", K_RESET, S_NONE, S_ND_SET },
	{ "reset-nodump-clear", K_RESET, S_NONE, S_ND_CLEAR },
	{ "reset-read", K_RESET, S_NONE, S_NONE },
};

static const char *prog = "flags-lib";

static void fail(const char *what, const char *path, int err)
{
	fprintf(stderr, "%s: %s '%s': %s\n", prog, what, path, strerror(err));
	exit(1);
}

/* ---------------------------------------------------------------- raw calls */

static long fsa_get(const char *p, struct fattrs_file_attr *fa)
{
	memset(fa, 0, sizeof(*fa));
	return syscall(__NR_file_getattr, AT_FDCWD, p, fa, sizeof(*fa), AT_SYMLINK_NOFOLLOW);
}

static long fsa_set(const char *p, struct fattrs_file_attr *fa)
{
	fa->fa_nextents = 0; /* read-only */
	return syscall(__NR_file_setattr, AT_FDCWD, p, fa, sizeof(*fa), AT_SYMLINK_NOFOLLOW);
}

static long stx(const char *p, struct fattrs_statx_buf *b)
{
	return syscall(__NR_statx, AT_FDCWD, p, AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT, STX_MASK, b);
}

/* llistxattr, then (@get) lgetxattr of each user.fattr.* name: how many read "1". */
static int list_get(const char *p, int get)
{
	char list[1024], v[64];
	ssize_t n = llistxattr(p, list, sizeof(list));
	int found = 0;

	if (n < 0)
		fail("llistxattr", p, errno);
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(list + i) + 1) {
		if (strncmp(list + i, X_PREFIX, sizeof(X_PREFIX) - 1) != 0)
			continue;
		if (!get) {
			found++;
			continue;
		}
		ssize_t m = lgetxattr(p, list + i, v, sizeof(v));
		if (m < 0)
			fail("lgetxattr", p, errno);
		found += m == 1 && v[0] == '1';
	}
	return found;
}

/* ------------------------------------------------------------------- state */

/* 1 if @p is in state @s, else 0 */
static int in_state(const char *p, enum state s)
{
	char v[8];
	struct fattrs_file_attr fa;
	ssize_t n;

	switch (s) {
	case S_OFF_SET:
	case S_OFF_CLEAR:
		n = lgetxattr(p, X_OFFLINE, v, sizeof(v));
		if (n < 0 && errno != ENODATA)
			fail("lgetxattr", p, errno);
		return s == S_OFF_SET ? (n == 1 && v[0] == '1') : n < 0;
	case S_ND_SET:
	case S_ND_CLEAR:
		if (fsa_get(p, &fa) < 0)
			fail("file_getattr", p, errno);
		return ((fa.fa_xflags & FS_XFLAG_NODUMP) != 0) == (s == S_ND_SET);
	default:
		return 1;
	}
}

static void set_nodump(const char *p, int on)
{
	struct fattrs_file_attr fa;

	if (fsa_get(p, &fa) < 0)
		fail("file_getattr", p, errno);
	if (((fa.fa_xflags & FS_XFLAG_NODUMP) != 0) == on)
		return;
	fa.fa_xflags = on ? fa.fa_xflags | FS_XFLAG_NODUMP : fa.fa_xflags & ~(uint64_t)FS_XFLAG_NODUMP;
	if (fsa_set(p, &fa) < 0)
		fail("file_setattr", p, errno);
}

static void set_x(const char *p, const char *name, int on)
{
	if (on ? lsetxattr(p, name, "1", 1, 0) : lremovexattr(p, name))
		if (on || errno != ENODATA)
			fail(on ? "lsetxattr" : "lremovexattr", p, errno);
}

static void reset(const char *p, size_t i, enum state s, const char *mode)
{
	switch (s) {
	case S_OFF_SET: set_x(p, X_OFFLINE, 1); break;
	case S_OFF_CLEAR: set_x(p, X_OFFLINE, 0); set_x(p, X_PINNED, 0); break;
	case S_ND_SET: set_nodump(p, 1); break;
	case S_ND_CLEAR: set_nodump(p, 0); break;
	default:
		if (strcmp(mode, "reset-read") == 0) {
			set_x(p, X_OFFLINE, i % 20 == 0);
			set_x(p, X_PINNED, i % 20 == 10);
			set_nodump(p, i % 20 == 5);
		}
	}
}

/* ------------------------------------------------------------------- setup */

static char **read_list(const char *file, size_t *ret_n)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf, **v;
	size_t have = 0, n = 0;
	ssize_t r;

	if (fd < 0 || fstat(fd, &st) < 0)
		fail("open", file, errno);
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL)
		fail("malloc", file, ENOMEM);
	while ((r = read(fd, buf + have, (size_t)st.st_size - have)) > 0)
		have += (size_t)r;
	buf[have] = '\0';
	close(fd);
	v = malloc((have / 2 + 2) * sizeof(*v));
	if (v == NULL)
		fail("malloc", file, ENOMEM);
	for (size_t o = 0; o < have; o += strlen(buf + o) + 1)
		if (buf[o] != '\0')
			v[n++] = buf + o;
	*ret_n = n;
	return v;
}

static int mkcorpus(const char *dir, int ndirs, int per)
{
	char path[4096];

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		fail("mkdir", dir, errno);
	for (int d = 0; d < ndirs; d++) {
		snprintf(path, sizeof(path), "%s/d%02d", dir, d);
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			fail("mkdir", path, errno);
		for (int f = 0; f < per; f++) {
			snprintf(path, sizeof(path), "%s/d%02d/f%05d", dir, d, f);
			int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (fd < 0)
				fail("open", path, errno);
			close(fd);
			printf("d%02d/f%05d%c", d, f, '\0');
		}
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

/* "0 kept", "0 DROPPED" (success, yet a read-back finds the bit clear) or the error */
static void drop_word(char *out, size_t size, long w, int err, int kept)
{
	if (w != 0)
		snprintf(out, size, "%s", strerror(err));
	else
		snprintf(out, size, "0, %s", kept ? "kept" : "**DROPPED**");
}

static int drops(const char *dir)
{
	size_t nk;
	const struct fattrs_kflag *t = fattrs_kflags_table(&nk);
	char p[4096], xs[80], is[80];

	printf("| flag | file_setattr(+xflag) | FS_IOC_SETFLAGS(+iflag) | fattrs_kattr_change |\n|---|---|---|---|\n");
	for (size_t k = 0; k < nk; k++) {
		struct fattrs_kchange c = { 0 };
		int fd, lr;

		if (t[k].readonly || t[k].xflag == FS_XFLAG_IMMUTABLE || t[k].xflag == FS_XFLAG_APPEND)
			continue;
		snprintf(p, sizeof(p), "%s/drops-%s", dir, t[k].name);
		fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			fail("open", p, errno);
		close(fd);
		snprintf(xs, sizeof(xs), "-");
		snprintf(is, sizeof(is), "-");
		if (t[k].xflag != 0) {
			struct fattrs_file_attr fa, fb;
			uint64_t before;
			long w = -1;
			int e = 0;

			if (fsa_get(p, &fa) < 0)
				e = errno;
			else {
				before = fa.fa_xflags;
				fa.fa_xflags |= t[k].xflag;
				w = fsa_set(p, &fa);
				e = errno;
				if (fsa_get(p, &fb) < 0)
					fail("file_getattr", p, errno);
				drop_word(xs, sizeof(xs), w, e, (fb.fa_xflags & t[k].xflag) != 0);
				fb.fa_xflags = before;
				(void)fsa_set(p, &fb);
			}
			if (w != 0 && e != 0)
				snprintf(xs, sizeof(xs), "%s", strerror(e));
		}
		if (t[k].iflag != 0) {
			unsigned int v = 0, old, back = 0;
			int w, e;

			fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			if (fd < 0)
				fail("open", p, errno);
			if (ioctl(fd, FS_IOC_GETFLAGS, &v) < 0) {
				snprintf(is, sizeof(is), "GETFLAGS: %s", strerror(errno));
			} else {
				old = v;
				v |= t[k].iflag;
				w = ioctl(fd, FS_IOC_SETFLAGS, &v);
				e = errno;
				(void)ioctl(fd, FS_IOC_GETFLAGS, &back);
				drop_word(is, sizeof(is), w, e, (back & t[k].iflag) != 0);
				(void)ioctl(fd, FS_IOC_SETFLAGS, &old);
			}
			close(fd);
		}
		(void)fattrs_kchange_add(&c, &t[k], true);
		lr = fattrs_kattr_change(AT_FDCWD, p, 0, 0, &c, NULL);
		printf("| %s | %s | %s | %s |\n", t[k].name, xs, is,
		       lr == 1 ? "1 (set, read back)" : lr == 0 ? "0 (nothing to do)"
		       : lr == -EOPNOTSUPP ? "-EOPNOTSUPP" : strerror(-lr));
		if (unlink(p) < 0)
			fail("unlink", p, errno);
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ------------------------------------------------------------------- main */

int main(int argc, char **argv)
{
	const struct mode *m = NULL;
	struct fattrs_fsupport fsup;
	struct fattrs_kchange kc = { 0 };
	mode_t *modev = NULL;
	size_t n, bad = 0, changed = 0, expect = 0;
	char **v;
	long long t0, t1;

	if (argc == 5 && strcmp(argv[1], "mkcorpus") == 0)
		return mkcorpus(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (argc == 3 && strcmp(argv[1], "drops") == 0)
		return drops(argv[2]);
	if (argc == 3)
		for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++)
			if (strcmp(argv[1], modes[k].name) == 0)
				m = &modes[k];
	if (m == NULL) {
		fprintf(stderr, "usage: %s MODE LISTFILE | mkcorpus DIR NDIRS PER (modes: see the source)\n", prog);
		return 2;
	}
	v = read_list(argv[2], &n);
	if (n == 0) {
		fprintf(stderr, "%s: '%s' names no file\n", prog, argv[2]);
		return 2;
	}

	if (m->kind == K_RESET) {
		for (size_t i = 0; i < n; i++)
			reset(v[i], i, m->post, m->name);
		printf("%zu %zu 0\n", n, n);
		return 0;
	}

	/* Untimed: the state before, the modes the caller's statx would give, what reads should find. */
	for (size_t i = 0; i < n; i++)
		bad += !in_state(v[i], m->pre);
	if (bad != 0) {
		fprintf(stderr, "%s: %s: %zu of %zu files not in the state to change from (reset first)\n",
			prog, m->name, bad, n);
		return 3;
	}
	if (strcmp(m->name, "lib-get") == 0) {
		struct stat st;

		modev = malloc(n * sizeof(*modev));
		if (modev == NULL)
			fail("malloc", "modes", ENOMEM);
		for (size_t i = 0; i < n; i++) {
			if (lstat(v[i], &st) < 0)
				fail("lstat", v[i], errno);
			modev[i] = st.st_mode;
		}
	}
	for (size_t i = 0; i < n; i++) /* reset-read's pattern */
		expect += i % 20 == 0 || i % 20 == 10;
	if (strcmp(m->name, "fsa-get") == 0 || strcmp(m->name, "lib-kget") == 0)
		expect = (n + 14) / 20; /* i % 20 == 5 */
	else if (strcmp(m->name, "stx-list-fsa") == 0 || strcmp(m->name, "stx-lib-all") == 0)
		expect += (n + 14) / 20;
	if (strstr(m->name, "kset") != NULL)
		kc.xset = FS_XFLAG_NODUMP;
	else if (strstr(m->name, "kclear") != NULL)
		kc.xclear = FS_XFLAG_NODUMP;

	const char *mn = m->name;
	int op = -1;
	static const char *const ops[] = { "set", "set-excl", "lib-set", "clear", "lib-clear", "fsa-set",
		"fsa-set-rb", "lib-kset", "fsa-clear", "fsa-clear-rb", "lib-kclear", "list", "list-get",
		"lib-get", "lib-get0", "fsa-get", "lib-kget", "stx-list", "stx-list-get", "stx-lib-get",
		"stx-list-fsa", "stx-lib-all", "ioc-set", "lib-kset-ioc", "ioc-clear", "lib-kclear-ioc" };
	for (int k = 0; k < (int)(sizeof(ops) / sizeof(ops[0])); k++)
		if (strcmp(mn, ops[k]) == 0)
			op = k;

	(void)getppid(); /* trace marker: the timed loop starts */
	t0 = now_ns();
	int r;
	if (strstr(mn, "-ioc") != NULL)
		fattrs_kattr_force_ioctl(true);
	if (op == 2 || op == 4 || op == 13 || op == 14 || op == 19 || op == 21) {
		/* once per mount, as setfattrs and xstat will: the first file's mount is all of them */
		r = fattrs_fsupport_probe(AT_FDCWD, v[0], fattrs_at_nofollow(op != 2 && op != 4), &fsup);
		if (r < 0)
			fail("fattrs_fsupport_probe", v[0], -r);
	}
	for (size_t i = 0; i < n; i++) {
		const char *p = v[i];
		struct fattrs_file_attr fa;
		struct fattrs_statx_buf sb;
		struct fattrs_fflags ff;
		struct fattrs_kattr ka;
		unsigned where = 0;
		uint64_t want;
		ssize_t s;

		switch (op) {
		case 0: /* set */
			if (setxattr(p, X_OFFLINE, "1", 1, 0) < 0)
				fail("setxattr", p, errno);
			changed++;
			break;
		case 1: /* set-excl */
			s = lgetxattr(p, X_PINNED, NULL, 0);
			if (s >= 0)
				fail("lgetxattr", p, EEXIST);
			if (errno != ENODATA)
				fail("lgetxattr", p, errno);
			if (setxattr(p, X_OFFLINE, "1", 1, 0) < 0)
				fail("setxattr", p, errno);
			changed++;
			break;
		case 2: /* lib-set */
		case 4: /* lib-clear */
			r = fattrs_fflag_set(AT_FDCWD, p, 0, 0, &fsup, FATTRS_OFFLINE, op == 2, 0, &where);
			if (r < 0)
				fail("fattrs_fflag_set", p, -r);
			changed += where == FATTRS_FSRC_XATTR;
			break;
		case 3: /* clear */
			if (removexattr(p, X_OFFLINE) < 0)
				fail("removexattr", p, errno);
			changed++;
			break;
		case 5: case 6: case 8: case 9: /* fsa-set[-rb], fsa-clear[-rb] */
			if (fsa_get(p, &fa) < 0)
				fail("file_getattr", p, errno);
			want = op <= 6 ? fa.fa_xflags | FS_XFLAG_NODUMP : fa.fa_xflags & ~(uint64_t)FS_XFLAG_NODUMP;
			if (want == fa.fa_xflags)
				break;
			fa.fa_xflags = want;
			if (fsa_set(p, &fa) < 0)
				fail("file_setattr", p, errno);
			if (op == 6 || op == 9) {
				if (fsa_get(p, &fa) < 0)
					fail("file_getattr", p, errno);
				if (fa.fa_xflags != want)
					break;
			}
			changed++;
			break;
		case 22: case 24: { /* ioc-set, ioc-clear */
			int fd = open(p, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
			unsigned int fl = 0, nf;

			if (fd < 0)
				fail("open", p, errno);
			if (ioctl(fd, FS_IOC_GETFLAGS, &fl) < 0)
				fail("FS_IOC_GETFLAGS", p, errno);
			nf = op == 22 ? fl | FS_NODUMP_FL : fl & ~(unsigned int)FS_NODUMP_FL;
			if (nf != fl) {
				if (ioctl(fd, FS_IOC_SETFLAGS, &nf) < 0)
					fail("FS_IOC_SETFLAGS", p, errno);
				changed++;
			}
			close(fd);
			break;
		}
		case 7: case 10: case 23: case 25: /* lib-kset, lib-kclear, lib-kset-ioc, lib-kclear-ioc */
			r = fattrs_kattr_change(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, 0, &kc, NULL);
			if (r < 0)
				fail("fattrs_kattr_change", p, -r);
			changed += r == 1;
			break;
		case 11: /* list */
		case 12: /* list-get */
			changed += (size_t)list_get(p, op == 12);
			break;
		case 13: /* lib-get */
		case 14: /* lib-get0 */
			r = fattrs_fflags_get(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, op == 13 ? modev[i] : 0, &fsup, NULL, &ff);
			if (r < 0)
				fail("fattrs_fflags_get", p, -r);
			changed += (ff.state[FATTRS_OFFLINE] == FATTRS_STATE_SET) + (ff.state[FATTRS_PINNED] == FATTRS_STATE_SET);
			fattrs_fflags_release(&ff);
			break;
		case 15: /* fsa-get */
			if (fsa_get(p, &fa) < 0)
				fail("file_getattr", p, errno);
			changed += (fa.fa_xflags & FS_XFLAG_NODUMP) != 0;
			break;
		case 16: /* lib-kget */
			r = fattrs_kattr_get(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, 0, FATTRS_KATTR_XFLAGS, &ka);
			if (r < 0)
				fail("fattrs_kattr_get", p, -r);
			changed += (ka.xflags & FS_XFLAG_NODUMP) != 0;
			break;
		case 17: case 18: case 20: /* stx-list, stx-list-get, stx-list-fsa */
			if (stx(p, &sb) < 0)
				fail("statx", p, errno);
			changed += (size_t)list_get(p, op == 18);
			if (op == 20) {
				if (fsa_get(p, &fa) < 0)
					fail("file_getattr", p, errno);
				changed += (fa.fa_xflags & FS_XFLAG_NODUMP) != 0;
			}
			break;
		case 19: case 21: /* stx-lib-get, stx-lib-all */
			if (stx(p, &sb) < 0)
				fail("statx", p, errno);
			r = fattrs_fflags_get(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, sb.stx_mode, &fsup, &sb, &ff);
			if (r < 0)
				fail("fattrs_fflags_get", p, -r);
			changed += (ff.state[FATTRS_OFFLINE] == FATTRS_STATE_SET) + (ff.state[FATTRS_PINNED] == FATTRS_STATE_SET);
			fattrs_fflags_release(&ff);
			if (op == 21) {
				r = fattrs_kattr_get(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, sb.stx_mode, FATTRS_KATTR_XFLAGS, &ka);
				if (r < 0)
					fail("fattrs_kattr_get", p, -r);
				changed += (ka.xflags & FS_XFLAG_NODUMP) != 0;
			}
			break;
		default:
			return 2;
		}
	}
	t1 = now_ns();
	(void)getppid(); /* trace marker: the timed loop ends */

	/* Untimed: every file changed, or the reads found what reset-read put there. */
	if (m->kind == K_WRITE) {
		for (size_t i = 0; i < n; i++)
			bad += !in_state(v[i], m->post);
		expect = n;
	}
	printf("%zu %zu %lld\n", n, changed, t1 - t0);
	if (bad != 0 || changed != expect) {
		fprintf(stderr, "%s: %s: CHECK FAILED: %zu of %zu files not in the new state, %zu counted, %zu expected\n",
			prog, m->name, bad, n, changed, expect);
		return 1;
	}
	free(modev);
	return 0;
}
