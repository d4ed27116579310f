/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What ftrace remembers of module text that is gone: when a module's init
 * text is freed, and for functions of a module ftrace traced, ftrace keeps
 * their names and ranges on ftrace_mod_maps, and kallsyms_lookup() asks
 * ftrace_mod_address_lookup() last (kernel/trace/ftrace.c, 6.1 and 6.12).
 * A GONE kprobe left in freed init text is named from here.
 */
#ifndef KS_FTRACE_MOD_SYMS_H
#define KS_FTRACE_MOD_SYMS_H

#include "sym_ranges.h"
#include "target.h"

/*
 * Appends every ftrace_mod_func of every ftrace_mod_map to rs, in list
 * order, with the map's module name.  -ENOENT for a kernel without
 * ftrace_mod_maps or its members; -EFAULT or -ELOOP for a list that
 * breaks (what came before is kept); -ENOMEM.
 */
int ks_ftrace_mod_syms_read(const struct ks_target *t, struct ks_sym_ranges *rs);

#endif /* KS_FTRACE_MOD_SYMS_H */
