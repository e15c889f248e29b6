/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xstat's default view (view.h): GNU stat's default lines, then one labelled line per group of the
 * named fields' table; xstat(1) shows it and says what each line holds.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "fattrs.h"
#include "view.h"

#define LABEL_WIDTH 16
#define WRAP_COLUMNS 80
#define NOT_AVAILABLE "not available"
/* where a line goes on: under the first value */
static const char indent[] = "                  ";
_Static_assert(sizeof(indent) == LABEL_WIDTH + 2 + 1, "indent is LABEL_WIDTH + 2 spaces");

/*
 * The lines after GNU stat's, in order: a label and an engine format of
 * named directives ("%{name}").  A line of state words instead lists the
 * FMT_OUT_STATE fields of its group (@group) by state.
 */
struct line_def {
	const char *label;
	const char *text;
	/*
	 * What the line says instead when every field of @text that @alt
	 * does not name is not available (and some other field is).
	 */
	const char *alt;
	const char *group;	/* a line of flags: every FMT_OUT_STATE field of @group */
	bool all;		/* -a/--all only: the same again, for those who read hex */
};

static const struct line_def line_defs[] = {
	{ .label = "Mount", .text = "%{mount_point} (%{fstype} from %{source}), id %{mnt_id}",
	  /* a detached mount, or one mounted since the table was read and read again */
	  .alt = "id %{mnt_id} (not in this namespace's mount table)" },
	{ .label = "Mount options", .text = "%{mount_options}" },
	{ .label = "Mount root", .text = "%{fsroot}", .all = true },
	{ .label = "Unique mount id", .text = "%{mnt_id_unique}" },
	{ .label = "Direct I/O",
	  .text = "memory %{dio_mem_align}, offset %{dio_offset_align}, read offset %{dio_read_offset_align}" },
	{ .label = "Subvolume", .text = "%{subvol}" },
	{ .label = "Atomic write",
	  .text = "unit min %{atomic_write_unit_min}, max %{atomic_write_unit_max}, "
		  "max opt %{atomic_write_unit_max_opt}, segments %{atomic_write_segments_max}" },
	{ .label = "Attribute word", .text = "%{attributes} of mask %{attributes_mask}", .all = true },
	{ .label = "Attributes", .group = "attributes" },
	{ .label = "Kernel flags", .group = "kflags" },
	{ .label = "Project id", .text = "%{projid}" },
	{ .label = "fattrs", .group = "fattrs" },
};

/* The groups GNU stat's lines show. */
static const char *const gnu_groups[] = { "file", "time" };

/* One piece of a line: literal bytes, or a field. */
struct seg {
	const char *text;	/* literal: into the line's text */
	size_t len;		/* a literal's length; a field's name's */
	const struct fmt_directive *d;	/* NULL: literal */
	bool in_alt;	/* a field the line's alternative names too */
};

struct line {
	const char *label;
	char *prefix;		/* the label right-aligned, ": " */
	size_t prefix_len;
	bool flags;		/* a line of state words (seg: the fields, no literal) */
	struct seg *seg;
	size_t n;
	size_t n_main;		/* seg[0, n_main): the text; seg[n_main, n): the alternative */
};

struct view {
	struct fmt *gnu, *gnu_dev;
	struct line *lines;
	size_t n, alloc;
	unsigned int mask;
	bool started;	/* a block was printed: the next one is preceded by an empty line */
	struct cli_buf buf;	/* one file's block, written at once */
	enum fattrs_state *st;	/* per field of the longest line of flags: its state */
};

static bool add_seg(struct line *l, struct seg s)
{
	struct seg *v = realloc(l->seg, (l->n + 1) * sizeof(*v));

	if (v == NULL)
		return false;
	l->seg = v;
	l->seg[l->n++] = s;
	return true;
}

static struct line *add_line(struct view *v, const char *label)
{
	if (v->n == v->alloc) {
		size_t alloc = v->alloc ? 2 * v->alloc : 16;
		struct line *p = realloc(v->lines, alloc * sizeof(*p));

		if (p == NULL)
			return NULL;
		v->lines = p;
		v->alloc = alloc;
	}
	v->lines[v->n] = (struct line){ .label = label };
	return &v->lines[v->n++];
}

static bool in_gnu_lines(const struct fmt_directive *d)
{
	for (size_t i = 0; i < sizeof(gnu_groups) / sizeof(gnu_groups[0]); i++)
		if (strcmp(d->group, gnu_groups[i]) == 0)
			return true;
	return false;
}

/* Is field @d shown (-a: @all)? */
static bool shown(const struct fmt_directive *d, bool all)
{
	return all || !(d->flags & FMT_F_ALL);
}

/*
 * Index of field @d in the table, for the "already on a line" marks.
 * The table is small (under a hundred rows): a scan is cheap at start-up.
 */
static size_t field_index(const struct fmt_directive *d)
{
	const struct fmt_directive *e;
	size_t pos = 0;

	while ((e = fmt_field_next(&pos)) != NULL)
		if (e == d)
			return pos - 1;
	return (size_t)-1;
}

/*
 * Split @def's text into literals and "%{name}" fields.  A field not
 * shown (-a) drops its line; a name the table lacks is a bug, caught by
 * tests/xstat/view.bats (the line would be missing).
 * Returns: 1 kept, 0 dropped, -1 out of memory.
 */
static int line_parse(struct line *l, const char *s, bool all, bool *used)
{
	while (*s != '\0') {
		const char *p = strstr(s, "%{");
		const char *end;
		const struct fmt_directive *d;
		char name[64];
		size_t len;

		if (p == NULL)
			p = s + strlen(s);
		if (p > s && !add_seg(l, (struct seg){ .text = s, .len = (size_t)(p - s) }))
			return -1;
		if (*p == '\0')
			break;
		end = strchr(p, '}');
		len = end != NULL ? (size_t)(end - p - 2) : 0;
		if (end == NULL || len >= sizeof(name))
			return 0;
		memcpy(name, p + 2, len);
		name[len] = '\0';
		d = fmt_field_find(name);
		if (d == NULL || !shown(d, all))
			return 0;
		used[field_index(d)] = true;
		if (!add_seg(l, (struct seg){ .d = d, .len = strlen(d->name) }))
			return -1;
		s = end + 1;
	}
	return 1;
}

/* A line of @group's state fields.  Returns: 1 kept, 0 none, -1 out of memory. */
static int line_group(struct line *l, const char *group, bool all, bool *used)
{
	const struct fmt_directive *d;
	size_t pos = 0;

	l->flags = true;
	while ((d = fmt_field_next(&pos)) != NULL) {
		if (strcmp(d->group, group) != 0 || (d->out != FMT_OUT_STATE && d->out != FMT_OUT_LIST) ||
		    !shown(d, all))
			continue;
		used[pos - 1] = true;
		if (!add_seg(l, (struct seg){ .d = d, .len = strlen(d->name) }))
			return -1;
	}
	return l->n > 0;
}

static void line_release(struct line *l)
{
	free(l->prefix);
	l->prefix = NULL;
	free(l->seg);
	l->seg = NULL;
	l->n = 0;
}

struct view *view_free(struct view *v)
{
	if (v == NULL)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		line_release(&v->lines[i]);
	free(v->lines);
	if (v->gnu_dev != v->gnu)
		fmt_free(v->gnu_dev);
	fmt_free(v->gnu);
	free(v->st);
	cli_buf_free(&v->buf);
	free(v);
	return NULL;
}

/* Build the lines; false when out of memory. */
static bool view_lines(struct view *v, bool all)
{
	const struct fmt_directive *d;
	size_t count = 0, pos = 0;
	bool *used, ok = false;

	while (fmt_field_next(&count) != NULL)
		;
	used = calloc(count + 1, sizeof(*used));
	if (used == NULL)
		return false;
	for (size_t i = 0; i < sizeof(line_defs) / sizeof(line_defs[0]); i++) {
		const struct line_def *def = &line_defs[i];
		struct line *l = add_line(v, def->label);
		int r;

		if (l == NULL)
			goto done;
		if (def->all && !all) {
			/* its fields are on the flags' lines: mark them shown all the same */
			r = line_parse(l, def->text, true, used);
			line_release(l);
			v->n--;
			if (r < 0)
				goto done;
			continue;
		}
		r = def->group != NULL ? line_group(l, def->group, all, used)
				       : line_parse(l, def->text, all, used);
		l->n_main = l->n;
		if (r > 0 && def->alt != NULL) {
			r = line_parse(l, def->alt, all, used);
			for (size_t k = 0; k < l->n_main; k++)
				for (size_t a = l->n_main; a < l->n; a++)
					if (l->seg[k].d != NULL && l->seg[k].d == l->seg[a].d)
						l->seg[k].in_alt = true;
		}
		if (r < 0)
			goto done;
		if (r == 0) {
			line_release(l);
			v->n--;
		}
	}
	/* Whatever the table has and no line names: one line each, labelled with its name. */
	while ((d = fmt_field_next(&pos)) != NULL) {
		struct line *l;

		if (used[pos - 1] || in_gnu_lines(d) || !shown(d, all))
			continue;
		l = add_line(v, d->name);
		if (l == NULL || !add_seg(l, (struct seg){ .d = d, .len = strlen(d->name) }))
			goto done;
		l->n_main = l->n;
	}
	ok = true;
done:
	free(used);
	return ok;
}

struct view *view_new(bool all, const char *gnu, const char *gnu_dev)
{
	struct view *v = calloc(1, sizeof(*v));
	size_t longest = 0;

	if (v == NULL)
		return NULL;
	v->gnu = fmt_parse(gnu, FMT_FILE, 0);
	v->gnu_dev = fmt_parse(gnu_dev, FMT_FILE, 0);
	if (v->gnu == NULL || v->gnu_dev == NULL || !view_lines(v, all))
		return view_free(v);
	v->mask = fmt_statx_mask(v->gnu) | fmt_statx_mask(v->gnu_dev) | STATX_TYPE;
	for (size_t i = 0; i < v->n; i++) {
		int n = asprintf(&v->lines[i].prefix, "%*s: ", LABEL_WIDTH, v->lines[i].label);

		if (n < 0) {
			v->lines[i].prefix = NULL;
			return view_free(v);
		}
		v->lines[i].prefix_len = (size_t)n;
		if (v->lines[i].n > longest)
			longest = v->lines[i].n;
		for (size_t k = 0; k < v->lines[i].n; k++)
			if (v->lines[i].seg[k].d != NULL)
				v->mask |= fmt_field_statx_mask(v->lines[i].seg[k].d);
	}
	v->st = calloc(longest + 1, sizeof(*v->st));
	if (v->st == NULL)
		return view_free(v);
	return v;
}

unsigned int view_statx_mask(const struct view *v)
{
	return v->mask;
}

#define ADD_LITERAL(b, s) cli_buf_add((b), (s), sizeof(s) - 1)

/*
 * The value appended to @b since @from, quoted as the File: line quotes
 * a name (shell-escape) when it needs it.
 */
static void quote_tail(struct cli_buf *b, size_t from)
{
	const char *q;

	cli_buf_addc(b, '\0');
	b->len--;
	q = cli_quotearg(b->p + from, CLI_QS_SHELL_ESCAPE);
	if (q != b->p + from) {
		/* q is quotearg's own copy: @b may move under it */
		b->len = from;
		cli_buf_adds(b, q);
	}
}

/* Append @s (@len bytes), wrapping before a word that would pass WRAP_COLUMNS; @col: where we are. */
static void put_word(struct cli_buf *b, const char *s, size_t len, const char *where, size_t *col)
{
	size_t wlen = where != NULL ? len + 3 + strlen(where) : len;

	if (*col + 1 + wlen > WRAP_COLUMNS) {
		cli_buf_addc(b, '\n');
		cli_buf_add(b, indent, LABEL_WIDTH + 2);
		*col = LABEL_WIDTH + 2;
	} else {
		cli_buf_addc(b, ' ');
		(*col)++;
	}
	cli_buf_add(b, s, len);
	if (where != NULL) {
		ADD_LITERAL(b, " (");
		cli_buf_adds(b, where);
		cli_buf_addc(b, ')');
	}
	*col += wlen;
}

/*
 * The states in the order the line lists them, each list beginning with
 * the state's word and ':' ("not readable (why):"); the flags whose lookup
 * failed (the message is on stderr) last, as "error:".
 */
static const enum fattrs_state states[] = {
	FATTRS_STATE_SET, FATTRS_STATE_CLEAR, FATTRS_STATE_UNSUPPORTED, FATTRS_STATE_INVALID,
	FATTRS_STATE_UNREADABLE, FATTRS_STATE_UNKNOWN,
};

/*
 * A line of flags: the flags by state, one state a line, each flag by its
 * name; a set or invalid fattrs flag with where it was found.
 */
static bool flags_render(struct view *v, const struct line *l, struct fmt_file *file)
{
	struct cli_buf *b = &v->buf;
	bool lines = false, ok = true;

	/* the lookups first, once each */
	for (size_t k = 0; k < l->n; k++) {
		if (l->seg[k].d->out != FMT_OUT_STATE)
			continue;
		v->st[k] = fmt_field_state(l->seg[k].d, file);
		if (v->st[k] == FATTRS_STATE_UNKNOWN)
			ok = false;
	}
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		enum fattrs_state s = states[i];
		size_t col = 0;
		bool first = true;

		for (size_t k = 0; k < l->n; k++) {
			const struct seg *g = &l->seg[k];

			if (g->d->out != FMT_OUT_STATE || v->st[k] != s)
				continue;
			if (first) {
				size_t from;

				if (lines)
					cli_buf_add(b, indent, LABEL_WIDTH + 2);
				from = b->len;
				if (s == FATTRS_STATE_UNKNOWN) {
					cli_buf_adds(b, "error:");
				} else if (s == FATTRS_STATE_UNREADABLE) {
					/* why, once: "not readable (open: Permission denied):" */
					const char *why = fmt_field_detail(g->d, file);

					cli_buf_adds(b, fattrs_state_name(s));
					cli_buf_adds(b, " (");
					cli_buf_adds(b, why != NULL ? why : "?");
					cli_buf_adds(b, "):");
				} else {
					cli_buf_adds(b, fattrs_state_name(s));
					cli_buf_addc(b, ':');
				}
				col = LABEL_WIDTH + 2 + (b->len - from);
				first = false;
				lines = true;
			}
			put_word(b, g->d->name, g->len,
				 s == FATTRS_STATE_UNREADABLE ? NULL : fmt_field_detail(g->d, file), &col);
		}
		if (!first)
			cli_buf_addc(b, '\n');
	}
	/* a list of the group ("fattrs_other"): a line "other: ..." when not empty */
	for (size_t k = 0; k < l->n; k++) {
		const struct fmt_directive *d = l->seg[k].d;
		size_t glen = strlen(d->group), mark = b->len, from;
		const char *word = d->name;
		enum fmt_field_status st;

		if (d->out != FMT_OUT_LIST)
			continue;
		if (strncmp(word, d->group, glen) == 0 && word[glen] == '_')
			word += glen + 1;
		if (lines)
			cli_buf_add(b, indent, LABEL_WIDTH + 2);
		cli_buf_adds(b, word);
		ADD_LITERAL(b, ": ");
		from = b->len;
		st = fmt_field_put(d, file, b, 0);
		if (st == FMT_FIELD_ERROR)
			ok = false;
		if (st != FMT_FIELD_OK || b->len == from) {
			b->len = mark;
			continue;
		}
		quote_tail(b, from);
		cli_buf_addc(b, '\n');
		lines = true;
	}
	if (!lines)
		ADD_LITERAL(b, NOT_AVAILABLE "\n");
	return ok;
}

/*
 * The pieces seg[@from, @to) of @l.  @any: a field was available; @own:
 * one that the alternative does not name.  Returns: false if a lookup
 * failed.
 */
static bool segs_render(struct cli_buf *b, const struct line *l, size_t from, size_t to,
			struct fmt_file *file, bool *any, bool *own)
{
	bool ok = true;

	for (size_t k = from; k < to; k++) {
		const struct seg *s = &l->seg[k];
		enum fmt_field_status st;
		size_t at = b->len;

		if (s->d == NULL) {
			cli_buf_add(b, s->text, s->len);
			continue;
		}
		st = fmt_field_put(s->d, file, b, FMT_PRINT_HUMAN);
		if (st == FMT_FIELD_NA) {
			ADD_LITERAL(b, NOT_AVAILABLE);
			continue;
		}
		*any = true;
		if (!s->in_alt)
			*own = true;
		if (st == FMT_FIELD_ERROR)
			ok = false;
		if (s->d->out == FMT_OUT_STRING)
			/* a mount point or source with a space or a newline: quoted, as the File: line */
			quote_tail(b, at);
	}
	return ok;
}

static bool line_render(struct view *v, const struct line *l, struct fmt_file *file)
{
	struct cli_buf *b = &v->buf;
	size_t start;
	bool ok, any = false, own = false;

	/* a lookup's warning comes before the line, not inside it */
	cli_buf_hold(b);
	cli_buf_add(b, l->prefix, l->prefix_len);
	if (l->flags)
		return flags_render(v, l, file);
	start = b->len;
	ok = segs_render(b, l, 0, l->n_main, file, &any, &own);
	if (!any) {
		/* a line whose every field is missing says so once */
		b->len = start;
		ADD_LITERAL(b, NOT_AVAILABLE);
	} else if (!own && l->n > l->n_main) {
		/* only what the alternative names: it says it better */
		b->len = start;
		segs_render(b, l, l->n_main, l->n, file, &any, &own);
	}
	cli_buf_addc(b, '\n');
	return ok;
}

bool view_render(struct view *v, struct fmt_file *file, FILE *out)
{
	const struct fattrs_statx_buf *stx = file->stx;
	bool ok;

	cli_buf_pending(&v->buf, out);
	if (v->started)
		cli_buf_addc(&v->buf, '\n');
	v->started = true;
	ok = fmt_render_buf(S_ISBLK(stx->stx_mode) || S_ISCHR(stx->stx_mode) ? v->gnu_dev : v->gnu,
			    file, &v->buf, out);
	for (size_t i = 0; i < v->n; i++)
		ok &= line_render(v, &v->lines[i], file);
	cli_buf_write(&v->buf, out);
	return ok;
}
