// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page cache in front of crash's readmem() (shared/kernel/page_cache.c):
 * the bytes are those of the backend, small reads of one page cost one
 * backend read, a read fails exactly where an uncached one would, and a
 * drop makes the next read go to the backend again.
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

#include "page_cache.h"

#define PAGE	4096
#define MEM_PAGES 8

/*
 * A backend of MEM_PAGES pages at BASE whose byte at address A is
 * (A * 7 + space) & 0xff; page HOLE is missing and reads of it fail.
 */
struct backend {
	uint64_t base;
	int hole;
	size_t reads;
};

static int backend_read(void *ctx, uint64_t addr, int space, void *buf,
			size_t len)
{
	struct backend *b = ctx;
	unsigned char *out = buf;

	b->reads++;
	for (size_t i = 0; i < len; i++) {
		uint64_t a = addr + i;

		if (a < b->base || a >= b->base + MEM_PAGES * PAGE ||
		    (b->hole >= 0 && (a - b->base) / PAGE == (uint64_t)b->hole))
			return -EFAULT;
		out[i] = (unsigned char)((a * 7 + (uint64_t)space) & 0xff);
	}
	return 0;
}

static void expect_bytes(uint64_t addr, int space, const unsigned char *buf,
			 size_t len)
{
	for (size_t i = 0; i < len; i++)
		assert_int_equal(buf[i], ((addr + i) * 7 + (uint64_t)space) & 0xff);
}

static void test_small_reads_one_backend_read(void **state)
{
	struct backend b = { .base = 0xffff888000000000ULL, .hole = -1 };
	struct ks_page_cache *c;
	unsigned char buf[16];

	(void)state;
	assert_int_equal(ks_page_cache_new(PAGE, 64, backend_read, &b, &c), 0);
	/* 256 eight-byte reads of one page, as a task walk makes them */
	for (uint64_t off = 0; off < PAGE; off += 16) {
		assert_int_equal(ks_page_cache_read(c, b.base + off, 1, buf, 8), 0);
		expect_bytes(b.base + off, 1, buf, 8);
	}
	assert_int_equal(b.reads, 1);
	/* another address space is another page */
	assert_int_equal(ks_page_cache_read(c, b.base, 2, buf, 8), 0);
	expect_bytes(b.base, 2, buf, 8);
	assert_int_equal(b.reads, 2);
	ks_page_cache_free(c);
}

static void test_read_across_pages(void **state)
{
	struct backend b = { .base = 0x100000, .hole = -1 };
	struct ks_page_cache *c;
	unsigned char *buf = malloc(3 * PAGE);

	(void)state;
	assert_non_null(buf);
	assert_int_equal(ks_page_cache_new(PAGE, 64, backend_read, &b, &c), 0);
	assert_int_equal(ks_page_cache_read(c, b.base + 100, 0, buf, 2 * PAGE + 50), 0);
	expect_bytes(b.base + 100, 0, buf, 2 * PAGE + 50);
	assert_int_equal(b.reads, 3);
	ks_page_cache_free(c);
	free(buf);
}

/* A page the backend cannot read whole: the bytes asked for are read on
 * their own, and fail as they would have without the cache. */
static void test_unreadable_page(void **state)
{
	struct backend b = { .base = 0x100000, .hole = 3 };
	struct ks_page_cache *c;
	unsigned char buf[64];

	(void)state;
	assert_int_equal(ks_page_cache_new(PAGE, 64, backend_read, &b, &c), 0);
	assert_int_equal(ks_page_cache_read(c, b.base + 3 * PAGE + 8, 0, buf, 8),
			 -EFAULT);
	/* the last bytes of memory, beside the hole */
	assert_int_equal(ks_page_cache_read(c, b.base + MEM_PAGES * PAGE - 8, 0,
					    buf, 8), 0);
	expect_bytes(b.base + MEM_PAGES * PAGE - 8, 0, buf, 8);
	/* a read that runs into the hole fails */
	assert_int_equal(ks_page_cache_read(c, b.base + 3 * PAGE - 8, 0, buf, 16),
			 -EFAULT);
	ks_page_cache_free(c);
}

static void test_drop(void **state)
{
	struct backend b = { .base = 0x100000, .hole = -1 };
	struct ks_page_cache *c;
	unsigned char buf[8];

	(void)state;
	assert_int_equal(ks_page_cache_new(PAGE, 64, backend_read, &b, &c), 0);
	assert_int_equal(ks_page_cache_read(c, b.base, 0, buf, 8), 0);
	assert_int_equal(ks_page_cache_read(c, b.base + 8, 0, buf, 8), 0);
	assert_int_equal(b.reads, 1);
	ks_page_cache_drop(c);
	assert_int_equal(ks_page_cache_read(c, b.base + 16, 0, buf, 8), 0);
	expect_bytes(b.base + 16, 0, buf, 8);
	assert_int_equal(b.reads, 2);
	ks_page_cache_free(c);
}

/* More pages than slots: every answer is still right. */
static void test_eviction(void **state)
{
	struct backend b = { .base = 0x100000, .hole = -1 };
	struct ks_page_cache *c;
	unsigned char buf[8];

	(void)state;
	assert_int_equal(ks_page_cache_new(PAGE, 2, backend_read, &b, &c), 0);
	for (int round = 0; round < 3; round++)
		for (uint64_t p = 0; p < MEM_PAGES; p++) {
			uint64_t a = b.base + p * PAGE + 40;

			assert_int_equal(ks_page_cache_read(c, a, 0, buf, 8), 0);
			expect_bytes(a, 0, buf, 8);
		}
	ks_page_cache_free(c);
}

static void test_bad_sizes(void **state)
{
	struct backend b = { .hole = -1 };
	struct ks_page_cache *c;

	(void)state;
	assert_int_equal(ks_page_cache_new(3000, 4, backend_read, &b, &c), -EINVAL);
	assert_null(c);
	assert_int_equal(ks_page_cache_new(PAGE, 0, backend_read, &b, &c), -EINVAL);
	assert_int_equal(ks_page_cache_new(PAGE, 4, NULL, &b, &c), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_reads_one_backend_read),
		cmocka_unit_test(test_read_across_pages),
		cmocka_unit_test(test_unreadable_page),
		cmocka_unit_test(test_drop),
		cmocka_unit_test(test_eviction),
		cmocka_unit_test(test_bad_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
