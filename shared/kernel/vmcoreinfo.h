/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the kernel's VMCOREINFO note tells a target that has only memory
 * (a dump read with libkdumpfile, the running kernel through /proc/kcore):
 * where the kallsyms tables are and how x86_64 pages.  The lines come from
 * the target's own reader; the keys and their parsing are here, once.
 */
#ifndef KS_VMCOREINFO_H
#define KS_VMCOREINFO_H

#include <stddef.h>
#include <stdint.h>

#include "kallsyms_mem.h"
#include "page_walk.h"

/*
 * The value of the line key ("SYMBOL(_stext)"), up to its newline, into
 * buf (NUL-terminated, cut to len); -ENOENT without the line.
 */
typedef int ks_vmcoreinfo_line_fn(void *arg, const char *key, char *buf,
				  size_t len);

struct ks_vmcoreinfo {
	ks_vmcoreinfo_line_fn *line;
	void *arg;
};

/*
 * key=value as a number in base; -ENOENT when absent or when the value is
 * not one number to its end.
 */
int ks_vmcoreinfo_number(const struct ks_vmcoreinfo *vi, const char *key,
			 int base, int64_t *val_ret);

/*
 * SYMBOL(name)=hex (vmcoreinfo_append_str()'s VMCOREINFO_SYMBOL), or 0
 * when absent or not hex to its end.
 */
uint64_t ks_vmcoreinfo_symbol(const struct ks_vmcoreinfo *vi, const char *name);

/* The kallsyms tables, which VMCOREINFO lists since Linux 6.0. */
void ks_vmcoreinfo_kallsyms(const struct ks_vmcoreinfo *vi,
			    struct ks_kallsyms_mem_addrs *a_ret);

/*
 * Levels and the SME mask from x86_64's arch_crash_save_vmcoreinfo()
 * (NUMBER(pgtable_l5_enabled), NUMBER(sme_mask)): 4 levels and no mask
 * when it does not say.  The direct map's base is the target's to find.
 */
void ks_vmcoreinfo_paging(const struct ks_vmcoreinfo *vi, struct ks_paging *pg);

/*
 * arm64's VA_BITS (NUMBER(VA_BITS), the build's) and vabits_actual (64 -
 * NUMBER(TCR_EL1_T1SZ), what the CPU runs; VA_BITS where the kernel
 * does not say, as before 5.12).  -ENOENT when VA_BITS is missing or not
 * one arm64 has, or T1SZ gives a size the build cannot run.
 */
int ks_vmcoreinfo_arm64_vabits(const struct ks_vmcoreinfo *vi,
			       unsigned int *va_bits_ret,
			       unsigned int *vabits_actual_ret);

/*
 * arm64's arch_crash_save_vmcoreinfo(): the VA sizes above, PAGESIZE,
 * NUMBER(PHYS_OFFSET) and NUMBER(kimage_voffset), and PAGE_OFFSET from
 * VA_BITS (the 5.4+ layout).  -ENOENT when one of the first three is
 * missing or not a value arm64 has; pg is then left alone.
 */
int ks_vmcoreinfo_arm64_paging(const struct ks_vmcoreinfo *vi,
			       struct ks_paging *pg);

#endif /* KS_VMCOREINFO_H */
