/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: the format engine of xstat (src/xstat/format.h), fmt_parse() and
 * fmt_render() in both modes, with and without --printf escapes, against
 * one fixed file and file system.  Checks: parsing never fails but for
 * memory; a format without '%' (nor, with escapes, '\') needs nothing and
 * prints itself; a format needs a statx field only when it has a '%'; the
 * table's letters are the only ones that add needs; rendering the same
 * format twice prints the same bytes; nothing reads past the format (ASan).
 * A format with an invalid directive is not rendered: that ends the process,
 * as GNU stat's does (tests/xstat/ check the message).
 * Input: byte 0 picks the mode (bit 0) and escapes (bit 1); the rest is the format
 * (inputs with a number of 5 to 19 significant digits are skipped: widths
 * that big only make the output slow to write and big).
 * Named directives that look things up (flags, mounts) find no such file:
 * they print "?" with a message, the same each time.
 * FUZZ_SOURCES: src/xstat/context.c src/xstat/time.c src/xstat/gnu.c src/xstat/fields.c src/xstat/fsinfo.c src/xstat/parse.c src/xstat/render.c src/xstat/json.c src/cli/buf.c src/cli/quotearg.c src/cli/msg.c src/cli/inherit.c src/cli/parse.c src/cli/quote.c src/cli/json.c src/lib/fs/statx.c src/lib/fs/mount.c src/lib/fs/mntcache.c src/lib/flags/kflags.c src/lib/flags/kattr.c src/lib/flags/ktarget.c src/lib/fs/fstype.c src/lib/flags/fflags.c src/lib/flags/fset.c src/lib/flags/fsupport.c src/lib/flags/winattr.c src/lib/flags/xattrat.c src/lib/path.c
 * FUZZ_LIBS: -ldl
 */
#include "config.h"

#include <sys/stat.h>

#include "cli.h"
#include "format.h"
#include "fuzz.h"

static char *render(const struct fmt *fmt, struct fmt_file *file, size_t *ret_len)
{
	char *buf = NULL;
	FILE *out = open_memstream(&buf, ret_len);

	FUZZ_CHECK(out != NULL, "open_memstream");
	(void)fmt_render(fmt, file, out, "\n");
	FUZZ_CHECK(fclose(out) == 0, "fclose");
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fmt_ctx *ctx;
	struct fattrs_statx_buf stx = {
		.stx_mask = 0x7ff | STATX_BTIME, .stx_blksize = 4096, .stx_nlink = 2,
		.stx_uid = 0, .stx_gid = 0, .stx_mode = S_IFREG | 04755, .stx_ino = 1234567,
		.stx_size = 1 << 20, .stx_blocks = 2048,
		.stx_atime = { .tv_sec = -1, .tv_nsec = 250000000 },
		.stx_btime = { .tv_sec = 0, .tv_nsec = 1 },
		.stx_ctime = { .tv_sec = 1700000000, .tv_nsec = 999999999 },
		.stx_mtime = { .tv_sec = 4102444800LL, .tv_nsec = 5 },
		.stx_rdev_major = 8, .stx_rdev_minor = 1, .stx_dev_major = 254, .stx_dev_minor = 3,
	};
	struct statfs sfs = { .f_type = 0x01021994, .f_bsize = 4096, .f_blocks = 100,
			      .f_bfree = 50, .f_bavail = 40, .f_files = 1000, .f_ffree = 900,
			      .f_namelen = 255, .f_frsize = 4096 };
	struct fmt_file file = { .name = "fuzz: no such file", .stx = &stx, .sfs = &sfs };
	enum fmt_mode mode;
	unsigned int flags;
	struct fmt *fmt;
	char *text, *a, *b;
	size_t alen, blen;

	if (size < 1)
		return 0;
	if (ctx == NULL) {
		ctx = fmt_ctx_new();
		FUZZ_CHECK(ctx != NULL, "out of memory");
		fmt_ctx_set_quoting(ctx, CLI_QS_SHELL_ESCAPE_ALWAYS);
	}
	file.ctx = ctx;
	mode = (data[0] & 1) ? FMT_FS : FMT_FILE;
	flags = (data[0] & 2) ? FMT_ESCAPES : 0;
	text = fuzz_cstr(data + 1, size - 1);
	/*
	 * A width of 10^9 is honoured (GNU prints it too), but is no test of
	 * the parser.  One of 20 digits or more (past 2^64: the parser must
	 * not overflow) is kept: printf refuses it at once.  Not with a time
	 * directive, whose precision is cut to INT_MAX digits, as GNU's.
	 */
	for (const char *d = text; *d != '\0'; d++) {
		size_t n = strspn(d, "0123456789");
		/* leading zeros are flags ("%0001561099953d" is a width of 10^9) */
		size_t sig = n - strspn(d, "0");

		if (sig > 4 && (sig < 20 || strpbrk(text, "WXYZ{") != NULL)) {
			free(text);
			return 0;
		}
		d += n > 0 ? n - 1 : 0;
	}
	fmt = fmt_parse(text, mode, flags);
	FUZZ_CHECK(fmt != NULL, "fmt_parse failed on '%s'", text);
	if (strchr(text, '%') == NULL) {
		FUZZ_CHECK(fmt_statx_mask(fmt) == 0 && fmt_needs(fmt) == 0,
			   "'%s' has no directive but needs %#x/%#x", text, fmt_statx_mask(fmt), fmt_needs(fmt));
		FUZZ_CHECK(fmt_invalid(fmt) == NULL, "'%s' has no directive but one is invalid", text);
	}
	if (fmt_invalid(fmt) == NULL) {
		a = render(fmt, &file, &alen);
		b = render(fmt, &file, &blen);
		FUZZ_CHECK(alen == blen && memcmp(a, b, alen) == 0, "'%s' renders differently twice", text);
		if (strchr(text, '%') == NULL && (!(flags & FMT_ESCAPES) || strchr(text, '\\') == NULL)) {
			size_t n = strlen(text);

			FUZZ_CHECK(alen == n + 1 && memcmp(a, text, n) == 0 && a[n] == '\n',
				   "'%s' does not print itself", text);
		}
		free(a);
		free(b);
	}
	fmt_free(fmt);
	free(text);
	return 0;
}
