/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stat-loop: the floor for "stat -c '%n %s %Y'" over many files: one
 * statx(2) per name (STATX_SIZE | STATX_MTIME, no symlink following), the
 * line formatted by hand into a 64 KiB buffer written with write(2).
 *
 *   stat-loop LIST      LIST: NUL-terminated names ("-": standard input)
 *   stat-loop -v LIST   the floor for xstat's default view: each file's
 *                       statx asks for every field, then file_getattr(2)
 *                       (Linux 6.17) and llistxattr(2), and a getxattr(2)
 *                       per user.fattr.* name listed
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef __NR_file_getattr
#define __NR_file_getattr 468	/* Linux 6.17, every architecture but alpha */
#endif

/* struct file_attr of file_getattr(2) */
struct fa {
	uint64_t xflags;
	uint32_t extsize, nextents, projid, cowextsize;
};

/*
 * The calls of the view beyond statx: the fsxattr word, the xattr names,
 * and the value of each user.fattr.* name.  Returns the xflags (0 where
 * the file has none).
 */
static uint64_t view_calls(const char *name)
{
	static char names[65536];
	struct fa a = { 0 };
	ssize_t n;
	char v[8];

	if (syscall(__NR_file_getattr, AT_FDCWD, name, &a, sizeof(a), AT_SYMLINK_NOFOLLOW) < 0)
		a.xflags = 0;
	n = llistxattr(name, names, sizeof(names));
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(names + i) + 1)
		if (strncmp(names + i, "user.fattr.", 11) == 0)
			(void)lgetxattr(name, names + i, v, sizeof(v));
	return a.xflags;
}

static char out[65536];
static size_t used;

static void flush(void)
{
	size_t off = 0;

	while (off < used) {
		ssize_t n = write(1, out + off, used - off);

		if (n <= 0)
			exit(1);
		off += (size_t)n;
	}
	used = 0;
}

static void put_num(long long v)
{
	char tmp[24];
	int n = 0;
	unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;

	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		out[used++] = '-';
	while (n > 0)
		out[used++] = tmp[--n];
}

int main(int argc, char **argv)
{
	char *list = NULL;
	size_t alloc = 0, len = 0;
	int fd, status = 0;
	ssize_t n;
	int view = argc == 3 && strcmp(argv[1], "-v") == 0;
	unsigned int mask = view ? 0x3ffffu & ~0x4000u : STATX_SIZE | STATX_MTIME;
	const char *from = argv[argc - 1];

	if (argc != 2 && !view) {
		fprintf(stderr, "usage: stat-loop [-v] LIST\n");
		return 2;
	}
	fd = strcmp(from, "-") == 0 ? 0 : open(from, O_RDONLY);
	if (fd < 0)
		return 2;
	for (;;) {
		if (len == alloc) {
			alloc = alloc ? 2 * alloc : 1 << 20;
			list = realloc(list, alloc);
			if (list == NULL)
				return 2;
		}
		n = read(fd, list + len, alloc - len);
		if (n < 0)
			return 2;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	for (size_t i = 0; i < len; ) {
		const char *name = list + i;
		size_t nl = strnlen(name, len - i);
		struct statx stx;

		i += nl + 1;
		uint64_t xflags = 0;

		if (statx(AT_FDCWD, name, AT_SYMLINK_NOFOLLOW, mask, &stx) != 0) {
			perror(name);
			status = 1;
			continue;
		}
		if (view)
			xflags = view_calls(name);
		if (used + nl + 72 > sizeof(out))
			flush();
		memcpy(out + used, name, nl);
		used += nl;
		out[used++] = ' ';
		put_num((long long)stx.stx_size);
		out[used++] = ' ';
		put_num((long long)stx.stx_mtime.tv_sec);
		if (view) {
			out[used++] = ' ';
			put_num((long long)xflags);
		}
		out[used++] = '\n';
	}
	flush();
	return status;
}
