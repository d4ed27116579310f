/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86_64 page-table walk for user addresses in a dump: the standalone
 * vmcore mode reads a task's command line through its mm->pgd, as
 * /proc/PID/cmdline would through access_remote_vm().  Knows nothing
 * about the dump format: physical memory comes through a callback.
 */
#ifndef KS_KDUMP_PGTABLE_H
#define KS_KDUMP_PGTABLE_H

#include <stddef.h>
#include <stdint.h>

/* Reads len bytes of physical memory; 0 or -errno. */
typedef int ks_read_phys_fn(void *arg, uint64_t paddr, void *buf, size_t len);

struct ks_pgtable {
	ks_read_phys_fn *read_phys;
	void *arg;
	uint64_t pgd;		/* physical address of the top-level table */
	int levels;		/* 4, or 5 with pgtable_l5_enabled */
};

/*
 * The physical address of vaddr and the bytes left in its page (4 KiB,
 * 2 MiB or 1 GiB).  -EFAULT when a level is not present (a page never
 * touched, or swapped out: a dump cannot fault it in), -EINVAL for an
 * address that is not canonical.
 */
int ks_pgtable_translate(const struct ks_pgtable *pt, uint64_t vaddr,
			 uint64_t *paddr_ret, uint64_t *left_ret);

/* Copies len bytes at vaddr, page by page; 0 or -errno as above. */
int ks_pgtable_read(const struct ks_pgtable *pt, uint64_t vaddr, void *buf,
		    size_t len);

#endif /* KS_KDUMP_PGTABLE_H */
