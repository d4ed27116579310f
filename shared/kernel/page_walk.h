/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page-table walk, one for every target: a task's user memory
 * through its mm->pgd (the command line, as /proc/PID/cmdline reads it
 * with access_remote_vm()), and kernel memory through the kernel's own
 * tables (init_top_pgt, for /proc/kcore).  The translation is the
 * architecture's (pg->arch); physical memory comes through the target's
 * read_phys op, and a target without one gets -ENOSYS.
 */
#ifndef KS_PAGE_WALK_H
#define KS_PAGE_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target.h"

/* The paging facts of one kernel image, found by its target. */
struct ks_paging {
	const struct ks_arch *arch;	/* NULL: no walk (-EINVAL, -ENOENT) */
	int levels;		/* x86_64: 4, or 5 with pgtable_l5_enabled */
	/* the linear (direct) map's start, for __pa(): x86_64 page_offset_base */
	uint64_t page_offset;
	uint64_t me_mask;	/* x86_64 sme_me_mask: set in entries, in no address */
	/*
	 * arm64, from VMCOREINFO: NUMBER(VA_BITS), PAGESIZE,
	 * NUMBER(PHYS_OFFSET), NUMBER(kimage_voffset) (0: unknown).
	 * va_bits is the build's (the layout: PAGE_OFFSET, PAGE_END);
	 * vabits_actual what the CPU runs, 64 - NUMBER(TCR_EL1_T1SZ): less
	 * for a 52-bit build on a CPU without LPA2 or LVA (the walk's levels).
	 */
	unsigned int va_bits, vabits_actual, page_shift;
	uint64_t phys_offset, kimage_voffset;
};

/*
 * The physical address of vaddr in the tables at pgd (physical) and the
 * bytes left in its page (or block).  -EFAULT when a level is not
 * present (a page never touched, or swapped out: a dump cannot fault it
 * in) or a table is not in memory, -EINVAL for an address the tables
 * cannot map, paging facts the arch does not know or no arch.
 */
int ks_page_translate(const struct ks_target *t, const struct ks_paging *pg,
		      uint64_t pgd, uint64_t vaddr, uint64_t *paddr_ret,
		      uint64_t *left_ret);

/* Copies len bytes at vaddr, page by page; 0 or -errno as above. */
int ks_page_read(const struct ks_target *t, const struct ks_paging *pg,
		 uint64_t pgd, uint64_t vaddr, void *buf, size_t len);

/*
 * The kernel half's own tables, for a source whose kernel reads are not
 * translated for it (/proc/kcore fills an unmapped vmalloc page with
 * zeros): what the arch's kernel_tables() finds in VMCOREINFO.
 */
struct ks_kernel_tables {
	uint64_t pgd;		/* physical; 0: none, reads stay plain */
	uint64_t linear_size;	/* the linear map's span from page_offset */
	uint64_t walk_mask;	/* the address bits the tables index */
};

/* What a target keeps to read its tasks' user memory. */
struct ks_user_walk {
	struct ks_paging pg;	/* page_offset 0: unknown, no user memory */
	long task_mm, mm_pgd;	/* member offsets, found on the first read */
	bool offsets_known;
};

/*
 * User memory of the task whose task_struct is at task, through
 * task->mm->pgd: the body of every target's read_user op.  -ENOENT
 * without the offsets, the linear map or the arch, -EFAULT for a task without an
 * mm (a kernel thread: access_remote_vm() would give nothing) or a pgd
 * outside the linear map, else as ks_page_read().
 */
int ks_page_read_user(const struct ks_target *t, struct ks_user_walk *uw,
		      uint64_t task, uint64_t uaddr, void *buf, size_t len);

#endif /* KS_PAGE_WALK_H */
