/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kstack diff A B, or A --vmcore DUMP: what changed between two captures
 * (live/diff/diff.h), with diff(1)'s exit status.
 */
#ifndef KS_DIFF_RUN_H
#define KS_DIFF_RUN_H

#include <stdio.h>

#include "live_options.h"
#include "options.h"

/* diff's exit statuses, diff(1)'s */
enum {
	KS_DIFF_SAME = 0,
	KS_DIFF_CHANGED = 1,
	KS_DIFF_TROUBLE = 2,
};

/* Its usage and options (kstack diff -h, and after a usage error). */
void ks_diff_usage(FILE *out);
int ks_diff_run(const struct ks_options *opts,
		const struct ks_live_options *live);

#endif /* KS_DIFF_RUN_H */
