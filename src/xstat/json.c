/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One file as a JSON object (fmt_json()). */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <locale.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "cli.h"
#include "format.h"
#include "format-private.h"

/* @d's value @v (@r from its getter), its key written already. */
static void put_value(struct cli_json *j, const struct fmt_directive *d, struct fmt_file *f, int r,
		      const union fmt_value *v)
{
	if (r != FMT_VALUE_OK) {
		cli_json_null(j, NULL);
	} else {
		switch (d->out) {
		case FMT_OUT_LIST: {
			const struct fattrs_fflags *ff = &f->ctx->lookups.ff;

			cli_json_str_array(j, NULL, ff->unknown, ff->n_unknown);
			break;
		}
		case FMT_OUT_STRING:
		case FMT_OUT_STRING_RAW:
		case FMT_OUT_STATE:
		case FMT_OUT_QUOTED:
			cli_json_str(j, NULL, v->s);
			break;
		case FMT_OUT_INT:
			cli_json_int(j, NULL, (long long)v->i);
			break;
		case FMT_OUT_UINT:
		case FMT_OUT_OCTAL:
		case FMT_OUT_HEX:
			cli_json_uint(j, NULL, (unsigned long long)v->u);
			break;
		case FMT_OUT_EPOCH:
			cli_json_timespec(j, NULL, (long long)v->t.tv_sec, (long)v->t.tv_nsec);
			break;
		}
	}
}

bool fmt_json(struct fmt_file *f, FILE *out, bool all, char term)
{
	struct cli_buf *b = &f->ctx->out;
	struct cli_json j;
	bool ok = true;
	size_t pos = 0;
	const struct fmt_directive *d;

	cli_buf_pending(b, out);
	cli_json_begin_buf(&j, b);
	j.term = term;
	while ((d = fmt_field_next(&pos)) != NULL) {
		union fmt_value v;
		int r;

		if ((d->flags & FMT_F_ALL) && !all)
			continue;
		r = d->get(f, d, &v);
		ok &= r != FMT_VALUE_ERR;
		/* the key, then the value (NULL key: written already) */
		if (json_keys[pos - 1].len != 0)
			cli_json_key_raw(&j, json_keys[pos - 1].text, json_keys[pos - 1].len);
		else
			cli_json_key(&j, d->name);
		put_value(&j, d, f, r, &v);
		if (d->flags & FMT_F_ID) {
			if (json_keys[pos - 1].str_len != 0) {
				cli_json_key_raw(&j, json_keys[pos - 1].str, json_keys[pos - 1].str_len);
			} else {
				char key[80];

				snprintf(key, sizeof(key), "%s_str", d->name);
				cli_json_key(&j, key);
			}
			if (r != FMT_VALUE_OK)
				cli_json_null(&j, NULL);
			else
				cli_json_uint_str(&j, NULL, (unsigned long long)v.u);
		}
	}
	cli_json_end(&j);
	cli_buf_write(b, out);
	return ok;
}
