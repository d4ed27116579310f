/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmlinux symbols decoded from the kernel's own kallsyms tables in memory,
 * so that a dump needs no debug vmlinux to be named: Linux 6.0+ lists the
 * tables in VMCOREINFO (SYMBOL(kallsyms_names) and friends).  Every name,
 * every alias and its order are the kernel's own, so %pB names an address
 * exactly as /proc/PID/stack did.
 */
#ifndef KS_KALLSYMS_MEM_H
#define KS_KALLSYMS_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target.h"

/* Runtime addresses of the tables, 0 where the kernel has none. */
struct ks_kallsyms_mem_addrs {
	uint64_t names, num_syms, token_table, token_index;
	/* offsets from relative_base, or from their own place (7.0+: no base) */
	uint64_t offsets, relative_base;
	uint64_t addresses;			/* or absolute addresses */
	uint64_t stext;		/* _stext, to tell the address encodings apart */
};

struct ks_kallsyms_mem;

/*
 * Decodes every symbol (kallsyms_expand_symbol(), kallsyms_sym_address()).
 * -ENOENT when a table is missing, -EPROTONOSUPPORT when no address
 * encoding known here puts _stext at the address given, -EINVAL when the
 * tables do not decode to a sorted list, -EFAULT when they cannot be read,
 * -ENOMEM.  The target is used only during the call.
 */
int ks_kallsyms_mem_load(const struct ks_target *t,
			 const struct ks_kallsyms_mem_addrs *a,
			 struct ks_kallsyms_mem **ks_ret);
void ks_kallsyms_mem_free(struct ks_kallsyms_mem *ks);

size_t ks_kallsyms_mem_count(const struct ks_kallsyms_mem *ks);
/*
 * Whether the tables list data symbols (CONFIG_KALLSYMS_ALL): without
 * them there is no init_task, kprobe_table or ftrace_ops_list to find.
 */
bool ks_kallsyms_mem_has_data(const struct ks_kallsyms_mem *ks);

/*
 * get_symbol_pos() for addr inside the kernel image (is_ksym_addr()):
 * the first of the symbols at the highest address at or below addr,
 * sized to the next higher address.  -ENOENT outside the image.
 */
int ks_kallsyms_mem_lookup(const struct ks_kallsyms_mem *ks, uint64_t addr,
			   struct ks_sym *sym_ret);

/* kallsyms_lookup_name(): a global wins over a local of the same name. */
int ks_kallsyms_mem_addr(const struct ks_kallsyms_mem *ks, const char *name,
			 uint64_t *addr_ret);

#endif /* KS_KALLSYMS_MEM_H */
