// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "sym_finders.h"

int ks_finders_add(struct ks_sym_finders *l, const struct ks_sym_finder *f)
{
	size_t i;

	if (l->nr == KS_MAX_FINDERS)
		return -ENOSPC;
	for (i = l->nr; i > 0 && l->f[i - 1].rank > f->rank; i--)
		l->f[i] = l->f[i - 1];
	l->f[i] = *f;
	l->nr++;
	return 0;
}

int ks_finders_symbol(const struct ks_sym_finders *l, const char *name,
		      uint64_t *addr_ret)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->f[i].symbol && !l->f[i].symbol(l->f[i].src, name, addr_ret))
			return 0;
	return -ENOENT;
}

int ks_finders_lookup(const struct ks_sym_finders *l, uint64_t addr,
		      struct ks_sym *sym_ret)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->f[i].lookup && !l->f[i].lookup(l->f[i].src, addr, sym_ret))
			return 0;
	return -ENOENT;
}

static int elf_symbol(void *src, const char *name, uint64_t *addr_ret)
{
	return ks_elf_symtab_addr(src, name, addr_ret);
}

static int elf_lookup(void *src, uint64_t addr, struct ks_sym *sym_ret)
{
	return ks_elf_symtab_lookup(src, addr, sym_ret);
}

struct ks_sym_finder ks_finder_elf(struct ks_elf_symtab *tab)
{
	return (struct ks_sym_finder){ KS_FIND_VMLINUX, elf_symbol, elf_lookup, tab };
}

static int kmem_symbol(void *src, const char *name, uint64_t *addr_ret)
{
	return ks_kallsyms_mem_addr(src, name, addr_ret);
}

static int kmem_lookup(void *src, uint64_t addr, struct ks_sym *sym_ret)
{
	return ks_kallsyms_mem_lookup(src, addr, sym_ret);
}

struct ks_sym_finder ks_finder_kallsyms_mem(struct ks_kallsyms_mem *k)
{
	return (struct ks_sym_finder){ KS_FIND_VMLINUX, kmem_symbol, kmem_lookup, k };
}

static int chain_lookup(void *src, uint64_t addr, struct ks_sym *sym_ret)
{
	return ks_kallsyms_lookup(src, addr, sym_ret);
}

struct ks_sym_finder ks_finder_chain(struct ks_kallsyms *k)
{
	return (struct ks_sym_finder){ KS_FIND_CHAIN, NULL, chain_lookup, k };
}
