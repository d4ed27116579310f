// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every option of the table is documented where it applies, and nothing
 * is documented that the table lacks (#26): kstack --help and the
 * kstack(8) man page for the live tool's, crash's "help kstack" and
 * kstack-crash(8) for the crash command's.  A man page documents the
 * options of its SYNOPSIS and of the tags of its .TP paragraphs; a help
 * text those that begin its indented lines.  Run from the top of the
 * tree, as tests/run-all.sh does.  "kstack report" and "kstack diff"
 * are modes of their own (KS_IN_REPORT, KS_IN_DIFF): each one's synopsis
 * line and its section (REPORT, DIFF) are checked against its rows, and
 * the rest of kstack(8) against the others.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "help.h"
#include "live_options.h"
#include "options.h"

#define MAX_OPTS	256

struct opt_set {
	char *names[MAX_OPTS];
	size_t nr;
};

static void set_add(struct opt_set *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->nr; i++)
		if (strlen(s->names[i]) == len && !strncmp(s->names[i], name, len))
			return;
	assert_true(s->nr < MAX_OPTS);
	s->names[s->nr++] = strndup(name, len);
}

static bool set_has(const struct opt_set *s, const char *name)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->names[i], name))
			return true;
	return false;
}

static void set_free(struct opt_set *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->names[i]);
	s->nr = 0;
}

static char *read_text(const char *path)
{
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *f = fopen(path, "r"), *m;

	if (!f)
		fail_msg("cannot open %s (run from the top of the tree)", path);
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	while ((n = fread(chunk, 1, sizeof(chunk), f)))
		fwrite(chunk, 1, n, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* The options written in roff in line: \-x (not \-xy) and \-\-long\-name. */
static void roff_options(struct opt_set *s, const char *line, size_t len)
{
	char name[64];

	for (size_t i = 0; i + 2 < len; i++) {
		size_t n = 0;

		if (strncmp(line + i, "\\-", 2) || (i && line[i - 1] == '-'))
			continue;
		if (!strncmp(line + i + 2, "\\-", 2)) {
			i += 4;
			name[n++] = '-';
			name[n++] = '-';
			while (i < len && n < sizeof(name) - 1) {
				if (line[i] >= 'a' && line[i] <= 'z')
					name[n++] = line[i++];
				else if (!strncmp(line + i, "\\-", 2) &&
					 i + 2 < len && line[i + 2] >= 'a' &&
					 line[i + 2] <= 'z')
					name[n++] = '-', i += 2;
				else
					break;
			}
			set_add(s, name, n);
			i--;
			continue;
		}
		if (((line[i + 2] | 32) >= 'a' && (line[i + 2] | 32) <= 'z') &&
		    (i + 3 >= len || !((line[i + 3] | 32) >= 'a' &&
				       (line[i + 3] | 32) <= 'z'))) {
			name[0] = '-';
			name[1] = line[i + 2];
			set_add(s, name, 2);
		}
	}
}

/* The subcommand a line of the SYNOPSIS or a .SH starts, or NULL. */
static const char *subcommand_of(const char *p, bool synopsis)
{
	static const char *const words[][2] = {
		{ ".B kstack report", ".SH REPORT" },
		{ ".B kstack diff", ".SH DIFF" },
	};

	for (size_t i = 0; i < 2; i++)
		if (!strncmp(p, words[i][synopsis ? 0 : 1],
			     strlen(words[i][synopsis ? 0 : 1])))
			return words[i][0] + strlen(".B kstack ");
	return NULL;
}

/*
 * A man page's options: the SYNOPSIS and the tags of .TP paragraphs,
 * either those of one subcommand (sub: "report", "diff"; its synopsis
 * line, its section) or, sub NULL, all the others.
 */
static void man_options(struct opt_set *s, const char *path, const char *sub)
{
	char *text = read_text(path), *p = text;
	bool synopsis = false, tag = false;
	const char *in = NULL;

	while (*p) {
		size_t len = strcspn(p, "\n");

		if (!strncmp(p, ".SH", 3)) {
			synopsis = !strncmp(p, ".SH SYNOPSIS", 12);
			in = subcommand_of(p, false);
		} else if (synopsis && subcommand_of(p, true)) {
			in = subcommand_of(p, true);
		} else if (synopsis && !strncmp(p, ".br", 3)) {
			in = NULL;
		} else if ((synopsis || tag) &&
			   (in && sub ? !strcmp(in, sub) : in == sub)) {
			roff_options(s, p, len);
		}
		tag = !strncmp(p, ".TP", 3);
		p += len + (p[len] ? 1 : 0);
	}
	free(text);
}

/* A help text's options: "  -v, --verbose  ..." at the indent given. */
static void help_options(struct opt_set *s, const char *text,
			 const char *indent)
{
	size_t in = strlen(indent);

	for (const char *p = text; *p; ) {
		size_t len = strcspn(p, "\n");
		const char *q = p + in;

		if (len > in && !strncmp(p, indent, in) && *q == '-') {
			for (;;) {
				size_t n = strcspn(q, " ,\n");

				set_add(s, q, n);
				if (strncmp(q + n, ", -", 3))
					break;
				q += n + 2;
			}
		}
		p += len + (p[len] ? 1 : 0);
	}
}

/* crash's text is the core's rows alone (extension/kstack_help.c) */
static char *printed(void (*fn)(FILE *, enum ks_context,
				const struct ks_opt_table *),
		     enum ks_context ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, ctx, ctx == KS_CTX_CRASH ? NULL : &ks_live_opt_table);
	fclose(f);
	return buf;
}

static void live_help(FILE *f, enum ks_context ctx,
		      const struct ks_opt_table *front)
{
	(void)ctx;
	(void)front;
	ks_help_print(f);
}

static bool row_is(const struct ks_opt_row *row, const char *name)
{
	if (row->letter && name[1] == row->letter && !name[2])
		return true;
	return row->name && !strncmp(name, "--", 2) &&
	       !strcmp(name + 2, row->name);
}

/* The core's rows and the live tool's, as its parser sees them. */
static const struct ks_opt_view *all_rows(void)
{
	static struct ks_opt_view v;

	ks_opt_view_init(&v, &ks_live_opt_table);
	return &v;
}

/* The row named name that applies in modes, or NULL. */
static const struct ks_opt_row *row_named(const char *name, unsigned int modes)
{
	const struct ks_opt_view *v = all_rows();

	for (size_t i = 0; i < v->nr; i++)
		if (row_is(v->rows[i], name) && (v->rows[i]->applies & modes))
			return v->rows[i];
	return NULL;
}

/* Each row applying in modes is in s by each of its names, and no more. */
static int check(const struct opt_set *s, unsigned int modes, const char *doc)
{
	const struct ks_opt_view *v = all_rows();
	int bad = 0;
	char name[40];

	for (size_t i = 0; i < v->nr; i++) {
		const struct ks_opt_row *row = v->rows[i];

		if (!(row->applies & modes))
			continue;
		snprintf(name, sizeof(name), "-%c", row->letter);
		if (row->letter && !set_has(s, name)) {
			print_error("%s lacks %s\n", doc, name);
			bad++;
		}
		snprintf(name, sizeof(name), "--%s", row->name);
		if (row->name && !set_has(s, name)) {
			print_error("%s lacks %s\n", doc, name);
			bad++;
		}
	}
	for (size_t i = 0; i < s->nr; i++)
		if (!row_named(s->names[i], modes)) {
			print_error("%s documents %s, which is no option there\n",
				    doc, s->names[i]);
			bad++;
		}
	return bad;
}

#define LIVE_MODES	(KS_IN_ANY & ~KS_IN_CRASH_CMD)

/* A man page and a help text against the rows of modes. */
static void check_docs(const char *man_path, char *help_text,
		       const char *indent, unsigned int modes, const char *help)
{
	struct opt_set man = { 0 }, in_help = { 0 };
	int bad;

	man_options(&man, man_path, NULL);
	help_options(&in_help, help_text, indent);
	assert_true(man.nr > 10 && in_help.nr > 10);
	bad = check(&man, modes, man_path);
	bad += check(&in_help, modes, help);
	free(help_text);
	set_free(&man);
	set_free(&in_help);
	assert_int_equal(bad, 0);
}

static void test_live_docs(void **state)
{
	(void)state;
	check_docs("docs/kstack.8", printed(live_help, KS_CTX_LIVE), "  ",
		   LIVE_MODES, "kstack --help");
}

static void test_crash_docs(void **state)
{
	(void)state;
	check_docs("docs/kstack-crash.8", printed(ks_options_help, KS_CTX_CRASH),
		   "    ", KS_IN_CRASH_CMD, "help kstack");
}

/*
 * A subcommand's rows: its usage's lines and its section of kstack(8).
 * Its -h and --help are taken as said: the usage names long names only,
 * and the page describes -h once, under OPTIONS.
 */
static void check_subcommand(const char *sub, enum ks_context ctx,
			     unsigned int mode, size_t min)
{
	struct opt_set man = { 0 }, usage = { 0 };
	char *text = printed(ks_options_help, ctx);
	char man_doc[64], usage_doc[64];
	int bad;

	man_options(&man, "docs/kstack.8", sub);
	help_options(&usage, text, "  ");
	assert_true(man.nr >= min && usage.nr >= min);
	set_add(&man, "-h", 2);
	set_add(&man, "--help", 6);
	set_add(&usage, "-h", 2);
	snprintf(man_doc, sizeof(man_doc), "docs/kstack.8's %s section", sub);
	snprintf(usage_doc, sizeof(usage_doc), "kstack %s --help", sub);
	bad = check(&man, mode, man_doc);
	bad += check(&usage, mode, usage_doc);
	free(text);
	set_free(&man);
	set_free(&usage);
	assert_int_equal(bad, 0);
}

static void test_report_docs(void **state)
{
	(void)state;
	check_subcommand("report", KS_CTX_REPORT, KS_IN_REPORT, 6);
}

static void test_diff_docs(void **state)
{
	(void)state;
	check_subcommand("diff", KS_CTX_DIFF, KS_IN_DIFF, 3);
}

/* The reader above finds what it must: a page that lacks one fails. */
static void test_reader(void **state)
{
	struct opt_set s = { 0 };
	const char *line = ".BI \\-\\-follow\\-symlink \" X\" \\-c \\-bash \\fB\\-\\-decode\\fR";

	(void)state;
	roff_options(&s, line, strlen(line));
	assert_int_equal(s.nr, 3);
	assert_true(set_has(&s, "--follow-symlink"));
	assert_true(set_has(&s, "-c"));
	assert_true(set_has(&s, "--decode"));
	set_free(&s);
	help_options(&s, "x\n  -v, --verbose   more\n  --all  a\n    -x\n", "  ");
	assert_int_equal(s.nr, 3);
	assert_true(set_has(&s, "-v") && set_has(&s, "--verbose") &&
		    set_has(&s, "--all"));
	assert_int_not_equal(check(&s, LIVE_MODES, "a short page"), 0);
	set_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_live_docs),
		cmocka_unit_test(test_crash_docs),
		cmocka_unit_test(test_report_docs),
		cmocka_unit_test(test_diff_docs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
