/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `kstack report DIR` and `kstack --report DIR`: what a background run's
 * logs say, read back in one streaming pass (report_files.c, report_lines.c,
 * report_parse.c), analysed (report_stacks.c, report_stuck.c, and here the
 * timeline and one PID's history) and written (report_write.c).
 */
#ifndef KS_REPORT_RUN_H
#define KS_REPORT_RUN_H

#include <stdio.h>

#include "live_options.h"
#include "options.h"

/* The report of a parsed "kstack report" command line; the exit status. */
int ks_report_run(const struct ks_options *opts,
		  const struct ks_live_options *live);
/* Its usage and its options' lines, after a mistake or for --help. */
void ks_report_usage(FILE *out);

#endif /* KS_REPORT_RUN_H */
