// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The arm64 stage-1 walk of a task's user half (TTBR0, what
 * access_remote_vm() reads through mm->pgd), as arch/arm64/include/asm/
 * pgtable-hwdef.h lays it out: a granule of 4, 16 or 64 KiB (PAGESIZE),
 * PAGE_SHIFT - 3 bits of index per level, ARM64_HW_PGTABLE_LEVELS() of
 * the VA size the CPU runs (vabits_actual: TCR_EL1.T0SZ is set from it),
 * the top one taking the bits left over.  A 52-bit build on a CPU
 * without LPA2 runs 48 bits and folds its fifth level at run time
 * (pgtable_l5_enabled() false: mm->pgd is the level-0 table), as the CPU
 * walks it.  A descriptor with
 * bits[1:0] 0b01 above the last level is a block (a 2 MiB or 1 GiB
 * block with 4 KiB pages), 0b11 a table or, at the last level, a page.
 * Only valid descriptors are present: a PROT_NONE page reads as absent.
 * Every translation reads at most four entries, so a loop in the tables
 * ends the walk.
 */
#include <errno.h>

#include "arm64.h"
#include "vmcoreinfo.h"

#define DESC_VALID	(1ull << 0)
#define DESC_TABLE	(1ull << 1)	/* table or page; clear: block */
/* bits 47..12: the output address (48-bit PA) */
#define DESC_OA_MASK	0x0000fffffffff000ull
/* with 64 KiB pages and 52-bit PAs, bits 15..12 are PA bits 51..48 */
#define DESC_OA_HI_64K	0x000000000000f000ull

static int read_entry(const struct ks_target *t, uint64_t table,
		      uint64_t idx, uint64_t *entry_ret)
{
	if (!t->ops->read_phys)
		return -ENOSYS;
	return t->ops->read_phys(t->ctx, table + idx * 8ull, entry_ret,
				 sizeof(*entry_ret));
}

/* ARM64_HW_PGTABLE_LEVELS(vabits_actual) */
static int levels_of(const struct ks_paging *pg)
{
	return (int)((pg->vabits_actual - 4) / (pg->page_shift - 3));
}

/* __pte_to_phys(): the address a descriptor points at, granule-aligned */
static uint64_t desc_addr(uint64_t e, const struct ks_paging *pg)
{
	uint64_t pa = e & DESC_OA_MASK & ~((1ull << pg->page_shift) - 1);

	if (pg->page_shift == 16)
		pa |= (e & DESC_OA_HI_64K) << 36;
	return pa;
}

static bool paging_known(const struct ks_paging *pg)
{
	return (pg->page_shift == 12 || pg->page_shift == 14 ||
		pg->page_shift == 16) && pg->va_bits >= 36 && pg->va_bits <= 52 &&
		pg->vabits_actual >= 36 && pg->vabits_actual <= pg->va_bits;
}

/*
 * VA_BITS_MIN: a build of more than 48 bits keeps its layout for the
 * 48 bits (47 with 16 KiB pages) a CPU without LPA2 or LVA runs
 */
static unsigned int va_bits_min(const struct ks_paging *pg)
{
	if (pg->va_bits <= 48)
		return pg->va_bits;
	return pg->page_shift == 14 ? 47 : 48;
}

int ks_arm64_translate(const struct ks_target *t, const struct ks_paging *pg,
		       uint64_t pgd, uint64_t vaddr, uint64_t *paddr_ret,
		       uint64_t *left_ret)
{
	unsigned int bits;
	uint64_t table = pgd, e = 0;
	int level, ret;

	/* the user half only: TTBR0 maps [0, 2^vabits_actual) */
	if (!paging_known(pg) || (vaddr >> pg->vabits_actual))
		return -EINVAL;
	bits = pg->page_shift - 3;
	for (level = levels_of(pg); level >= 1; level--) {
		unsigned int shift = pg->page_shift + bits * (unsigned int)(level - 1);
		uint64_t size = 1ull << shift, idx = vaddr >> shift;
		bool leaf;

		/* the top level indexes what the lower ones leave */
		if (shift + bits < pg->vabits_actual)
			idx &= (1ull << bits) - 1;
		ret = read_entry(t, table, idx, &e);
		if (ret)
			return ret;
		if (!(e & DESC_VALID))
			return -EFAULT;
		leaf = level == 1 || !(e & DESC_TABLE);
		/* a block is only allowed at the PMD and PUD levels */
		if (leaf && level != 1 && level > 3)
			return -EFAULT;
		if (level == 1 && !(e & DESC_TABLE))
			return -EFAULT;	/* 0b01 at the last level is reserved */
		if (leaf) {
			uint64_t off = vaddr & (size - 1);

			*paddr_ret = (desc_addr(e, pg) & ~(size - 1)) + off;
			*left_ret = size - off;
			return 0;
		}
		table = desc_addr(e, pg);
	}
	return -EFAULT;
}

uint64_t ks_arm64_page_end(const struct ks_paging *pg)
{
	/* _PAGE_END(VA_BITS_MIN): -(1 << (VA_BITS_MIN - 1)) */
	return ~0ull << (va_bits_min(pg) - 1);
}

/*
 * __virt_to_phys() (5.4+): __lm_to_phys() in the linear map,
 * [PAGE_OFFSET, PAGE_END) with PAGE_END = _PAGE_END(VA_BITS_MIN), where
 * PHYS_OFFSET is where memory starts (moved down when a 52-bit build
 * runs 48 bits: its memory then sits at the top of the range);
 * __kimg_to_phys() above it, for the kernel image (swapper_pg_dir,
 * init_mm), when kimage_voffset is known.
 */
int ks_arm64_linear_pa(const struct ks_paging *pg, uint64_t vaddr,
		       uint64_t *paddr_ret)
{
	uint64_t base = pg->page_offset;

	if (!paging_known(pg) || vaddr < base)
		return -EFAULT;
	if (vaddr < ks_arm64_page_end(pg)) {
		*paddr_ret = vaddr - base + pg->phys_offset;
		return 0;
	}
	if (!pg->kimage_voffset || vaddr < pg->kimage_voffset)
		return -EFAULT;
	*paddr_ret = vaddr - pg->kimage_voffset;
	return 0;
}

/* arm64 says all the walk needs in VMCOREINFO; without it, no user memory. */
int ks_arm64_find_paging(const struct ks_target *t,
			 const struct ks_vmcoreinfo *vi, struct ks_paging *pg)
{
	(void)t;
	if (!ks_vmcoreinfo_arm64_paging(vi, pg))
		return 0;
	pg->page_offset = 0;
	return -ENOENT;
}

/*
 * arch_crash_save_vmcoreinfo()'s kimage_voffset and the core's
 * swapper_pg_dir: the kernel half's tables at __pa_symbol(swapper_pg_dir),
 * walked for the VA size the CPU runs (TCR_EL1.T1SZ: 48 bits for a 52-bit
 * build on a CPU without LPA2, whose swapper_pg_dir is then the level-0
 * table); the linear map is [PAGE_OFFSET, PAGE_END), and TTBR1's tables
 * index the low vabits_actual bits of an address (pgd_index() drops the
 * top bits).
 */
int ks_arm64_kernel_tables(const struct ks_vmcoreinfo *vi,
			   const struct ks_paging *pg,
			   struct ks_kernel_tables *kt_ret)
{
	uint64_t swapper = ks_vmcoreinfo_symbol(vi, "swapper_pg_dir");

	if (!swapper || !pg->page_offset || !pg->kimage_voffset ||
	    swapper < pg->kimage_voffset)
		return -ENOENT;
	kt_ret->pgd = swapper - pg->kimage_voffset;
	kt_ret->linear_size = ks_arm64_page_end(pg) - pg->page_offset;
	kt_ret->walk_mask = (1ull << pg->vabits_actual) - 1;
	return 0;
}

const struct ks_paging_ops ks_arm64_paging = {
	.translate = ks_arm64_translate,
	.linear_pa = ks_arm64_linear_pa,
	.find_paging = ks_arm64_find_paging,
	.kernel_tables = ks_arm64_kernel_tables,
};
