/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running a COMMAND with what the program inherited, and waiting for it
 * (src/cli/command.c).
 */
#ifndef FATTRS_CLI_COMMAND_H
#define FATTRS_CLI_COMMAND_H

#include <sys/types.h>

/*
 * Start COMMAND with its stdout on @out_fd (-1: inherited), and with what
 * the program inherited (cli_exec_restore()); while it runs, the handler
 * of cli_fatal_signals() passes signals on to it.  An exec failure comes
 * back through a close-on-exec pipe as its errno.
 * Returns the child's pid, or -1 with *ret_exit set (125, 126 or 127) and
 * the error reported.
 */
pid_t cli_command_start(const char *const *cmd, int out_fd, int *ret_exit);

/*
 * Replace the program by COMMAND, with what the program inherited
 * (cli_exec_restore()), stdout flushed first.  Returns only when it
 * cannot be run: the error reported, and 127 (not found) or 126.
 */
int cli_command_exec(const char *const *cmd);

/* Wait for COMMAND: its exit status as a shell reports it (128 + signal when killed). */
int cli_command_wait(pid_t pid);

#endif /* FATTRS_CLI_COMMAND_H */
