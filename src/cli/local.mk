# SPDX-License-Identifier: GPL-2.0-or-later
# libcli: the presentation layer the three programs share (messages, quoting,
# options, JSON, inherited process state, running a COMMAND).
noinst_LTLIBRARIES += %D%/libcli.la
%C%_libcli_la_SOURCES = \
	%D%/buf.c \
	%D%/cli.h \
	%D%/buf.h \
	%D%/command.h \
	%D%/inherit.h \
	%D%/json.h \
	%D%/msg.h \
	%D%/options.h \
	%D%/parse.h \
	%D%/quote.h \
	%D%/command.c \
	%D%/inherit.c \
	%D%/json.c \
	%D%/msg.c \
	%D%/options.c \
	%D%/parse.c \
	%D%/quote.c \
	%D%/quotearg.c
# What a program links: the CLI layer, then the library.
# ATTR_LIBS: a static archive does not pass through libtool.
FATTRS_PROGRAM_LDADD = %D%/libcli.la src/lib/libfattrs.la $(POPT_LIBS) $(ATTR_LIBS)
