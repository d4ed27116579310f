/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options of `kstack report DIR` (and `kstack --report DIR`), one row
 * each in report_opts.c: the parser and the usage text come from that
 * table, the way the main option table does for the sampling options.
 */
#ifndef KS_REPORT_OPTS_H
#define KS_REPORT_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "report.h"

struct ks_report_opts {
	const char *path;	/* DIR (or one log file) */
	bool json;		/* --json: JSON Lines */
	bool folded;		/* --folded: the whole period for a flame graph */
	int pid;		/* --pid N: its stack where it changed; 0 unset */
	time_t since;		/* --since: samples at or after; 0 unset */
	time_t until;		/* --until: samples at or before; 0 unset */
	long top;		/* --top N: stuck tasks and stacks listed */
	bool help;
};

/*
 * Fills o from argv (argv[0] is "report"); 0, or -EINVAL after a
 * one-line reason through report.
 */
int ks_report_opts_parse(struct ks_report_opts *o, int argc, char **argv,
			 ks_report_fn report, void *arg);
/* "2026-11-24 23:10[:05]", "2026-11-24T23:10:05", "2026-11-24", "@EPOCH" */
int ks_report_parse_time(const char *s, time_t *t);
const char *ks_report_usage(void);

#endif /* KS_REPORT_OPTS_H */
