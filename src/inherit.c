/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a tool inherits from its caller, and what it hands on to a COMMAND:
 * descriptors 0, 1 and 2, signal dispositions and the signal mask.
 *
 * A closed 0, 1 or 2 would be taken by the next file opened, and then read
 * as input or written with messages and output; so each closed one gets
 * /dev/null, opened for the wrong direction (as gnulib's stdopen does):
 * writing to a closed stdout fails with EBADF ("write error: Bad file
 * descriptor", as GNU tools say), reading a closed stdin too.
 *
 * A signal the caller ignores (nohup, trap '' SIG, a background job's
 * SIGINT) stays ignored: no handler is ever installed over it.  A COMMAND
 * gets back exactly the descriptors, dispositions and mask the tool was
 * started with.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/*
 * The signals whose disposition the tools ever change: the fatal ones
 * (cli_fatal_signals) and SIGCHLD (reset from SIG_IGN).  Only these are
 * recorded and restored: exec(2) keeps every other disposition as it was
 * inherited, so asking the kernel for all 64 cost 61 system calls per run
 * for nothing (tmpcreate went from 42 to 112 system calls per run).
 */
static const int tracked_signals[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGCHLD };

/* Set once by cli_inherit_init(), before any handler can run; read-only afterwards. */
static bool fd_closed[3];
static sigset_t ignored;	/* the signals whose disposition was SIG_IGN */
static sigset_t mask;		/* the signal mask */
static bool initialized;

/* The COMMAND running (cli_command_start), for the fatal-signal handler. */
static volatile sig_atomic_t command_pid;
static void (*fatal_cleanup)(void);

static const int fatal_signals[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };

void cli_inherit_init(void)
{
	if (initialized)
		return;
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		fd_closed[fd] = true;
		/* The lowest free number is @fd: 0..fd-1 are open by now. */
		int nfd = open("/dev/null", (fd == STDIN_FILENO ? O_WRONLY : O_RDONLY) | O_NOCTTY);

		if (nfd != fd) {
			/* Nothing safe is left to do: no file may take 0, 1 or 2. */
			if (nfd >= 0)
				(void)close(nfd);
			_exit(CLI_EXIT_FAILURE);
		}
	}
	(void)sigemptyset(&ignored);
	for (size_t i = 0; i < sizeof(tracked_signals) / sizeof(tracked_signals[0]); i++) {
		struct sigaction sa;

		if (sigaction(tracked_signals[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			(void)sigaddset(&ignored, tracked_signals[i]);
	}
	(void)sigprocmask(SIG_SETMASK, NULL, &mask);
	/* Ignored, SIGCHLD would reap our children before waitpid() could. */
	if (sigismember(&ignored, SIGCHLD) == 1)
		(void)signal(SIGCHLD, SIG_DFL);
	initialized = true;
}

bool cli_fd_was_closed(int fd)
{
	return fd >= 0 && fd <= 2 && fd_closed[fd];
}

bool cli_signal_was_ignored(int sig)
{
	return initialized && sigismember(&ignored, sig) == 1;
}

void cli_exec_restore(void)
{
	if (!initialized)
		return;
	for (int fd = 0; fd <= 2; fd++) {
		if (fd_closed[fd])
			(void)close(fd);
	}
	for (size_t i = 0; i < sizeof(tracked_signals) / sizeof(tracked_signals[0]); i++) {
		int sig = tracked_signals[i];
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) < 0)
			continue;
		if (sigismember(&ignored, sig) == 1) {
			if (sa.sa_handler != SIG_IGN)
				(void)signal(sig, SIG_IGN);
		} else if (sa.sa_handler != SIG_DFL) {
			/* Before the mask lets a signal in: no handler of ours runs in the child. */
			(void)signal(sig, SIG_DFL);
		}
	}
	(void)sigprocmask(SIG_SETMASK, &mask, NULL);
}

void cli_command_running(pid_t pid)
{
	command_pid = (sig_atomic_t)pid;
}

static void fatal_handler(int sig, siginfo_t *info, void *uctx)
{
	pid_t pid = (pid_t)command_pid;
	int saved_errno = errno;

	(void)uctx;
	/*
	 * Pass it on, as timeout(1) does; a signal from the terminal
	 * (SI_KERNEL) went to the whole process group, COMMAND included.
	 */
	if (pid > 0 && sig != SIGPIPE && info->si_code != SI_KERNEL)
		(void)kill(pid, sig);
	if (fatal_cleanup != NULL)
		fatal_cleanup();
	(void)signal(sig, SIG_DFL);
	/* Blocked until we return, then it kills us (unless the caller blocked it). */
	(void)raise(sig);
	errno = saved_errno;
}

void cli_fatal_signals(void (*cleanup)(void))
{
	struct sigaction sa = {
		.sa_sigaction = fatal_handler,
		.sa_flags = SA_SIGINFO,
	};

	fatal_cleanup = cleanup;
	(void)sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		(void)sigaddset(&sa.sa_mask, fatal_signals[i]);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
		if (!cli_signal_was_ignored(fatal_signals[i]))
			(void)sigaction(fatal_signals[i], &sa, NULL);
	}
}

void cli_fatal_signals_block(sigset_t *ret_old)
{
	sigset_t set;

	(void)sigemptyset(&set);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		(void)sigaddset(&set, fatal_signals[i]);
	(void)sigprocmask(SIG_BLOCK, &set, ret_old);
}
