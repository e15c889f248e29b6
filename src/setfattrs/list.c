/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setfattrs --list: every flag, and with a FILE whether it is set there and
 * whether the file's filesystem can hold it.
 */
#include "config.h"

#include "setfattrs.h"

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

/* The SUPPORTED column's word of @a. */
static const char *support_word(enum fattrs_fsanswer a)
{
	return a == FATTRS_FS_YES ? "yes" : a == FATTRS_FS_NO ? "no" : "maybe";
}

int sf_list_main(struct setfattrs_control *ctl, const char *file)
{
	struct fattrs_kattr ka;
	struct fattrs_fflags ff = { .unknown = NULL };
	struct fattrs_statx_buf stx;
	struct fattrs_mntinfo mi = { .keeps = NULL };
	struct fattrs_fsupport fsup;
	struct file_plan p = { .path = file, .shown = file, .dirfd = AT_FDCWD, .nofollow = ctl->nofollow };
	bool fok = false;
	size_t nk = sf_n_kflags();
	int r, kerr = 0;

	if (file != NULL) {
		r = fattrs_statx(AT_FDCWD, file, fattrs_at_nofollow(ctl->nofollow),
				 STATX_TYPE | STATX_INO | STATX_MNT_ID, &stx);
		if (r < 0) {
			cli_warn(-r, _("cannot statx %s"), cli_quotef(file));
			return CLI_EXIT_FAILURE;
		}
		/* what its mount keeps (keeps NULL: a type not measured, or not known) */
		if (stx.stx_mask & STATX_MNT_ID)
			(void)sf_mount_info(ctl, stx.stx_mnt_id, &mi);
		p.mode = stx.stx_mode;
		p.mnt_id = (stx.stx_mask & STATX_MNT_ID) ? stx.stx_mnt_id : 0;
		kerr = fattrs_kattr_get(AT_FDCWD, file, fattrs_at_nofollow(ctl->nofollow), p.mode,
					FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &ka);
		if (kerr < 0 && kerr != -EOPNOTSUPP) {
			cli_warn(-kerr, _("cannot read the flags of %s"), cli_quotef(file));
			return CLI_EXIT_FAILURE;
		}
		r = sf_fsupport_for(ctl, &p, &fsup);
		if (r == 0)
			r = fattrs_fflags_get(AT_FDCWD, file, fattrs_at_nofollow(ctl->nofollow), p.mode, &fsup, &stx,
					      &ff);
		if (r < 0) {
			cli_warn(-r, _("cannot read the fattrs flags of %s"), cli_quotef(file));
			return CLI_EXIT_FAILURE;
		}
		fok = true;
	}
	if (!ctl->json) {
		if (file != NULL)
			printf("%-18s %-6s %-25s %-11s %-9s %s\n", "FLAG", "LETTER", "STORED", "STATE", "SUPPORTED",
			       "DESCRIPTION");
		else
			printf("%-18s %-6s %-25s %s\n", "FLAG", "LETTER", "STORED", "DESCRIPTION");
	}
	for (size_t i = 0; i < nk; i++) {
		const struct fattrs_kflag *f = sf_krow(i);
		const char *state = NULL, *support = NULL;
		char where[40];

		snprintf(where, sizeof(where), "%s%s", kstored(f), f->readonly ? " (read-only)" : "");
		if (file != NULL) {
			/* the library's one answer, as xstat's fields have it */
			enum fattrs_fsanswer sup;

			state = fattrs_state_name(fattrs_kflag_state(f, &stx, kerr == 0 ? &ka : NULL, kerr,
								       mi.keeps, &sup));
			support = support_word(sup);
		}
		if (ctl->json) {
			list_row_json(f->name, f->letter, "kernel", kstored(f), f->readonly, f->description, state,
				      support);
		} else if (file != NULL) {
			printf("%-18s %-6c %-25s %-11s %-9s %s\n", f->name, f->letter != '\0' ? f->letter : '-', where,
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
			enum fattrs_state s = ff.state[k];

			state = fattrs_state_name(s);
			support = s == FATTRS_STATE_UNSUPPORTED ? "no" : "yes";
		}
		if (ctl->json)
			list_row_json(fi->name, '\0', "fattrs", fi->xattr, false, fi->description, state, support);
		else if (file != NULL)
			printf("%-18s %-6c %-25s %-11s %-9s %s\n", fi->name, '-', fi->xattr, state, support,
			       fi->description);
		else
			printf("%-18s %-6c %-25s %s\n", fi->name, '-', fi->xattr, fi->description);
	}
	fattrs_fflags_release(&ff);
	return CLI_EXIT_OK;
}
