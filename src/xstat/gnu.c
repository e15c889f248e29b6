/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GNU stat 9.1's letter directives (%a ... %Z, and -f's %a ... %T): their
 * table, their getters and the mount-point walk of %m.
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


GET_EXTERN(get_name) { v->s = f->name; return true; }
GET(get_mode_octal) { v->u = f->stx->stx_mode & 07777; return true; }
GET_EXTERN(get_mode_human)
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
GET_EXTERN(get_type) { v->s = type_word(f->stx->stx_mode, f->stx->stx_size); return true; }
GET(get_gid) { v->u = f->stx->stx_gid; return true; }
GET_EXTERN(get_group)
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
GET_EXTERN(get_user)
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
