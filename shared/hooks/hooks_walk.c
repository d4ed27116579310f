// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the kprobe and ftrace walkers share: how a complaint reaches the
 * caller's reporter.
 */
#include <stdarg.h>
#include <stdio.h>

#include "hooks_walk.h"

#define MSG_PREFIX	"kstack: "

void ks_hooks_report_file(void *arg, const char *msg)
{
	fprintf(arg, MSG_PREFIX "%s\n", msg);
}

void ks_hooks_say(ks_report_fn report, void *arg, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!report)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	report(arg, msg);
}
