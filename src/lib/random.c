/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Random letters and digits for temporary names, from getrandom(2), and name templates. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "internal.h"

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/*
 * One getrandom(2) call serves many names: 10 X's take 10 bytes.  Each
 * thread draws from its own pool, so no lock is needed.  A child after
 * fork(2) must not hand out the names its parent is about to: it forgets
 * its copy of the pool (pool_forget, run by pthread_atfork(3)).  Where
 * that handler could not be registered, nothing is kept between calls.
 */
static _Thread_local unsigned char pool[256];
static _Thread_local size_t pool_left;
/*
 * 0: not registered yet, 1: registered, 2: could not be.  Not
 * pthread_once(3): its futex wake is a system call on every first call,
 * and two threads registering at once only make a child forget twice.
 */
static atomic_int atfork_state;

static void pool_forget(void)
{
	explicit_bzero(pool, sizeof(pool));
	pool_left = 0;
}

static bool atfork_failed(void)
{
	int state = atomic_load_explicit(&atfork_state, memory_order_acquire);

	if (state == 0) {
		int expected = 0;

		state = pthread_atfork(NULL, NULL, pool_forget) == 0 ? 1 : 2;
		if (!atomic_compare_exchange_strong(&atfork_state, &expected, state))
			state = expected;
	}
	return state == 2;
}

static int pool_byte(unsigned char *ret)
{
	/* Reject bytes >= 248 so that each of the 62 characters is equally likely. */
	for (;;) {
		if (pool_left == 0) {
			ssize_t n = getrandom(pool, sizeof(pool), 0);

			if (n < 0)
				return negerrno();
			pool_left = (size_t)n;
			if (pool_left == 0)
				return -EIO;
		}
		unsigned char b = pool[--pool_left];

		if (b < 248) {
			*ret = b;
			return 0;
		}
	}
}

int fattrs_random_fill(char *buf, size_t len)
{
	if (atfork_failed())
		pool_forget();
	for (size_t i = 0; i < len; i++) {
		unsigned char b;
		int r = pool_byte(&b);

		if (r < 0)
			return r;
		buf[i] = alphabet[b % (sizeof(alphabet) - 1)];
	}
	return 0;
}

int tmpl_randomize(char *buf, const struct fattrs_tmpl *tmpl)
{
	return fattrs_random_fill(buf + tmpl->x_off, tmpl->x_len);
}

char *fattrs_tmpl_hidden(const char *dir, struct fattrs_tmpl *ret)
{
	const char *x = strchr(FATTRS_HIDDEN_TEMPLATE, 'X');
	size_t x_len = strspn(x, "X");
	char *path = fattrs_path_join(dir, FATTRS_HIDDEN_TEMPLATE);

	if (path == NULL)
		return NULL;
	*ret = (struct fattrs_tmpl) {
		.path = path,
		.x_off = strlen(path) - strlen(x),
		.x_len = x_len,
	};
	return path;
}

const char *fattrs_tmpl_suffix(const char *template, const char *suffix)
{
	const char *x;

	if (suffix != NULL)
		return suffix;
	x = strrchr(template, 'X');
	return x != NULL ? x + 1 : template + strlen(template);
}

/* The last component of @s, trailing slashes included (as gnulib's last_component()). */
static const char *last_component(const char *s)
{
	const char *base = s;
	bool slash = false;

	while (*base == '/')
		base++;
	for (const char *p = base; *p != '\0'; p++) {
		if (*p == '/') {
			slash = true;
		} else if (slash) {
			base = p;
			slash = false;
		}
	}
	return base;
}

enum fattrs_tmpl_err fattrs_tmpl_parse(const char *template, const char *suffix,
				       char **ret_path, struct fattrs_tmpl *ret)
{
	size_t len = strlen(template);
	const char *suf = fattrs_tmpl_suffix(template, suffix);
	size_t suffix_len = strlen(suf);
	size_t x_len = 0;
	char *path;

	if (suffix != NULL && (len == 0 || template[len - 1] != 'X'))
		return FATTRS_TMPL_SUFFIX_NEEDS_X;
	/* As GNU mktemp: "a/" is a suffix (its last component is itself). */
	if (last_component(suf) != suf)
		return FATTRS_TMPL_SUFFIX_SLASH;
	if (suffix == NULL)
		len -= suffix_len;
	while (x_len < len && template[len - 1 - x_len] == 'X')
		x_len++;
	if (x_len < FATTRS_TEMPLATE_MIN_X)
		return FATTRS_TMPL_FEW_X;
	if (asprintf(&path, "%s%s", template, suffix != NULL ? suffix : "") < 0)
		return FATTRS_TMPL_NOMEM;
	*ret_path = path;
	*ret = (struct fattrs_tmpl) {
		.path = path,
		.x_off = len - x_len,
		.x_len = x_len,
	};
	return FATTRS_TMPL_OK;
}

int fattrs_tmpl_join(const char *dir, char **path, struct fattrs_tmpl *tmpl)
{
	char *joined = fattrs_path_join(dir, *path);

	if (joined == NULL)
		return -ENOMEM;
	/* The template's path is the end of the joined one. */
	tmpl->x_off += strlen(joined) - strlen(*path);
	tmpl->path = joined;
	free(*path);
	*path = joined;
	return 0;
}
