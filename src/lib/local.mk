# SPDX-License-Identifier: GPL-2.0-or-later
# libfattrs: the domain library, linked into each tool.
noinst_LTLIBRARIES += %D%/libfattrs.la
%C%_libfattrs_la_SOURCES = \
	%D%/fattrs.h \
	%D%/internal.h \
	%D%/testing.h \
	%D%/compat/linux.h \
	%D%/kflags.h \
	%D%/fflags.h \
	%D%/flagops.h \
	%D%/fstype.h \
	%D%/caps.c \
	%D%/copy.c \
	%D%/fflags.c \
	%D%/flagops.c \
	%D%/fstype.c \
	%D%/kflags.c \
	%D%/mntcache.c \
	%D%/mount.c \
	%D%/path.c \
	%D%/preserve.c \
	%D%/probe.c \
	%D%/random.c \
	%D%/statx.c \
	%D%/tmp/tmp.h \
	%D%/tmp/backup.c \
	%D%/tmp/create.c \
	%D%/tmp/names.c \
	%D%/tmp/publish.c \
	%D%/tmp/reclaim.c \
	%D%/tmp/registry.c \
	%D%/walk.c
# Programs that link it add $(ATTR_LIBS): a static archive does not pass through libtool.
