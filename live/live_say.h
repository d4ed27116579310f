/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live tool's one sink for what it tells the user: a line on stderr.
 * Every message of the binary goes through here, its own and the core's
 * (ks_live_reporter is the reporter the walkers are handed), so that the
 * words "kstack: " and the newline are written in one place.
 */
#ifndef KS_LIVE_SAY_H
#define KS_LIVE_SAY_H

#include <stdarg.h>

#include "report.h"

/* "kstack: MESSAGE\n" on stderr. */
void ks_live_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ks_live_vsay(const char *fmt, va_list ap);
/* A line of its own, without the prefix (the usage hint). */
void ks_say_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The reporter (report.h) of the live tool: ks_live_say()'s line. */
extern const struct ks_reporter ks_live_reporter;

#endif /* KS_LIVE_SAY_H */
