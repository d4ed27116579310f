// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The messages every reader of a sample shares (live, --vmcore, crash):
 * missing -p PIDs through the caller's callback, and the sample written
 * and flushed on a stream.
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

#include "options.h"
#include "sample_report.h"
#include "said.h"

static void make_sample(struct ks_sample *s)
{
	struct ks_task t = { .pid = 10, .tgid = 7, .state = 'S' };

	ks_sample_init(s, 1696092438, "host");
	snprintf(t.comm, sizeof(t.comm), "sleep");
	t.cmd = strdup("sleep 1");
	t.stack = strdup("[<0>] do_nanosleep+0x1/0x2\n");
	assert_int_equal(ks_sample_add(s, &t), 0);
}

static void parse(struct ks_options *o, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	assert_int_equal(ks_options_parse(o, KS_CTX_LIVE, argc, argv, NULL,
					  NULL, NULL), 0);
}

static void test_missing(void **state)
{
	char *argv[] = { "kstack", "-p", "7,99,10,5", NULL };
	struct said d = { "", 0 };
	struct ks_options o;
	struct ks_sample s;

	(void)state;
	make_sample(&s);
	parse(&o, argv);
	/* 7 is the task's thread group, 10 the task: both are there */
	assert_int_equal(ks_report_missing(&o.sel, &s, " in the dump",
					   &SAID_TO(&d)), 2);
	assert_string_equal(d.text, "PID 99 does not exist in the dump\n"
				    "PID 5 does not exist in the dump\n");
	ks_options_release(&o);
	ks_sample_release(&s);
}

static void test_missing_not_only_pids(void **state)
{
	char *argv[] = { "kstack", "-D", "-p", "99", NULL };
	struct said d = { "", 0 };
	struct ks_options o;
	struct ks_sample s;

	(void)state;
	make_sample(&s);
	parse(&o, argv);
	/* under -D, PID 99 may exist and just not be in D */
	assert_int_equal(ks_report_missing(&o.sel, &s, "", &SAID_TO(&d)), 0);
	assert_int_equal(d.calls, 0);
	ks_options_release(&o);
	ks_sample_release(&s);
}

static void test_write(void **state)
{
	char *argv[] = { "kstack", "-a", "-c", NULL };
	struct ks_options o;
	struct ks_sample s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	make_sample(&s);
	parse(&o, argv);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(ks_sample_write(f, &s, &o.out), 0);
	/* flushed: the text is there before the stream is closed */
	assert_true(len > 0);
	assert_non_null(strstr(buf, "do_nanosleep"));
	fclose(f);
	free(buf);
	/* a full disk shows at the flush, as -errno */
	f = fopen("/dev/full", "w");
	if (f) {
		assert_int_equal(ks_sample_write(f, &s, &o.out), -ENOSPC);
		fclose(f);
	}
	ks_options_release(&o);
	ks_sample_release(&s);
}

/* The one "no task matched", said only where no missing PID said why. */
static void test_no_match(void **state)
{
	struct said d = { "", 0 };
	struct ks_sample s;

	(void)state;
	ks_sample_init(&s, 1696092438, "host");
	assert_true(ks_report_no_match(&s, 0, &SAID_TO(&d)));
	assert_string_equal(d.text, "no task matched the selection\n");
	d = (struct said){ "", 0 };
	assert_true(ks_report_no_match(&s, 2, &SAID_TO(&d)));
	assert_int_equal(d.calls, 0);
	ks_sample_release(&s);
	make_sample(&s);
	assert_false(ks_report_no_match(&s, 0, &SAID_TO(&d)));
	assert_int_equal(d.calls, 0);
	ks_sample_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_no_match),
		cmocka_unit_test(test_missing_not_only_pids),
		cmocka_unit_test(test_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
