// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The x86_64 page-table walk of --vmcore on page tables built here in a
 * small fake physical memory: 4 KiB, 2 MiB and 1 GiB pages, reads that
 * cross pages, absent levels, 5-level paging and non-canonical addresses.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kdump_pgtable.h"

#define MEM_SIZE	(4u << 20)	/* 4 MiB of "physical memory" */
#define P		0x1ull		/* _PAGE_PRESENT */
#define RW		0x2ull
#define PSE		0x80ull
#define NX		(1ull << 63)

static uint8_t *mem;
static unsigned long nr_reads;

static int read_phys(void *arg, uint64_t paddr, void *buf, size_t len)
{
	(void)arg;
	nr_reads++;
	if (paddr >= MEM_SIZE || len > MEM_SIZE - paddr)
		return -EFAULT;
	memcpy(buf, mem + paddr, len);
	return 0;
}

static void set_entry(uint64_t table, unsigned int idx, uint64_t val)
{
	memcpy(mem + table + idx * 8, &val, 8);
}

static unsigned int index_at(uint64_t vaddr, int level)
{
	return (vaddr >> (12 + 9 * (level - 1))) & 0x1ff;
}

/* User address of the 4 KiB pages, and of a 2 MiB and a 1 GiB mapping. */
#define V4K	0x00007f1234567000ull
#define V2M	0x00007f1240000000ull
#define V1G	0x00007f0000000000ull

/*
 * pgd 0x1000 -> pud 0x2000 -> pmd 0x3000 -> pt 0x4000: V4K at 0x6000 and
 * the next page at 0x5000 (not adjacent on purpose); V2M a PSE pmd entry
 * to 0x200000; V1G a PSE pud entry to 0x40000000 (out of the fake memory,
 * translated only).  5-level: p4d at 0x7000 between the pgd and the pud.
 */
static int setup(void **state)
{
	(void)state;
	mem = calloc(1, MEM_SIZE);
	assert_non_null(mem);
	set_entry(0x1000, index_at(V4K, 4), 0x2000 | P | RW);
	set_entry(0x2000, index_at(V4K, 3), 0x3000 | P | RW);
	set_entry(0x3000, index_at(V4K, 2), 0x4000 | P | RW);
	set_entry(0x4000, index_at(V4K, 1), 0x6000 | P | NX);
	set_entry(0x4000, index_at(V4K, 1) + 1, 0x5000 | P | NX);
	memset(mem + 0x6000, 'a', 0x1000);
	memset(mem + 0x5000, 'b', 0x1000);

	set_entry(0x2000, index_at(V2M, 3), 0x3000 | P | RW);
	set_entry(0x3000, index_at(V2M, 2), 0x200000 | P | PSE | NX);
	memcpy(mem + 0x200000 + 0x1234, "huge", 4);

	set_entry(0x2000, index_at(V1G, 3), 0x40000000 | P | PSE);

	set_entry(0x8000, index_at(V4K, 5), 0x7000 | P | RW);
	set_entry(0x7000, index_at(V4K, 4), 0x2000 | P | RW);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(mem);
	return 0;
}

static const struct ks_pgtable pt4 = {
	.read_phys = read_phys, .pgd = 0x1000, .levels = 4,
};

static void test_4k(void **state)
{
	uint64_t paddr, left;
	char buf[8];

	(void)state;
	assert_int_equal(ks_pgtable_translate(&pt4, V4K + 0x10, &paddr, &left), 0);
	assert_int_equal(paddr, 0x6010);
	assert_int_equal(left, 0xff0);
	assert_int_equal(ks_pgtable_read(&pt4, V4K + 0xffc, buf, 8), 0);
	assert_memory_equal(buf, "aaaabbbb", 8);
}

static void test_huge(void **state)
{
	uint64_t paddr, left;
	char buf[4];

	(void)state;
	assert_int_equal(ks_pgtable_translate(&pt4, V2M + 0x1234, &paddr, &left), 0);
	assert_int_equal(paddr, 0x201234);
	assert_int_equal(left, 0x200000 - 0x1234);
	assert_int_equal(ks_pgtable_read(&pt4, V2M + 0x1234, buf, 4), 0);
	assert_memory_equal(buf, "huge", 4);
	assert_int_equal(ks_pgtable_translate(&pt4, V1G + 0x123456, &paddr, &left), 0);
	assert_int_equal(paddr, 0x40123456);
	assert_int_equal(left, 0x40000000 - 0x123456);
}

static void test_absent(void **state)
{
	uint64_t paddr, left;
	char buf[16];

	(void)state;
	/* No pgd entry; no pte after the second page; a read running into it. */
	assert_int_equal(ks_pgtable_translate(&pt4, 0x1000, &paddr, &left), -EFAULT);
	assert_int_equal(ks_pgtable_translate(&pt4, V4K + 0x2000, &paddr, &left),
			 -EFAULT);
	assert_int_equal(ks_pgtable_read(&pt4, V4K + 0x1ff8, buf, 16), -EFAULT);
	/* Physical memory the dump does not hold. */
	assert_int_equal(ks_pgtable_read(&pt4, V1G, buf, 4), -EFAULT);
}

static void test_5level(void **state)
{
	const struct ks_pgtable pt5 = {
		.read_phys = read_phys, .pgd = 0x8000, .levels = 5,
	};
	uint64_t paddr, left;

	(void)state;
	assert_int_equal(ks_pgtable_translate(&pt5, V4K + 8, &paddr, &left), 0);
	assert_int_equal(paddr, 0x6008);
}

static void test_bad_address(void **state)
{
	const struct ks_pgtable bad = { .read_phys = read_phys, .levels = 3 };
	uint64_t paddr, left;

	(void)state;
	nr_reads = 0;
	assert_int_equal(ks_pgtable_translate(&pt4, 0x0000800000000000ull,
					      &paddr, &left), -EINVAL);
	assert_int_equal(ks_pgtable_translate(&bad, V4K, &paddr, &left), -EINVAL);
	assert_int_equal(nr_reads, 0);
	assert_int_equal(ks_pgtable_read(&pt4, V4K, NULL, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_4k, setup, teardown),
		cmocka_unit_test_setup_teardown(test_huge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_absent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_5level, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_address, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
