/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Joining and splitting paths the way mktemp(1) does. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
