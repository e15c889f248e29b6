/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hooks for tests/unit/ alone, never included by the programs: they make the library act as if
 * an interface were missing, or run code between two of its steps.
 */
#ifndef FATTRS_TESTING_H
#define FATTRS_TESTING_H

#include <stdbool.h>

/**
 * fattrs_kattr_force_ioctl() - for tests: act as if file_getattr(2) and
 * file_setattr(2) were missing (@on), or detect them again (!@on).  Not
 * for tools: the system call is always the better path where it exists.
 */
void fattrs_kattr_force_ioctl(bool on);

/**
 * fattrs_kattr_force_no_proc() - for tests: act as if /proc were not
 * mounted (@on), or look again (!@on).
 */
void fattrs_kattr_force_no_proc(bool on);

/**
 * fattrs_kattr_test_hook() - for tests: call @fn(@arg) in
 * fattrs_kattr_change() after a word was read and before it is written
 * (NULL: no call), to change the file system in between.
 */
void fattrs_kattr_test_hook(void (*fn)(void *arg), void *arg);

/**
 * fattrs_fflag_force_path() - for tests: act as if getxattrat(2) and the
 * other *xattrat system calls were missing (@on), as before Linux 6.13,
 * or detect them again (!@on).
 */
void fattrs_fflag_force_path(bool on);

#endif /* FATTRS_TESTING_H */
