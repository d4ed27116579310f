/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How a walker of kernel memory tells its caller about one list, task or
 * structure it could not read: one reporter for the task walk, the hook
 * walks and the member tables, so that each tool hands every walk the
 * same sink (stderr for the live tool and --vmcore, crash's error path
 * inside crash), built once.
 */
#ifndef KS_REPORT_H
#define KS_REPORT_H

#include <stdarg.h>

enum ks_say_level {
	KS_WARN,	/* said at any verbosity */
	KS_INFO,	/* said only at verbosity 1 (-v) and above */
};

struct ks_reporter {
	/* text has no "kstack: " prefix and no newline: the sink adds them */
	void (*say)(void *arg, enum ks_say_level level, const char *text);
	void *arg;
	int verbosity;
};

/* Hands text as it is to r's sink; r may be NULL (silence). */
void ks_say_text(const struct ks_reporter *r, enum ks_say_level level,
		 const char *text);
/* Formats a message (up to 4 KiB) and hands it to r's sink, as above. */
void ks_vsay(const struct ks_reporter *r, enum ks_say_level level,
	     const char *fmt, va_list ap);
void ks_say(const struct ks_reporter *r, enum ks_say_level level,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * "ABOUTWHAT: why", why in the caller's format: a refusal or a failed
 * search that names what it was about ("PATH", " is refused").  Returns
 * err, for the caller to return.
 */
int ks_say_why(const struct ks_reporter *r, enum ks_say_level level, int err,
	       const char *about, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* "s" after a count of n things, "" after one: "1 task", "2 tasks" */
static inline const char *ks_plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

#endif /* KS_REPORT_H */
