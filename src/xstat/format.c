/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The format engine (format.h): GNU stat 9.1's directives, flags, widths,
 * precisions and escapes, parsed once and rendered per file.
 *
 * Compatibility notes (each checked against /usr/bin/stat 9.1 by
 * the tests in tests/xstat):
 * - a directive is '%', flags from "'-+ #0I", digits, optionally '.' and
 *   digits, then a letter; each kind of value keeps only the flags printf
 *   gives a meaning for it ('I' is always dropped);
 * - an unknown letter prints "?" (width ignored); "%%" and a lone "%" at
 *   the end print "%"; "%5%" is an invalid directive that ends the run when
 *   the first file is printed;
 * - precision on a string (%x, %n, ...) truncates it, precision on %X %Y %Z
 *   %W gives that many digits of the fraction (a bare '.' means 9).
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

union fmt_value {
	intmax_t i;
	uintmax_t u;
	const char *s;
	struct timespec t;
};

/* ------------------------------------------------------------ context */

struct id_name {
	unsigned int id;
	char *name;	/* NULL: no such id */
};

struct id_cache {
	struct id_name *v;
	size_t n, cap;
};

/* What the filesystem of one mount offers for the fattrs flags (probed once per mount). */
struct fcaps_entry {
	uint64_t mnt_id;
	struct fattrs_fcaps caps;
};

/*
 * What the lookups of one file found (FMT_NEED_*), kept until
 * fmt_file_release().  @owner, @ino and @dev tell whose it is: a caller
 * that forgot fmt_file_release() gets fresh lookups, never another file's.
 */
struct lazy {
	const struct fmt_file *owner;
	const char *name;
	uint64_t ino;
	uint32_t dev_major, dev_minor;
	char *path;		/* the path the xattr calls use (NULL: not made yet) */
	int xerr, ierr;		/* 1: not read yet; 0: read; -errno */
	struct fattrs_kattr kx, ki;	/* the xflags group, the iflags word */
	int ferr;
	struct fattrs_fflags ff;
	int uerr;
	uint64_t unique;
	bool unique_na;
	int merr;
	struct fattrs_mount mnt;
	struct fattrs_fcaps caps;	/* of the mount, when @ferr is 0 */
	char *other;		/* fattrs_other, joined (NULL: not made yet) */
	char detail[128];
};

struct fmt_ctx {
	struct id_cache users, groups;
	int quoting;
	bool follow;
	char *buf;	/* scratch for one value (a link target, a context, a mount point) */
	struct fattrs_mounts *mounts;
	bool mounts_warned;
	struct fcaps_entry *fcaps;
	size_t n_fcaps, cap_fcaps;
	struct lazy lazy;
	struct fattrs_mount mnt;	/* the last mount found: the next file is likely on it */
	bool mnt_valid;
	bool keep_valid;	/* @keep is what mount @keep_id's type keeps (NULL: not measured) */
	uint64_t keep_id;
	const struct fattrs_fskeep *keep;
	struct cli_buf out;	/* fmt_render() and fmt_json(): one file's output */
};

struct fmt_ctx *fmt_ctx_new(void)
{
	struct fmt_ctx *c = calloc(1, sizeof(*c));

	if (c != NULL)
		c->quoting = CLI_QS_LITERAL;
	return c;
}

static void id_cache_free(struct id_cache *c)
{
	for (size_t i = 0; i < c->n; i++)
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
	fattrs_fflags_release(&c->lazy.ff);
	free(c->lazy.path);
	free(c->lazy.other);
	fattrs_mounts_free(c->mounts);
	free(c->fcaps);
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
static const char *id_name(struct id_cache *c, unsigned int id, bool group)
{
	const char *name;
	char *copy;

	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].id == id)
			return c->v[i].name;
	if (group) {
		struct group *g = getgrgid(id);

		name = g != NULL ? g->gr_name : NULL;
	} else {
		struct passwd *p = getpwuid(id);

		name = p != NULL ? p->pw_name : NULL;
	}
	copy = name != NULL ? strdup(name) : NULL;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		struct id_name *v = realloc(c->v, cap * sizeof(*v));

		if (v == NULL)
			return copy;	/* leaks one name rather than fail */
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n++] = (struct id_name){ .id = id, .name = copy };
	return copy;
}

static void set_buf(struct fmt_ctx *c, char *s)
{
	free(c->buf);
	c->buf = s;
}

/* ------------------------------------------------------------ values */

static dev_t stx_dev(const struct fattrs_statx_buf *s)
{
	return makedev(s->stx_dev_major, s->stx_dev_minor);
}

static dev_t stx_rdev(const struct fattrs_statx_buf *s)
{
	return makedev(s->stx_rdev_major, s->stx_rdev_minor);
}

static struct timespec ts(struct fattrs_statx_timestamp t)
{
	return (struct timespec){ .tv_sec = t.tv_sec, .tv_nsec = t.tv_nsec };
}

/* The file type words of gnulib's file_type(). */
static const char *type_word(unsigned int mode, uint64_t size)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return size == 0 ? "regular empty file" : "regular file";
	case S_IFDIR: return "directory";
	case S_IFLNK: return "symbolic link";
	case S_IFBLK: return "block special file";
	case S_IFCHR: return "character special file";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "socket";
	default: return "weird file";
	}
}

/* ls -l's ten characters (gnulib's filemode). */
static void mode_string(unsigned int m, char out[11])
{
	static const char rwx[] = "rwxrwxrwx";
	char t;

	switch (m & S_IFMT) {
	case S_IFREG: t = '-'; break;
	case S_IFDIR: t = 'd'; break;
	case S_IFBLK: t = 'b'; break;
	case S_IFCHR: t = 'c'; break;
	case S_IFLNK: t = 'l'; break;
	case S_IFIFO: t = 'p'; break;
	case S_IFSOCK: t = 's'; break;
	default: t = '?'; break;
	}
	out[0] = t;
	for (int i = 0; i < 9; i++)
		out[1 + i] = (m & (0400u >> i)) ? rwx[i] : '-';
	if (m & S_ISUID)
		out[3] = (m & S_IXUSR) ? 's' : 'S';
	if (m & S_ISGID)
		out[6] = (m & S_IXGRP) ? 's' : 'S';
	if (m & S_ISVTX)
		out[9] = (m & S_IXOTH) ? 't' : 'T';
	out[10] = '\0';
}

/* @v in @n decimal digits, zero-padded, at @p; returns the end. */
static char *put_digits(char *p, unsigned long v, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		p[i] = (char)('0' + v % 10);
		v /= 10;
	}
	return p + n;
}

/*
 * The calendar part of a second ("2024-01-31 12:34:56") and its zone
 * ("+0100"), for the last few seconds asked about: localtime_r() and
 * strftime() once per second value.  glibc reads TZ once per process for
 * localtime_r(), so the second alone is the key.
 */
struct tm_cache {
	time_t sec;
	bool valid, ok;	/* ok: localtime_r() succeeded */
	uint8_t len;
	char text[40];	/* "2024-01-31 12:34:56" */
	char zone[16];	/* " +0100" */
};

static const struct tm_cache *tm_of(time_t sec)
{
	static struct tm_cache cache[4];
	static unsigned int next;
	struct tm_cache *e;
	struct tm tm;

	for (size_t i = 0; i < sizeof(cache) / sizeof(cache[0]); i++)
		if (cache[i].valid && cache[i].sec == sec)
			return &cache[i];
	e = &cache[next];
	next = (next + 1) % (sizeof(cache) / sizeof(cache[0]));
	*e = (struct tm_cache){ .sec = sec, .valid = true };
	if (localtime_r(&sec, &tm) != NULL) {
		long long year = (long long)tm.tm_year + 1900;
		char *p = e->text;

		e->ok = true;
		if (year < 0)
			p += snprintf(p, 24, "-%03lld", -year);
		else if (year > 9999)
			p += snprintf(p, 24, "%04lld", year);
		else
			p = put_digits(p, (unsigned long)year, 4);
		*p++ = '-';
		p = put_digits(p, (unsigned long)tm.tm_mon + 1, 2);
		*p++ = '-';
		p = put_digits(p, (unsigned long)tm.tm_mday, 2);
		*p++ = ' ';
		p = put_digits(p, (unsigned long)tm.tm_hour, 2);
		*p++ = ':';
		p = put_digits(p, (unsigned long)tm.tm_min, 2);
		*p++ = ':';
		p = put_digits(p, (unsigned long)tm.tm_sec, 2);
		e->len = (uint8_t)(p - e->text);
		e->zone[0] = ' ';
		if (strftime(e->zone + 1, sizeof(e->zone) - 1, "%z", &tm) == 0)
			e->zone[1] = '\0';
	}
	return e;
}

/* "2024-01-31 12:34:56.123456789 +0100", or seconds.nanoseconds when the
 * time has no calendar date. */
static const char *human_time(struct timespec t)
{
	static char buf[96];
	const struct tm_cache *e = tm_of(t.tv_sec);
	char *p = buf;

	if (!e->ok || t.tv_nsec < 0 || t.tv_nsec > 999999999) {
		if (e->ok)
			snprintf(buf, sizeof(buf), "%.*s.%09ld%s", (int)e->len, e->text, (long)t.tv_nsec, e->zone);
		else
			snprintf(buf, sizeof(buf), "%jd.%09ld", (intmax_t)t.tv_sec, (long)t.tv_nsec);
		return buf;
	}
	memcpy(p, e->text, e->len);
	p += e->len;
	*p++ = '.';
	p = put_digits(p, (unsigned long)t.tv_nsec, 9);
	strcpy(p, e->zone);
	return buf;
}

/*
 * A value getter returns V_OK, V_ERR (a lookup failed: said on stderr) or
 * V_NA (the kernel did not return it).  V_OK is true and V_ERR false, so
 * that the getters of GNU's letters read as they always did.
 */
enum { V_ERR = 0, V_OK = 1, V_NA = 2 };

#define GET(fn) static int fn(struct fmt_file *f, const struct fmt_directive *d __attribute__((unused)), \
			      union fmt_value *v)

GET(get_name) { v->s = f->name; return true; }
GET(get_mode_octal) { v->u = f->stx->stx_mode & 07777; return true; }
GET(get_mode_human)
{
	static char s[11];

	mode_string(f->stx->stx_mode, s);
	v->s = s;
	return true;
}
GET(get_blocks) { v->u = f->stx->stx_blocks; return true; }
GET(get_block_unit) { (void)f; v->u = 512; return true; }
GET(get_dev) { v->u = stx_dev(f->stx); return true; }
GET(get_dev_major) { v->u = f->stx->stx_dev_major; return true; }
GET(get_dev_minor) { v->u = f->stx->stx_dev_minor; return true; }
GET(get_raw_mode) { v->u = f->stx->stx_mode; return true; }
GET(get_type) { v->s = type_word(f->stx->stx_mode, f->stx->stx_size); return true; }
GET(get_gid) { v->u = f->stx->stx_gid; return true; }
GET(get_group)
{
	const char *n = id_name(&f->ctx->groups, f->stx->stx_gid, true);

	v->s = n != NULL ? n : "UNKNOWN";
	return true;
}
GET(get_nlink) { v->u = f->stx->stx_nlink; return true; }
GET(get_ino) { v->u = f->stx->stx_ino; return true; }
GET(get_blksize) { v->u = f->stx->stx_blksize; return true; }
GET(get_size) { v->i = (intmax_t)f->stx->stx_size; return true; }
GET(get_rdev) { v->u = stx_rdev(f->stx); return true; }
GET(get_rdev_major) { v->u = f->stx->stx_rdev_major; return true; }
GET(get_rdev_minor) { v->u = f->stx->stx_rdev_minor; return true; }
GET(get_uid) { v->u = f->stx->stx_uid; return true; }
GET(get_user)
{
	const char *n = id_name(&f->ctx->users, f->stx->stx_uid, false);

	v->s = n != NULL ? n : "UNKNOWN";
	return true;
}
static bool has_btime(const struct fattrs_statx_buf *s)
{
	return (s->stx_mask & STATX_BTIME) != 0;
}
GET(get_btime_human)
{
	v->s = has_btime(f->stx) ? human_time(ts(f->stx->stx_btime)) : "-";
	return true;
}
GET(get_btime)
{
	v->t = has_btime(f->stx) ? ts(f->stx->stx_btime) : (struct timespec){ 0, 0 };
	return true;
}
GET(get_atime_human) { v->s = human_time(ts(f->stx->stx_atime)); return true; }
GET(get_atime) { v->t = ts(f->stx->stx_atime); return true; }
GET(get_mtime_human) { v->s = human_time(ts(f->stx->stx_mtime)); return true; }
GET(get_mtime) { v->t = ts(f->stx->stx_mtime); return true; }
GET(get_ctime_human) { v->s = human_time(ts(f->stx->stx_ctime)); return true; }
GET(get_ctime) { v->t = ts(f->stx->stx_ctime); return true; }

/* %C: the SELinux context, "?" (and a message) when there is none. */
GET(get_context)
{
	char *buf = NULL;
	ssize_t n = 0;
	size_t size = 256;

	for (;;) {
		char *p = realloc(buf, size + 1);

		if (p == NULL) {
			n = -1;
			errno = ENOMEM;
			break;
		}
		buf = p;
		n = f->ctx->follow ? getxattr(f->name, "security.selinux", buf, size)
				   : lgetxattr(f->name, "security.selinux", buf, size);
		if (n >= 0 || errno != ERANGE)
			break;
		n = f->ctx->follow ? getxattr(f->name, "security.selinux", NULL, 0)
				   : lgetxattr(f->name, "security.selinux", NULL, 0);
		if (n < 0)
			break;
		size = (size_t)n + 1;
	}
	if (n < 0) {
		cli_warn(errno, _("failed to get security context of %s"),
			 cli_quotearg(f->name, CLI_QS_SHELL_ESCAPE_ALWAYS));
		free(buf);
		v->s = "?";
		return false;
	}
	buf[n] = '\0';
	set_buf(f->ctx, buf);
	v->s = buf;
	return true;
}

/* gnulib's dir_name(): FILE without its last component, "." if none. */
static char *dir_name(const char *file)
{
	size_t len = strlen(file), end = len, base;

	while (end > 0 && file[end - 1] == '/')
		end--;
	base = end;
	while (base > 0 && file[base - 1] != '/')
		base--;
	if (end == 0)	/* all slashes: the root */
		return strdup(len > 0 ? "/" : ".");
	while (base > 0 && file[base - 1] == '/')
		base--;
	if (base == 0)
		return strdup(file[0] == '/' ? "/" : ".");
	return strndup(file, base);
}

/*
 * The mount point GNU stat's %m shows: from the file's directory (the file
 * itself for a directory) up through ".." while the device stays the
 * same.  Moves through the tree with chdir(2) as gnulib's
 * find_mount_point() does (so the same permissions apply), and comes back.
 */
static char *find_mount_point(const char *file, unsigned int mode)
{
	struct stat last, st;
	char *mp = NULL;
	int cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (cwd < 0) {
		cli_warn(errno, _("cannot get current directory"));
		return NULL;
	}
	if (S_ISDIR(mode)) {
		if (chdir(file) < 0) {
			cli_warn(errno, _("cannot change to directory %s"),
				 cli_quotearg(file, CLI_QS_SHELL_ESCAPE_ALWAYS));
			close(cwd);
			return NULL;
		}
		if (stat(".", &last) < 0) {
			cli_warn(errno, _("cannot stat current directory (now %s)"),
				 cli_quotearg(file, CLI_QS_SHELL_ESCAPE_ALWAYS));
			goto done;
		}
	} else {
		char *dir = dir_name(file);

		if (dir == NULL)
			goto done;
		if (chdir(dir) < 0) {
			cli_warn(errno, _("cannot change to directory %s"),
				 cli_quotearg(dir, CLI_QS_SHELL_ESCAPE_ALWAYS));
			free(dir);
			close(cwd);
			return NULL;
		}
		if (stat(".", &last) < 0) {
			cli_warn(errno, _("cannot stat current directory (now %s)"),
				 cli_quotearg(dir, CLI_QS_SHELL_ESCAPE_ALWAYS));
			free(dir);
			goto done;
		}
		free(dir);
	}
	for (;;) {
		if (stat("..", &st) < 0) {
			cli_warn(errno, _("cannot stat %s"), cli_quotearg("..", CLI_QS_SHELL_ESCAPE_ALWAYS));
			goto done;
		}
		if (st.st_dev != last.st_dev || st.st_ino == last.st_ino)
			break;
		if (chdir("..") < 0) {
			cli_warn(errno, _("cannot change to directory %s"),
				 cli_quotearg("..", CLI_QS_SHELL_ESCAPE_ALWAYS));
			goto done;
		}
		last = st;
	}
	mp = getcwd(NULL, 0);
done:
	if (fchdir(cwd) < 0)
		cli_die(CLI_EXIT_FAILURE, errno, _("failed to return to initial working directory"));
	close(cwd);
	return mp;
}

GET(get_mount_point)
{
	unsigned int mode = f->stx->stx_mode;
	char *mp;

	if (f->ctx->follow || !S_ISLNK(mode)) {
		char *resolved = realpath(f->name, NULL);

		if (resolved == NULL) {
			cli_warn(errno, _("failed to canonicalize %s"),
				 cli_quotearg(f->name, CLI_QS_SHELL_ESCAPE_ALWAYS));
			v->s = "?";
			return false;
		}
		free(resolved);
	}
	mp = find_mount_point(f->name, mode);
	if (mp == NULL) {
		v->s = "?";
		return false;
	}
	set_buf(f->ctx, mp);
	v->s = mp;
	return true;
}

/* ---- file systems (-f) ---- */

GET(get_fs_avail) { v->i = (intmax_t)f->sfs->f_bavail; return true; }
GET(get_fs_blocks) { v->i = (intmax_t)f->sfs->f_blocks; return true; }
GET(get_fs_files) { v->u = f->sfs->f_files; return true; }
GET(get_fs_ffree) { v->i = (intmax_t)f->sfs->f_ffree; return true; }
GET(get_fs_bfree) { v->i = (intmax_t)f->sfs->f_bfree; return true; }
GET(get_fs_id)
{
	const unsigned int *w = (const unsigned int *)&f->sfs->f_fsid;

	v->u = ((uintmax_t)w[0] << 32) | w[1];
	return true;
}
GET(get_fs_namelen) { v->u = (uintmax_t)f->sfs->f_namelen; return true; }
GET(get_fs_bsize) { v->u = (uintmax_t)f->sfs->f_bsize; return true; }
GET(get_fs_frsize)
{
	v->u = (uintmax_t)(f->sfs->f_frsize != 0 ? f->sfs->f_frsize : f->sfs->f_bsize);
	return true;
}
GET(get_fs_type) { v->u = (uintmax_t)(unsigned long)f->sfs->f_type; return true; }

/* The names GNU stat 9.1 gives file system magic numbers. */
static const struct {
	unsigned long magic;
	const char *name;
} fs_names[] = {
	{ 0x5A3C69F0, "aafs" }, { 0x61636673, "acfs" }, { 0xADF5, "adfs" },
	{ 0xADFF, "affs" }, { 0x5346414F, "afs" }, { 0x09041934, "anon-inode FS" },
	{ 0x61756673, "aufs" }, { 0x0187, "autofs" }, { 0x13661366, "balloon-kvm-fs" },
	{ 0x42465331, "befs" }, { 0x62646576, "bdevfs" }, { 0x1BADFACE, "bfs" },
	{ 0x6C6F6F70, "binderfs" }, { 0xCAFE4A11, "bpf_fs" }, { 0x42494E4D, "binfmt_misc" },
	{ 0x9123683E, "btrfs" }, { 0x73727279, "btrfs_test" }, { 0x00C36400, "ceph" },
	{ 0x0027E0EB, "cgroupfs" }, { 0x63677270, "cgroup2fs" }, { 0xFF534D42, "cifs" },
	{ 0x73757245, "coda" }, { 0x012FF7B7, "coh" }, { 0x62656570, "configfs" },
	{ 0x28CD3D45, "cramfs" }, { 0x453DCD28, "cramfs-wend" }, { 0x64646178, "daxfs" },
	{ 0x64626720, "debugfs" }, { 0x1373, "devfs" }, { 0x454D444D, "devmem" },
	{ 0x1CD1, "devpts" }, { 0x444D4142, "dma-buf-fs" }, { 0xF15F, "ecryptfs" },
	{ 0xDE5E81E4, "efivarfs" }, { 0x00414A53, "efs" }, { 0xE0F5E1E2, "erofs" },
	{ 0x2011BAB0, "exfat" }, { 0x5DF5, "exofs" }, { 0x137D, "ext" },
	{ 0xEF53, "ext2/ext3" }, { 0xEF51, "ext2" }, { 0xF2F52010, "f2fs" },
	{ 0x4006, "fat" }, { 0x19830326, "fhgfs" }, { 0x65735546, "fuseblk" },
	{ 0x65735543, "fusectl" }, { 0x0BAD1DEA, "futexfs" }, { 0x01161970, "gfs/gfs2" },
	{ 0x47504653, "gpfs" }, { 0x4244, "hfs" }, { 0x482B, "hfs+" }, { 0x4858, "hfsx" },
	{ 0x00C0FFEE, "hostfs" }, { 0xF995E849, "hpfs" }, { 0x958458F6, "hugetlbfs" },
	{ 0x11307854, "inodefs" }, { 0x013111A8, "ibrix" }, { 0x2BAD1DEA, "inotifyfs" },
	{ 0x9660, "isofs" }, { 0x4004, "isofs" }, { 0x4000, "isofs" }, { 0x07C0, "jffs" },
	{ 0x72B6, "jffs2" }, { 0x3153464A, "jfs" }, { 0x6B414653, "k-afs" },
	{ 0xC97E8168, "logfs" }, { 0x0BD00BD0, "lustre" }, { 0x5346314D, "m1fs" },
	{ 0x137F, "minix" }, { 0x138F, "minix (30 char.)" }, { 0x2468, "minix v2" },
	{ 0x2478, "minix v2 (30 char.)" }, { 0x4D5A, "minix3" }, { 0x19800202, "mqueue" },
	{ 0x4D44, "msdos" }, { 0x564C, "novell" }, { 0x6969, "nfs" }, { 0x6E667364, "nfsd" },
	{ 0x3434, "nilfs" }, { 0x6E736673, "nsfs" }, { 0x5346544E, "ntfs" },
	{ 0x9FA1, "openprom" }, { 0x7461636F, "ocfs2" }, { 0x794C7630, "overlayfs" },
	{ 0xAAD7AAEA, "panfs" }, { 0x50495045, "pipefs" }, { 0xC7571590, "ppc-cmm-fs" },
	{ 0x7C7C6673, "prl_fs" }, { 0x9FA0, "proc" }, { 0x6165676C, "pstorefs" },
	{ 0x002F, "qnx4" }, { 0x68191122, "qnx6" }, { 0x858458F6, "ramfs" },
	{ 0x07655821, "rdt" }, { 0x52654973, "reiserfs" }, { 0x7275, "romfs" },
	{ 0x67596969, "rpc_pipefs" }, { 0x5DCA2DF5, "sdcardfs" }, { 0x5345434D, "secretmem" },
	{ 0x73636673, "securityfs" }, { 0xF97CFF8C, "selinux" }, { 0x43415D53, "smackfs" },
	{ 0x517B, "smb" }, { 0xFE534D42, "smb2" }, { 0xBEEFDEAD, "snfs" },
	{ 0x534F434B, "sockfs" }, { 0x73717368, "squashfs" }, { 0x62656572, "sysfs" },
	{ 0x012FF7B6, "sysv2" }, { 0x012FF7B5, "sysv4" }, { 0x01021994, "tmpfs" },
	{ 0x74726163, "tracefs" }, { 0x24051905, "ubifs" }, { 0x15013346, "udf" },
	{ 0x00011954, "ufs" }, { 0x54190100, "ufs" }, { 0x9FA2, "usbdevfs" },
	{ 0x01021997, "v9fs" }, { 0x786F4256, "vboxsf" }, { 0xBACBACBC, "vmhgfs" },
	{ 0xA501FCF5, "vxfs" }, { 0x565A4653, "vzfs" }, { 0x53464846, "wslfs" },
	{ 0xABBA1974, "xenfs" }, { 0x012FF7B4, "xenix" }, { 0x58465342, "xfs" },
	{ 0x012FD16D, "xia" }, { 0x0033, "z3fold" }, { 0x2FC12FC1, "zfs" },
	{ 0x5A4F4653, "zonefs" }, { 0x58295829, "zsmallocfs" },
};

GET(get_fs_type_name)
{
	static char unknown[40];
	unsigned long t = (unsigned long)f->sfs->f_type;

	for (size_t i = 0; i < sizeof(fs_names) / sizeof(fs_names[0]); i++) {
		if (fs_names[i].magic == t) {
			v->s = fs_names[i].name;
			return true;
		}
	}
	snprintf(unknown, sizeof(unknown), "UNKNOWN (0x%lx)", t);
	v->s = unknown;
	return true;
}

/* ------------------------------------------------------------ named fields */

/* The per-file lookups of @f, fresh when @f is another file than last time. */
static struct lazy *lazy_of(struct fmt_file *f)
{
	struct lazy *l = &f->ctx->lazy;

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
	struct lazy *l = &f->ctx->lazy;

	fattrs_fflags_release(&l->ff);
	free(l->path);
	free(l->other);
	*l = (struct lazy){ .xerr = 1, .ierr = 1, .ferr = 1, .uerr = 1, .merr = 1 };
}

/* The file's name for messages. */
static const char *qname(const struct fmt_file *f)
{
	return cli_quotearg(f->name, CLI_QS_SHELL_ESCAPE_ALWAYS);
}

static bool nofollow(const struct fmt_file *f)
{
	return (f->at_flags & AT_SYMLINK_NOFOLLOW) != 0;
}

/* The dirfd, path and flags of the file for the *at() lookups. */
static void at_args(const struct fmt_file *f, int *dirfd, const char **path, unsigned *flags)
{
	*dirfd = f->path != NULL ? f->dirfd : AT_FDCWD;
	*path = f->path != NULL ? f->path : f->name;
	*flags = (unsigned)f->at_flags & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH);
}

/* A path naming the file for the calls that take no directory (xattrs): NULL when out of memory. */
static const char *plain_path(struct fmt_file *f, struct lazy *l)
{
	if (f->path == NULL || f->dirfd == AT_FDCWD || (f->path[0] == '/'))
		return f->path != NULL ? f->path : f->name;
	if (l->path == NULL) {
		int r = f->path[0] == '\0' ? asprintf(&l->path, "/proc/self/fd/%d", f->dirfd)
					   : asprintf(&l->path, "/proc/self/fd/%d/%s", f->dirfd, f->path);

		if (r < 0) {
			l->path = NULL;
			return NULL;
		}
	}
	return l->path;
}

/* ---- statx fields ---- */

static bool has(const struct fmt_file *f, unsigned int bit)
{
	return (f->stx->stx_mask & bit) == bit;
}

/* A number of the statx buffer, with the STATX_* bits it needs in the row's @statx_mask. */
#define GET_U(fn, expr) \
	GET(fn) \
	{ \
		if (!has(f, d->statx_mask)) \
			return V_NA; \
		v->u = (expr); \
		return V_OK; \
	}

GET_U(get_f_mode, f->stx->stx_mode)
GET_U(get_f_nlink, f->stx->stx_nlink)
GET_U(get_f_uid, f->stx->stx_uid)
GET_U(get_f_gid, f->stx->stx_gid)
GET_U(get_f_ino, f->stx->stx_ino)
GET_U(get_f_size, f->stx->stx_size)
GET_U(get_f_blocks, f->stx->stx_blocks)
GET_U(get_f_blksize, f->stx->stx_blksize)
GET_U(get_f_dev, stx_dev(f->stx))
GET_U(get_f_dev_major, f->stx->stx_dev_major)
GET_U(get_f_dev_minor, f->stx->stx_dev_minor)
GET_U(get_f_rdev, stx_rdev(f->stx))
GET_U(get_f_rdev_major, f->stx->stx_rdev_major)
GET_U(get_f_rdev_minor, f->stx->stx_rdev_minor)
GET_U(get_f_mnt_id, f->stx->stx_mnt_id)
GET_U(get_f_dio_mem_align, f->stx->stx_dio_mem_align)
GET_U(get_f_dio_offset_align, f->stx->stx_dio_offset_align)
GET_U(get_f_dio_read_offset_align, f->stx->stx_dio_read_offset_align)
GET_U(get_f_subvol, f->stx->stx_subvol)
GET_U(get_f_aw_min, f->stx->stx_atomic_write_unit_min)
GET_U(get_f_aw_max, f->stx->stx_atomic_write_unit_max)
GET_U(get_f_aw_max_opt, f->stx->stx_atomic_write_unit_max_opt)
GET_U(get_f_aw_segments, f->stx->stx_atomic_write_segments_max)
GET_U(get_f_attributes, f->stx->stx_attributes)
GET_U(get_f_attributes_mask, f->stx->stx_attributes_mask)

GET(get_f_type)
{
	if (!has(f, STATX_TYPE))
		return V_NA;
	return get_type(f, d, v);
}

GET(get_f_mode_string)
{
	if (!has(f, STATX_TYPE | STATX_MODE))
		return V_NA;
	return get_mode_human(f, d, v);
}

GET(get_f_user)
{
	if (!has(f, STATX_UID))
		return V_NA;
	return get_user(f, d, v);
}

GET(get_f_group)
{
	if (!has(f, STATX_GID))
		return V_NA;
	return get_group(f, d, v);
}

#define GET_T(fn, field) \
	GET(fn) \
	{ \
		if (!has(f, d->statx_mask)) \
			return V_NA; \
		v->t = ts(f->stx->field); \
		return V_OK; \
	}

GET_T(get_f_atime, stx_atime)
GET_T(get_f_mtime, stx_mtime)
GET_T(get_f_ctime, stx_ctime)
GET_T(get_f_btime, stx_btime)

/* The unique mount id: a statx(2) of its own (asking for both ids returns only this one). */
GET(get_f_mnt_id_unique)
{
	struct lazy *l = lazy_of(f);

	if (l->uerr == 1) {
		struct fattrs_statx_buf stx;
		const char *path;
		unsigned flags;
		int dirfd;

		at_args(f, &dirfd, &path, &flags);
		l->uerr = fattrs_statx(dirfd, path, (f->at_flags & ~AT_STATX_SYNC_TYPE) | AT_STATX_DONT_SYNC,
				       STATX_MNT_ID_UNIQUE, &stx);
		if (l->uerr == 0) {
			l->unique = stx.stx_mnt_id;
			l->unique_na = !(stx.stx_mask & STATX_MNT_ID_UNIQUE);
		} else {
			cli_warn(-l->uerr, _("cannot statx %s"), qname(f));
		}
	}
	if (l->uerr < 0)
		return V_ERR;
	if (l->unique_na)
		return V_NA;
	v->u = l->unique;
	return V_OK;
}

/* ---- mount table (libmount, parsed lazily once per run) ---- */

enum mount_part { M_TARGET, M_FSTYPE, M_SOURCE, M_OPTIONS, M_ROOT };

static const uint8_t mount_parts[] = { M_TARGET, M_FSTYPE, M_SOURCE, M_OPTIONS, M_ROOT };

/*
 * The file's mount, from the table by its mount id (once per file):
 * 0, -ENOENT when the table has no such mount, or another -errno (the
 * table could not be read: said once per run).
 */
static int mount_of(struct fmt_file *f, struct lazy *l)
{
	struct fmt_ctx *c = f->ctx;

	if (l->merr == 1 && c->mnt_valid && c->mnt.id == f->stx->stx_mnt_id) {
		/* the strings live as long as the table: the same mount as the last file's */
		l->mnt = c->mnt;
		l->merr = 0;
	}
	if (l->merr == 1) {
		if (c->mounts == NULL && (c->mounts = fattrs_mounts_new()) == NULL)
			l->merr = -ENOMEM;
		else
			l->merr = fattrs_mounts_find(c->mounts, f->stx->stx_mnt_id, &l->mnt);
		if (l->merr == 0) {
			c->mnt = l->mnt;
			c->mnt_valid = true;
		}
		if (l->merr < 0 && l->merr != -ENOENT && !c->mounts_warned) {
			/* The table, not the file: once per run. */
			cli_warn(-l->merr, _("cannot read the mount table"));
			c->mounts_warned = true;
		}
	}
	return l->merr;
}

GET(get_f_mount)
{
	struct lazy *l = lazy_of(f);
	const char *s = NULL;

	if (!has(f, STATX_MNT_ID))
		return V_NA;
	mount_of(f, l);
	if (l->merr == -ENOENT)
		return V_NA;	/* a mount of another namespace, or gone */
	if (l->merr < 0)
		return V_ERR;
	switch (*(const uint8_t *)d->arg) {
	case M_TARGET: s = l->mnt.target; break;
	case M_FSTYPE: s = l->mnt.fstype; break;
	case M_SOURCE: s = l->mnt.source; break;
	case M_OPTIONS: s = l->mnt.options; break;
	case M_ROOT: s = l->mnt.root; break;
	}
	if (s == NULL)
		return V_NA;
	v->s = s;
	return V_OK;
}

/* ---- attribute flags ---- */

/*
 * The words of the flags' states: the getters hand out these very
 * pointers, so that fmt_field_state() knows a state without comparing
 * strings.
 */
static const char *const state_words[] = {
	[FMT_ST_SET] = FMT_STATE_SET,
	[FMT_ST_CLEAR] = FMT_STATE_CLEAR,
	[FMT_ST_UNSUPPORTED] = FMT_STATE_UNSUPPORTED,
	[FMT_ST_INVALID] = FMT_STATE_INVALID,
};

/* The flag words an FS_XFLAG_* bit of file_getattr(2) mirrors (the kernel translates them). */
#define XFLAGS_SHARED (FS_XFLAG_SYNC | FS_XFLAG_IMMUTABLE | FS_XFLAG_APPEND | FS_XFLAG_NODUMP | \
		       FS_XFLAG_NOATIME | FS_XFLAG_DAX | FS_XFLAG_PROJINHERIT)

/* How a kernel flag is read. */
enum kread { K_STATX, K_XFLAGS, K_IFLAGS };

static enum kread kflag_read(const struct fattrs_kflag *k)
{
	/*
	 * statx(2) reports a few flags, with stx_attributes_mask saying
	 * whether the filesystem has them at all: no other call.  Its DAX bit
	 * is the state in effect, not the flag that asks for it.
	 */
	if (k->statx_attr != 0 && k->statx_attr != STATX_ATTR_DAX)
		return K_STATX;
	/* verity and casefold have xflags only in kernels newer than 6.18. */
	if (k->xflag != 0 && (k->iflag == 0 || (k->xflag & XFLAGS_SHARED)))
		return K_XFLAGS;
	return K_IFLAGS;
}

/* Read the xflags group (@want FATTRS_KATTR_XFLAGS) or the iflags word, once per file. */
static int kattr(struct fmt_file *f, unsigned want, const struct fattrs_kattr **ret)
{
	struct lazy *l = lazy_of(f);
	int *err = want == FATTRS_KATTR_XFLAGS ? &l->xerr : &l->ierr;
	struct fattrs_kattr *a = want == FATTRS_KATTR_XFLAGS ? &l->kx : &l->ki;

	if (*err == 1) {
		const char *path;
		unsigned flags;
		int dirfd;

		at_args(f, &dirfd, &path, &flags);
		*err = fattrs_kattr_get(dirfd, path, flags, has(f, STATX_TYPE) ? f->stx->stx_mode : 0,
					want, a);
		if (*err < 0 && *err != -EOPNOTSUPP)
			cli_warn(-*err, want == FATTRS_KATTR_XFLAGS ? _("cannot file_getattr %s")
								     : _("cannot read the flags of %s"),
				 qname(f));
	}
	*ret = a;
	return *err;
}

/*
 * Does @f's file system keep flag @k?  No system call says: a flag it
 * ignores reads clear.  The answer is the table of what each type keeps
 * (libfattrs: fattrs_fskeep_find(), measured on 6.18), by the type of
 * @f's mount, which the mount table has (read once; the view reads it
 * anyway).  A type, a file type or a flag not measured (xfs's realtime,
 * an overlay, FUSE, a mount the table lacks): true, taken at its word.
 */
static bool fs_keeps(struct fmt_file *f, const struct fattrs_kflag *k)
{
	struct fmt_ctx *c = f->ctx;

	if (!has(f, STATX_MNT_ID) || !has(f, STATX_TYPE))
		return true;
	/* once per mount: the next file is likely on the last one */
	if (!c->keep_valid || c->keep_id != f->stx->stx_mnt_id) {
		struct lazy *l = lazy_of(f);

		c->keep = mount_of(f, l) == 0 ? fattrs_fskeep_find(l->mnt.fstype) : NULL;
		c->keep_id = f->stx->stx_mnt_id;
		c->keep_valid = true;
	}
	return c->keep == NULL || fattrs_fskeep_test(c->keep, f->stx->stx_mode, k) != 0;
}

GET(get_f_kflag)
{
	const struct fattrs_kflag *k = d->arg;
	const struct fattrs_kattr *a;
	enum kread how = kflag_read(k);
	int r;

	if (how == K_STATX) {
		if (!(f->stx->stx_attributes_mask & k->statx_attr))
			v->s = state_words[FMT_ST_UNSUPPORTED];
		else
			v->s = (f->stx->stx_attributes & k->statx_attr) ? state_words[FMT_ST_SET] : state_words[FMT_ST_CLEAR];
		return V_OK;
	}
	r = kattr(f, how == K_XFLAGS ? FATTRS_KATTR_XFLAGS : FATTRS_KATTR_IFLAGS, &a);
	if (r == -EOPNOTSUPP) {
		v->s = state_words[FMT_ST_UNSUPPORTED];
		return V_OK;
	}
	if (r < 0) {
		v->s = "?";
		return V_ERR;
	}
	r = fattrs_kattr_test(a, k);
	if (r == 0 && !fs_keeps(f, k))
		r = -EOPNOTSUPP;
	v->s = r < 0 ? state_words[FMT_ST_UNSUPPORTED] : r ? state_words[FMT_ST_SET] : state_words[FMT_ST_CLEAR];
	return V_OK;
}

GET(get_f_projid)
{
	const struct fattrs_kattr *a;
	int r = kattr(f, FATTRS_KATTR_XFLAGS, &a);

	if (r == -EOPNOTSUPP)
		return V_NA;
	if (r < 0)
		return V_ERR;
	v->u = a->projid;
	return V_OK;
}

/* A statx-only attribute flag (@d->arg: its STATX_ATTR_* bit). */
GET(get_f_sattr)
{
	uint64_t bit = *(const uint64_t *)d->arg;

	if (!(f->stx->stx_attributes_mask & bit))
		v->s = state_words[FMT_ST_UNSUPPORTED];
	else
		v->s = (f->stx->stx_attributes & bit) ? state_words[FMT_ST_SET] : state_words[FMT_ST_CLEAR];
	return V_OK;
}

/* What the filesystem of @f's mount offers for the fattrs flags: probed once per mount. */
static int fcaps(struct fmt_file *f, const char *path, struct fattrs_fcaps *ret)
{
	struct fmt_ctx *c = f->ctx;
	uint64_t id = f->stx->stx_mnt_id;
	bool cache = has(f, STATX_MNT_ID);
	int r;

	if (cache) {
		for (size_t i = 0; i < c->n_fcaps; i++) {
			if (c->fcaps[i].mnt_id == id) {
				*ret = c->fcaps[i].caps;
				return 0;
			}
		}
	}
	r = fattrs_fcaps_probe(path, nofollow(f), ret);
	if (r < 0 || !cache)
		return r;
	if (c->n_fcaps == c->cap_fcaps) {
		size_t cap = c->cap_fcaps ? 2 * c->cap_fcaps : 4;
		struct fcaps_entry *e = realloc(c->fcaps, cap * sizeof(*e));

		if (e == NULL)
			return 0;	/* probed again next time */
		c->fcaps = e;
		c->cap_fcaps = cap;
	}
	c->fcaps[c->n_fcaps++] = (struct fcaps_entry){ .mnt_id = id, .caps = *ret };
	return 0;
}

static int fflags(struct fmt_file *f, const struct fattrs_fflags **ret)
{
	struct lazy *l = lazy_of(f);

	if (l->ferr == 1) {
		const char *path = plain_path(f, l);
		struct fattrs_fcaps caps;

		if (path == NULL) {
			l->ferr = -ENOMEM;
		} else {
			l->ferr = fcaps(f, path, &caps);
			l->caps = caps;
			if (l->ferr == 0)
				l->ferr = fattrs_fflags_get(path, nofollow(f),
							    has(f, STATX_TYPE) ? f->stx->stx_mode : 0,
							    &caps, f->stx, &l->ff);
		}
		if (l->ferr < 0)
			cli_warn(-l->ferr, _("cannot llistxattr %s"), qname(f));
		for (size_t i = 0; l->ferr == 0 && i < FATTRS_NFFLAGS; i++) {
			/* fattrs(7): never guessed, warned about once per file */
			char *q;

			if (l->ff.invalid[i] == NULL)
				continue;
			q = cli_quotearg_alloc(l->ff.invalid[i], l->ff.invalid_len[i], CLI_QS_SHELL_ESCAPE_ALWAYS);
			cli_warn(0, _("warning: %s: %s holds %s, neither 1 nor 0: the flag reads as invalid"),
				 qname(f), fattrs_fflag_info((enum fattrs_fflag)i)->xattr, q != NULL ? q : "?");
			free(q);
		}
	}
	*ret = &l->ff;
	return l->ferr;
}

static const enum fmt_state fstates[] = {
	[FATTRS_FCLEAR] = FMT_ST_CLEAR,
	[FATTRS_FSET] = FMT_ST_SET,
	[FATTRS_FINVALID] = FMT_ST_INVALID,
	[FATTRS_FUNSUPPORTED] = FMT_ST_UNSUPPORTED,
};

GET(get_f_fflag)
{
	enum fattrs_fflag flag = *(const enum fattrs_fflag *)d->arg;
	const struct fattrs_fflags *ff;

	if (fflags(f, &ff) < 0) {
		v->s = "?";
		return V_ERR;
	}
	v->s = state_words[fstates[ff->state[flag]]];
	return V_OK;
}

/* The other names under user.fattr., as they are, joined by ",". */
GET(get_f_fattrs_other)
{
	struct lazy *l = lazy_of(f);
	const struct fattrs_fflags *ff;
	size_t len = 1;
	char *p;

	if (fflags(f, &ff) < 0) {
		v->s = "?";
		return V_ERR;
	}
	if (l->other == NULL) {
		for (size_t i = 0; i < ff->n_unknown; i++)
			len += strlen(ff->unknown[i]) + 1;
		l->other = p = malloc(len);
		if (p == NULL) {
			cli_warn(ENOMEM, _("cannot llistxattr %s"), qname(f));
			v->s = "?";
			return V_ERR;
		}
		*p = '\0';
		for (size_t i = 0; i < ff->n_unknown; i++)
			p += sprintf(p, "%s%s", i > 0 ? "," : "", ff->unknown[i]);
	}
	v->s = l->other;
	return V_OK;
}

static const enum fattrs_fflag fflag_ids[FATTRS_NFFLAGS] = {
	FATTRS_OFFLINE, FATTRS_PINNED, FATTRS_INTEGRITY, FATTRS_NOSCRUB,
};

static const uint64_t sattr_automount = STATX_ATTR_AUTOMOUNT;
static const uint64_t sattr_mount_root = STATX_ATTR_MOUNT_ROOT;
static const uint64_t sattr_atomic = STATX_ATTR_WRITE_ATOMIC;
static const uint64_t sattr_dax = STATX_ATTR_DAX;

#define N(name, group, help, mask, needs, out, get, flags, arg) \
	{ 0, 0, FMT_FILE, name, help, mask, needs, out, get, group, flags, arg }
#define MNT(name, help, part) \
	N(name, "mount", help, STATX_MNT_ID, FMT_NEED_MOUNT_TABLE, FMT_OUT_STRING, get_f_mount, 0, \
	  &mount_parts[part])

/* The named fields before the flags, in display order, grouped. */
static const struct fmt_directive fields_head[] = {
	N("name", "file", "file name, as given", 0, 0, FMT_OUT_STRING, get_name, 0, NULL),
	N("type", "file", "file type, as %F", STATX_TYPE | STATX_SIZE, 0, FMT_OUT_STRING, get_f_type, 0, NULL),
	N("mode", "file", "file type and permission bits (st_mode), in octal", STATX_TYPE | STATX_MODE, 0,
	  FMT_OUT_OCTAL, get_f_mode, 0, NULL),
	N("mode_string", "file", "file type and permission bits in human readable form, as %A",
	  STATX_TYPE | STATX_MODE, 0, FMT_OUT_STRING, get_f_mode_string, 0, NULL),
	N("nlink", "file", "number of hard links", STATX_NLINK, 0, FMT_OUT_UINT, get_f_nlink, 0, NULL),
	N("uid", "file", "user ID of owner", STATX_UID, 0, FMT_OUT_UINT, get_f_uid, 0, NULL),
	N("user", "file", "user name of owner (UNKNOWN if none)", STATX_UID, FMT_NEED_USER, FMT_OUT_STRING,
	  get_f_user, 0, NULL),
	N("gid", "file", "group ID of owner", STATX_GID, 0, FMT_OUT_UINT, get_f_gid, 0, NULL),
	N("group", "file", "group name of owner (UNKNOWN if none)", STATX_GID, FMT_NEED_GROUP, FMT_OUT_STRING,
	  get_f_group, 0, NULL),
	N("ino", "file", "inode number", STATX_INO, 0, FMT_OUT_UINT, get_f_ino, FMT_F_ID, NULL),
	N("size", "file", "total size, in bytes", STATX_SIZE, 0, FMT_OUT_UINT, get_f_size, 0, NULL),
	N("blocks", "file", "number of 512-byte blocks allocated", STATX_BLOCKS, 0, FMT_OUT_UINT,
	  get_f_blocks, 0, NULL),
	N("blksize", "file", "optimal I/O transfer size hint", 0, 0, FMT_OUT_UINT, get_f_blksize, 0, NULL),
	N("dev", "file", "device number of the file system (st_dev), in decimal", 0, 0, FMT_OUT_UINT,
	  get_f_dev, FMT_F_ID, NULL),
	N("dev_major", "file", "major device number of the file system", 0, 0, FMT_OUT_UINT,
	  get_f_dev_major, 0, NULL),
	N("dev_minor", "file", "minor device number of the file system", 0, 0, FMT_OUT_UINT,
	  get_f_dev_minor, 0, NULL),
	N("rdev", "file", "device type of a device special file (st_rdev), in decimal", 0, 0, FMT_OUT_UINT,
	  get_f_rdev, FMT_F_ID, NULL),
	N("rdev_major", "file", "major device type of a device special file", 0, 0, FMT_OUT_UINT,
	  get_f_rdev_major, 0, NULL),
	N("rdev_minor", "file", "minor device type of a device special file", 0, 0, FMT_OUT_UINT,
	  get_f_rdev_minor, 0, NULL),

	N("atime", "time", "time of last access, seconds since the Epoch", STATX_ATIME, 0, FMT_OUT_EPOCH,
	  get_f_atime, 0, NULL),
	N("mtime", "time", "time of last data modification, seconds since the Epoch", STATX_MTIME, 0,
	  FMT_OUT_EPOCH, get_f_mtime, 0, NULL),
	N("ctime", "time", "time of last status change, seconds since the Epoch", STATX_CTIME, 0,
	  FMT_OUT_EPOCH, get_f_ctime, 0, NULL),
	N("btime", "time", "time of file birth, seconds since the Epoch", STATX_BTIME, 0, FMT_OUT_EPOCH,
	  get_f_btime, 0, NULL),

	N("mnt_id", "mount", "mount id (as in /proc/self/mountinfo)", STATX_MNT_ID, 0, FMT_OUT_UINT,
	  get_f_mnt_id, FMT_F_ID, NULL),
	N("mnt_id_unique", "mount", "unique mount id, never reused (one more statx call)", 0,
	  FMT_NEED_MNT_UNIQUE, FMT_OUT_UINT, get_f_mnt_id_unique, FMT_F_ID | FMT_F_ALL, NULL),
	MNT("mount_point", "mount point of the file's mount (exact, from its mount id)", M_TARGET),
	MNT("fstype", "file system type of the mount", M_FSTYPE),
	MNT("source", "source of the mount (device, or what was mounted)", M_SOURCE),
	MNT("mount_options", "per-mount options (rw, nosuid, relatime, ...)", M_OPTIONS),
	MNT("fsroot", "directory of the file system mounted there (a bind mount's source)", M_ROOT),

	N("dio_mem_align", "dio", "direct I/O memory buffer alignment, in bytes", STATX_DIOALIGN, 0,
	  FMT_OUT_UINT, get_f_dio_mem_align, 0, NULL),
	N("dio_offset_align", "dio", "direct I/O file offset and length alignment, in bytes", STATX_DIOALIGN, 0,
	  FMT_OUT_UINT, get_f_dio_offset_align, 0, NULL),
	N("dio_read_offset_align", "dio", "direct I/O read offset and length alignment, in bytes",
	  STATX_DIO_READ_ALIGN, 0, FMT_OUT_UINT, get_f_dio_read_offset_align, 0, NULL),

	N("subvol", "subvol", "subvolume id", STATX_SUBVOL, 0, FMT_OUT_UINT, get_f_subvol, FMT_F_ID, NULL),

	N("atomic_write_unit_min", "atomic", "smallest atomic write, in bytes (0: no atomic writes)",
	  STATX_WRITE_ATOMIC, 0, FMT_OUT_UINT, get_f_aw_min, 0, NULL),
	N("atomic_write_unit_max", "atomic", "largest atomic write, in bytes", STATX_WRITE_ATOMIC, 0,
	  FMT_OUT_UINT, get_f_aw_max, 0, NULL),
	N("atomic_write_unit_max_opt", "atomic",
	  "largest atomic write that is not slower, in bytes (0: no such limit)", STATX_WRITE_ATOMIC, 0,
	  FMT_OUT_UINT, get_f_aw_max_opt, 0, NULL),
	N("atomic_write_segments_max", "atomic", "most iovec segments of an atomic write",
	  STATX_WRITE_ATOMIC, 0, FMT_OUT_UINT, get_f_aw_segments, 0, NULL),

	N("attributes", "attributes", "statx attribute flags (stx_attributes), in hex", 0, 0, FMT_OUT_HEX,
	  get_f_attributes, 0, NULL),
	N("attributes_mask", "attributes",
	  "statx attribute flags the file system supports (stx_attributes_mask), in hex", 0, 0, FMT_OUT_HEX,
	  get_f_attributes_mask, 0, NULL),
	N("automount", "attributes", "the directory is an automount trigger", 0, 0, FMT_OUT_STATE,
	  get_f_sattr, 0, &sattr_automount),
	N("mount_root", "attributes", "the file is the root of a mount", 0, 0, FMT_OUT_STATE, get_f_sattr, 0,
	  &sattr_mount_root),
	N("atomic_write", "attributes", "the file supports atomic writes", 0, 0, FMT_OUT_STATE, get_f_sattr, 0,
	  &sattr_atomic),
	N("dax_active", "attributes", "the file is accessed directly (DAX) now", 0, 0, FMT_OUT_STATE,
	  get_f_sattr, 0, &sattr_dax),
};

static const struct fmt_directive field_projid =
	N("projid", "kflags", "project id (file_getattr)", STATX_TYPE, FMT_NEED_KFLAGS, FMT_OUT_UINT,
	  get_f_projid, 0, NULL);

static const struct fmt_directive field_fattrs_other =
	N("fattrs_other", "fattrs", "other names under user.fattr., as they are, joined by commas",
	  STATX_TYPE | STATX_MNT_ID, FMT_NEED_FFLAGS, FMT_OUT_LIST, get_f_fattrs_other, 0, NULL);

#undef N
#undef MNT

/* Every named field: fields_head, a row per kernel flag, projid, a row per fattrs flag. */
static struct fmt_directive fields[sizeof(fields_head) / sizeof(fields_head[0]) + FATTRS_KFLAGS_MAX + 1 +
				   FATTRS_NFFLAGS];
static size_t n_fields;
/*
 * Per field, its JSON key made once (',"name":', and ',"name_str":' for
 * FMT_F_ID), for cli_json_key_raw(); length 0: the name needs an escape
 * (or is too long), and cli_json_key() writes it.
 */
struct json_key {
	uint8_t len, str_len;
	char text[72], str[72];
};
static struct json_key json_keys[sizeof(fields) / sizeof(fields[0])];

static void keys_init(void)
{
	for (size_t i = 0; i < n_fields; i++) {
		struct json_key *k = &json_keys[i];

		if (!cli_json_plain(fields[i].name) || strlen(fields[i].name) > 60)
			continue;
		k->len = (uint8_t)snprintf(k->text, sizeof(k->text), ",\"%s\":", fields[i].name);
		k->str_len = (uint8_t)snprintf(k->str, sizeof(k->str), ",\"%s_str\":", fields[i].name);
	}
}

static void fields_init(void)
{
	const struct fattrs_kflag *k;
	size_t nk;

	if (n_fields != 0)
		return;
	for (size_t i = 0; i < sizeof(fields_head) / sizeof(fields_head[0]); i++)
		fields[n_fields++] = fields_head[i];
	k = fattrs_kflags_table(&nk);
	for (size_t i = 0; i < nk && i < FATTRS_KFLAGS_MAX; i++) {
		enum kread how = kflag_read(&k[i]);
		/* Only the flags only xfs keeps, and those that cost an open and an ioctl, are -a's. */
		bool all = how == K_IFLAGS || (k[i].iflag == 0 && k[i].statx_attr == 0);

		fields[n_fields++] = (struct fmt_directive){
			.mode = FMT_FILE,
			.name = k[i].name,
			.help = k[i].description,
			.statx_mask = how == K_STATX ? 0 : STATX_TYPE | STATX_MNT_ID,
			.needs = how == K_STATX ? 0 : (how == K_XFLAGS ? FMT_NEED_KFLAGS : FMT_NEED_IFLAGS) |
				 FMT_NEED_MOUNT_TABLE,
			.out = FMT_OUT_STATE,
			.get = get_f_kflag,
			.group = "kflags",
			.flags = all ? FMT_F_ALL : 0,
			.arg = &k[i],
		};
	}
	fields[n_fields++] = field_projid;
	for (size_t i = 0; i <= FATTRS_NFFLAGS; i++) {
		if (i == FATTRS_NFFLAGS) {
			fields[n_fields++] = field_fattrs_other;
			break;
		}
		const struct fattrs_fflag_info *fi = fattrs_fflag_info(fflag_ids[i]);

		fields[n_fields++] = (struct fmt_directive){
			.mode = FMT_FILE,
			.name = fi->name,
			.help = fi->description,
			.statx_mask = STATX_TYPE | STATX_MNT_ID,
			.needs = FMT_NEED_FFLAGS,
			.out = FMT_OUT_STATE,
			.get = get_f_fflag,
			.group = "fattrs",
			.arg = &fflag_ids[i],
		};
	}
	keys_init();
}

const struct fmt_directive *fmt_field_next(size_t *pos)
{
	fields_init();
	if (*pos >= n_fields)
		return NULL;
	return &fields[(*pos)++];
}

const struct fmt_directive *fmt_field_find(const char *name)
{
	fields_init();
	for (size_t i = 0; i < n_fields; i++)
		if (strcmp(fields[i].name, name) == 0)
			return &fields[i];
	return NULL;
}

unsigned int fmt_field_statx_mask(const struct fmt_directive *d)
{
	unsigned int m = d->statx_mask;

	/* ext4, xfs, btrfs and tmpfs return neither time unless asked for one of them. */
	if (m & (STATX_MTIME | STATX_CTIME))
		m |= STATX_MTIME | STATX_CTIME;
	/*
	 * STATX_ATTR_WRITE_ATOMIC is in stx_attributes(_mask) only when
	 * STATX_WRITE_ATOMIC was asked for (ext4: 0x703874, else 0x303874):
	 * asked, not required (tmpfs returns no STATX_WRITE_ATOMIC).
	 */
	if (strcmp(d->group, "attributes") == 0)
		m |= STATX_WRITE_ATOMIC;
	return m;
}

unsigned int fmt_json_statx_mask(bool all)
{
	unsigned int m = 0;

	fields_init();
	for (size_t i = 0; i < n_fields; i++)
		if (all || !(fields[i].flags & FMT_F_ALL))
			m |= fmt_field_statx_mask(&fields[i]);
	return m;
}

void fmt_help_fields(FILE *out)
{
	const char *group = NULL;

	fields_init();
	for (size_t i = 0; i < n_fields; i++) {
		const struct fmt_directive *d = &fields[i];
		char name[64];

		if (group != NULL && strcmp(group, d->group) != 0)
			fputc('\n', out);
		group = d->group;
		snprintf(name, sizeof(name), "%%{%s}", d->name);
		fprintf(out, "  %-28s %s%s\n", name, d->help, (d->flags & FMT_F_ALL) ? " (-a)" : "");
	}
}

/* ------------------------------------------------------------ the table */

#define D(l, m, mode, help, mask, needs, out, get) \
	{ l, m, mode, NULL, help, mask, needs, out, get, NULL, 0, NULL }
#define F FMT_FILE
#define S FMT_FS

const struct fmt_directive fmt_directives[] = {
	D('a', 0, F, "permission bits in octal (note '#' and '0' printf flags)", STATX_MODE, 0, FMT_OUT_OCTAL, get_mode_octal),
	D('A', 0, F, "permission bits and file type in human readable form", STATX_TYPE | STATX_MODE, 0, FMT_OUT_STRING, get_mode_human),
	D('b', 0, F, "number of blocks allocated (see %B)", STATX_BLOCKS, 0, FMT_OUT_UINT, get_blocks),
	D('B', 0, F, "the size in bytes of each block reported by %b", 0, 0, FMT_OUT_UINT, get_block_unit),
	D('C', 0, F, "SELinux security context string", 0, FMT_NEED_SELINUX, FMT_OUT_STRING_RAW, get_context),
	D('d', 0, F, "device number in decimal (st_dev)", 0, 0, FMT_OUT_UINT, get_dev),
	D('D', 0, F, "device number in hex (st_dev)", 0, 0, FMT_OUT_HEX, get_dev),
	D('d', 'H', F, "major device number in decimal", 0, 0, FMT_OUT_UINT, get_dev_major),
	D('d', 'L', F, "minor device number in decimal", 0, 0, FMT_OUT_UINT, get_dev_minor),
	D('f', 0, F, "raw mode in hex", STATX_TYPE | STATX_MODE, 0, FMT_OUT_HEX, get_raw_mode),
	D('F', 0, F, "file type", STATX_TYPE | STATX_SIZE, 0, FMT_OUT_STRING, get_type),
	D('g', 0, F, "group ID of owner", STATX_GID, 0, FMT_OUT_UINT, get_gid),
	D('G', 0, F, "group name of owner", STATX_GID, FMT_NEED_GROUP, FMT_OUT_STRING, get_group),
	D('h', 0, F, "number of hard links", STATX_NLINK, 0, FMT_OUT_UINT, get_nlink),
	D('i', 0, F, "inode number", STATX_INO, 0, FMT_OUT_UINT, get_ino),
	D('m', 0, F, "mount point", STATX_TYPE, FMT_NEED_MOUNT_POINT, FMT_OUT_STRING, get_mount_point),
	D('n', 0, F, "file name", 0, 0, FMT_OUT_STRING, get_name),
	D('N', 0, F, "quoted file name with dereference if symbolic link", STATX_TYPE | STATX_SIZE, FMT_NEED_READLINK, FMT_OUT_QUOTED, get_name),
	D('o', 0, F, "optimal I/O transfer size hint", 0, 0, FMT_OUT_UINT, get_blksize),
	D('s', 0, F, "total size, in bytes", STATX_SIZE, 0, FMT_OUT_INT, get_size),
	D('r', 0, F, "device type in decimal (st_rdev)", 0, 0, FMT_OUT_UINT, get_rdev),
	D('R', 0, F, "device type in hex (st_rdev)", 0, 0, FMT_OUT_HEX, get_rdev),
	D('r', 'H', F, "major device type in decimal, for character/block device special files", 0, 0, FMT_OUT_UINT, get_rdev_major),
	D('r', 'L', F, "minor device type in decimal, for character/block device special files", 0, 0, FMT_OUT_UINT, get_rdev_minor),
	D('t', 0, F, "major device type in hex, for character/block device special files", 0, 0, FMT_OUT_HEX, get_rdev_major),
	D('T', 0, F, "minor device type in hex, for character/block device special files", 0, 0, FMT_OUT_HEX, get_rdev_minor),
	D('u', 0, F, "user ID of owner", STATX_UID, 0, FMT_OUT_UINT, get_uid),
	D('U', 0, F, "user name of owner", STATX_UID, FMT_NEED_USER, FMT_OUT_STRING, get_user),
	D('w', 0, F, "time of file birth, human-readable; - if unknown", STATX_BTIME, 0, FMT_OUT_STRING, get_btime_human),
	D('W', 0, F, "time of file birth, seconds since Epoch; 0 if unknown", STATX_BTIME, 0, FMT_OUT_EPOCH, get_btime),
	D('x', 0, F, "time of last access, human-readable", STATX_ATIME, 0, FMT_OUT_STRING, get_atime_human),
	D('X', 0, F, "time of last access, seconds since Epoch", STATX_ATIME, 0, FMT_OUT_EPOCH, get_atime),
	D('y', 0, F, "time of last data modification, human-readable", STATX_MTIME, 0, FMT_OUT_STRING, get_mtime_human),
	D('Y', 0, F, "time of last data modification, seconds since Epoch", STATX_MTIME, 0, FMT_OUT_EPOCH, get_mtime),
	D('z', 0, F, "time of last status change, human-readable", STATX_CTIME, 0, FMT_OUT_STRING, get_ctime_human),
	D('Z', 0, F, "time of last status change, seconds since Epoch", STATX_CTIME, 0, FMT_OUT_EPOCH, get_ctime),

	D('a', 0, S, "free blocks available to non-superuser", 0, FMT_NEED_STATFS, FMT_OUT_INT, get_fs_avail),
	D('b', 0, S, "total data blocks in file system", 0, FMT_NEED_STATFS, FMT_OUT_INT, get_fs_blocks),
	D('c', 0, S, "total file nodes in file system", 0, FMT_NEED_STATFS, FMT_OUT_UINT, get_fs_files),
	D('d', 0, S, "free file nodes in file system", 0, FMT_NEED_STATFS, FMT_OUT_INT, get_fs_ffree),
	D('f', 0, S, "free blocks in file system", 0, FMT_NEED_STATFS, FMT_OUT_INT, get_fs_bfree),
	D('i', 0, S, "file system ID in hex", 0, FMT_NEED_STATFS, FMT_OUT_HEX, get_fs_id),
	D('l', 0, S, "maximum length of filenames", 0, FMT_NEED_STATFS, FMT_OUT_UINT, get_fs_namelen),
	D('n', 0, S, "file name", 0, 0, FMT_OUT_STRING, get_name),
	D('s', 0, S, "block size (for faster transfers)", 0, FMT_NEED_STATFS, FMT_OUT_UINT, get_fs_bsize),
	D('S', 0, S, "fundamental block size (for block counts)", 0, FMT_NEED_STATFS, FMT_OUT_UINT, get_fs_frsize),
	D('t', 0, S, "file system type in hex", 0, FMT_NEED_STATFS, FMT_OUT_HEX, get_fs_type),
	D('T', 0, S, "file system type in human readable form", 0, FMT_NEED_STATFS, FMT_OUT_STRING, get_fs_type_name),
};

#undef D
#undef F
#undef S

const size_t fmt_directives_count = sizeof(fmt_directives) / sizeof(fmt_directives[0]);

const char *fmt_directive_spelling(const struct fmt_directive *d, char buf[8])
{
	if (d->mod != 0)
		snprintf(buf, 8, "%%%c%c", d->mod, d->letter);
	else
		snprintf(buf, 8, "%%%c", d->letter);
	return buf;
}

void fmt_help(FILE *out, enum fmt_mode mode)
{
	for (size_t i = 0; i < fmt_directives_count; i++) {
		const struct fmt_directive *d = &fmt_directives[i];
		char sp[8];

		if (d->mode == mode)
			fprintf(out, "  %-4s %s\n", fmt_directive_spelling(d, sp), d->help);
	}
}

/* The named field @name (@len bytes) of @mode, for "%{name}". */
static const struct fmt_directive *lookup_name(enum fmt_mode mode, const char *name, size_t len)
{
	size_t pos = 0;
	const struct fmt_directive *d;

	while ((d = fmt_field_next(&pos)) != NULL)
		if (d->mode == mode && strlen(d->name) == len && memcmp(d->name, name, len) == 0)
			return d;
	return NULL;
}

static const struct fmt_directive *lookup(enum fmt_mode mode, char mod, char letter)
{
	for (size_t i = 0; i < fmt_directives_count; i++) {
		const struct fmt_directive *d = &fmt_directives[i];

		if (d->mode == mode && d->mod == mod && d->letter == letter)
			return d;
	}
	return NULL;
}

/* ------------------------------------------------------------ parsing */

/*
 * A printf spec ("%-10ju") as the renderer reads it: what it can print
 * without printf (@fast), else printf prints it.
 */
struct spec {
	size_t width;
	bool left;	/* '-' */
	bool zero;	/* '0' (ignored with '-') */
	bool fast;	/* no other flag, no precision but on a string, the expected conversion */
	long prec;	/* -1: none */
};

/* Read @spec, which should end in the conversion @conv ("s", "ju", ...). */
static struct spec spec_read(const char *spec, const char *conv)
{
	struct spec sp = { .fast = true, .prec = -1 };
	const char *p = spec + 1;

	for (;; p++) {
		if (*p == '-')
			sp.left = true;
		else if (*p == '0')
			sp.zero = true;
		else if (*p != '\0' && strchr("'+ #I", *p) != NULL)
			sp.fast = false;
		else
			break;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		sp.width = sp.width * 10 + (size_t)(*p - '0');
		if (sp.width > 65536)
			sp.fast = false;	/* printf's business, and its limits */
	}
	if (*p == '.') {
		sp.prec = 0;
		for (p++; *p >= '0' && *p <= '9'; p++) {
			sp.prec = sp.prec * 10 + (*p - '0');
			if (sp.prec > 65536)
				sp.fast = false;
		}
	}
	if (strcmp(p, conv) != 0 || (sp.prec >= 0 && strcmp(conv, "s") != 0) ||
	    (sp.zero && strcmp(conv, "s") == 0))
		sp.fast = false;
	return sp;
}

enum piece_kind {
	P_TEXT,		/* literal bytes */
	P_DIRECTIVE,
	P_UNKNOWN,	/* "?" */
	P_INVALID,	/* ends the run: "'%5%': invalid directive" */
	P_WARN,		/* a warning on stderr (escapes), then nothing */
};

struct piece {
	enum piece_kind kind;
	size_t off, len;	/* P_TEXT: bytes in fmt->text; P_INVALID, P_WARN: the message */
	const struct fmt_directive *d;
	char *spec;		/* P_DIRECTIVE: the printf format for its value */
	char *spec2;		/* %N: the printf format for a symlink's target;
				 * a named field: the format of FMT_NOT_AVAILABLE */
	char *raw;		/* P_DIRECTIVE: "%" flags width precision as written */
	struct spec sp, sp2;	/* @spec and @spec2, read once */
};

struct fmt {
	enum fmt_mode mode;
	char *text;		/* literal bytes, escapes decoded */
	size_t text_len, text_cap;
	struct piece *p;
	size_t n, cap;
	unsigned int mask, needs;
	bool oom;
};

static struct piece *add_piece(struct fmt *f, enum piece_kind kind)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct piece *p = realloc(f->p, cap * sizeof(*p));

		if (p == NULL) {
			f->oom = true;
			return NULL;
		}
		f->p = p;
		f->cap = cap;
	}
	f->p[f->n] = (struct piece){ .kind = kind };
	return &f->p[f->n++];
}

static size_t add_bytes(struct fmt *f, const char *s, size_t n)
{
	size_t off = f->text_len;

	if (f->text_len + n + 1 > f->text_cap) {
		size_t cap = f->text_cap ? f->text_cap : 64;
		char *t;

		while (f->text_len + n + 1 > cap)
			cap *= 2;
		t = realloc(f->text, cap);
		if (t == NULL) {
			f->oom = true;
			return 0;
		}
		f->text = t;
		f->text_cap = cap;
	}
	memcpy(f->text + f->text_len, s, n);
	f->text_len += n;
	f->text[f->text_len] = '\0';
	return off;
}

/* Literal bytes, merged into the previous text piece when there is one. */
static void add_text(struct fmt *f, const char *s, size_t n)
{
	size_t off = add_bytes(f, s, n);
	struct piece *last = f->n > 0 ? &f->p[f->n - 1] : NULL;

	if (f->oom)
		return;
	if (last != NULL && last->kind == P_TEXT && last->off + last->len == off) {
		last->len += n;
		return;
	}
	last = add_piece(f, P_TEXT);
	if (last != NULL) {
		last->off = off;
		last->len = n;
	}
}

/* A message piece; its text is stored NUL-terminated. */
static void add_message(struct fmt *f, enum piece_kind kind, const char *msg)
{
	size_t off = add_bytes(f, msg, strlen(msg) + 1);
	struct piece *p;

	if (f->oom)
		return;
	f->text_len = off + strlen(msg) + 1;
	p = add_piece(f, kind);
	if (p != NULL) {
		p->off = off;
		p->len = strlen(msg);
	}
}

/*
 * GNU stat's make_format(), in place on @buf (which holds @len bytes of
 * "%" flags width precision, and room for @suffix): drop the flags @allowed
 * does not list, append @suffix.  In place because GNU's %N applies it
 * twice to the same buffer for a symlink's target, and the second pass
 * reads what the first left (the target's spec can differ: stat 9.1 prints
 * "%012N" of a symlink's target with a stray "s").
 */
static void make_format(char *buf, size_t len, const char *allowed, const char *suffix)
{
	static const char flags[] = "'-+ #0I";
	char *dst = buf + 1;
	const char *src = dst, *lim = buf + len;

	/* strchr() finds a NUL byte in any string: GNU keeps one, as a flag. */
	for (; src < lim && strchr(flags, *src) != NULL; src++)
		if (strchr(allowed, *src) != NULL)
			*dst++ = *src;
	while (src < lim)
		*dst++ = *src++;
	strcpy(dst, suffix);
}

/* make_format() on a copy of @raw's @len bytes. */
static char *make_spec(const char *raw, size_t len, const char *allowed, const char *suffix)
{
	char *s = malloc(len + strlen(suffix) + 1);

	if (s == NULL)
		return NULL;
	memcpy(s, raw, len);
	make_format(s, len, allowed, suffix);
	return s;
}

/* %N's spec for a symlink's target: make_format() run twice on one buffer. */
static char *make_spec_twice(const char *raw, size_t len)
{
	char *s = malloc(len + 8);

	if (s == NULL)
		return NULL;
	memcpy(s, raw, len);
	make_format(s, len, "-", "s");
	make_format(s, len, "-", "s");
	return s;
}

static bool is_odigit(char c)
{
	return c >= '0' && c <= '7';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One backslash escape of --printf at @s (after the '\'); returns its length. */
static size_t parse_escape(struct fmt *f, const char *s)
{
	char c;

	if (is_odigit(s[0])) {
		int v = 0;
		size_t n = 0;

		while (n < 3 && is_odigit(s[n]))
			v = v * 8 + (s[n++] - '0');
		c = (char)v;
		add_text(f, &c, 1);
		return n;
	}
	if (s[0] == 'x' && hexval(s[1]) >= 0) {
		int v = hexval(s[1]);
		size_t n = 2;

		if (hexval(s[2]) >= 0)
			v = v * 16 + hexval(s[n++]);
		c = (char)v;
		add_text(f, &c, 1);
		return n;
	}
	if (s[0] == '\0') {
		add_message(f, P_WARN, _("warning: backslash at end of format"));
		add_text(f, "\\", 1);
		return 0;
	}
	switch (s[0]) {
	case 'a': c = '\a'; break;
	case 'b': c = '\b'; break;
	case 'e': c = '\x1b'; break;
	case 'f': c = '\f'; break;
	case 'n': c = '\n'; break;
	case 'r': c = '\r'; break;
	case 't': c = '\t'; break;
	case 'v': c = '\v'; break;
	case '"':
	case '\\':
		c = s[0];
		break;
	default: {
		char msg[64];

		snprintf(msg, sizeof(msg), _("warning: unrecognized escape '\\%c'"), s[0]);
		add_message(f, P_WARN, msg);
		c = s[0];
		break;
	}
	}
	add_text(f, &c, 1);
	return 1;
}

static void add_directive(struct fmt *f, const char *raw, size_t len, const struct fmt_directive *d)
{
	struct piece *p = add_piece(f, P_DIRECTIVE);
	const char *allowed = "", *suffix = "s";

	if (p == NULL)
		return;
	p->d = d;
	switch (d->out) {
	case FMT_OUT_STRING:
	case FMT_OUT_QUOTED:
	case FMT_OUT_STATE:
	case FMT_OUT_LIST:
		allowed = "-";
		break;
	case FMT_OUT_STRING_RAW:
		allowed = "'-+ #0I";
		break;
	case FMT_OUT_INT:
		allowed = "'-+ 0";
		suffix = "jd";
		break;
	case FMT_OUT_UINT:
		allowed = "'-0";
		suffix = "ju";
		break;
	case FMT_OUT_OCTAL:
		allowed = "-#0";
		suffix = "jo";
		break;
	case FMT_OUT_HEX:
		allowed = "-#0";
		suffix = "jx";
		break;
	case FMT_OUT_EPOCH:
		break;
	}
	p->raw = strndup(raw, len);
	p->spec = make_spec(raw, len, allowed, suffix);
	if (d->out == FMT_OUT_QUOTED && (p->spec2 = make_spec_twice(raw, len)) == NULL)
		f->oom = true;
	if (d->name != NULL && (p->spec2 = make_spec(raw, len, "-", "s")) == NULL)
		f->oom = true;
	if (p->raw == NULL || p->spec == NULL)
		f->oom = true;
	if (p->spec != NULL)
		p->sp = spec_read(p->spec, suffix);
	if (p->spec2 != NULL)
		p->sp2 = spec_read(p->spec2, "s");
	f->mask |= d->name != NULL ? fmt_field_statx_mask(d) : d->statx_mask;
	f->needs |= d->needs;
}

/* The length of "%" flags width precision at @s (GNU's format_code_offset). */
static size_t code_len(const char *s)
{
	size_t n = 1 + strspn(s + 1, "'-+ #0I");

	n += strspn(s + n, "0123456789");
	if (s[n] == '.')
		n += 1 + strspn(s + n + 1, "0123456789");
	return n;
}

struct fmt *fmt_parse(const char *text, enum fmt_mode mode, unsigned int flags)
{
	struct fmt *f = calloc(1, sizeof(*f));

	if (f == NULL)
		return NULL;
	f->mode = mode;
	for (const char *s = text; *s != '\0' && !f->oom; s++) {
		if (*s == '\\' && (flags & FMT_ESCAPES)) {
			s += parse_escape(f, s + 1);
			continue;
		}
		if (*s != '%') {
			size_t n = strcspn(s, (flags & FMT_ESCAPES) ? "%\\" : "%");

			add_text(f, s, n);
			s += n - 1;
			continue;
		}
		size_t len = code_len(s);
		char c = s[len];
		char mod = 0;
		const struct fmt_directive *d;

		if (c == '\0' || c == '%') {
			if (len > 1) {
				char *msg = strndup(s, len + 1);

				if (msg == NULL) {
					f->oom = true;
					break;
				}
				add_message(f, P_INVALID, msg);
				free(msg);
				break;	/* nothing after it is ever printed */
			}
			add_text(f, "%", 1);
			if (c == '\0')
				break;
			s += len;
			continue;
		}
		if ((c == 'H' || c == 'L') && mode == FMT_FILE && (s[len + 1] == 'd' || s[len + 1] == 'r')) {
			mod = c;
			c = s[len + 1];
		}
		if (c == '{') {
			/*
			 * "%{name}": a named directive of the table, with the
			 * flags, width and precision before the brace.  A name
			 * the table lacks is GNU's unknown "%{": "?", and the
			 * rest printed as text.
			 */
			const char *end = strchr(s + len + 1, '}');

			d = end != NULL ? lookup_name(mode, s + len + 1, (size_t)(end - (s + len + 1))) : NULL;
			if (d != NULL) {
				add_directive(f, s, len, d);
				s = end;
				continue;
			}
		}
		d = lookup(mode, mod, c);
		if (d != NULL)
			add_directive(f, s, len, d);
		else
			add_piece(f, P_UNKNOWN);
		s += len + (mod != 0);
	}
	if (f->oom)
		return fmt_free(f);
	return f;
}

struct fmt *fmt_free(struct fmt *f)
{
	if (f == NULL)
		return NULL;
	for (size_t i = 0; i < f->n; i++) {
		free(f->p[i].spec);
		free(f->p[i].spec2);
		free(f->p[i].raw);
	}
	free(f->p);
	free(f->text);
	free(f);
	return NULL;
}

const char *fmt_invalid(const struct fmt *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->p[i].kind == P_INVALID)
			return f->text + f->p[i].off;
	return NULL;
}

unsigned int fmt_statx_mask(const struct fmt *f)
{
	return f->mask;
}

unsigned int fmt_needs(const struct fmt *f)
{
	return f->needs;
}

/* ------------------------------------------------------------ rendering */

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* @n bytes of @s (after @sign, when not 0) padded to @sp's width. */
static void out_padded(struct cli_buf *b, const struct spec *sp, char sign, const char *s, size_t n)
{
	size_t total = n + (sign != 0);
	size_t pad = sp->width > total ? sp->width - total : 0;

	if (pad > 0 && !sp->left && !sp->zero)
		cli_buf_pad(b, ' ', pad);
	if (sign != 0)
		cli_buf_addc(b, sign);
	if (pad > 0 && !sp->left && sp->zero)
		cli_buf_pad(b, '0', pad);
	cli_buf_add(b, s, n);
	if (pad > 0 && sp->left)
		cli_buf_pad(b, ' ', pad);
}

/* @s as printf's @spec prints it. */
static void out_str(struct cli_buf *b, const struct spec *sp, const char *spec, const char *s)
{
	if (!sp->fast) {
		cli_buf_printf(b, spec, s);
		return;
	}
	if (sp->width == 0 && sp->prec < 0)
		cli_buf_adds(b, s);
	else
		out_padded(b, sp, 0, s, sp->prec < 0 ? strlen(s) : strnlen(s, (size_t)sp->prec));
}

static void out_uint(struct cli_buf *b, const struct spec *sp, const char *spec, uintmax_t v, unsigned base)
{
	char num[CLI_UINT_DIGITS];
	size_t n;

	if (!sp->fast) {
		cli_buf_printf(b, spec, v);
		return;
	}
	n = cli_fmt_uint(num + sizeof(num), v, base);
	out_padded(b, sp, 0, num + sizeof(num) - n, n);
}

static void out_int(struct cli_buf *b, const struct spec *sp, const char *spec, intmax_t v)
{
	char num[CLI_UINT_DIGITS];
	size_t n;

	if (!sp->fast) {
		cli_buf_printf(b, spec, v);
		return;
	}
	n = cli_fmt_uint(num + sizeof(num), v < 0 ? -(uintmax_t)v : (uintmax_t)v, 10);
	out_padded(b, sp, v < 0 ? '-' : 0, num + sizeof(num) - n, n);
}

/* printf's "%.0f" of -0.25 with the int flags of @raw: "-0" as wide as asked. */
static int out_minus_zero(struct cli_buf *b, const char *raw, size_t len)
{
	char *spec = make_spec(raw, len, "'-+ 0", ".0f");
	int n;

	if (spec == NULL)
		return -1;
	n = cli_buf_printf(b, spec, -0.25);
	free(spec);
	return n;
}

/*
 * Seconds since the Epoch with GNU stat's precision rules: ".N" prints N
 * digits of fraction (a bare "." means 9, more than 9 pads with zeros),
 * and a width covers the whole number, fraction included.
 */
static void out_epoch(struct cli_buf *b, const char *raw, struct timespec t)
{
	size_t len = strlen(raw);
	char *pf;
	const char *dot;
	size_t sec_len = len;
	int width = 0, precision = 0;
	bool frac_left = false;
	const char *dp;
	int dp_len;

	if (len == 1) {
		/* "%X": the seconds alone */
		cli_buf_add_int(b, (intmax_t)t.tv_sec);
		return;
	}
	pf = malloc(len + 32);
	if (pf == NULL)
		return;
	dp = localeconv()->decimal_point;
	dp_len = (int)strlen(dp);
	memcpy(pf, raw, len + 1);
	dot = memchr(pf, '.', len);
	if (dot != NULL) {
		char *d = pf + (dot - pf);

		sec_len = (size_t)(d - pf);
		if (d[1] >= '0' && d[1] <= '9') {
			long l = strtol(d + 1, NULL, 10);

			precision = l <= INT_MAX ? (int)l : INT_MAX;
		} else {
			precision = 9;
		}
		if (precision != 0 && d[-1] >= '0' && d[-1] <= '9') {
			char *p = d;
			long l;

			*d = '\0';
			do
				--p;
			while (p[-1] >= '0' && p[-1] <= '9');
			l = strtol(p, NULL, 10);
			width = l <= INT_MAX ? (int)l : INT_MAX;
			if (width > 1) {
				int w_d;

				p += (*p == '0');
				sec_len = (size_t)(p - pf);
				w_d = dp_len < width ? width - dp_len : 0;
				if (w_d > 1) {
					int w = w_d - precision;

					if (w > 1) {
						char *dst = pf;

						for (const char *src = pf; src < p; src++) {
							if (*src == '-')
								frac_left = true;
							else
								*dst++ = *src;
						}
						sec_len = (size_t)(dst - pf) +
							  (frac_left ? 0 : (size_t)sprintf(dst, "%d", w));
					}
				}
			}
		}
	}

	int divisor = 1;

	for (int i = precision; i < 9; i++)
		divisor *= 10;

	int frac = (int)(t.tv_nsec / divisor);
	int int_len;
	bool minus_zero = false;

	if (t.tv_sec < 0 && t.tv_nsec != 0) {
		int modulus = 1000000000 / divisor;

		frac = modulus - frac - (t.tv_nsec % divisor != 0);
		t.tv_sec += (frac != 0);
		minus_zero = t.tv_sec == 0;
	}
	if (minus_zero) {
		int_len = out_minus_zero(b, pf, sec_len);
	} else {
		char *spec = make_spec(pf, sec_len, "'-+ 0", "jd");

		int_len = -1;
		if (spec != NULL) {
			struct spec sp = spec_read(spec, "jd");
			size_t before = b->len;

			out_int(b, &sp, spec, (intmax_t)t.tv_sec);
			int_len = (int)(b->len - before);
		}
		free(spec);
	}
	if (precision != 0) {
		int prec = precision < 9 ? precision : 9;
		int trailing_prec = precision - prec;
		int ilen = int_len < 0 ? 0 : int_len;
		int trailing_width = ilen < width && dp_len < width - ilen
				     ? width - ilen - dp_len - prec : 0;

		cli_buf_printf(b, "%s%.*d%-*.*d", dp, prec, frac, trailing_width, trailing_prec, 0);
	}
	free(pf);
}

static bool render_directive(const struct piece *p, struct fmt_file *file, struct cli_buf *b)
{
	const struct fmt_directive *d = p->d;
	union fmt_value v;
	int r = d->get(file, d, &v);
	bool ok = r != V_ERR;

	if (r == V_NA || (r == V_ERR && d->name != NULL && d->out != FMT_OUT_STATE)) {
		/* Named fields only: "-" for what the kernel did not return, "?" for a failed lookup. */
		out_str(b, &p->sp2, p->spec2, r == V_NA ? FMT_NOT_AVAILABLE : "?");
		return ok;
	}
	switch (d->out) {
	case FMT_OUT_STRING:
	case FMT_OUT_STRING_RAW:
	case FMT_OUT_STATE:
	case FMT_OUT_LIST:
		out_str(b, &p->sp, p->spec, v.s);
		break;
	case FMT_OUT_QUOTED: {
		const struct fattrs_statx_buf *stx = file->stx;

		out_str(b, &p->sp, p->spec, cli_quotearg(v.s, (enum cli_quoting_style)file->ctx->quoting));
		if (S_ISLNK(stx->stx_mode)) {
			size_t size = stx->stx_size > 0 && stx->stx_size < 4096 ? stx->stx_size + 1 : 256;
			char *buf = NULL;
			ssize_t n;

			for (;;) {
				char *nb = realloc(buf, size);

				if (nb == NULL) {
					n = -1;
					errno = ENOMEM;
					break;
				}
				buf = nb;
				n = readlink(v.s, buf, size);
				if (n < 0 || (size_t)n < size)
					break;
				size *= 2;
			}
			if (n < 0) {
				cli_warn(errno, _("cannot read symbolic link %s"),
					 cli_quotearg(v.s, CLI_QS_SHELL_ESCAPE_ALWAYS));
				free(buf);
				return false;
			}
			buf[n] = '\0';
			cli_buf_add(b, " -> ", 4);
			out_str(b, &p->sp2, p->spec2, cli_quotearg(buf, (enum cli_quoting_style)file->ctx->quoting));
			free(buf);
		}
		break;
	}
	case FMT_OUT_INT:
		out_int(b, &p->sp, p->spec, v.i);
		break;
	case FMT_OUT_UINT:
		out_uint(b, &p->sp, p->spec, v.u, 10);
		break;
	case FMT_OUT_OCTAL:
		out_uint(b, &p->sp, p->spec, v.u, 8);
		break;
	case FMT_OUT_HEX:
		out_uint(b, &p->sp, p->spec, v.u, 16);
		break;
	case FMT_OUT_EPOCH:
		out_epoch(b, p->raw, v.t);
		break;
	}
	return ok;
}

#pragma GCC diagnostic pop

bool fmt_render_buf(const struct fmt *fmt, struct fmt_file *file, struct cli_buf *b, FILE *out)
{
	bool ok = true;

	for (size_t i = 0; i < fmt->n; i++) {
		const struct piece *p = &fmt->p[i];

		switch (p->kind) {
		case P_TEXT:
			cli_buf_add(b, fmt->text + p->off, p->len);
			break;
		case P_DIRECTIVE:
			ok &= render_directive(p, file, b);
			break;
		case P_UNKNOWN:
			cli_buf_addc(b, '?');
			break;
		case P_WARN:
			cli_warn(0, "%s", fmt->text + p->off);
			break;
		case P_INVALID:
			/* what came before it is printed, as GNU stat prints it */
			cli_buf_write(b, out);
			cli_die(CLI_EXIT_FAILURE, 0, _("%s: invalid directive"),
				cli_quotearg(fmt->text + p->off, CLI_QS_LOCALE));
		}
	}
	return ok;
}

bool fmt_render(const struct fmt *fmt, struct fmt_file *file, FILE *out, const char *trailer)
{
	struct cli_buf *b = &file->ctx->out;
	bool ok;

	cli_buf_pending(b, out);	/* a message comes after what precedes it, as GNU stat's */
	ok = fmt_render_buf(fmt, file, b, out);

	cli_buf_adds(b, trailer);
	cli_buf_write(b, out);
	return ok;
}

/* ------------------------------------------------------------ one field, and JSON */

enum fmt_field_status fmt_field_put(const struct fmt_directive *d, struct fmt_file *f, struct cli_buf *b,
				    unsigned int flags)
{
	union fmt_value v;
	int r = d->get(f, d, &v);

	if (r == V_NA)
		return FMT_FIELD_NA;
	if (r == V_ERR) {
		cli_buf_addc(b, '?');
		return FMT_FIELD_ERROR;
	}
	switch (d->out) {
	case FMT_OUT_STRING:
	case FMT_OUT_LIST:
		cli_buf_adds(b, (flags & FMT_PRINT_QUOTE) ? cli_quotearg(v.s, CLI_QS_SHELL_ESCAPE) : v.s);
		break;
	case FMT_OUT_STRING_RAW:
	case FMT_OUT_STATE:
	case FMT_OUT_QUOTED:
		cli_buf_adds(b, v.s);
		break;
	case FMT_OUT_INT:
		cli_buf_add_int(b, v.i);
		break;
	case FMT_OUT_UINT:
		cli_buf_add_uint(b, v.u, 10);
		break;
	case FMT_OUT_OCTAL:
		/* "%#jo" */
		if ((flags & FMT_PRINT_HUMAN) && v.u != 0)
			cli_buf_addc(b, '0');
		cli_buf_add_uint(b, v.u, 8);
		break;
	case FMT_OUT_HEX:
		/* "%#jx" */
		if ((flags & FMT_PRINT_HUMAN) && v.u != 0)
			cli_buf_add(b, "0x", 2);
		cli_buf_add_uint(b, v.u, 16);
		break;
	case FMT_OUT_EPOCH:
		if (flags & FMT_PRINT_HUMAN)
			cli_buf_adds(b, human_time(v.t));
		else
			out_epoch(b, "%.9", v.t);
		break;
	}
	return FMT_FIELD_OK;
}

enum fmt_state fmt_field_state(const struct fmt_directive *d, struct fmt_file *f)
{
	union fmt_value v;

	if (d->get(f, d, &v) != V_OK)
		return FMT_ST_ERROR;
	for (size_t i = 0; i < sizeof(state_words) / sizeof(state_words[0]); i++)
		if (v.s == state_words[i])
			return (enum fmt_state)i;
	return FMT_ST_ERROR;
}

const char *fmt_field_detail(const struct fmt_directive *d, struct fmt_file *f)
{
	struct lazy *l = &f->ctx->lazy;
	enum fattrs_fflag flag;
	const struct fattrs_fflag_info *fi;
	unsigned int src;
	size_t n = 0;

	if (d->get != get_f_fflag || l->owner != f || l->ferr != 0)
		return NULL;
	flag = *(const enum fattrs_fflag *)d->arg;
	fi = fattrs_fflag_info(flag);
	if (l->ff.state[flag] == FATTRS_FINVALID)
		return fi->xattr;
	if (l->ff.state[flag] != FATTRS_FSET)
		return NULL;
	src = l->ff.source[flag];
	l->detail[0] = '\0';
	if (src & FATTRS_FSRC_STATX)
		n += (size_t)snprintf(l->detail + n, sizeof(l->detail) - n, "statx");
	if ((src & FATTRS_FSRC_NATIVE) && n < sizeof(l->detail))
		n += (size_t)snprintf(l->detail + n, sizeof(l->detail) - n, "%s%s", n ? "," : "",
				      l->caps.native == FATTRS_NATIVE_CIFS ? FATTRS_CIFS_ATTRIB_XATTR
									   : FATTRS_NTFS_ATTRIB_XATTR);
	if ((src & FATTRS_FSRC_XATTR) && n < sizeof(l->detail))
		snprintf(l->detail + n, sizeof(l->detail) - n, "%s%s", n ? "," : "", fi->xattr);
	return l->detail;
}

bool fmt_json(struct fmt_file *f, FILE *out, bool all, char term)
{
	struct cli_buf *b = &f->ctx->out;
	struct cli_json j;
	bool ok = true;
	size_t pos = 0;
	const struct fmt_directive *d;

	cli_buf_pending(b, out);
	cli_json_begin_buf(&j, b);
	j.term = term;
	while ((d = fmt_field_next(&pos)) != NULL) {
		union fmt_value v;
		int r;

		if ((d->flags & FMT_F_ALL) && !all)
			continue;
		r = d->get(f, d, &v);
		ok &= r != V_ERR;
		/* the key, then the value (NULL key: written already) */
		if (json_keys[pos - 1].len != 0)
			cli_json_key_raw(&j, json_keys[pos - 1].text, json_keys[pos - 1].len);
		else
			cli_json_key(&j, d->name);
		if (r != V_OK) {
			cli_json_null(&j, NULL);
		} else {
			switch (d->out) {
			case FMT_OUT_LIST: {
				const struct fattrs_fflags *ff = &f->ctx->lazy.ff;

				cli_json_str_array(&j, NULL, ff->unknown, ff->n_unknown);
				break;
			}
			case FMT_OUT_STRING:
			case FMT_OUT_STRING_RAW:
			case FMT_OUT_STATE:
			case FMT_OUT_QUOTED:
				cli_json_str(&j, NULL, v.s);
				break;
			case FMT_OUT_INT:
				cli_json_int(&j, NULL, (long long)v.i);
				break;
			case FMT_OUT_UINT:
			case FMT_OUT_OCTAL:
			case FMT_OUT_HEX:
				cli_json_uint(&j, NULL, (unsigned long long)v.u);
				break;
			case FMT_OUT_EPOCH:
				cli_json_timespec(&j, NULL, (long long)v.t.tv_sec, (long)v.t.tv_nsec);
				break;
			}
		}
		if (d->flags & FMT_F_ID) {
			if (json_keys[pos - 1].str_len != 0) {
				cli_json_key_raw(&j, json_keys[pos - 1].str, json_keys[pos - 1].str_len);
			} else {
				char key[80];

				snprintf(key, sizeof(key), "%s_str", d->name);
				cli_json_key(&j, key);
			}
			if (r != V_OK)
				cli_json_null(&j, NULL);
			else
				cli_json_uint_str(&j, NULL, (unsigned long long)v.u);
		}
	}
	cli_json_end(&j);
	cli_buf_write(b, out);
	return ok;
}
