/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Joining and splitting paths the way mktemp(1) does, and following symlinks to a file to write. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fattrs.h"

char *fattrs_path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	size_t keep = n;
	const char *sep = "/";
	char *ret;

	while (keep > 0 && dir[keep - 1] == '/')
		keep--;
	if (keep == 0) {
		/* "/" or "//": the root; its slashes are kept, none added */
		keep = n;
		sep = "";
	} else if (name[0] == '/') {
		sep = "";
	}
	if (asprintf(&ret, "%.*s%s%s", (int)keep, dir, sep, name) < 0)
		return NULL;
	return ret;
}

char *fattrs_path_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* Linux's limit on symbolic links followed in one lookup. */
#define MAX_SYMLINKS 40

int fattrs_path_resolve(int dirfd, const char *path, char **ret)
{
	char *cur = strdup(path);

	if (cur == NULL)
		return -ENOMEM;
	for (int i = 0; i <= MAX_SYMLINKS; i++) {
		struct stat st;
		char *target, *dir, *next;
		ssize_t n;

		if (fstatat(dirfd, cur, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISLNK(st.st_mode)) {
			/* Not a link (or not there: a dangling link's target is created). */
			*ret = cur;
			return 0;
		}
		target = malloc((size_t)st.st_size + 2);
		if (target == NULL)
			goto nomem;
		n = readlinkat(dirfd, cur, target, (size_t)st.st_size + 1);
		if (n < 0 || n > st.st_size) {
			/* Changed under us: take it as it is now. */
			free(target);
			*ret = cur;
			return 0;
		}
		target[n] = '\0';
		if (target[0] == '/') {
			next = target;
		} else {
			dir = fattrs_path_dir(cur);
			next = dir != NULL ? fattrs_path_join(dir, target) : NULL;
			free(dir);
			free(target);
			if (next == NULL)
				goto nomem;
		}
		free(cur);
		cur = next;
	}
	free(cur);
	return -ELOOP;
nomem:
	free(cur);
	return -ENOMEM;
}
