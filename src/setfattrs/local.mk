# SPDX-License-Identifier: GPL-2.0-or-later
# setfattrs: set and clear kernel and fattrs flags.
bin_PROGRAMS += setfattrs
setfattrs_SOURCES = %D%/setfattrs.c %D%/setfattrs.h %D%/args.c %D%/lookup.c %D%/plan.c %D%/apply.c \
	%D%/operands.c %D%/report.c %D%/list.c
setfattrs_LDADD = $(FATTRS_PROGRAM_LDADD)
