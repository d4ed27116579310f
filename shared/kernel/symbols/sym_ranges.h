/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Named address ranges in the order the kernel searches them: what the
 * kallsyms sources past vmlinux and modules (BPF symbols, ftrace's
 * memory of freed module text) give, each range [start, start + size)
 * with its name and, where the kernel prints one, its module.
 */
#ifndef KS_SYM_RANGES_H
#define KS_SYM_RANGES_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

struct ks_sym_range {
	uint64_t start, size;
	char *name;
	char *module;		/* NULL: no " [module]" */
};

struct ks_sym_ranges {
	struct ks_sym_range *r;
	size_t nr, cap;
};

/* Copies name and module.  -ENOMEM on failure. */
int ks_sym_ranges_add(struct ks_sym_ranges *rs, uint64_t start, uint64_t size,
		      const char *name, const char *module);
/* The first range holding addr, in the order added; -ENOENT if none. */
int ks_sym_ranges_find(const struct ks_sym_ranges *rs, uint64_t addr,
		       struct ks_sym *sym_ret);
void ks_sym_ranges_release(struct ks_sym_ranges *rs);

#endif /* KS_SYM_RANGES_H */
