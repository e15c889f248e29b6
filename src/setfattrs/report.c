/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setfattrs: what is said of a file: its failures, -v and -n lines, and the
 * --json records.
 */
#include "config.h"

#include "setfattrs.h"

/* ------------------------------------------------------------ messages */

__attribute__((format(printf, 3, 4)))
void sf_fail_flag(const struct setfattrs_control *ctl, int err, const char *fmt, ...)
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

	if (fattrs_kattr_get(dirfd, path, fattrs_at_nofollow(nofollow), mode,
			     FATTRS_KATTR_XFLAGS | FATTRS_KATTR_IFLAGS, &a) < 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (fattrs_kflag_locking(&t[i]) &&
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
bool sf_fail_locked(struct setfattrs_control *ctl, int dirfd, const char *path, bool nofollow, mode_t mode,
		 const char *shown, bool on, const char *name)
{
	const char *letter, *locked = locked_by(dirfd, path, nofollow, mode, &letter);

	if (locked == NULL)
		return false;
	/* Only a process with CAP_LINUX_IMMUTABLE can clear it: '-i' would fail too. */
	if (!fattrs_caps_have(CAP_LINUX_IMMUTABLE))
		sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (the file is %s, and clearing that needs CAP_LINUX_IMMUTABLE, which this process lacks: ask an administrator to run 'setfattrs -%s' on it)"),
			     on ? "set" : "clear", name, cli_quotef(shown), strerror(EPERM), locked, letter);
	else
		sf_fail_flag(ctl, 0, _("cannot %s '%s' on %s: %s (the file is %s; '-%s %c%s' clears that first)"),
			     on ? "set" : "clear", name, cli_quotef(shown), strerror(EPERM), locked, letter,
			     on ? '+' : '-', name);
	return true;
}

/* "+nodump -append" for the flags in @state @which (STEP_NONE: every planned one). */
static char *plan_words(const struct file_plan *p, enum step_state which)
{
	size_t n = sf_n_kflags() + FATTRS_NFFLAGS, len = 1;
	char *s, *q;

	for (size_t i = 0; i < n; i++)
		len += strlen(sf_flag_name(i)) + 2;
	s = q = malloc(len);
	if (s == NULL)
		return NULL;
	*q = '\0';
	for (size_t i = 0; i < n; i++) {
		if (p->state[i] == STEP_NONE || (which != STEP_NONE && p->state[i] != which))
			continue;
		q += sprintf(q, "%s%c%s", q == s ? "" : " ", p->on[i] ? '+' : '-', sf_flag_name(i));
	}
	return s;
}

/* ------------------------------------------------------------ reporting */

/*
 * The size hint row @i of @p changed to, as (@ret_old, @ret_new): true
 * when a size was given with the flag's set and differs from what the
 * file had.
 */
static bool size_changed(const struct file_plan *p, size_t i, uint32_t *ret_old, uint32_t *ret_new)
{
	const struct fattrs_kflag *f;
	bool cow;

	if (i >= sf_n_kflags() || !p->on[i] || p->state[i] != STEP_APPLIED)
		return false;
	f = sf_krow(i);
	if (!sf_is_sizehint(f))
		return false;
	cow = (f->xflag & FS_XFLAG_COWEXTSIZE) != 0;
	*ret_old = cow ? p->cowextsize[0] : p->extsize[0];
	*ret_new = cow ? p->cowextsize[1] : p->extsize[1];
	return *ret_new != 0 && *ret_new != *ret_old;
}

void sf_report(struct setfattrs_control *ctl, const struct file_plan *p)
{
	uint32_t sold, snew;

	size_t n = sf_n_kflags() + FATTRS_NFFLAGS;
	struct cli_json j;
	bool any = false;

	if (ctl->json) {
		cli_json_begin(&j, stdout);
		cli_json_str(&j, "file", p->shown);
		cli_json_bool(&j, "dry_run", ctl->dry_run);
		cli_json_bool(&j, "ok", !p->failed);
		cli_json_array_begin(&j, "changed");
		for (size_t i = 0; i < n; i++) {
			enum fattrs_state new = p->on[i] ? FATTRS_STATE_SET : FATTRS_STATE_CLEAR;
			bool sized = size_changed(p, i, &sold, &snew);

			if (p->state[i] != STEP_APPLIED || (p->old[i] == new && !sized))
				continue;
			cli_json_elem(&j);
			cli_json_object_begin(&j, NULL);
			cli_json_str(&j, "flag", sf_flag_name(i));
			cli_json_str(&j, "old", fattrs_state_name(p->old[i]));
			cli_json_str(&j, "new", fattrs_state_name(new));
			if (sized) {
				cli_json_uint(&j, "old_size", sold);
				cli_json_uint(&j, "new_size", snew);
			}
			cli_json_object_end(&j);
		}
		cli_json_array_end(&j);
		cli_json_array_begin(&j, "not_applied");
		for (size_t i = 0; i < n; i++) {
			char op[64];

			if (p->state[i] != STEP_FAILED && p->state[i] != STEP_PENDING)
				continue;
			(void)snprintf(op, sizeof(op), "%c%s", p->on[i] ? '+' : '-', sf_flag_name(i));
			cli_json_elem(&j);
			cli_json_str(&j, NULL, op);
		}
		cli_json_array_end(&j);
		cli_json_end(&j);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		enum fattrs_state new = p->on[i] ? FATTRS_STATE_SET : FATTRS_STATE_CLEAR;
		bool sized = size_changed(p, i, &sold, &snew);

		if (p->state[i] != STEP_APPLIED || (p->old[i] == new && !sized))
			continue;
		if (!any)
			printf("%s %s: ", ctl->dry_run ? _("would change") : _("changed"), cli_name(p->shown));
		printf("%s%s: %s -> %s", any ? ", " : "", sf_flag_name(i), fattrs_state_name(p->old[i]),
		       fattrs_state_name(new));
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
void sf_report_unread(struct setfattrs_control *ctl, const char *shown)
{
	struct file_plan p = { .shown = shown, .failed = true };
	size_t nk = sf_n_kflags();

	if (!ctl->json)
		return;
	memset(p.old, FATTRS_STATE_UNKNOWN, sizeof(p.old));
	for (size_t i = 0; i < nk; i++) {
		if (ctl->ops.kop[i] == FATTRS_FLAGOP_SET || ctl->ops.kop[i] == FATTRS_FLAGOP_CLEAR) {
			p.on[i] = ctl->ops.kop[i] == FATTRS_FLAGOP_SET;
			p.state[i] = STEP_PENDING;
		}
	}
	for (int f = 0; f < FATTRS_NFFLAGS; f++) {
		if (ctl->ops.fop[f] == FATTRS_FLAGOP_SET || ctl->ops.fop[f] == FATTRS_FLAGOP_CLEAR) {
			p.on[nk + (size_t)f] = ctl->ops.fop[f] == FATTRS_FLAGOP_SET;
			p.state[nk + (size_t)f] = STEP_PENDING;
		}
	}
	sf_report(ctl, &p);
}

/*
 * After a failure, when the file was changed in part or some operation was
 * not even tried: exactly what was and was not applied to it.
 */
void sf_report_partial(const struct setfattrs_control *ctl, const struct file_plan *p)
{
	char *done = plan_words(p, STEP_APPLIED), *failed = plan_words(p, STEP_FAILED);
	char *pending = plan_words(p, STEP_PENDING);

	if (done == NULL || failed == NULL || pending == NULL) {
		cli_warn(ENOMEM, _("%s: cannot say what was applied"), cli_quotef(p->shown));
	} else if ((*done != '\0' || *pending != '\0') && !ctl->silent) {
		cli_warn(0, _("%s: applied %s%s%s; failed '%s'%s%s%s"), cli_quotef(p->shown),
			 *done != '\0' ? "'" : "", *done != '\0' ? done : _("nothing"), *done != '\0' ? "'" : "",
			 failed, *pending != '\0' ? _("; not tried '") : "", pending, *pending != '\0' ? "'" : "");
	}
	free(done);
	free(failed);
	free(pending);
}
