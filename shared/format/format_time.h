/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Durations as the views print them, from nanoseconds: "12.345s" (the
 * time since a task last ran, or was blocked) and an uptime, "1 day,
 * 03:04:05 (97445.123 s)".  Each returns buf, for a printf or an escaper.
 */
#ifndef KS_FORMAT_TIME_H
#define KS_FORMAT_TIME_H

#include <stddef.h>
#include <stdint.h>

#define KS_TIME_LEN	32	/* either form, with room to spare */

const char *ks_time_ms(char *buf, size_t len, uint64_t ns);
const char *ks_time_uptime(char *buf, size_t len, uint64_t ns);

#endif /* KS_FORMAT_TIME_H */
