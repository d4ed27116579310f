/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's .BTF found by the shape of its header, for a kernel whose
 * kallsyms does not list __start_BTF (built without CONFIG_KALLSYMS_ALL,
 * as Debian's arm64 kernels are): the section lies in the read-only data
 * between _etext and _sinittext.
 */
#ifndef KS_BTF_SCAN_H
#define KS_BTF_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

/*
 * Looks at each 4-byte aligned address of [start, end) for a BTF header
 * (struct btf_header: magic 0xeB9F, version 1, hdr_len 24, the types
 * first, the strings right after them, the blob inside the range and no
 * larger than max) and calls try() with each candidate's address and
 * size until one returns 0.  Returns 0, -ENOENT when none was taken, or
 * a read error.
 */
int ks_btf_scan(const struct ks_target *t, uint64_t start, uint64_t end,
		size_t max, int (*try)(void *arg, uint64_t addr, size_t size),
		void *arg);

#endif /* KS_BTF_SCAN_H */
