// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report sinks: a walker says what it could not read through a
 * ks_report_fn; these format the message and, for the tools that write
 * to a stream, print it as the "kstack: " line users know.
 */
#include <stdarg.h>
#include <stdio.h>

#include "report.h"

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

void ks_report_file(void *arg, const char *msg)
{
	fprintf(arg, "kstack: %s\n", msg);
}
