/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setfattrs: set and clear file attribute flags, the kernel's own (by word
 * or chattr letter) and the four of fattrs(7), on any filesystem.  Thin:
 * options, the operand loop and reporting; the flag tables, the parser of
 * operations and every system call live in libfattrs.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"
#include "fattrs.h"

enum {
	OPT_DRY_RUN = 1,
	OPT_JSON,
	OPT_LIST,
	OPT_NO_DEREFERENCE,
	OPT_ONE_FILE_SYSTEM,
	OPT_RECURSIVE,
	OPT_REFERENCE,
	OPT_SILENT,
	OPT_VERBOSE,
};

/* Sorted by long name. */
static const struct poptOption options[] = {
	{ "dry-run", 'n', POPT_ARG_NONE, NULL, OPT_DRY_RUN,
	  "say what would change; change nothing", NULL },
	{ "json", '\0', POPT_ARG_NONE, NULL, OPT_JSON,
	  "print --list, -v and -n results as JSON, one object per line", NULL },
	{ "list", '\0', POPT_ARG_NONE, NULL, OPT_LIST,
	  "list every flag (with FILE: whether FILE can hold it)", NULL },
	{ "no-dereference", 'h', POPT_ARG_NONE, NULL, OPT_NO_DEREFERENCE,
	  "act on symbolic links themselves, not on what they point to", NULL },
	{ "one-file-system", 'x', POPT_ARG_NONE, NULL, OPT_ONE_FILE_SYSTEM,
	  "with -R, do not enter directories on other filesystems", NULL },
	{ "recursive", 'R', POPT_ARG_NONE, NULL, OPT_RECURSIVE,
	  "change directories and their contents; never follow symlinks inside", NULL },
	{ "reference", '\0', POPT_ARG_STRING, NULL, OPT_REFERENCE,
	  "make each FILE's flags RFILE's (those both can hold)", "RFILE" },
	{ "silent", 'f', POPT_ARG_NONE, NULL, OPT_SILENT,
	  "suppress most error messages", NULL },
	{ "verbose", 'v', POPT_ARG_NONE, NULL, OPT_VERBOSE,
	  "say, for each file, every flag that changed", NULL },
	CLI_VERSION_OPTION,
	POPT_AUTOHELP
	POPT_TABLEEND
};

#define OPERANDS "[OPTION...] [+-=]FLAG[,FLAG]... [[+-=]FLAG...]... FILE...\n" \
		 "  or:  setfattrs [OPTION...] --reference=RFILE FILE...\n" \
		 "  or:  setfattrs --list [--json] [FILE]"

/* What the filesystem of one device offers for the fattrs(7) flags. */
struct caps_entry {
	dev_t dev;
	struct fattrs_fcaps caps;
	bool overlay;		/* overlayfs: a change of an xattr copies a lower file up */
};

/*
 * The read-back policy: the xflags bits a device was seen to keep, per
 * file type, after a change that was read back.
 */
struct kept_entry {
	dev_t dev;
	mode_t type;		/* S_IFMT bits */
	uint32_t bits;		/* FS_XFLAG_* seen kept (set or cleared as asked) */
	int trusted;		/* -1 not known yet, 0 never (FUSE: the server decides per file), 1 */
};

/*
 * The flags whose fate depends only on the filesystem and the file type,
 * never on the file's contents or state: a filesystem that kept one on a
 * file of a type keeps it on every such file.  (Not immutable or append:
 * they fail loudly anyway; not dax, nocow, compress, projinherit or the
 * xfs-only flags, which depend on a device, a size or a directory.)
 */
#define KEPT_TRUSTED (FS_XFLAG_NODUMP | FS_XFLAG_NOATIME | FS_XFLAG_SYNC)
#ifndef FUSE_SUPER_MAGIC
# define FUSE_SUPER_MAGIC 0x65735546
#endif
#ifndef OVERLAYFS_SUPER_MAGIC
# define OVERLAYFS_SUPER_MAGIC 0x794c7630
#endif

struct setfattrs_control {
	bool dry_run, json, list, nofollow, one_fs, recursive, silent, verbose;
	const char *reference;	/* --reference=RFILE */
	/* After "--", the first word that looked like an operation but was none (taken as a file). */
	const char *not_op;
	int not_op_r;
	struct fattrs_flagops_error not_op_e;
	const char *last_op;	/* the last word taken as an operation */
	struct fattrs_flagops ops;
	bool kops;		/* some kernel flag is named or '=' was given */
	bool fops;		/* some fattrs flag is named or '=' was given */
	struct caps_entry *caps;
	size_t ncaps;
	struct kept_entry *kept;
	size_t nkept;
	struct fattrs_mounts *mounts;
	int caps_known;		/* 0 until capget(2) was asked (then 1, or -1: it failed) */
	uint64_t caps_eff;	/* the effective capabilities */
	int cwd;		/* the working directory at start, or -1 until needed */
	bool moved;		/* the working directory is not cwd: an operand's or the walk's */
	unsigned long dir_serial;	/* the walk's directory we are in, 0: none */
	int opdir;		/* the operands' directory we are in (operand_dir()), or -1 */
	const char *opdir_name;	/* its name: the first opdir_len bytes of an operand */
	size_t opdir_len;
	int byname;		/* -1 not known yet; whether changes in the directory go by name */
	bool ok;		/* no file failed (-R) */
	int nostat;		/* -1 not known yet; 1: operands are not stat'ed (see want_nostat()) */
	const char *operand;	/* the operand being walked (-R) */
	/* Without '=', -v, -n and --json: every file's plan, made once (setfattrs_file()). */
	bool tmpl_ready, tmpl_fpending;
	/*
	 * When the template changes fattrs flags only: its steps, in the order
	 * fflags_apply() takes them (setfattrs_fflags_only()); nfsteps -1
	 * until made, 0 if the template has kernel flags too.
	 */
	int nfsteps;
	struct {
		enum fattrs_fflag f;
		bool on;
		unsigned flags;
	} fsteps[FATTRS_NFFLAGS];
	struct {
		bool on[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];
		unsigned char state[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];
		signed char old[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];
	} tmpl;
	struct fattrs_kchange tmpl_first;
};

/* ------------------------------------------------------------ flags */

/*
 * One flag, kernel or fattrs(7), as an index: kernel rows first, in table
 * order, then the four.
 */
static const struct fattrs_kflag *ktable;
static size_t nktable;

static size_t n_kflags(void)
{
	if (ktable == NULL)
		ktable = fattrs_kflags_table(&nktable);
	return nktable;
}

static const struct fattrs_kflag *krow(size_t i)
{
	if (ktable == NULL)
		ktable = fattrs_kflags_table(&nktable);
	return &ktable[i];
}

static const char *flag_name(size_t i)
{
	size_t n = n_kflags();

	return i < n ? krow(i)->name : fattrs_fflag_info((enum fattrs_fflag)(i - n))->name;
}

static uint32_t kbit_x(const struct fattrs_kflag *f)
{
	return f->xflag;
}

/* The bit a change of @f goes through, in the word it goes through. */
static bool kchange_has(const struct fattrs_kchange *c, const struct fattrs_kflag *f, bool on)
{
	if (f->xflag != 0)
		return ((on ? c->xset : c->xclear) & f->xflag) != 0;
	return ((on ? c->iset : c->iclear) & f->iflag) != 0;
}

static bool is_ia(const struct fattrs_kflag *f)
{
	return (kbit_x(f) & (FS_XFLAG_IMMUTABLE | FS_XFLAG_APPEND)) != 0;
}

/* ------------------------------------------------------------ messages */

static const char *type_word(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return _("regular file");
	case S_IFDIR: return _("directory");
	case S_IFLNK: return _("symbolic link");
	case S_IFIFO: return _("fifo");
	case S_IFSOCK: return _("socket");
	case S_IFCHR: return _("character device");
	case S_IFBLK: return _("block device");
	default: return _("file");
	}
}

/* The filesystem type ("ext4") of the file @stx describes, from the mount table (read once); NULL if unknown. */
static const char *mount_type(struct setfattrs_control *ctl, const struct fattrs_statx_buf *stx)
{
	struct fattrs_mount m;

	if (!(stx->stx_mask & STATX_MNT_ID))
		return NULL;
	if (ctl->mounts == NULL)
		ctl->mounts = fattrs_mounts_new();
	if (ctl->mounts == NULL || fattrs_mounts_find(ctl->mounts, stx->stx_mnt_id, &m) < 0)
		return NULL;
	return m.fstype;
}

/* The filesystem type of @path ("ext4"), or "this" when it cannot be told. */
static const char *fs_type(struct setfattrs_control *ctl, int dirfd, const char *path, bool nofollow)
{
	struct fattrs_statx_buf stx;
	const char *type;

	if (fattrs_statx(dirfd, path, nofollow ? AT_SYMLINK_NOFOLLOW : 0, STATX_MNT_ID, &stx) < 0)
		return "this";
	type = mount_type(ctl, &stx);
	return type != NULL ? type : "this";
}

/* Whether this process has capability @cap in effect (when capget(2) fails: yes, so as to blame none). */
static bool have_cap(struct setfattrs_control *ctl, unsigned cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2] = { { .effective = 0 } };

	if (ctl->caps_known == 0) {
		ctl->caps_known = syscall(SYS_capget, &h, d) < 0 ? -1 : 1;
		ctl->caps_eff = (uint64_t)d[1].effective << 32 | d[0].effective;
	}
	return ctl->caps_known < 0 || cap >= 64 || (ctl->caps_eff & (UINT64_C(1) << cap)) != 0;
}

__attribute__((format(printf, 3, 4)))
static void fail_flag(const struct setfattrs_control *ctl, int err, const char *fmt, ...)
{
	va_list ap;

	if (ctl->silent)
		return;
	va_start(ap, fmt);
	cli_vwarn(err, fmt, ap);
	va_end(ap);
}

/*
 * Why an EPERM of a change to @path: "immutable" or "append-only" when the
 * file has that flag (the kernel then refuses every other change, the
 * user.* xattrs included, even to root), else NULL.
 */
static const char *locked_by(int dirfd, const char *path, bool nofollow, mode_t mode, const char **letter)
{
	struct fattrs_kattr a;
	size_t n;
	const struct fattrs_kflag *t = fattrs_kflags_table(&n);

	if (fattrs_kattr_get(dirfd, path, nofollow ? AT_SYMLINK_NOFOLLOW : 0, mode,
			     FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &a) < 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if ((t[i].xflag == FS_XFLAG_IMMUTABLE || t[i].xflag == FS_XFLAG_APPEND) &&
		    fattrs_kattr_test(&a, &t[i]) == 1) {
			*letter = t[i].xflag == FS_XFLAG_IMMUTABLE ? "i" : "a";
			return t[i].xflag == FS_XFLAG_IMMUTABLE ? _("immutable") : _("append-only");
		}
	}
	return NULL;
}

/*
 * For an EPERM of setting (@on) or clearing flag @name on @path: when the
 * file is immutable or append-only, say so and what clears it first, and
 * return true; false (nothing said) otherwise.
 */
static bool fail_locked(const struct setfattrs_control *ctl, int dirfd, const char *path, bool nofollow, mode_t mode,
			const char *shown, bool on, const char *name)
{
	const char *letter, *locked = locked_by(dirfd, path, nofollow, mode, &letter);

	if (locked == NULL)
		return false;
	fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (the file is %s; '-%s %c%s' clears that first)"),
		  on ? "set" : "clear", name, cli_quote(shown), strerror(EPERM), locked, letter, on ? '+' : '-', name);
	return true;
}

/* ------------------------------------------------------ one file's plan */

enum step_state { ST_NONE = 0, ST_PENDING, ST_APPLIED, ST_FAILED };

/* One file's work: each flag's operation, its state before, and what became of it. */
struct plan {
	const char *path;	/* relative to dirfd */
	const char *shown;	/* for messages */
	int dirfd;
	bool nofollow;		/* do not follow path if it is a symlink */
	bool byname;		/* kernel flags by path in dirfd (FATTRS_KCHANGE_BY_NAME) */
	mode_t mode;
	dev_t dev;
	bool on[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];
	unsigned char state[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];
	signed char old[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];	/* -1 unknown, 0 clear, 1 set, 2 invalid */
	bool failed;
	bool unstat;		/* not stat'ed, and the stat after a failure failed (said) */
	/* The size hints (xfs): [0] as read (-v, -n, --json), [1] as given (0: none). */
	uint32_t extsize[2], cowextsize[2];
};

static const char *state_word(int v)
{
	return v == 1 ? "set" : v == 0 ? "clear" : v == 2 ? "invalid" : "unknown";
}

/* What a file not stat'ed offers for the fattrs flags (want_nostat()). */
static const struct caps_entry nostat_caps = {
	.caps = { .user_xattr = true, .native = FATTRS_NATIVE_NONE } };

/*
 * What @p's filesystem offers for the fattrs flags, probed once per device;
 * for a file not stat'ed (want_nostat()): user xattrs, no native word, no
 * overlayfs, as on every filesystem mounted then.
 */
static int caps_entry_for(struct setfattrs_control *ctl, const struct plan *p, const struct caps_entry **ret)
{
	struct caps_entry *c;
	struct fattrs_fcaps caps;
	struct statfs sfs;
	int r;

	if (p->mode == 0) {
		*ret = &nostat_caps;
		return 0;
	}

	for (size_t i = 0; i < ctl->ncaps; i++) {
		if (ctl->caps[i].dev == p->dev) {
			*ret = &ctl->caps[i];
			return 0;
		}
	}
	/* fattrs_fcaps_probe() wants a path from the working directory. */
	r = fattrs_fcaps_probe(p->path, p->nofollow, &caps);
	if (r < 0)
		return r;
	c = realloc(ctl->caps, (ctl->ncaps + 1) * sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	ctl->caps = c;
	c[ctl->ncaps] = (struct caps_entry){ .dev = p->dev, .caps = caps,
					     .overlay = statfs(p->path, &sfs) == 0 &&
							(uint32_t)sfs.f_type == OVERLAYFS_SUPER_MAGIC };
	*ret = &c[ctl->ncaps++];
	return 0;
}

static int caps_for(struct setfattrs_control *ctl, const struct plan *p, const struct fattrs_fcaps **ret)
{
	const struct caps_entry *c;
	int r = caps_entry_for(ctl, p, &c);

	if (r == 0)
		*ret = &c->caps;
	return r;
}

/* "+nodump -append" for the flags in @state @which (ST_NONE: every planned one). */
static char *plan_words(const struct plan *p, enum step_state which)
{
	size_t n = n_kflags() + FATTRS_NFFLAGS, len = 1;
	char *s, *q;

	for (size_t i = 0; i < n; i++)
		len += strlen(flag_name(i)) + 2;
	s = q = malloc(len);
	if (s == NULL)
		return NULL;
	*q = '\0';
	for (size_t i = 0; i < n; i++) {
		if (p->state[i] == ST_NONE || (which != ST_NONE && p->state[i] != which))
			continue;
		q += sprintf(q, "%s%c%s", q == s ? "" : " ", p->on[i] ? '+' : '-', flag_name(i));
	}
	return s;
}

/* ------------------------------------------------------ kernel flags */

/* Whether @f is one of xfs's size hints: xfs keeps it set only with a size. */
static bool is_sizehint(const struct fattrs_kflag *f)
{
	return (f->xflag & (FS_XFLAG_EXTSIZE | FS_XFLAG_EXTSZINHERIT | FS_XFLAG_COWEXTSIZE)) != 0;
}

/* Re-read the kernel flags after a failed change: what of @c is in effect now. */
static void kernel_settle(struct plan *p, const struct fattrs_kchange *c)
{
	struct fattrs_kattr now;
	bool known = fattrs_kattr_get(p->dirfd, p->path, p->nofollow ? AT_SYMLINK_NOFOLLOW : 0, p->mode,
				      FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &now) == 0;

	for (size_t i = 0; i < n_kflags(); i++) {
		const struct fattrs_kflag *f = krow(i);
		int v;

		if (p->state[i] != ST_PENDING || !kchange_has(c, f, p->on[i]))
			continue;
		v = known ? fattrs_kattr_test(&now, f) : -1;
		p->state[i] = v >= 0 && (v == 1) == p->on[i] ? ST_APPLIED : ST_FAILED;
	}
}

/*
 * Filesystems whose kernel code keeps nodump, noatime and sync on every
 * file it accepts them for (or refuses them loudly), and filesystems
 * that keep no kernel flags at all (a change is refused): with only these
 * mounted, which one a file is on does not decide whether a change of
 * those three flags sticks.
 */
static const char *const keeps_trusted[] = {
	"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "devtmpfs",
	"proc", "sysfs", "devpts", "cgroup", "cgroup2", "mqueue", "securityfs", "debugfs",
	"tracefs", "pstore", "bpf", "configfs", "hugetlbfs", "binfmt_misc", "fusectl",
	"nsfs", "ramfs",
};

/* Whether every mount of this namespace is of a type in keeps_trusted[] (false if unreadable). */
static bool mounts_keep_trusted(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	bool all = f != NULL, any = false;

	while (all && getline(&line, &cap, f) > 0) {
		char *sep = strstr(line, " - "), *type, *end;
		bool known = false;

		if (sep == NULL) {
			all = false;
			break;
		}
		type = sep + 3;
		end = strchr(type, ' ');
		if (end != NULL)
			*end = '\0';
		for (size_t i = 0; i < sizeof(keeps_trusted) / sizeof(keeps_trusted[0]); i++)
			known |= strcmp(type, keeps_trusted[i]) == 0;
		all = known;
		any = true;
	}
	free(line);
	if (f != NULL)
		(void)fclose(f);
	return all && any;
}

/*
 * Whether a file (named, or met by -R) can go without a stat of its own:
 * nothing needs the file's type or device before the change (no '=', -v,
 * -n, --json, --reference), and neither the read-back policy nor the
 * fattrs flags need the device: every mount is of a type that keeps
 * nodump, noatime and sync or refuses them, so after the first change of
 * each in the run was read back, the later ones are trusted whatever
 * filesystem a file is on; and none of those types has a native attribute
 * word or is overlayfs, so a fattrs flag is its user.* xattr everywhere
 * (a filesystem without user xattrs says EOPNOTSUPP, a file type that
 * cannot carry one EPERM).  The library goes by name or pins each file
 * with an O_PATH open, and never opens a device or a fifo; the type is
 * asked only when a change fails, for the message.
 */
static bool want_nostat(struct setfattrs_control *ctl)
{
	if (ctl->ops.assign || ctl->verbose || ctl->dry_run || ctl->json || ctl->reference != NULL)
		return false;
	if (ctl->nostat < 0)
		ctl->nostat = mounts_keep_trusted();
	return ctl->nostat == 1;
}

/*
 * For a file that was not stat'ed (want_nostat()): its type and device,
 * after a failed change, for the messages.  False (and said, as before a
 * change) when it cannot be stat'ed.
 */
static bool plan_stat(struct setfattrs_control *ctl, struct plan *p)
{
	struct stat st;

	if (p->mode != 0)
		return true;
	if (fstatat(p->dirfd, p->path, &st, p->nofollow ? AT_SYMLINK_NOFOLLOW : 0) < 0) {
		fail_flag(ctl, errno, _("cannot stat %s"), cli_quote(p->shown));
		p->unstat = true;
		return false;
	}
	p->mode = st.st_mode;
	p->dev = st.st_dev;
	return true;
}

/*
 * The read-back record of @p's device and file type, made on first use
 * (NULL: out of memory).  A file that was not stat'ed (mode 0) has the
 * record of device 0, type 0: any file (want_nostat()).
 */
static struct kept_entry *kept_for(struct setfattrs_control *ctl, const struct plan *p)
{
	struct kept_entry *k;

	for (size_t i = 0; i < ctl->nkept; i++) {
		if (ctl->kept[i].dev == p->dev && ctl->kept[i].type == (p->mode & S_IFMT))
			return &ctl->kept[i];
	}
	k = realloc(ctl->kept, (ctl->nkept + 1) * sizeof(*k));
	if (k == NULL)
		return NULL;
	ctl->kept = k;
	k[ctl->nkept] = (struct kept_entry){ .dev = p->dev, .type = p->mode & S_IFMT, .trusted = -1 };
	return &k[ctl->nkept++];
}

/*
 * Whether @c may skip the read-back: only trusted xflags bits, each seen
 * kept on this device for this file type before (so the first change of
 * each flag on each filesystem is read back), never on FUSE.
 */
static bool kept_before(struct setfattrs_control *ctl, const struct plan *p, const struct fattrs_kchange *c)
{
	uint32_t x = c->xset | c->xclear;
	struct kept_entry *k;
	struct statfs sfs;

	if ((c->iset | c->iclear) != 0 || x == 0 || (x & ~KEPT_TRUSTED) != 0)
		return false;
	k = kept_for(ctl, p);
	if (k == NULL)
		return false;
	if (k->trusted < 0)
		k->trusted = p->mode == 0 || /* want_nostat(): no FUSE, no unknown filesystem */
			     (statfs(p->path, &sfs) == 0 && (uint32_t)sfs.f_type != FUSE_SUPER_MAGIC);
	return k->trusted == 1 && (x & ~k->bits) == 0;
}

/*
 * After a change that was written (the library returned 1), read back and
 * stuck: the bits it set are kept here.  A clear proves something only
 * when it was the whole change: then the bit was set before (else nothing
 * would have been written), so this filesystem holds it.  A clear among
 * other bits may have found its bit clear already, and proves nothing.
 */
static void kept_seen(struct setfattrs_control *ctl, const struct plan *p, const struct fattrs_kchange *c)
{
	struct kept_entry *k = kept_for(ctl, p);
	uint32_t x = c->xset | c->xclear;

	if (k == NULL)
		return;
	k->bits |= c->xset & KEPT_TRUSTED;
	if (c->xset == 0 && (x & (x - 1)) == 0)
		k->bits |= x & KEPT_TRUSTED;
}

/* Apply @c, the planned kernel flags in it; false when something failed (and said). */
static bool kernel_apply(struct setfattrs_control *ctl, struct plan *p, const struct fattrs_kchange *c)
{
	unsigned atf = p->nofollow ? AT_SYMLINK_NOFOLLOW : 0;
	struct fattrs_kchange dropped = { .xset = 0 };
	bool trust;
	int r;

	if ((c->xset | c->xclear | c->iset | c->iclear) == 0)
		return true;
	trust = kept_before(ctl, p, c);
	r = fattrs_kattr_change_flags(p->dirfd, p->path, atf, p->mode, c,
				      (trust ? FATTRS_KCHANGE_NO_READBACK : 0) |
				      (p->byname ? FATTRS_KCHANGE_BY_NAME : 0), &dropped);
	if (r == 1 && !trust)
		kept_seen(ctl, p, c);
	if (r < 0 && !plan_stat(ctl, p))
		return false;
	if (r >= 0) {
		for (size_t i = 0; i < n_kflags(); i++) {
			if (p->state[i] == ST_PENDING && kchange_has(c, krow(i), p->on[i]))
				p->state[i] = ST_APPLIED;
		}
		return true;
	}
	if (r == -EOPNOTSUPP) {
		struct fattrs_kattr any;
		bool none = fattrs_kattr_get(p->dirfd, p->path, atf, p->mode, FATTRS_KATTR_XFLAGS |
					     FATTRS_KATTR_IFLAGS, &any) == -EOPNOTSUPP;
		const char *type = fs_type(ctl, p->dirfd, p->path, p->nofollow);

		size_t ndropped = 0;

		for (size_t i = 0; i < n_kflags(); i++) {
			const struct fattrs_kflag *f = krow(i);

			if (p->state[i] != ST_PENDING || !kchange_has(c, f, p->on[i]))
				continue;
			if (kchange_has(&dropped, f, p->on[i]))
				ndropped++;
			else
				p->state[i] = ST_APPLIED;
		}
		/*
		 * Some filesystems (tmpfs) refuse a whole write for one flag they
		 * do not have: then each flag is tried alone (clears, sets, then
		 * immutable and append), to apply what can be and name exactly
		 * what cannot.
		 */
		for (int pass = 0; !none && ndropped > 1 && pass < 3; pass++) {
			for (size_t i = 0; i < n_kflags(); i++) {
				const struct fattrs_kflag *f = krow(i);
				struct fattrs_kchange one = { .xset = 0 };

				if (p->state[i] != ST_PENDING || !kchange_has(c, f, p->on[i]) ||
				    (pass == 0) != !p->on[i] || (pass == 2) != (p->on[i] && is_ia(f)))
					continue;
				(void)fattrs_kchange_add(&one, f, p->on[i]);
				if (fattrs_kattr_change(p->dirfd, p->path, atf, p->mode, &one, NULL) >= 0)
					p->state[i] = ST_APPLIED;
			}
		}
		for (size_t i = 0; i < n_kflags(); i++) {
			const struct fattrs_kflag *f = krow(i);

			if (p->state[i] != ST_PENDING || !kchange_has(c, f, p->on[i]))
				continue;
			/* --reference: a flag this file's filesystem cannot hold is left out. */
			if (ctl->reference != NULL && p->on[i]) {
				p->state[i] = ST_NONE;
				continue;
			}
			p->state[i] = ST_FAILED;
			p->failed = true;
			if (none)
				fail_flag(ctl, 0, _("cannot %s '%s' on %s: the %s filesystem keeps no attribute flags for a %s"),
					  p->on[i] ? "set" : "clear", f->name, cli_quote(p->shown), type,
					  type_word(p->mode));
			else if (p->on[i] && is_sizehint(f) && strcmp(type, "xfs") == 0 &&
				 ((f->xflag & FS_XFLAG_COWEXTSIZE) ? c->cowextsize : c->extsize) == 0)
				fail_flag(ctl, 0, _("cannot set '%s' on %s: xfs keeps it only with a size hint: '+%s=SIZE'"),
					  f->name, cli_quote(p->shown), f->name);
			else
				fail_flag(ctl, 0, _("cannot %s '%s' on %s: the %s filesystem did not keep it (on a %s)"),
					  p->on[i] ? "set" : "clear", f->name, cli_quote(p->shown), type,
					  type_word(p->mode));
		}
		return !p->failed;
	}
	p->failed = true;
	kernel_settle(p, c);
	for (size_t i = 0; i < n_kflags(); i++) {
		const struct fattrs_kflag *f = krow(i);

		if (p->state[i] != ST_FAILED || !kchange_has(c, f, p->on[i]))
			continue;
		if (r == -EPERM && is_ia(f) && !have_cap(ctl, CAP_LINUX_IMMUTABLE))
			fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (changing it needs CAP_LINUX_IMMUTABLE)"),
				  p->on[i] ? "set" : "clear", f->name, cli_quote(p->shown), strerror(EPERM));
		else if (r == -EPERM && f->iflag == FS_JOURNAL_DATA_FL && !have_cap(ctl, CAP_SYS_RESOURCE))
			fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (changing it needs CAP_SYS_RESOURCE)"),
				  p->on[i] ? "set" : "clear", f->name, cli_quote(p->shown), strerror(EPERM));
		else if (r == -EPERM && !is_ia(f) &&
			 fail_locked(ctl, p->dirfd, p->path, p->nofollow, p->mode, p->shown, p->on[i], f->name))
			;	/* said */
		else if (r == -EINVAL)
			fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (the %s filesystem refuses it on this %s, or with the other flags it has or is given)"),
				  p->on[i] ? "set" : "clear", f->name, cli_quote(p->shown), strerror(EINVAL),
				  fs_type(ctl, p->dirfd, p->path, p->nofollow), type_word(p->mode));
		else
			fail_flag(ctl, -r, _("cannot %s '%s' on %s"), p->on[i] ? "set" : "clear", f->name,
				  cli_quote(p->shown));
	}
	return false;
}

/* ------------------------------------------------------ fattrs flags */

static bool fflag_apply(struct setfattrs_control *ctl, struct plan *p, enum fattrs_fflag f, bool opp_cleared)
{
	size_t i = n_kflags() + (size_t)f;
	const struct fattrs_fcaps *caps;
	const struct fattrs_fflag_info *fi = fattrs_fflag_info(f);
	int r;

	r = caps_for(ctl, p, &caps);
	if (r == 0)
		r = fattrs_fflag_set(p->path, p->nofollow, p->mode, caps, f, p->on[i],
				     opp_cleared ? FATTRS_FFLAG_NO_OPPOSITE_CHECK : 0, NULL);
	if (r == 0) {
		p->state[i] = ST_APPLIED;
		return true;
	}
	/* Not stat'ed: its type, for the message (a missing file is said so here). */
	if (!plan_stat(ctl, p)) {
		p->state[i] = ST_FAILED;
		p->failed = true;
		return false;
	}
	/* --reference: a flag this file cannot carry is left out. */
	if (ctl->reference != NULL && p->on[i] &&
	    (r == -EOPNOTSUPP || (r == -EPERM && !S_ISREG(p->mode) && !S_ISDIR(p->mode)))) {
		p->state[i] = ST_NONE;
		return true;
	}
	p->state[i] = ST_FAILED;
	p->failed = true;
	if (r == -EEXIST) {
		const char *opp = fattrs_fflag_info(fi->opposite)->name;

		fail_flag(ctl, 0, _("cannot set '%s' on %s: its opposite '%s' is set; '-%s +%s' clears it first"),
			  fi->name, cli_quote(p->shown), opp, opp, fi->name);
	} else if (r == -EPERM && !S_ISREG(p->mode) && !S_ISDIR(p->mode)) {
		fail_flag(ctl, 0, _("cannot %s '%s' on %s: a %s cannot carry it (the kernel keeps user xattrs on regular files and directories only)"),
			  p->on[i] ? "set" : "clear", fi->name, cli_quote(p->shown), type_word(p->mode));
	} else if (r == -EOPNOTSUPP) {
		fail_flag(ctl, 0, _("cannot %s '%s' on %s: the %s filesystem has neither user xattrs nor a native attribute word"),
			  p->on[i] ? "set" : "clear", fi->name, cli_quote(p->shown),
			  fs_type(ctl, p->dirfd, p->path, p->nofollow));
	} else if (r == -EPERM && fail_locked(ctl, p->dirfd, p->path, p->nofollow, p->mode, p->shown, p->on[i],
					      fi->name)) {
		/* said */
	} else if (r == -EIO && !p->on[i]) {
		fail_flag(ctl, 0, _("cannot clear '%s' on %s: the %s filesystem kept it in its native attribute word"),
			  fi->name, cli_quote(p->shown), fs_type(ctl, p->dirfd, p->path, p->nofollow));
	} else {
		fail_flag(ctl, -r, _("cannot %s '%s' on %s"), p->on[i] ? "set" : "clear", fi->name,
			  cli_quote(p->shown));
	}
	return false;
}

/* Whether @p's file is on overlayfs (known once its filesystem was probed for the fattrs flags). */
static bool on_overlay(struct setfattrs_control *ctl, const struct plan *p)
{
	const struct caps_entry *c;

	return caps_entry_for(ctl, p, &c) == 0 && c->overlay;
}

/*
 * On overlayfs the first change of an xattr of a lower file copies it up,
 * and copy-up keeps only sync, noatime, append and immutable of its
 * kernel flags (fs/overlayfs/copy_up.c): nodump, nocow and the rest
 * vanish.  Put back what @before had and the copy-up took, so that a
 * fattrs flag never costs the file another flag; say it when that fails.
 */
static void overlay_restore(struct setfattrs_control *ctl, struct plan *p, const struct fattrs_kattr *before)
{
	struct fattrs_kattr after;
	struct fattrs_kchange back = { .xset = 0 };
	bool lost = false;
	int r;

	r = fattrs_kattr_get(p->dirfd, p->path, p->nofollow ? AT_SYMLINK_NOFOLLOW : 0, p->mode,
			     FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &after);
	if (r < 0)
		return;
	for (size_t i = 0; i < n_kflags(); i++) {
		const struct fattrs_kflag *f = krow(i);

		if (!f->readonly && fattrs_kattr_test(before, f) == 1 && fattrs_kattr_test(&after, f) == 0) {
			(void)fattrs_kchange_add(&back, f, true);
			lost = true;
		}
	}
	if (!lost)
		return;
	r = fattrs_kattr_change(p->dirfd, p->path, p->nofollow ? AT_SYMLINK_NOFOLLOW : 0, p->mode, &back, NULL);
	if (r >= 0)
		return;
	p->failed = true;
	for (size_t i = 0; i < n_kflags(); i++) {
		if (kchange_has(&back, krow(i), true))
			fail_flag(ctl, -r, _("cannot set '%s' on %s again after the overlayfs copy-up dropped it"),
				  krow(i)->name, cli_quote(p->shown));
	}
}

/* Whether the plan clears @f (by name, or as '=' does when it is set). */
static bool plan_clears(const struct plan *p, enum fattrs_fflag f)
{
	size_t i = n_kflags() + (size_t)f;

	return p->state[i] != ST_NONE && !p->on[i];
}

/* Clears first (so an opposite is gone before its flag is set), then sets. */
static bool fflags_apply(struct setfattrs_control *ctl, struct plan *p)
{
	size_t base = n_kflags();

	for (int pass = 0; pass < 2; pass++) {
		for (int f = 0; f < FATTRS_NFFLAGS; f++) {
			size_t i = base + (size_t)f;

			if (p->state[i] != ST_PENDING || p->on[i] != (pass == 1))
				continue;
			if (!fflag_apply(ctl, p, (enum fattrs_fflag)f,
					 plan_clears(p, fattrs_fflag_info((enum fattrs_fflag)f)->opposite)))
				return false;
		}
	}
	return true;
}

/* ------------------------------------------------------------ reporting */

/*
 * The size hint row @i of @p changed to, as (@ret_old, @ret_new): true
 * when a size was given with the flag's set and differs from what the
 * file had.
 */
static bool size_changed(const struct plan *p, size_t i, uint32_t *ret_old, uint32_t *ret_new)
{
	const struct fattrs_kflag *f;
	bool cow;

	if (i >= n_kflags() || !p->on[i] || p->state[i] != ST_APPLIED)
		return false;
	f = krow(i);
	if (!is_sizehint(f))
		return false;
	cow = (f->xflag & FS_XFLAG_COWEXTSIZE) != 0;
	*ret_old = cow ? p->cowextsize[0] : p->extsize[0];
	*ret_new = cow ? p->cowextsize[1] : p->extsize[1];
	return *ret_new != 0 && *ret_new != *ret_old;
}

static void report(struct setfattrs_control *ctl, const struct plan *p)
{
	uint32_t sold, snew;

	size_t n = n_kflags() + FATTRS_NFFLAGS;
	struct cli_json j;
	bool any = false;

	if (ctl->json) {
		cli_json_begin(&j, stdout);
		cli_json_str(&j, "file", p->shown);
		cli_json_bool(&j, "dry_run", ctl->dry_run);
		cli_json_bool(&j, "ok", !p->failed);
		cli_json_key(&j, "changed");
		fputc('[', stdout);
		for (size_t i = 0; i < n; i++) {
			bool newv = p->on[i];

			bool sized = size_changed(p, i, &sold, &snew);

			if (p->state[i] != ST_APPLIED || (p->old[i] == (newv ? 1 : 0) && !sized))
				continue;
			printf("%s{\"flag\":\"%s\",\"old\":\"%s\",\"new\":\"%s\"", any ? "," : "",
			       flag_name(i), state_word(p->old[i]), state_word(newv));
			if (sized)
				printf(",\"old_size\":%" PRIu32 ",\"new_size\":%" PRIu32, sold, snew);
			fputc('}', stdout);
			any = true;
		}
		fputc(']', stdout);
		cli_json_key(&j, "not_applied");
		fputc('[', stdout);
		any = false;
		for (size_t i = 0; i < n; i++) {
			if (p->state[i] != ST_FAILED && p->state[i] != ST_PENDING)
				continue;
			printf("%s\"%c%s\"", any ? "," : "", p->on[i] ? '+' : '-', flag_name(i));
			any = true;
		}
		fputc(']', stdout);
		cli_json_end(&j);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		bool sized = size_changed(p, i, &sold, &snew);

		if (p->state[i] != ST_APPLIED || (p->old[i] == (p->on[i] ? 1 : 0) && !sized))
			continue;
		if (!any)
			printf("%s %s: ", ctl->dry_run ? _("would change") : _("changed"), cli_name(p->shown));
		printf("%s%s: %s -> %s", any ? ", " : "", flag_name(i), state_word(p->old[i]),
		       state_word(p->on[i]));
		if (sized)
			printf(" (size %" PRIu32 " -> %" PRIu32 ")", sold, snew);
		any = true;
	}
	if (any)
		putchar('\n');
}

/*
 * With --json, a file that failed before its plan was made (its flags
 * could not be read, it could not be stat'ed) still gets its record: not
 * ok, nothing changed, every operation it names not applied.
 */
static void report_unread(struct setfattrs_control *ctl, const char *shown)
{
	struct plan p = { .shown = shown, .failed = true };
	size_t nk = n_kflags();

	if (!ctl->json)
		return;
	memset(p.old, -1, sizeof(p.old));
	for (size_t i = 0; i < nk; i++) {
		if (ctl->ops.kop[i] == FATTRS_FLAGOP_SET || ctl->ops.kop[i] == FATTRS_FLAGOP_CLEAR) {
			p.on[i] = ctl->ops.kop[i] == FATTRS_FLAGOP_SET;
			p.state[i] = ST_PENDING;
		}
	}
	for (int f = 0; f < FATTRS_NFFLAGS; f++) {
		if (ctl->ops.fop[f] == FATTRS_FLAGOP_SET || ctl->ops.fop[f] == FATTRS_FLAGOP_CLEAR) {
			p.on[nk + (size_t)f] = ctl->ops.fop[f] == FATTRS_FLAGOP_SET;
			p.state[nk + (size_t)f] = ST_PENDING;
		}
	}
	report(ctl, &p);
}

/*
 * After a failure, when the file was changed in part or some operation was
 * not even tried: exactly what was and was not applied to it.
 */
static void report_partial(const struct setfattrs_control *ctl, const struct plan *p)
{
	char *done = plan_words(p, ST_APPLIED), *failed = plan_words(p, ST_FAILED);
	char *pending = plan_words(p, ST_PENDING);

	if (done == NULL || failed == NULL || pending == NULL) {
		cli_warn(ENOMEM, _("%s: cannot say what was applied"), cli_quote(p->shown));
	} else if ((*done != '\0' || *pending != '\0') && !ctl->silent) {
		cli_warn(0, _("%s: applied %s%s%s; failed '%s'%s%s%s"), cli_quote(p->shown),
			 *done != '\0' ? "'" : "", *done != '\0' ? done : _("nothing"), *done != '\0' ? "'" : "",
			 failed, *pending != '\0' ? _("; not tried '") : "", pending, *pending != '\0' ? "'" : "");
	}
	free(done);
	free(failed);
	free(pending);
}

/* ------------------------------------------------------------ one file */

/*
 * Whether the kernel flags of @path in @dirfd, the directory changes are
 * made in now, can be read and written by that name rather than through
 * a pinned descriptor (fattrs_kattr_dir_byname(): nobody else can rename
 * a file over it meanwhile).  Asked once per directory.
 */
static bool dir_byname(struct setfattrs_control *ctl, int dirfd, const char *path, bool nofollow)
{
	if (!ctl->kops || ctl->dry_run || strchr(path, '/') != NULL)
		return false;
	if (ctl->byname < 0)
		ctl->byname = fattrs_kattr_dir_byname(dirfd, nofollow ? AT_SYMLINK_NOFOLLOW : 0) == 1;
	return ctl->byname == 1;
}

/*
 * Change one file: @path relative to @dirfd (and to the working directory,
 * for the fattrs flags: -R moves into @dirfd first), @st its stat as
 * @nofollow says, or NULL when want_nostat().
 */
static bool setfattrs_file(struct setfattrs_control *ctl, int dirfd, const char *path, const char *shown,
			   const struct stat *st, bool nofollow)
{
	const struct fattrs_flagops *ops = &ctl->ops;
	struct plan p = { .path = path, .shown = shown, .dirfd = dirfd, .nofollow = nofollow,
			  .byname = dir_byname(ctl, dirfd, path, nofollow) };
	struct fattrs_kchange hard, soft, first, last;
	struct fattrs_kattr kcur;
	struct fattrs_fflags fcur;
	unsigned atf = nofollow ? AT_SYMLINK_NOFOLLOW : 0;
	size_t nk = n_kflags();
	bool kread = false, fread = false, ok = true, fpending = false;
	int r;

	p.mode = st != NULL ? st->st_mode : 0;
	p.dev = st != NULL ? st->st_dev : 0;

	/*
	 * Without '=', -v, -n and --json nothing is read first, and the plan
	 * is the same for every file: made once.
	 */
	if (!(ops->assign || ctl->verbose || ctl->dry_run || ctl->json) && ctl->tmpl_ready) {
		memcpy(p.on, ctl->tmpl.on, sizeof(p.on));
		memcpy(p.state, ctl->tmpl.state, sizeof(p.state));
		memcpy(p.old, ctl->tmpl.old, sizeof(p.old));
		first = ctl->tmpl_first;
		fpending = ctl->tmpl_fpending;
		goto planned;
	}
	memset(p.old, -1, sizeof(p.old));
	fcur = (struct fattrs_fflags){ .unknown = NULL };

	/* What the file has now: for '=' (what to clear), -v and -n (old -> new). */
	if (ops->assign || ctl->verbose || ctl->dry_run || ctl->json) {
		if (ctl->kops) {
			r = fattrs_kattr_get(dirfd, path, atf, p.mode, FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS,
					     &kcur);
			if (r < 0 && r != -EOPNOTSUPP) {
				fail_flag(ctl, -r, _("cannot read the flags of %s"), cli_quote(shown));
				report_unread(ctl, shown);
				return false;
			}
			kread = r == 0;
		}
		if (ctl->fops) {
			const struct fattrs_fcaps *caps;

			r = caps_for(ctl, &p, &caps);
			if (r == 0)
				r = fattrs_fflags_get(path, nofollow, p.mode, caps, NULL, &fcur);
			if (r < 0) {
				fail_flag(ctl, -r, _("cannot read the fattrs flags of %s"), cli_quote(shown));
				report_unread(ctl, shown);
				return false;
			}
			fread = true;
		}
	}
	for (size_t i = 0; kread && i < nk; i++)
		p.old[i] = (signed char)fattrs_kattr_test(&kcur, krow(i));
	if (kread && (kcur.have & FATTRS_KATTR_XFLAGS)) {
		p.extsize[0] = kcur.extsize;
		p.cowextsize[0] = kcur.cowextsize;
	}
	for (int f = 0; fread && f < FATTRS_NFFLAGS; f++) {
		enum fattrs_fstate s = fcur.state[f];

		p.old[nk + (size_t)f] = s == FATTRS_FSET ? 1 : s == FATTRS_FCLEAR ? 0 : s == FATTRS_FINVALID ? 2 : -1;
	}
	fattrs_fflags_release(&fcur);

	/* The plan: what is named, and what '=' clears because it is set. */
	fattrs_flagops_kchange(ops, kread ? &kcur : NULL, &hard, &soft);
	for (size_t i = 0; i < nk; i++) {
		const struct fattrs_kflag *f = krow(i);

		if (ops->kop[i] == FATTRS_FLAGOP_SET || ops->kop[i] == FATTRS_FLAGOP_CLEAR) {
			p.on[i] = ops->kop[i] == FATTRS_FLAGOP_SET;
			p.state[i] = ST_PENDING;
		} else if (kchange_has(&soft, f, false)) {
			p.on[i] = false;
			p.state[i] = ST_PENDING;
		}
	}
	for (int f = 0; f < FATTRS_NFFLAGS; f++) {
		size_t i = nk + (size_t)f;

		if (ops->fop[f] == FATTRS_FLAGOP_SET || ops->fop[f] == FATTRS_FLAGOP_CLEAR) {
			p.on[i] = ops->fop[f] == FATTRS_FLAGOP_SET;
			p.state[i] = ST_PENDING;
		} else if (ops->fop[f] == FATTRS_FLAGOP_CLEAR_OTHERS && (p.old[i] == 1 || p.old[i] == 2)) {
			p.on[i] = false;
			p.state[i] = ST_PENDING;
		}
		if (p.state[i] == ST_PENDING)
			fpending = true;
	}
	first = (struct fattrs_kchange){ .xset = hard.xset, .xclear = hard.xclear | soft.xclear,
					 .iset = hard.iset, .iclear = hard.iclear | soft.iclear,
					 .extsize = hard.extsize, .cowextsize = hard.cowextsize };
	p.extsize[1] = hard.extsize;
	p.cowextsize[1] = hard.cowextsize;
	if (!(ops->assign || ctl->verbose || ctl->dry_run || ctl->json)) {
		memcpy(ctl->tmpl.on, p.on, sizeof(p.on));
		memcpy(ctl->tmpl.state, p.state, sizeof(p.state));
		memcpy(ctl->tmpl.old, p.old, sizeof(p.old));
		ctl->tmpl_first = first;
		ctl->tmpl_fpending = fpending;
		ctl->tmpl_ready = true;
	}
planned:

	if (ctl->dry_run) {
		/* Nothing is written: each planned flag counts as done. */
		for (size_t i = 0; i < nk + FATTRS_NFFLAGS; i++) {
			if (p.state[i] == ST_PENDING)
				p.state[i] = ST_APPLIED;
		}
		report(ctl, &p);
		return true;
	}

	/*
	 * Immutable and append: cleared first, set last, so that everything
	 * else (the fattrs flags included) can still be changed.  Without
	 * fattrs flags to change, one kernel change does it in that order.
	 */
	last = (struct fattrs_kchange){ .xset = 0 };
	if (fpending) {
		last.xset = first.xset & (FS_XFLAG_IMMUTABLE | FS_XFLAG_APPEND);
		first.xset &= ~last.xset;
	}
	ok = kernel_apply(ctl, &p, &first);
	if (p.unstat)
		return false;
	if (ok && fpending) {
		struct fattrs_kattr before;
		bool restore = on_overlay(ctl, &p) &&
			       fattrs_kattr_get(dirfd, path, atf, p.mode, FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS,
						&before) == 0;

		ok = fflags_apply(ctl, &p);
		if (p.unstat)
			return false;
		if (restore)
			overlay_restore(ctl, &p, &before);
		ok = ok && !p.failed;
	}
	if (ok && fpending)
		ok = kernel_apply(ctl, &p, &last);
	if (!ok)
		report_partial(ctl, &p);
	if (ctl->verbose || ctl->json)
		report(ctl, &p);
	return ok;
}

/*
 * setfattrs_file() where want_nostat() holds and the run's template
 * changes fattrs flags only (a named file, or a regular file or directory
 * met by -R): each flag's one or two system calls, nothing else per file,
 * with what want_nostat() says of every filesystem (a fattrs flag is its
 * user.* xattr).  The first file of the run made the template, through
 * setfattrs_file(); a file whose change fails goes through it too, which
 * does the change again (each step is idempotent) and says what failed.
 */
static bool setfattrs_fflags_only(struct setfattrs_control *ctl, int dirfd, const char *path, const char *shown,
				  const struct stat *st, bool nofollow)
{
	for (int k = 0; k < ctl->nfsteps; k++) {
		if (fattrs_fflag_set(path, nofollow, 0, &nostat_caps.caps, ctl->fsteps[k].f, ctl->fsteps[k].on,
				     ctl->fsteps[k].flags, NULL) != 0)
			return setfattrs_file(ctl, dirfd, path, shown, st, nofollow);
	}
	return true;
}

/* Whether the template changes fattrs flags only, its steps made once (nfsteps). */
static bool fflags_only(struct setfattrs_control *ctl)
{
	const struct fattrs_kchange *c = &ctl->tmpl_first;
	size_t nk = n_kflags();

	if (ctl->nfsteps >= 0 || !ctl->tmpl_ready)
		return ctl->nfsteps > 0;
	ctl->nfsteps = 0;
	if ((c->xset | c->xclear | c->iset | c->iclear) != 0 || !ctl->tmpl_fpending)
		return false;
	for (size_t i = 0; i < nk; i++) {
		if (ctl->tmpl.state[i] != ST_NONE)
			return false;
	}
	/* fflags_apply()'s order: clears first, then sets */
	for (int pass = 0; pass < 2; pass++) {
		for (int f = 0; f < FATTRS_NFFLAGS; f++) {
			size_t i = nk + (size_t)f;
			size_t o = nk + (size_t)fattrs_fflag_info((enum fattrs_fflag)f)->opposite;

			if (ctl->tmpl.state[i] != ST_PENDING || ctl->tmpl.on[i] != (pass == 1))
				continue;
			ctl->fsteps[ctl->nfsteps].f = (enum fattrs_fflag)f;
			ctl->fsteps[ctl->nfsteps].on = pass == 1;
			ctl->fsteps[ctl->nfsteps].flags = ctl->tmpl.state[o] != ST_NONE && !ctl->tmpl.on[o] ?
							  FATTRS_FFLAG_NO_OPPOSITE_CHECK : 0;
			ctl->nfsteps++;
		}
	}
	return ctl->nfsteps > 0;
}

/* Change one file: setfattrs_file(), or setfattrs_fflags_only() where that does the same. */
static bool change_file(struct setfattrs_control *ctl, int dirfd, const char *path, const char *shown,
			const struct stat *st, bool nofollow)
{
	if (want_nostat(ctl) && fflags_only(ctl))
		return setfattrs_fflags_only(ctl, dirfd, path, shown, st, nofollow);
	return setfattrs_file(ctl, dirfd, path, shown, st, nofollow);
}

/* ------------------------------------------------------------ -R */

static void walk_error(const char *path, int err, void *arg)
{
	struct setfattrs_control *ctl = arg;

	ctl->ok = false;
	if (err == -ESTALE)
		fail_flag(ctl, 0, _("cannot go back up from %s: it was moved during the walk; the rest of %s is left alone"),
			  cli_quote(path), cli_quote(ctl->operand));
	else
		fail_flag(ctl, -err, _("cannot read directory %s"), cli_quote(path));
}

/*
 * One name inside a tree: regular files and directories are changed;
 * symlinks (never followed), fifos, sockets and devices met inside are
 * left alone.  The fattrs flags go by name, so the working directory
 * follows the walk.
 */
static int walk_entry(const struct fattrs_walk_entry *e, void *arg)
{
	struct setfattrs_control *ctl = arg;

	if (!S_ISREG(e->type) && !S_ISDIR(e->type))
		return 0;
	if (ctl->dir_serial != e->dir_serial) {
		if (fchdir(e->dirfd) < 0) {
			fail_flag(ctl, errno, _("cannot change to the directory of %s"), cli_quote(e->path));
			ctl->ok = false;
			return FATTRS_WALK_SKIP;
		}
		ctl->dir_serial = e->dir_serial;
		ctl->moved = true;
		ctl->byname = -1;
	}
	if (!change_file(ctl, e->dirfd, e->name, e->path, e->st, true))
		ctl->ok = false;
	return 0;
}

/* Back to where the command started, after a walk or an operand's directory. */
static bool back_home(struct setfattrs_control *ctl)
{
	if (ctl->opdir >= 0)
		(void)close(ctl->opdir);
	ctl->opdir = -1;
	ctl->dir_serial = 0;
	if (!ctl->moved)
		return true;
	ctl->moved = false;
	ctl->byname = -1;
	if (fchdir(ctl->cwd) == 0)
		return true;
	cli_die(CLI_EXIT_FAILURE, errno, _("cannot return to the working directory"));
}

/*
 * Where an operand is changed from: its directory, entered once for
 * consecutive operands in the same one, and its last name.  Each call
 * then looks up one name instead of the whole path again, and where
 * nobody else can change that directory the kernel flags go by that name
 * (dir_byname()).  The working directory follows, as in a walk: the
 * fattrs flags go by path.  An operand without a directory part is
 * changed from the working directory; one ending in "/", "." or "..", or
 * whose directory cannot be entered, by its whole path (which then says
 * what is wrong).
 */
static void operand_dir(struct setfattrs_control *ctl, const char *file, int *ret_dirfd, const char **ret_name)
{
	const char *slash = strrchr(file, '/');
	const char *name = slash != NULL ? slash + 1 : file;
	size_t len = slash != NULL ? (size_t)(slash - file) : 0;
	char *dir;
	int fd;

	*ret_dirfd = AT_FDCWD;
	*ret_name = file;
	if (slash != NULL && ctl->opdir >= 0 && len == ctl->opdir_len &&
	    memcmp(file, ctl->opdir_name, len) == 0 && name[0] != '\0') {
		*ret_dirfd = ctl->opdir;
		*ret_name = name;
		return;
	}
	(void)back_home(ctl);
	if (slash == NULL || name[0] == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return;
	if (ctl->cwd < 0)
		ctl->cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	dir = ctl->cwd >= 0 ? strndup(file, len > 0 ? len : 1) : NULL;	/* "/f": "/" */
	if (dir == NULL)
		return;
	fd = openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return;
	if (fchdir(fd) < 0) {
		(void)close(fd);
		return;
	}
	ctl->moved = true;
	ctl->byname = -1;
	ctl->opdir = fd;
	ctl->opdir_name = file;
	ctl->opdir_len = len;
	*ret_dirfd = fd;
	*ret_name = name;
}

/* One operand: the file itself, then, with -R and a directory, everything below it. */
static bool setfattrs_operand(struct setfattrs_control *ctl, const char *file)
{
	struct stat st;
	const char *name;
	bool ok;
	int dirfd, fd, r;

	operand_dir(ctl, file, &dirfd, &name);
	if (!ctl->recursive && want_nostat(ctl))
		return change_file(ctl, dirfd, name, file, NULL, ctl->nofollow);
	if (fstatat(dirfd, name, &st, ctl->nofollow ? AT_SYMLINK_NOFOLLOW : 0) < 0) {
		fail_flag(ctl, errno, _("cannot stat %s"), cli_quote(file));
		report_unread(ctl, file);
		return false;
	}
	ok = setfattrs_file(ctl, dirfd, name, file, &st, ctl->nofollow);
	if (!ctl->recursive || !S_ISDIR(st.st_mode))
		return ok;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK |
		    (ctl->nofollow ? O_NOFOLLOW : 0));
	if (fd < 0) {
		fail_flag(ctl, errno, _("cannot open directory %s"), cli_quote(file));
		return false;
	}
	ctl->ok = true;
	ctl->operand = file;
	ctl->byname = -1;
	r = fattrs_walk(fd, file, (ctl->one_fs ? FATTRS_WALK_XDEV : 0) | (want_nostat(ctl) ? FATTRS_WALK_LAZY : 0),
			walk_entry, walk_error, ctl);
	(void)close(fd);
	(void)back_home(ctl);
	if (r < 0 && r != -ESTALE) {
		fail_flag(ctl, -r, _("cannot walk %s"), cli_quote(file));
		return false;
	}
	return ok && ctl->ok && r == 0;
}

/* ------------------------------------------------------------ --reference */

/*
 * The operations that make a file's flags RFILE's: '=' of what RFILE has
 * set, among the flags RFILE's filesystem can hold (the others are kept).
 */
static void reference_ops(struct setfattrs_control *ctl)
{
	const char *rfile = ctl->reference;
	struct fattrs_kattr ka;
	struct fattrs_fflags ff = { .unknown = NULL };
	const struct fattrs_fcaps *caps;
	struct plan p = { .path = rfile, .shown = rfile, .dirfd = AT_FDCWD, .nofollow = ctl->nofollow };
	struct stat st;
	size_t nk = n_kflags();
	bool kok;
	int r;

	if (fstatat(AT_FDCWD, rfile, &st, ctl->nofollow ? AT_SYMLINK_NOFOLLOW : 0) < 0)
		cli_die(CLI_EXIT_FAILURE, errno, _("cannot stat %s"), cli_quote(rfile));
	p.mode = st.st_mode;
	p.dev = st.st_dev;
	r = fattrs_kattr_get(AT_FDCWD, rfile, ctl->nofollow ? AT_SYMLINK_NOFOLLOW : 0, p.mode,
			     FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &ka);
	if (r < 0 && r != -EOPNOTSUPP)
		cli_die(CLI_EXIT_FAILURE, -r, _("cannot read the flags of %s"), cli_quote(rfile));
	kok = r == 0;
	r = caps_for(ctl, &p, &caps);
	if (r == 0)
		r = fattrs_fflags_get(rfile, ctl->nofollow, p.mode, caps, NULL, &ff);
	if (r < 0)
		cli_die(CLI_EXIT_FAILURE, -r, _("cannot read the fattrs flags of %s"), cli_quote(rfile));
	fattrs_flagops_init(&ctl->ops);
	ctl->ops.assign = true;
	for (size_t i = 0; i < nk; i++) {
		int v = kok ? fattrs_kattr_test(&ka, krow(i)) : -1;

		if (krow(i)->readonly || v < 0)
			ctl->ops.kop[i] = FATTRS_FLAGOP_KEEP;
		else
			ctl->ops.kop[i] = v == 1 ? FATTRS_FLAGOP_SET : FATTRS_FLAGOP_CLEAR_OTHERS;
	}
	for (int f = 0; f < FATTRS_NFFLAGS; f++) {
		enum fattrs_fstate s = ff.state[f];

		ctl->ops.fop[f] = s == FATTRS_FSET ? FATTRS_FLAGOP_SET :
				  s == FATTRS_FCLEAR ? FATTRS_FLAGOP_CLEAR_OTHERS : FATTRS_FLAGOP_KEEP;
	}
	fattrs_fflags_release(&ff);
}

/* ------------------------------------------------------------ --list */

static void list_row_json(const char *name, char letter, const char *kind, const char *where, bool readonly,
			  const char *descr, const char *state, const char *support)
{
	struct cli_json j;
	char l[2] = { letter, '\0' };

	cli_json_begin(&j, stdout);
	cli_json_str(&j, "flag", name);
	if (letter != '\0')
		cli_json_str(&j, "letter", l);
	else
		cli_json_null(&j, "letter");
	cli_json_str(&j, "kind", kind);
	cli_json_str(&j, "stored", where);
	cli_json_bool(&j, "readonly", readonly);
	if (state != NULL) {
		cli_json_str(&j, "state", state);
		cli_json_str(&j, "supported", support);
	}
	cli_json_str(&j, "description", descr);
	cli_json_end(&j);
}

static const char *kstored(const struct fattrs_kflag *f)
{
	return f->xflag != 0 && f->iflag != 0 ? "fsxattr+flags" : f->xflag != 0 ? "fsxattr" : "flags";
}

static int list_main(struct setfattrs_control *ctl, const char *file)
{
	struct fattrs_kattr ka;
	struct fattrs_fflags ff = { .unknown = NULL };
	struct fattrs_statx_buf stx;
	const struct fattrs_fcaps *caps = NULL;
	struct plan p = { .path = file, .shown = file, .dirfd = AT_FDCWD, .nofollow = ctl->nofollow };
	const struct fattrs_fskeep *keep = NULL;
	bool kok = false, fok = false;
	size_t nk = n_kflags();
	int r;

	if (file != NULL) {
		r = fattrs_statx(AT_FDCWD, file, ctl->nofollow ? AT_SYMLINK_NOFOLLOW : 0,
				 STATX_TYPE | STATX_INO | STATX_MNT_ID, &stx);
		if (r < 0) {
			cli_warn(-r, _("cannot statx %s"), cli_quote(file));
			return CLI_EXIT_FAILURE;
		}
		/* what its type keeps (NULL: a type not measured, or not known) */
		keep = fattrs_fskeep_find(mount_type(ctl, &stx));
		p.mode = stx.stx_mode;
		p.dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
		r = fattrs_kattr_get(AT_FDCWD, file, ctl->nofollow ? AT_SYMLINK_NOFOLLOW : 0, p.mode,
				     FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &ka);
		if (r < 0 && r != -EOPNOTSUPP) {
			cli_warn(-r, _("cannot read the flags of %s"), cli_quote(file));
			return CLI_EXIT_FAILURE;
		}
		kok = r == 0;
		r = caps_for(ctl, &p, &caps);
		if (r == 0)
			r = fattrs_fflags_get(file, ctl->nofollow, p.mode, caps, &stx, &ff);
		if (r < 0) {
			cli_warn(-r, _("cannot read the fattrs flags of %s"), cli_quote(file));
			return CLI_EXIT_FAILURE;
		}
		fok = true;
	}
	if (!ctl->json) {
		if (file != NULL)
			printf("%-18s %-6s %-25s %-7s %-9s %s\n", "FLAG", "LETTER", "STORED", "STATE", "SUPPORTED",
			       "DESCRIPTION");
		else
			printf("%-18s %-6s %-25s %s\n", "FLAG", "LETTER", "STORED", "DESCRIPTION");
	}
	for (size_t i = 0; i < nk; i++) {
		const struct fattrs_kflag *f = krow(i);
		const char *state = NULL, *support = NULL;
		char where[40];
		int v = -1;

		snprintf(where, sizeof(where), "%s%s", kstored(f), f->readonly ? " (read-only)" : "");
		if (file != NULL) {
			v = kok ? fattrs_kattr_test(&ka, f) : -1;
			state = v == 1 ? "set" : v == 0 ? "clear" : "-";
			/*
			 * The kernel says which flags a file system supports only for
			 * the few statx reports; elsewhere the table of what each
			 * type keeps (measured) tells, and for the rest only trying.
			 */
			int kept = fattrs_fskeep_test(keep, p.mode, f);
			/* statx's DAX bit is the state in effect, in every mask: not the flag */
			uint64_t sx = f->statx_attr == STATX_ATTR_DAX ? 0 : f->statx_attr;

			if (!kok || v < 0)
				support = "no";
			else if (v == 1 || (sx != 0 && (stx.stx_attributes_mask & sx)))
				support = "yes";
			else if (kept >= 0)
				support = kept ? "yes" : "no";
			else if (sx != 0 && (stx.stx_mask & STATX_BASIC_STATS))
				support = f->readonly ? "no" : "maybe";
			else
				support = "maybe";
		}
		if (ctl->json) {
			list_row_json(f->name, f->letter, "kernel", kstored(f), f->readonly, f->description, state,
				      support);
		} else if (file != NULL) {
			printf("%-18s %-6c %-25s %-7s %-9s %s\n", f->name, f->letter != '\0' ? f->letter : '-', where,
			       state, support, f->description);
		} else {
			printf("%-18s %-6c %-25s %s\n", f->name, f->letter != '\0' ? f->letter : '-', where,
			       f->description);
		}
	}
	for (int k = 0; k < FATTRS_NFFLAGS; k++) {
		const struct fattrs_fflag_info *fi = fattrs_fflag_info((enum fattrs_fflag)k);
		const char *state = NULL, *support = NULL;

		if (fok) {
			enum fattrs_fstate s = ff.state[k];

			state = s == FATTRS_FSET ? "set" : s == FATTRS_FCLEAR ? "clear" :
				s == FATTRS_FINVALID ? "invalid" : "-";
			support = s == FATTRS_FUNSUPPORTED ? "no" : "yes";
		}
		if (ctl->json)
			list_row_json(fi->name, '\0', "fattrs", fi->xattr, false, fi->description, state, support);
		else if (file != NULL)
			printf("%-18s %-6c %-25s %-7s %-9s %s\n", fi->name, '-', fi->xattr, state, support,
			       fi->description);
		else
			printf("%-18s %-6c %-25s %s\n", fi->name, '-', fi->xattr, fi->description);
	}
	fattrs_fflags_release(&ff);
	return CLI_EXIT_OK;
}

/* ------------------------------------------------------------ operands */

/* Whether @c is a chattr letter of a kernel flag. */
static bool is_flag_letter(char c)
{
	for (size_t i = 0; c != '\0' && i < n_kflags(); i++) {
		if (krow(i)->letter == c)
			return true;
	}
	return false;
}

/*
 * "-vd", "-Rd": option letters and flag letters in one word, which is then
 * neither options nor an operation: say to split it ("-v -d"), rather
 * than suggest a flag for 'v'.  An option letter that is also a flag's
 * (x, V) counts as the option, as it does alone.
 */
static void mixed_letters(const char *w)
{
	char opts[64] = "-", flags[64] = "-";
	size_t no = 1, nf = 1;

	if (w[0] != '-' || w[1] == '-' || w[1] == '\0' || strlen(w) >= sizeof(opts))
		return;
	for (const char *c = w + 1; *c != '\0'; c++) {
		const char opt[] = { '-', *c, '\0' };

		if (*c != '-' && cli_popt_option_words(options, opt, NULL) == 1)
			opts[no++] = *c;
		else if (is_flag_letter(*c))
			flags[nf++] = *c;
		else
			return;
	}
	if (no == 1 || nf == 1)
		return;
	opts[no] = flags[nf] = '\0';
	cli_usage_error(_("%s mixes options and flag letters: give them as separate words ('%s %s')"), cli_quote(w),
			opts, flags);
}

/* Whether the @len bytes at @s are the word of a size hint flag (extsize...). */
static bool sizehint_named(const char *s, size_t len)
{
	for (size_t i = 0; i < n_kflags(); i++) {
		if (is_sizehint(krow(i)) && strlen(krow(i)->name) == len && memcmp(krow(i)->name, s, len) == 0)
			return true;
	}
	return false;
}

/* The operation @w refused by the parser: a usage error that names the flag. */
__attribute__((noreturn))
static void bad_operation(const char *w, int r, const struct fattrs_flagops_error *e)
{
	if (r == -EINVAL)
		cli_usage_error(_("invalid operation %s: give [+-=]FLAG[,FLAG]..."), cli_quote(w));
	if (r == -EPERM)
		cli_usage_error(_("flag '%.*s' in %s is read-only: it cannot be set or cleared"), (int)e->len,
				w + e->offset, cli_quote(w));
	if (r == -EDOM && w[0] == '-' && sizehint_named(w + e->offset, e->len))
		cli_usage_error(_("flag '%.*s' in %s takes no size when it is cleared: give '-%.*s'"),
				(int)e->len, w + e->offset, cli_quote(w), (int)e->len, w + e->offset);
	if (r == -EDOM)
		cli_usage_error(_("flag '%.*s' in %s takes no size: only extsize, extszinherit and cowextsize do ('+extsize=1m')"),
				(int)e->len, w + e->offset, cli_quote(w));
	if (r == -ERANGE)
		cli_usage_error(_("invalid size '%.*s' in %s: give 1 to 4294967295 bytes, with an optional k, m or g (KiB, MiB, GiB)"),
				(int)e->len, w + e->offset, cli_quote(w));
	mixed_letters(w);
	if (e->suggest != NULL) {
		const char *s = e->suggest;
		const char opt[] = { '-', s[0], '\0' };

		/* "-X": not 'x', which "-x" would be the option; the flag's word, "-dax". */
		if (w[0] == '-' && s[0] != '\0' && s[1] == '\0' && cli_popt_option_words(options, opt, NULL) > 0) {
			for (size_t i = 0; i < n_kflags(); i++) {
				if (krow(i)->letter == s[0])
					s = krow(i)->name;
			}
		}
		cli_usage_error(_("unknown flag '%.*s' in %s; did you mean '%s'? ('%s --list' lists them)"),
				(int)e->len, w + e->offset, cli_quote(w), s, program_name);
	}
	cli_usage_error(_("unknown flag '%.*s' in %s ('%s --list' lists every flag)"), (int)e->len,
			w + e->offset, cli_quote(w), program_name);
}

/*
 * Split argv: options go to popt; a word that starts with '+', '=' or '-'
 * and is no option of ours is an operation ("-i", "-offline"); the rest are
 * files.  Operations come before the files.  After "--" every word is a
 * file when operations came before it; else the words that parse as
 * operations are ones, up to the first that does not.
 */
/*
 * The split argv, reachable from here until exit (a usage error exits with
 * them): volatile, so that the stores are not dropped as never read.
 */
static const char **volatile split_files, **volatile split_popt_argv;
/* The same for the option context: a usage error exits with it in use. */
static volatile poptContext main_pc;

static void split_args(struct setfattrs_control *ctl, int argc, const char **argv, const char **popt_argv,
		       int *ret_popt_argc, const char ***ret_files)
{
	const char **files = split_files = calloc((size_t)argc + 1, sizeof(*files));
	size_t nfiles = 0;
	int np = 0;
	bool dashdash = false, ops_before = false;

	if (files == NULL)
		cli_die(CLI_EXIT_FAILURE, ENOMEM, _("cannot start"));
	popt_argv[np++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		struct fattrs_flagops_error e;
		int words, r;

		if (!dashdash && strcmp(w, "--") == 0) {
			dashdash = true;
			ops_before = !fattrs_flagops_empty(&ctl->ops);
			continue;
		}
		if (!dashdash) {
			words = cli_popt_option_words(options, w, i + 1 < argc ? argv[i + 1] : NULL);
			if (words > 0) {
				popt_argv[np++] = w;
				if (words == 2)
					popt_argv[np++] = argv[++i];
				continue;
			}
		}
		if (nfiles == 0 && (!dashdash || !ops_before) &&
		    (w[0] == '+' || w[0] == '=' || (w[0] == '-' && w[1] != '\0'))) {
			r = fattrs_flagops_parse(&ctl->ops, w, &e);
			if (r == 0) {
				ctl->last_op = w;
				continue;
			}
			if (!dashdash)
				bad_operation(w, r, &e);
			/* A file, unless no operation comes at all: then a mistyped one (see main()). */
			ctl->not_op = w;
			ctl->not_op_r = r;
			ctl->not_op_e = e;
		} else if (!dashdash && nfiles > 0 && (w[0] == '+' || w[0] == '=' || (w[0] == '-' && w[1] != '\0'))) {
			cli_usage_error(_("operation %s after the file %s: give every operation before the files (a file named so: ./%s)"),
					cli_quote(w), cli_quote(files[0]), w);
		}
		files[nfiles++] = w;
		if (dashdash) {
			/* After "--", once a file is seen, every word is one. */
			for (i++; i < argc; i++)
				files[nfiles++] = argv[i];
		}
	}
	popt_argv[np] = NULL;
	*ret_popt_argc = np;
	*ret_files = files;
}

/* Which kinds of flag the operations touch, and whether they contradict each other. */
static void check_ops(struct setfattrs_control *ctl)
{
	size_t nk = n_kflags();

	ctl->kops = ctl->fops = ctl->ops.assign;
	for (size_t i = 0; i < nk; i++) {
		if (ctl->ops.kop[i] != FATTRS_FLAGOP_KEEP)
			ctl->kops = true;
	}
	for (int f = 0; f < FATTRS_NFFLAGS; f++) {
		const struct fattrs_fflag_info *fi = fattrs_fflag_info((enum fattrs_fflag)f);

		if (ctl->ops.fop[f] != FATTRS_FLAGOP_KEEP)
			ctl->fops = true;
		if (ctl->ops.fop[f] == FATTRS_FLAGOP_SET && ctl->ops.fop[fi->opposite] == FATTRS_FLAGOP_SET &&
		    f < (int)fi->opposite)
			cli_usage_error(_("'%s' and '%s' are opposites: a file cannot have both"), fi->name,
					fattrs_fflag_info(fi->opposite)->name);
	}
}

int main(int argc, const char **argv)
{
	struct setfattrs_control ctl = { .nfsteps = -1, .nostat = -1, .cwd = -1, .opdir = -1, .byname = -1 };
	const char **popt_argv, **files, **rest;
	int popt_argc, rc, procfd = -1;
	bool ok = true;

	cli_init(argv[0]);
	fattrs_flagops_init(&ctl.ops);
	popt_argv = split_popt_argv = calloc((size_t)argc + 1, sizeof(*popt_argv));
	if (popt_argv == NULL)
		cli_die(CLI_EXIT_FAILURE, ENOMEM, _("cannot start"));
	split_args(&ctl, argc, argv, popt_argv, &popt_argc, &files);

	poptContext pc = main_pc = cli_popt_context(popt_argc, popt_argv, options, OPERANDS);

	while ((rc = poptGetNextOpt(pc)) > 0) {
		switch (rc) {
		case OPT_DRY_RUN: ctl.dry_run = true; break;
		case OPT_JSON: ctl.json = true; break;
		case OPT_LIST: ctl.list = true; break;
		case OPT_NO_DEREFERENCE: ctl.nofollow = true; break;
		case OPT_ONE_FILE_SYSTEM: ctl.one_fs = true; break;
		case OPT_RECURSIVE: ctl.recursive = true; break;
		case OPT_REFERENCE: ctl.reference = poptGetOptArg(pc); break;
		case OPT_SILENT: ctl.silent = true; break;
		case OPT_VERBOSE: ctl.verbose = true; break;
		case CLI_OPT_VERSION:
			poptFreeContext(pc);
			cli_version();
		}
	}
	if (rc < -1)
		cli_popt_fail(pc, rc);
	rest = poptGetArgs(pc);
	if (rest != NULL && rest[0] != NULL)
		cli_usage_error(_("unexpected operand %s"), cli_quote(rest[0]));

	if (ctl.list) {
		if (!fattrs_flagops_empty(&ctl.ops))
			cli_usage_error(_("--list takes no operations"));
		if (files[0] != NULL && files[1] != NULL)
			cli_usage_error(_("--list takes one FILE at most"));
		rc = list_main(&ctl, files[0]);
		goto out;
	}
	if (ctl.reference != NULL && !fattrs_flagops_empty(&ctl.ops))
		cli_usage_error(_("--reference takes no operations"));
	if (ctl.reference == NULL && fattrs_flagops_empty(&ctl.ops) && ctl.not_op != NULL)
		bad_operation(ctl.not_op, ctl.not_op_r, &ctl.not_op_e);
	if (ctl.reference == NULL && fattrs_flagops_empty(&ctl.ops))
		cli_usage_error(_("missing operation: give +FLAG, -FLAG or =FLAG,... ('%s --list' lists every flag)"),
				program_name);
	if (files[0] == NULL) {
		struct stat st;

		/* "setfattrs +d +d" meant for a file named "+d": say how to name it. */
		if (ctl.last_op != NULL && fstatat(AT_FDCWD, ctl.last_op, &st, AT_SYMLINK_NOFOLLOW) == 0)
			cli_usage_error(_("missing file operand: %s names a flag, so it is taken as an operation; name the file as ./%s (or after a -- that follows the operations)"),
					cli_quote(ctl.last_op), ctl.last_op);
		cli_usage_error(_("missing file operand"));
	}
	if (ctl.reference != NULL)
		reference_ops(&ctl);
	check_ops(&ctl);
	if (ctl.recursive) {
		ctl.cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (ctl.cwd < 0)
			cli_die(CLI_EXIT_FAILURE, errno, _("cannot open the working directory"));
	}

	/*
	 * A pinned file's kernel flags are read and written through its
	 * descriptor's /proc/self/fd link: one name looked up in this
	 * directory instead of four (a missing /proc: the library's own way).
	 */
	if (ctl.kops) {
		procfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (procfd >= 0 && fattrs_kattr_set_procfd(procfd) < 0) {
			(void)close(procfd);
			procfd = -1;
		}
	}
	for (size_t i = 0; files[i] != NULL; i++)
		ok &= setfattrs_operand(&ctl, files[i]);
	(void)back_home(&ctl);
	if (procfd >= 0) {
		(void)fattrs_kattr_set_procfd(-1);
		(void)close(procfd);
	}
	if (ctl.cwd >= 0)
		(void)close(ctl.cwd);
	rc = ok ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
out:
	poptFreeContext(pc);
	free(files);
	free(popt_argv);
	free(ctl.caps);
	free(ctl.kept);
	free((void *)(uintptr_t)ctl.reference);
	fattrs_mounts_free(ctl.mounts);
	return rc;
}
