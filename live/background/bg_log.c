// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bg_log.h"

static bool log_verbose;
static ks_log_sink_fn log_sink;
static void *log_sink_ctx;

static const char *const level_names[] = {
	[KS_LOG_DEBUG] = "DEBUG",
	[KS_LOG_INFO] = "INFO",
	[KS_LOG_WARNING] = "WARNING",
	[KS_LOG_ERROR] = "ERROR",
};

void ks_log_set_sink(ks_log_sink_fn fn, void *ctx)
{
	log_sink = fn;
	log_sink_ctx = ctx;
}

void ks_log_set_verbose(bool verbose)
{
	log_verbose = verbose;
}

void ks_log(enum ks_log_level level, const char *fmt, ...)
{
	char line[1024];
	struct timespec ts;
	struct tm tm;
	size_t n = 0, text;
	va_list ap;
	ssize_t w;
	int m;

	if (level == KS_LOG_DEBUG && !log_verbose)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	/* local time, as Python's logging module prints it */
	if (localtime_r(&ts.tv_sec, &tm))
		n = strftime(line, sizeof(line), "%Y-%m-%d %H:%M:%S", &tm);
	m = snprintf(line + n, sizeof(line) - n, ".%03ld %s - ",
		     ts.tv_nsec / 1000000, level_names[level]);
	n += m > 0 ? (size_t)m : 0;
	text = n;
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (m > 0)
		n += (size_t)m < sizeof(line) - n - 1 ? (size_t)m : sizeof(line) - n - 2;
	line[n] = '\0';
	if (log_sink) {
		char msg[sizeof(line)];

		memcpy(msg, line + text, n - text + 1);
		line[n++] = '\n';
		log_sink(level, msg, line, n, log_sink_ctx);
		return;
	}
	line[n++] = '\n';
	/*
	 * One write per line: the parent, the middle child and the daemon
	 * share this stderr, and stdio buffers would interleave or duplicate
	 * across fork.
	 */
	w = write(STDERR_FILENO, line, n);
	(void)w;
}
