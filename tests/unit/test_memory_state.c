// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The triage's memory on a fake kernel image: /proc/meminfo's lines
 * from vm_zone_stat[] and vm_node_stat[] at the indexes the enums give
 * (not the same as any kernel's, so nothing may be hard-coded), a
 * negative global counter read as 0, si_mem_available() over a node's
 * zones, Buffers from the block devices' inodes, the default hstate,
 * the largest slab caches in order, and what is said when the enums,
 * the SLUB_DEBUG counters or a sane slab list are missing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "memory_state.h"
#include "said.h"

#define VMZ		0xffffffff82000000ull	/* vm_zone_stat[] */
#define VMN		0xffffffff82001000ull	/* vm_node_stat[] */
#define SCALARS		0xffffffff82002000ull
#define PGDAT		0xffffffff82003000ull	/* contig_page_data */
#define HSTATES		0xffffffff82004000ull
#define SLAB_CACHES	0xffffffff82005000ull
#define SB		0xffff888001000000ull
#define INODE(i)	(0xffff888001001000ull + (i) * 0x100ull)
#define CACHE(i)	(0xffff888002000000ull + (i) * 0x1000ull)

#define ZONE_SIZE	64
#define C_LIST		0x60
#define C_NODE		0x100

static void put64(struct ks_fake *f, uint64_t addr, uint64_t v)
{
	assert_int_equal(ks_fake_write_u64(f, addr, v), 0);
}

static void put32(struct ks_fake *f, uint64_t addr, uint32_t v)
{
	assert_int_equal(ks_fake_write(f, addr, &v, 4), 0);
}

/* The counters, at indexes of this test's own. */
static void add_stats(struct ks_fake *f)
{
	static const struct { const char *name; long idx; uint64_t pages; } node[] = {
		{ "NR_INACTIVE_FILE", 3, 100 }, { "NR_ACTIVE_FILE", 2, 300 },
		{ "NR_SLAB_RECLAIMABLE_B", 9, 80 }, { "NR_SLAB_UNRECLAIMABLE_B", 7, 70 },
		{ "NR_FILE_PAGES", 11, 500 }, { "NR_ANON_MAPPED", 4, 40 },
		{ "NR_SHMEM", 13, 250 }, { "NR_KERNEL_MISC_RECLAIMABLE", 5, 20 },
		{ "NR_SWAPCACHE", 15, 8 },
	};

	ks_fake_set_vmcoreinfo(f, "OSRELEASE=6.1.0\nPAGESIZE=4096\n");
	ks_fake_add_enum(f, "zone_stat_item", "NR_FREE_PAGES", 1);
	ks_fake_add_symbol(f, "vm_zone_stat", VMZ, 128, NULL);
	ks_fake_add_memory(f, VMZ, NULL, 128);
	put64(f, VMZ, 7777);		/* index 0 is not NR_FREE_PAGES here */
	put64(f, VMZ + 8, 1000);
	ks_fake_add_symbol(f, "vm_node_stat", VMN, 256, NULL);
	ks_fake_add_memory(f, VMN, NULL, 256);
	for (size_t i = 0; i < sizeof(node) / sizeof(node[0]); i++) {
		ks_fake_add_enum(f, "node_stat_item", node[i].name, node[i].idx);
		put64(f, VMN + (uint64_t)node[i].idx * 8, node[i].pages);
	}
	ks_fake_add_memory(f, SCALARS, NULL, 64);
	ks_fake_add_symbol(f, "_totalram_pages", SCALARS, 8, NULL);
	put64(f, SCALARS, 4096);
	ks_fake_add_symbol(f, "totalreserve_pages", SCALARS + 8, 8, NULL);
	put64(f, SCALARS + 8, 100);
	ks_fake_add_symbol(f, "total_swap_pages", SCALARS + 16, 8, NULL);
	put64(f, SCALARS + 16, 2048);
	ks_fake_add_symbol(f, "nr_swap_pages", SCALARS + 24, 8, NULL);
	put64(f, SCALARS + 24, 2000);
}

/* One node of two zones, low watermarks 20 and 25 (+5 boost). */
static void add_zones(struct ks_fake *f)
{
	ks_fake_add_enum(f, "zone_watermarks", "WMARK_LOW", 1);
	ks_fake_add_member(f, "pglist_data", "node_zones", 0, 2 * ZONE_SIZE);
	ks_fake_add_member(f, "zone", "_watermark", 0, 32);
	ks_fake_add_member(f, "zone", "watermark_boost", 32, 8);
	ks_fake_add_type(f, "zone", ZONE_SIZE);
	ks_fake_add_symbol(f, "contig_page_data", PGDAT, 2 * ZONE_SIZE, NULL);
	ks_fake_add_memory(f, PGDAT, NULL, 2 * ZONE_SIZE);
	put64(f, PGDAT + 8, 20);
	put64(f, PGDAT + ZONE_SIZE + 8, 25);
	put64(f, PGDAT + ZONE_SIZE + 32, 5);
}

/* Two block devices' inodes of 3 and 8 pages; 2 huge pages of 2 MiB. */
static void add_bdev_huge(struct ks_fake *f)
{
	ks_fake_add_member(f, "super_block", "s_inodes", 16, 16);
	ks_fake_add_member(f, "inode", "i_sb_list", 32, 16);
	ks_fake_add_member(f, "inode", "i_mapping", 48, 8);
	ks_fake_add_member(f, "address_space", "nrpages", 8, 8);
	ks_fake_add_symbol(f, "blockdev_superblock", SCALARS + 40, 8, NULL);
	put64(f, SCALARS + 40, SB);
	ks_fake_add_memory(f, SB, NULL, 64);
	put64(f, SB + 16, INODE(0) + 32);
	put64(f, SB + 24, INODE(1) + 32);
	for (int i = 0; i < 2; i++) {
		ks_fake_add_memory(f, INODE(i), NULL, 0x100);
		put64(f, INODE(i) + 32, i ? SB + 16 : INODE(1) + 32);
		put64(f, INODE(i) + 48, INODE(i) + 0x80);
		put64(f, INODE(i) + 0x88, i ? 8 : 3);
	}
	ks_fake_add_member(f, "hstate", "order", 0, 4);
	ks_fake_add_member(f, "hstate", "nr_huge_pages", 8, 8);
	ks_fake_add_member(f, "hstate", "free_huge_pages", 16, 8);
	ks_fake_add_type(f, "hstate", 64);
	ks_fake_add_symbol(f, "hstates", HSTATES, 128, NULL);
	ks_fake_add_memory(f, HSTATES, NULL, 128);
	put32(f, HSTATES + 64, 9);
	put64(f, HSTATES + 64 + 8, 2);
	put64(f, HSTATES + 64 + 16, 1);
	ks_fake_add_symbol(f, "default_hstate_idx", SCALARS + 48, 4, NULL);
	put32(f, SCALARS + 48, 1);
	ks_fake_add_symbol(f, "hugetlb_max_hstate", SCALARS + 52, 4, NULL);
	put32(f, SCALARS + 52, 2);
}

/* n caches: cache i has i + 1 slabs of order i % 2, nodes[] of 4 */
static void add_slabs(struct ks_fake *f, int n, bool debug)
{
	ks_fake_add_member(f, "kmem_cache", "list", C_LIST, 16);
	ks_fake_add_member(f, "kmem_cache", "name", 0x58, 8);
	ks_fake_add_member(f, "kmem_cache", "size", 0x10, 4);
	ks_fake_add_member(f, "kmem_cache", "oo", 0x20, 4);
	ks_fake_add_member(f, "kmem_cache", "node", C_NODE, 32);
	if (debug) {
		ks_fake_add_member(f, "kmem_cache_node", "nr_slabs", 8, 8);
		ks_fake_add_member(f, "kmem_cache_node", "total_objects", 16, 8);
	}
	ks_fake_add_symbol(f, "slab_caches", SLAB_CACHES, 16, NULL);
	ks_fake_add_memory(f, SLAB_CACHES, NULL, 16);
	put64(f, SLAB_CACHES, n ? CACHE(0) + C_LIST : SLAB_CACHES);
	for (int i = 0; i < n; i++) {
		uint64_t c = CACHE(i);

		ks_fake_add_memory(f, c, NULL, 0x1000);
		put64(f, c + C_LIST, i + 1 < n ? CACHE(i + 1) + C_LIST : SLAB_CACHES);
		put64(f, c + 0x58, c + 0x900);
		assert_int_equal(ks_fake_write(f, c + 0x900, "cache-", 6), 0);
		put32(f, c + 0x906, (uint32_t)('0' + i));
		put32(f, c + 0x10, 64);
		put32(f, c + 0x20, (uint32_t)(i % 2) << 16 | 64);
		put64(f, c + C_NODE, c + 0x800);
		put64(f, c + 0x800 + 8, (uint64_t)i + 1);
		put64(f, c + 0x800 + 16, 64 * ((uint64_t)i + 1));
	}
}

static struct ks_fake *full(int caches)
{
	struct ks_fake *f = ks_fake_create();

	add_stats(f);
	add_zones(f);
	add_bdev_huge(f);
	add_slabs(f, caches, true);
	return f;
}

static void test_meminfo(void **state)
{
	struct ks_fake *f = full(2);
	struct said said = { 0 };
	struct ks_memory m;
	struct ks_target t;

	(void)state;
	ks_fake_target(f, &t);
	ks_memory_read(&t, &m, &SAID_TO(&said), &SAID_TO(&said));
	assert_string_equal(said.text, "");
	assert_int_equal(m.page_shift, 12);
	for (int i = 0; i < KS_MEM_NR_LINES; i++)
		assert_true(m.known[i]);
	assert_int_equal(m.kb[KS_MEM_TOTAL], 4096 * 4);
	assert_int_equal(m.kb[KS_MEM_FREE], 1000 * 4);
	/* 900 + (400 - 50) + (100 - 50), the watermarks 20 + 25 + 5 */
	assert_int_equal(m.kb[KS_MEM_AVAILABLE], 1300 * 4);
	assert_int_equal(m.kb[KS_MEM_BUFFERS], 11 * 4);
	assert_int_equal(m.kb[KS_MEM_CACHED], (500 - 8 - 11) * 4);
	assert_int_equal(m.kb[KS_MEM_SWAP_TOTAL], 2048 * 4);
	assert_int_equal(m.kb[KS_MEM_SWAP_FREE], 2000 * 4);
	assert_int_equal(m.kb[KS_MEM_ANON], 40 * 4);
	assert_int_equal(m.kb[KS_MEM_SHMEM], 250 * 4);
	assert_int_equal(m.kb[KS_MEM_SLAB], 150 * 4);
	assert_int_equal(m.kb[KS_MEM_SRECLAIMABLE], 80 * 4);
	assert_int_equal(m.kb[KS_MEM_SUNRECLAIM], 70 * 4);
	assert_int_equal(m.huge_err, 0);
	assert_int_equal(m.huge_total, 2);
	assert_int_equal(m.huge_free, 1);
	assert_int_equal(m.huge_page_kb, 2048);
	ks_fake_destroy(f);
}

/* A global counter below 0 (per-CPU deltas not folded) reads as 0. */
static void test_negative(void **state)
{
	struct ks_fake *f = full(0);
	struct ks_memory m;
	struct ks_target t;

	(void)state;
	put64(f, VMN + 4 * 8, (uint64_t)-12);
	ks_fake_target(f, &t);
	ks_memory_read(&t, &m, NULL, NULL);
	assert_true(m.known[KS_MEM_ANON]);
	assert_int_equal(m.kb[KS_MEM_ANON], 0);
	assert_int_equal(m.slab_err, -ENOENT);	/* no cache on the list */
	ks_fake_destroy(f);
}

/* The largest first, at most ten, each slab of its order's pages. */
static void test_top_slabs(void **state)
{
	struct ks_fake *f = full(12);
	struct ks_memory m;
	struct ks_target t;

	(void)state;
	ks_fake_target(f, &t);
	ks_memory_read(&t, &m, NULL, NULL);
	assert_int_equal(m.slab_err, 0);
	assert_int_equal(m.nr_caches, 12);
	assert_int_equal(m.nr_top, KS_MEM_TOP_SLABS);
	/* cache 11: 12 slabs of order 1, then 9, 7, 5; 10's 11 of order 0 after */
	assert_string_equal(m.top[0].name, "cache-;");
	assert_int_equal(m.top[0].bytes, 12 * 8192);
	assert_int_equal(m.top[0].slabs, 12);
	assert_int_equal(m.top[0].objects, 12 * 64);
	assert_int_equal(m.top[0].object_size, 64);
	assert_int_equal(m.top[1].bytes, 10 * 8192);
	assert_int_equal(m.top[2].bytes, 8 * 8192);
	assert_int_equal(m.top[3].bytes, 6 * 8192);
	assert_int_equal(m.top[4].bytes, 11 * 4096);
	for (size_t i = 1; i < m.nr_top; i++)
		assert_true(m.top[i - 1].bytes >= m.top[i].bytes);
	ks_fake_destroy(f);
}

/* A list that loops is read up to its loop, and says so. */
static void test_slab_loop(void **state)
{
	struct ks_fake *f = full(3);
	struct said said = { 0 };
	struct ks_memory m;
	struct ks_target t;

	(void)state;
	put64(f, CACHE(2) + C_LIST, CACHE(1) + C_LIST);
	ks_fake_target(f, &t);
	ks_memory_read(&t, &m, NULL, &SAID_TO(&said));
	assert_int_equal(m.slab_err, 0);
	assert_int_equal(m.nr_caches, 3);
	assert_non_null(strstr(said.text, "slab_caches loops"));
	ks_fake_destroy(f);
}

/* Without CONFIG_SLUB_DEBUG's counters, or without the enums. */
static void test_missing(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct said said = { 0 }, slab = { 0 };
	struct ks_memory m;
	struct ks_target t;

	(void)state;
	ks_fake_set_vmcoreinfo(f, "PAGESIZE=4096\n");
	add_slabs(f, 2, false);
	ks_fake_add_symbol(f, "vm_zone_stat", VMZ, 128, NULL);
	ks_fake_add_memory(f, VMZ, NULL, 128);
	ks_fake_target(f, &t);
	ks_memory_read(&t, &m, &SAID_TO(&said), &SAID_TO(&slab));
	for (int i = 0; i < KS_MEM_NR_LINES; i++)
		assert_false(m.known[i]);
	assert_non_null(strstr(said.text, "no symbol _totalram_pages or totalram_pages"));
	assert_non_null(strstr(said.text, "no enumerator NR_FREE_PAGES of enum zone_stat_item"));
	assert_int_equal(m.huge_err, -ENOENT);
	assert_int_equal(m.slab_err, -ENOTSUP);
	assert_non_null(strstr(slab.text, "need CONFIG_SLUB_DEBUG"));
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_negative),
		cmocka_unit_test(test_top_slabs),
		cmocka_unit_test(test_slab_loop),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
