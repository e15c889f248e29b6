/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the process inherited: descriptors closed and signals ignored at
 * start, given back to a COMMAND at exec (src/cli/inherit.c).
 */
#ifndef FATTRS_CLI_INHERIT_H
#define FATTRS_CLI_INHERIT_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/* The start-up part of cli_init(), for programs that set up the rest themselves. */
void cli_inherit_init(void);

/* Was descriptor @fd (0, 1 or 2) closed when the program started? */
bool cli_fd_was_closed(int fd);

/*
 * Does @path name descriptor 0, 1 or 2 by its link (/dev/fd/N,
 * /proc/self/fd/N, ...; /dev/stdin, /dev/stdout and /dev/stderr too when
 * @follow, since without it they are symlinks of their own) while that
 * descriptor was closed at start?  Then it is the /dev/null standing in,
 * which the caller never gave: returns the descriptor (say "No such file
 * or directory", as a program started without it finds), else -1.
 */
int cli_path_closed_fd(const char *path, bool follow);

/*
 * Was @sig ignored when the program started (nohup, trap '' SIG, background
 * jobs)?  Known for the signals the tools ever change: SIGHUP, SIGINT,
 * SIGTERM, SIGPIPE and SIGCHLD (false for any other); asked of the kernel
 * the first time, so call it before the program changes @sig itself.
 */
bool cli_signal_was_ignored(int sig);

/* Before starting children: SIGCHLD inherited as ignored is set back to SIG_DFL. */
void cli_children_prepare(void);

/*
 * Die cleanly on SIGHUP, SIGINT, SIGTERM and SIGPIPE, each unless it was
 * ignored at start-up (no handler ever replaces an inherited SIG_IGN): pass
 * the signal on to the COMMAND running (not SIGPIPE, nor a signal from the
 * terminal, which reached COMMAND already), call @cleanup (which must be
 * async-signal-safe; NULL: none), then die of the signal.
 */
void cli_fatal_signals(void (*cleanup)(void));

/* Block the signals of cli_fatal_signals(); the old mask in *@ret_old. */
void cli_fatal_signals_block(sigset_t *ret_old);

/* Tell the fatal-signal handler which COMMAND runs (0: none). */
void cli_command_running(pid_t pid);

/*
 * Just before exec (in a child after fork, or in place of the program):
 * give back exactly what the program inherited: close the descriptors
 * that were closed, put back the disposition of each signal the tools
 * change (SIG_IGN where it was ignored, else SIG_DFL; exec keeps the
 * others as inherited) and the signal mask.  Async-signal-safe.
 */
void cli_exec_restore(void);

#endif /* FATTRS_CLI_INHERIT_H */
