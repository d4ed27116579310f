/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Background mode's log lines, in oled kstack's format:
 * "2023-09-30 19:14:36.101 INFO - Background PID: 12963".  They go to
 * stderr until a sink is set: the detached sampler's DIR/kstack.log
 * (bg_logfile.c) or the journal (bg_journal.c).
 */
#ifndef KS_BG_LOG_H
#define KS_BG_LOG_H

#include <stdbool.h>
#include <stddef.h>

enum ks_log_level {
	KS_LOG_DEBUG,
	KS_LOG_INFO,
	KS_LOG_WARNING,
	KS_LOG_ERROR,
};

/*
 * Where a line goes: msg is the text alone, line the whole formatted
 * line with its newline (len bytes).
 */
typedef void (*ks_log_sink_fn)(enum ks_log_level level, const char *msg,
			       const char *line, size_t len, void *ctx);

/* NULL: back to stderr */
void ks_log_set_sink(ks_log_sink_fn fn, void *ctx);
/* -v: DEBUG lines are printed too */
void ks_log_set_verbose(bool verbose);
void ks_log(enum ks_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* KS_BG_LOG_H */
