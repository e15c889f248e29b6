/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages in the one grammar, "PROG: cannot VERB 'FILE': CAUSE", and stdout's check at exit. */
#include "config.h"

#include <errno.h>
#include <libintl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "inherit.h"

const char *program_name = "fattrs";
static const char *message_name;	/* NULL: program_name */
static bool stdout_closed;
static bool lost_messages_fail = true;

/*
 * fclose(@f), failing (false, errno set, 0 if unknown) as gnulib's
 * close_stream() does: if anything written was lost; EBADF from a stream
 * nothing was written to is not a failure.
 */
static bool close_stream(FILE *f)
{
	bool had_error = ferror(f) != 0;
	size_t pending = __fpending(f);
	bool fail = fclose(f) != 0;

	if (had_error || (fail && (pending != 0 || errno != EBADF))) {
		if (!fail)
			errno = 0;
		return false;
	}
	return true;
}

static void close_stdout_atexit(void)
{
	if (!stdout_closed && !cli_close_stdout(true))
		_exit(CLI_EXIT_FAILURE);
	/* A message that could not be written is a failure; a closed stderr alone is not. */
	if (!close_stream(stderr) && lost_messages_fail)
		_exit(CLI_EXIT_FAILURE);
}

void cli_init(const char *argv0)
{
	const char *slash = argv0 != NULL ? strrchr(argv0, '/') : NULL;

	cli_inherit_init();
	if (argv0 != NULL && *argv0 != '\0')
		program_name = slash != NULL ? slash + 1 : argv0;
	(void)atexit(close_stdout_atexit);
}

static const char *text_domain;

void cli_text_domain(const char *domain)
{
	text_domain = domain;
}

const char *cli_gettext(const char *msgid)
{
	return text_domain != NULL ? dgettext(text_domain, msgid) : msgid;
}

const char *cli_getopt_text(const char *msgid)
{
	return text_domain != NULL ? dgettext("libc", msgid) : msgid;
}

void cli_name_messages_as_given(const char *argv0)
{
	if (argv0 != NULL && *argv0 != '\0')
		message_name = argv0;
}

const char *cli_message_name(void)
{
	return message_name != NULL ? message_name : program_name;
}

static void (*before_message)(void);

void cli_before_message(void (*fn)(void))
{
	before_message = fn;
}

/*
 * "PROG: MESSAGE[: CAUSE]\n" in one write(2) to the unbuffered stderr, so
 * that the messages of processes sharing it (parallel runs appending to
 * one log) never interleave.  Out of memory for a long one: written in
 * pieces, as stdio would.
 */
static void write_message(int err, const char *fmt, va_list ap)
{
	char stack[1024], *msg = stack;
	const char *cause = err != 0 ? strerror(err) : NULL;
	const char *name = cli_message_name();
	va_list aq;
	int head, len;

	va_copy(aq, ap);
	head = snprintf(stack, sizeof(stack), "%s: ", name);
	len = head < 0 ? -1 : vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (len < 0)
		return;
	size_t total = (size_t)head + (size_t)len + (cause != NULL ? 2 + strlen(cause) : 0) + 1;
	if (total >= sizeof(stack)) {
		msg = malloc(total + 1);
		if (msg == NULL) {
			fprintf(stderr, "%s: ", name);
			vfprintf(stderr, fmt, ap);
			if (cause != NULL)
				fprintf(stderr, ": %s", cause);
			fputc('\n', stderr);
			return;
		}
		memcpy(msg, stack, (size_t)head);
	}
	(void)vsnprintf(msg + head, (size_t)len + 1, fmt, ap);
	size_t n = (size_t)head + (size_t)len;
	if (cause != NULL) {
		memcpy(msg + n, ": ", 2);
		memcpy(msg + n + 2, cause, strlen(cause));
		n += 2 + strlen(cause);
	}
	msg[n++] = '\n';
	(void)fwrite(msg, 1, n, stderr);
	if (msg != stack)
		free(msg);
}

void cli_vwarn(int err, const char *fmt, va_list ap)
{
	if (before_message != NULL)
		before_message();	/* what a tool made before the message comes before it */
	(void)fflush(stdout);
	write_message(err, fmt, ap);
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

void cli_try_help(void)
{
	fprintf(stderr, _("Try '%s --help' for more information.\n"), cli_message_name());
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

void cli_lost_messages_fail(bool fail)
{
	lost_messages_fail = fail;
}

bool cli_close_stdout(bool report)
{
	bool ok = close_stream(stdout);

	stdout_closed = true;
	if (!ok && report)
		cli_warn(errno, _("write error"));
	return ok;
}
