/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_HOOKS_LIVE_H
#define KS_HOOKS_LIVE_H

#include <stdbool.h>
#include <stdio.h>

#include "live_options.h"
#include "options.h"
#include "report.h"
#include "tracefs.h"

/* Runs -K/-F for the live tool; returns the process exit status. */
int ks_hooks_live(const struct ks_options *opts,
		  const struct ks_test_knobs *knobs);

/*
 * -K's part: kprobes/list's lines (JSON: a record a line), then as text
 * "== summary", "== kprobes enabled" and "== kprobe_events".  -F's part
 * (touched: touched_functions): enabled_functions' lines, then as text
 * "== summary" and the tracer's sections.  What cannot be read is said
 * through rep; each returns the exit status it earns.
 */
int ks_hooks_live_kprobes(const struct ks_tracefs *fs, bool json, FILE *out,
			  const struct ks_reporter *rep);
int ks_hooks_live_ftrace(const struct ks_tracefs *fs, bool touched, bool json,
			 FILE *out, const struct ks_reporter *rep);

#endif /* KS_HOOKS_LIVE_H */
