/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The format engine's run context (struct fmt_ctx: user and group names, the
 * mount table, scratch) and the lookups kept for one file (struct file_lookups).
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <locale.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "cli.h"
#include "format.h"
#include "format-private.h"

struct fmt_ctx *fmt_ctx_new(void)
{
	struct fmt_ctx *c = calloc(1, sizeof(*c));

	if (c != NULL)
		c->quoting = CLI_QS_LITERAL;
	return c;
}

static void id_cache_free(struct id_cache *c)
{
	for (size_t i = 0; i < c->alloc; i++)
		free(c->v[i].name);
	free(c->v);
}

struct fmt_ctx *fmt_ctx_free(struct fmt_ctx *c)
{
	if (c == NULL)
		return NULL;
	id_cache_free(&c->users);
	id_cache_free(&c->groups);
	free(c->buf);
	fattrs_fflags_release(&c->lookups.ff);
	free(c->lookups.other);
	fattrs_mntcache_free(c->mntcache);
	fattrs_mounts_free(c->mounts);
	cli_buf_free(&c->out);
	free(c);
	return NULL;
}

void fmt_ctx_set_quoting(struct fmt_ctx *c, int style)
{
	c->quoting = style;
}

void fmt_ctx_set_follow(struct fmt_ctx *c, bool follow)
{
	c->follow = follow;
}

/* The name of user or group @id, looked up once per id per run. */
/* The slot of @id in @v (@alloc a power of two): its own, or the empty one where it would go. */
static struct id_name *id_slot(struct id_name *v, size_t alloc, unsigned int id)
{
	size_t i = (id * 2654435761u) & (alloc - 1);

	while (v[i].used && v[i].id != id)
		i = (i + 1) & (alloc - 1);
	return &v[i];
}

/* @c with room for one more name, at most half full.  Returns: false when out of memory. */
static bool id_cache_grow(struct id_cache *c)
{
	size_t alloc = c->alloc ? 2 * c->alloc : 16;
	struct id_name *v;

	if (2 * (c->n + 1) <= c->alloc)
		return true;
	v = calloc(alloc, sizeof(*v));
	if (v == NULL)
		return false;
	for (size_t i = 0; i < c->alloc; i++)
		if (c->v[i].used)
			*id_slot(v, alloc, c->v[i].id) = c->v[i];
	free(c->v);
	c->v = v;
	c->alloc = alloc;
	return true;
}

const char *id_name(struct id_cache *c, unsigned int id, bool group)
{
	struct id_name *e = c->alloc != 0 ? id_slot(c->v, c->alloc, id) : NULL;
	const char *name;
	char *copy;

	if (e != NULL && e->used)
		return e->name;
	if (group) {
		struct group *g = getgrgid(id);

		name = g != NULL ? g->gr_name : NULL;
	} else {
		struct passwd *p = getpwuid(id);

		name = p != NULL ? p->pw_name : NULL;
	}
	copy = name != NULL ? strdup(name) : NULL;
	if (!id_cache_grow(c))
		return copy;	/* leaks one name rather than fail */
	*id_slot(c->v, c->alloc, id) = (struct id_name){ .id = id, .name = copy, .used = true };
	c->n++;
	return copy;
}

void set_buf(struct fmt_ctx *c, char *s)
{
	free(c->buf);
	c->buf = s;
}

/* The per-file lookups of @f, fresh when @f is another file than last time. */
struct file_lookups *lookups_of(struct fmt_file *f)
{
	struct file_lookups *l = &f->ctx->lookups;

	if (l->owner != f || l->name != f->name || l->ino != f->stx->stx_ino ||
	    l->dev_major != f->stx->stx_dev_major || l->dev_minor != f->stx->stx_dev_minor) {
		fmt_file_release(f);
		l->owner = f;
		l->name = f->name;
		l->ino = f->stx->stx_ino;
		l->dev_major = f->stx->stx_dev_major;
		l->dev_minor = f->stx->stx_dev_minor;
	}
	return l;
}

void fmt_file_release(struct fmt_file *f)
{
	struct file_lookups *l = &f->ctx->lookups;

	fattrs_fflags_release(&l->ff);
	free(l->other);
	*l = (struct file_lookups){ .xerr = 1, .ierr = 1, .ferr = 1, .uerr = 1, .merr = 1 };
}

/* The file's name for messages. */
const char *qname(const struct fmt_file *f)
{
	return cli_quotearg(f->name, CLI_QS_SHELL_ESCAPE_ALWAYS);
}

bool nofollow(const struct fmt_file *f)
{
	return (f->at_flags & AT_SYMLINK_NOFOLLOW) != 0;
}

/* The dirfd, path and flags of the file for the *at() lookups. */
void at_args(const struct fmt_file *f, int *dirfd, const char **path, unsigned *flags)
{
	*dirfd = f->path != NULL ? f->dirfd : AT_FDCWD;
	*path = f->path != NULL ? f->path : f->name;
	*flags = (unsigned)f->at_flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH);
}
