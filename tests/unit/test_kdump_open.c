// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The libkdumpfile target prints nothing: what stops it comes back as a
 * code, with the reason through the driver's report callback.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "target_kdump.h"
#include "said.h"

static void test_missing_file(void **state)
{
	struct said d = { "", 0 };
	struct ks_kdump_args a = {
		.vmcore = "/nonexistent/vmcore",
		.rep = &SAID_TO(&d),
	};
	struct ks_kdump *kd = NULL;
	struct ks_target t;

	(void)state;
	assert_true(ks_kdump_open(&a, &kd, &t) < 0);
	assert_null(kd);
	assert_int_equal(d.calls, 1);
	assert_string_equal(d.text, "cannot open /nonexistent/vmcore: "
				    "No such file or directory\n");
}

static void test_not_a_dump(void **state)
{
	char path[] = "/tmp/kstack-test-kdump-XXXXXX";
	struct said d = { "", 0 };
	struct ks_kdump_args a = {
		.vmcore = path,
		.rep = &SAID_TO(&d),
	};
	struct ks_kdump *kd = NULL;
	struct ks_target t;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not a dump\n", 11), 11);
	close(fd);
	assert_true(ks_kdump_open(&a, &kd, &t) < 0);
	unlink(path);
	assert_int_equal(d.calls, 1);
	assert_non_null(strstr(d.text, "is not a kernel dump: the formats read are"));
	/* no callback: still a code, and nothing printed */
	a.rep = NULL;
	a.vmcore = "/nonexistent/vmcore";
	assert_true(ks_kdump_open(&a, &kd, &t) < 0);
}

/* The caller gets the errno that stopped the open, not a stand-in. */
static void test_keeps_errno(void **state)
{
	struct ks_kdump_args a = { .vmcore = "/nonexistent/vmcore" };
	struct ks_kdump *kd = NULL;
	struct ks_target t;

	(void)state;
	assert_int_equal(ks_kdump_open(&a, &kd, &t), -ENOENT);
	a.vmcore = "/";
	assert_int_equal(ks_kdump_open(&a, &kd, &t), -EINVAL);
	assert_null(kd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_not_a_dump),
		cmocka_unit_test(test_keeps_errno),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
