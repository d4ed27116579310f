// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The x86-64 page-table walk of arch/x86/include/asm/pgtable*.h: 9 bits
 * of index per level from bit 12 up, 5 levels with LA57 and 4 without
 * (the p4d folded into the pgd).  A PUD or PMD entry with _PAGE_PSE maps
 * a 1 GiB or 2 MiB page.  Present is what the kernel's helpers say, so a
 * _PAGE_PROTNONE page (in memory, only not accessible) reads as it does
 * for access_remote_vm().  Every translation reads at most five entries,
 * so tables that point at themselves end the walk, never hang it.
 * Behind struct ks_arch's translate and linear_pa (x86_64.c).
 */
#include <errno.h>

#include "arch.h"
#include "page_walk.h"
#include "vmcoreinfo.h"
#include "x86_64.h"

#define PAGE_SHIFT		12
#define PAGE_PRESENT		(1ull << 0)
#define PAGE_PSE		(1ull << 7)
#define PAGE_PROTNONE		(1ull << 8)
/* Bits 12..51: the frame, without NX (63) or the software bits above 51. */
#define PTE_PFN_MASK		0x000ffffffffff000ull

static int read_entry(const struct ks_target *t, uint64_t table,
		      unsigned int idx, uint64_t *entry_ret)
{
	if (!t->ops->read_phys)
		return -ENOSYS;
	return t->ops->read_phys(t->ctx, table + idx * 8ull, entry_ret,
				 sizeof(*entry_ret));
}

/*
 * pte_present() counts _PAGE_PROTNONE, pmd_present() also _PAGE_PSE alone
 * (a huge pmd that split_huge_page() has invalidated); pud_present(),
 * p4d_present() and pgd_present() want _PAGE_PRESENT.  A huge pud or pmd
 * is a leaf, and a leaf is present as a pte is.
 */
static bool entry_present(uint64_t e, int level, bool leaf)
{
	if (e & PAGE_PRESENT)
		return true;
	if (leaf && (e & PAGE_PROTNONE))
		return true;
	return level == 2 && (e & PAGE_PSE);
}

/*
 * pte_pfn(): a not-present entry keeps its frame inverted
 * (pgtable-invert.h, the L1TF mitigation), and the SME encryption bit
 * is no part of the address (__PHYSICAL_MASK leaves sme_me_mask out).
 */
static uint64_t entry_frame(uint64_t e, const struct ks_paging *pg)
{
	if (!(e & PAGE_PRESENT))
		e = ~e;
	return e & PTE_PFN_MASK & ~pg->me_mask;
}

static bool canonical(uint64_t vaddr, int levels)
{
	unsigned int bits = levels == 5 ? 57 : 48;
	int64_t s = (int64_t)(vaddr << (64 - bits)) >> (64 - bits);

	return (uint64_t)s == vaddr;
}

int ks_x86_64_translate(const struct ks_target *t, const struct ks_paging *pg,
			uint64_t pgd, uint64_t vaddr, uint64_t *paddr_ret,
			uint64_t *left_ret)
{
	uint64_t table = pgd, e = 0;
	int level, ret;

	if ((pg->levels != 4 && pg->levels != 5) || !canonical(vaddr, pg->levels))
		return -EINVAL;
	for (level = pg->levels; level >= 1; level--) {
		unsigned int shift = PAGE_SHIFT + 9 * (level - 1);
		uint64_t page_size = 1ull << shift;
		bool leaf;

		ret = read_entry(t, table, (vaddr >> shift) & 0x1ff, &e);
		if (ret)
			return ret;
		leaf = level == 1 || ((level == 2 || level == 3) && (e & PAGE_PSE));
		if (!entry_present(e, level, leaf))
			return -EFAULT;
		if (leaf) {
			uint64_t off = vaddr & (page_size - 1);

			*paddr_ret = (entry_frame(e, pg) & ~(page_size - 1)) + off;
			*left_ret = page_size - off;
			return 0;
		}
		table = entry_frame(e, pg);
	}
	return -EFAULT;
}

/* MAXMEM: the direct map spans 2^46 bytes with 4 levels, 2^52 with 5. */
static uint64_t direct_map_size(int levels)
{
	return 1ull << (levels == 5 ? 52 : 46);
}

int ks_x86_64_linear_pa(const struct ks_paging *pg, uint64_t vaddr,
			uint64_t *paddr_ret)
{
	uint64_t base = pg->page_offset;

	if (vaddr < base || vaddr - base >= direct_map_size(pg->levels))
		return -EFAULT;
	*paddr_ret = vaddr - base;
	return 0;
}

/*
 * Levels and the SME mask from VMCOREINFO; page_offset_base, where
 * CONFIG_RANDOMIZE_MEMORY moved the direct map, read from the image.
 */
int ks_x86_64_find_paging(const struct ks_target *t,
			  const struct ks_vmcoreinfo *vi, struct ks_paging *pg)
{
	uint64_t addr;

	ks_vmcoreinfo_paging(vi, pg);
	if (t->ops->symbol(t->ctx, "page_offset_base", &addr) ||
	    ks_read(t, addr, &pg->page_offset, sizeof(pg->page_offset))) {
		pg->page_offset = 0;
		return -ENOENT;
	}
	return 0;
}

/* arch/x86/include/asm/page_64_types.h */
#define START_KERNEL_MAP	0xffffffff80000000ull

/*
 * init_top_pgt at __pa_symbol(): arch_crash_save_vmcoreinfo() gives its
 * address and phys_base; the direct map spans 64 TiB.
 */
int ks_x86_64_kernel_tables(const struct ks_vmcoreinfo *vi,
			    const struct ks_paging *pg,
			    struct ks_kernel_tables *kt_ret)
{
	uint64_t pgt = ks_vmcoreinfo_symbol(vi, "init_top_pgt");
	int64_t phys_base;

	(void)pg;
	if (!pgt || ks_vmcoreinfo_number(vi, "NUMBER(phys_base)", 10, &phys_base))
		return -ENOENT;
	kt_ret->pgd = pgt - START_KERNEL_MAP + (uint64_t)phys_base;
	kt_ret->linear_size = 1ull << 46;
	kt_ret->walk_mask = ~0ull;
	return 0;
}

const struct ks_paging_ops ks_x86_64_paging = {
	.translate = ks_x86_64_translate,
	.linear_pa = ks_x86_64_linear_pa,
	.find_paging = ks_x86_64_find_paging,
	.kernel_tables = ks_x86_64_kernel_tables,
};
