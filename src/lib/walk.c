/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A directory tree walk for hostile trees, descriptor-relative at every step, holding one
 * directory descriptor whatever the depth (doc/design.md §3).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)

/* One directory being walked: its remaining names, and who it is. */
struct level {
	char *names;		/* each name's d_type byte, then the name and its NUL; "." and ".." left out */
	size_t len, pos;	/* bytes in names; where the next name starts */
	dev_t dev;
	ino_t ino;
	size_t pathlen;		/* strlen of its path in the walk's path buffer */
};

struct walk {
	struct level *lv;
	size_t depth, alloc;
	char *path;
	size_t path_alloc;
	int fd;			/* the descriptor of the top level */
	unsigned long serial;
};

/* Read every name of @fd (which must be at its start) into @l. */
static int read_names(int fd, struct level *l)
{
	char buf[32768];
	size_t alloc = 0;

	l->names = NULL;
	l->len = l->pos = 0;
	for (;;) {
		ssize_t n = getdents64(fd, buf, sizeof(buf));

		if (n < 0) {
			int r = negerrno();

			free(l->names);
			l->names = NULL;
			return r;
		}
		if (n == 0)
			return 0;
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			size_t nl = strlen(d->d_name);

			off += d->d_reclen;
			if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
				continue;
			if (l->len + nl + 2 > alloc) {
				size_t nalloc = alloc == 0 ? 4096 : alloc * 2;
				char *p;

				while (nalloc < l->len + nl + 2)
					nalloc *= 2;
				p = realloc(l->names, nalloc);
				if (p == NULL) {
					free(l->names);
					l->names = NULL;
					return -ENOMEM;
				}
				l->names = p;
				alloc = nalloc;
			}
			l->names[l->len] = (char)d->d_type;
			memcpy(l->names + l->len + 1, d->d_name, nl + 1);
			l->len += nl + 2;
		}
	}
}

/* Make the path buffer "TOP-LEVEL-PATH/name" (a level's path is kept at its pathlen). */
static int path_set(struct walk *w, size_t at, const char *name)
{
	size_t need = at + 1 + strlen(name) + 1;

	if (need > w->path_alloc) {
		size_t alloc = w->path_alloc * 2 > need ? w->path_alloc * 2 : need + 256;
		char *p = realloc(w->path, alloc);

		if (p == NULL)
			return -ENOMEM;
		w->path = p;
		w->path_alloc = alloc;
	}
	if (at > 0 && w->path[at - 1] != '/')
		w->path[at++] = '/';
	strcpy(w->path + at, name);
	return 0;
}

static int push(struct walk *w, int fd, const struct stat *st, size_t pathlen)
{
	struct level *l;
	int r;

	if (w->depth == w->alloc) {
		size_t alloc = w->alloc == 0 ? 16 : w->alloc * 2;

		l = realloc(w->lv, alloc * sizeof(*l));
		if (l == NULL)
			return -ENOMEM;
		w->lv = l;
		w->alloc = alloc;
	}
	l = &w->lv[w->depth];
	r = read_names(fd, l);
	if (r < 0)
		return r;
	l->dev = st->st_dev;
	l->ino = st->st_ino;
	l->pathlen = pathlen;
	w->depth++;
	return 0;
}

/* Back up one level: the parent again, as the child's "..", if it is the same directory. */
static int pop(struct walk *w)
{
	struct level *up;
	int fd;

	free(w->lv[--w->depth].names);
	if (w->depth == 0)
		return 0;
	up = &w->lv[w->depth - 1];
	/* -ESTALE: the directory was moved away during the walk */
	fd = open_same_inode(w->fd, "..", DIR_FLAGS, up->dev, up->ino, -ESTALE);
	if (fd < 0)
		return fd;
	(void)close(w->fd);
	w->fd = fd;
	w->serial++;
	return 0;
}

int fattrs_walk(int dirfd, const char *root, unsigned int flags, fattrs_walk_fn fn, fattrs_walk_err_fn err,
		void *arg)
{
	struct walk w = { .fd = -1, .serial = 1 };
	struct stat st;
	uint64_t mnt_id;
	dev_t root_dev;
	int r = 0;

	w.fd = openat(dirfd, ".", DIR_FLAGS & ~O_NOFOLLOW);
	if (w.fd < 0)
		return negerrno();
	if (fstat(w.fd, &st) < 0) {
		r = negerrno();
		goto out;
	}
	root_dev = st.st_dev;
	r = path_set(&w, 0, root);
	if (r == 0)
		r = push(&w, w.fd, &st, strlen(root));
	if (r < 0)
		goto out;

	while (w.depth > 0) {
		struct level *l = &w.lv[w.depth - 1];
		struct fattrs_walk_entry e;
		const char *name;
		unsigned char dtype;
		int child, c;

		if (l->pos >= l->len) {
			r = pop(&w);
			if (r < 0) {
				/*
				 * Cannot go back safely: the rest of this walk is
				 * abandoned.  -ESTALE names the directory that was
				 * moved (the level just left), anything else the
				 * one that could not be reopened.
				 */
				w.path[w.lv[r == -ESTALE ? w.depth : w.depth - 1].pathlen] = '\0';
				if (err != NULL)
					err(w.path, r, FATTRS_WALK_ERR_BACK, arg);
				goto out;
			}
			continue;
		}
		dtype = (unsigned char)l->names[l->pos];
		name = l->names + l->pos + 1;
		l->pos += strlen(name) + 2;
		w.path[l->pathlen] = '\0';
		r = path_set(&w, l->pathlen, name);
		if (r < 0)
			goto out;
		/*
		 * What the directory says a name is, where the caller does not
		 * need a stat of what is not a directory: never entered, so the
		 * directory entry's type is enough.
		 */
		if ((flags & FATTRS_WALK_LAZY) && dtype != DT_UNKNOWN && dtype != DT_DIR) {
			e = (struct fattrs_walk_entry){ .dirfd = w.fd, .name = name, .path = w.path, .st = NULL,
							.type = DTTOIF(dtype), .dir_serial = w.serial,
							.depth = w.depth };
			c = fn(&e, arg);
			if (c < 0) {
				r = c;
				goto out;
			}
			continue;
		}
		if (fattrs_stat_mnt(w.fd, name, AT_SYMLINK_NOFOLLOW, &st, &mnt_id) < 0) {
			/* Gone since it was listed (-ENOENT), or not to be stat'ed: said, and skipped. */
			if (err != NULL)
				err(w.path, negerrno(), FATTRS_WALK_ERR_ENTRY, arg);
			continue;
		}
		e = (struct fattrs_walk_entry){ .dirfd = w.fd, .name = name, .path = w.path, .st = &st,
						.mnt_id = mnt_id, .type = st.st_mode & S_IFMT, .dir_serial = w.serial,
						.depth = w.depth };
		c = fn(&e, arg);
		if (c < 0) {
			r = c;
			goto out;
		}
		if (!S_ISDIR(st.st_mode) || c == FATTRS_WALK_SKIP)
			continue;
		if ((flags & FATTRS_WALK_XDEV) && st.st_dev != root_dev)
			continue;
		/*
		 * The directory @fn was given, or nothing: a symlink, another file
		 * or another directory put in its place since its stat is never
		 * entered (-ESTALE), and one gone is said so (-ENOENT).
		 */
		child = open_same_inode(w.fd, name, DIR_FLAGS, st.st_dev, st.st_ino, -ESTALE);
		if (child < 0) {
			if (err != NULL)
				err(w.path, child == -ELOOP || child == -ENOTDIR ? -ESTALE : child,
				    child == -ENOENT ? FATTRS_WALK_ERR_ENTRY :
				    child == -ESTALE || child == -ELOOP || child == -ENOTDIR ? FATTRS_WALK_ERR_REPLACED :
				    FATTRS_WALK_ERR_DIR, arg);
			continue;
		}
		r = push(&w, child, &st, strlen(w.path));
		if (r < 0) {
			(void)close(child);
			if (err != NULL)
				err(w.path, r, FATTRS_WALK_ERR_DIR, arg);
			r = 0;
			continue;
		}
		(void)close(w.fd);
		w.fd = child;
		w.serial++;
	}
out:
	while (w.depth > 0)
		free(w.lv[--w.depth].names);
	free(w.lv);
	free(w.path);
	if (w.fd >= 0)
		(void)close(w.fd);
	return r;
}
