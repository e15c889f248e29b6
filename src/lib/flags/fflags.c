/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The four fattrs(7) flags: the table, their states, and reading them from every place one can
 * live.  doc/design.md §2 is the contract; doc/kernel.md §4 and §5 the traps.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>		/* AT_FDCWD */
#include <limits.h>		/* XATTR_LIST_MAX, XATTR_SIZE_MAX (from linux/limits.h) */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fflags-private.h"

/*
 * The STATX_ATTR_* hook: no kernel defines these yet (doc/kernel.md §1.6).  When
 * the build headers ever do, the table picks them up.
 */
#ifdef STATX_ATTR_OFFLINE
# define FFLAG_STATX_OFFLINE STATX_ATTR_OFFLINE
#else
# define FFLAG_STATX_OFFLINE 0
#endif
#ifdef STATX_ATTR_PINNED
# define FFLAG_STATX_PINNED STATX_ATTR_PINNED
#else
# define FFLAG_STATX_PINNED 0
#endif
#ifdef STATX_ATTR_INTEGRITY
# define FFLAG_STATX_INTEGRITY STATX_ATTR_INTEGRITY
#else
# define FFLAG_STATX_INTEGRITY 0
#endif
#ifdef STATX_ATTR_NOSCRUB
# define FFLAG_STATX_NOSCRUB STATX_ATTR_NOSCRUB
#else
# define FFLAG_STATX_NOSCRUB 0
#endif

/*
 * A name list of this size holds a few dozen names (security.selinux, the
 * two ACLs, the four flags and more), so most files cost one llistxattr(2);
 * a longer list costs a size query and a retry.
 */
#define LIST_FAST 1024
/*
 * A value read into this many bytes is "1" or "0" or, if invalid, short
 * enough to quote in a warning; a longer one is fetched in full.
 */
#define VALUE_FAST 64

/* Display order: do not sort. */
const struct fattrs_fflag_info fflag_table[FATTRS_NFFLAGS] = {
	[FATTRS_OFFLINE] = {
		.name = "offline",
		.xattr = FATTRS_FFLAG_PREFIX "offline",
		.winattr = FATTRS_WINATTR_OFFLINE,
		.statx = FFLAG_STATX_OFFLINE,
		.opposite = FATTRS_PINNED,
		.description = "the data lives elsewhere (in the cloud); reading it may be slow",
	},
	[FATTRS_PINNED] = {
		.name = "pinned",
		.xattr = FATTRS_FFLAG_PREFIX "pinned",
		.winattr = FATTRS_WINATTR_PINNED,
		.statx = FFLAG_STATX_PINNED,
		.opposite = FATTRS_OFFLINE,
		.description = "keep the data local: it must not be evicted to the cloud",
	},
	[FATTRS_INTEGRITY] = {
		.name = "integrity",
		.xattr = FATTRS_FFLAG_PREFIX "integrity",
		.winattr = FATTRS_WINATTR_INTEGRITY_STREAM,
		.statx = FFLAG_STATX_INTEGRITY,
		.opposite = FATTRS_NOSCRUB,
		.description = "ask for the strongest integrity protection of the data",
	},
	[FATTRS_NOSCRUB] = {
		.name = "noscrub",
		.xattr = FATTRS_FFLAG_PREFIX "noscrub",
		.winattr = FATTRS_WINATTR_NO_SCRUB_DATA,
		.statx = FFLAG_STATX_NOSCRUB,
		.opposite = FATTRS_INTEGRITY,
		.description = "scratch data: not worth scrubbing or protecting",
	},
};

const struct fattrs_fflag_info *fattrs_fflag_info(enum fattrs_fflag f)
{
	if ((unsigned int)f >= FATTRS_NFFLAGS)
		return NULL;
	return &fflag_table[f];
}

int fattrs_fflag_find(const char *name)
{
	if (name == NULL)
		return -1;
	if (strncmp(name, FATTRS_FFLAG_PREFIX, strlen(FATTRS_FFLAG_PREFIX)) == 0)
		name += strlen(FATTRS_FFLAG_PREFIX);
	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		if (strcmp(name, fflag_table[i].name) == 0)
			return i;
	}
	return -1;
}

const char *fattrs_state_name(enum fattrs_state s)
{
	static const char *const names[] = {
		[FATTRS_STATE_CLEAR] = "clear",
		[FATTRS_STATE_SET] = "set",
		[FATTRS_STATE_INVALID] = "invalid",
		[FATTRS_STATE_UNSUPPORTED] = "unsupported",
		[FATTRS_STATE_UNREADABLE] = "not readable",
		[FATTRS_STATE_UNKNOWN] = "unknown",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : NULL;
}

enum fattrs_state fattrs_fflag_value(const void *v, size_t len)
{
	if (len != 1 || v == NULL)
		return FATTRS_STATE_INVALID;
	if (*(const char *)v == FATTRS_FFLAG_VALUE_SET[0])
		return FATTRS_STATE_SET;
	if (*(const char *)v == FATTRS_FFLAG_VALUE_CLEAR[0])
		return FATTRS_STATE_CLEAR;
	return FATTRS_STATE_INVALID;
}

/* The kernel allows user.* xattrs only on these (fs/xattr.c xattr_permission()). */
bool type_can_carry(mode_t mode)
{
	return S_ISREG(mode) || S_ISDIR(mode);
}

int file_mode(int dirfd, const char *path, unsigned atf, mode_t *ret)
{
	struct stat st;

	if (fstatat(dirfd, path != NULL ? path : "", &st, (int)atf) < 0)
		return negerrno();
	*ret = st.st_mode;
	return 0;
}

/* ------------------------------------------------------------- reading */

/*
 * The names of @path's xattrs into @fast (@fast_size bytes) or, when they
 * do not fit, into a buffer grown to fit (*@ret_heap, to free), again and
 * again if the list keeps growing between the size query and the read.
 * Returns: the list's length, or -errno.
 */
static ssize_t list_names(int dirfd, const char *path, unsigned atf, char *fast, size_t fast_size, char **ret_heap)
{
	char *buf = fast, *heap = NULL;
	size_t size = fast_size;
	ssize_t n;

	for (;;) {
		char *p;

		n = xlistxattr(dirfd, path, atf, buf, size);
		if (n >= 0)
			break;
		if (errno != ERANGE)
			goto fail;
		/* The kernel never lists more than this: E2BIG, not ERANGE. */
		if (size >= XATTR_LIST_MAX) {
			errno = E2BIG;
			goto fail;
		}
		n = xlistxattr(dirfd, path, atf, NULL, 0);
		if (n < 0)
			goto fail;
		/* Some room for names added meanwhile, and never less than before. */
		size = (size_t)n + 256 > size * 2 ? (size_t)n + 256 : size * 2;
		p = realloc(heap, size);
		if (p == NULL) {
			errno = ENOMEM;
			goto fail;
		}
		buf = heap = p;
	}
	*ret_heap = heap;
	return n;
fail:
	n = negerrno();
	free(heap);
	return n;
}

/*
 * The value of xattr @name, for a flag: its state, and a malloc()ed copy
 * in *@ret_bad (NUL-terminated; length *@ret_bad_len) when invalid.
 * A name that vanished since it was listed reads clear.
 */
static int read_value(int dirfd, const char *path, unsigned atf, const char *name, enum fattrs_state *ret_state,
		      char **ret_bad, size_t *ret_bad_len)
{
	char fast[VALUE_FAST];
	char *heap = NULL;
	size_t len;
	ssize_t n = xgetxattr(dirfd, path, atf, name, fast, sizeof(fast));
	int r;

	if (n >= 0) {
		*ret_state = fattrs_fflag_value(fast, (size_t)n);
		if (*ret_state != FATTRS_STATE_INVALID)
			return 0;
		heap = malloc((size_t)n + 1);
		if (heap == NULL)
			return -ENOMEM;
		memcpy(heap, fast, (size_t)n);
		heap[n] = '\0';
		len = (size_t)n;
	} else if (errno == ENODATA) {
		*ret_state = FATTRS_STATE_CLEAR;
		return 0;
	} else if (errno != ERANGE) {
		return negerrno();
	} else {
		/* Invalid for sure; fetched in full only to be quoted. */
		r = fattrs_xattr_get(dirfd, path, atf, name, &heap, &len);
		if (r == -ENODATA) {
			*ret_state = FATTRS_STATE_CLEAR;
			return 0;
		}
		if (r < 0)
			return r;
		*ret_state = fattrs_fflag_value(heap, len);
		if (*ret_state != FATTRS_STATE_INVALID) {
			free(heap);
			return 0;
		}
	}
	*ret_bad = heap;
	*ret_bad_len = len;
	return 0;
}

/*
 * Walk the name list: read each of the four flags' values, and copy the
 * other names under the prefix into one allocation (the pointer array,
 * then the strings).
 */
static int scan_names(int dirfd, const char *path, unsigned atf, const char *list, size_t len, struct fattrs_fflags *f)
{
	const size_t plen = strlen(FATTRS_FFLAG_PREFIX);
	size_t n_unknown = 0, bytes = 0;
	enum fattrs_state st;
	char **arr, *s;
	int r;

	for (size_t i = 0; i < len; i += strnlen(list + i, len - i) + 1) {
		const char *name = list + i;
		int flag;

		if (strncmp(name, FATTRS_FFLAG_PREFIX, plen) != 0)
			continue;
		flag = fattrs_fflag_find(name);
		if (flag < 0 || strcmp(name, fflag_table[flag].xattr) != 0) {
			n_unknown++;
			bytes += strnlen(name, len - i) + 1;
			continue;
		}
		r = read_value(dirfd, path, atf, name, &st, &f->invalid[flag], &f->invalid_len[flag]);
		if (r < 0)
			return r;
		if (st == FATTRS_STATE_SET)
			f->source[flag] |= FATTRS_FSRC_XATTR;
	}
	if (n_unknown == 0)
		return 0;

	arr = malloc(n_unknown * sizeof(*arr) + bytes);
	if (arr == NULL)
		return -ENOMEM;
	s = (char *)(arr + n_unknown);
	f->unknown = arr;
	for (size_t i = 0; i < len; i += strnlen(list + i, len - i) + 1) {
		const char *name = list + i;
		int flag;
		size_t l;

		if (strncmp(name, FATTRS_FFLAG_PREFIX, plen) != 0)
			continue;
		flag = fattrs_fflag_find(name);
		if (flag >= 0 && strcmp(name, fflag_table[flag].xattr) == 0)
			continue;
		/* The list might have no final NUL: copy, then terminate. */
		l = strnlen(name, len - i);
		memcpy(s, name, l);
		s[l] = '\0';
		arr[f->n_unknown++] = s;
		s += l + 1;
	}
	return 0;
}

int fattrs_fflags_get(int dirfd, const char *path, unsigned atf, mode_t mode, const struct fattrs_fsupport *fsup,
		      const struct fattrs_statx_buf *stx, struct fattrs_fflags *ret)
{
	struct fattrs_fflags f = { .unknown = NULL, .n_unknown = 0 };
	struct fattrs_fsupport probed;
	unsigned int by_statx = 0;	/* flags whose state statx gave */
	char fast[LIST_FAST];
	char *heap = NULL;
	int r;

	if ((atf & ~AT_ALLOWED) != 0)
		return -EINVAL;
	fsup = fsupport_or_probe(dirfd, path, atf, fsup, &probed, &r);
	if (fsup == NULL)
		return r;
	if ((mode & S_IFMT) == 0) {
		r = file_mode(dirfd, path, atf, &mode);
		if (r < 0)
			return r;
	}

	/* The STATX_ATTR_* hook: compiled to nothing while no bit exists. */
	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		uint64_t bit = fflag_table[i].statx;

		if (stx == NULL || bit == 0 || (stx->stx_attributes_mask & bit) == 0)
			continue;
		by_statx |= 1U << i;
		if (stx->stx_attributes & bit)
			f.source[i] |= FATTRS_FSRC_STATX;
	}

	if (!type_can_carry(mode) || (!fsup->user_xattr && fsup->native == FATTRS_NATIVE_NONE)) {
		for (int i = 0; i < FATTRS_NFFLAGS; i++) {
			if (by_statx & (1U << i))
				f.state[i] = f.source[i] != 0 ? FATTRS_STATE_SET : FATTRS_STATE_CLEAR;
			else
				f.state[i] = FATTRS_STATE_UNSUPPORTED;
		}
		*ret = f;
		return 0;
	}

	if (fsup->user_xattr) {
		ssize_t len = list_names(dirfd, path, atf, fast, sizeof(fast), &heap);

		if (len < 0) {
			r = (int)len;
			goto fail;
		}
		r = scan_names(dirfd, path, atf, heap != NULL ? heap : fast, (size_t)len, &f);
		if (r < 0)
			goto fail;
	}
	if (fsup->native != FATTRS_NATIVE_NONE) {
		uint32_t w = 0;

		r = native_read(dirfd, path, atf, fsup->native, &w);
		if (r < 0 && !no_native_word(r))
			goto fail;
		for (int i = 0; r == 0 && i < FATTRS_NFFLAGS; i++) {
			if (w & fflag_table[i].winattr)
				f.source[i] |= FATTRS_FSRC_NATIVE;
		}
	}

	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		if (f.source[i] != 0)
			f.state[i] = FATTRS_STATE_SET;
		else if (f.invalid[i] != NULL)
			f.state[i] = FATTRS_STATE_INVALID;
		else
			f.state[i] = FATTRS_STATE_CLEAR;
	}
	free(heap);
	*ret = f;
	return 0;
fail:
	free(heap);
	fattrs_fflags_release(&f);
	return r;
}

void fattrs_fflags_release(struct fattrs_fflags *f)
{
	if (f == NULL)
		return;
	for (int i = 0; i < FATTRS_NFFLAGS; i++) {
		free(f->invalid[i]);
		f->invalid[i] = NULL;
		f->invalid_len[i] = 0;
	}
	/* The names live in the same allocation as the array. */
	free(f->unknown);
	f->unknown = NULL;
	f->n_unknown = 0;
}
