/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names: random ones from a template, and the hidden names of this machine per target.
 * (doc/design.md §4)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmp.h"

/*
 * Try random names from @tmpl until @make succeeds with something but
 * EEXIST (or NAME_LOST: a name made and lost again).  Gives up after
 * NAME_ATTEMPTS names taken (EEXIST) or LOST_ATTEMPTS lost (ENOLCK).
 */
int try_names(int dirfd, const struct fattrs_tmpl *tmpl, char **ret_path,
	      int (*make)(int dirfd, const char *path, void *data), void *data)
{
	char *buf = strdup(tmpl->path);
	int r = -EEXIST, lost = 0;

	if (buf == NULL)
		return -ENOMEM;
	for (long i = 0; i < NAME_ATTEMPTS; i++) {
		r = tmpl_randomize(buf, tmpl);
		if (r < 0)
			break;
		r = make(dirfd, buf, data);
		if (r == NAME_LOST && ++lost < LOST_ATTEMPTS)
			continue;
		if (r == NAME_LOST)
			r = -ENOLCK;
		if (r != -EEXIST || tmpl->x_len == 0)
			break;
	}
	if (r < 0) {
		free(buf);
		return r;
	}
	*ret_path = buf;
	return r;
}

/*
 * This machine, as four letters and digits: a hash of /etc/machine-id and
 * the host name.  Hidden names end in it, so that writers on machines
 * sharing a network filesystem never meet each other's names: flock(2) on
 * FUSE (sshfs) is local to this machine, and could not tell another
 * machine's live writer from a dead one here.  Computed once; threads may
 * both compute it, with the same result.
 */
#define MACHINE_TAG_LEN 4
static void machine_tag(char *out)
{
	static char tag[MACHINE_TAG_LEN];
	static _Atomic bool known;
	static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

	if (!known) {
		char buf[256 + HOST_NAME_MAX + 1] = "";
		uint64_t h = 14695981039346656037ULL;
		size_t n = 0;
		int fd = open("/etc/machine-id", O_RDONLY | O_NOCTTY | O_CLOEXEC);

		if (fd >= 0) {
			ssize_t got = read(fd, buf, 256);

			n = got > 0 ? (size_t)got : 0;
			(void)close(fd);
		}
		buf[n++] = '\n';
		if (gethostname(buf + n, HOST_NAME_MAX + 1) == 0)
			n += strnlen(buf + n, HOST_NAME_MAX);
		for (size_t i = 0; i < n; i++) {
			h ^= (unsigned char)buf[i];
			h *= 1099511628211ULL;
		}
		for (size_t i = 0; i < MACHINE_TAG_LEN; i++) {
			tag[i] = alnum[h % 62];
			h /= 62;
		}
		known = true;
	}
	memcpy(out, tag, MACHINE_TAG_LEN);
}

/*
 * FNV-1a of @kind and the last component of @path, as @len letters and
 * digits, the last MACHINE_TAG_LEN of them this machine's tag.  @kind
 * keeps the names of different uses apart ("" for FILE's hidden output,
 * "~" for its backup's hidden link, "s" for scratch files).
 */
static void name_hash(const char *kind, const char *path, char *out, size_t len)
{
	static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	const char *slash = strrchr(path, '/');
	uint64_t h = 14695981039346656037ULL;

	for (const unsigned char *c = (const unsigned char *)kind; *c; c++) {
		h ^= *c;
		h *= 1099511628211ULL;
	}
	for (const unsigned char *c = (const unsigned char *)(slash != NULL ? slash + 1 : path); *c; c++) {
		h ^= *c;
		h *= 1099511628211ULL;
	}
	for (size_t i = 0; i < len; i++) {
		out[i] = alnum[h % 62];
		h /= 62;
	}
	if (len > MACHINE_TAG_LEN)
		machine_tag(out + len - MACHINE_TAG_LEN);
}

char *hidden_kind_for(const char *kind, const char *path, struct fattrs_tmpl *ret)
{
	char *dir = fattrs_path_dir(path);
	char *hidden = dir != NULL ? fattrs_tmpl_hidden(dir, ret) : NULL;

	free(dir);
	if (hidden != NULL)
		name_hash(kind, path, hidden + ret->x_off, ret->x_len);
	return hidden;
}

char *fattrs_tmpl_hidden_for(const char *path, struct fattrs_tmpl *ret)
{
	return hidden_kind_for("", path, ret);
}

char *fattrs_tmpl_hidden_scratch(const char *dir, struct fattrs_tmpl *ret)
{
	char *hidden = fattrs_tmpl_hidden(dir, ret);

	if (hidden != NULL)
		name_hash("s", "", hidden + ret->x_off, ret->x_len);
	return hidden;
}

static int make_nothing(int dirfd, const char *path, void *data)
{
	struct stat st;

	(void)data;
	if (fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return -EEXIST;
	return errno == ENOENT ? 0 : negerrno();
}

int fattrs_tmpname_pick(int dirfd, const struct fattrs_tmpl *tmpl, char **ret_path)
{
	return try_names(dirfd, tmpl, ret_path, make_nothing, NULL);
}
