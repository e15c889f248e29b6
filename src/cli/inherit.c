/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a program inherits from its caller, and what it hands on to a COMMAND: descriptors 0, 1
 * and 2, signal dispositions and the signal mask (doc/design.md §6).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "inherit.h"

/*
 * The signals whose disposition the tools ever change: the fatal ones
 * (cli_fatal_signals) and SIGCHLD (reset from SIG_IGN before a COMMAND
 * starts).  Each is recorded when it is first changed, not at start-up:
 * cli_fatal_signals() learns the old disposition from the sigaction(2)
 * that installs the handler, and a program that never changes a signal
 * never asks (tmpcreate -p DIR: 55 system calls per run with the five
 * queries and the mask read at start-up, 50 without).  exec(2) keeps
 * every disposition that was never changed as it was inherited, so only
 * the recorded ones are put back.
 */
static const int tracked_signals[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGCHLD };

/* Set once by cli_inherit_init(), before any handler can run; read-only afterwards. */
static bool fd_closed[3];
static bool initialized;

/*
 * Set when first known, before the signal or the mask is changed, by the
 * main thread only; read by cli_exec_restore() in a child after fork.
 */
static sigset_t recorded;	/* the signals whose inherited disposition is known */
static sigset_t ignored;	/* ... and of those, the ones that were SIG_IGN */
static sigset_t mask;		/* the inherited signal mask, once mask_known */
static bool mask_known;

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
	(void)sigemptyset(&recorded);
	(void)sigemptyset(&ignored);
	initialized = true;
}

static bool tracked(int sig)
{
	for (size_t i = 0; i < sizeof(tracked_signals) / sizeof(tracked_signals[0]); i++) {
		if (tracked_signals[i] == sig)
			return true;
	}
	return false;
}

/* Note what @sig's disposition was before the program changes it. */
static void record_signal(int sig, const struct sigaction *old)
{
	if (old->sa_handler == SIG_IGN)
		(void)sigaddset(&ignored, sig);
	(void)sigaddset(&recorded, sig);
}

static void record_mask(const sigset_t *old)
{
	if (!mask_known) {
		mask = *old;
		mask_known = true;
	}
}

bool cli_fd_was_closed(int fd)
{
	return fd >= 0 && fd <= 2 && fd_closed[fd];
}

/* "N" (decimal, no sign, nothing after it but slashes) at @s: N, else -1. */
static int fd_number(const char *s)
{
	int n = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		n = n * 10 + (*s - '0');
		if (n > 1000)
			return -1;
	}
	while (*s == '/')
		s++;
	return *s == '\0' ? n : -1;
}

/* @path without its leading @prefix, or NULL. */
static const char *after(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(path, prefix, n) == 0 ? path + n : NULL;
}

int cli_path_closed_fd(const char *path, bool follow)
{
	static const char *const names[] = { "/dev/stdin", "/dev/stdout", "/dev/stderr" };
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/" };
	const char *rest;
	int fd = -1;

	if (!fd_closed[0] && !fd_closed[1] && !fd_closed[2])
		return -1;
	for (size_t i = 0; i < 3 && fd < 0 && follow; i++)
		if ((rest = after(path, names[i])) != NULL && rest[strspn(rest, "/")] == '\0')
			fd = (int)i;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && fd < 0; i++)
		if ((rest = after(path, dirs[i])) != NULL)
			fd = fd_number(rest);
	if (fd < 0 && (rest = after(path, "/proc/")) != NULL) {
		char self[32];
		int n = snprintf(self, sizeof(self), "%ld/fd/", (long)getpid());

		if (n > 0 && strncmp(rest, self, (size_t)n) == 0)
			fd = fd_number(rest + n);
	}
	return cli_fd_was_closed(fd) ? fd : -1;
}

bool cli_signal_was_ignored(int sig)
{
	struct sigaction sa;

	if (!initialized || !tracked(sig))
		return false;
	if (sigismember(&recorded, sig) != 1) {
		if (sigaction(sig, NULL, &sa) < 0)
			return false;
		record_signal(sig, &sa);
	}
	return sigismember(&ignored, sig) == 1;
}

void cli_children_prepare(void)
{
	/* Ignored, SIGCHLD would reap our children before waitpid() could. */
	if (cli_signal_was_ignored(SIGCHLD))
		(void)signal(SIGCHLD, SIG_DFL);
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

		/* Never recorded: never changed, exec(2) keeps it as inherited. */
		if (sigismember(&recorded, sig) != 1 || sigaction(sig, NULL, &sa) < 0)
			continue;
		if (sigismember(&ignored, sig) == 1) {
			if (sa.sa_handler != SIG_IGN)
				(void)signal(sig, SIG_IGN);
		} else if (sa.sa_handler != SIG_DFL) {
			/* Before the mask lets a signal in: no handler of ours runs in the child. */
			(void)signal(sig, SIG_DFL);
		}
	}
	if (mask_known)
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
	sigset_t old;

	fatal_cleanup = cleanup;
	(void)sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		(void)sigaddset(&sa.sa_mask, fatal_signals[i]);
	/*
	 * The handler goes in with the sigaction(2) that tells the old
	 * disposition; one that was SIG_IGN is put back at once, and the
	 * signals stay blocked meanwhile, so a signal the caller ignores
	 * never reaches the handler (one pending is discarded by SIG_IGN).
	 */
	(void)sigprocmask(SIG_BLOCK, &sa.sa_mask, &old);
	record_mask(&old);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
		int sig = fatal_signals[i];
		struct sigaction prev;

		if (sigismember(&recorded, sig) == 1) {
			if (sigismember(&ignored, sig) != 1)
				(void)sigaction(sig, &sa, NULL);
			continue;
		}
		if (sigaction(sig, &sa, &prev) < 0)
			continue;
		record_signal(sig, &prev);
		if (prev.sa_handler == SIG_IGN)
			(void)sigaction(sig, &prev, NULL);
	}
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
}

void cli_fatal_signals_block(sigset_t *ret_old)
{
	sigset_t set;

	(void)sigemptyset(&set);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		(void)sigaddset(&set, fatal_signals[i]);
	(void)sigprocmask(SIG_BLOCK, &set, ret_old);
	record_mask(ret_old);
}
