// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --vmcore after the target is open.  Placeholder until the shared task
 * walker (shared/kernel_tasks.h) lands: it fails loudly.
 */
#include <stdio.h>

#include "kdump_run.h"
#include "live_sample.h"

int ks_kdump_sample(const struct ks_target *t, const struct ks_options *opts)
{
	(void)t;
	(void)opts;
	fprintf(stderr, "kstack: --vmcore: the task walker is not built in yet\n");
	return KS_EXIT_ERROR;
}
