// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a lock lies (shared/kernel/waits/lock_where.c), on a fake kernel:
 * a static lock named by its symbol, a lock in a slab page named by its
 * cache (through the page's head, compound_head()), and addresses that
 * name nothing: a page whose slab_cache is no cache on slab_caches, an
 * address past max_pfn, one below the direct map.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "lock_where.h"

#define PAGE_OFFSET	0xffff888000000000ULL
#define VMEMMAP		0xffffea0000000000ULL
#define PAGE_SIZE_T	64	/* sizeof(struct page) here */
#define SYMS		0xffffffff82000000ULL
#define CACHES		0xffff888000100000ULL	/* two struct kmem_cache */
#define NAMES		0xffff888000101000ULL
/* kmem_cache: name at 0x10, list at 0x20 */
#define KC_NAME		0x10
#define KC_LIST		0x20
/* page: compound_head at 8, slab_cache (struct slab) at 16 */
#define PG_HEAD		8
#define PG_CACHE	16

static uint64_t page_of(uint64_t pfn)
{
	return VMEMMAP + pfn * PAGE_SIZE_T;
}

static struct ks_fake *image(const char *head_member)
{
	struct ks_fake *f = ks_fake_create();
	uint64_t head = SYMS + 0x100;

	ks_fake_add_memory(f, SYMS, NULL, 0x200);
	ks_fake_add_symbol(f, "page_offset_base", SYMS, 8, NULL);
	ks_fake_add_symbol(f, "vmemmap_base", SYMS + 8, 8, NULL);
	ks_fake_add_symbol(f, "max_pfn", SYMS + 16, 8, NULL);
	ks_fake_add_symbol(f, "kernfs_mutex", SYMS + 0x40, 0x20, NULL);
	ks_fake_add_symbol(f, "slab_caches", head, 16, NULL);
	ks_fake_write_u64(f, SYMS, PAGE_OFFSET);
	ks_fake_write_u64(f, SYMS + 8, VMEMMAP);
	ks_fake_write_u64(f, SYMS + 16, 0x1000);
	ks_fake_add_type(f, "page", PAGE_SIZE_T);
	ks_fake_add_member(f, "page", head_member, PG_HEAD, 8);
	ks_fake_add_member(f, "slab", "slab_cache", PG_CACHE, 8);
	ks_fake_add_member(f, "kmem_cache", "name", KC_NAME, 8);
	ks_fake_add_member(f, "kmem_cache", "list", KC_LIST, 16);
	/* slab_caches: inode_cache only; CACHES + 0x100 is on no list */
	ks_fake_add_memory(f, CACHES, NULL, 0x200);
	ks_fake_add_memory(f, NAMES, "inode_cache\0kmalloc-64", 23);
	ks_fake_write_u64(f, CACHES + KC_NAME, NAMES);
	ks_fake_write_u64(f, CACHES + 0x100 + KC_NAME, NAMES + 12);
	ks_fake_write_u64(f, head, CACHES + KC_LIST);
	ks_fake_write_u64(f, head + 8, CACHES + KC_LIST);
	ks_fake_write_u64(f, CACHES + KC_LIST, head);
	ks_fake_write_u64(f, CACHES + KC_LIST + 8, head);
	/* pages 0x200 (head) and 0x201 (its tail) of inode_cache */
	ks_fake_add_memory(f, page_of(0x200), NULL, 4 * PAGE_SIZE_T);
	ks_fake_write_u64(f, page_of(0x200) + PG_CACHE, CACHES);
	ks_fake_write_u64(f, page_of(0x201) + PG_HEAD, page_of(0x200) + 1);
	/* page 0x202: a slab_cache word that is no cache of the list */
	ks_fake_write_u64(f, page_of(0x202) + PG_CACHE, CACHES + 0x100);
	return f;
}

static void where(struct ks_lock_where *lw, uint64_t addr, const char *want)
{
	char buf[64];

	ks_lock_where(lw, addr, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_where(void **state)
{
	struct ks_fake *f = image("compound_head");
	struct ks_lock_where *lw = NULL;
	struct ks_target t;

	(void)state;
	ks_fake_target(f, &t);
	assert_int_equal(ks_lock_where_open(&t, &lw), 0);
	where(lw, SYMS + 0x40, "kernfs_mutex");
	where(lw, SYMS + 0x48, "kernfs_mutex+0x8");
	where(lw, PAGE_OFFSET + 0x200000 + 0x40, "inode_cache");
	/* a tail page leads to its head's cache */
	where(lw, PAGE_OFFSET + 0x201000 + 0x80, "inode_cache");
	where(lw, PAGE_OFFSET + 0x202000, "");
	where(lw, PAGE_OFFSET + 0x1000000, "");		/* past max_pfn */
	where(lw, PAGE_OFFSET - 0x1000, "");
	ks_lock_where_close(lw);
	ks_fake_destroy(f);
}

/*
 * 7.x's compound_info: a head page names its cache; a tail page, whose
 * word may be a mask, names nothing rather than a guess.
 */
static void test_compound_info(void **state)
{
	struct ks_fake *f = image("compound_info");
	struct ks_lock_where *lw = NULL;
	struct ks_target t;

	(void)state;
	ks_fake_target(f, &t);
	assert_int_equal(ks_lock_where_open(&t, &lw), 0);
	where(lw, PAGE_OFFSET + 0x200000 + 0x40, "inode_cache");
	where(lw, PAGE_OFFSET + 0x201000 + 0x80, "");
	ks_lock_where_close(lw);
	ks_fake_destroy(f);
}

/* Without the slab types, symbols alone. */
static void test_symbols_only(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_lock_where *lw = NULL;
	struct ks_target t;

	(void)state;
	ks_fake_add_symbol(f, "kernfs_mutex", SYMS + 0x40, 0x20, NULL);
	ks_fake_target(f, &t);
	assert_int_equal(ks_lock_where_open(&t, &lw), 0);
	where(lw, SYMS + 0x40, "kernfs_mutex");
	where(lw, PAGE_OFFSET + 0x200000, "");
	ks_lock_where_close(lw);
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_where),
		cmocka_unit_test(test_compound_info),
		cmocka_unit_test(test_symbols_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
