// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "live_options.h"
#include "options.h"
#include "select.h"
#include "said.h"

/* the test knobs parse() hands over, as live/main.c does */
static const struct ks_test_knobs *knobs;
/* the live tool's own options of the last live parse */
static struct ks_live_options live;

/* As each front end parses: live/main.c, or crash's kstack. */
static int parse_ctx(struct ks_options *o, enum ks_context ctx, int argc,
		     char **argv, struct said *d)
{
	if (ctx == KS_CTX_LIVE)
		return ks_live_options_parse(o, &live, argc, argv, knobs,
					     &SAID_TO(d));
	return ks_options_parse(o, ctx, argc, argv, &ks_live_opt_table, NULL,
				&SAID_TO(d));
}

/*
 * A parse that fails says one line, one that succeeds says nothing: the
 * line, without its newline, into err for the assertions.
 */
static int said_check(int ret, const struct said *d, char *err, size_t errlen)
{
	assert_int_equal(d->calls, ret ? 1 : 0);
	snprintf(err, errlen, "%.*s", (int)strcspn(d->text, "\n"), d->text);
	return ret;
}

static int parse(struct ks_options *o, enum ks_context ctx, const char *line,
		 char *err, size_t errlen)
{
	/* kept until the next call: string options point into argv */
	static char *copy;
	char *argv[32], *tok, *save;
	struct said d = { "", 0 };
	int argc = 0, ret;

	free(copy);
	copy = strdup(line);

	argv[argc++] = "kstack";
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	ret = parse_ctx(o, ctx, argc, argv, &d);
	return said_check(ret, &d, err, errlen);
}

/* argv given whole, so a value can be "" */
static int parse_argv(struct ks_options *o, const char **args, char *err,
		      size_t errlen)
{
	char *argv[32];
	struct said d = { "", 0 };
	int argc = 0;

	argv[argc++] = "kstack";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return said_check(parse_ctx(o, KS_CTX_LIVE, argc, argv, &d), &d, err,
			  errlen);
}

static void test_oled_defaults(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a", err, sizeof(err)), 0);
	assert_true(o.sel.all);
	assert_int_equal(live.duration, 30 * 60);
	assert_int_equal(live.interval, 60);
	assert_string_equal(live.dir, "/var/oled/kstack");
	assert_int_equal(live.max_mb, 1);
	assert_int_equal(live.max_files, 5);
	assert_int_equal(live.max_percent, 85);
	assert_int_equal(o.out.format, KS_FMT_TEXT);
	ks_options_release(&o);
}

static void test_selection_required(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-H", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-a/-D/-R/-S/-Z/-I/-T/-p"));
}

static void test_pids_in_order(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-p 30,2,17", err, sizeof(err)), 0);
	assert_int_equal(o.sel.nr_pids, 3);
	assert_int_equal(o.sel.pids[0], 30);
	assert_int_equal(o.sel.pids[1], 2);
	assert_int_equal(o.sel.pids[2], 17);
	assert_true(ks_select_pids_only(&o.sel));
	assert_true(ks_select_match(&o.sel, 2, 'S'));
	assert_false(ks_select_match(&o.sel, 3, 'S'));
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
		assert_int_equal(parse(&o, KS_CTX_LIVE, bad[i], err, sizeof(err)), -EINVAL);
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
		assert_int_equal(parse_argv(&o, args, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "option %s wants a non-empty value",
			 opts[i]);
		assert_string_equal(err, want);
	}
	{
		const char *args[] = { "-a", "--cgroup=", NULL };

		assert_int_equal(parse_argv(&o, args, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, "option --cgroup wants a non-empty value");
	}
}

static void test_cgroup_relative(void **state)
{
	const char *args[] = { "-a", "--cgroup", "system.slice", NULL };
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse_argv(&o, args, err, sizeof(err)), -EINVAL);
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
		assert_int_equal(parse_argv(&o, args, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, cases[i].msg);
	}
}

static void test_states_or(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-D -Z -T", err, sizeof(err)), 0);
	assert_true(ks_select_match(&o.sel, 1, 'D'));
	assert_true(ks_select_match(&o.sel, 1, 'Z'));
	assert_true(ks_select_match(&o.sel, 1, 'T'));
	assert_true(ks_select_match(&o.sel, 1, 't'));
	assert_false(ks_select_match(&o.sel, 1, 'S'));
	assert_false(ks_select_match(&o.sel, 1, 'I'));
	assert_false(ks_select_pids_only(&o.sel));
	ks_options_release(&o);
}

/* -D -c gives each stack its time in D; -c alone stays oled's. */
static void test_stuck_time(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-D -c", err, sizeof(err)), 0);
	assert_true(o.out.stuck_time);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-S -D -c", err, sizeof(err)), 0);
	assert_true(o.out.stuck_time);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a -c", err, sizeof(err)), 0);
	assert_false(o.out.stuck_time);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-S -c", err, sizeof(err)), 0);
	assert_false(o.out.stuck_time);
	ks_options_release(&o);
}

static void test_crash_rejects_live_options(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a -b", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "live tool"));
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a --proc-root /x", err,
			       sizeof(err)), -EINVAL);
	/* and parses twice in one process, as crash calls it */
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a -H --folded", err,
			       sizeof(err)), 0);
	assert_true(o.sel.threads);
	assert_int_equal(o.out.format, KS_FMT_FOLDED);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-K -v", err, sizeof(err)), 0);
	assert_true(o.hooks.kprobes && o.out.verbose);
	ks_options_release(&o);
	/* long options are not mistaken for live-only short ones */
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a --json --cgroup /x", err,
			       sizeof(err)), 0);
	assert_int_equal(o.out.format, KS_FMT_JSON);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a --foreground", err,
			       sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--foreground is for the live tool"));
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a --follow-symlink", err,
			       sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--follow-symlink is for the live tool"));
}

/*
 * The live tool's rows each follow the core's row their after names, so
 * that --help lists one table in its order, and all fit the bits of
 * struct ks_options' given.
 */
static void test_view(void **state)
{
	struct ks_opt_view v;
	char name[40];

	(void)state;
	ks_opt_view_init(&v, &ks_live_opt_table);
	assert_int_equal(v.nr, ks_nr_opt_rows + ks_live_opt_table.nr);
	for (size_t i = 1; i < v.nr; i++) {
		if (!v.in_front[i] || !v.rows[i]->after)
			continue;
		assert_false(v.in_front[i - 1]);
		assert_string_equal(ks_opt_row_name(v.rows[i - 1], false, name,
						    sizeof(name)),
				    v.rows[i]->after);
	}
}

static void test_test_interval(void **state)
{
	struct ks_test_knobs k = { .interval_ms = "200" };
	struct ks_options o;
	char err[256];

	(void)state;
	knobs = &k;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-b -a -i 1", err, sizeof(err)), 0);
	assert_int_equal(live.interval_ms, 200);
	ks_options_release(&o);
	k.interval_ms = "0";
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-b -a", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "bad KSTACK_TEST_INTERVAL_MS '0'");
	/* the crash command has no knobs: -i keeps its floor there too */
	k.interval_ms = "200";
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a", err, sizeof(err)), 0);
	ks_options_release(&o);
	knobs = NULL;
	/* nor does the environment reach the parser */
	setenv("KSTACK_TEST_INTERVAL_MS", "200", 1);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-b -a -i 10", err, sizeof(err)), 0);
	unsetenv("KSTACK_TEST_INTERVAL_MS");
	assert_int_equal(live.interval_ms, 10000);
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
	assert_int_equal(live.duration, 0);
	assert_int_equal(live.max_mb, 0);
	assert_int_equal(live.max_files, 0);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a -i 0", err, sizeof(err)), -EINVAL);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a -x 0", err, sizeof(err)), -EINVAL);
}

static void test_snoop(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--snoop ksys_sync -p 7,8 -t 5 -c",
			       err, sizeof(err)), 0);
	assert_string_equal(live.snoop, "ksys_sync");
	assert_true(live.t_given);
	assert_int_equal(live.duration, 5);
	assert_int_equal(o.sel.nr_pids, 2);
	assert_int_equal(o.out.format, KS_FMT_SUMMARY);
	ks_options_release(&o);
	/* no selection needed, and -t not given means "until interrupted" */
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--snoop vfs_read --json -l",
			       err, sizeof(err)), 0);
	assert_false(live.t_given);
	assert_true(o.lines);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--snoop vfs_read -a", err,
			       sizeof(err)), -EINVAL);
	assert_string_equal(err, "option -a does nothing with --snoop; it is for "
			    "one sample, -b and --vmcore");
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--snoop vfs_read -b", err,
			       sizeof(err)), -EINVAL);
	assert_int_equal(parse(&o, KS_CTX_CRASH, "--snoop vfs_read", err,
			       sizeof(err)), -EINVAL);
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
			       sizeof(err)), -EINVAL);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-b -a -l", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "option -l does nothing with -b; it is for one "
			    "sample, --vmcore and --snoop");
	/* crash: -l on crash's own vmlinux, the live tool's refusals kept */
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a -H --lines", err,
			       sizeof(err)), 0);
	assert_true(o.lines);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-K -l", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "option -l does nothing with crash's kstack "
			    "-K/-F; it is for crash's kstack");
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-F -l", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "option -l does nothing"));
	assert_int_equal(parse(&o, KS_CTX_CRASH, "-a -l --vmlinux /v", err,
			       sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "live tool"));

	assert_int_equal(parse(&o, KS_CTX_LIVE, "--decode", err, sizeof(err)), 0);
	assert_int_equal(o.mode, KS_IN_DECODE);
	assert_null(live.decode_file);
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--decode oops.txt --vmlinux /v",
			       err, sizeof(err)), 0);
	assert_string_equal(live.decode_file, "oops.txt");
	assert_string_equal(o.vmlinux, "/v");
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--decode --vmlinux /v -", err,
			       sizeof(err)), 0);
	assert_string_equal(live.decode_file, "-");
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--decode a b", err,
			       sizeof(err)), -EINVAL);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "--decode -a", err,
			       sizeof(err)), -EINVAL);
	assert_string_equal(err, "option -a does nothing with --decode; it is "
			    "for one sample, -b and --vmcore");
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a file", err, sizeof(err)), -EINVAL);
}

/*
 * Each option where it means nothing (#26): refused, naming where it
 * does, from the rows' "applies".
 */
static void test_does_nothing(void **state)
{
	static const struct {
		const char *line, *msg;
	} cases[] = {
		{ "-a -t 5", "option -t does nothing with one sample; it is for -b and --snoop" },
		{ "-a -i 60", "option -i does nothing with one sample; it is for -b" },
		{ "-a -d /x", "option -d does nothing with one sample; it is for -b" },
		{ "-a -m 1", "option -m does nothing with one sample; it is for -b" },
		{ "-a -n 1", "option -n does nothing with one sample; it is for -b" },
		{ "-a -x 50", "option -x does nothing with one sample; it is for -b" },
		{ "--vmcore x --proc-root /proc -a", "option --proc-root does nothing with --vmcore; it is for one sample and -b" },
		{ "--vmcore x -a -t 5", "option -t does nothing with --vmcore; it is for -b and --snoop" },
		{ "--vmcore x -a -b", "-b and --vmcore exclude each other" },
		{ "-K -a", "option -a does nothing with -K/-F; it is for one sample, -b and --vmcore" },
		{ "-K -c", "option -c does nothing with -K/-F; it is for one sample, -b, --vmcore and --snoop" },
		{ "-F --folded", "option --folded does nothing with -K/-F; it is for one sample, -b, --vmcore and --snoop" },
		{ "-K --proc-root /p", "option --proc-root does nothing with -K/-F; it is for one sample and -b" },
		{ "-K -o f", "option -o does nothing with -K/-F; it is for one sample, --vmcore and kstack triage --vmcore" },
		{ "--vmcore x -K -o f", "option -o does nothing with --vmcore -K/-F; it is for one sample, --vmcore and kstack triage --vmcore" },
		{ "-b -a -o f", "option -o does nothing with -b; it is for one sample, --vmcore and kstack triage --vmcore" },
		{ "-b -K", "-b and -K/-F exclude each other" },
		{ "--snoop f -b", "-b and --snoop exclude each other" },
		{ "--snoop f -H", "option -H does nothing with --snoop; it is for one sample, -b and --vmcore" },
		{ "--snoop f -v", "option -v does nothing with --snoop; it is for one sample, -b, -K/-F, --vmcore and --vmcore -K/-F" },
		{ "--snoop f --vmlinux /v", "--vmlinux goes with --vmcore VMCORE, -l or --decode" },
		{ "--decode -v", "option -v does nothing with --decode; it is for one sample, -b, -K/-F, --vmcore and --vmcore -K/-F" },
		{ "--decode --snoop f", "--snoop and --decode exclude each other" },
		{ "-a --touched", "option --touched does nothing with one sample; it is for -K/-F and --vmcore -K/-F" },
		{ "-K --touched", "option --touched goes with -F" },
		{ "-a --follow-symlink", "option --follow-symlink goes with -o" },
		{ "-a --all", "option --all goes with -c" },
		{ "-a --json --all", "option --all goes with -c" },
		{ "-a --comm x --comm y", "option --comm given twice: join the expressions with |" },
		{ "-a --comm a(", NULL },
	};
	struct ks_options o;
	char err[256];

	(void)state;
	unsetenv("KSTACK_TEST_INTERVAL_MS");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		if (parse(&o, KS_CTX_LIVE, cases[i].line, err, sizeof(err)) != -EINVAL)
			fail_msg("'%s' was taken", cases[i].line);
		if (cases[i].msg && strcmp(err, cases[i].msg))
			fail_msg("'%s': '%s'", cases[i].line, err);
		if (!cases[i].msg && !strstr(err, "is not an extended regular expression"))
			fail_msg("'%s': '%s'", cases[i].line, err);
	}
}

/* and where they do mean something, they are still taken */
static void test_does_something(void **state)
{
	static const char *const lines[] = {
		"-a -c --all", "-b -a -t 5 -i 60 -d /x -m 1 -n 1 -x 50 --proc-root /p",
		"--foreground -a -c --all", "-K --json", "-F --json --touched -v",
		"--vmcore x -K --vmlinux /v -v", "--vmcore x -a -o f --follow-symlink -l",
		"--snoop f -p 1 -t 10 -l --vmlinux /v --folded", "--decode --vmlinux /v f",
		"-a --comm ^k(worker|swapd)", "--comm sshd", "-p 1 --comm x -H",
	};
	struct ks_options o;
	char err[256];

	(void)state;
	unsetenv("KSTACK_TEST_INTERVAL_MS");
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		if (parse(&o, KS_CTX_LIVE, lines[i], err, sizeof(err)))
			fail_msg("'%s' refused: %s", lines[i], err);
		ks_options_release(&o);
	}
}

/* -t: plain numbers keep their meaning (minutes with -b, seconds with --snoop) */
static void test_duration_units(void **state)
{
	static const struct {
		const char *line;
		long secs;
	} cases[] = {
		{ "-b -a -t 5", 300 }, { "--snoop f -t 5", 5 },
		{ "-b -a -t 30s", 30 }, { "--snoop f -t 30s", 30 },
		{ "-b -a -t 2m", 120 }, { "--snoop f -t 2m", 120 },
		{ "-b -a -t 1h", 3600 }, { "--snoop f -t 1h", 3600 },
		{ "-b -a -t 0", 0 }, { "-b -a -t 525600", 525600L * 60 },
		{ "-b -a -t 8760h", 525600L * 60 }, { "-b -a", 1800 },
		/* a plain number is seconds with --snoop, up to a year of them */
		{ "--snoop f -t 525601", 525601 },
		{ "--snoop f -t 31536000", 31536000 },
	};
	static const char *const bad[] = {
		"-b -a -t 8761h", "-b -a -t 525601", "--snoop f -t 31536001",
		"-b -a -t 5x", "-b -a -t s", "-b -a -t 1.5m", "-b -a -t -1s",
		"-b -a -t 5ms",
	};
	struct ks_options o;
	char err[256];

	(void)state;
	unsetenv("KSTACK_TEST_INTERVAL_MS");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (parse(&o, KS_CTX_LIVE, cases[i].line, err, sizeof(err)))
			fail_msg("'%s' refused: %s", cases[i].line, err);
		if (live.duration != cases[i].secs)
			fail_msg("'%s': %ld s, want %ld", cases[i].line,
				 live.duration, cases[i].secs);
		ks_options_release(&o);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!parse(&o, KS_CTX_LIVE, bad[i], err, sizeof(err)))
			fail_msg("'%s' taken", bad[i]);
		if (!strstr(err, "option -t wants a number"))
			fail_msg("'%s': %s", bad[i], err);
	}
	/* #40 item 12: the range in the unit the number is in */
	assert_int_not_equal(parse(&o, KS_CTX_LIVE, "--snoop f -t 31536001",
				   err, sizeof(err)), 0);
	assert_non_null(strstr(err, "a number of seconds from 0 to 31536000 "
				    "with --snoop"));
	assert_int_not_equal(parse(&o, KS_CTX_LIVE, "-b -a -t 525601", err,
				   sizeof(err)), 0);
	assert_non_null(strstr(err, "a number of minutes from 0 to 525600 "
				    "with -b"));
}

/* --comm: an extended regex on comm, OR-ed with the other selectors */
static void test_comm(void **state)
{
	struct ks_options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, KS_CTX_CRASH, "--comm ^(sshd|cron)$ -D",
			       err, sizeof(err)), 0);
	assert_true(ks_select_comm(&o.sel, "sshd"));
	assert_true(ks_select_comm(&o.sel, "cron"));
	assert_false(ks_select_comm(&o.sel, "crond"));
	assert_false(ks_select_comm(&o.sel, "xsshd"));
	assert_false(ks_select_match(&o.sel, 5, 'S'));
	assert_true(ks_select_match(&o.sel, 5, 'D'));
	/* a -p beside it is no longer "only these PIDs" */
	ks_options_release(&o);
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-p 7 --comm kworker", err,
			       sizeof(err)), 0);
	assert_false(ks_select_pids_only(&o.sel));
	assert_true(ks_select_comm(&o.sel, "kworker/0:1-events"));
	ks_options_release(&o);
	assert_null(o.sel.comm);
	/* -a alone matches no comm: --comm is not given */
	assert_int_equal(parse(&o, KS_CTX_LIVE, "-a", err, sizeof(err)), 0);
	assert_false(ks_select_comm(&o.sel, "anything"));
	ks_options_release(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oled_defaults),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_selection_required),
		cmocka_unit_test(test_pids_in_order),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_empty_values),
		cmocka_unit_test(test_cgroup_relative),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_states_or),
		cmocka_unit_test(test_stuck_time),
		cmocka_unit_test(test_crash_rejects_live_options),
		cmocka_unit_test(test_test_interval),
		cmocka_unit_test(test_oled_zeros),
		cmocka_unit_test(test_snoop),
		cmocka_unit_test(test_lines_and_decode),
		cmocka_unit_test(test_does_nothing),
		cmocka_unit_test(test_does_something),
		cmocka_unit_test(test_duration_units),
		cmocka_unit_test(test_comm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
