// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The x86-64 page walk (shared/kernel/arch/x86_64_page_walk.c) on page tables built here
 * in the fake target's physical memory: 4 KiB, 2 MiB and 1 GiB pages,
 * reads that cross pages, absent levels, _PAGE_PROTNONE pages (present,
 * with the frame inverted as the kernel writes it), 5-level paging, the
 * SME bit, tables that loop or point outside memory, and read_user from
 * a task's mm->pgd in the direct map.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arch.h"
#include "fake_target.h"
#include "page_walk.h"

#define MEM_SIZE	(4u << 20)	/* 4 MiB of "physical memory" */
#define P		0x1ull		/* _PAGE_PRESENT */
#define RW		0x2ull
#define PSE		0x80ull
#define PROTNONE	0x100ull
#define NX		(1ull << 63)
#define PFN_MASK	0x000ffffffffff000ull
#define C_BIT		(1ull << 47)	/* an SME encryption bit */

/* User address of the 4 KiB pages, and of a 2 MiB and a 1 GiB mapping. */
#define V4K	0x00007f1234567000ull
#define V2M	0x00007f1240000000ull
#define V1G	0x00007f0000000000ull
#define VPN	0x00007f1234569000ull	/* a PROT_NONE 4 KiB page */
#define VPN2M	0x00007f1240200000ull	/* a PROT_NONE 2 MiB page */
#define VSPLIT	0x00007f1240400000ull	/* a 2 MiB page being split */

/* The direct map, and a task whose mm's pgd is in it. */
#define PAGE_OFFSET	0xffff888000000000ull
#define TASK		0xffff888100000000ull
#define MM		0xffff888100001000ull

struct env {
	struct ks_fake *f;
	struct ks_target t;
	struct ks_target_ops ops;	/* the fake's, read_phys counted */
	const struct ks_target_ops *fake_ops;
};

static unsigned long nr_phys_reads;
static const struct ks_target_ops *counted_ops;

static int counting_read_phys(void *ctx, uint64_t paddr, void *buf, size_t len)
{
	nr_phys_reads++;
	return counted_ops->read_phys(ctx, paddr, buf, len);
}

static const struct ks_paging pg4 = { .arch = &ks_arch_x86_64, .levels = 4,
					     .page_offset = PAGE_OFFSET };
static const struct ks_paging pg5 = { .arch = &ks_arch_x86_64, .levels = 5,
					     .page_offset = PAGE_OFFSET };

static void set_entry(struct env *e, uint64_t table, unsigned int idx,
		      uint64_t val)
{
	assert_int_equal(ks_fake_write_phys(e->f, table + idx * 8, &val, 8), 0);
}

static unsigned int index_at(uint64_t vaddr, int level)
{
	return (vaddr >> (12 + 9 * (level - 1))) & 0x1ff;
}

/* pfn_pte() of a PROT_NONE page: the frame inverted (pgtable-invert.h). */
static uint64_t protnone(uint64_t paddr, uint64_t flags)
{
	return (~paddr & PFN_MASK) | PROTNONE | flags;
}

static void fill(struct env *e, uint64_t paddr, int c, size_t len)
{
	char *b = malloc(len);

	assert_non_null(b);
	memset(b, c, len);
	assert_int_equal(ks_fake_write_phys(e->f, paddr, b, len), 0);
	free(b);
}

/*
 * pgd 0x1000 -> pud 0x2000 -> pmd 0x3000 -> pt 0x4000: V4K at 0x6000 and
 * the next page at 0x5000 (not adjacent on purpose), VPN PROT_NONE at
 * 0x9000; V2M a PSE pmd entry to 0x200000, VPN2M a PROT_NONE one and
 * VSPLIT an invalidated one to 0x200000 too; V1G a PSE pud entry to 0x40000000 (out of the fake
 * memory, translated only).  5-level: p4d at 0x7000 between pgd 0x8000
 * and the pud.
 */
static void build_tables(struct env *e)
{
	set_entry(e, 0x1000, index_at(V4K, 4), 0x2000 | P | RW);
	set_entry(e, 0x2000, index_at(V4K, 3), 0x3000 | P | RW);
	set_entry(e, 0x3000, index_at(V4K, 2), 0x4000 | P | RW);
	set_entry(e, 0x4000, index_at(V4K, 1), 0x6000 | P | NX);
	set_entry(e, 0x4000, index_at(V4K, 1) + 1, 0x5000 | P | NX);
	set_entry(e, 0x4000, index_at(VPN, 1), protnone(0x9000, NX));
	fill(e, 0x6000, 'a', 0x1000);
	fill(e, 0x5000, 'b', 0x1000);
	fill(e, 0x9000, 'n', 0x1000);

	set_entry(e, 0x2000, index_at(V2M, 3), 0x3000 | P | RW);
	set_entry(e, 0x3000, index_at(V2M, 2), 0x200000 | P | PSE | NX);
	set_entry(e, 0x3000, index_at(VPN2M, 2), protnone(0x200000, PSE));
	/* pmdp_invalidate() leaves _PAGE_PSE alone, the frame inverted */
	set_entry(e, 0x3000, index_at(VSPLIT, 2), protnone(0x200000, PSE) & ~PROTNONE);
	assert_int_equal(ks_fake_write_phys(e->f, 0x201234, "huge", 4), 0);

	set_entry(e, 0x2000, index_at(V1G, 3), 0x40000000 | P | PSE);

	set_entry(e, 0x8000, index_at(V4K, 5), 0x7000 | P | RW);
	set_entry(e, 0x7000, index_at(V4K, 4), 0x2000 | P | RW);
}

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	e->f = ks_fake_create();
	assert_non_null(e->f);
	assert_int_equal(ks_fake_add_phys(e->f, 0, NULL, MEM_SIZE), 0);
	build_tables(e);
	ks_fake_target(e->f, &e->t);
	e->fake_ops = e->t.ops;
	e->ops = *e->t.ops;
	e->ops.read_phys = counting_read_phys;
	counted_ops = e->fake_ops;
	e->t.ops = &e->ops;
	nr_phys_reads = 0;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	ks_fake_destroy(e->f);
	free(e);
	return 0;
}

static void test_4k(void **state)
{
	struct env *e = *state;
	uint64_t paddr, left;
	char buf[8];

	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x1000, V4K + 0x10,
					   &paddr, &left), 0);
	assert_int_equal(paddr, 0x6010);
	assert_int_equal(left, 0xff0);
	assert_int_equal(ks_page_read(&e->t, &pg4, 0x1000, V4K + 0xffc, buf, 8), 0);
	assert_memory_equal(buf, "aaaabbbb", 8);
}

static void test_huge(void **state)
{
	struct env *e = *state;
	uint64_t paddr, left;
	char buf[4];

	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x1000, V2M + 0x1234,
					   &paddr, &left), 0);
	assert_int_equal(paddr, 0x201234);
	assert_int_equal(left, 0x200000 - 0x1234);
	assert_int_equal(ks_page_read(&e->t, &pg4, 0x1000, V2M + 0x1234, buf, 4), 0);
	assert_memory_equal(buf, "huge", 4);
	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x1000, V1G + 0x123456,
					   &paddr, &left), 0);
	assert_int_equal(paddr, 0x40123456);
	assert_int_equal(left, 0x40000000 - 0x123456);
}

/* pte_present() counts _PAGE_PROTNONE: the page is in memory. */
static void test_protnone(void **state)
{
	struct env *e = *state;
	uint64_t paddr, left;
	char buf[4];

	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x1000, VPN + 0x20,
					   &paddr, &left), 0);
	assert_int_equal(paddr, 0x9020);
	assert_int_equal(ks_page_read(&e->t, &pg4, 0x1000, VPN, buf, 4), 0);
	assert_memory_equal(buf, "nnnn", 4);
	assert_int_equal(ks_page_read(&e->t, &pg4, 0x1000, VPN2M + 0x1234, buf, 4), 0);
	assert_memory_equal(buf, "huge", 4);
	/* pmd_present(): a huge pmd under split_huge_page() is still there */
	assert_int_equal(ks_page_read(&e->t, &pg4, 0x1000, VSPLIT + 0x1234, buf, 4), 0);
	assert_memory_equal(buf, "huge", 4);
}

static void test_absent(void **state)
{
	struct env *e = *state;
	uint64_t paddr, left;
	char buf[16];

	/* No pgd entry; no pte after the second page; a read running into it. */
	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x1000, 0x1000, &paddr,
					   &left), -EFAULT);
	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x1000, V4K + 0x3000,
					   &paddr, &left), -EFAULT);
	assert_int_equal(ks_page_read(&e->t, &pg4, 0x1000, VPN + 0xff8, buf, 16),
			 -EFAULT);
	/* _PAGE_PROTNONE is no present bit above a leaf (pud_present()). */
	set_entry(e, 0x1000, index_at(V4K, 4), 0x2000 | PROTNONE);
	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x1000, V4K, &paddr,
					   &left), -EFAULT);
	/* Physical memory the dump does not hold. */
	assert_int_equal(ks_page_read(&e->t, &pg4, 0x1000, V1G, buf, 4), -EFAULT);
}

static void test_5level(void **state)
{
	struct env *e = *state;
	uint64_t paddr, left;

	assert_int_equal(ks_page_translate(&e->t, &pg5, 0x8000, V4K + 8, &paddr,
					   &left), 0);
	assert_int_equal(paddr, 0x6008);
	/* the same pgd read as 4-level finds no entry for V4K */
	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x8000, V4K + 8, &paddr,
					   &left), -EFAULT);
	/* canonical with 57 bits, not with 48 */
	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x8000, 1ull << 50, &paddr,
					   &left), -EINVAL);
	assert_int_equal(ks_page_translate(&e->t, &pg5, 0x8000, 1ull << 50, &paddr,
					   &left), -EFAULT);
}

/* sme_me_mask is set in every entry and is no part of an address. */
static void test_sme(void **state)
{
	const struct ks_paging sme = { .arch = &ks_arch_x86_64, .levels = 4,
					  .me_mask = C_BIT };
	struct env *e = *state;
	uint64_t paddr, left;

	set_entry(e, 0x1000, index_at(V4K, 4), 0x2000 | C_BIT | P | RW);
	set_entry(e, 0x4000, index_at(V4K, 1), 0x6000 | C_BIT | P | NX);
	assert_int_equal(ks_page_translate(&e->t, &sme, 0x1000, V4K, &paddr,
					   &left), 0);
	assert_int_equal(paddr, 0x6000);
	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x1000, V4K, &paddr,
					   &left), -EFAULT);
}

static void test_bad_address(void **state)
{
	const struct ks_paging bad = { .arch = &ks_arch_x86_64, .levels = 3 };
	struct env *e = *state;
	uint64_t paddr, left;

	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x1000, 0x0000800000000000ull,
					   &paddr, &left), -EINVAL);
	assert_int_equal(ks_page_translate(&e->t, &bad, 0x1000, V4K, &paddr, &left),
			 -EINVAL);
	assert_int_equal(nr_phys_reads, 0);
	assert_int_equal(ks_page_read(&e->t, &pg4, 0x1000, V4K, NULL, 0), 0);
}

/*
 * A table that points at itself on every level maps itself: the walk
 * reads one entry per level and ends.  A table outside memory is -EFAULT.
 */
static void test_loop_and_outside(void **state)
{
	struct env *e = *state;
	uint64_t va = (1ull << 39) | (1ull << 30) | (1ull << 21) | (1ull << 12);
	uint64_t paddr, left;
	char buf[64];

	set_entry(e, 0xa000, 1, 0xa000 | P);
	assert_int_equal(ks_page_translate(&e->t, &pg4, 0xa000, va, &paddr, &left), 0);
	assert_int_equal(paddr, 0xa000);
	assert_int_equal(nr_phys_reads, 4);
	set_entry(e, 0xb000, 1, 0x7ff000000ull | P);
	assert_int_equal(ks_page_read(&e->t, &pg4, 0xb000, va, buf, sizeof(buf)),
			 -EFAULT);
}

/* A target without physical memory cannot walk. */
static void test_no_read_phys(void **state)
{
	struct env *e = *state;
	uint64_t paddr, left;

	e->ops.read_phys = NULL;
	assert_int_equal(ks_page_translate(&e->t, &pg4, 0x1000, V4K, &paddr,
					   &left), -ENOSYS);
}

static void add_task(struct env *e, uint64_t pgd)
{
	assert_int_equal(ks_fake_add_member(e->f, "task_struct", "mm", 0x20, 8), 0);
	assert_int_equal(ks_fake_add_member(e->f, "mm_struct", "pgd", 0x50, 8), 0);
	assert_int_equal(ks_fake_add_memory(e->f, TASK, NULL, 0x100), 0);
	assert_int_equal(ks_fake_add_memory(e->f, MM, NULL, 0x100), 0);
	assert_int_equal(ks_fake_write_u64(e->f, TASK + 0x20, MM), 0);
	assert_int_equal(ks_fake_write_u64(e->f, MM + 0x50, pgd), 0);
}

/* read_user: task->mm->pgd, __pa() of the direct map, then the walk. */
/* Without the member offsets there is no user memory either. */
static void test_read_user_no_offsets(void **state)
{
	struct env *e = *state;
	char buf[4];

	ks_fake_set_paging(e->f, &pg4);
	assert_int_equal(e->t.ops->read_user(e->t.ctx, TASK, V4K, buf, 4), -ENOENT);
}

static void test_read_user(void **state)
{
	struct env *e = *state;
	char buf[8];

	/* without the paging facts there is no user memory */
	add_task(e, PAGE_OFFSET + 0x1000);
	assert_int_equal(e->t.ops->read_user(e->t.ctx, TASK, V4K, buf, 4), -ENOENT);
	ks_fake_set_paging(e->f, &pg4);
	assert_int_equal(e->t.ops->read_user(e->t.ctx, TASK, V4K + 0xffc, buf, 8), 0);
	assert_memory_equal(buf, "aaaabbbb", 8);
	assert_int_equal(e->t.ops->read_user(e->t.ctx, TASK, VPN, buf, 4), 0);
	assert_memory_equal(buf, "nnnn", 4);
	/* a pgd outside the direct map is a corrupt mm */
	assert_int_equal(ks_fake_write_u64(e->f, MM + 0x50, 0x1000), 0);
	assert_int_equal(e->t.ops->read_user(e->t.ctx, TASK, V4K, buf, 4), -EFAULT);
	/* a kernel thread has no mm; a task that is not in memory */
	assert_int_equal(ks_fake_write_u64(e->f, TASK + 0x20, 0), 0);
	assert_int_equal(e->t.ops->read_user(e->t.ctx, TASK, V4K, buf, 4), -EFAULT);
	assert_int_equal(e->t.ops->read_user(e->t.ctx, TASK + 0x1000000, V4K, buf, 4),
			 -EFAULT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_4k, setup, teardown),
		cmocka_unit_test_setup_teardown(test_huge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_protnone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_absent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_5level, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sme, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_address, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_and_outside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_read_phys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_user_no_offsets, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_read_user, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
