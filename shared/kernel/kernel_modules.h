/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The `modules` list: every struct module's name, memory ranges, ORC
 * table pointers and kallsyms pointers, read the one way both of its
 * users (the ORC tables and the module symbols) need.  The layout of
 * struct module is decided once from type information: 6.1's
 * core_layout/init_layout (struct module_layout) or, when struct module
 * has a member mem, 6.4's mem[MOD_MEM_NUM_TYPES] (struct module_memory).
 */
#ifndef KS_KERNEL_MODULES_H
#define KS_KERNEL_MODULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "member_table.h"
#include "report.h"
#include "target.h"

struct ks_range {
	uint64_t start, end;	/* [start, end) */
};

#define KS_MODULE_NAME_LEN	56	/* MODULE_NAME_LEN on 64-bit */
#define KS_MODULE_RANGES	7	/* enum mod_mem_type in 6.4+ */

/* The members of struct module and its parts, -1 where absent. */
struct ks_module_layout {
	struct ks_field list, name, state;
	bool mem;				/* 6.4+: mem[] */
	struct ks_field core, init;		/* 6.1: struct module_layout */
	struct ks_field l_base, l_size, l_text;
	struct ks_field mem_arr;		/* 6.4: struct module_memory */
	long mem_esize;
	struct ks_field m_base, m_size;
	struct ks_field arch, num_orcs, orc_ip, orc;	/* UNWINDER_ORC */
	struct ks_field kallsyms, ks_symtab, ks_num, ks_strtab;
};

/* Fills l from the target's types; nothing is required here. */
void ks_module_layout_init(const struct ks_target *t, struct ks_module_layout *l);

/* Whether l knows where a module's memory ranges are. */
bool ks_module_layout_ranges(const struct ks_module_layout *l);

/*
 * One formed module.  Each part has its own error (0 or -errno), so that
 * each user decides what it can do without; after head_err nothing else
 * has been read.
 */
struct ks_module {
	uint64_t addr;				/* struct module */
	char name[KS_MODULE_NAME_LEN];
	int head_err;				/* state or name */
	struct ks_range text[2];		/* core and init text */
	int text_err;
	/* within_module(): 6.1's two layouts, 6.4's mem[] */
	struct ks_range all[KS_MODULE_RANGES];
	int nr_all;
	int ranges_err;				/* any of all[]; text_err too */
	uint64_t num_orcs, orc_unwind_ip, orc_unwind;	/* mod->arch */
	int orc_err;
	uint64_t symtab, strtab;		/* *mod->kallsyms */
	uint32_t num_symtab;
	int kallsyms_err;
};

/* Called for each formed module; a negative return ends the walk. */
typedef int (*ks_module_fn)(void *arg, const struct ks_module *m);

/*
 * Every module on `modules` but those still being loaded
 * (MODULE_STATE_UNFORMED, which __module_address() ignores), through
 * the loop-safe list walk.  Returns 0, -ENOENT without the list (no
 * `modules` symbol or module.list), fn's negative return or -ENOMEM.
 * When the list loops or breaks off, one line through rep says so.
 */
int ks_modules_walk(const struct ks_target *t, const struct ks_module_layout *l,
		    ks_module_fn fn, void *arg, const struct ks_reporter *rep);

#endif /* KS_KERNEL_MODULES_H */
