/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kstack --snoop FUNC: the kernel stack of every call of FUNC, live, from
 * a kprobe event with a stack trace in a tracing instance of our own.
 */
#ifndef KS_SNOOP_H
#define KS_SNOOP_H

#include "live_options.h"
#include "options.h"

/* Runs until -t runs out or a signal comes; returns the exit status. */
int ks_snoop_run(const struct ks_options *opts,
		 const struct ks_live_options *live);

#endif /* KS_SNOOP_H */
