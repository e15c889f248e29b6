/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stat-loop: the floor for "stat -c '%n %s %Y'" over many files: one
 * statx(2) per name (STATX_SIZE | STATX_MTIME, no symlink following), the
 * line formatted by hand into a 64 KiB buffer written with write(2).
 *
 *   stat-loop LIST      LIST: NUL-terminated names ("-": standard input)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	size_t cap = 0, len = 0;
	int fd, status = 0;
	ssize_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: stat-loop LIST\n");
		return 2;
	}
	fd = strcmp(argv[1], "-") == 0 ? 0 : open(argv[1], O_RDONLY);
	if (fd < 0)
		return 2;
	for (;;) {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			list = realloc(list, cap);
			if (list == NULL)
				return 2;
		}
		n = read(fd, list + len, cap - len);
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
		if (statx(AT_FDCWD, name, AT_SYMLINK_NOFOLLOW, STATX_SIZE | STATX_MTIME, &stx) != 0) {
			perror(name);
			status = 1;
			continue;
		}
		if (used + nl + 48 > sizeof(out))
			flush();
		memcpy(out + used, name, nl);
		used += nl;
		out[used++] = ' ';
		put_num((long long)stx.stx_size);
		out[used++] = ' ';
		put_num((long long)stx.stx_mtime.tv_sec);
		out[used++] = '\n';
	}
	flush();
	return status;
}
