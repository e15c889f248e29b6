/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setfattrs: each operand, the walk of -R below it, and the operations that
 * --reference makes from RFILE.
 */
#include "config.h"

#include "setfattrs.h"

/* ------------------------------------------------------------ -R */

static void walk_error(const char *path, int err, enum fattrs_walk_err what, void *arg)
{
	struct setfattrs_control *ctl = arg;

	ctl->ok = false;
	if (what == FATTRS_WALK_ERR_BACK && err == -ESTALE)
		sf_fail_flag(ctl, 0, _("cannot go back up from %s: it was moved during the walk; the rest of %s is left alone"),
			  cli_quotef(path), cli_quotef(ctl->operand));
	else if (what == FATTRS_WALK_ERR_ENTRY)
		sf_fail_flag(ctl, -err, _("cannot access %s"), cli_quotef(path));
	else if (what == FATTRS_WALK_ERR_REPLACED)
		sf_fail_flag(ctl, 0, _("cannot enter %s: it was replaced during the walk; what is below it is left alone"),
			     cli_quotef(path));
	else
		sf_fail_flag(ctl, -err, _("cannot read directory %s"), cli_quotef(path));
}

/*
 * One name inside a tree: regular files and directories are changed;
 * symlinks (never followed), fifos, sockets and devices met inside are
 * left alone.  Every flag goes by the walk's directory descriptor and the
 * name in it; messages name the file by its path from the operand.
 */
static int walk_entry(const struct fattrs_walk_entry *e, void *arg)
{
	struct setfattrs_control *ctl = arg;

	if (!S_ISREG(e->type) && !S_ISDIR(e->type))
		return 0;
	/* whether changes go by name is asked once per directory */
	if (ctl->dir_serial != e->dir_serial) {
		ctl->dir_serial = e->dir_serial;
		ctl->byname = -1;
	}
	if (!sf_change_file(ctl, e->dirfd, e->name, e->path, e->st, e->mnt_id, true))
		ctl->ok = false;
	return 0;
}

/* Done with a walk or an operand's directory: what was known of it is forgotten. */
void sf_leave_dir(struct setfattrs_control *ctl)
{
	if (ctl->opdir >= 0) {
		(void)close(ctl->opdir);
		ctl->nostat = -1;	/* it was the opdir's */
		ctl->byname = -1;
	}
	ctl->opdir = -1;
	if (ctl->dir_serial != 0)
		ctl->byname = -1;
	ctl->dir_serial = 0;
}

/*
 * Where an operand is changed from: its directory, entered once for
 * consecutive operands in the same one, and its last name.  Each call
 * then looks up one name instead of the whole path again, and where
 * nobody else can change that directory the kernel flags go by that name
 * (dir_byname()).  An operand without a directory part is changed from
 * the working directory; one ending in "/", "." or "..", or whose
 * directory cannot be opened, by its whole path (which then says what is
 * wrong).
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
	sf_leave_dir(ctl);
	if (slash == NULL || name[0] == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return;
	dir = strndup(file, len > 0 ? len : 1);	/* "/f": "/" */
	if (dir == NULL)
		return;
	fd = openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return;
	ctl->byname = -1;
	ctl->opdir = fd;
	ctl->nostat = -1;
	ctl->opdir_name = file;
	ctl->opdir_len = len;
	*ret_dirfd = fd;
	*ret_name = name;
}

/* One operand: the file itself, then, with -R and a directory, everything below it. */
bool setfattrs_operand(struct setfattrs_control *ctl, const char *file)
{
	uint64_t mnt_id;
	struct stat st, now;
	const char *name;
	bool ok;
	int dirfd, fd, r;

	operand_dir(ctl, file, &dirfd, &name);
	if (!ctl->recursive) {
		/* a path or "..": not (only) in dirfd's mount and those below it */
		bool away = strchr(name, '/') != NULL || strcmp(name, "..") == 0;

		if (ctl->nostat < 0 || away)
			sf_nostat_at(ctl, dirfd, away);
		if (sf_want_nostat(ctl)) {
			ok = sf_change_file(ctl, dirfd, name, file, NULL, 0, ctl->nofollow);
			if (away)
				ctl->nostat = -1;
			return ok;
		}
		if (away)
			ctl->nostat = -1;
	}
	if (fattrs_stat_mnt(dirfd, name, fattrs_at_nofollow(ctl->nofollow), &st, &mnt_id) < 0) {
		sf_fail_flag(ctl, errno, _("cannot stat %s"), cli_quotef(file));
		sf_report_unread(ctl, file);
		return false;
	}
	ok = setfattrs_file(ctl, dirfd, name, file, &st, mnt_id, ctl->nofollow);
	if (!ctl->recursive || !S_ISDIR(st.st_mode))
		return ok;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK |
		    (ctl->nofollow ? O_NOFOLLOW : 0));
	if (fd < 0) {
		sf_fail_flag(ctl, errno, _("cannot open directory %s"), cli_quotef(file));
		return false;
	}
	/* The directory just changed, or none: one put in its place meanwhile is not walked. */
	if (fstat(fd, &now) < 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
		sf_fail_flag(ctl, 0, _("cannot walk %s: it was replaced after it was changed; what is below it is left alone"),
			     cli_quotef(file));
		(void)close(fd);
		return false;
	}
	ctl->ok = true;
	ctl->operand = file;
	ctl->byname = -1;
	/* what the walk meets: @fd's mount and those below it, no symlink followed */
	sf_nostat_at(ctl, fd, false);
	r = fattrs_walk(fd, file, (ctl->one_fs ? FATTRS_WALK_XDEV : 0) | (sf_want_nostat(ctl) ? FATTRS_WALK_LAZY : 0),
			walk_entry, walk_error, ctl);
	ctl->nostat = -1;	/* it was @fd's */
	(void)close(fd);
	sf_leave_dir(ctl);
	if (r < 0 && r != -ESTALE) {
		sf_fail_flag(ctl, -r, _("cannot walk %s"), cli_quotef(file));
		return false;
	}
	return ok && ctl->ok && r == 0;
}

/* ------------------------------------------------------------ --reference */

/*
 * The operations that make a file's flags RFILE's: '=' of what RFILE has
 * set, among the flags RFILE's filesystem can hold (the others are left as they are).
 */
void sf_reference_ops(struct setfattrs_control *ctl)
{
	const char *rfile = ctl->reference;
	struct fattrs_kattr ka;
	struct fattrs_fflags ff = { .unknown = NULL };
	struct fattrs_fsupport fsup;
	struct fattrs_statx_buf stx;
	struct fattrs_mntinfo mi = { .keeps = NULL };
	struct file_plan p = { .path = rfile, .shown = rfile, .dirfd = AT_FDCWD, .nofollow = ctl->nofollow };
	size_t nk = sf_n_kflags();
	int r, kerr;

	r = fattrs_statx(AT_FDCWD, rfile, fattrs_at_nofollow(ctl->nofollow),
			 STATX_TYPE | STATX_INO | STATX_MNT_ID, &stx);
	if (r < 0)
		cli_die(CLI_EXIT_FAILURE, -r, _("cannot stat %s"), cli_quotef(rfile));
	p.mode = stx.stx_mode;
	p.mnt_id = (stx.stx_mask & STATX_MNT_ID) ? stx.stx_mnt_id : 0;
	/* what RFILE's mount keeps (keeps NULL: a type not measured, or not known) */
	if (stx.stx_mask & STATX_MNT_ID)
		(void)sf_mount_info(ctl, stx.stx_mnt_id, &mi);
	kerr = fattrs_kattr_get(AT_FDCWD, rfile, fattrs_at_nofollow(ctl->nofollow), p.mode,
				FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &ka);
	if (kerr < 0 && kerr != -EOPNOTSUPP)
		cli_die(CLI_EXIT_FAILURE, -kerr, _("cannot read the flags of %s"), cli_quotef(rfile));
	r = sf_fsupport_for(ctl, &p, &fsup);
	if (r == 0)
		r = fattrs_fflags_get(AT_FDCWD, rfile, fattrs_at_nofollow(ctl->nofollow), p.mode, &fsup, NULL, &ff);
	if (r < 0)
		cli_die(CLI_EXIT_FAILURE, -r, _("cannot read the fattrs flags of %s"), cli_quotef(rfile));
	fattrs_flagops_init(&ctl->ops);
	ctl->ops.assign = true;
	for (size_t i = 0; i < nk; i++) {
		const struct fattrs_kflag *f = sf_krow(i);
		/* the library's one answer: a flag RFILE's filesystem cannot hold reads unsupported */
		enum fattrs_state s = fattrs_kflag_state(f, &stx, kerr == 0 ? &ka : NULL, kerr, mi.keeps, NULL);

		if (f->readonly || (s != FATTRS_STATE_SET && s != FATTRS_STATE_CLEAR))
			ctl->ops.kop[i] = FATTRS_FLAGOP_LEAVE;
		else
			ctl->ops.kop[i] = s == FATTRS_STATE_SET ? FATTRS_FLAGOP_SET : FATTRS_FLAGOP_CLEAR_OTHERS;
		/* an xfs size hint is its flag and its size: both are copied */
		if (s == FATTRS_STATE_SET && sf_is_sizehint(f) && (ka.have & FATTRS_KATTR_XFLAGS))
			ctl->ops.ksize[i] = (f->xflag & FS_XFLAG_COWEXTSIZE) ? ka.cowextsize : ka.extsize;
	}
	for (int f = 0; f < FATTRS_NFFLAGS; f++) {
		enum fattrs_state s = ff.state[f];

		ctl->ops.fop[f] = s == FATTRS_STATE_SET ? FATTRS_FLAGOP_SET :
				  s == FATTRS_STATE_CLEAR ? FATTRS_FLAGOP_CLEAR_OTHERS : FATTRS_FLAGOP_LEAVE;
	}
	fattrs_fflags_release(&ff);
}
