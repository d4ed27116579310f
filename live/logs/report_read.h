/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One log file read whole through the parser, for kstack report and
 * kstack diff: the lines (report_lines.c) into the samples
 * (report_parse.c), and what the reading skipped, said the same way for
 * both.
 */
#ifndef KS_REPORT_READ_H
#define KS_REPORT_READ_H

#include "report.h"
#include "report_lines.h"
#include "report_parse.h"

/*
 * Every line of l through p; the last sample is handed over only when
 * whole (not torn, not cut by a damaged archive's end).  0, or the
 * parser's error.
 */
int ks_rp_read_all(struct ks_rp_parser *p, struct ks_report_lines *l);

/*
 * What reading name skipped or guessed, one line each through rep: lines
 * cut at their limit, NUL bytes, lines of no log, PIDs out of range.
 */
void ks_rp_read_notes(const struct ks_reporter *rep, const char *name,
		      const struct ks_report_lines *l,
		      const struct ks_rp_parser *p);

#endif /* KS_REPORT_READ_H */
