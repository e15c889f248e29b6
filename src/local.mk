# SPDX-License-Identifier: GPL-2.0-or-later
# The three programs and the presentation helpers they share (libcli).
noinst_LTLIBRARIES += %D%/libcli.la
%C%_libcli_la_SOURCES = \
	%D%/buf.c \
	%D%/cli.h \
	%D%/command.c \
	%D%/format.c \
	%D%/format.h \
	%D%/inherit.c \
	%D%/json.c \
	%D%/msg.c \
	%D%/options.c \
	%D%/parse.c \
	%D%/quote.c \
	%D%/quotearg.c

bin_PROGRAMS += %D%/tmpcreate
%C%_tmpcreate_SOURCES = \
	%D%/tmpcreate.c \
	%D%/tmpcreate.h \
	%D%/tmpcreate-mktemp.c \
	%D%/tmpcreate-output.c \
	%D%/tmpcreate-probe.c \
	%D%/tmpcreate-scratch.c
%C%_tmpcreate_LDADD = %D%/libcli.la %D%/lib/libfattrs.la $(POPT_LIBS) $(ATTR_LIBS)

bin_PROGRAMS += %D%/setfattrs
%C%_setfattrs_SOURCES = %D%/setfattrs.c
%C%_setfattrs_LDADD = %D%/libcli.la %D%/lib/libfattrs.la $(POPT_LIBS) $(ATTR_LIBS)

bin_PROGRAMS += %D%/xstat
%C%_xstat_SOURCES = %D%/xstat.c %D%/xstat-view.c %D%/xstat-view.h
%C%_xstat_LDADD = %D%/libcli.la %D%/lib/libfattrs.la $(POPT_LIBS) $(ATTR_LIBS)
