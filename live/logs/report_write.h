/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report's records as text or as JSON Lines (docs/report-json.md):
 * the timeline's samples and gaps, what was stuck, the common stacks,
 * one PID's changes, and the files cut short.  Reads no file.
 */
#ifndef KS_REPORT_WRITE_H
#define KS_REPORT_WRITE_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "report_parse.h"
#include "report_signatures.h"
#include "report_stacks.h"
#include "report_stuck.h"

struct ks_rp_writer {
	FILE *out;
	bool json;
};

void ks_rpw_section(struct ks_rp_writer *w, const char *title);
void ks_rpw_sample(struct ks_rp_writer *w, const struct ks_rp_sample *s);
void ks_rpw_gap(struct ks_rp_writer *w, time_t from, time_t to);
void ks_rpw_cut(struct ks_rp_writer *w, const char *file, const char *why);
void ks_rpw_stuck(struct ks_rp_writer *w, const struct ks_rp_streak *k,
		  const struct ks_rp_stack *stack);
void ks_rpw_stack(struct ks_rp_writer *w, const struct ks_rp_stack *e);
/* One row of the signatures section (text: under its column header). */
void ks_rpw_signature(struct ks_rp_writer *w, const struct ks_rp_sig *e);
/* t NULL: the PID is not in this sample any more */
void ks_rpw_change(struct ks_rp_writer *w, int pid, time_t when,
		   const struct ks_rp_task *t, const char *stack);
void ks_rpw_summary(struct ks_rp_writer *w, unsigned long samples,
		    time_t first, time_t last, unsigned long files);
/* "YYYY-MM-DD HH:MM:SS" local, and "1h02m03s" */
void ks_rpw_time(char *buf, size_t len, time_t t);
void ks_rpw_duration(char *buf, size_t len, time_t secs);

#endif /* KS_REPORT_WRITE_H */
