/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tmpcreate --probe: what each directory's filesystem supports, for people or as JSON. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tmpcreate.h"

static void probe_print(const char *dir, const struct fattrs_probe *p,
			const struct fattrs_mount *mnt, bool json)
{
	char why[256];
	const char *reason = why_words(p->why, p->tmpfile_errno, why, sizeof(why));

	if (json) {
		struct cli_json j;

		cli_json_begin(&j, stdout);
		cli_json_str(&j, "dir", dir);
		cli_json_str(&j, "fstype", mnt != NULL ? mnt->fstype : NULL);
		cli_json_str(&j, "mount_point", mnt != NULL ? mnt->target : NULL);
		cli_json_str(&j, "source", mnt != NULL ? mnt->source : NULL);
		cli_json_bool(&j, "o_tmpfile", p->tmpfile_errno == 0);
		cli_json_str(&j, "o_tmpfile_error", p->tmpfile_errno ? strerror(p->tmpfile_errno) : NULL);
		if (p->tmpfile_errno == 0)
			cli_json_str(&j, "link", link_names[p->link_via]);
		else
			cli_json_null(&j, "link");
		if (p->create_errno != 0)
			cli_json_null(&j, "rename_noreplace");
		else
			cli_json_bool(&j, "rename_noreplace", p->noreplace_errno == 0);
		if (p->create_errno != 0)
			cli_json_null(&j, "hard_links");
		else
			cli_json_bool(&j, "hard_links", p->hardlink_errno == 0);
		if (p->create_errno != 0 && p->tmpfile_errno != 0)
			cli_json_null(&j, "user_xattr");
		else
			cli_json_bool(&j, "user_xattr", p->xattr_errno == 0);
		cli_json_bool(&j, "writable", p->create_errno == 0);
		cli_json_str(&j, "create_error", p->create_errno ? strerror(p->create_errno) : NULL);
		if (p->create_errno == 0) {
			cli_json_str(&j, "method", method_keywords[p->method]);
			cli_json_str(&j, "reason", reason);
		} else {
			cli_json_null(&j, "method");
			cli_json_null(&j, "reason");
		}
		cli_json_end(&j);
		return;
	}
	printf("%s:\n", cli_name(dir));
	if (mnt != NULL)
		/* A mount source or FUSE fsname can hold anything, escapes and newlines included. */
		printf("  %-18s %s on %s (%s)\n", _("filesystem:"), cli_name(mnt->fstype),
		       cli_name(mnt->target), cli_name(mnt->source));
	else
		printf("  %-18s %s\n", _("filesystem:"), _("unknown"));
	if (p->tmpfile_errno == 0)
		printf("  %-18s %s\n", "O_TMPFILE:", _("yes"));
	else if (p->tmpfile_loses_name)
		printf("  %-18s %s (%s)\n", "O_TMPFILE:", _("not used"),
		       _("its files lose their name in a rename here"));
	else
		printf("  %-18s %s (%s)\n", "O_TMPFILE:", _("no"), strerror(p->tmpfile_errno));
	if (p->tmpfile_errno == 0 && p->link_via != FATTRS_LINK_NONE)
		printf("  %-18s %s\n", _("link unnamed:"), link_names[p->link_via]);
	else if (p->tmpfile_errno == 0)
		printf("  %-18s %s (%s)\n", _("link unnamed:"), _("impossible"), strerror(p->link_errno));
	else
		printf("  %-18s %s\n", _("link unnamed:"), _("not applicable"));
	if (p->create_errno != 0)
		printf("  %-18s %s\n", "RENAME_NOREPLACE:", _("unknown"));
	else if (p->noreplace_errno == 0)
		printf("  %-18s %s\n", "RENAME_NOREPLACE:", _("yes"));
	else
		printf("  %-18s %s (%s)\n", "RENAME_NOREPLACE:", _("no"), strerror(p->noreplace_errno));
	if (p->create_errno != 0)
		printf("  %-18s %s\n", _("hard links:"), _("unknown"));
	else if (p->hardlink_errno == 0)
		printf("  %-18s %s\n", _("hard links:"), _("yes"));
	else
		printf("  %-18s %s (%s)\n", _("hard links:"), _("no"), strerror(p->hardlink_errno));
	if (p->create_errno != 0 && p->tmpfile_errno != 0)
		printf("  %-18s %s\n", _("user xattrs:"), _("unknown"));
	else if (p->xattr_errno == 0)
		printf("  %-18s %s\n", _("user xattrs:"), _("yes"));
	else
		printf("  %-18s %s (%s)\n", _("user xattrs:"), _("no"), strerror(p->xattr_errno));
	if (p->create_errno == 0)
		printf("  %-18s %s (%s)\n", _("auto method:"), method_keywords[p->method], reason);
	else
		printf("  %-18s %s (%s)\n", _("auto method:"), _("none: no file can be made here"),
		       strerror(p->create_errno));
}

int probe_main(const struct tmpcreate_control *ctl, const char **args)
{
	struct fattrs_mounts *mounts = fattrs_mounts_new();
	const char *fallback[2] = { NULL, NULL };
	bool ok = true;

	if (args == NULL || args[0] == NULL) {
		fallback[0] = tmpdir_of(ctl);
		args = fallback;
	}
	/* The probe's scratch names are removed on a signal too. */
	cleanup_on_signals();
	for (size_t i = 0; args[i] != NULL; i++) {
		struct fattrs_probe p;
		struct fattrs_mount mnt;
		int r = fattrs_probe_dir(AT_FDCWD, args[i], &p);

		if (r < 0) {
			cli_warn(-r, _("cannot probe %s"), cli_quotef(args[i]));
			ok = false;
			continue;
		}
		if (!ctl->json && i > 0)
			putchar('\n');
		r = mounts != NULL && p.mnt_id != 0 ? fattrs_mounts_find(mounts, p.mnt_id, &mnt) : -ENOENT;
		probe_print(args[i], &p, r == 0 ? &mnt : NULL, ctl->json);
	}
	fattrs_mounts_free(mounts);
	return ok ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}

