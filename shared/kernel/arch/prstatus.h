/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct elf_prstatus, the descriptor of a dump's NT_PRSTATUS note: what
 * both 64-bit architectures share before each reads its own registers.
 */
#ifndef KS_PRSTATUS_H
#define KS_PRSTATUS_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"

/*
 * The nr_words words of pr_reg copied out of desc (a note is only 4-byte
 * aligned), and *regs zeroed for the caller to fill: 0, or -ENOENT for a
 * note too short to hold them.
 */
int ks_prstatus_pr_reg(const void *desc, size_t len, uint64_t *words,
		       size_t nr_words, struct ks_regs *regs);

#endif /* KS_PRSTATUS_H */
