/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every reader of a sample says the same way, whoever reads it (the
 * live tool, --vmcore, the crash command): the -p PIDs the sample lacks,
 * and the sample's text on a stream.  Messages go through the caller's
 * reporter, which decides where they land.
 */
#ifndef KS_SAMPLE_REPORT_H
#define KS_SAMPLE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "format_opts.h"
#include "report.h"
#include "select.h"
#include "task.h"

/*
 * "PID N does not exist<where>" for every -p PID absent from s, when -p
 * is the only selection (under -D/-S... a PID may exist and just not be
 * selected); returns how many.
 */
size_t ks_report_missing(const struct ks_selection *sel,
			 const struct ks_sample *s, const char *where,
			 const struct ks_reporter *rep);

/*
 * Whether s holds no task at all, said as "no task matched the
 * selection" unless missing -p PIDs (ks_report_missing()) said why
 * already: the one verdict of the live tool, --vmcore, crash and -b.
 */
bool ks_report_no_match(const struct ks_sample *s, size_t missing,
			const struct ks_reporter *rep);

/* The sample in opts' format on f, flushed: 0 or -errno. */
int ks_sample_write(FILE *f, const struct ks_sample *s,
		    const struct ks_format_opts *opts);

#endif /* KS_SAMPLE_REPORT_H */
