/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How a walker of kernel memory tells its caller about one list, task or
 * structure it could not read: one callback type for the task walk, the
 * hook walks and the member tables, so that each tool hands every walk
 * the same reporter (stderr for the live tool and --vmcore, crash's
 * error path inside crash).
 */
#ifndef KS_REPORT_H
#define KS_REPORT_H

#include <stdarg.h>

/* msg has no "kstack: " prefix and no newline; the reporter adds its own. */
typedef void (*ks_report_fn)(void *arg, const char *msg);

/* Formats a message and hands it to report (which may be NULL). */
void ks_vreport(ks_report_fn report, void *arg, const char *fmt, va_list ap);
void ks_report(ks_report_fn report, void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "s" after a count of n things, "" after one: "1 task", "2 tasks" */
static inline const char *ks_plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

#endif /* KS_REPORT_H */
