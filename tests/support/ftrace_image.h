/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fake kernel (fake_target.h) that traces every function, laid out like
 * Linux 6.1 x86_64, for the -F scale test (tests/unit/test_ftrace_scale.c)
 * and bench (tests/bench/ftrace_mem.c):
 *
 *   n functions, each with an enabled dyn_ftrace record, on ftrace_pages
 *   of KS_FTIMG_PER_PAGE records (one 4 KiB page of 16-byte records, as
 *   ftrace_allocate_records() fills them), the last twentieth in the
 *   modules benchmod00..benchmod39 (KS_FTIMG_MODS);
 *   the function tracer's ops, with an allocated trampoline and no
 *   filter: every record but those below calls its trampoline;
 *   one record in KS_FTIMG_SHARED_EVERY shared with a kprobe's ops
 *   (R I, the static caller: " ->ftrace_ops_list_func");
 *   one in KS_FTIMG_DIRECT_EVERY a direct call to bench_direct_tramp
 *   [benchdirect] instead (D, "\tdirect-->"), in direct_functions;
 *   current_tracer "function".
 */
#ifndef KS_FTRACE_IMAGE_H
#define KS_FTRACE_IMAGE_H

#include <stddef.h>

#include "fake_target.h"

#define KS_FTIMG_PER_PAGE	256
#define KS_FTIMG_MODS		40
#define KS_FTIMG_SHARED_EVERY	1000
#define KS_FTIMG_DIRECT_EVERY	5000

/* What the summary of such an image counts. */
struct ks_ftrace_image_counts {
	size_t n, regs, ipmodify, direct, tramp;
};

/* Builds the image of n records into f; 0, or -ENOMEM / -EFAULT. */
int ks_ftrace_image_make(struct ks_fake *f, size_t n,
			 struct ks_ftrace_image_counts *counts);

#endif /* KS_FTRACE_IMAGE_H */
