/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct ks_target over a running crash session: memory, symbols and type
 * offsets come from crash, nothing else does.  crash 8.0.2 cannot build
 * its task table for Debian's 6.1 kernels (FACTS.md section 6), so
 * nothing here touches crash's task contexts.
 */
#ifndef KS_TARGET_CRASH_H
#define KS_TARGET_CRASH_H

#include "target.h"

/*
 * The session's target, made on first use and kept: the dump does not
 * change while crash runs.  Symbols come from the vmlinux's own symbol
 * table (kallsyms' choices, shared/kernel/image/elf_symtab.c) and from each module's
 * kallsyms in memory, with crash's symbol table as the fallback.
 */
const struct ks_target *ks_crash_target(void);
/*
 * The end of a kstack command: the pages read are forgotten, since crash
 * may be reading a live kernel (/proc/kcore) whose memory moves.
 */
void ks_crash_target_end_command(void);
/* Frees what ks_crash_target() made (the extension's destructor). */
void ks_crash_target_release(void);

#endif /* KS_TARGET_CRASH_H */
