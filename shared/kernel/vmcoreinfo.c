// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * VMCOREINFO's lines are "KEY=value\n"; crash_save_vmcoreinfo_init() and
 * arch_crash_save_vmcoreinfo() write SYMBOL(x) in hex and NUMBER(x) in
 * decimal.  A value is the whole rest of its line: "fffff,fff5" is no
 * address, and taking its first digits made a forged _stext of 0xfffff
 * that the kallsyms scan searched for seconds (fuzz_dump_open).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "vmcoreinfo.h"

#define VALUE_MAX	128	/* longer than any number or address */

int ks_vmcoreinfo_number(const struct ks_vmcoreinfo *vi, const char *key,
			 int base, int64_t *val_ret)
{
	char val[VALUE_MAX], *end;
	long long v;

	if (vi->line(vi->arg, key, val, sizeof(val)))
		return -ENOENT;
	errno = 0;
	v = strtoll(val, &end, base);
	if (errno || end == val || *end)
		return -ENOENT;
	*val_ret = v;
	return 0;
}

uint64_t ks_vmcoreinfo_symbol(const struct ks_vmcoreinfo *vi, const char *name)
{
	char key[96], val[VALUE_MAX], *end;
	unsigned long long v;

	snprintf(key, sizeof(key), "SYMBOL(%s)", name);
	if (vi->line(vi->arg, key, val, sizeof(val)))
		return 0;
	errno = 0;
	v = strtoull(val, &end, 16);
	return errno || end == val || *end ? 0 : v;
}

void ks_vmcoreinfo_kallsyms(const struct ks_vmcoreinfo *vi,
			    struct ks_kallsyms_mem_addrs *a_ret)
{
	*a_ret = (struct ks_kallsyms_mem_addrs){
		.names = ks_vmcoreinfo_symbol(vi, "kallsyms_names"),
		.num_syms = ks_vmcoreinfo_symbol(vi, "kallsyms_num_syms"),
		.token_table = ks_vmcoreinfo_symbol(vi, "kallsyms_token_table"),
		.token_index = ks_vmcoreinfo_symbol(vi, "kallsyms_token_index"),
		.offsets = ks_vmcoreinfo_symbol(vi, "kallsyms_offsets"),
		.relative_base = ks_vmcoreinfo_symbol(vi, "kallsyms_relative_base"),
		.addresses = ks_vmcoreinfo_symbol(vi, "kallsyms_addresses"),
		.stext = ks_vmcoreinfo_symbol(vi, "_stext"),
	};
}

void ks_vmcoreinfo_paging(const struct ks_vmcoreinfo *vi, struct ks_paging *pg)
{
	int64_t l5 = 0, me = 0;

	pg->levels = 4;
	if (!ks_vmcoreinfo_number(vi, "NUMBER(pgtable_l5_enabled)", 10, &l5) && l5)
		pg->levels = 5;
	pg->me_mask = 0;
	if (!ks_vmcoreinfo_number(vi, "NUMBER(sme_mask)", 10, &me))
		pg->me_mask = (uint64_t)me;
}

/* An unsigned NUMBER(): kimage_voffset has the top bit set. */
static int number_u64(const struct ks_vmcoreinfo *vi, const char *key, int base,
		      uint64_t *val_ret)
{
	char val[VALUE_MAX], *end;
	unsigned long long v;

	if (vi->line(vi->arg, key, val, sizeof(val)))
		return -ENOENT;
	errno = 0;
	v = strtoull(val, &end, base);
	if (errno || end == val)
		return -ENOENT;
	*val_ret = v;
	return 0;
}

/*
 * vabits_actual of arch/arm64/include/asm/memory.h: VA_BITS for a build
 * of 48 bits or less; a 52-bit build reads TCR_EL1.T1SZ, since a CPU
 * without LPA2 (4 and 16 KiB pages) or LVA (64 KiB) runs it with
 * VA_BITS_MIN.  crash and drgn read the same TCR_EL1_T1SZ (written in
 * hex; "tcr_el1_t1sz" in 5.11).  The user half follows it too:
 * cpu_set_default_tcr_t0sz() sets TCR_T0SZ(vabits_actual).
 */
int ks_vmcoreinfo_arm64_vabits(const struct ks_vmcoreinfo *vi,
			       unsigned int *va_bits_ret,
			       unsigned int *vabits_actual_ret)
{
	uint64_t va_bits, t1sz;

	if (number_u64(vi, "NUMBER(VA_BITS)", 10, &va_bits) ||
	    va_bits < 36 || va_bits > 52)
		return -ENOENT;
	if (number_u64(vi, "NUMBER(TCR_EL1_T1SZ)", 16, &t1sz) &&
	    number_u64(vi, "NUMBER(tcr_el1_t1sz)", 16, &t1sz))
		t1sz = 64 - va_bits;
	/* a CPU runs the build's size or less, never below arm64's least */
	if (t1sz > 64 - 36 || 64 - t1sz > va_bits)
		return -ENOENT;
	*va_bits_ret = (unsigned int)va_bits;
	*vabits_actual_ret = (unsigned int)(64 - t1sz);
	return 0;
}

int ks_vmcoreinfo_arm64_paging(const struct ks_vmcoreinfo *vi,
			       struct ks_paging *pg)
{
	uint64_t page_size, phys_offset;
	unsigned int va_bits, vabits_actual;

	if (ks_vmcoreinfo_arm64_vabits(vi, &va_bits, &vabits_actual) ||
	    number_u64(vi, "PAGESIZE", 10, &page_size) ||
	    number_u64(vi, "NUMBER(PHYS_OFFSET)", 16, &phys_offset) ||
	    (page_size != 4096 && page_size != 16384 && page_size != 65536))
		return -ENOENT;
	pg->va_bits = va_bits;
	pg->vabits_actual = vabits_actual;
	pg->page_shift = page_size == 4096 ? 12 : page_size == 16384 ? 14 : 16;
	/*
	 * memstart_addr as arm64_memblock_init() left it: a 52-bit build
	 * running 48 bits moves it down by _PAGE_OFFSET(48) -
	 * _PAGE_OFFSET(52), so that __lm_to_phys() from the build's
	 * PAGE_OFFSET lands its memory in the part of the linear map the
	 * CPU can address (0xfff1000040000000 on QEMU's virt board)
	 */
	pg->phys_offset = phys_offset;
	/* _PAGE_OFFSET(VA_BITS) of 5.4+: -(1 << VA_BITS), whatever runs */
	pg->page_offset = ~0ull << va_bits;
	if (number_u64(vi, "NUMBER(kimage_voffset)", 16, &pg->kimage_voffset))
		pg->kimage_voffset = 0;
	return 0;
}
