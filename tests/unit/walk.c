/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/lib/walk.c: the tree walk, on trees that change under it. */
#include "config.h"

#include "fattrs.h"

#include <dirent.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"

#define MAX_SEEN 256

/* What a walk saw: each entry's path, depth, type, serial, and each error. */
struct seen {
	int n;
	char *path[MAX_SEEN];
	size_t depth[MAX_SEEN];
	mode_t type[MAX_SEEN];
	bool has_st[MAX_SEEN];
	uint64_t mnt_id[MAX_SEEN];
	unsigned long serial[MAX_SEEN];
	int nerr;
	char *err_path[MAX_SEEN];
	int err[MAX_SEEN];
	enum fattrs_walk_err err_what[MAX_SEEN];
	/* what the callback does besides recording */
	const char *skip;	/* FATTRS_WALK_SKIP for this path */
	int stop_at;		/* return -EINTR at this entry (1-based), 0: never */
	void (*act)(const struct fattrs_walk_entry *e, struct seen *s);
	int fds_max;		/* the most descriptors open during a call */
};

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (d == NULL)
		return -1;
	while (readdir(d) != NULL)
		n++;
	(void)closedir(d);
	return n - 3;	/* ".", "..", and the one opendir() holds */
}

static int record(const struct fattrs_walk_entry *e, void *arg)
{
	struct seen *s = arg;
	int i = s->n;
	int fds;

	if (i >= MAX_SEEN)
		return -E2BIG;
	s->path[i] = strdup(e->path);
	s->depth[i] = e->depth;
	s->type[i] = e->type;
	s->has_st[i] = e->st != NULL;
	s->mnt_id[i] = e->mnt_id;
	s->serial[i] = e->dir_serial;
	s->n++;
	fds = count_fds();
	if (fds > s->fds_max)
		s->fds_max = fds;
	if (s->act != NULL)
		s->act(e, s);
	if (s->stop_at == s->n)
		return -EINTR;
	if (s->skip != NULL && strcmp(e->path, s->skip) == 0)
		return FATTRS_WALK_SKIP;
	return 0;
}

static void record_err(const char *path, int err, enum fattrs_walk_err what, void *arg)
{
	struct seen *s = arg;

	if (s->nerr >= MAX_SEEN)
		return;
	s->err_path[s->nerr] = strdup(path);
	s->err[s->nerr] = err;
	s->err_what[s->nerr] = what;
	s->nerr++;
}

static void seen_free(struct seen *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->path[i]);
	for (int i = 0; i < s->nerr; i++)
		free(s->err_path[i]);
}

/* Where @path was seen (its index), or -1. */
static int seen_at(const struct seen *s, const char *path)
{
	for (int i = 0; i < s->n; i++) {
		if (strcmp(s->path[i], path) == 0)
			return i;
	}
	return -1;
}

/* A fresh tree under the test directory: its descriptor, or -1. */
static int tree(const char *name)
{
	(void)mkdirat(topfd, name, 0700);
	return openat(topfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void mkfile(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	must(fd);
	if (fd >= 0)
		(void)close(fd);
}

static void test_walk__every_name_once_parents_first(void)
{
	struct seen s = { 0 };
	int t = tree("every");
	bool parents_first = true;
	int r;

	must(mkdirat(t, "a", 0700));
	mkfile(t, "a/b");
	must(mkdirat(t, "a/c", 0700));
	mkfile(t, "a/c/d");
	mkfile(t, "e");
	must(symlinkat("a", t, "l"));
	r = fattrs_walk(t, "T", 0, record, record_err, &s);
	is_int(r, 0, "a walk of a small tree returns 0");
	is_int(s.n, 6, "it meets every name once (a, a/b, a/c, a/c/d, e, l)");
	is_int(s.nerr, 0, "... and reports no error");
	for (int i = 0; i < s.n; i++) {
		const char *slash = strrchr(s.path[i], '/');
		char parent[PATH_MAX];

		if (slash == NULL || (size_t)(slash - s.path[i]) == 1)
			continue;
		snprintf(parent, sizeof(parent), "%.*s", (int)(slash - s.path[i]), s.path[i]);
		if (strcmp(parent, "T") != 0 && (seen_at(&s, parent) < 0 || seen_at(&s, parent) > i))
			parents_first = false;
	}
	tap_ok(parents_first, "a directory comes before what is in it");
	r = seen_at(&s, "T/a/c/d");
	tap_ok(r >= 0 && s.depth[r] == 3 && s.type[r] == S_IFREG && s.has_st[r],
	       "T/a/c/d: depth 3, a regular file, stat'ed");
	r = seen_at(&s, "T/l");
	tap_ok(r >= 0 && s.type[r] == S_IFLNK && s.depth[r] == 1, "the symlink T/l is met as itself");
	tap_ok(seen_at(&s, "T/l/b") < 0, "... and never followed");
	r = seen_at(&s, "T/a");
	tap_ok(r >= 0 && s.mnt_id[r] != 0, "an entry comes with its mount id");
	seen_free(&s);
	(void)close(t);
}

static void test_walk__skip_and_stop(void)
{
	struct seen s = { .skip = "T/a" };
	int t = tree("skip");
	int r;

	must(mkdirat(t, "a", 0700));
	mkfile(t, "a/b");
	mkfile(t, "c");
	mkfile(t, "d");
	r = fattrs_walk(t, "T", 0, record, NULL, &s);
	is_int(r, 0, "FATTRS_WALK_SKIP goes on");
	tap_ok(seen_at(&s, "T/a") >= 0 && seen_at(&s, "T/a/b") < 0, "... but does not enter the directory");
	is_int(s.n, 3, "... and the rest is met (T/a, T/c, T/d)");
	seen_free(&s);
	s = (struct seen){ .stop_at = 2 };
	r = fattrs_walk(t, "T", 0, record, NULL, &s);
	is_int(r, -EINTR, "an -errno from the callback ends the walk with it");
	is_int(s.n, 2, "... and nothing more is met");
	seen_free(&s);
	(void)close(t);
}

static void test_walk__lazy_stats_only_directories(void)
{
	struct seen s = { 0 };
	int t = tree("lazy");
	int f, d;

	must(mkdirat(t, "sub", 0700));
	mkfile(t, "sub/f");
	mkfile(t, "g");
	is_int(fattrs_walk(t, "T", FATTRS_WALK_LAZY, record, NULL, &s), 0, "a lazy walk returns 0");
	f = seen_at(&s, "T/sub/f");
	d = seen_at(&s, "T/sub");
	if (f >= 0 && !s.has_st[f]) {
		tap_ok(s.type[f] == S_IFREG && s.mnt_id[f] == 0,
		       "a file the directory says is one: no stat, its type from the entry, no mount id");
	} else {
		/* a filesystem without d_type: every name is stat'ed */
		tap_ok(f >= 0 && s.type[f] == S_IFREG, "a file: its type (this filesystem has no d_type)");
	}
	tap_ok(d >= 0 && s.has_st[d] && s.type[d] == S_IFDIR, "a directory is stat'ed, to be entered");
	is_int(s.n, 3, "... and entered: every name is met");
	seen_free(&s);
	(void)close(t);
}

/* On the first name of T/v, remove every other name there. */
static void remove_siblings(const struct fattrs_walk_entry *e, struct seen *s)
{
	char name[16];

	if (strncmp(e->path, "T/v/", 4) != 0 || s->n != 2)
		return;
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "%02d", i);
		if (strcmp(name, e->name) != 0)
			(void)unlinkat(e->dirfd, name, 0);
	}
}

static void test_walk__a_name_gone_since_listed(void)
{
	struct seen s = { .act = remove_siblings };
	int t = tree("gone");
	int v, enoent = 0;
	char name[16];

	must(mkdirat(t, "v", 0700));
	v = openat(t, "v", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "%02d", i);
		mkfile(v, name);
	}
	is_int(fattrs_walk(t, "T", 0, record, record_err, &s), 0,
	       "a walk whose names go while it runs returns 0");
	for (int i = 0; i < s.nerr; i++)
		enoent += s.err[i] == -ENOENT && s.err_what[i] == FATTRS_WALK_ERR_ENTRY &&
			  strncmp(s.err_path[i], "T/v/", 4) == 0;
	is_int(s.n, 2, "T/v and its first name are met");
	is_int(enoent, 19, "the 19 names removed since are each reported, -ENOENT, with their path");
	is_int(s.nerr, 19, "... and nothing else");
	seen_free(&s);
	(void)close(v);
	(void)close(t);
}

/* When T/r is met, put another directory (with a file) in its place. */
static void replace_dir(const struct fattrs_walk_entry *e, struct seen *s)
{
	int fd;

	(void)s;
	if (strcmp(e->path, "T/r") != 0)
		return;
	must(renameat(e->dirfd, "r", e->dirfd, "r.old"));
	must(mkdirat(e->dirfd, "r", 0700));
	fd = openat(e->dirfd, "r/planted", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		(void)close(fd);
}

static void test_walk__a_directory_replaced_is_not_entered(void)
{
	struct seen s = { .act = replace_dir };
	int t = tree("replaced");

	must(mkdirat(t, "r", 0700));
	mkfile(t, "r/mine");
	is_int(fattrs_walk(t, "T", 0, record, record_err, &s), 0, "a walk with a directory replaced returns 0");
	tap_ok(seen_at(&s, "T/r/planted") < 0 && seen_at(&s, "T/r/mine") < 0,
	       "neither the new directory nor the old one is entered under the name");
	tap_ok(s.nerr >= 1 && strcmp(s.err_path[0], "T/r") == 0 && s.err[0] == -ESTALE &&
	       s.err_what[0] == FATTRS_WALK_ERR_REPLACED,
	       "T/r is reported: FATTRS_WALK_ERR_REPLACED, -ESTALE");
	seen_free(&s);
	(void)close(t);
}

/* Deep in T/m/n, move n out of m: the way back up is no longer m. */
static void move_up(const struct fattrs_walk_entry *e, struct seen *s)
{
	(void)s;
	if (strcmp(e->path, "T/m/n/f") == 0)
		must(renameat(topfd, "back/m/n", topfd, "back/n2"));
}

static void test_walk__moved_away_on_the_way_back(void)
{
	struct seen s = { .act = move_up };
	int t = tree("back");
	int r;

	must(mkdirat(t, "m", 0700));
	must(mkdirat(t, "m/n", 0700));
	mkfile(t, "m/n/f");
	mkfile(t, "m/z");
	r = fattrs_walk(t, "T", 0, record, record_err, &s);
	is_int(r, -ESTALE, "a directory moved out from under the walk ends it: -ESTALE");
	tap_ok(s.nerr == 1 && strcmp(s.err_path[0], "T/m/n") == 0 && s.err_what[0] == FATTRS_WALK_ERR_BACK,
	       "... reported as FATTRS_WALK_ERR_BACK, with the moved directory's path");
	tap_ok(seen_at(&s, "T/n2") < 0, "... and nothing is walked from where it went");
	seen_free(&s);
	(void)close(t);
}

static void test_walk__one_descriptor_whatever_the_depth(void)
{
	struct seen s = { 0 };
	int t = tree("deep");
	int base = count_fds();
	int d = dup(t);
	bool serials = true;

	for (int i = 0; i < 40; i++) {
		int sub;

		must(mkdirat(d, "d", 0700));
		mkfile(d, "f");
		sub = openat(d, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		(void)close(d);
		d = sub;
		if (d < 0)
			break;
	}
	if (d >= 0)
		(void)close(d);
	is_int(fattrs_walk(t, "T", 0, record, NULL, &s), 0, "a walk 40 directories deep returns 0");
	is_int(s.n, 80, "... meets every name");
	tap_ok(s.fds_max <= base + 1, "... with one descriptor of its own open at a time (at most %d, %d before)",
	       s.fds_max, base);
	for (int i = 1; i < s.n; i++) {
		if (s.depth[i] == s.depth[i - 1] && s.serial[i] != s.serial[i - 1])
			serials = false;
		if (s.depth[i] != s.depth[i - 1] && s.serial[i] == s.serial[i - 1])
			serials = false;
	}
	tap_ok(serials, "dir_serial is the same within a directory and changes with it");
	seen_free(&s);
	(void)close(t);
}

static void test_walk__what_cannot_be_walked(void)
{
	struct seen s = { 0 };
	int t = tree("cannot");
	int f;

	mkfile(t, "file");
	f = openat(t, "file", O_RDONLY | O_CLOEXEC);
	is_int(fattrs_walk(f, "T/file", 0, record, record_err, &s), -ENOTDIR, "a root that is no directory: -ENOTDIR");
	is_int(s.n + s.nerr, 0, "... and no call");
	if (f >= 0)
		(void)close(f);
	must(mkdirat(t, "locked", 0700));
	mkfile(t, "locked/x");
	must(fchmodat(t, "locked", 0, 0));
	if (!fattrs_caps_have(CAP_DAC_OVERRIDE) && !fattrs_caps_have(CAP_DAC_READ_SEARCH)) {
		is_int(fattrs_walk(t, "T", 0, record, record_err, &s), 0, "a walk past an unreadable directory returns 0");
		tap_ok(s.nerr == 1 && strcmp(s.err_path[0], "T/locked") == 0 && s.err[0] == -EACCES &&
		       s.err_what[0] == FATTRS_WALK_ERR_DIR,
		       "... and reports it: FATTRS_WALK_ERR_DIR, -EACCES");
	} else {
		skip_n(2, "the caller reads any directory (CAP_DAC_OVERRIDE)");
	}
	must(fchmodat(t, "locked", 0700, 0));
	seen_free(&s);
	(void)close(t);
}

int main(void)
{
	int r = top_make("walk");

	if (r < 0) {
		printf("Bail out! cannot make a temporary directory: %s\n", strerror(-r));
		return 1;
	}
	tap_run(test_walk__every_name_once_parents_first());
	tap_run(test_walk__skip_and_stop());
	tap_run(test_walk__lazy_stats_only_directories());
	tap_run(test_walk__a_name_gone_since_listed());
	tap_run(test_walk__a_directory_replaced_is_not_entered());
	tap_run(test_walk__moved_away_on_the_way_back());
	tap_run(test_walk__one_descriptor_whatever_the_depth());
	tap_run(test_walk__what_cannot_be_walked());
	/* The plan last: a filesystem without d_type changes nothing, but say so once. */
	tap_plan(tap_n);
	return top_done();
}
