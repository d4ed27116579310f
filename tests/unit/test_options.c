// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "options.h"
#include "select.h"

/* the test knobs parse() hands over, as live/main.c does */
static const struct ks_test_knobs *knobs;

static int parse(struct ks_options *o, enum ks_context ctx, const char *line,
		 char *err, size_t errlen)
{
	/* kept until the next call: string options point into argv */
	static char *copy;
	char *argv[32], *tok, *save;
	int argc = 0, ret;

	free(copy);
	copy = strdup(line);

	argv[argc++] = "kstack";
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	ret = ks_options_parse_knobs(o, ctx, argc, argv, knobs, err, errlen);
	return ret;
}

/* argv given whole, so a value can be "" */
static int parse_argv(struct ks_options *o, const char **args, char *err,
		      size_t errlen)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = "kstack";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return ks_options_parse(o, KS_CTX_LIVE, argc, argv, err, errlen);
}

static void test_oled_defaults(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a", err, sizeof(err)), 0);
	assert_true(o.all);
	assert_int_equal(o.minutes, 30);
	assert_int_equal(o.interval, 60);
	assert_string_equal(o.dir, "/var/oled/kstack");
	assert_int_equal(o.max_mb, 1);
	assert_int_equal(o.max_files, 5);
	assert_int_equal(o.max_percent, 85);
	assert_int_equal(o.format, KS_FMT_TEXT);
	ks_options_release(&o);
}

static void test_selection_required(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-H", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "-a/-D/-R/-S/-Z/-I/-T/-p"));
}

static void test_pids_in_order(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-p 30,2,17", err, sizeof(err)), 0);
	assert_int_equal(o.nr_pids, 3);
	assert_int_equal(o.pids[0], 30);
	assert_int_equal(o.pids[1], 2);
	assert_int_equal(o.pids[2], 17);
	assert_true(ks_select_pids_only(&o));
	assert_true(ks_select_match(&o, 2, 'S'));
	assert_false(ks_select_match(&o, 3, 'S'));
	ks_options_release(&o);
}

static void test_bad_numbers(void **state)
{
	static const char *bad[] = {
		"-p 1,,2", "-p x", "-p 1,", "-a -i 1O", "-a -t -1", "-a -x 101",
		"-a -n -1", "-a -m", "-a extra", "-a --bogus", "-a -c --json",
		"-K -a", "-K -F", "-b -a -i 5", "-b -a -o f", "--vmlinux x -a",
		"-a --follow-symlink",
	};
	struct ks_options o;
	char err[256];

	(void)state;
	unsetenv("KSTACK_TEST_INTERVAL_MS");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(parse(&o, KS_CTX_LIVE, bad[i], err, sizeof(err)), -1);
		assert_true(strlen(err) > 0);
	}
}

/* An empty path would mean the current directory, "/" or every task. */
static void test_empty_values(void **state)
{
	static const char *opts[] = {
		"-d", "-o", "--proc-root", "--vmcore", "--vmlinux", "--cgroup",
	};
	struct ks_options o;
	char err[256], want[64];

	(void)state;
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		const char *args[] = { "-a", opts[i], "", NULL };

		err[0] = '\0';
		assert_int_equal(parse_argv(&o, args, err, sizeof(err)), -1);
		snprintf(want, sizeof(want), "option %s wants a non-empty value",
			 opts[i]);
		assert_string_equal(err, want);
	}
	{
		const char *args[] = { "-a", "--cgroup=", NULL };

		assert_int_equal(parse_argv(&o, args, err, sizeof(err)), -1);
		assert_string_equal(err, "option --cgroup wants a non-empty value");
	}
}

static void test_cgroup_relative(void **state)
{
	const char *args[] = { "-a", "--cgroup", "system.slice", NULL };
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse_argv(&o, args, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "starting with /"));
	assert_non_null(strstr(err, "'system.slice'"));
}

/* The message names the option that lacks its value, long ones too. */
static void test_missing_value(void **state)
{
	static const struct {
		const char *opt, *msg;
	} cases[] = {
		{ "--cgroup", "option --cgroup needs a value" },
		{ "--proc-root", "option --proc-root needs a value" },
		{ "--vmcore", "option --vmcore needs a value" },
		{ "--vmlinux", "option --vmlinux needs a value" },
		{ "-o", "option -o needs a value" },
		{ "-p", "option -p needs a value" },
		{ "--json=1", "option --json takes no value" },
		{ "--verbose=yes", "option --verbose takes no value" },
		{ "-Q", "invalid option -Q" },
		{ "--bogus", "invalid option '--bogus'" },
	};
	struct ks_options o;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *args[] = { "-a", cases[i].opt, NULL };

		err[0] = '\0';
		assert_int_equal(parse_argv(&o, args, err, sizeof(err)), -1);
		assert_string_equal(err, cases[i].msg);
	}
}

static void test_states_or(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-D -Z -T", err, sizeof(err)), 0);
	assert_true(ks_select_match(&o, 1, 'D'));
	assert_true(ks_select_match(&o, 1, 'Z'));
	assert_true(ks_select_match(&o, 1, 'T'));
	assert_true(ks_select_match(&o, 1, 't'));
	assert_false(ks_select_match(&o, 1, 'S'));
	assert_false(ks_select_match(&o, 1, 'I'));
	assert_false(ks_select_pids_only(&o));
	ks_options_release(&o);
}

static void test_crash_rejects_live_options(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a -b", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "live tool"));
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a --proc-root /x", err,
			       sizeof(err)), -1);
	/* and parses twice in one process, as crash calls it */
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a -H --folded", err,
			       sizeof(err)), 0);
	assert_true(o.threads);
	assert_int_equal(o.format, KS_FMT_FOLDED);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-K -v", err, sizeof(err)), 0);
	assert_true(o.kprobes && o.verbose);
	ks_options_release(&o);
	/* long options are not mistaken for live-only short ones */
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a --json --cgroup /x", err,
			       sizeof(err)), 0);
	assert_int_equal(o.format, KS_FMT_JSON);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a --foreground", err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "--foreground is for the live tool"));
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a --follow-symlink", err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "--follow-symlink is for the live tool"));
}

static void test_test_interval(void **state)
{
	struct ks_test_knobs k = { .interval_ms = "200" };
	struct ks_options o;
	char err[256];

	(void)state;
	knobs = &k;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-b -a -i 1", err, sizeof(err)), 0);
	assert_int_equal(o.interval_ms, 200);
	ks_options_release(&o);
	k.interval_ms = "0";
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-b -a", err, sizeof(err)), -1);
	assert_string_equal(err, "bad KSTACK_TEST_INTERVAL_MS '0'");
	/* the crash command has no knobs */
	k.interval_ms = "200";
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a", err, sizeof(err)), 0);
	assert_null(o.knobs.interval_ms);
	ks_options_release(&o);
	knobs = NULL;
	/* nor does the environment reach the parser */
	setenv("KSTACK_TEST_INTERVAL_MS", "200", 1);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-b -a -i 10", err, sizeof(err)), 0);
	unsetenv("KSTACK_TEST_INTERVAL_MS");
	assert_int_equal(o.interval_ms, 10000);
	ks_options_release(&o);
}

/* oled's zeros: -t 0 one sample, -m 0 and -n 0 no rotation */
static void test_oled_zeros(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-b -a -t 0 -m 0 -n 0", err,
			       sizeof(err)), 0);
	assert_int_equal(o.minutes, 0);
	assert_int_equal(o.max_mb, 0);
	assert_int_equal(o.max_files, 0);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a -i 0", err, sizeof(err)), -1);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a -x 0", err, sizeof(err)), -1);
}

static void test_snoop(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--snoop ksys_sync -p 7,8 -t 5 -c",
			       err, sizeof(err)), 0);
	assert_string_equal(o.snoop, "ksys_sync");
	assert_true(o.t_given);
	assert_int_equal(o.minutes, 5);
	assert_int_equal(o.nr_pids, 2);
	assert_int_equal(o.format, KS_FMT_SUMMARY);
	ks_options_release(&o);
	/* no selection needed, and -t not given means "until interrupted" */
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--snoop vfs_read --json -l",
			       err, sizeof(err)), 0);
	assert_false(o.t_given);
	assert_true(o.lines);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--snoop vfs_read -a", err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "--snoop FUNC takes only"));
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--snoop vfs_read -b", err,
			       sizeof(err)), -1);
	assert_int_equal(parse(&o, KS_CTX_CRASH, "--snoop vfs_read", err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "live tool"));
}

static void test_lines_and_decode(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a -l --vmlinux /v", err,
			       sizeof(err)), 0);
	assert_true(o.lines);
	assert_string_equal(o.vmlinux, "/v");
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-D --lines", err, sizeof(err)), 0);
	assert_true(o.lines);
	ks_options_release(&o);
	/* --vmlinux alone still wants --vmcore, -l or --decode */
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a --vmlinux /v", err,
			       sizeof(err)), -1);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-b -a -l", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--decode"));
	/* crash: -l on crash's own vmlinux, the live tool's refusals kept */
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a -H --lines", err,
			       sizeof(err)), 0);
	assert_true(o.lines);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-K -l", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "-l is for one sample"));
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-F -l", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "-l is for one sample"));
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a -l --vmlinux /v", err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "live tool"));

	assert_int_equal(parse(&o, KS_CTX_LIVE, "--decode", err, sizeof(err)), 0);
	assert_true(o.decode);
	assert_null(o.decode_file);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--decode oops.txt --vmlinux /v",
			       err, sizeof(err)), 0);
	assert_string_equal(o.decode_file, "oops.txt");
	assert_string_equal(o.vmlinux, "/v");
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--decode --vmlinux /v -", err,
			       sizeof(err)), 0);
	assert_string_equal(o.decode_file, "-");
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--decode a b", err,
			       sizeof(err)), -1);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--decode -a", err,
			       sizeof(err)), -1);
	assert_non_null(strstr(err, "--decode takes only"));
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a file", err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oled_defaults),
		cmocka_unit_test(test_selection_required),
		cmocka_unit_test(test_pids_in_order),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_empty_values),
		cmocka_unit_test(test_cgroup_relative),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_states_or),
		cmocka_unit_test(test_crash_rejects_live_options),
		cmocka_unit_test(test_test_interval),
		cmocka_unit_test(test_oled_zeros),
		cmocka_unit_test(test_snoop),
		cmocka_unit_test(test_lines_and_decode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
