# SPDX-License-Identifier: GPL-2.0-or-later
# make check: C unit tests (TAP) for the library, bats files for the programs,
# all through automake's TAP driver.
TEST_EXTENSIONS = .bats
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
AM_LOG_DRIVER_FLAGS = --comments
BATS_LOG_DRIVER = $(LOG_DRIVER)
# The tests start with the signals they send at their default disposition,
# whatever the suite inherited (nohup, a background job's SIGINT and SIGQUIT):
# a test that wants one ignored says so itself (env --ignore-signal).
#
# One test, or some, by name: make check TESTS=FILE TEST_FILTER=REGEX.  A bats
# file gets it as --filter (which its own programs do not see); a C unit test
# as $FATTRS_TEST_FILTER, matched against each tap_run() call (tests/unit/tap.h).
TEST_FILTER =
BATS_LOG_COMPILER = env --default-signal=HUP,INT,QUIT,TERM,PIPE,CHLD -u FATTRS_TEST_FILTER $(BATS)
AM_BATS_LOG_FLAGS = --tap $${FATTRS_TEST_FILTER:+--filter "$$FATTRS_TEST_FILTER"}
AM_BATS_LOG_DRIVER_FLAGS = --comments --ignore-exit
# check_printf=0: AddressSanitizer's printf interceptor warns on glibc's I flag (xstat -c %IC, as GNU stat).
AM_TESTS_ENVIRONMENT = \
	PATH='$(abs_top_builddir)':"$$PATH"; export PATH; \
	FATTRS_TEST_FILTER='$(TEST_FILTER)'; export FATTRS_TEST_FILTER; \
	LC_ALL=C; export LC_ALL; \
	unset POSIXLY_CORRECT POSIX_ME_HARDER; \
	FATTRS_SRCDIR='$(abs_top_srcdir)'; export FATTRS_SRCDIR; \
	FATTRS_BUILDDIR='$(abs_top_builddir)'; export FATTRS_BUILDDIR; \
	MANDOC='$(MANDOC)'; export MANDOC; \
	ASAN_OPTIONS=exitcode=86:detect_leaks=1:check_printf=0; export ASAN_OPTIONS; \
	UBSAN_OPTIONS=exitcode=87:print_stacktrace=1; export UBSAN_OPTIONS;

# ---- library unit tests: tests/unit/<concern>.c pairs with src/lib/<concern>.c
UNIT_TESTS = \
	tests/unit/caps \
	tests/unit/copy \
	tests/unit/fflags \
	tests/unit/flagops \
	tests/unit/fstype \
	tests/unit/kflags \
	tests/unit/mount \
	tests/unit/path \
	tests/unit/preserve \
	tests/unit/probe \
	tests/unit/publish \
	tests/unit/random \
	tests/unit/statx \
	tests/unit/tmpfile \
	tests/unit/walk
check_PROGRAMS += $(UNIT_TESTS)
# tests/helpers/nosys: a command run with some system calls answering ENOSYS
check_PROGRAMS += tests/helpers/nosys
tests_helpers_nosys_SOURCES = tests/helpers/nosys.c
UNIT_LDADD = src/lib/libfattrs.la $(ATTR_LIBS)
tests_unit_caps_SOURCES = tests/unit/caps.c tests/unit/tap.h
tests_unit_caps_LDADD = $(UNIT_LDADD)
tests_unit_statx_SOURCES = tests/unit/statx.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_statx_LDADD = $(UNIT_LDADD)
tests_unit_walk_SOURCES = tests/unit/walk.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_walk_LDADD = $(UNIT_LDADD)
tests_unit_copy_SOURCES = tests/unit/copy.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_copy_LDADD = $(UNIT_LDADD)
tests_unit_fflags_SOURCES = tests/unit/fflags.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_fflags_LDADD = $(UNIT_LDADD)
tests_unit_flagops_SOURCES = tests/unit/flagops.c tests/unit/tap.h
tests_unit_flagops_LDADD = $(UNIT_LDADD)
tests_unit_fstype_SOURCES = tests/unit/fstype.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_fstype_LDADD = $(UNIT_LDADD)
tests_unit_kflags_SOURCES = tests/unit/kflags.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_kflags_LDADD = $(UNIT_LDADD)
tests_unit_mount_SOURCES = tests/unit/mount.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_mount_LDADD = $(UNIT_LDADD)
tests_unit_path_SOURCES = tests/unit/path.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_path_LDADD = $(UNIT_LDADD)
tests_unit_preserve_SOURCES = tests/unit/preserve.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_preserve_LDADD = $(UNIT_LDADD)
tests_unit_probe_SOURCES = tests/unit/probe.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_probe_LDADD = $(UNIT_LDADD)
tests_unit_publish_SOURCES = tests/unit/publish.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_publish_LDADD = $(UNIT_LDADD)
tests_unit_random_SOURCES = tests/unit/random.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_random_LDADD = $(UNIT_LDADD)
tests_unit_tmpfile_SOURCES = tests/unit/tmpfile.c tests/unit/tap.h tests/unit/fixture.h
tests_unit_tmpfile_LDADD = $(UNIT_LDADD)

# ---- program tests: tests/<tool>/*.bats pairs with src/<tool>.c; tests/lib/<concern>.bats
# runs tests/unit/<concern> on each real filesystem (mounted in a private namespace)
BATS_TESTS = \
	tests/tmpcreate/mktemp-compat.bats \
	tests/tmpcreate/filesystems.bats \
	tests/tmpcreate/probe.bats \
	tests/tmpcreate/errors.bats \
	tests/tmpcreate/output.bats \
	tests/tmpcreate/replace.bats \
	tests/tmpcreate/scratch.bats \
	tests/tmpcreate/inherit.bats \
	tests/tmpcreate/argv.bats \
	tests/tmpcreate/names.bats \
	tests/tmpcreate/netfs.bats \
	tests/tmpcreate/reclaim.bats \
	tests/tmpcreate/gluster.bats \
	tests/setfattrs/operations.bats \
	tests/setfattrs/recursive.bats \
	tests/setfattrs/filesystems.bats \
	tests/setfattrs/gluster.bats \
	tests/setfattrs/cost.bats \
	tests/setfattrs/netfs.bats \
	tests/setfattrs/inherit.bats \
	tests/setfattrs/list.bats \
	tests/setfattrs/races.bats \
	tests/lib/kflags.bats \
	tests/lib/fstype.bats \
	tests/lib/fflags.bats \
	tests/xstat/gnu-compat.bats \
	tests/xstat/format-fuzz.bats \
	tests/xstat/filesystems.bats \
	tests/xstat/cost.bats \
	tests/xstat/fields.bats \
	tests/xstat/json.bats \
	tests/xstat/errors.bats \
	tests/xstat/view.bats \
	tests/xstat/matrix.bats \
	tests/xstat/inherit.bats \
	tests/xstat/kept.bats \
	tests/xstat/gluster.bats \
	tests/helpers/fs.bats \
	tests/helpers/netfs.bats \
	tests/helpers/filter.bats \
	tests/docs/consistency.bats \
	tests/docs/completions.bats \
	tests/docs/xstat-named.bats \
	tests/docs/tree.bats \
	tests/docs/commits.bats \
	tests/cli/messages.bats \
	tests/cli/quoting.bats

TESTS += $(UNIT_TESTS) $(BATS_TESTS)
EXTRA_DIST += \
	$(BATS_TESTS) \
	tests/README.md \
	tests/helpers/common.bash \
	tests/helpers/callers.bash \
	tests/helpers/completion.bash \
	tests/helpers/fs.bash \
	tests/helpers/netfs.bash \
	tests/helpers/fault.bash \
	tests/helpers/setfattrs.bash \
	tests/helpers/kept.bash \
	tests/helpers/sysctl.bash \
	tests/helpers/mounts.bash \
	tests/helpers/races.bash \
	tests/helpers/stat-compat.bash \
	tests/install/package.bats \
	tests/install/files.list \
	tests/install/not-in-tarball

# ---- libFuzzer targets: tests/fuzz/NAME.c with its seeds in tests/fuzz/corpus/NAME/,
# built with clang by tests/fuzz/run.sh (not by make check, not with the gcc build).
# make fuzz [FUZZ_SECONDS=30] [FUZZ_TARGETS='quote json']
FUZZ_SECONDS = 30
FUZZ_TARGETS =
fuzz:
	$(SHELL) $(top_srcdir)/tests/fuzz/run.sh -b '$(abs_top_builddir)' -t $(FUZZ_SECONDS) $(FUZZ_TARGETS)
.PHONY: fuzz
clean-local:
	-rm -rf fuzz-out soak-out
EXTRA_DIST += \
	tests/fuzz/run.sh \
	tests/fuzz/fuzz.h \
	tests/fuzz/corpus \
	tests/fuzz/argv.c \
	tests/fuzz/flagops.c \
	tests/fuzz/format.c \
	tests/fuzz/json.c \
	tests/fuzz/parse.c \
	tests/fuzz/quote.c \
	tests/fuzz/template.c

# ---- the kill -9 soak of tmpcreate -o: tests/soak/run.sh (root; not by make check).
# make soak [SOAK_TRIALS=1000] [SOAK_FS='tmpfs sshfs']
SOAK_TRIALS = 1000
SOAK_FS =
soak: tmpcreate$(EXEEXT)
	$(SHELL) $(top_srcdir)/tests/soak/run.sh -b '$(abs_top_builddir)' -n $(SOAK_TRIALS) $(SOAK_FS)
.PHONY: soak
EXTRA_DIST += \
	tests/soak/run.sh \
	tests/soak/killer.c

# ---- Debian's kernels in a qemu guest, with Samba and knfsd on its loopback:
# tests/vm (root; not by make check).
# make vm-check [VM_SUITES='bookworm trixie sid']
VM_SUITES = bookworm trixie sid
vm-check: tmpcreate$(EXEEXT) xstat$(EXEEXT) setfattrs$(EXEEXT)
	$(SHELL) $(top_srcdir)/tests/vm/check.sh -b '$(abs_top_builddir)' $(VM_SUITES)
.PHONY: vm-check
EXTRA_DIST += \
	tests/vm/check.sh \
	tests/vm/facts.py \
	tests/vm/kernels.sh \
	tests/vm/vm.sh \
	tests/vm/guest.sh \
	tests/vm/netfs.bats
