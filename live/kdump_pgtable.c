// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The x86_64 page-table walk (arch/x86/include/asm/pgtable_types.h):
 * 9 bits of index per level from bit 12 up, 5 levels with LA57 and 4
 * without (p4d folded into the pgd).  A PUD or PMD entry with _PAGE_PSE
 * maps a 1 GiB or 2 MiB page.  _PAGE_PROTNONE counts as present, as in
 * pte_present(): such a page is in memory, only not accessible.
 */
#include <errno.h>
#include <stdbool.h>

#include "kdump_pgtable.h"

#define PAGE_SHIFT		12
#define PAGE_PRESENT		(1ull << 0)
#define PAGE_PSE		(1ull << 7)
#define PAGE_PROTNONE		(1ull << 8)
/* Bits 12..51: the frame, without NX (63) or the software bits above 51. */
#define PTE_PFN_MASK		0x000ffffffffff000ull

static int read_entry(const struct ks_pgtable *pt, uint64_t table, unsigned int idx,
		      uint64_t *entry_ret)
{
	uint64_t e;
	int ret;

	ret = pt->read_phys(pt->arg, table + idx * 8ull, &e, sizeof(e));
	if (ret)
		return ret;
	if (!(e & (PAGE_PRESENT | PAGE_PROTNONE)))
		return -EFAULT;
	*entry_ret = e;
	return 0;
}

static bool canonical(uint64_t vaddr, int levels)
{
	unsigned int bits = levels == 5 ? 57 : 48;
	int64_t s = (int64_t)(vaddr << (64 - bits)) >> (64 - bits);

	return (uint64_t)s == vaddr;
}

int ks_pgtable_translate(const struct ks_pgtable *pt, uint64_t vaddr,
			 uint64_t *paddr_ret, uint64_t *left_ret)
{
	uint64_t table = pt->pgd, e = 0;
	int level, ret;

	if ((pt->levels != 4 && pt->levels != 5) || !canonical(vaddr, pt->levels))
		return -EINVAL;
	for (level = pt->levels; level >= 1; level--) {
		unsigned int shift = PAGE_SHIFT + 9 * (level - 1);
		uint64_t page_size = 1ull << shift;

		ret = read_entry(pt, table, (vaddr >> shift) & 0x1ff, &e);
		if (ret)
			return ret;
		/* PSE at the PUD (level 3) or PMD (level 2): a huge page. */
		if (level == 1 || ((level == 2 || level == 3) && (e & PAGE_PSE))) {
			uint64_t off = vaddr & (page_size - 1);

			*paddr_ret = (e & PTE_PFN_MASK & ~(page_size - 1)) + off;
			*left_ret = page_size - off;
			return 0;
		}
		table = e & PTE_PFN_MASK;
	}
	return -EFAULT;
}

int ks_pgtable_read(const struct ks_pgtable *pt, uint64_t vaddr, void *buf,
		    size_t len)
{
	uint8_t *p = buf;

	while (len) {
		uint64_t paddr, left;
		size_t chunk;
		int ret;

		ret = ks_pgtable_translate(pt, vaddr, &paddr, &left);
		if (ret)
			return ret;
		chunk = left < len ? (size_t)left : len;
		ret = pt->read_phys(pt->arg, paddr, p, chunk);
		if (ret)
			return ret;
		p += chunk;
		vaddr += chunk;
		len -= chunk;
	}
	return 0;
}
