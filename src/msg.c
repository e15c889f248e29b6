/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages in the one grammar, "PROG: cannot VERB 'FILE': CAUSE", and stdout's check at exit. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *program_name = "fattrs";
static bool stdout_closed;

static void close_stdout_atexit(void)
{
	if (!stdout_closed && !cli_close_stdout(true))
		_exit(CLI_EXIT_FAILURE);
	if (fclose(stderr) != 0)
		_exit(CLI_EXIT_FAILURE);
}

void cli_init(const char *argv0)
{
	const char *slash = argv0 != NULL ? strrchr(argv0, '/') : NULL;

	if (argv0 != NULL && *argv0 != '\0')
		program_name = slash != NULL ? slash + 1 : argv0;
	(void)setlocale(LC_ALL, "");
	(void)atexit(close_stdout_atexit);
}

void cli_vwarn(int err, const char *fmt, va_list ap)
{
	(void)fflush(stdout);
	fprintf(stderr, "%s: ", program_name);
	vfprintf(stderr, fmt, ap);
	if (err != 0)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

void cli_warn(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vwarn(err, fmt, ap);
	va_end(ap);
}

void cli_die(int status, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vwarn(err, fmt, ap);
	va_end(ap);
	exit(status);
}

void cli_bad_word(const char *option, const char *word, const char *const *words, size_t n)
{
	char valid[256] = "";
	char name[64];

	for (size_t i = 0; i < n; i++)
		(void)snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), "%s'%s'",
			       i ? ", " : "", words[i]);
	(void)snprintf(name, sizeof(name), "--%s", option);
	cli_usage_error(_("invalid argument %s for %s; valid arguments are %s"),
			cli_quote(word), cli_quote(name), valid);
}

void cli_try_help(void)
{
	fprintf(stderr, _("Try '%s --help' for more information.\n"), program_name);
}

void cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vwarn(0, fmt, ap);
	va_end(ap);
	cli_try_help();
	exit(CLI_EXIT_FAILURE);
}

bool cli_close_stdout(bool report)
{
	bool had_error = ferror(stdout) != 0;
	size_t pending = __fpending(stdout);
	bool fail = fclose(stdout) != 0;
	int err = errno;

	stdout_closed = true;
	/* EBADF from a closed stdout is fine only if nothing was to be written. */
	if (fail && !had_error && err == EBADF && pending == 0)
		fail = false;
	if ((had_error || fail) && report)
		cli_warn(had_error && !fail ? 0 : err, _("write error"));
	return !(had_error || fail);
}

void cli_version(void)
{
	printf("%s (%s) %s\n", program_name, PACKAGE_NAME, PACKAGE_VERSION);
	exit(CLI_EXIT_OK);
}
