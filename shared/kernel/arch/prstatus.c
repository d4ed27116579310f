// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pr_reg of struct elf_prstatus (include/linux/elfcore.h): after the
 * siginfo, the pids and the four times, at 112 on x86_64 and arm64.
 */
#include <errno.h>
#include <string.h>

#include "prstatus.h"

#define PRSTATUS_PR_REG	112

int ks_prstatus_pr_reg(const void *desc, size_t len, uint64_t *words,
		       size_t nr_words, struct ks_regs *regs)
{
	size_t size = nr_words * sizeof(*words);

	if (len < PRSTATUS_PR_REG + size)
		return -ENOENT;
	memcpy(words, (const char *)desc + PRSTATUS_PR_REG, size);
	memset(regs, 0, sizeof(*regs));
	return 0;
}
