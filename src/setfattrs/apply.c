/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setfattrs: applying one file's plan, the kernel flags and the fattrs(7) flags, with the
 * read-back policy, and saying what failed.
 */
#include "config.h"

#include "setfattrs.h"

/* ------------------------------------------------------ kernel flags */

/* Re-read the kernel flags after a failed change: what of @c is in effect now. */
static void kernel_settle(struct file_plan *p, const struct fattrs_kchange *c)
{
	struct fattrs_kattr now;
	bool known = fattrs_kattr_get(p->dirfd, p->path, fattrs_at_nofollow(p->nofollow), p->mode,
				      FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &now) == 0;

	for (size_t i = 0; i < sf_n_kflags(); i++) {
		const struct fattrs_kflag *f = sf_krow(i);
		int v;

		if (p->state[i] != STEP_PENDING || !fattrs_kchange_has(c, f, p->on[i]))
			continue;
		v = known ? fattrs_kattr_test(&now, f) : -1;
		p->state[i] = v >= 0 && (v == 1) == p->on[i] ? STEP_APPLIED : STEP_FAILED;
	}
}

/*
 * For a file that was not stat'ed (sf_want_nostat()): its type and mount,
 * after a failed change, for the messages.  False (and said, as before a
 * change) when it cannot be stat'ed.
 */
static bool plan_stat(struct setfattrs_control *ctl, struct file_plan *p)
{
	struct stat st;

	if (p->mode != 0)
		return true;
	if (fattrs_stat_mnt(p->dirfd, p->path, fattrs_at_nofollow(p->nofollow), &st, &p->mnt_id) < 0) {
		sf_fail_flag(ctl, errno, _("cannot stat %s"), cli_quotef(p->shown));
		p->unstat = true;
		return false;
	}
	p->mode = st.st_mode;
	return true;
}

/*
 * Apply @c, the planned kernel flags in it, through the library (its
 * read-back rule and one-flag retries); false when something failed (and
 * said).
 */
bool kernel_apply(struct setfattrs_control *ctl, struct file_plan *p, const struct fattrs_kchange *c)
{
	unsigned atf = fattrs_at_nofollow(p->nofollow);
	struct fattrs_kresult res = { .dropped = { .xset = 0 } };
	struct fattrs_mntcache *mc;
	int r;

	if ((c->xset | c->xclear | c->iset | c->iclear) == 0)
		return true;
	mc = sf_mntcache(ctl);
	r = mc == NULL ? -ENOMEM :
	    fattrs_mntcache_kchange(mc, p->mnt_id, p->dirfd, p->path, atf, p->mode, c,
				    (p->byname ? FATTRS_KCHANGE_BY_NAME : 0) |
				    (p->same_mount ? FATTRS_KCHANGE_SAME_MOUNT : 0), &res);
	if (r == -EXDEV && p->same_mount) {
		p->crossed = true;
		return false;
	}
	if (r < 0 && !plan_stat(ctl, p))
		return false;
	if (r >= 0) {
		for (size_t i = 0; i < sf_n_kflags(); i++) {
			if (p->state[i] == STEP_PENDING && fattrs_kchange_has(c, sf_krow(i), p->on[i]))
				p->state[i] = STEP_APPLIED;
		}
		return true;
	}
	if (r == -EOPNOTSUPP) {
		const char *type = sf_fs_type(ctl, p->dirfd, p->path, p->nofollow);

		for (size_t i = 0; i < sf_n_kflags(); i++) {
			const struct fattrs_kflag *f = sf_krow(i);
			enum fattrs_kfate fate;

			if (p->state[i] != STEP_PENDING || !fattrs_kchange_has(c, f, p->on[i]))
				continue;
			/* refused outright, or said yes to and read back otherwise */
			fate = fattrs_kresult_fate(&res, f, p->on[i]);
			if (fate == FATTRS_KFATE_DONE) {
				p->state[i] = STEP_APPLIED;
				continue;
			}
			/* --reference: a flag this file's filesystem cannot hold is left out. */
			if (ctl->reference != NULL && p->on[i]) {
				p->state[i] = STEP_NONE;
				continue;
			}
			p->state[i] = STEP_FAILED;
			p->failed = true;
			if (res.no_flags)
				sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: the %s filesystem keeps no attribute flags for a %s"),
					  p->on[i] ? "set" : "clear", f->name, cli_quotef(p->shown), type,
					  sf_type_word(p->mode));
			else if (p->on[i] && sf_is_sizehint(f) && strcmp(type, "xfs") == 0 &&
				 ((f->xflag & FS_XFLAG_COWEXTSIZE) ? c->cowextsize : c->extsize) == 0)
				sf_fail_flag(ctl, 0, _("cannot set '%s' on %s: xfs keeps it only with a size hint: '+%s=SIZE'"),
					  f->name, cli_quotef(p->shown), f->name);
			else if (fate == FATTRS_KFATE_REFUSED)
				sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (the %s filesystem does not support it on a %s)"),
					  p->on[i] ? "set" : "clear", f->name, cli_quotef(p->shown), strerror(EOPNOTSUPP),
					  type, sf_type_word(p->mode));
			else
				sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: the %s filesystem did not keep it (on a %s)"),
					  p->on[i] ? "set" : "clear", f->name, cli_quotef(p->shown), type,
					  sf_type_word(p->mode));
		}
		return !p->failed;
	}
	p->failed = true;
	kernel_settle(p, c);
	for (size_t i = 0; i < sf_n_kflags(); i++) {
		const struct fattrs_kflag *f = sf_krow(i);

		if (p->state[i] != STEP_FAILED || !fattrs_kchange_has(c, f, p->on[i]))
			continue;
		if (r == -EPERM && fattrs_kflag_locking(f) && !fattrs_caps_have(CAP_LINUX_IMMUTABLE))
			sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (changing it needs CAP_LINUX_IMMUTABLE)"),
				  p->on[i] ? "set" : "clear", f->name, cli_quotef(p->shown), strerror(EPERM));
		else if (r == -EPERM && f->iflag == FS_JOURNAL_DATA_FL && !fattrs_caps_have(CAP_SYS_RESOURCE))
			sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (changing it needs CAP_SYS_RESOURCE)"),
				  p->on[i] ? "set" : "clear", f->name, cli_quotef(p->shown), strerror(EPERM));
		else if (r == -EPERM && !fattrs_kflag_locking(f) &&
			 sf_fail_locked(ctl, p->dirfd, p->path, p->nofollow, p->mode, p->shown, p->on[i], f->name))
			;	/* said */
		else if (r == -EINVAL)
			sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (the %s filesystem refuses it on this %s, or with the other flags it has or is given)"),
				  p->on[i] ? "set" : "clear", f->name, cli_quotef(p->shown), strerror(EINVAL),
				  sf_fs_type(ctl, p->dirfd, p->path, p->nofollow), sf_type_word(p->mode));
		else
			sf_fail_flag(ctl, -r, _("cannot %s '%s' on %s"), p->on[i] ? "set" : "clear", f->name,
				  cli_quotef(p->shown));
	}
	return false;
}

/* ------------------------------------------------------ fattrs flags */

static bool fflag_apply(struct setfattrs_control *ctl, struct file_plan *p, enum fattrs_fflag f, bool opp_cleared)
{
	size_t i = sf_n_kflags() + (size_t)f;
	struct fattrs_fsupport fsup;
	const struct fattrs_fflag_info *fi = fattrs_fflag_info(f);
	int r;

	r = sf_fsupport_for(ctl, p, &fsup);
	if (r == 0)
		r = fattrs_fflag_set(p->dirfd, p->path, fattrs_at_nofollow(p->nofollow || p->same_mount), p->mode,
				     &fsup, f, p->on[i], opp_cleared ? FATTRS_FFLAG_NO_OPPOSITE_CHECK : 0, NULL);
	if (r == 0) {
		p->state[i] = STEP_APPLIED;
		return true;
	}
	/* by the name itself, which a symlink refuses (EPERM): where it leads is looked at */
	if (r == -EPERM && p->same_mount && !p->nofollow) {
		p->crossed = true;
		return false;
	}
	/* Not stat'ed: its type, for the message (a missing file is said so here). */
	if (!plan_stat(ctl, p)) {
		p->state[i] = STEP_FAILED;
		p->failed = true;
		return false;
	}
	/* --reference: a flag this file cannot carry is left out. */
	if (ctl->reference != NULL && p->on[i] &&
	    (r == -EOPNOTSUPP || (r == -EPERM && !S_ISREG(p->mode) && !S_ISDIR(p->mode)))) {
		p->state[i] = STEP_NONE;
		return true;
	}
	p->state[i] = STEP_FAILED;
	p->failed = true;
	if (r == -EEXIST) {
		const char *opp = fattrs_fflag_info(fi->opposite)->name;

		sf_fail_flag(ctl, 0, _("cannot set '%s' on %s: its opposite '%s' is set; '-%s +%s' clears it first"),
			  fi->name, cli_quotef(p->shown), opp, opp, fi->name);
	} else if (r == -EBUSY) {
		sf_fail_flag(ctl, 0, _("cannot set '%s' on %s: another process set its opposite '%s' at the same time, so '%s' was taken back"),
			     fi->name, cli_quotef(p->shown), fattrs_fflag_info(fi->opposite)->name, fi->name);
	} else if (r == -EPERM && !S_ISREG(p->mode) && !S_ISDIR(p->mode)) {
		sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: a %s cannot carry it (the kernel keeps user xattrs on regular files and directories only)"),
			  p->on[i] ? "set" : "clear", fi->name, cli_quotef(p->shown), sf_type_word(p->mode));
	} else if (r == -EOPNOTSUPP) {
		sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: the %s filesystem has neither user xattrs nor a native attribute word"),
			  p->on[i] ? "set" : "clear", fi->name, cli_quotef(p->shown),
			  sf_fs_type(ctl, p->dirfd, p->path, p->nofollow));
	} else if (r == -EPERM && sf_fail_locked(ctl, p->dirfd, p->path, p->nofollow, p->mode, p->shown, p->on[i],
					      fi->name)) {
		/* said */
	} else if (r == -EIO && !p->on[i]) {
		sf_fail_flag(ctl, 0, _("cannot clear '%s' on %s: the %s filesystem kept it in its native attribute word"),
			  fi->name, cli_quotef(p->shown), sf_fs_type(ctl, p->dirfd, p->path, p->nofollow));
	} else {
		sf_fail_flag(ctl, -r, _("cannot %s '%s' on %s"), p->on[i] ? "set" : "clear", fi->name,
			  cli_quotef(p->shown));
	}
	return false;
}

/*
 * On overlayfs the first change of an xattr of a lower file copies it up,
 * and copy-up keeps only sync, noatime, append and immutable of its
 * kernel flags (fs/overlayfs/copy_up.c): nodump, nocow and the rest
 * vanish.  Put back what @before had and the copy-up took, so that a
 * fattrs flag never costs the file another flag; say it when that fails.
 */
void overlay_restore(struct setfattrs_control *ctl, struct file_plan *p, const struct fattrs_kattr *before)
{
	struct fattrs_kchange lost = { .xset = 0 };
	int r = fattrs_kattr_restore(p->dirfd, p->path, fattrs_at_nofollow(p->nofollow), p->mode, before, &lost);

	if (r >= 0 || (lost.xset | lost.iset) == 0)
		return;
	p->failed = true;
	for (size_t i = 0; i < sf_n_kflags(); i++) {
		if (fattrs_kchange_has(&lost, sf_krow(i), true))
			sf_fail_flag(ctl, -r, _("cannot set '%s' on %s again after the overlayfs copy-up dropped it"),
				  sf_krow(i)->name, cli_quotef(p->shown));
	}
}

/* Whether the plan clears @f (by name, or as '=' does when it is set). */
static bool plan_clears(const struct file_plan *p, enum fattrs_fflag f)
{
	size_t i = sf_n_kflags() + (size_t)f;

	return p->state[i] != STEP_NONE && !p->on[i];
}

/* Clears first (so an opposite is gone before its flag is set), then sets. */
bool fflags_apply(struct setfattrs_control *ctl, struct file_plan *p)
{
	size_t base = sf_n_kflags();

	for (int pass = 0; pass < 2; pass++) {
		for (int f = 0; f < FATTRS_NFFLAGS; f++) {
			size_t i = base + (size_t)f;

			if (p->state[i] != STEP_PENDING || p->on[i] != (pass == 1))
				continue;
			if (!fflag_apply(ctl, p, (enum fattrs_fflag)f,
					 plan_clears(p, fattrs_fflag_info((enum fattrs_fflag)f)->opposite)))
				return false;
		}
	}
	return true;
}
