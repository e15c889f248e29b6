/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmpcreate --scratch: run COMMAND with an unnamed scratch file on a
 * descriptor it inherits ($TMPCREATE_FD, $TMPCREATE_FILE, {}).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tmpcreate.h"

/* @arg with every "{}" in it replaced by @path (as find -exec does). */
static char *subst_braces(const char *arg, const char *path)
{
	size_t n = 0, plen = strlen(path);
	char *ret, *p;

	for (const char *q = strstr(arg, "{}"); q != NULL; q = strstr(q + 2, "{}"))
		n++;
	ret = malloc(strlen(arg) + n * plen + 1);
	if (ret == NULL)
		return NULL;
	p = ret;
	for (const char *q; (q = strstr(arg, "{}")) != NULL; arg = q + 2) {
		memcpy(p, arg, (size_t)(q - arg));
		p += q - arg;
		memcpy(p, path, plen);
		p += plen;
	}
	strcpy(p, arg);
	return ret;
}

/*
 * Whether $TMPCREATE_FILE (/dev/fd/@fd) still opens the file once its name
 * is gone.  Not on cifs: the server deletes an unlinked file at once, and
 * the client reopens /proc/self/fd/N by the old name (ENOENT on 6.1 and
 * 6.12, EINVAL on 7.2).  Running out of descriptors says nothing.
 */
static bool reopens(int fd)
{
	char proc[sizeof("/proc/self/fd/") + 3 * sizeof(int)];
	int again;

	(void)snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	again = open(proc, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (again < 0)
		return errno == EMFILE || errno == ENFILE;
	(void)close(again);
	return true;
}

int scratch_main(const struct tmpcreate_control *ctl, const char **cmd)
{
	const char *dir = tmpdir_of(ctl);
	struct fattrs_tmpfile *tf;
	char fdstr[3 * sizeof(int) + 1], file[sizeof("/dev/fd/") + 3 * sizeof(int)];
	size_t n = 0;
	bool named;
	pid_t pid;
	int fd, r;

	if (cmd == NULL || cmd[0] == NULL)
		cli_usage_error(_("--scratch needs a COMMAND to run"));
	tf = scratch_new(ctl, dir);
	if (tf == NULL)
		return CLI_EXIT_CANCELED;
	/* A descriptor COMMAND inherits; a named file loses its name at once. */
	fd = fcntl(fattrs_tmpfile_fd(tf), F_DUPFD, 3);
	if (fd < 0) {
		cli_warn(errno, _("cannot create a temporary file in %s"), cli_quotef(dir));
		fattrs_tmpfile_free(tf);
		return CLI_EXIT_CANCELED;
	}
	if (ctl->verbose)
		say_method(tf, _("scratch file in"), dir);
	named = fattrs_tmpfile_method(tf) == FATTRS_TMP_NAMED;
	tf = fattrs_tmpfile_free(tf);
	if (named && !reopens(fd)) {
		/*
		 * The name must stay while COMMAND runs: a new scratch file,
		 * not locked (cifs locks are byte-range locks, which would
		 * refuse COMMAND's own opens), removed when COMMAND ends (or
		 * on a signal), and COMMAND a child instead of this process.
		 */
		(void)close(fd);
		tf = scratch_new_unlocked(ctl, dir);
		if (tf == NULL)
			return CLI_EXIT_CANCELED;
		fd = fcntl(fattrs_tmpfile_fd(tf), F_DUPFD, 3);
		if (fd < 0) {
			cli_warn(errno, _("cannot create a temporary file in %s"), cli_quotef(dir));
			fattrs_tmpfile_free(tf);
			return CLI_EXIT_CANCELED;
		}
		if (ctl->verbose)
			cli_warn(0, _("an unnamed file cannot be reopened by %s here: the name %s stays until COMMAND ends"),
				 "$TMPCREATE_FILE", cli_quotef(fattrs_tmpfile_path(tf)));
	}

	(void)snprintf(fdstr, sizeof(fdstr), "%d", fd);
	(void)snprintf(file, sizeof(file), "/dev/fd/%d", fd);
	if (setenv("TMPCREATE_FD", fdstr, 1) < 0 || setenv("TMPCREATE_FILE", file, 1) < 0)
		cli_die(CLI_EXIT_CANCELED, errno, _("cannot set the environment"));
	while (cmd[n] != NULL)
		n++;
	const char **argv = calloc(n + 1, sizeof(*argv));

	if (argv == NULL)
		cli_die(CLI_EXIT_CANCELED, 0, _("memory exhausted"));
	for (size_t i = 0; i < n; i++) {
		argv[i] = subst_braces(cmd[i], file);
		if (argv[i] == NULL)
			cli_die(CLI_EXIT_CANCELED, 0, _("memory exhausted"));
	}
	if (tf == NULL) {
		r = cli_command_exec(argv);
	} else {
		pid = cli_command_start(argv, -1, &r);
		if (pid > 0)
			r = cli_command_wait(pid);
		(void)close(fd);
		fattrs_tmpfile_free(tf);
	}
	for (size_t i = 0; i < n; i++)
		free((void *)(uintptr_t)argv[i]);
	free(argv);
	return r;
}

