/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live tool's file:line: -l on a sample of the running kernel, and
 * kstack --decode (shared/lines/decode_text.c does the decoding).
 */
#ifndef KS_DECODE_H
#define KS_DECODE_H

#include <stdbool.h>

#include "live_options.h"
#include "options.h"
#include "task.h"

/*
 * -l: every stack of s decoded in place.  live: the running kernel's
 * (build ids checked); else the kernel of opts->vmlinux (a vmcore).
 * Says on stderr once what had no debug info.  0 or -ENOMEM.
 */
int ks_decode_sample(struct ks_sample *s, const struct ks_options *opts,
		     bool live);

/* kstack --decode [--vmlinux V] [FILE]: returns the exit status. */
int ks_decode_run(const struct ks_options *opts,
		  const struct ks_live_options *live);

#endif /* KS_DECODE_H */
