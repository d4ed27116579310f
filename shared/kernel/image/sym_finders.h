/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The symbol finders of a target, asked in one order: vmlinux's symbols
 * first, then the chain kallsyms_lookup() asks after vmlinux (modules,
 * BPF, ftrace_mod_maps), then a fallback.  kernel_image.c's finders and
 * the crash target's join the same list, so the order is written once.
 */
#ifndef KS_SYM_FINDERS_H
#define KS_SYM_FINDERS_H

#include <stddef.h>
#include <stdint.h>

#include "elf_symtab.h"
#include "kallsyms.h"
#include "kallsyms_mem.h"
#include "target.h"

/* Where a finder stands in the order; finders of one rank keep theirs. */
enum ks_finder_rank {
	KS_FIND_VMLINUX,	/* a .symtab, kallsyms in memory, crash's table */
	KS_FIND_CHAIN,		/* modules, BPF, ftrace_mod_maps */
	KS_FIND_FALLBACK,	/* a guess when nothing better knows */
};

/* One source of symbols; either question may be left out (NULL). */
struct ks_sym_finder {
	enum ks_finder_rank rank;
	int (*symbol)(void *src, const char *name, uint64_t *addr_ret);
	int (*lookup)(void *src, uint64_t addr, struct ks_sym *sym_ret);
	void *src;
};

#define KS_MAX_FINDERS	6

struct ks_sym_finders {
	struct ks_sym_finder f[KS_MAX_FINDERS];
	size_t nr;
};

/* Adds f in its rank's place: 0, or -ENOSPC when the list is full. */
int ks_finders_add(struct ks_sym_finders *l, const struct ks_sym_finder *f);
/* The first finder's answer; -ENOENT when none has one. */
int ks_finders_symbol(const struct ks_sym_finders *l, const char *name,
		      uint64_t *addr_ret);
int ks_finders_lookup(const struct ks_sym_finders *l, uint64_t addr,
		      struct ks_sym *sym_ret);

/* The finders of the sources every target may have. */
struct ks_sym_finder ks_finder_elf(struct ks_elf_symtab *tab);
struct ks_sym_finder ks_finder_kallsyms_mem(struct ks_kallsyms_mem *k);
/* lookup only: the chain names no symbol the vmlinux finders lack */
struct ks_sym_finder ks_finder_chain(struct ks_kallsyms *k);

#endif /* KS_SYM_FINDERS_H */
