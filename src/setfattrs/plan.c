/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setfattrs: one file's plan (what each flag becomes, from what the file has and what its
 * filesystem offers), its check under -n, and the run of it, step by step.
 */
#include "config.h"

#include "setfattrs.h"

/* ------------------------------------------------------------ -n */

/* Whether @p's plan clears kernel flag @f (immutable, append: first). */
static bool plan_clears_k(const struct file_plan *p, const char *name)
{
	for (size_t i = 0; i < sf_n_kflags(); i++) {
		if (strcmp(sf_krow(i)->name, name) == 0)
			return p->state[i] == STEP_PENDING && !p->on[i];
	}
	return false;
}

/*
 * -n: which of @p's planned changes would fail, from what the library
 * knows without writing: the flags @a read (NULL: the file keeps none),
 * what the file's mount keeps (the table, through the per-mount cache),
 * where it keeps the fattrs flags, the file's type, the opposites it has,
 * immutable or append set and not cleared first, and the capabilities a
 * change needs.  Each is said as a real run says it, marked failed; the
 * rest stays planned.  False when one would fail.
 */
static bool dry_run_check(struct setfattrs_control *ctl, struct file_plan *p, const struct fattrs_kattr *a, bool fread)
{
	struct fattrs_statx_buf stx;
	struct fattrs_mntinfo mi = { .keeps = NULL };
	struct fattrs_fsupport fsup;
	bool have_fsupport = false;
	const char *type = NULL;
	size_t nk = sf_n_kflags();
	bool have_stx, locked;

	have_stx = fattrs_statx(p->dirfd, p->path, fattrs_at_nofollow(p->nofollow),
				STATX_TYPE | STATX_MODE | STATX_MNT_ID, &stx) == 0;
	if (have_stx && (stx.stx_mask & STATX_MNT_ID))
		(void)sf_mount_info(ctl, stx.stx_mnt_id, &mi);
	type = mi.fstype != NULL ? mi.fstype : "this";
	/* immutable or append set, and not cleared first: every other change fails */
	locked = a != NULL && ((fattrs_kattr_test(a, fattrs_kflag_find("immutable")) == 1 &&
				!plan_clears_k(p, "immutable")) ||
			       (fattrs_kattr_test(a, fattrs_kflag_find("append")) == 1 && !plan_clears_k(p, "append")));
	for (size_t i = 0; i < nk; i++) {
		const struct fattrs_kflag *f = sf_krow(i);
		enum fattrs_fsanswer sup;
		enum fattrs_state st;
		bool locking = fattrs_kflag_locking(f);

		if (p->state[i] != STEP_PENDING)
			continue;
		st = fattrs_kflag_state(f, have_stx ? &stx : NULL, a, a != NULL ? 0 : -EOPNOTSUPP, mi.keeps, &sup);
		if (p->old[i] == (p->on[i] ? FATTRS_STATE_SET : FATTRS_STATE_CLEAR))
			continue;	/* nothing to write */
		p->state[i] = STEP_FAILED;
		if (a == NULL)
			sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: the %s filesystem keeps no attribute flags for a %s"),
				     p->on[i] ? "set" : "clear", f->name, cli_quotef(p->shown), type,
				     sf_type_word(p->mode));
		else if (p->on[i] && st == FATTRS_STATE_UNSUPPORTED)
			sf_fail_flag(ctl, 0, _("cannot set '%s' on %s: the %s filesystem does not support it on a %s"),
				     f->name, cli_quotef(p->shown), type, sf_type_word(p->mode));
		else if (locking && !fattrs_caps_have(CAP_LINUX_IMMUTABLE))
			sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (changing it needs CAP_LINUX_IMMUTABLE)"),
				     p->on[i] ? "set" : "clear", f->name, cli_quotef(p->shown), strerror(EPERM));
		else if (f->iflag == FS_JOURNAL_DATA_FL && !fattrs_caps_have(CAP_SYS_RESOURCE))
			sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (changing it needs CAP_SYS_RESOURCE)"),
				     p->on[i] ? "set" : "clear", f->name, cli_quotef(p->shown), strerror(EPERM));
		else if (!locking && locked &&
			 sf_fail_locked(ctl, p->dirfd, p->path, p->nofollow, p->mode, p->shown, p->on[i], f->name))
			;	/* said */
		else
			p->state[i] = STEP_PENDING;
		p->failed |= p->state[i] == STEP_FAILED;
	}
	/* as a real run: the fattrs flags come after the kernel flags succeeded */
	if (p->failed)
		return false;
	for (int k = 0; k < FATTRS_NFFLAGS; k++) {
		size_t i = nk + (size_t)k;
		const struct fattrs_fflag_info *fi = fattrs_fflag_info((enum fattrs_fflag)k);
		size_t o = nk + (size_t)fi->opposite;

		if (p->state[i] != STEP_PENDING || !fread)
			continue;
		if (!have_fsupport && sf_fsupport_for(ctl, p, &fsup) < 0)
			break;
		have_fsupport = true;
		p->state[i] = STEP_FAILED;
		if (!S_ISREG(p->mode) && !S_ISDIR(p->mode))
			sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: a %s cannot carry it (the kernel keeps user xattrs on regular files and directories only)"),
				     p->on[i] ? "set" : "clear", fi->name, cli_quotef(p->shown), sf_type_word(p->mode));
		else if (!fsup.user_xattr && fsup.native == FATTRS_NATIVE_NONE)
			sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: the %s filesystem has neither user xattrs nor a native attribute word"),
				     p->on[i] ? "set" : "clear", fi->name, cli_quotef(p->shown), type);
		else if (p->on[i] && (p->old[o] == FATTRS_STATE_SET || p->old[o] == FATTRS_STATE_INVALID) &&
			 !(p->state[o] == STEP_PENDING && !p->on[o]))
			sf_fail_flag(ctl, 0, _("cannot set '%s' on %s: its opposite '%s' is set; '-%s +%s' clears it first"),
				     fi->name, cli_quotef(p->shown), fattrs_fflag_info(fi->opposite)->name,
				     fattrs_fflag_info(fi->opposite)->name, fi->name);
		else if (locked &&
			 sf_fail_locked(ctl, p->dirfd, p->path, p->nofollow, p->mode, p->shown, p->on[i], fi->name))
			;	/* said */
		else
			p->state[i] = STEP_PENDING;
		p->failed |= p->state[i] == STEP_FAILED;
	}
	return !p->failed;
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
	/* a name in @dirfd: no path, and not ".." (which may be on another mount) */
	if (!ctl->kops || ctl->dry_run || strchr(path, '/') != NULL || strcmp(path, "..") == 0)
		return false;
	if (ctl->byname < 0)
		ctl->byname = fattrs_kattr_dir_byname(dirfd, fattrs_at_nofollow(nofollow)) == 1;
	return ctl->byname == 1;
}

/*
 * Whether a file not stat'ed (@st NULL) is judged by its directory's
 * mount, where some mount is not trusted (sf_nostat_at()): its changes
 * then go by the name itself and must stay on that mount.
 */
static bool by_dir_mount(const struct setfattrs_control *ctl, const struct stat *st)
{
	return st == NULL && ctl->all_trusted != 1;
}

/* One file's change as the plan step made it, for the apply and report steps. */
struct file_work {
	struct file_plan p;
	struct fattrs_kchange first, last;	/* kernel flags before and after the fattrs flags */
	struct fattrs_kattr kcur;		/* the kernel flags it has, where kread */
	bool kread, fread, fpending;
};

/*
 * The plan step: what each flag of @w's file becomes, from the operations
 * and, where they need it ('=', -v, -n, --json), what the file has now.
 * @st its stat as @nofollow says, or NULL when sf_want_nostat(); @crossed:
 * stat'ed again after its name led off its directory's mount, so its
 * kernel flags not by name again.  False when the file could not be read
 * (said).
 */
static bool plan_file(struct setfattrs_control *ctl, int dirfd, const char *path, const char *shown,
		      const struct stat *st, uint64_t mnt_id, bool nofollow, bool crossed, struct file_work *w)
{
	const struct fattrs_flagops *ops = &ctl->ops;
	struct file_plan *p = &w->p;
	struct fattrs_kchange hard, soft;
	struct fattrs_fflags fcur;
	unsigned atf = fattrs_at_nofollow(nofollow);
	size_t nk = sf_n_kflags();
	int r;

	*p = (struct file_plan){ .path = path, .shown = shown, .dirfd = dirfd, .nofollow = nofollow,
				 .byname = !crossed && dir_byname(ctl, dirfd, path, nofollow) };
	w->kread = w->fread = w->fpending = false;
	p->mode = st != NULL ? st->st_mode : 0;
	p->mnt_id = st != NULL ? mnt_id : 0;
	p->same_mount = by_dir_mount(ctl, st);

	/*
	 * Without '=', -v, -n and --json nothing is read first, and the plan
	 * is the same for every file: made once.
	 */
	if (!(ops->assign || ctl->verbose || ctl->dry_run || ctl->json) && ctl->reused_ready) {
		memcpy(p->on, ctl->reused.on, sizeof(p->on));
		memcpy(p->state, ctl->reused.state, sizeof(p->state));
		memcpy(p->old, ctl->reused.old, sizeof(p->old));
		w->first = ctl->reused_first;
		w->fpending = ctl->reused_fpending;
		return true;
	}
	memset(p->old, FATTRS_STATE_UNKNOWN, sizeof(p->old));
	fcur = (struct fattrs_fflags){ .unknown = NULL };

	/* What the file has now: for '=' (what to clear), -v and -n (old -> new). */
	if (ops->assign || ctl->verbose || ctl->dry_run || ctl->json) {
		if (ctl->kops) {
			r = fattrs_kattr_get(dirfd, path, atf, p->mode, FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS,
					     &w->kcur);
			if (r < 0 && r != -EOPNOTSUPP) {
				sf_fail_flag(ctl, -r, _("cannot read the flags of %s"), cli_quotef(shown));
				sf_report_unread(ctl, shown);
				return false;
			}
			w->kread = r == 0;
		}
		if (ctl->fops) {
			struct fattrs_fsupport fsup;

			r = sf_fsupport_for(ctl, p, &fsup);
			if (r == 0)
				r = fattrs_fflags_get(dirfd, path, atf, p->mode, &fsup, NULL, &fcur);
			if (r < 0) {
				sf_fail_flag(ctl, -r, _("cannot read the fattrs flags of %s"), cli_quotef(shown));
				sf_report_unread(ctl, shown);
				return false;
			}
			w->fread = true;
		}
	}
	for (size_t i = 0; w->kread && i < nk; i++) {
		int v = fattrs_kattr_test(&w->kcur, sf_krow(i));

		/* < 0: the word it lives in cannot be read here (as fattrs_kflag_state() says) */
		p->old[i] = v == 1 ? FATTRS_STATE_SET : v == 0 ? FATTRS_STATE_CLEAR : FATTRS_STATE_UNSUPPORTED;
	}
	if (w->kread && (w->kcur.have & FATTRS_KATTR_XFLAGS)) {
		p->extsize[0] = w->kcur.extsize;
		p->cowextsize[0] = w->kcur.cowextsize;
	}
	for (int f = 0; w->fread && f < FATTRS_NFFLAGS; f++)
		p->old[nk + (size_t)f] = fcur.state[f];
	fattrs_fflags_release(&fcur);

	/* The plan: what is named, and what '=' clears because it is set. */
	fattrs_flagops_kchange(ops, w->kread ? &w->kcur : NULL, &hard, &soft);
	for (size_t i = 0; i < nk; i++) {
		const struct fattrs_kflag *f = sf_krow(i);

		if (ops->kop[i] == FATTRS_FLAGOP_SET || ops->kop[i] == FATTRS_FLAGOP_CLEAR) {
			p->on[i] = ops->kop[i] == FATTRS_FLAGOP_SET;
			p->state[i] = STEP_PENDING;
		} else if (fattrs_kchange_has(&soft, f, false)) {
			p->on[i] = false;
			p->state[i] = STEP_PENDING;
		}
	}
	for (int f = 0; f < FATTRS_NFFLAGS; f++) {
		size_t i = nk + (size_t)f;

		if (ops->fop[f] == FATTRS_FLAGOP_SET || ops->fop[f] == FATTRS_FLAGOP_CLEAR) {
			p->on[i] = ops->fop[f] == FATTRS_FLAGOP_SET;
			p->state[i] = STEP_PENDING;
		} else if (ops->fop[f] == FATTRS_FLAGOP_CLEAR_OTHERS &&
			   (p->old[i] == FATTRS_STATE_SET || p->old[i] == FATTRS_STATE_INVALID)) {
			p->on[i] = false;
			p->state[i] = STEP_PENDING;
		}
		if (p->state[i] == STEP_PENDING)
			w->fpending = true;
	}
	w->first = (struct fattrs_kchange){ .xset = hard.xset, .xclear = hard.xclear | soft.xclear,
					    .iset = hard.iset, .iclear = hard.iclear | soft.iclear,
					    .extsize = hard.extsize, .cowextsize = hard.cowextsize };
	p->extsize[1] = hard.extsize;
	p->cowextsize[1] = hard.cowextsize;
	if (!(ops->assign || ctl->verbose || ctl->dry_run || ctl->json)) {
		memcpy(ctl->reused.on, p->on, sizeof(p->on));
		memcpy(ctl->reused.state, p->state, sizeof(p->state));
		memcpy(ctl->reused.old, p->old, sizeof(p->old));
		ctl->reused_first = w->first;
		ctl->reused_fpending = w->fpending;
		ctl->reused_ready = true;
	}
	return true;
}

/* What the apply step came to. */
enum applied {
	APPLIED,	/* done, or failed and said: the report step says the rest */
	APPLIED_CROSSED,	/* the name led off its directory's mount: stat it, plan again */
	APPLIED_UNSTAT,		/* not stat'ed, and the stat after a failure failed (said): nothing more */
};

/*
 * The apply step: @w's plan, in its order.  Immutable and append are
 * cleared first and set last, so that everything else (the fattrs flags
 * included) can still be changed; without fattrs flags to change, one
 * kernel change does it in that order.  *@ret_ok: nothing failed.
 */
static enum applied apply_file(struct setfattrs_control *ctl, struct file_work *w, bool *ret_ok)
{
	struct file_plan *p = &w->p;
	bool ok;

	w->last = (struct fattrs_kchange){ .xset = 0 };
	if (w->fpending) {
		w->last.xset = w->first.xset & FATTRS_XFLAGS_LOCKING;
		w->first.xset &= ~w->last.xset;
	}
	ok = kernel_apply(ctl, p, &w->first);
	if (p->crossed)
		return APPLIED_CROSSED;
	if (p->unstat)
		return APPLIED_UNSTAT;
	if (ok && w->fpending) {
		struct fattrs_kattr before;
		bool restore = sf_on_overlay(ctl, p) &&
			       fattrs_kattr_get(p->dirfd, p->path, fattrs_at_nofollow(p->nofollow), p->mode,
						FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &before) == 0;

		ok = fflags_apply(ctl, p);
		if (p->crossed)
			return APPLIED_CROSSED;	/* the kernel flags again: idempotent */
		if (p->unstat)
			return APPLIED_UNSTAT;
		if (restore)
			overlay_restore(ctl, p, &before);
		ok = ok && !p->failed;
	}
	if (ok && w->fpending)
		ok = kernel_apply(ctl, p, &w->last);
	if (p->crossed)
		return APPLIED_CROSSED;	/* the fattrs flags again: idempotent */
	*ret_ok = ok;
	return APPLIED;
}

/*
 * Change one file: @path relative to @dirfd, for both kinds of flag, @st
 * its stat as @nofollow says, or NULL when sf_want_nostat(), @mnt_id its
 * mount id from the same call (0: not known).  Plan, apply (or, under -n,
 * check), report.  A file not stat'ed whose name led off its directory's
 * mount (FATTRS_KCHANGE_SAME_MOUNT said so before anything of the change
 * was written), or may lead (a symlink refused a fattrs flag by its name),
 * is stat'ed then, as @nofollow says, and changed again as a stat'ed file
 * is, by what its own mount keeps: a stat'ed file never crosses, so that
 * is the second and last round.
 */
bool setfattrs_file(struct setfattrs_control *ctl, int dirfd, const char *path, const char *shown,
		    const struct stat *st, uint64_t mnt_id, bool nofollow)
{
	struct file_work w;
	struct stat again;
	bool ok = false;

	for (int round = 0; round < 2; round++) {
		if (round == 1) {
			if (fattrs_stat_mnt(dirfd, path, fattrs_at_nofollow(nofollow), &again, &mnt_id) < 0) {
				sf_fail_flag(ctl, errno, _("cannot stat %s"), cli_quotef(shown));
				sf_report_unread(ctl, shown);
				return false;
			}
			st = &again;
		}
		if (!plan_file(ctl, dirfd, path, shown, st, mnt_id, nofollow, round == 1, &w))
			return false;
		if (ctl->dry_run) {
			/*
			 * Nothing is written: each planned flag counts as done, but
			 * for what the library knows would fail here (said as a real
			 * run says it).
			 */
			ok = dry_run_check(ctl, &w.p, w.kread ? &w.kcur : NULL, w.fread);
			/* after a kernel flag that would fail, the fattrs flags are not tried */
			for (size_t i = 0; i < (ok ? sf_n_kflags() + FATTRS_NFFLAGS : sf_n_kflags()); i++) {
				if (w.p.state[i] == STEP_PENDING)
					w.p.state[i] = STEP_APPLIED;
			}
			sf_report(ctl, &w.p);
			return ok;
		}
		switch (apply_file(ctl, &w, &ok)) {
		case APPLIED_CROSSED:
			continue;
		case APPLIED_UNSTAT:
			return false;
		case APPLIED:
			if (!ok)
				sf_report_partial(ctl, &w.p);
			if (ctl->verbose || ctl->json)
				sf_report(ctl, &w.p);
			return ok;
		}
	}
	return false;	/* not reached: a stat'ed file does not cross */
}

/*
 * setfattrs_file() where sf_want_nostat() holds and the run's reused plan
 * changes fattrs flags only (a named file, or a regular file or directory
 * met by -R): each flag's one or two system calls, nothing else per file,
 * with what sf_want_nostat() says of every filesystem (a fattrs flag is its
 * user.* xattr).  The first file of the run made the reused plan, through
 * setfattrs_file(); a file whose change fails goes through it too, which
 * does the change again (each step is idempotent) and says what failed.
 */
static bool setfattrs_fflags_only(struct setfattrs_control *ctl, int dirfd, const char *path, const char *shown,
				  const struct stat *st, uint64_t mnt_id, bool nofollow)
{
	/* by the name itself, as fflag_apply() */
	unsigned atf = fattrs_at_nofollow(nofollow || by_dir_mount(ctl, st));

	for (int k = 0; k < ctl->nfsteps; k++) {
		if (fattrs_fflag_set(dirfd, path, atf, 0, &sf_nostat_fsupport, ctl->fsteps[k].f, ctl->fsteps[k].on,
				     ctl->fsteps[k].flags, NULL) != 0)
			return setfattrs_file(ctl, dirfd, path, shown, st, mnt_id, nofollow);
	}
	return true;
}

/* Whether the reused plan changes fattrs flags only, its steps made once (nfsteps). */
static bool fflags_only(struct setfattrs_control *ctl)
{
	const struct fattrs_kchange *c = &ctl->reused_first;
	size_t nk = sf_n_kflags();

	if (ctl->nfsteps >= 0 || !ctl->reused_ready)
		return ctl->nfsteps > 0;
	ctl->nfsteps = 0;
	if ((c->xset | c->xclear | c->iset | c->iclear) != 0 || !ctl->reused_fpending)
		return false;
	for (size_t i = 0; i < nk; i++) {
		if (ctl->reused.state[i] != STEP_NONE)
			return false;
	}
	/* fflags_apply()'s order: clears first, then sets */
	for (int pass = 0; pass < 2; pass++) {
		for (int f = 0; f < FATTRS_NFFLAGS; f++) {
			size_t i = nk + (size_t)f;
			size_t o = nk + (size_t)fattrs_fflag_info((enum fattrs_fflag)f)->opposite;

			if (ctl->reused.state[i] != STEP_PENDING || ctl->reused.on[i] != (pass == 1))
				continue;
			ctl->fsteps[ctl->nfsteps].f = (enum fattrs_fflag)f;
			ctl->fsteps[ctl->nfsteps].on = pass == 1;
			ctl->fsteps[ctl->nfsteps].flags = ctl->reused.state[o] != STEP_NONE && !ctl->reused.on[o] ?
							  FATTRS_FFLAG_NO_OPPOSITE_CHECK : 0;
			ctl->nfsteps++;
		}
	}
	return ctl->nfsteps > 0;
}

/* Change one file: setfattrs_file(), or setfattrs_fflags_only() where that does the same. */
bool sf_change_file(struct setfattrs_control *ctl, int dirfd, const char *path, const char *shown,
		 const struct stat *st, uint64_t mnt_id, bool nofollow)
{
	if (sf_want_nostat(ctl) && fflags_only(ctl))
		return setfattrs_fflags_only(ctl, dirfd, path, shown, st, mnt_id, nofollow);
	return setfattrs_file(ctl, dirfd, path, shown, st, mnt_id, nofollow);
}
