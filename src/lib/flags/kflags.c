/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel flags: the one table, and what a row is in the words a file's flags are read into and
 * in a change of them (doc/design.md §3, doc/kernel.md §2).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "kflags-private.h"

/*
 * The table.  Display order, do not sort: what chattr users set most,
 * then the rest of chattr's settable letters, then what lsattr only
 * reports, then the flags only xfs has (no letters).  Every consumer
 * (parsing, --list, xstat, completions, man page checks) derives from it.
 */
static const struct fattrs_kflag kflags[] = {
	{ .name = "immutable", .letter = 'i', .xflag = FS_XFLAG_IMMUTABLE,
	  .iflag = FS_IMMUTABLE_FL, .statx_attr = STATX_ATTR_IMMUTABLE,
	  .description = "file cannot be modified, deleted, renamed or linked" },
	{ .name = "append", .letter = 'a', .xflag = FS_XFLAG_APPEND,
	  .iflag = FS_APPEND_FL, .statx_attr = STATX_ATTR_APPEND,
	  .description = "file can only be opened for appending" },
	{ .name = "nodump", .letter = 'd', .xflag = FS_XFLAG_NODUMP,
	  .iflag = FS_NODUMP_FL, .statx_attr = STATX_ATTR_NODUMP,
	  .description = "file is skipped by dump(8) backups" },
	{ .name = "noatime", .letter = 'A', .xflag = FS_XFLAG_NOATIME,
	  .iflag = FS_NOATIME_FL,
	  .description = "access time is not updated" },
	{ .name = "sync", .letter = 'S', .xflag = FS_XFLAG_SYNC,
	  .iflag = FS_SYNC_FL,
	  .description = "changes are written to disk synchronously" },
	{ .name = "dirsync", .letter = 'D', .iflag = FS_DIRSYNC_FL,
	  .description = "directory changes are written to disk synchronously" },
	{ .name = "nocow", .letter = 'C', .iflag = FS_NOCOW_FL,
	  .description = "no copy-on-write (set on empty files or directories)" },
	{ .name = "compress", .letter = 'c', .iflag = FS_COMPR_FL,
	  .statx_attr = STATX_ATTR_COMPRESSED,
	  .description = "file is compressed by the filesystem" },
	{ .name = "nocompress", .letter = 'm', .iflag = FS_NOCOMP_FL,
	  .description = "file is never compressed" },
	{ .name = "projinherit", .letter = 'P', .xflag = FS_XFLAG_PROJINHERIT,
	  .iflag = FS_PROJINHERIT_FL,
	  .description = "new entries inherit the directory's project id" },
	/* STATX_ATTR_DAX is the state in effect, which this flag asks for. */
	{ .name = "dax", .letter = 'x', .xflag = FS_XFLAG_DAX,
	  .iflag = FS_DAX_FL, .statx_attr = STATX_ATTR_DAX,
	  .description = "file is accessed directly, bypassing the page cache" },
	{ .name = "secrm", .letter = 's', .iflag = FS_SECRM_FL,
	  .description = "blocks are to be zeroed on deletion (not implemented)" },
	{ .name = "undelete", .letter = 'u', .iflag = FS_UNRM_FL,
	  .description = "contents are to be kept for undeletion (not implemented)" },
	{ .name = "journal", .letter = 'j', .iflag = FS_JOURNAL_DATA_FL,
	  .description = "data is written through the journal" },
	{ .name = "notail", .letter = 't', .iflag = FS_NOTAIL_FL,
	  .description = "tail is not merged with other files' tails" },
	{ .name = "topdir", .letter = 'T', .iflag = FS_TOPDIR_FL,
	  .description = "directory is the top of a hierarchy for the allocator" },
	{ .name = "extents", .letter = 'e', .iflag = FS_EXTENT_FL, .readonly = true,
	  .description = "file is mapped with extents" },
	{ .name = "index", .letter = 'I', .iflag = FS_INDEX_FL, .readonly = true,
	  .description = "directory is indexed by hashed trees" },
	{ .name = "encrypted", .letter = 'E', .iflag = FS_ENCRYPT_FL,
	  .statx_attr = STATX_ATTR_ENCRYPTED, .readonly = true,
	  .description = "file is encrypted by the filesystem" },
	{ .name = "verity", .letter = 'V', .xflag = FS_XFLAG_VERITY,
	  .iflag = FS_VERITY_FL, .statx_attr = STATX_ATTR_VERITY, .readonly = true,
	  .description = "file is protected by fs-verity" },
	{ .name = "casefold", .letter = 'F', .xflag = FS_XFLAG_CASEFOLD,
	  .iflag = FS_CASEFOLD_FL, .readonly = true,
	  .description = "names in the directory are looked up case-insensitively" },
	{ .name = "inline-data", .letter = 'N', .iflag = FS_INLINE_DATA_FL, .readonly = true,
	  .description = "data is stored in the inode" },
	{ .name = "realtime", .xflag = FS_XFLAG_REALTIME,
	  .description = "data is on the realtime device" },
	{ .name = "rtinherit", .xflag = FS_XFLAG_RTINHERIT,
	  .description = "new files in the directory get realtime" },
	{ .name = "nosymlinks", .xflag = FS_XFLAG_NOSYMLINKS,
	  .description = "no symbolic links can be made in the directory" },
	{ .name = "extsize", .xflag = FS_XFLAG_EXTSIZE,
	  .description = "file has an extent size hint" },
	{ .name = "extszinherit", .xflag = FS_XFLAG_EXTSZINHERIT,
	  .description = "new files in the directory get its extent size hint" },
	{ .name = "nodefrag", .xflag = FS_XFLAG_NODEFRAG,
	  .description = "file is skipped by the defragmenter" },
	{ .name = "filestream", .xflag = FS_XFLAG_FILESTREAM,
	  .description = "directory uses the filestream allocator" },
	{ .name = "cowextsize", .xflag = FS_XFLAG_COWEXTSIZE,
	  .description = "file has a copy-on-write extent size hint" },
	{ .name = "prealloc", .xflag = FS_XFLAG_PREALLOC, .readonly = true,
	  .description = "file has preallocated extents" },
	{ .name = "casenonpreserving", .xflag = FS_XFLAG_CASENONPRESERVING, .readonly = true,
	  .description = "directory does not keep the case of names" },
	{ .name = "hasattr", .xflag = FS_XFLAG_HASATTR, .readonly = true,
	  .description = "file has extended attributes" },
};

#define N_KFLAGS (sizeof(kflags) / sizeof(kflags[0]))

/* struct fattrs_flagops has a slot for each row. */
_Static_assert(N_KFLAGS <= FATTRS_KFLAGS_MAX, "FATTRS_KFLAGS_MAX is too small for the table");

const struct fattrs_kflag *fattrs_kflags_table(size_t *ret_n)
{
	*ret_n = N_KFLAGS;
	return kflags;
}

const struct fattrs_kflag *fattrs_kflag_find(const char *name)
{
	bool letter = name[0] != '\0' && name[1] == '\0';

	for (size_t i = 0; i < N_KFLAGS; i++) {
		if (letter ? kflags[i].letter == name[0] : strcmp(kflags[i].name, name) == 0)
			return &kflags[i];
	}
	return NULL;
}

int fattrs_kattr_test(const struct fattrs_kattr *a, const struct fattrs_kflag *f)
{
	/*
	 * The iflags word first: verity and casefold have xflags only since
	 * 7.0 and 7.2, and an older kernel leaves those bits clear.
	 */
	if (f->iflag != 0 && (a->have & FATTRS_KATTR_IFLAGS))
		return (a->iflags & f->iflag) != 0;
	if (f->xflag != 0 && (a->have & FATTRS_KATTR_XFLAGS))
		return (a->xflags & f->xflag) != 0;
	return -ENODATA;
}

/* The flag words an FS_XFLAG_* bit of file_getattr(2) mirrors (the kernel translates them). */
#define XFLAGS_SHARED (FS_XFLAG_SYNC | FS_XFLAG_IMMUTABLE | FS_XFLAG_APPEND | FS_XFLAG_NODUMP | \
		       FS_XFLAG_NOATIME | FS_XFLAG_DAX | FS_XFLAG_PROJINHERIT)

enum fattrs_kread fattrs_kflag_read_by(const struct fattrs_kflag *f)
{
	/*
	 * statx(2) reports a few flags, with stx_attributes_mask saying
	 * whether the filesystem has them at all: no other call.  Its DAX bit
	 * is the state in effect, not the flag that asks for it.
	 */
	if (f->statx_attr != 0 && f->statx_attr != STATX_ATTR_DAX)
		return FATTRS_KREAD_STATX;
	/* verity and casefold have xflags only in kernels newer than 6.18. */
	if (f->xflag != 0 && (f->iflag == 0 || (f->xflag & XFLAGS_SHARED)))
		return FATTRS_KREAD_XFLAGS;
	return FATTRS_KREAD_IFLAGS;
}

int fattrs_kchange_add(struct fattrs_kchange *c, const struct fattrs_kflag *f, bool on)
{
	bool x = f->xflag != 0;
	uint32_t *set = x ? &c->xset : &c->iset;
	uint32_t *clear = x ? &c->xclear : &c->iclear;
	uint32_t bit = x ? f->xflag : f->iflag;

	if (f->readonly)
		return -EINVAL;
	*(on ? set : clear) |= bit;
	*(on ? clear : set) &= ~bit;
	return 0;
}

bool fattrs_kchange_has(const struct fattrs_kchange *c, const struct fattrs_kflag *f, bool on)
{
	if (f->xflag != 0)
		return ((on ? c->xset : c->xclear) & f->xflag) != 0;
	return ((on ? c->iset : c->iclear) & f->iflag) != 0;
}

/* The bits of each word that the table marks read-only. */
void readonly_masks(uint32_t *ret_x, uint32_t *ret_i)
{
	/* The table is constant: computed once (a race computes the same twice). */
	static _Atomic uint32_t rx, ri;
	static _Atomic bool done;
	uint32_t x = 0, i = 0;

	if (done) {
		*ret_x = rx;
		*ret_i = ri;
		return;
	}
	for (size_t k = 0; k < N_KFLAGS; k++) {
		if (kflags[k].readonly) {
			x |= kflags[k].xflag;
			i |= kflags[k].iflag;
		}
	}
	rx = x;
	ri = i;
	done = true;
	*ret_x = x;
	*ret_i = i;
}

int fattrs_kattr_restore(int dirfd, const char *path, unsigned at_flags, mode_t mode,
			 const struct fattrs_kattr *before, struct fattrs_kchange *ret_lost)
{
	struct fattrs_kattr after;
	struct fattrs_kchange back = { .xset = 0 };
	bool lost = false;
	int r;

	r = fattrs_kattr_get(dirfd, path, at_flags, mode, WANT_ALL, &after);
	if (r < 0)
		return r;
	for (size_t i = 0; i < N_KFLAGS; i++) {
		const struct fattrs_kflag *f = &kflags[i];

		if (!f->readonly && fattrs_kattr_test(before, f) == 1 && fattrs_kattr_test(&after, f) == 0) {
			(void)fattrs_kchange_add(&back, f, true);
			lost = true;
		}
	}
	if (!lost)
		return 0;
	r = fattrs_kattr_change(dirfd, path, at_flags, mode, &back, NULL);
	if (r >= 0)
		return 1;
	if (ret_lost != NULL)
		*ret_lost = back;
	return r;
}

enum fattrs_state fattrs_kflag_state(const struct fattrs_kflag *f, const struct fattrs_statx_buf *stx,
				     const struct fattrs_kattr *a, int aerr, const struct fattrs_fstype *keeps,
				     enum fattrs_fsanswer *ret_support)
{
	/* statx's DAX bit is the state in effect, in every mask: not the flag */
	uint64_t sx = f->statx_attr == STATX_ATTR_DAX ? 0 : f->statx_attr;
	enum fattrs_fsanswer support = FATTRS_FS_UNKNOWN;
	enum fattrs_state s;
	int v;

	if (sx != 0 && stx != NULL) {
		if (stx->stx_attributes_mask & sx) {
			support = FATTRS_FS_YES;
			s = (stx->stx_attributes & sx) ? FATTRS_STATE_SET : FATTRS_STATE_CLEAR;
		} else {
			support = FATTRS_FS_NO;
			s = FATTRS_STATE_UNSUPPORTED;
		}
		goto out;
	}
	if (a == NULL) {
		if (aerr == -EOPNOTSUPP) {
			support = FATTRS_FS_NO;
			s = FATTRS_STATE_UNSUPPORTED;
		} else {
			s = FATTRS_STATE_UNREADABLE;
		}
		goto out;
	}
	v = fattrs_kattr_test(a, f);
	if (v < 0) {
		/* the word it lives in cannot be read here */
		support = FATTRS_FS_NO;
		s = FATTRS_STATE_UNSUPPORTED;
	} else if (v == 1) {
		support = FATTRS_FS_YES;
		s = FATTRS_STATE_SET;
	} else {
		int k = fattrs_fstype_keeps(keeps, stx != NULL ? stx->stx_mode : 0, f);

		support = k == 1 ? FATTRS_FS_YES : k == 0 ? FATTRS_FS_NO : FATTRS_FS_UNKNOWN;
		s = k == 0 ? FATTRS_STATE_UNSUPPORTED : FATTRS_STATE_CLEAR;
	}
out:
	if (ret_support != NULL)
		*ret_support = support;
	return s;
}
