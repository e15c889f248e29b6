# SPDX-License-Identifier: GPL-2.0-or-later
# tmpcreate: main() parses and dispatches; one file per mode.
bin_PROGRAMS += tmpcreate
tmpcreate_SOURCES = \
	%D%/tmpcreate.c \
	%D%/tmpcreate.h \
	%D%/common.c \
	%D%/mktemp.c \
	%D%/output.c \
	%D%/probe.c \
	%D%/scratch.c
tmpcreate_LDADD = $(FATTRS_PROGRAM_LDADD)
