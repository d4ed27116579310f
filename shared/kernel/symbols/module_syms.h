/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Symbols of loaded modules, read from kernel memory the way the kernel
 * itself names module text: each struct module on the `modules` list
 * keeps its own ELF symbol table in mod->kallsyms (symtab, num_symtab,
 * strtab), which is all /proc/PID/stack uses for " [module]" frames.
 *
 * The modules themselves come from kernel_modules.c, which reads 6.1's
 * core_layout/init_layout and 6.4's mem[] array alike.
 */
#ifndef KS_MODULE_SYMS_H
#define KS_MODULE_SYMS_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

struct ks_module_syms;

/*
 * Reads every module's name, address ranges and symbols.  A module that
 * cannot be read is skipped and counted (ks_module_syms_skipped); the
 * call fails only without the `modules` symbol or the struct module
 * members it needs (-ENOENT), or for -ENOMEM.
 */
int ks_module_syms_load(const struct ks_target *t,
			struct ks_module_syms **ms_ret);
void ks_module_syms_free(struct ks_module_syms *ms);

size_t ks_module_syms_count(const struct ks_module_syms *ms);
size_t ks_module_syms_skipped(const struct ks_module_syms *ms);
/* How the module list ended early (it looped or broke off), or NULL. */
const char *ks_module_syms_error(const struct ks_module_syms *ms);
/*
 * The modules skipped because their struct module or symbols could not
 * be read, as "NAME at 0xADDR (why), ...", or NULL: their frames print as
 * bare addresses.
 */
const char *ks_module_syms_unread(const struct ks_module_syms *ms);

/*
 * kernel/module/kallsyms.c find_kallsyms_symbol() for an address inside a
 * module (__module_address): the closest symbol at or below addr, sized
 * up to the next symbol or the end of the module's text.  The name and
 * module strings live as long as ms.  -ENOENT outside every module.
 */
int ks_module_syms_lookup(const struct ks_module_syms *ms, uint64_t addr,
			  struct ks_sym *sym_ret);

#endif /* KS_MODULE_SYMS_H */
