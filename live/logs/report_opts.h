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
