// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The usage, --help and crash's help, made from the rows of
 * option_table.c and the front end's (struct ks_opt_table), so that no
 * text promises an option, a range or a mode the parser does not have.
 */
#include <stdio.h>
#include <string.h>

#include "options.h"

#define WIDTH	79
/* what a dump's view says that crash's twin of it does not */
#define VMCORE_WORDS	" --vmcore VMCORE"

static bool row_in_ctx(const struct ks_opt_row *row, enum ks_context ctx)
{
	const struct ks_subcommand *sub = ks_ctx_subcommand(ctx);

	if (ctx == KS_CTX_CRASH)
		return row->applies & KS_IN_CRASH_CMD;
	if (sub)
		return row->applies & sub->mode;
	return row->applies & ~(KS_IN_CRASH_CMD | KS_IN_SUBCMDS);
}

/* A word of the synopsis, on a new line when this one is full. */
static void word(FILE *out, size_t *col, const char *cont, const char *w)
{
	size_t len = strlen(w);

	if (*col + 1 + len > WIDTH) {
		fprintf(out, "\n%s%s", cont, w);
		*col = strlen(cont) + len;
		return;
	}
	fprintf(out, " %s", w);
	*col += 1 + len;
}

/* Whether the synopsis of mode m shows row: not its lead, not -h. */
static bool in_synopsis(const struct ks_opt_row *row,
			const struct ks_mode_row *m)
{
	if (!(row->applies & m->mode) || (row->leads & m->mode) ||
	    row->applies == KS_IN_ANY)
		return false;
	return !(row->selects && strstr(m->lead, "SELECTION"));
}

/* col0: the columns printed before first, as crash's "  kstack " */
static void mode_synopsis(FILE *out, const struct ks_opt_view *v,
			  const struct ks_mode_row *m, size_t col0,
			  const char *first, const char *cont)
{
	size_t col = col0 + strlen(first) + strlen(m->lead);
	char name[40], w[80];

	fprintf(out, "%s%s", first, m->lead);
	for (size_t i = 0; i < v->nr; i++) {
		const struct ks_opt_row *row = v->rows[i];

		if (!in_synopsis(row, m))
			continue;
		ks_opt_row_name(row, false, name, sizeof(name));
		snprintf(w, sizeof(w), "[%s%s%s]", name,
			 row->metavar ? " " : "",
			 row->metavar ? row->metavar : "");
		word(out, &col, cont, w);
	}
	if (m->tail)
		word(out, &col, cont, m->tail);
	fputc('\n', out);
}

static void selection_line(FILE *out, const struct ks_opt_view *v,
			   const char *indent, const char *cont)
{
	const char *head = "SELECTION (OR-ed, at least one):";
	size_t col = strlen(indent) + strlen(head);
	char name[40], w[80];

	fprintf(out, "%s%s", indent, head);
	for (size_t i = 0; i < v->nr; i++) {
		const struct ks_opt_row *row = v->rows[i];

		if (!row->selects)
			continue;
		snprintf(w, sizeof(w), "%s%s%s",
			 ks_opt_row_name(row, false, name, sizeof(name)),
			 row->metavar ? " " : "",
			 row->metavar ? row->metavar : "");
		word(out, &col, cont, w);
	}
	fputc('\n', out);
}

/* "usage: kstack report [OPTION]... DIR|FILE": its options are listed */
static void subcommand_synopsis(FILE *out, unsigned int mode)
{
	for (size_t i = 0; i < ks_nr_mode_rows; i++)
		if (ks_mode_rows[i].mode == mode)
			fprintf(out, "usage: %s %s\n", ks_mode_rows[i].lead,
				ks_mode_rows[i].tail);
}

/*
 * A dump's view in crash: its synopsis without "--vmcore VMCORE", and
 * without "kstack " on the first line, which crash starts with the
 * command's name.
 */
static const char *crash_lead(const char *lead, char *buf, size_t len,
			      bool first)
{
	const char *cut = strstr(lead, VMCORE_WORDS);

	if (cut) {
		snprintf(buf, len, "%.*s%s", (int)(cut - lead), lead,
			 cut + strlen(VMCORE_WORDS));
		lead = buf;
	}
	return first ? lead + strlen("kstack ") : lead;
}

/*
 * Live: "usage: kstack ..." then "       kstack ..." per mode.  Crash
 * prints "kstack " before its synopsis and the rest as given: the
 * first line starts after the command's name.
 */
void ks_options_usage(FILE *out, enum ks_context ctx,
		      const struct ks_opt_table *front)
{
	bool crash = ctx == KS_CTX_CRASH;
	const char *next = crash ? "  " : "       ";
	const char *cont = crash ? "        " : "              ";
	struct ks_opt_view v;
	bool first = true;

	if (ks_ctx_subcommand(ctx)) {
		subcommand_synopsis(out, ks_ctx_subcommand(ctx)->mode);
		return;
	}
	ks_opt_view_init(&v, front);
	for (size_t i = 0; i < ks_nr_mode_rows; i++) {
		struct ks_mode_row m = ks_mode_rows[i];
		char lead[64];

		m.mode = ks_mode_row_bit(&ks_mode_rows[i], ctx);
		if (!ks_mode_in_ctx(m.mode, ctx) &&
		    (crash || m.mode != KS_IN_INFO))
			continue;
		if (crash)
			m.lead = crash_lead(m.lead, lead, sizeof(lead), first);
		mode_synopsis(out, &v, &m,
			      first && crash ? strlen("  kstack ") : 0,
			      first ? (crash ? "" : "usage: ") : next, cont);
		first = false;
	}
	selection_line(out, &v, crash ? "  " : "", cont);
}

/* " (default 30, 0-525600; 0: one sample)" of a numeric row */
static int num_info(const struct ks_opt_view *v, size_t i, char *buf,
		    size_t len)
{
	const struct ks_opt_row *row = v->rows[i];
	int n;

	if (row->kind != KS_OPT_NUM && row->kind != KS_OPT_DURATION)
		return 0;
	n = snprintf(buf, len, " (default %ld, %ld-%ld",
		     ks_options_default(v, i), row->min, row->max);
	if (row->zero)
		n += snprintf(buf + n, len - (size_t)n, "; 0: %s", row->zero);
	return n + snprintf(buf + n, len - (size_t)n, ")");
}

/* "  -t TIME            how long..." and its continuation lines */
static void help_row(FILE *out, const struct ks_opt_view *v, size_t i,
		     int indent, int width, bool crash)
{
	const struct ks_opt_row *row = v->rows[i];
	char name[64], both[40], info[96];
	const char *p = crash && row->crash_help ? row->crash_help : row->help;
	int col, n = num_info(v, i, info, sizeof(info));

	snprintf(name, sizeof(name), "%s%s%s",
		 ks_opt_row_name(row, true, both, sizeof(both)),
		 row->metavar ? " " : "", row->metavar ? row->metavar : "");
	col = fprintf(out, "%*s%-*s ", indent, "", width, name);
	for (;;) {
		size_t len = strcspn(p, "\n");

		col += fprintf(out, "%.*s", (int)len, p);
		if (!p[len])
			break;
		p += len + 1;
		col = fprintf(out, "\n%*s", indent + width + 1, "") - 1;
	}
	if (n && col + n > WIDTH + 1)
		fprintf(out, "\n%*s%s\n", indent + width + 1, "", info + 1);
	else
		fprintf(out, "%s\n", n ? info : "");
}

/* a subcommand's lines: "  --pid N  ...", long names only, no sections */
static void subcommand_help(FILE *out, const struct ks_opt_view *v,
			    enum ks_context ctx)
{
	char left[KS_MAX_ROWS][32];
	int width = 14;

	for (size_t i = 0; i < v->nr; i++) {
		const struct ks_opt_row *row = v->rows[i];

		if (!row_in_ctx(row, ctx))
			continue;
		snprintf(left[i], sizeof(left[i]), "--%s%s%s", row->name,
			 row->metavar ? " " : "",
			 row->metavar ? row->metavar : "");
		if ((int)strlen(left[i]) > width)
			width = (int)strlen(left[i]);
	}
	for (size_t i = 0; i < v->nr; i++)
		if (row_in_ctx(v->rows[i], ctx))
			fprintf(out, "  %-*s %s\n", width, left[i],
				v->rows[i]->help);
}

/* crash's kstack has no -b, --vmcore or --snoop: its titles name none */
static const char *section_title(int sec, bool crash)
{
	if (crash && ks_opt_crash_section_titles[sec])
		return ks_opt_crash_section_titles[sec];
	return ks_opt_section_titles[sec];
}

void ks_options_help(FILE *out, enum ks_context ctx,
		     const struct ks_opt_table *front)
{
	bool crash = ctx == KS_CTX_CRASH;
	struct ks_opt_view v;

	ks_opt_view_init(&v, front);
	if (ks_ctx_subcommand(ctx)) {
		subcommand_help(out, &v, ctx);
		return;
	}

	for (int sec = 0; sec < KS_SEC_COUNT; sec++) {
		bool title = false;

		for (size_t i = 0; i < v.nr; i++) {
			const struct ks_opt_row *row = v.rows[i];

			if ((int)row->section != sec || !row_in_ctx(row, ctx))
				continue;
			if (!title)
				fprintf(out, "\n%s%s\n", crash ? "  " : "",
					section_title(sec, crash));
			title = true;
			help_row(out, &v, i, crash ? 4 : 2, crash ? 17 : 18,
				 crash);
		}
	}
}
