// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/meminfo's arithmetic: si_mem_available() keeps half of the page
 * cache and of the reclaimable memory, or all but the low watermarks
 * where those are smaller; free pages below the reserve may make the
 * sum's start negative, and only the end is clamped at 0.  Cached
 * never goes below 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "mem_available.h"

/* A watermark smaller than half: all but it is available. */
static void test_small_watermark(void **state)
{
	const struct ks_mem_avail_in in = {
		.free = 1000, .totalreserve = 100, .wmark_low = 50,
		.active_file = 300, .inactive_file = 100,
		.slab_reclaimable = 80, .misc_reclaimable = 20,
	};

	(void)state;
	/* 900 + (400 - 50) + (100 - 50) */
	assert_int_equal(ks_mem_available(&in), 1300);
}

/* A watermark larger than half: half of each is available. */
static void test_large_watermark(void **state)
{
	const struct ks_mem_avail_in in = {
		.free = 1000, .totalreserve = 100, .wmark_low = 5000,
		.active_file = 301, .inactive_file = 100,
		.slab_reclaimable = 80, .misc_reclaimable = 21,
	};

	(void)state;
	/* 900 + (401 - 200) + (101 - 50): the kernel's integer halves */
	assert_int_equal(ks_mem_available(&in), 1152);
}

/* Free pages under the reserve: what the caches give makes up for it. */
static void test_below_reserve(void **state)
{
	struct ks_mem_avail_in in = {
		.free = 100, .totalreserve = 300, .wmark_low = 0,
		.active_file = 150,
	};

	(void)state;
	assert_int_equal(ks_mem_available(&in), 0);
	in.inactive_file = 100;
	assert_int_equal(ks_mem_available(&in), 50);
	in.inactive_file = 0;
	in.active_file = 0;
	assert_int_equal(ks_mem_available(&in), 0);
}

static void test_cached(void **state)
{
	(void)state;
	assert_int_equal(ks_mem_cached(2321, 0, 11), 2310);
	assert_int_equal(ks_mem_cached(100, 60, 50), 0);
	assert_int_equal(ks_mem_cached(0, 0, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_watermark),
		cmocka_unit_test(test_large_watermark),
		cmocka_unit_test(test_below_reserve),
		cmocka_unit_test(test_cached),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
