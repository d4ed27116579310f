/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct ks_target over a running crash session: a reader of crash's
 * memory, symbol names, types (gdb's, from the DWARF) and CPU notes, made
 * into the kernel's image by ks_image_open() (image_open.h), which adds
 * the vmlinux's .symtab and .BTF, the kallsyms chain of modules and BPF,
 * and user memory through the page tables.  crash 8.0.2 cannot build its
 * task table for Debian's 6.1 kernels, so nothing here touches crash's
 * task contexts.
 */
#ifndef KS_TARGET_CRASH_H
#define KS_TARGET_CRASH_H

#include "report.h"
#include "target.h"

/*
 * The session's target, made on first use and kept: the dump does not
 * change while crash runs.  Symbols come from the vmlinux's own symbol
 * table (kallsyms' choices, shared/kernel/image/elf_symtab.c) and from each module's
 * kallsyms in memory, with crash's symbol table as the fallback, in the
 * order of shared/kernel/image/sym_finders.h.
 */
const struct ks_target *ks_crash_target(void);
/*
 * -v: what the target fell back from (no .symtab: crash's table; no
 * .BTF: gdb's types) and each kallsyms source that failed.
 */
void ks_crash_target_report(const struct ks_reporter *rep);
/*
 * The end of a kstack command: the pages read are forgotten, since crash
 * may be reading a live kernel (/proc/kcore) whose memory moves.
 */
void ks_crash_target_end_command(void);
/* Frees what ks_crash_target() made (the extension's destructor). */
void ks_crash_target_release(void);

#endif /* KS_TARGET_CRASH_H */
