/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line of `kstack report DIR` (and `kstack --report DIR`).
 * Its options are rows of the one option table (the live tool's, in
 * live/options/live_options.c, of the mode KS_IN_REPORT), parsed, listed in its usage and checked against
 * the man page as every other mode's are; this is what the report reads
 * of them.
 */
#ifndef KS_REPORT_OPTS_H
#define KS_REPORT_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "live_options.h"

struct ks_report_opts {
	const char *path;	/* DIR (or one log file) */
	bool json;		/* --json: JSON Lines */
	bool folded;		/* --folded: the whole period for a flame graph */
	int pid;		/* --pid N: its stack where it changed; 0 unset */
	time_t since;		/* --since: samples at or after; 0 unset */
	time_t until;		/* --until: samples at or before; 0 unset */
	long top;		/* --top N: stuck tasks and stacks listed */
};

/*
 * "kstack ... --report DIR ...", the older spelling, as "kstack report
 * ... DIR": 1 and a new argv in *v (to free) and *argc, 0 when argv is
 * not that spelling, -ENOMEM.
 */
int ks_report_argv(int *argc, char **argv, char ***v);
/* What the report reads of a parsed "kstack report" command line. */
void ks_report_opts_from(struct ks_report_opts *o,
			 const struct ks_live_options *live);

#endif /* KS_REPORT_OPTS_H */
