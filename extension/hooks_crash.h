/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_HOOKS_CRASH_H
#define KS_HOOKS_CRASH_H

#include <stdio.h>

#include "hooks_walk.h"
#include "options.h"
#include "target.h"

/*
 * kstack -K / -F inside crash: called by the crash command with the crash
 * target and its parsed options; the report goes to out (crash's fp), and
 * the walkers' complaints to rep, the reporter the command gives the
 * task walk (crash's error(INFO, ...)).  Returns 0, or a negative errno
 * when the kernel has no kprobes/ftrace or their types are missing (the
 * command then reports a failure).
 */
int ks_hooks_crash(const struct ks_target *t, const struct ks_options *opts,
		   FILE *out, const struct ks_reporter *rep);

#endif /* KS_HOOKS_CRASH_H */
