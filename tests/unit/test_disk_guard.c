// SPDX-License-Identifier: GPL-2.0-or-later
/* The -x guard: oled's percent figure and the once-only state changes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "disk_guard.h"

static void test_percent(void **state)
{
	(void)state;
	assert_int_equal(ks_disk_used_percent(100, 100), 0);
	assert_int_equal(ks_disk_used_percent(100, 0), 100);
	assert_int_equal(ks_disk_used_percent(100, 15), 85);
	/* the message oled prints as its example */
	assert_int_equal(ks_disk_used_percent(100, 6), 94);
	/* ceil, not round: 94.1 -> 95, 33.3 -> 34, 0.01 -> 1 */
	assert_int_equal(ks_disk_used_percent(1000, 59), 95);
	assert_int_equal(ks_disk_used_percent(3, 2), 34);
	assert_int_equal(ks_disk_used_percent(10000, 9999), 1);
	/* exact multiples stay exact */
	assert_int_equal(ks_disk_used_percent(512, 256), 50);
}

static void test_percent_edges(void **state)
{
	(void)state;
	/* pseudo file systems report no blocks */
	assert_int_equal(ks_disk_used_percent(0, 0), 0);
	/* a racing statvfs: more free than total must not wrap */
	assert_int_equal(ks_disk_used_percent(100, 200), 0);
	/* (blocks - bfree) * 100 overflows 64 bits here */
	assert_int_equal(ks_disk_used_percent(UINT64_MAX, UINT64_MAX / 2), 51);
	assert_int_equal(ks_disk_used_percent(UINT64_MAX, 0), 100);
	assert_int_equal(ks_disk_used_percent(UINT64_MAX, UINT64_MAX), 0);
}

/* The fake file system the guard sees. */
static struct {
	uint64_t blocks, bfree;
	int err;
	int calls;
	int fd_seen;
} fake;

static int fake_statvfs(int fd, struct statvfs *st)
{
	fake.calls++;
	fake.fd_seen = fd;
	if (fake.err) {
		errno = fake.err;
		return -1;
	}
	memset(st, 0, sizeof(*st));
	st->f_blocks = fake.blocks;
	st->f_bfree = fake.bfree;
	return 0;
}

static void set_used(uint64_t used_of_100)
{
	fake.blocks = 100;
	fake.bfree = 100 - used_of_100;
	fake.err = 0;
}

static void test_guard_transitions(void **state)
{
	struct ks_disk_guard g;

	(void)state;
	memset(&fake, 0, sizeof(fake));
	ks_disk_guard_init(&g, 42, 85);
	g.statvfs_fn = fake_statvfs;

	set_used(50);
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_OK);
	assert_true(ks_disk_guard_allows(&g));
	assert_int_equal(g.used, 50);
	assert_int_equal(fake.fd_seen, 42);

	/* 84% is below, 85% is "at or above" */
	set_used(84);
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_OK);
	set_used(85);
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_BECAME_FULL);
	assert_false(ks_disk_guard_allows(&g));
	assert_int_equal(g.used, 85);

	/* still full: reported once only */
	set_used(94);
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_FULL);
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_FULL);
	assert_false(ks_disk_guard_allows(&g));

	set_used(60);
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_RESUMED);
	assert_true(ks_disk_guard_allows(&g));
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_OK);

	/* and a second episode is reported again */
	set_used(99);
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_BECAME_FULL);
	assert_int_equal(fake.calls, 8);
}

static void test_guard_statvfs_error(void **state)
{
	struct ks_disk_guard g;

	(void)state;
	memset(&fake, 0, sizeof(fake));
	ks_disk_guard_init(&g, 3, 50);
	g.statvfs_fn = fake_statvfs;

	set_used(70);
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_BECAME_FULL);
	/* an error says nothing about space: the state is kept */
	fake.err = EIO;
	assert_int_equal(ks_disk_guard_check(&g), -EIO);
	assert_false(ks_disk_guard_allows(&g));
	assert_int_equal(g.used, 70);
	set_used(10);
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_RESUMED);
	fake.err = ENOSYS;
	assert_int_equal(ks_disk_guard_check(&g), -ENOSYS);
	assert_true(ks_disk_guard_allows(&g));
}

static void test_guard_threshold_100(void **state)
{
	struct ks_disk_guard g;

	(void)state;
	memset(&fake, 0, sizeof(fake));
	ks_disk_guard_init(&g, 3, 100);
	g.statvfs_fn = fake_statvfs;
	fake.blocks = 1000;
	fake.bfree = 1;
	/* 99.9% rounds up to 100: -x 100 stops only a really full disk */
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_BECAME_FULL);
	fake.bfree = 11;
	assert_int_equal(ks_disk_guard_check(&g), KS_GUARD_RESUMED);
}

static void test_guard_real_fstatvfs(void **state)
{
	struct ks_disk_guard g;

	(void)state;
	/* the default statvfs on a real directory: any sane percent */
	ks_disk_guard_init(&g, 0, 101);
	g.fd = -1;
	assert_int_equal(ks_disk_guard_check(&g), -EBADF);
	ks_disk_guard_init(&g, 1, 101);
	g.fd = 2;	/* stderr lives on some file system too */
	assert_true(ks_disk_guard_check(&g) >= 0);
	assert_true(g.used >= 0 && g.used <= 100);
	assert_true(ks_disk_guard_allows(&g));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_percent_edges),
		cmocka_unit_test(test_guard_transitions),
		cmocka_unit_test(test_guard_statvfs_error),
		cmocka_unit_test(test_guard_threshold_100),
		cmocka_unit_test(test_guard_real_fstatvfs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
