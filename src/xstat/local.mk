# SPDX-License-Identifier: GPL-2.0-or-later
# xstat: the program, its default view and its format engine.
bin_PROGRAMS += xstat
xstat_SOURCES = \
	%D%/xstat.c \
	%D%/view.c \
	%D%/view.h \
	%D%/format.c \
	%D%/format.h
xstat_LDADD = $(FATTRS_PROGRAM_LDADD)
