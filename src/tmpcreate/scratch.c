/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmpcreate --scratch: run COMMAND with an unnamed scratch file on a
 * descriptor it inherits ($TMPCREATE_FD, $TMPCREATE_FILE, {}).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

int scratch_main(const struct tmpcreate_control *ctl, const char **cmd)
{
	const char *dir = tmpdir_of(ctl);
	struct fattrs_tmpfile *tf;
	char fdstr[3 * sizeof(int) + 1], file[sizeof("/dev/fd/") + 3 * sizeof(int)];
	size_t n = 0;
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
	fattrs_tmpfile_free(tf);

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
	r = cli_command_exec(argv);
	for (size_t i = 0; i < n; i++)
		free((void *)(uintptr_t)argv[i]);
	free(argv);
	return r;
}

