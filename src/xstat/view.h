/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xstat's default view (view.c): a readable block per file whose every value is a directive of
 * the format engine (format.h), so the view asks for exactly the statx fields it prints.
 */
#ifndef FATTRS_XSTAT_VIEW_H
#define FATTRS_XSTAT_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "format.h"

struct view;

/**
 * view_new() - the default view.
 * @all:       -a/--all: the lines that do not fit a terminal too
 * @gnu:       GNU stat's default format (the view's first lines)
 * @gnu_dev:   the same for block and character devices
 *
 * Returns: the view, or NULL when out of memory.
 */
struct view *view_new(bool all, const char *gnu, const char *gnu_dev);
struct view *view_free(struct view *v);

/* The statx fields the view prints (STATX_TYPE included: devices differ). */
unsigned int view_statx_mask(const struct view *v);

/* Print the block of one file, then an empty line between files. */
bool view_render(struct view *v, struct fmt_file *file, FILE *out);

#endif /* FATTRS_XSTAT_VIEW_H */
