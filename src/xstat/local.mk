# SPDX-License-Identifier: GPL-2.0-or-later
# xstat: the program, its default view and its format engine.
bin_PROGRAMS += xstat
xstat_SOURCES = \
	%D%/xstat.c \
	%D%/view.c \
	%D%/view.h \
	%D%/format.h \
	%D%/format-private.h \
	%D%/context.c \
	%D%/time.c \
	%D%/gnu.c \
	%D%/fields.c \
	%D%/fsinfo.c \
	%D%/parse.c \
	%D%/render.c \
	%D%/json.c
xstat_LDADD = $(FATTRS_PROGRAM_LDADD)
