// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack -h: every option the parser takes is there, one line each, and
 * the defaults and ranges it prints are the ones the parser applies.
 * crash's help kstack names no option crash's kstack refuses.
 */
#include <errno.h>
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
#include "said.h"

static char *help_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ks_help_print(f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The help line of an option: "\n  -t MINUTES ..." up to its newline. */
static char *line_of(const char *help, const char *opt)
{
	char key[64];
	const char *p, *nl;

	snprintf(key, sizeof(key), "\n  %s", opt);
	p = strstr(help, key);
	if (!p)
		return NULL;
	p++;
	nl = strchr(p, '\n');
	return strndup(p, nl ? (size_t)(nl - p) : strlen(p));
}

/* kstack -b -a OPT VALUE: the numbers are all -b's */
static int parses(const char *b, const char *c)
{
	char *argv[] = { "kstack", "-b", "-a", (char *)b, (char *)c, NULL };
	struct ks_live_options live;
	struct ks_options o;
	int ret;

	ret = ks_live_options_parse(&o, &live, 5, argv, NULL, NULL);
	if (!ret)
		ks_options_release(&o);
	return ret;
}

/* A numeric row's range and default, as the parser has them. */
static int num_info(char letter, long *min, long *max, long *def)
{
	struct ks_opt_view v;

	ks_opt_view_init(&v, &ks_live_opt_table);
	for (size_t i = 0; i < v.nr; i++) {
		const struct ks_opt_row *row = v.rows[i];

		if (row->letter != letter)
			continue;
		*min = row->min;
		*max = row->max;
		*def = ks_options_default(&v, i);
		return 0;
	}
	return -1;
}

static void test_numbers(void **state)
{
	static const char *const opts[] = { "-t", "-i", "-m", "-n", "-x" };
	char *help = help_text();

	(void)state;
	unsetenv("KSTACK_TEST_INTERVAL_MS");
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		long min = 0, max = 0, def = 0;
		char want[64], num[32];
		char *line = line_of(help, opts[i]);

		assert_non_null(line);
		assert_int_equal(num_info(opts[i][1], &min, &max, &def), 0);
		snprintf(want, sizeof(want), "(default %ld, %ld-%ld", def, min, max);
		/* or on the line after, when the help fills this one */
		if (!strstr(line, want) && !strstr(strstr(help, line), want))
			fail_msg("'%s' lacks '%s'", line, want);
		free(line);
		/* the printed range is the parser's: its ends pass, beyond fails */
		snprintf(num, sizeof(num), "%ld", min);
		assert_int_equal(parses(opts[i], num), 0);
		snprintf(num, sizeof(num), "%ld", max);
		assert_int_equal(parses(opts[i], num), 0);
		snprintf(num, sizeof(num), "%ld", min - 1);
		assert_int_equal(parses(opts[i], num), -EINVAL);
		snprintf(num, sizeof(num), "%ld", max + 1);
		assert_int_equal(parses(opts[i], num), -EINVAL);
	}
	free(help);
}

/* Every short option the parser knows has its line. */
static void test_every_option(void **state)
{
	static const char *const longs[] = {
		"--json", "--folded", "--cgroup", "--proc-root", "--foreground",
		"--vmcore", "--vmlinux", "-h, --help", "--version", "-v, --verbose",
		"--follow-symlink", "--touched", "--comm", "--all",
	};
	char *help = help_text();
	static const char letters[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char opt[3] = "-?", *argv[] = { "kstack", opt, "1", NULL };
	size_t known = 0;

	(void)state;
	for (const char *c = letters; *c; c++) {
		struct ks_live_options live;
		struct ks_options o;
		struct said d = { "", 0 };
		char *line;
		int ret;

		opt[1] = *c;
		ret = ks_live_options_parse(&o, &live, 3, argv, NULL,
					    &SAID_TO(&d));
		if (ret && strstr(d.text, "invalid option"))
			continue;	/* not an option */
		if (!ret)
			ks_options_release(&o);
		line = line_of(help, opt);
		if (!line)
			fail_msg("option %s has no line in the help", opt);
		free(line);
		known++;
	}
	assert_true(known >= 20);
	for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++) {
		char *line = line_of(help, longs[i]);

		if (!line)
			fail_msg("option %s has no line in the help", longs[i]);
		free(line);
	}
	free(help);
}

static void test_width(void **state)
{
	char *help = help_text();
	const char *p = help;

	(void)state;
	while (*p) {
		size_t len = strcspn(p, "\n");

		if (len > 80)
			fail_msg("line wider than 80 columns: %.*s", (int)len, p);
		p += len + (p[len] ? 1 : 0);
	}
	free(help);
}

static char *crash_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	/* as extension/kstack_help.c prints them: the core's rows alone */
	ks_options_usage(f, KS_CTX_CRASH, NULL);
	ks_options_help(f, KS_CTX_CRASH, NULL);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The row of "-x" or "--name", the live tool's too, or NULL. */
static const struct ks_opt_row *row_of(const char *opt, size_t len)
{
	static struct ks_opt_view v;

	ks_opt_view_init(&v, &ks_live_opt_table);
	for (size_t i = 0; i < v.nr; i++) {
		const struct ks_opt_row *row = v.rows[i];

		if (len == 2 && opt[1] == row->letter)
			return row;
		if (len > 2 && opt[1] == '-' && row->name &&
		    strlen(row->name) == len - 2 &&
		    !strncmp(opt + 2, row->name, len - 2))
			return row;
	}
	return NULL;
}

/*
 * #40 item 15: help kstack listed what crash refuses (-v's line named -b,
 * its section titles --snoop and dumps): every option it names is one
 * crash's kstack takes, and it names no mode crash lacks.
 */
static void test_crash_help(void **state)
{
	char *text = crash_text();
	const char *p;

	(void)state;
	for (p = text; (p = strchr(p, '-')); p++) {
		const struct ks_opt_row *row;
		size_t len;

		if (p > text && !strchr(" [|,(", p[-1]))
			continue;
		len = 1 + strspn(p + 1, "-");
		len += strspn(p + len, "abcdefghijklmnopqrstuvwxyz"
				       "ABCDEFGHIJKLMNOPQRSTUVWXYZ-");
		if (len < 2 || (len == 2 && p[1] == '-'))
			continue;
		row = row_of(p, len);
		if (!row || !(row->applies & KS_IN_CRASH_CMD))
			fail_msg("help kstack names %.*s, which crash's kstack "
				 "refuses", (int)len, p);
	}
	for (p = text; *p; p++)
		if (!strncmp(p, "snoop", 5) || !strncmp(p, "dump", 4) ||
		    !strncmp(p, "background", 10))
			fail_msg("help kstack speaks of %.12s: %.60s", p,
				 p - (p - text < 40 ? p - text : 40));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_every_option),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_crash_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
