/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parts of ks_arch_x86_64 that live in files of their own. */
#ifndef KS_ARCH_X86_64_H
#define KS_ARCH_X86_64_H

#include <stdint.h>

#include "page_walk.h"

struct ks_vmcoreinfo;

/* x86_64_page_walk.c: 4 or 5 levels, 2 MiB and 1 GiB pages */
int ks_x86_64_translate(const struct ks_target *t, const struct ks_paging *pg,
			uint64_t pgd, uint64_t vaddr, uint64_t *paddr_ret,
			uint64_t *left_ret);
int ks_x86_64_linear_pa(const struct ks_paging *pg, uint64_t vaddr,
			uint64_t *paddr_ret);
int ks_x86_64_find_paging(const struct ks_target *t,
			  const struct ks_vmcoreinfo *vi, struct ks_paging *pg);
int ks_x86_64_kernel_tables(const struct ks_vmcoreinfo *vi,
			    const struct ks_paging *pg,
			    struct ks_kernel_tables *kt_ret);

/* the table's paging: the four above */
extern const struct ks_paging_ops ks_x86_64_paging;

#endif /* KS_ARCH_X86_64_H */
