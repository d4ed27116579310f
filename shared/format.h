/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writers for one sample.  Each prints a whole sample to a stdio stream;
 * the caller decides whether that is stdout, crash's fp or a log file.
 */
#ifndef KS_FORMAT_H
#define KS_FORMAT_H

#include <stdio.h>

#include "group.h"
#include "options.h"
#include "task.h"

int ks_format_text(FILE *out, const struct ks_sample *s,
		   const struct ks_groups *g);
int ks_format_summary(FILE *out, const struct ks_sample *s,
		      const struct ks_groups *g);
int ks_format_json(FILE *out, const struct ks_sample *s,
		   const struct ks_groups *g);
int ks_format_folded(FILE *out, const struct ks_sample *s,
		     const struct ks_groups *g);

/* Groups s and writes it in the format opts asks for; -errno on failure. */
int ks_format_sample(FILE *out, const struct ks_sample *s,
		     const struct ks_options *opts);

/* "zzz <Sat Sep 30 16:57:18 GMT 2023 - host" in local time, no newline */
int ks_format_header(char *buf, size_t len, time_t when, const char *host);

#endif /* KS_FORMAT_H */
