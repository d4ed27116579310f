// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A walker says what it could not read through a struct ks_reporter:
 * these format the message and hand it over.  The sinks are the front
 * ends' (live/live_say.c, crash's error(INFO) in extension/), never the
 * core's.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "report.h"

static bool said(const struct ks_reporter *r, enum ks_say_level level)
{
	return r && r->say && (level != KS_INFO || r->verbosity >= 1);
}

void ks_say_text(const struct ks_reporter *r, enum ks_say_level level,
		 const char *text)
{
	if (said(r, level))
		r->say(r->arg, level, text);
}

void ks_vsay(const struct ks_reporter *r, enum ks_say_level level,
	     const char *fmt, va_list ap)
{
	char msg[4096];

	if (!said(r, level))
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

int ks_say_why(const struct ks_reporter *r, enum ks_say_level level, int err,
	       const char *about, const char *what, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	if (!said(r, level))
		return err;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	ks_say(r, level, "%s%s: %s", about, what, why);
	return err;
}
