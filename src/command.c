/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running a COMMAND for a tool (tmpcreate -o, and any later tool that
 * wraps one): start it, wait for it, and turn its end into an exit status
 * as env(1) and timeout(1) do.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
/*
 * Start COMMAND with its stdout on @out_fd (-1: inherited).  An exec
 * failure comes back through a close-on-exec pipe as its errno.
 * Returns the child's pid, or -1 with *ret_exit set (126 or 127) and the
 * error reported.
 */
pid_t cli_command_start(const char *const *cmd, int out_fd, int *ret_exit)
{
	int errpipe[2];
	int err = 0;
	pid_t pid;

	if (pipe2(errpipe, O_CLOEXEC) < 0) {
		cli_warn(errno, _("cannot run %s"), cli_quote(cmd[0]));
		*ret_exit = CLI_EXIT_CANCELED;
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		(void)close(errpipe[0]);
		if (out_fd >= 0 && (dup2(out_fd, STDOUT_FILENO) < 0 || close(out_fd) < 0))
			_exit(CLI_EXIT_CANCELED);
		(void)signal(SIGPIPE, SIG_DFL);
		execvp(cmd[0], (char *const *)(uintptr_t)cmd);
		err = errno;
		(void)!write(errpipe[1], &err, sizeof(err));
		_exit(err == ENOENT ? CLI_EXIT_ENOENT : CLI_EXIT_CANNOT_INVOKE);
	}
	(void)close(errpipe[1]);
	if (pid < 0) {
		cli_warn(errno, _("cannot run %s"), cli_quote(cmd[0]));
		(void)close(errpipe[0]);
		*ret_exit = CLI_EXIT_CANCELED;
		return -1;
	}
	if (read(errpipe[0], &err, sizeof(err)) == (ssize_t)sizeof(err)) {
		(void)close(errpipe[0]);
		(void)waitpid(pid, NULL, 0);
		cli_warn(err, _("cannot run %s"), cli_quote(cmd[0]));
		*ret_exit = err == ENOENT ? CLI_EXIT_ENOENT : CLI_EXIT_CANNOT_INVOKE;
		return -1;
	}
	(void)close(errpipe[0]);
	return pid;
}

/* COMMAND's exit status as a shell reports it (128 + signal when killed). */
int cli_command_wait(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return CLI_EXIT_CANCELED;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}
