/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Background mode's log lines on stderr, in oled kstack's format:
 * "2023-09-30 19:14:36.101 INFO - Background PID: 12963".
 */
#ifndef KS_BG_LOG_H
#define KS_BG_LOG_H

#include <stdbool.h>

enum ks_log_level {
	KS_LOG_DEBUG,
	KS_LOG_INFO,
	KS_LOG_WARNING,
	KS_LOG_ERROR,
};

/* -v: DEBUG lines are printed too */
void ks_log_set_verbose(bool verbose);
void ks_log(enum ks_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* KS_BG_LOG_H */
