/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NUL-terminated strings in kernel memory.  One reader for every walker,
 * so that a string that runs up to memory the image lacks is handled the
 * same way everywhere.
 */
#ifndef KS_KERNEL_STRING_H
#define KS_KERNEL_STRING_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

/*
 * Copies the string at addr into buf (cap bytes, cap >= 1).  Returns 0
 * for a whole string, -EFAULT when a byte before its end cannot be read,
 * -E2BIG when no NUL comes within cap - 1 bytes (buf then holds the
 * first cap - 1 of them).  buf is always NUL-terminated.
 */
int ks_read_kstring(const struct ks_target *t, uint64_t addr, char *buf,
		    size_t cap);

#endif /* KS_KERNEL_STRING_H */
