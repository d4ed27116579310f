// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Finding debugfs and tracefs: mountinfo with optional fields and escaped
 * mount points, /proc/filesystems with and without them, and the test
 * override of the live -K/-F directories.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <cmocka.h>

#include "tracefs.h"

#define FIX "tests/fixtures/hooks/proc/"

static void test_find(void **state)
{
	char path[256];

	(void)state;
	assert_int_equal(ks_tracefs_find(FIX "mountinfo", "debugfs", path,
					 sizeof(path)), 0);
	assert_string_equal(path, "/sys/kernel/debug (old)");
	/* the first mount wins; no optional fields is fine */
	assert_int_equal(ks_tracefs_find(FIX "mountinfo", "tracefs", path,
					 sizeof(path)), 0);
	assert_string_equal(path, "/sys/kernel/tracing");
	assert_int_equal(ks_tracefs_find(FIX "mountinfo", "bpf", path,
					 sizeof(path)), -ENOENT);
	assert_int_equal(ks_tracefs_find(FIX "mountinfo", "tracefs", path, 5),
			 -ENOENT);
	assert_int_not_equal(ks_tracefs_find(FIX "missing", "tracefs", path,
					     sizeof(path)), 0);
}

static void test_kernel_has(void **state)
{
	(void)state;
	assert_true(ks_tracefs_kernel_has(FIX "filesystems", "debugfs"));
	assert_true(ks_tracefs_kernel_has(FIX "filesystems", "tracefs"));
	assert_true(ks_tracefs_kernel_has(FIX "filesystems", "ext4"));
	assert_false(ks_tracefs_kernel_has(FIX "filesystems", "trace"));
	assert_false(ks_tracefs_kernel_has(FIX "filesystems-bare", "tracefs"));
	assert_false(ks_tracefs_kernel_has(FIX "missing", "tracefs"));
}

static void test_override(void **state)
{
	const struct ks_test_knobs knobs = {
		.debugfs = "/fixture/debug",
		.tracefs = "/fixture/trace",
	};
	struct ks_tracefs fs;

	(void)state;
	/* the environment is main()'s to read, not the tracefs code's */
	setenv("KSTACK_TEST_DEBUGFS", "/from/env", 1);
	ks_tracefs_open(&fs, true, &knobs);
	unsetenv("KSTACK_TEST_DEBUGFS");
	assert_string_equal(fs.debugfs, "/fixture/debug");
	assert_string_equal(fs.tracefs, "/fixture/trace");
	assert_false(fs.mounted_debugfs || fs.mounted_tracefs || fs.unshared);
	ks_tracefs_open(&fs, false, &knobs);
	assert_string_equal(fs.debugfs, "");
}

static void test_file_lists(void **state)
{
	char path[] = "/tmp/kstack-test-lists-XXXXXX";
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, "ffffffff81000000 T _stext\n"
			      "ffffffffc0001000 t helper\t[mod]\n"
			      "nodev\tdebugfs\n", 72) == 72);
	close(fd);
	assert_true(ks_file_lists(path, "_stext", 2));
	assert_true(ks_file_lists(path, "helper", 2));
	assert_false(ks_file_lists(path, "T", 2));
	assert_true(ks_file_lists(path, "T", 1));
	/* -1: the last word, as /proc/filesystems puts the name */
	assert_true(ks_file_lists(path, "[mod]", -1));
	assert_true(ks_file_lists(path, "debugfs", -1));
	assert_false(ks_file_lists(path, "nodev", -1));
	assert_false(ks_file_lists(path, "_stext", 5));
	unlink(path);
	assert_false(ks_file_lists(path, "_stext", 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_kernel_has),
		cmocka_unit_test(test_override),
		cmocka_unit_test(test_file_lists),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	int total = (int)(sizeof(tests) / sizeof(tests[0]));

	printf("%d passed, %d failed\n", total - failed, failed);
	return failed ? 1 : 0;
}
