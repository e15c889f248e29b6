# SPDX-License-Identifier: GPL-2.0-or-later
# libfattrs: the domain library, linked into each tool.
noinst_LTLIBRARIES += %D%/libfattrs.la
%C%_libfattrs_la_SOURCES = \
	%D%/fattrs.h \
	%D%/internal.h \
	%D%/testing.h \
	%D%/compat/linux.h \
	%D%/caps.c \
	%D%/copy.c \
	%D%/path.c \
	%D%/preserve.c \
	%D%/random.c \
	%D%/walk.c \
	%D%/flags/fflags.h \
	%D%/flags/fflags-private.h \
	%D%/flags/fflags.c \
	%D%/flags/fset.c \
	%D%/flags/fsupport.c \
	%D%/flags/winattr.c \
	%D%/flags/xattrat.c \
	%D%/flags/flagops.h \
	%D%/flags/flagops.c \
	%D%/flags/kflags.h \
	%D%/flags/kflags-private.h \
	%D%/flags/kattr.c \
	%D%/flags/kflags.c \
	%D%/flags/ktarget.c \
	%D%/fs/fs.h \
	%D%/fs/fstype.h \
	%D%/fs/fstype.c \
	%D%/fs/mntcache.c \
	%D%/fs/mount.c \
	%D%/fs/probe.c \
	%D%/fs/statx.c \
	%D%/tmp/tmp.h \
	%D%/tmp/tmpfile.h \
	%D%/tmp/backup.c \
	%D%/tmp/create.c \
	%D%/tmp/keep.c \
	%D%/tmp/names.c \
	%D%/tmp/publish.c \
	%D%/tmp/reclaim.c \
	%D%/tmp/registry.c
# Programs that link it add $(ATTR_LIBS): a static archive does not pass through libtool.
