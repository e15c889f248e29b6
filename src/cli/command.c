/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running a COMMAND (tmpcreate -o, --scratch): start it, wait for it, and turn its end into an
 * exit status as env(1) and timeout(1) do (doc/design.md §6).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msg.h"
#include "quote.h"
#include "command.h"
#include "inherit.h"
#include "buf.h"

/* The exit status for an exec(3) that failed with @err: 127 not found, 126 found but not run. */
static int exec_status(int err)
{
	return err == ENOENT ? CLI_EXIT_ENOENT : CLI_EXIT_CANNOT_INVOKE;
}

int cli_command_exec(const char *const *cmd)
{
	int err;

	(void)fflush(stdout);
	cli_exec_restore();
	execvp(cmd[0], (char *const *)(uintptr_t)cmd);
	err = errno;
	cli_warn(err, _("cannot run %s"), cli_quote(cmd[0]));
	return exec_status(err);
}

pid_t cli_command_start(const char *const *cmd, int out_fd, int *ret_exit)
{
	int errpipe[2];
	int err = 0;
	sigset_t old;
	pid_t pid;
	ssize_t n;

	if (pipe2(errpipe, O_CLOEXEC) < 0) {
		cli_warn(errno, _("cannot run %s"), cli_quote(cmd[0]));
		*ret_exit = CLI_EXIT_CANCELED;
		return -1;
	}
	cli_children_prepare();
	/* No signal between fork and cli_command_running() goes unforwarded. */
	cli_fatal_signals_block(&old);
	pid = fork();
	if (pid == 0) {
		(void)close(errpipe[0]);
		/* Our handlers go before the mask that kept them from running here. */
		cli_exec_restore();
		if (out_fd >= 0 && (dup2(out_fd, STDOUT_FILENO) < 0 || close(out_fd) < 0))
			_exit(CLI_EXIT_CANCELED);
		execvp(cmd[0], (char *const *)(uintptr_t)cmd);
		err = errno;
		(void)!write(errpipe[1], &err, sizeof(err));
		_exit(exec_status(err));
	}
	err = errno;
	if (pid > 0)
		cli_command_running(pid);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	(void)close(errpipe[1]);
	if (pid < 0) {
		cli_warn(err, _("cannot run %s"), cli_quote(cmd[0]));
		(void)close(errpipe[0]);
		*ret_exit = CLI_EXIT_CANCELED;
		return -1;
	}
	err = 0;
	while ((n = read(errpipe[0], &err, sizeof(err))) < 0 && errno == EINTR)
		continue;
	(void)close(errpipe[0]);
	if (n == (ssize_t)sizeof(err)) {
		(void)cli_command_wait(pid);
		cli_warn(err, _("cannot run %s"), cli_quote(cmd[0]));
		*ret_exit = exec_status(err);
		return -1;
	}
	return pid;
}

int cli_command_wait(pid_t pid)
{
	siginfo_t info;
	int st;

	/* Ended but not yet reaped: the signal handler stops using its pid first. */
	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0) {
		if (errno != EINTR)
			break;
	}
	cli_command_running(0);
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return CLI_EXIT_CANCELED;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}
