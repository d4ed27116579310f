// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A walker says what it could not read through a struct ks_reporter:
 * these format the message and hand it over.  The sinks are the front
 * ends' (live/live_say.c, crash's error(INFO) in extension/), never the
 * core's.
 */
#include <stdarg.h>
#include <stdio.h>

#include "report.h"

void ks_vsay(const struct ks_reporter *r, enum ks_say_level level,
	     const char *fmt, va_list ap)
{
	char msg[4096];

	if (!r || !r->say)
		return;
	if (level == KS_INFO && r->verbosity < 1)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	r->say(r->arg, level, msg);
}

void ks_say(const struct ks_reporter *r, enum ks_say_level level,
	    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ks_vsay(r, level, fmt, ap);
	va_end(ap);
}

void ks_vreport(ks_report_fn report, void *arg, const char *fmt, va_list ap)
{
	char msg[4096];

	if (!report)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	report(arg, msg);
}

void ks_report(ks_report_fn report, void *arg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ks_vreport(report, arg, fmt, ap);
	va_end(ap);
}
