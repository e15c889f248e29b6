/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmpcreate -o FILE: standard input, or COMMAND's output, published as
 * FILE only when complete.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tmpcreate.h"

/*
 * Give the new file its attributes: what the old file had, where kept (an
 * unreadable old file still gives its mode and owner), then --mode; a new
 * file gets 0666 & ~umask, as shell redirection gives it.
 */
static bool output_attributes(const struct tmpcreate_control *ctl, const struct fattrs_statx_buf *old,
			      int old_fd, int new_fd, const char *file, const char *dir)
{
	unsigned int what = old != NULL ? ctl->preserve : 0;
	unsigned int failed = 0;
	int r = 0;

	if (ctl->mode_set)
		what &= ~(unsigned int)FATTRS_PRESERVE_MODE;
	if (what != 0)
		r = old_fd >= 0 ? fattrs_preserve(old_fd, new_fd, what, &failed)
				: fattrs_preserve_stat(old, new_fd, what, &failed);
	/* By default keep what the caller may; what --preserve names must be kept. */
	if (failed != 0 && ctl->preserve_set) {
		for (size_t i = 0; i < sizeof(preserve_keywords) / sizeof(preserve_keywords[0]); i++) {
			if (failed & (1U << i)) {
				cli_warn(-r, _("cannot preserve the %s of %s"), preserve_keywords[i], cli_quotef(file));
				return false;
			}
		}
	}
	if ((what & FATTRS_PRESERVE_MODE) && !(failed & FATTRS_PRESERVE_MODE))
		return true;

	mode_t mode = ctl->mode;

	/* As open(O_CREAT, 0666) makes it: the umask, or the directory's default ACL. */
	if (!ctl->mode_set && fattrs_new_file_mode(AT_FDCWD, dir, 0666, &mode) < 0) {
		mode_t mask = umask(0);

		(void)umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(new_fd, mode) < 0) {
		cli_warn(errno, _("cannot set the mode of %s"), cli_quotef(file));
		return false;
	}
	return true;
}

/* Refuse what cannot be replaced before any data is read: say why. */
static bool output_check_target(const char *file, const struct fattrs_statx_buf *stx)
{
	uint64_t set = stx->stx_attributes & stx->stx_attributes_mask;

	if (S_ISDIR(stx->stx_mode)) {
		cli_warn(EISDIR, _("cannot write %s"), cli_quotef(file));
		return false;
	}
	if (!S_ISREG(stx->stx_mode) && !S_ISLNK(stx->stx_mode)) {
		/* A fifo or a device is written into, never replaced: that is not atomic output. */
		cli_warn(0, _("cannot replace %s: not a regular file; use shell redirection for fifos and devices"),
			 cli_quotef(file));
		return false;
	}
	if (set & STATX_ATTR_IMMUTABLE) {
		cli_warn(0, _("cannot replace %s: it is immutable; tmpcreate never clears flags (see chattr(1))"),
			 cli_quotef(file));
		return false;
	}
	if (set & STATX_ATTR_APPEND) {
		cli_warn(0, _("cannot replace %s: it is append-only; tmpcreate never clears flags (see chattr(1))"),
			 cli_quotef(file));
		return false;
	}
	return true;
}

int output_main(const struct tmpcreate_control *ctl, const char **cmd)
{
	const char *file = ctl->output;
	int fail = cmd != NULL && cmd[0] != NULL ? CLI_EXIT_CANCELED : CLI_EXIT_FAILURE;
	struct fattrs_tmpfile *tf = NULL;
	struct fattrs_statx_buf old;
	char *target = NULL, *dir = NULL, *backup = NULL;
	int old_fd = -1, in_fd = STDIN_FILENO, pipefd[2] = { -1, -1 };
	bool exists;
	pid_t pid = -1;
	uint64_t bytes = 0;
	int status = fail, r, read_errno = 0;

	/* The exit status says whether FILE was written; a lost -v message does not change it. */
	cli_lost_messages_fail(false);
	if (*file == '\0') {
		cli_warn(ENOENT, _("cannot write %s"), cli_quotef(file));
		return fail;
	}
	/* A closed stdin is /dev/null opened write-only (cli_init): reading it fails with EBADF. */
	/*
	 * -n never writes through a symbolic link, even a dangling one: as
	 * `set -C` and `cp -n` refuse, the link is what already exists.
	 */
	r = ctl->no_dereference || ctl->no_clobber ? ((target = strdup(file)) != NULL ? 0 : -ENOMEM)
						   : fattrs_path_resolve(AT_FDCWD, file, &target);
	if (r < 0) {
		cli_warn(-r, _("cannot write %s"), cli_quotef(file));
		return fail;
	}
	r = fattrs_statx(AT_FDCWD, target, AT_SYMLINK_NOFOLLOW,
			 STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID | STATX_SIZE, &old);
	exists = r == 0;
	if (r < 0 && r != -ENOENT) {
		cli_warn(-r, _("cannot write %s"), cli_quotef(file));
		goto out;
	}
	if (exists && !output_check_target(file, &old))
		goto out;
	/* fs.protected_regular, as for `>`: not into someone else's file in /tmp. */
	r = exists ? fattrs_path_may_write(AT_FDCWD, target) : 0;
	if (r < 0) {
		cli_warn(-r, _("cannot write %s"), cli_quotef(file));
		goto out;
	}
	if (exists && ctl->no_clobber) {
		cli_warn(EEXIST, _("cannot write %s"), cli_quotef(file));
		goto out;
	}
	if (exists && S_ISREG(old.stx_mode) && (ctl->preserve != 0 || ctl->if_changed))
		old_fd = fattrs_openat(AT_FDCWD, target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);

	dir = fattrs_path_dir(target);
	if (dir == NULL)
		cli_die(fail, 0, _("memory exhausted"));
	tf = scratch_new_for(ctl, dir, target);
	if (tf == NULL)
		goto out;
	/* Kernel flags while the new file is empty: nocow takes only then. */
	if (exists && S_ISREG(old.stx_mode) && (ctl->preserve & FATTRS_PRESERVE_KFLAGS)) {
		r = fattrs_preserve_kflags(AT_FDCWD, target, fattrs_tmpfile_fd(tf));
		if (r < 0 && ctl->preserve_set) {
			cli_warn(-r, _("cannot preserve the %s of %s"), _("flags"), cli_quotef(file));
			goto out;
		}
	}

	if (cmd != NULL && cmd[0] != NULL) {
		if (pipe2(pipefd, O_CLOEXEC) < 0) {
			cli_warn(errno, _("cannot run %s"), cli_quote(cmd[0]));
			goto out;
		}
		pid = cli_command_start(cmd, pipefd[1], &status);
		(void)close(pipefd[1]);
		if (pid < 0)
			goto out;
		in_fd = pipefd[0];
	}
	/* With a sync to come, the disk writes while we copy. */
	r = fattrs_copy_fd(in_fd, fattrs_tmpfile_fd(tf), ctl->sync != SYNC_NONE ? FATTRS_COPY_FLUSH : 0,
			   &bytes, &read_errno);
	if (pid > 0) {
		/* Stop reading: a COMMAND still writing gets SIGPIPE; then reap it. */
		(void)close(pipefd[0]);
		pipefd[0] = -1;
		int cst = cli_command_wait(pid);

		pid = -1;
		if (r == 0 && cst != 0) {
			status = cst;
			if (ctl->verbose)
				cli_warn(0, _("%s was left untouched: COMMAND exited with status %d"),
					 cli_quotef(file), cst);
			goto out;
		}
	}
	if (r < 0) {
		/* Our failure came first, whatever COMMAND made of it. */
		if (read_errno != 0)
			cli_warn(read_errno, _("cannot read %s"),
				 cmd != NULL && cmd[0] != NULL ? _("COMMAND's output") : _("standard input"));
		else
			cli_warn(-r, _("cannot write %s"), cli_quotef(file));
		goto out;
	}

	/*
	 * The same bytes: FILE is left alone, its modification time
	 * included.  A --mode it does not have yet is still given to it, in
	 * place (as chmod would); only where that is not allowed is FILE
	 * replaced by a copy with that mode.
	 */
	if (ctl->if_changed && old_fd >= 0 && (uint64_t)old.stx_size == bytes &&
	    fattrs_content_equal(old_fd, fattrs_tmpfile_fd(tf)) == 1 &&
	    (!ctl->mode_set || (old.stx_mode & 07777) == ctl->mode || fchmod(old_fd, ctl->mode) == 0)) {
		if (ctl->verbose)
			cli_warn(0, ctl->mode_set && (old.stx_mode & 07777) != ctl->mode
				 ? _("%s is unchanged; only its mode was set") : _("%s is unchanged; left as it was"),
				 cli_quotef(file));
		status = CLI_EXIT_OK;
		goto out;
	}
	if (!output_attributes(ctl, exists && S_ISREG(old.stx_mode) ? &old : NULL, old_fd,
			       fattrs_tmpfile_fd(tf), file, dir))
		goto out;
	/* The data (and size) on disk before the file has a name; full adds the inode. */
	if ((ctl->sync == SYNC_DATA ? fdatasync(fattrs_tmpfile_fd(tf)) :
	     ctl->sync == SYNC_FULL ? fsync(fattrs_tmpfile_fd(tf)) : 0) < 0) {
		cli_warn(errno, _("cannot sync %s"), cli_quotef(file));
		goto out;
	}
	/*
	 * Not open across the rename: a FUSE filesystem on libfuse's
	 * high-level API (sshfs, bindfs) first moves an open target aside
	 * as .fuse_hidden*, so FILE would be missing for a moment -- and on
	 * an SFTP server without posix-rename the replace would "work" that
	 * way instead of failing.
	 */
	if (old_fd >= 0) {
		(void)close(old_fd);
		old_fd = -1;
	}
	if (ctl->backup != NULL && asprintf(&backup, "%s%s", target, ctl->backup) < 0)
		cli_die(fail, 0, _("memory exhausted"));
	r = fattrs_tmpfile_publish(tf, target, backup,
				   (ctl->no_clobber ? FATTRS_PUBLISH_NOCLOBBER : 0) |
				   (ctl->sync == SYNC_DATA ? FATTRS_PUBLISH_FDATASYNC : 0) |
				   (ctl->sync == SYNC_FULL ? FATTRS_PUBLISH_FSYNC | FATTRS_PUBLISH_SYNC_DIR : 0));
	if (r == -EOPNOTSUPP && ctl->no_clobber) {
		cli_warn(0, _("cannot write %s: this filesystem has neither RENAME_NOREPLACE nor hard links, so --no-clobber cannot be kept without a race"),
			 cli_quotef(file));
		goto out;
	}
	if (r < 0) {
		/* Published, but the directory's fsync failed: the name may not last. */
		bool named = fattrs_tmpfile_path(tf) != NULL &&
			     strcmp(fattrs_tmpfile_path(tf), target) == 0;
		const char *kept;
		bool lost = fattrs_tmpfile_lost(tf, &kept);

		const char *old_kept = fattrs_tmpfile_old_kept(tf);

		if (old_kept != NULL)
			cli_warn(0, _("cannot write %s: %s; its SMB client removed it in the rename it refused (the file is open on this client), and it goes once closed: its old content is kept as %s"),
				 cli_quotef(file), strerror(-r), cli_quotef(old_kept));
		else if (lost && kept != NULL)
			cli_warn(0, _("cannot write %s: the filesystem reported it published, but it is not the file written; the new content is in %s"),
				 cli_quotef(file), cli_quotef(kept));
		else if (lost)
			cli_warn(0, _("cannot write %s: the filesystem reported it published, but it is not the file written, and the new content could not be saved"),
				 cli_quotef(file));
		else if (fattrs_tmpfile_backup_failed(tf))
			cli_warn(-r, _("cannot back up %s as %s"), cli_quotef(file), cli_quotef(backup));
		else
			cli_warn(-r, named ? _("cannot sync the directory of %s") : _("cannot write %s"),
				 cli_quotef(file));
		goto out;
	}
	if (ctl->verbose)
		say_method(tf, exists ? _("replaced") : _("created"), file);
	status = CLI_EXIT_OK;
out:
	if (pipefd[0] >= 0)
		(void)close(pipefd[0]);
	if (pid > 0)
		(void)cli_command_wait(pid);
	if (old_fd >= 0)
		(void)close(old_fd);
	fattrs_tmpfile_free(tf);
	free(backup);
	free(dir);
	free(target);
	return status;
}

