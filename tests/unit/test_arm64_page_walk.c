// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The arm64 page walk (shared/kernel/arch/arm64_page_walk.c) on tables
 * forged in the fake target's physical memory, which starts at
 * PHYS_OFFSET as on QEMU's virt board: 4 KiB pages with 48-bit VAs (4
 * levels), 2 MiB and 1 GiB blocks, 64 KiB pages with 42-bit VAs (2
 * levels), invalid and reserved descriptors, addresses above VA_BITS,
 * tables that loop, read_user from mm->pgd through the linear map, and
 * the paging facts from VMCOREINFO; Debian's 6.12 build (VA_BITS 52,
 * 4 KiB pages) both on a CPU with LPA2 (5 levels) and without (48 bits:
 * 4 levels, PHYS_OFFSET moved down, the linear map's top used).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arch.h"
#include "arm64.h"
#include "fake_target.h"
#include "page_walk.h"
#include "vmcoreinfo.h"

#define PHYS		0x40000000ull	/* PHYS_OFFSET */
#define MEM_SIZE	(4u << 20)
#define TABLE		0x3ull		/* valid, table (or page at level 3) */
#define BLOCK		0x1ull		/* valid, block */
#define AF		(1ull << 10)
#define UXN		(1ull << 54)

#define V4K		0x0000ffff8a345000ull
#define V2M		0x0000ffff8a600000ull
#define V1G		0x0000ffffc0000000ull
#define V64K		0x000001234567c000ull

/* PAGE_OFFSET of a 48-bit kernel (5.4+): -(1 << 48) */
#define PAGE_OFFSET	0xffff000000000000ull
#define TASK		0xffff000012340000ull
#define MM		0xffff000012341000ull

static const struct ks_paging pg4k = {
	.arch = &ks_arch_arm64, .va_bits = 48, .vabits_actual = 48,
	.page_shift = 12, .page_offset = PAGE_OFFSET, .phys_offset = PHYS,
};
static const struct ks_paging pg64k = {
	.arch = &ks_arch_arm64, .va_bits = 42, .vabits_actual = 42,
	.page_shift = 16, .page_offset = 0xfffffc0000000000ull,
	.phys_offset = PHYS,
};

/*
 * A 52-bit build (PAGE_OFFSET -(1 << 52)): on a CPU with LPA2 it runs
 * 52 bits; without, 48, and arm64_memblock_init() moves memstart_addr
 * down by _PAGE_OFFSET(48) - _PAGE_OFFSET(52), so memory starts at
 * 0xffff000000000000 as on a 48-bit build (VMCOREINFO of such a dump:
 * NUMBER(PHYS_OFFSET)=0xfff1000040000000, NUMBER(TCR_EL1_T1SZ)=0x10).
 */
#define PAGE_OFFSET_52	0xfff0000000000000ull
#define PHYS_52_ON_48	(PHYS - (0xffff000000000000ull - PAGE_OFFSET_52))
static const struct ks_paging pg52 = {
	.arch = &ks_arch_arm64, .va_bits = 52, .vabits_actual = 52,
	.page_shift = 12, .page_offset = PAGE_OFFSET_52, .phys_offset = PHYS,
};
static const struct ks_paging pg52_on_48 = {
	.arch = &ks_arch_arm64, .va_bits = 52, .vabits_actual = 48,
	.page_shift = 12, .page_offset = PAGE_OFFSET_52,
	.phys_offset = PHYS_52_ON_48,
};

struct env {
	struct ks_fake *f;
	struct ks_target t;
};

static void set_entry(struct env *e, uint64_t table, uint64_t idx, uint64_t val)
{
	assert_int_equal(ks_fake_write_phys(e->f, table + idx * 8, &val, 8), 0);
}

/* 4 KiB granule: 9 bits a level from bit 12 */
static uint64_t idx4k(uint64_t va, int level)
{
	return (va >> (12 + 9 * (level - 1))) & 0x1ff;
}

/*
 * 4 KiB: pgd PHYS+0x1000 -> pud +0x2000 -> pmd +0x3000 -> pte +0x4000,
 * V4K at +0x6000; V2M a pmd block at +0x200000; V1G a pud block at
 * 0x80000000 (translated only); a 52-bit pgd at +0x9000 over +0x1000.  64 KiB: pgd +0x10000 -> pte +0x20000,
 * V64K at +0x30000.
 */
static void build_tables(struct env *e)
{
	set_entry(e, PHYS + 0x1000, idx4k(V4K, 4), PHYS + 0x2000 + TABLE);
	set_entry(e, PHYS + 0x2000, idx4k(V4K, 3), PHYS + 0x3000 + TABLE);
	set_entry(e, PHYS + 0x3000, idx4k(V4K, 2), PHYS + 0x4000 + TABLE);
	set_entry(e, PHYS + 0x4000, idx4k(V4K, 1), PHYS + 0x6000 + (TABLE | AF | UXN));
	assert_int_equal(ks_fake_write_phys(e->f, PHYS + 0x6ff0, "page-end", 8), 0);

	set_entry(e, PHYS + 0x3000, idx4k(V2M, 2), PHYS + 0x200000 + (BLOCK | AF));
	assert_int_equal(ks_fake_write_phys(e->f, PHYS + 0x201234, "blk2", 4), 0);
	set_entry(e, PHYS + 0x2000, idx4k(V1G, 3), 0x80000000 + (BLOCK | AF));

	/* 52 bits, 5 levels: the level-4 table's bits 51..48 lead to pgd */
	set_entry(e, PHYS + 0x9000, V4K >> 48, PHYS + 0x1000 + TABLE);

	/* 64 KiB, 42 bits: level 2 takes bits 41..29, level 1 bits 28..16 */
	set_entry(e, PHYS + 0x10000, (V64K >> 29) & 0x1fff, PHYS + 0x20000 + TABLE);
	set_entry(e, PHYS + 0x20000, (V64K >> 16) & 0x1fff, PHYS + 0x30000 + (TABLE | AF));
	assert_int_equal(ks_fake_write_phys(e->f, PHYS + 0x30000 + (V64K & 0xffff),
					    "64k!", 4), 0);
}

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	e->f = ks_fake_create();
	assert_non_null(e->f);
	ks_fake_set_arch(e->f, "aarch64");
	assert_int_equal(ks_fake_add_phys(e->f, PHYS, NULL, MEM_SIZE), 0);
	build_tables(e);
	ks_fake_target(e->f, &e->t);
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
	uint64_t pa, left;
	char buf[8];

	assert_int_equal(ks_page_translate(&e->t, &pg4k, PHYS + 0x1000, V4K + 0x123,
					   &pa, &left), 0);
	assert_int_equal(pa, PHYS + 0x6123);
	assert_int_equal(left, 0x1000 - 0x123);
	assert_int_equal(ks_page_read(&e->t, &pg4k, PHYS + 0x1000, V4K + 0xff0,
				      buf, 8), 0);
	assert_memory_equal(buf, "page-end", 8);
}

static void test_blocks(void **state)
{
	struct env *e = *state;
	uint64_t pa, left;
	char buf[4];

	assert_int_equal(ks_page_read(&e->t, &pg4k, PHYS + 0x1000, V2M + 0x1234,
				      buf, 4), 0);
	assert_memory_equal(buf, "blk2", 4);
	assert_int_equal(ks_page_translate(&e->t, &pg4k, PHYS + 0x1000, V2M + 0x1234,
					   &pa, &left), 0);
	assert_int_equal(left, 0x200000 - 0x1234);
	assert_int_equal(ks_page_translate(&e->t, &pg4k, PHYS + 0x1000,
					   V1G + 0x12345678, &pa, &left), 0);
	assert_int_equal(pa, 0x80000000 + 0x12345678);
	assert_int_equal(left, 0x40000000 - 0x12345678);
}

static void test_64k_two_levels(void **state)
{
	struct env *e = *state;
	char buf[4];

	assert_int_equal(ks_page_read(&e->t, &pg64k, PHYS + 0x10000, V64K, buf, 4), 0);
	assert_memory_equal(buf, "64k!", 4);
}

static void test_absent_and_bad(void **state)
{
	struct env *e = *state;
	struct ks_paging odd = pg4k;
	uint64_t pa, left;

	/* an invalid descriptor: a page never touched */
	assert_int_equal(ks_page_translate(&e->t, &pg4k, PHYS + 0x1000, V4K + 0x1000,
					   &pa, &left), -EFAULT);
	/* 0b01 at the last level is reserved, not a page */
	set_entry(e, PHYS + 0x4000, idx4k(V4K, 1), PHYS + 0x6000 + BLOCK);
	assert_int_equal(ks_page_translate(&e->t, &pg4k, PHYS + 0x1000, V4K,
					   &pa, &left), -EFAULT);
	/* above VA_BITS: not TTBR0's */
	assert_int_equal(ks_page_translate(&e->t, &pg4k, PHYS + 0x1000,
					   1ull << 48, &pa, &left), -EINVAL);
	odd.page_shift = 13;
	assert_int_equal(ks_page_translate(&e->t, &odd, PHYS + 0x1000, V4K,
					   &pa, &left), -EINVAL);
	/* a table outside memory */
	assert_int_equal(ks_page_translate(&e->t, &pg4k, 0x10000000, V4K,
					   &pa, &left), -EFAULT);
}

/* A table that points at itself: four reads at most, then an answer. */
static void test_loop(void **state)
{
	struct env *e = *state;
	uint64_t pa, left;
	uint64_t va = 0;	/* index 0 at every level */

	set_entry(e, PHYS + 0x8000, 0, PHYS + 0x8000 + TABLE);
	assert_int_equal(ks_page_translate(&e->t, &pg4k, PHYS + 0x8000, va,
					   &pa, &left), 0);
	assert_int_equal(pa, PHYS + 0x8000);
}

/* read_user: task->mm->pgd in the linear map, __pa() with PHYS_OFFSET */
static void test_read_user(void **state)
{
	struct env *e = *state;
	char buf[8];

	assert_int_equal(ks_fake_add_memory(e->f, TASK, NULL, 0x2000), 0);
	assert_int_equal(ks_fake_add_member(e->f, "task_struct", "mm", 0x20, 8), 0);
	assert_int_equal(ks_fake_add_member(e->f, "mm_struct", "pgd", 0x50, 8), 0);
	assert_int_equal(ks_fake_write_u64(e->f, TASK + 0x20, MM), 0);
	/* the pgd at PHYS + 0x1000, seen through the linear map */
	assert_int_equal(ks_fake_write_u64(e->f, MM + 0x50, PAGE_OFFSET + 0x1000), 0);
	ks_fake_set_paging(e->f, &pg4k);
	ks_fake_target(e->f, &e->t);
	assert_int_equal(e->t.ops->read_user(e->t.ctx, TASK, V4K + 0xff0, buf, 8), 0);
	assert_memory_equal(buf, "page-end", 8);
	/* a pgd outside the linear map is a corrupt mm */
	assert_int_equal(ks_fake_write_u64(e->f, MM + 0x50, 0xffff800000001000ull), 0);
	assert_int_equal(e->t.ops->read_user(e->t.ctx, TASK, V4K, buf, 4), -EFAULT);
}

/*
 * A 52-bit build on a CPU without LPA2 folds the fifth level at run
 * time: mm->pgd is the level-0 table of a 48-bit walk, as TTBR0 and
 * TCR_EL1.T0SZ = 16 make the CPU walk it.  With LPA2 the same build
 * walks five levels from its pgd.
 */
static void test_52_bit_build(void **state)
{
	struct env *e = *state;
	uint64_t pa, left;
	char buf[8];

	assert_int_equal(ks_page_read(&e->t, &pg52_on_48, PHYS + 0x1000,
				      V4K + 0xff0, buf, 8), 0);
	assert_memory_equal(buf, "page-end", 8);
	assert_int_equal(ks_page_translate(&e->t, &pg52_on_48, PHYS + 0x1000,
					   V2M + 0x1234, &pa, &left), 0);
	assert_int_equal(pa, PHYS + 0x201234);
	/* the LPA2 CPU's five levels, from the table above */
	assert_int_equal(ks_page_read(&e->t, &pg52, PHYS + 0x9000,
				      V4K + 0xff0, buf, 8), 0);
	assert_memory_equal(buf, "page-end", 8);
	/* that five-level pgd is no level-0 table */
	assert_int_equal(ks_page_translate(&e->t, &pg52_on_48, PHYS + 0x9000,
					   V4K, &pa, &left), -EFAULT);
	/* TASK_SIZE is 1 << vabits_actual: above it is no user address */
	assert_int_equal(ks_page_translate(&e->t, &pg52_on_48, PHYS + 0x1000,
					   1ull << 48, &pa, &left), -EINVAL);
}

/*
 * __virt_to_phys() of a 52-bit build: the linear map is [PAGE_OFFSET,
 * _PAGE_END(VA_BITS_MIN)), and on a 48-bit CPU memory is at its top.
 */
static void test_52_bit_linear_map(void **state)
{
	struct ks_paging pg = pg52_on_48, pg16k = pg52_on_48;
	uint64_t pa;

	(void)state;
	pg.kimage_voffset = 0xffff7fffc7e00000ull;
	assert_int_equal(ks_arm64_page_end(&pg), 0xffff800000000000ull);
	assert_int_equal(ks_arm64_linear_pa(&pg, 0xffff000000001000ull, &pa), 0);
	assert_int_equal(pa, PHYS + 0x1000);
	assert_int_equal(ks_arm64_linear_pa(&pg, 0xffff7ffffffff000ull, &pa), 0);
	assert_int_equal(pa, PHYS + 0x7ffffffff000ull);
	/* the image above PAGE_END: __kimg_to_phys() */
	assert_int_equal(ks_arm64_linear_pa(&pg, 0xffff800009000000ull, &pa), 0);
	assert_int_equal(pa, 0xffff800009000000ull - 0xffff7fffc7e00000ull);
	/* the same build on an LPA2 CPU: memory at the bottom */
	assert_int_equal(ks_arm64_linear_pa(&pg52, PAGE_OFFSET_52 + 0x1000, &pa), 0);
	assert_int_equal(pa, PHYS + 0x1000);
	/* 16 KiB pages: VA_BITS_MIN is 47, so PAGE_END is -(1 << 46) */
	pg16k.page_shift = 14;
	pg16k.vabits_actual = 47;
	assert_int_equal(ks_arm64_page_end(&pg16k), 0xffffc00000000000ull);
	assert_int_equal(ks_arm64_linear_pa(&pg16k, 0xffffc00000001000ull, &pa),
			 -EFAULT);
	/* a 48-bit build: PAGE_END is -(1 << 47) as before */
	assert_int_equal(ks_arm64_page_end(&pg4k), 0xffff800000000000ull);
}

/* read_user on the 52-bit build run with 48 bits: Cmd of such a dump */
static void test_read_user_52_on_48(void **state)
{
	struct env *e = *state;
	char buf[8];

	assert_int_equal(ks_fake_add_memory(e->f, TASK, NULL, 0x2000), 0);
	assert_int_equal(ks_fake_add_member(e->f, "task_struct", "mm", 0x20, 8), 0);
	assert_int_equal(ks_fake_add_member(e->f, "mm_struct", "pgd", 0x50, 8), 0);
	assert_int_equal(ks_fake_write_u64(e->f, TASK + 0x20, MM), 0);
	/* the pgd at PHYS + 0x1000: in the linear map's 48-bit part */
	assert_int_equal(ks_fake_write_u64(e->f, MM + 0x50,
					   0xffff000000001000ull), 0);
	ks_fake_set_paging(e->f, &pg52_on_48);
	ks_fake_target(e->f, &e->t);
	assert_int_equal(e->t.ops->read_user(e->t.ctx, TASK, V4K + 0xff0, buf, 8), 0);
	assert_memory_equal(buf, "page-end", 8);
}

static int lines(void *arg, const char *key, char *buf, size_t len)
{
	const char *const *kv = arg;

	for (; kv[0]; kv += 2)
		if (!strcmp(kv[0], key)) {
			snprintf(buf, len, "%s", kv[1]);
			return 0;
		}
	return -ENOENT;
}

/* The paging facts as arm64's arch_crash_save_vmcoreinfo() writes them. */
static void test_vmcoreinfo(void **state)
{
	const char *kv[] = {
		"NUMBER(VA_BITS)", "48", "PAGESIZE", "4096",
		"NUMBER(PHYS_OFFSET)", "0x40000000",
		"NUMBER(kimage_voffset)", "0xffff7fffc7e00000", NULL,
	};
	struct ks_vmcoreinfo vi = { .line = lines, .arg = kv };
	struct ks_paging pg = { .arch = &ks_arch_arm64 };
	uint64_t pa;

	(void)state;
	assert_int_equal(ks_vmcoreinfo_arm64_paging(&vi, &pg), 0);
	assert_int_equal(pg.va_bits, 48);
	assert_int_equal(pg.page_shift, 12);
	assert_int_equal(pg.phys_offset, 0x40000000);
	assert_int_equal(pg.page_offset, PAGE_OFFSET);
	assert_int_equal(pg.kimage_voffset, 0xffff7fffc7e00000ull);
	/* __lm_to_phys() and __kimg_to_phys() */
	assert_int_equal(ks_arm64_linear_pa(&pg, PAGE_OFFSET + 0x1000, &pa), 0);
	assert_int_equal(pa, 0x40001000);
	assert_int_equal(ks_arm64_linear_pa(&pg, 0xffff800009000000ull, &pa), 0);
	assert_int_equal(pa, 0xffff800009000000ull - 0xffff7fffc7e00000ull);
	/* no TCR_EL1_T1SZ (before 5.12): the CPU runs VA_BITS */
	assert_int_equal(pg.vabits_actual, 48);
	/* a granule arm64 does not have */
	kv[3] = "8192";
	pg.va_bits = 0;
	assert_int_equal(ks_vmcoreinfo_arm64_paging(&vi, &pg), -ENOENT);
	assert_int_equal(pg.va_bits, 0);
}

/*
 * Debian's 6.12 arm64 dump on a CPU without LPA2 (its VMCOREINFO as
 * written), with LPA2, 5.11's key and T1SZ values no CPU runs the build
 * with.
 */
static void test_vmcoreinfo_52_bit(void **state)
{
	const char *kv[] = {
		"NUMBER(VA_BITS)", "52", "PAGESIZE", "4096",
		"NUMBER(PHYS_OFFSET)", "0xfff1000040000000",
		"NUMBER(kimage_voffset)", "0xffffca5461400000",
		"NUMBER(TCR_EL1_T1SZ)", "0x10", NULL,
	};
	struct ks_vmcoreinfo vi = { .line = lines, .arg = kv };
	struct ks_paging pg = { .arch = &ks_arch_arm64 };
	unsigned int va_bits, actual;
	uint64_t pa;

	(void)state;
	assert_int_equal(ks_vmcoreinfo_arm64_paging(&vi, &pg), 0);
	assert_int_equal(pg.va_bits, 52);
	assert_int_equal(pg.vabits_actual, 48);
	assert_int_equal(pg.page_offset, PAGE_OFFSET_52);
	assert_int_equal(pg.phys_offset, PHYS_52_ON_48);
	/* a pgd of that dump's init: 0xffff000000001000 is PA 0x40001000 */
	assert_int_equal(ks_arm64_linear_pa(&pg, 0xffff000000001000ull, &pa), 0);
	assert_int_equal(pa, 0x40001000);
	/* the LPA2 CPU: 0xc */
	kv[9] = "0xc";
	assert_int_equal(ks_vmcoreinfo_arm64_vabits(&vi, &va_bits, &actual), 0);
	assert_int_equal(va_bits, 52);
	assert_int_equal(actual, 52);
	/* 5.11 wrote the key in lower case */
	kv[8] = "NUMBER(tcr_el1_t1sz)";
	kv[9] = "0x10";
	assert_int_equal(ks_vmcoreinfo_arm64_vabits(&vi, &va_bits, &actual), 0);
	assert_int_equal(actual, 48);
	/* more bits than the build has, fewer than arm64 has: refused */
	kv[9] = "0x8";
	assert_int_equal(ks_vmcoreinfo_arm64_vabits(&vi, &va_bits, &actual),
			 -ENOENT);
	kv[9] = "0x1d";
	pg.va_bits = 0;
	assert_int_equal(ks_vmcoreinfo_arm64_paging(&vi, &pg), -ENOENT);
	assert_int_equal(pg.va_bits, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_4k, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blocks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_64k_two_levels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_absent_and_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_user, setup, teardown),
		cmocka_unit_test_setup_teardown(test_52_bit_build, setup, teardown),
		cmocka_unit_test(test_52_bit_linear_map),
		cmocka_unit_test_setup_teardown(test_read_user_52_on_48, setup,
						teardown),
		cmocka_unit_test(test_vmcoreinfo),
		cmocka_unit_test(test_vmcoreinfo_52_bit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
