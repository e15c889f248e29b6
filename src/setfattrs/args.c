/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setfattrs: the command line split into options, operations and files, and
 * the usage errors that name what is wrong with an operation.
 */
#include "config.h"

#include "setfattrs.h"

/* ------------------------------------------------------------ operands */

/* Whether @c is a chattr letter of a kernel flag. */
static bool is_flag_letter(char c)
{
	for (size_t i = 0; c != '\0' && i < sf_n_kflags(); i++) {
		if (sf_krow(i)->letter == c)
			return true;
	}
	return false;
}

/*
 * "-vd", "-Rd": option letters and flag letters in one word, which is then
 * neither options nor an operation: say to split it ("-v -d"), rather
 * than suggest a flag for 'v'.  An option letter that is also a flag's
 * (x, V) counts as the option, as it does alone.
 */
static void mixed_letters(const char *w)
{
	char opts[64] = "-", flags[64] = "-";
	size_t no = 1, nf = 1;

	if (w[0] != '-' || w[1] == '-' || w[1] == '\0' || strlen(w) >= sizeof(opts))
		return;
	for (const char *c = w + 1; *c != '\0'; c++) {
		const char opt[] = { '-', *c, '\0' };

		if (*c != '-' && cli_popt_option_words(sf_options, opt, NULL) == 1)
			opts[no++] = *c;
		else if (is_flag_letter(*c))
			flags[nf++] = *c;
		else
			return;
	}
	if (no == 1 || nf == 1)
		return;
	opts[no] = flags[nf] = '\0';
	cli_usage_error(_("%s mixes options and flag letters: give them as separate words (%s)"), cli_quote(w),
			cli_quote_printf("%s %s", opts, flags));
}

/* Whether the @len bytes at @s are the name of a size hint flag (extsize...). */
static bool sizehint_named(const char *s, size_t len)
{
	for (size_t i = 0; i < sf_n_kflags(); i++) {
		if (sf_is_sizehint(sf_krow(i)) && strlen(sf_krow(i)->name) == len && memcmp(sf_krow(i)->name, s, len) == 0)
			return true;
	}
	return false;
}

/*
 * @prefix and the @len bytes at @s, quoted as cli_quote() quotes a word (a
 * word of argv may hold any byte: an escape sequence, half a character).
 */
const char *sf_quote_part(const char *prefix, const char *s, size_t len)
{
	return cli_quote_printf("%s%.*s", prefix, (int)len, s);
}

/* The operation @w refused by the parser: a usage error that names the flag. */
__attribute__((noreturn))
void sf_bad_operation(const char *w, int r, const struct fattrs_flagops_error *e)
{
	if (r == -EINVAL)
		cli_usage_error(_("invalid operation %s: give [+-=]FLAG[,FLAG]..."), cli_quote(w));
	if (r == -EPERM)
		cli_usage_error(_("flag %s in %s is read-only: it cannot be set or cleared"),
				sf_quote_part("", w + e->offset, e->len), cli_quote(w));
	if (r == -EDOM && w[0] == '-' && sizehint_named(w + e->offset, e->len))
		cli_usage_error(_("flag %s in %s takes no size when it is cleared: give %s"),
				sf_quote_part("", w + e->offset, e->len), cli_quote(w),
				sf_quote_part("-", w + e->offset, e->len));
	if (r == -EDOM)
		cli_usage_error(_("flag %s in %s takes no size: only extsize, extszinherit and cowextsize do (%s)"),
				sf_quote_part("", w + e->offset, e->len), cli_quote(w), cli_quote("+extsize=1m"));
	if (r == -ERANGE)
		cli_usage_error(_("invalid size %s in %s: give 1 to 4294967295 bytes, with an optional k, m or g (KiB, MiB, GiB)"),
				sf_quote_part("", w + e->offset, e->len), cli_quote(w));
	mixed_letters(w);
	if (e->suggest != NULL) {
		const char *s = e->suggest;
		const char opt[] = { '-', s[0], '\0' };

		/* "-X": not 'x', which "-x" would be the option; the flag's name, "-dax". */
		if (w[0] == '-' && s[0] != '\0' && s[1] == '\0' && cli_popt_option_words(sf_options, opt, NULL) > 0) {
			for (size_t i = 0; i < sf_n_kflags(); i++) {
				if (sf_krow(i)->letter == s[0])
					s = sf_krow(i)->name;
			}
		}
		cli_usage_error(_("unknown flag %s in %s; did you mean %s? (%s lists them)"),
				sf_quote_part("", w + e->offset, e->len), cli_quote(w), cli_quote(s),
				cli_quote_printf("%s --list", program_name));
	}
	cli_usage_error(_("unknown flag %s in %s (%s lists every flag)"),
			sf_quote_part("", w + e->offset, e->len), cli_quote(w),
			cli_quote_printf("%s --list", program_name));
}

/*
 * Split argv: options go to popt; a word that starts with '+', '=' or '-'
 * and is no option of ours is an operation ("-i", "-offline"); the rest are
 * files.  Operations come before the files; options may come anywhere, as
 * GNU's programs take them, but with POSIXLY_CORRECT (or POSIX_ME_HARDER,
 * which popt also honours) set, options and operations end at the first
 * file, as in chattr: every word after it is a file.  After "--" every word
 * is a file when operations came before it; else the words that parse as
 * operations are ones, up to the first that does not.
 */
/*
 * The split argv, reachable from here until exit (a usage error exits with
 * it): volatile, so that the stores are not dropped as never read.
 */
static const char **volatile split_files;

void sf_split_args(struct setfattrs_control *ctl, int argc, const char **argv, const char **popt_argv,
		int *ret_popt_argc, const char ***ret_files)
{
	const char **files = split_files = calloc((size_t)argc + 1, sizeof(*files));
	size_t nfiles = 0;
	int np = 0;
	bool dashdash = false, ops_before = false;
	bool posix = getenv("POSIXLY_CORRECT") != NULL || getenv("POSIX_ME_HARDER") != NULL;

	if (files == NULL)
		cli_die(CLI_EXIT_FAILURE, ENOMEM, _("cannot start"));
	popt_argv[np++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		struct fattrs_flagops_error e;
		int words, r;

		if (!dashdash && strcmp(w, "--") == 0) {
			dashdash = true;
			ops_before = !fattrs_flagops_empty(&ctl->ops);
			continue;
		}
		if (!dashdash) {
			words = cli_popt_option_words(sf_options, w, i + 1 < argc ? argv[i + 1] : NULL);
			if (words > 0) {
				popt_argv[np++] = w;
				if (words == 2)
					popt_argv[np++] = argv[++i];
				continue;
			}
		}
		if (nfiles == 0 && (!dashdash || !ops_before) &&
		    (w[0] == '+' || w[0] == '=' || (w[0] == '-' && w[1] != '\0'))) {
			r = fattrs_flagops_parse(&ctl->ops, w, &e);
			if (r == 0) {
				ctl->last_op = w;
				continue;
			}
			if (!dashdash)
				sf_bad_operation(w, r, &e);
			/* A file, unless no operation comes at all: then a mistyped one (see main()). */
			ctl->not_op = w;
			ctl->not_op_r = r;
			ctl->not_op_e = e;
		} else if (!dashdash && nfiles > 0 && (w[0] == '+' || w[0] == '=' || (w[0] == '-' && w[1] != '\0'))) {
			/* A message that names a file quotes every word as a file name. */
			cli_usage_error(_("operation %s after the file %s: give every operation before the files (a file named so: %s)"),
					cli_quotef(w), cli_quotef(files[0]), cli_quotef_printf("./%s", w));
		}
		files[nfiles++] = w;
		if (dashdash || posix) {
			/* After "--", or in POSIX's order, once a file is seen, every word is one. */
			for (i++; i < argc; i++)
				files[nfiles++] = argv[i];
		}
	}
	popt_argv[np] = NULL;
	*ret_popt_argc = np;
	*ret_files = files;
}

/* Which kinds of flag the operations touch, and whether they contradict each other. */
void sf_check_ops(struct setfattrs_control *ctl)
{
	size_t nk = sf_n_kflags();

	ctl->kops = ctl->fops = ctl->ops.assign;
	for (size_t i = 0; i < nk; i++) {
		if (ctl->ops.kop[i] != FATTRS_FLAGOP_LEAVE)
			ctl->kops = true;
	}
	for (int f = 0; f < FATTRS_NFFLAGS; f++) {
		const struct fattrs_fflag_info *fi = fattrs_fflag_info((enum fattrs_fflag)f);

		if (ctl->ops.fop[f] != FATTRS_FLAGOP_LEAVE)
			ctl->fops = true;
		if (ctl->ops.fop[f] == FATTRS_FLAGOP_SET && ctl->ops.fop[fi->opposite] == FATTRS_FLAGOP_SET &&
		    f < (int)fi->opposite)
			cli_usage_error(_("%s and %s are opposites: a file cannot have both"), cli_quote(fi->name),
					cli_quote(fattrs_fflag_info(fi->opposite)->name));
	}
}
