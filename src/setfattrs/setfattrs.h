/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setfattrs' private header: the run's control (options, operations, caches)
 * and one file's plan, shared by the files of src/setfattrs/.
 */
#ifndef SETFATTRS_H
#define SETFATTRS_H

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"
#include "fattrs.h"


struct setfattrs_control {
	bool dry_run, json, list, nofollow, one_fs, recursive, silent, verbose;
	const char *reference;	/* --reference=RFILE */
	/* After "--", the first word that looked like an operation but was none (taken as a file). */
	const char *not_op;
	int not_op_r;
	struct fattrs_flagops_error not_op_e;
	const char *last_op;	/* the last word taken as an operation */
	struct fattrs_flagops ops;
	bool kops;		/* some kernel flag is named or '=' was given */
	bool fops;		/* some fattrs flag is named or '=' was given */
	struct fattrs_mntcache *mntcache;	/* what each mount is and keeps */
	unsigned long dir_serial;	/* the walk's directory being changed in, 0: none */
	int opdir;		/* the operands' directory being changed in (operand_dir()), or -1 */
	const char *opdir_name;	/* its name: the first opdir_len bytes of an operand */
	size_t opdir_len;
	int byname;		/* -1 not known yet; whether changes in the directory go by name */
	bool ok;		/* no file failed (-R) */
	int nostat;		/* -1 not known yet; 1: the files of this directory are not stat'ed
				   (sf_nostat_at(), sf_want_nostat()) */
	int all_trusted;	/* -1 not known yet; 1: every mount is of a trusted type */
	const char *operand;	/* the operand being walked (-R) */
	/* Without '=', -v, -n and --json: every file's plan, made once (setfattrs_file()). */
	bool reused_ready, reused_fpending;
	/*
	 * When the reused plan changes fattrs flags only: its steps, in the order
	 * fflags_apply() takes them (setfattrs_fflags_only()); nfsteps -1
	 * until made, 0 if the reused plan has kernel flags too.
	 */
	int nfsteps;
	struct {
		enum fattrs_fflag f;
		bool on;
		unsigned flags;
	} fsteps[FATTRS_NFFLAGS];
	struct {
		bool on[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];
		unsigned char state[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];
		unsigned char old[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];
	} reused;
	struct fattrs_kchange reused_first;
};

/* ------------------------------------------------------ one file's plan */

enum step_state { STEP_NONE = 0, STEP_PENDING, STEP_APPLIED, STEP_FAILED };

/* One file's work: each flag's operation, its state before, and what became of it. */
struct file_plan {
	const char *path;	/* relative to dirfd */
	const char *shown;	/* for messages */
	int dirfd;
	bool nofollow;		/* do not follow path if it is a symlink */
	bool byname;		/* kernel flags by path in dirfd (FATTRS_KCHANGE_BY_NAME) */
	bool same_mount;	/* not stat'ed, judged by dirfd's mount (FATTRS_KCHANGE_SAME_MOUNT) */
	bool crossed;		/* ... and its name led, or may lead, off that mount: stat it */
	mode_t mode;
	uint64_t mnt_id;	/* its mount, 0 if not known */
	bool on[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];
	unsigned char state[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];
	unsigned char old[FATTRS_KFLAGS_MAX + FATTRS_NFFLAGS];	/* enum fattrs_state; FATTRS_STATE_UNKNOWN: not read */
	bool failed;
	bool unstat;		/* not stat'ed, and the stat after a failure failed (said) */
	/* The size hints (xfs): [0] as read (-v, -n, --json), [1] as given (0: none). */
	uint32_t extsize[2], cowextsize[2];
};

extern const struct poptOption sf_options[];

/* args.c: the command line */
__attribute__((noreturn))
void sf_bad_operation(const char *w, int r, const struct fattrs_flagops_error *e);
void sf_split_args(struct setfattrs_control *ctl, int argc, const char **argv, const char **popt_argv,
		int *ret_popt_argc, const char ***ret_files);
void sf_check_ops(struct setfattrs_control *ctl);
const char *sf_quote_part(const char *prefix, const char *s, size_t len);

/* lookup.c: the flag rows, type words, mounts; calls nothing else of setfattrs */
size_t sf_n_kflags(void);
const struct fattrs_kflag *sf_krow(size_t i);
const char *sf_flag_name(size_t i);
bool sf_is_sizehint(const struct fattrs_kflag *f);
struct fattrs_mntcache *sf_mntcache(struct setfattrs_control *ctl);
extern const struct fattrs_fsupport sf_nostat_fsupport;
int sf_fsupport_for(struct setfattrs_control *ctl, const struct file_plan *p, struct fattrs_fsupport *ret);
void sf_nostat_at(struct setfattrs_control *ctl, int dirfd, bool away);
bool sf_want_nostat(struct setfattrs_control *ctl);
bool sf_on_overlay(struct setfattrs_control *ctl, const struct file_plan *p);
const char *sf_type_word(mode_t mode);
int sf_mount_info(struct setfattrs_control *ctl, uint64_t mnt_id, struct fattrs_mntinfo *ret);
const char *sf_mount_type(struct setfattrs_control *ctl, const struct fattrs_statx_buf *stx);
const char *sf_fs_type(struct setfattrs_control *ctl, int dirfd, const char *path, bool nofollow);

/* plan.c: one file's plan and its run */
bool setfattrs_file(struct setfattrs_control *ctl, int dirfd, const char *path, const char *shown,
		    const struct stat *st, uint64_t mnt_id, bool nofollow);
bool sf_change_file(struct setfattrs_control *ctl, int dirfd, const char *path, const char *shown,
		 const struct stat *st, uint64_t mnt_id, bool nofollow);

/* apply.c: applying it */
bool kernel_apply(struct setfattrs_control *ctl, struct file_plan *p, const struct fattrs_kchange *c);
bool fflags_apply(struct setfattrs_control *ctl, struct file_plan *p);
void overlay_restore(struct setfattrs_control *ctl, struct file_plan *p, const struct fattrs_kattr *before);

/* report.c: messages and reports; calls only lookup.c */
__attribute__((format(printf, 3, 4)))
void sf_fail_flag(const struct setfattrs_control *ctl, int err, const char *fmt, ...);
bool sf_fail_locked(struct setfattrs_control *ctl, int dirfd, const char *path, bool nofollow, mode_t mode,
		 const char *shown, bool on, const char *name);
void sf_report(struct setfattrs_control *ctl, const struct file_plan *p);
void sf_report_unread(struct setfattrs_control *ctl, const char *shown);
void sf_report_partial(const struct setfattrs_control *ctl, const struct file_plan *p);

/* operands.c: operands, -R and --reference */
void sf_leave_dir(struct setfattrs_control *ctl);
bool setfattrs_operand(struct setfattrs_control *ctl, const char *file);
void sf_reference_ops(struct setfattrs_control *ctl);

/* list.c: --list */
int sf_list_main(struct setfattrs_control *ctl, const char *file);

#endif
