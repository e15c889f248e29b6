# SPDX-License-Identifier: GPL-2.0-or-later
# setfattrs: set and clear kernel and fattrs flags.
bin_PROGRAMS += setfattrs
setfattrs_SOURCES = %D%/setfattrs.c
setfattrs_LDADD = $(FATTRS_PROGRAM_LDADD)
