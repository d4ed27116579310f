/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_HOOKS_CRASH_H
#define KS_HOOKS_CRASH_H

#include <stdio.h>

#include "options.h"
#include "target.h"

/*
 * kstack -K / -F inside crash: called by the crash command with the crash
 * target and its parsed options; everything goes to out (crash's fp), the
 * walkers' complaints included, so that crash's redirection catches them.
 * Returns 0, or a negative errno when the kernel has no kprobes/ftrace or
 * their types are missing (the command then reports a failure).
 */
int ks_hooks_crash(const struct ks_target *t, const struct ks_options *opts,
		   FILE *out);

#endif /* KS_HOOKS_CRASH_H */
